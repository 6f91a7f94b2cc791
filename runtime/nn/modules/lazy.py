"""``LazyModuleMixin``: modules whose parameter shapes come from their first input, as
``torch.nn.modules.lazy``.

A lazy module holds ``UninitializedParameter``/``UninitializedBuffer`` objects until its first forward:
a forward pre-hook calls ``initialize_parameters(*input)`` (which materializes them and runs
``reset_parameters``), removes itself and turns the module into its ``cls_to_become``
(``LazyLinear`` becomes ``Linear``). Its state_dict holds the uninitialized tensors themselves, and
loading an initialized state_dict materializes them to the loaded shapes.
"""

import itertools

from ...autograd.grad_mode import no_grad
from ..parameter import is_lazy

__all__ = ["LazyModuleMixin"]


class LazyModuleMixin:
    """The mixin of the lazy modules (put before the eager class: ``class LazyLinear(LazyModuleMixin,
    Linear)``); a subclass defines ``initialize_parameters`` and ``cls_to_become``.

    >>> import yaten
    >>> net = yaten.nn.Sequential(yaten.nn.LazyLinear(4), yaten.nn.ReLU(), yaten.nn.LazyLinear(1))
    >>> net[0], net[0].has_uninitialized_params()
    (LazyLinear(in_features=0, out_features=4, bias=True), True)
    >>> list(net.state_dict().values())[:2]
    [<UninitializedParameter>, <UninitializedParameter>]
    >>> net(yaten.ones(2, 3)).shape
    yaten.Size([2, 1])
    >>> net[0], type(net[2]).__name__
    (Linear(in_features=3, out_features=4, bias=True), 'Linear')
    """

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters, with_kwargs=True)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        # An uninitialized tensor is saved as itself (it has nothing to detach).
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if is_lazy(param) or keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if is_lazy(buf) or keep_vars else buf.detach()

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                        error_msgs):  # fmt: skip
        """Materialize each uninitialized tensor that the state_dict gives an initialized value, so that
        the load copies into it."""
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None and is_lazy(param):
                input_param = state_dict[key]
                if not is_lazy(input_param):
                    with no_grad():
                        param.materialize(input_param.shape)

    def initialize_parameters(self, *args, **kwargs):
        """Materialize the parameters from the first input (each lazy class defines it)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for {self.__class__.__name__}")

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer of this module (not of its children) is still uninitialized."""
        return any(is_lazy(t) for t in itertools.chain(self._parameters.values(), self._buffers.values()))

    def _infer_parameters(self, module, args, kwargs=None):
        kwargs = kwargs if kwargs else {}
        module.initialize_parameters(*args, **kwargs)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self):
        raise RuntimeError(
            "Modules with uninitialized parameters can't be used with `DataParallel`. "
            "Run a dummy forward pass to correctly initialize the modules"
        )
