"""``yaten.nn.utils.parametrize``: a tensor of a module computed by modules from unconstrained originals,
as ``torch.nn.utils.parametrize``.

Registering a parametrization swaps the module's class for a subclass (``ParametrizedLinear``) that
carries a property per parametrized name, and moves the original tensor to
``module.parametrizations.<name>.original`` (``original0``, ``original1``, ... when the first
parametrization's ``right_inverse`` returns several tensors), so state_dict keys are torch's.
"""

import collections.abc
import contextlib
import copyreg
import itertools
from contextlib import contextmanager
from copy import deepcopy

from ... import autograd
from ..._tensor import Tensor
from ..modules.container import Module, ModuleDict, ModuleList
from ..parameter import Parameter

__all__ = [
    "ParametrizationList",
    "cached",
    "is_parametrized",
    "register_parametrization",
    "remove_parametrizations",
    "transfer_parametrizations_and_params",
    "type_before_parametrizations",
]

# Depth of nested ``cached()`` blocks, and the values computed inside them: (id(module), name) -> tensor.
_cache_enabled = 0
_cache: dict = {}

_NOT_A_SEQUENCE = "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "


@contextmanager
def cached():
    """Compute each parametrized tensor once inside the block and reuse it (an RNN's recurrent weight,
    a tied weight); the values are dropped on leaving the outermost block.

    >>> from yaten import nn
    >>> from yaten.nn.utils import parametrize as P
    >>> m = P.register_parametrization(nn.Linear(2, 2), "weight", nn.Tanh())
    >>> with P.cached():
    ...     m.weight is m.weight
    True
    """
    global _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if _cache_enabled == 0:
            _cache.clear()


def _attach(owner: Module, name: str, tensor) -> None:
    """A Parameter is registered as a parameter, any other tensor as a buffer."""
    if isinstance(tensor, Parameter):
        owner.register_parameter(name, tensor)
    else:
        owner.register_buffer(name, tensor)


def _pulled_back(modules, value):
    """``value`` through the modules' ``right_inverse`` in reverse order (at registration: a module without
    one, or whose one raises NotImplementedError, passes the value on)."""
    with autograd.no_grad():
        for module in reversed(modules):
            if hasattr(module, "right_inverse"):
                with contextlib.suppress(NotImplementedError):
                    value = module.right_inverse(value)
    return value


def _check_same_kind(original, replacement) -> None:
    """A single tensor from ``right_inverse`` must keep the original's dtype and device."""
    for what in ("dtype", "device"):
        old, new = getattr(original, what), getattr(replacement, what)
        if old != new:
            raise ValueError(
                f"When `right_inverse` outputs one tensor, it may not change the {what}.\n"
                f"original.{what}: {old}\n"
                f"right_inverse(original).{what}: {new}"
            )


