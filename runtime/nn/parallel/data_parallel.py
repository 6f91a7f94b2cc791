"""``DataParallel`` and ``data_parallel``, as torch's: the batch is scattered over the CUDA devices,
the module runs on each, and the outputs are gathered. yaten drives one CUDA device, so ``device_ids``
can only name device 0: the module moves there and inputs are copied to it (torch's one-device path).
Without CUDA, ``DataParallel`` runs the module as it is (``device_ids == []``), as torch's does.
"""

from itertools import chain

from ... import _device as _dev
from ..modules.module import Module
from .parallel_apply import parallel_apply
from .scatter_gather import gather, scatter_kwargs

__all__ = ["DataParallel", "data_parallel"]


def _cuda_available() -> bool:
    from ... import cuda

    return cuda.is_available()


def _index(d) -> int:
    if isinstance(d, (str, _dev.device)):
        d = _dev.device(d)
        return 0 if d.index is None else d.index
    return int(d)


class DataParallel(Module):
    """Run ``module`` over the batch split along ``dim`` on ``device_ids``; ``state_dict`` keys carry the
    ``module.`` prefix, as torch's.

    >>> import yaten
    >>> dp = yaten.nn.DataParallel(yaten.nn.Linear(2, 1))
    >>> list(dp.state_dict())
    ['module.weight', 'module.bias']
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0) -> None:
        super().__init__()
        if not _cuda_available():
            self.module = module
            self.device_ids = []
            return
        if device_ids is None:
            from ... import cuda

            device_ids = list(range(cuda.device_count()))
        if output_device is None:
            output_device = device_ids[0]
        self.dim = dim
        self.module = module
        self.device_ids = [_index(x) for x in device_ids]
        self.output_device = _index(output_device)
        self.src_device_obj = _dev.canonical(_dev.device("cuda", self.device_ids[0]))
        for index in self.device_ids:
            _dev.canonical(
                _dev.device("cuda", index)
            )  # torch's invalid-ordinal error for a device yaten lacks
        if len(self.device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        return _run(self.module, inputs, kwargs, self.device_ids, self.output_device, self.dim)


def _run(module, inputs, kwargs, device_ids, output_device, dim):
    """Scatter the arguments over ``device_ids``, run ``module`` on each part, gather on ``output_device``."""
    src = _dev.canonical(_dev.device("cuda", device_ids[0]))
    for t in chain(module.parameters(), module.buffers()):
        if t.device != src:
            raise RuntimeError(
                "module must have its parameters and buffers "
                f"on device {src} (device_ids[0]) but found one of "
                f"them on device: {t.device}"
            )
    inputs, module_kwargs = scatter_kwargs(inputs, kwargs, device_ids, dim)
    if not inputs and not module_kwargs:
        inputs, module_kwargs = ((),), ({},)
    if len(device_ids) == 1:
        return module(*inputs[0], **module_kwargs[0])
    outputs = parallel_apply([module] * len(inputs), inputs, module_kwargs)
    return gather(outputs, output_device, dim)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    """The functional form of ``DataParallel``: scatter ``inputs``, run ``module``, gather on
    ``output_device``. Without CUDA it is torch's error.

    >>> import yaten
    >>> relu, x = yaten.nn.ReLU(), yaten.tensor([-1.0, 2.0])
    >>> try:
    ...     out = yaten.nn.parallel.data_parallel(relu, x).cpu()
    ... except RuntimeError:  # without CUDA: torch's "device type could not be determined"
    ...     out = relu(x)
    >>> out.tolist()
    [0.0, 2.0]
    """
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    if not _cuda_available():
        raise RuntimeError("device type could not be determined")
    from ... import cuda

    if device_ids is None:
        device_ids = list(range(cuda.device_count()))
    device_ids = [_index(x) for x in device_ids]
    output_device = device_ids[0] if output_device is None else _index(output_device)
    return _run(module, inputs, module_kwargs, device_ids, output_device, dim)
