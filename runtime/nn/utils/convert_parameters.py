"""Parameters to one flat vector and back, as ``torch.nn.utils.convert_parameters``."""

from ..._generated.ops import cat
from ..._tensor import Tensor, typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters) -> Tensor:
    """The parameters flattened and concatenated into one vector (differentiable).

    >>> import yaten
    >>> ps = [yaten.nn.Parameter(yaten.ones(2, 2)), yaten.nn.Parameter(yaten.zeros(1))]
    >>> yaten.nn.utils.parameters_to_vector(ps)
    tensor([1., 1., 1., 1., 0.], grad_fn=<CatBackward0>)
    """
    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        vec.append(param.view(-1))
    return cat(vec)


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """Make each parameter (in order) look at its slice of ``vec`` (they then share ``vec``'s memory).

    >>> import yaten
    >>> ps = [yaten.nn.Parameter(yaten.zeros(2)), yaten.nn.Parameter(yaten.zeros(1, 1))]
    >>> yaten.nn.utils.vector_to_parameters(yaten.tensor([1.0, 2.0, 3.0]), ps)
    >>> ps[1]
    Parameter containing:
    tensor([[3.]], requires_grad=True)
    """
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    param_device = None
    pointer = 0
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        num_param = param.numel()
        param.data = vec[pointer : pointer + num_param].view(param.shape)
        pointer += num_param


def _check_param_device(param, old_param_device):
    """Parameters must all be on one device: -1 for cpu, else the GPU index."""
    if old_param_device is None:
        return param.device.index if param.is_cuda else -1
    warn = param.device.index != old_param_device if param.is_cuda else old_param_device != -1
    if warn:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_param_device