def _check_unchanged(result, dtype, shape) -> None:
    """What a safe parametrization computes must be a tensor of the unparametrized dtype and shape."""
    if not isinstance(result, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(result).__name__}.")
    for what, before, after in (("dtype", dtype, result.dtype), ("shape", shape, result.shape)):
        if before != after:
            raise ValueError(
                f"Registering a parametrization may not change the {what} of the tensor, unless `unsafe` "
                "flag is enabled.\n"
                f"unparametrized {what}: {before}\n"
                f"parametrized {what}: {after}"
            )


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor and its original(s): ``module.parametrizations[name]``.

    Built by :func:`register_parametrization`, not by hand. The original is ``original`` when the first
    parametrization's ``right_inverse`` returns one tensor (or is absent), else ``original0``,
    ``original1``, ...

    >>> from yaten import nn
    >>> from yaten.nn.utils import parametrize as P
    >>> m = P.register_parametrization(nn.Linear(2, 2), "bias", nn.Softsign())
    >>> type(m.parametrizations.bias).__name__
    'ParametrizationList'
    """

    def __init__(self, modules, original: Tensor, unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        dtype, shape = original.dtype, original.shape
        initial = _pulled_back(self, original)
        if not isinstance(initial, (Tensor, collections.abc.Sequence)):
            raise ValueError(_NOT_A_SEQUENCE + f"Got {type(initial).__name__}")
        # torch's attribute names: is_tensor (one original or several) and ntensors.
        self.is_tensor = isinstance(initial, Tensor)
        self.ntensors = 1 if self.is_tensor else len(initial)
        if self.is_tensor:
            self._adopt_single(original, initial)
        else:
            self._adopt_several(original, initial)
        if not unsafe:
            _check_unchanged(self(), dtype, shape)

    def _adopt_single(self, original, initial) -> None:
        _check_same_kind(original, initial)
        # set_ keeps the original's identity, so an optimizer built before registration still holds it.
        with autograd.no_grad():
            original.set_(initial)
        _attach(self, "original", original)

    def _adopt_several(self, original, pieces) -> None:
        wants_grad = original.requires_grad
        for i, piece in enumerate(pieces):
            if not isinstance(piece, Tensor):
                raise ValueError(
                    _NOT_A_SEQUENCE + f"Got element {i} of the sequence with type {type(piece).__name__}."
                )
            if isinstance(original, Parameter):
                piece = Parameter(piece, wants_grad)
            _attach(self, f"original{i}", piece.requires_grad_(wants_grad))

    def _originals(self) -> list:
        if self.is_tensor:
            return [self.original]
        return [getattr(self, f"original{i}") for i in range(self.ntensors)]

    def right_inverse(self, value: Tensor) -> None:
        """Store ``value`` as the original(s): the parametrizations' ``right_inverse`` in reverse order."""
        with autograd.no_grad():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(
                        f"parametrization {type(module).__name__} does not implement right_inverse."
                    )
                value = module.right_inverse(value)
            if self.is_tensor:
                self._store_single(value)
            else:
                self._store_several(value)

    def _store_single(self, value) -> None:
        if not isinstance(value, Tensor):
            raise ValueError(f"`right_inverse` should return a tensor. Got {type(value).__name__}")
        if value.dtype != self.original.dtype:
            raise ValueError(
                f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                f"while `original` has dtype {self.original.dtype}"
            )
        self.original.set_(value)

    def _store_several(self, values) -> None:
        if not isinstance(values, collections.abc.Sequence):
            raise ValueError(
                f"'right_inverse' must return a sequence of tensors. Got {type(values).__name__}."
            )
        if len(values) != self.ntensors:
            raise ValueError(
                "'right_inverse' must return a sequence of tensors of length "
                f"{self.ntensors}. Got a sequence of length {len(values)}."
            )
        for i, (value, slot) in enumerate(zip(values, self._originals())):
            if not isinstance(value, Tensor):
                raise ValueError(
                    "'right_inverse' must return a sequence of tensors or reference-type opaques. "
                    f"Got element {i} of type {type(value).__name__}."
                )
            if value.dtype != slot.dtype:
                raise ValueError(
                    f"Tensor {i} returned by `right_inverse` has dtype {value.dtype} "
                    f"while `original{i}` has dtype {slot.dtype}"
                )
            slot.set_(value)

    def forward(self) -> Tensor:
        # The first parametrization takes every original; each later one takes the previous result.
        result = self[0](*self._originals())
        for later in itertools.islice(self, 1, None):
            result = later(result)
        return result


def _deepcopy_with_slots(self, memo):
    """``__deepcopy__`` for a parametrized class whose base has none: copies ``__dict__`` and slots."""
    if id(self) in memo:
        return memo[id(self)]
    twin = self.__new__(type(self))
    memo[id(self)] = twin
    twin.__dict__ = deepcopy(self.__dict__, memo)
    for slot in copyreg._slotnames(type(self)):
        if hasattr(self, slot):
            setattr(twin, slot, deepcopy(getattr(self, slot), memo))
    return twin


def _refuse_pickle(self):
    raise RuntimeError(
        "Serialization of parametrized modules is only supported through state_dict(). See:\n"
        "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"
    )


def _give_own_class(module: Module) -> None:
    """Swap in a subclass made for this one module, so the properties added to it reach no sibling."""
    base = type(module)
    members = {"__getstate__": _refuse_pickle}
    if not hasattr(base, "__deepcopy__"):
        members["__deepcopy__"] = _deepcopy_with_slots
    module.__class__ = type(f"Parametrized{base.__name__}", (base,), members)
    module.parametrizations = ModuleDict()


def _add_property(module: Module, name: str) -> None:
    """``module.<name>`` reads the parametrized value (memoized under ``cached()``); assigning to it runs
    the parametrizations' ``right_inverse``."""
    if hasattr(module, name):
        raise AssertionError(f"Module already has an attribute named '{name}'")

    def read(self) -> Tensor:
        if not _cache_enabled:
            return self.parametrizations[name]()
        key = (id(self), name)
        if _cache.get(key) is None:
            _cache[key] = self.parametrizations[name]()
        return _cache[key]

    def write(self, value: Tensor) -> None:
        self.parametrizations[name].right_inverse(value)

    setattr(type(module), name, property(read, write))


def _require_like(result, current, name: str, not_tensor: str, lead: str, label: str) -> None:
    """``result`` must be a tensor of ``current``'s dtype and shape. torch's messages: ``not_tensor`` takes
    the type's name, ``lead`` and ``label`` take the attribute ('dtype' or 'shape')."""
    if not isinstance(result, Tensor):
        raise ValueError(not_tensor.format(type(result).__name__))
    for what in ("dtype", "shape"):
        if getattr(result, what) != getattr(current, what):
            raise ValueError(
                f"{lead.format(what)}\n"
                f"module.{name}.{what}: {getattr(current, what)}\n"
                f"{label.format(what)}: {getattr(result, what)}"
            )


def _check_added(module: Module, name: str, parametrization: Module) -> None:
    """A safe parametrization chained onto ``name`` keeps its dtype and shape both ways."""
    current = getattr(module, name)
    forward = parametrization(current)
    _require_like(
        forward, current, name,
        "A parametrization must return a tensor. Got {}.",
        "Registering a parametrization may not change the {} of the tensor, unless the `unsafe` flag is enabled.",
        f"parametrization(module.{name}).{{}}",
    )  # fmt: skip
    if not hasattr(parametrization, "right_inverse"):
        return
    try:
        back = parametrization.right_inverse(forward)
    except NotImplementedError:
        return
    _require_like(
        back, current, name,
        "parametrization.right_inverse must return a tensor. Got: {}",
        f"The tensor returned by parametrization.right_inverse must have the same {{}} as module.{name}, "
        "unless the `unsafe` flag is enabled.",
        "returned {}",
    )  # fmt: skip


def register_parametrization(
    module: Module, tensor_name: str, parametrization: Module, *, unsafe: bool = False
):
    """Make ``module.<tensor_name>`` be ``parametrization(original)``; register more to chain them.

    ``parametrization.right_inverse`` (optional) maps a value to the original(s): it initialises
    them from the current tensor and makes ``module.<tensor_name> = value`` work. Without
    ``unsafe=True`` the parametrization may not change the tensor's dtype or shape. Returns ``module``.

    >>> import yaten
    >>> from yaten import nn
    >>> from yaten.nn.utils import parametrize as P
    >>> class Symmetric(nn.Module):
    ...     def forward(self, X):
    ...         return X.triu() + X.triu(1).T
    ...     def right_inverse(self, A):
    ...         return A.triu()
    >>> m = P.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
    >>> bool(yaten.allclose(m.weight, m.weight.T))
    True
    >>> type(m).__name__, sorted(m.state_dict())
    ('ParametrizedLinear', ['bias', 'parametrizations.weight.original'])
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_added(module, tensor_name, parametrization)
        chain = module.parametrizations[tensor_name]
        chain.append(parametrization)
        chain.unsafe = chain.unsafe or unsafe
        return module
    if tensor_name not in module._parameters and tensor_name not in module._buffers:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a "
            f"parametrized element with name '{tensor_name}'"
        )
    chain = ParametrizationList([parametrization], getattr(module, tensor_name), unsafe=unsafe)
    delattr(module, tensor_name)
    if not is_parametrized(module):
        _give_own_class(module)
    _add_property(module, tensor_name)
    module.parametrizations[tensor_name] = chain
    return module


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has a parametrization (on ``tensor_name``, or on any tensor when None).

    >>> from yaten import nn
    >>> from yaten.nn.utils import parametrize as P
    >>> P.is_parametrized(nn.Linear(2, 2))
    False
    """
    chains = getattr(module, "parametrizations", None)
    if not isinstance(chains, ModuleDict):
        return False
    return len(chains) > 0 if tensor_name is None else tensor_name in chains


def remove_parametrizations(module: Module, tensor_name: str, leave_parametrized: bool = True):
    """Remove the parametrizations on ``tensor_name``: the tensor becomes its current value
    (``leave_parametrized=True``) or the original (only for a single original). Returns ``module``.

    >>> from yaten import nn
    >>> from yaten.nn.utils import parametrize as P
    >>> m = nn.Linear(2, 2)
    >>> w = m.weight.detach().clone()
    >>> m = P.remove_parametrizations(P.register_parametrization(m, "weight", nn.Tanh()), "weight")
    >>> type(m).__name__, bool((m.weight == w.tanh()).all())
    ('Linear', True)
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    chain = module.parametrizations[tensor_name]
    if chain.is_tensor:
        # The original tensor object stays (optimizers hold it); it takes the current value if asked.
        keep = chain.original
        if leave_parametrized:
            with autograd.no_grad():
                keep.set_(getattr(module, tensor_name))
    elif leave_parametrized:
        value = getattr(module, tensor_name)
        keep = Parameter(value) if value.requires_grad else value
    else:
        raise ValueError(
            "Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
            "that is parametrized in terms of a sequence of tensors."
        )
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    _attach(module, tensor_name, keep)
    if not is_parametrized(module):
        del module.parametrizations
        module.__class__ = type(module).__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before parametrizations were registered (its class when there are none).

    >>> from yaten import nn
    >>> from yaten.nn.utils import parametrize as P
    >>> P.type_before_parametrizations(nn.Linear(2, 2)).__name__
    'Linear'
    """
    return type(module).__bases__[0] if is_parametrized(module) else type(module)


def transfer_parametrizations_and_params(
    from_module: Module, to_module: Module, tensor_name: str | None = None
):
    """Register ``from_module``'s parametrizations (all, or the one on ``tensor_name``) on ``to_module``
    and share its originals, creating the parameters ``to_module`` lacks. Returns ``to_module``.

    >>> from yaten import nn
    >>> from yaten.nn.utils import parametrize as P
    >>> a = P.register_parametrization(nn.Linear(2, 2), "weight", nn.Tanh())
    >>> b = P.transfer_parametrizations_and_params(a, nn.Linear(2, 2))
    >>> b.parametrizations.weight.original is a.parametrizations.weight.original
    True
    """
    if not is_parametrized(from_module):
        return to_module
    for name in list(from_module.parametrizations) if tensor_name is None else [tensor_name]:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        source = from_module.parametrizations[name]
        for step in source:
            register_parametrization(to_module, name, step)
        target = to_module.parametrizations[name]
        # Share the source's originals: the two modules then train the same tensors.
        slots = ["original"] if source.is_tensor else [f"original{i}" for i in range(source.ntensors)]
        for slot in slots:
            setattr(target, slot, getattr(source, slot))
    return to_module
