"""Optimizer: the base class of every optimizer, as ``torch.optim.Optimizer``.

Param groups, per-parameter state, ``state_dict`` / ``load_state_dict`` in PyTorch's exact structure
(so a state dict round-trips with torch's), ``zero_grad``, step hooks. Also the small arithmetic
helpers the optimizers share (``addcmul_`` and ``addcdiv_`` composed in PyTorch's operation order).
"""

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain

import yaten
from yaten._tensor import Tensor, typename
from yaten.utils.hooks import RemovableHandle

__all__ = ["Optimizer", "register_optimizer_step_post_hook", "register_optimizer_step_pre_hook"]

_global_optimizer_pre_hooks: OrderedDict = OrderedDict()
_global_optimizer_post_hooks: OrderedDict = OrderedDict()

# The device lists PyTorch's messages name, with yaten's devices.
_FUSED_DEVICES = ["cpu", "cuda"]
_CAPTURABLE_DEVICES = ["cuda"]


class _RequiredParameter:
    """Marks a default that every param group must give (``torch.optim.optimizer.required``)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _closure_loss(closure):
    """What ``step(closure)`` returns: the closure's loss, evaluated with grad enabled (or None)."""
    if closure is None:
        return None
    with yaten.enable_grad():
        return closure()


def _use_grad_for_differentiable(func):
    # step() runs without autograd unless the optimizer is differentiable, as in PyTorch
    @functools.wraps(func)
    def _use_grad(self, *args, **kwargs):
        prev = yaten.is_grad_enabled()
        try:
            yaten.set_grad_enabled(self.defaults["differentiable"])
            return func(self, *args, **kwargs)
        finally:
            yaten.set_grad_enabled(prev)

    return _use_grad


def _get_scalar_dtype(is_fused=None):
    # the dtype of state["step"]: float32, or float64 when that is the default dtype
    if is_fused:
        return yaten.float32
    return yaten.float64 if yaten.get_default_dtype() == yaten.float64 else yaten.float32


def _get_value(x):
    return x.item() if isinstance(x, Tensor) else x


def _to_scalar(x):
    # a 1-element tensor hyperparameter becomes 0-dim; anything else is kept
    if isinstance(x, Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _check_tensor_hyperparameter(name: str, value) -> None:
    if isinstance(value, Tensor) and value.numel() != 1:
        raise ValueError(f"Tensor {name} must be 1-element")


def _check_adam_hyperparameters(lr, betas, eps, weight_decay) -> None:
    # the checks, in PyTorch's order and words, of the Adam family (Adamax, NAdam, RAdam)
    _check_tensor_hyperparameter("lr", lr)
    if not lr >= 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not eps >= 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    if not weight_decay >= 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _check_fused_flags(fused, foreach, differentiable) -> None:
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _device_dtype_check_for_fused(p: Tensor) -> None:
    if not (p.device.type in _FUSED_DEVICES and p.is_floating_point()):
        raise RuntimeError(
            "`fused=True` requires all the params to be floating point Tensors of "
            f"supported devices: {_FUSED_DEVICES} but {p.dtype} and {p.device.type}"
        )


def _check_capturable(param: Tensor, step_t: Tensor) -> None:
    if not (param.device.type == step_t.device.type and param.device.type in _CAPTURABLE_DEVICES):
        raise AssertionError(
            f"If capturable=True, params and state_steps must be on supported devices: {_CAPTURABLE_DEVICES}."
        )


def _check_foreach_differentiable(foreach, differentiable) -> None:
    # torch's multi-tensor (foreach) algorithms refuse differentiable steps
    if foreach and differentiable:
        raise AssertionError("_foreach ops don't support autograd")


def _scalar_state(p: Tensor, on_param_device: bool, value: float = 0.0) -> Tensor:
    """A 0-dim scalar state tensor (``step``, ``mu_product``, ...): on the cpu unless capturable."""
    device = p.device if on_param_device else None
    return yaten.tensor(value, dtype=_get_scalar_dtype(), device=device)


def _check_not_complex(name: str, p: Tensor) -> None:
    if p.is_complex():
        raise NotImplementedError(f"{name}: complex parameters are not supported by yaten.optim")


# yaten has no addcmul_/addcdiv_ ops; these compose them in PyTorch's kernel order,
# self + (value * t1) * t2 and self + (value * t1) / t2, so float64 results agree with torch.
def _addcdiv_(self: Tensor, t1: Tensor, t2: Tensor, value=1) -> Tensor:
    return self.add_(t1.mul(value).div_(t2))


def _lerp_(self: Tensor, end: Tensor, weight: float) -> Tensor:
    # PyTorch's lerp switches formula at |weight| = 0.5 to stay accurate near end
    if abs(weight) < 0.5:
        return self.lerp_(end, weight)
    return self.sub_(end).mul_(1 - weight).add_(end)


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    """Register a pre hook run before every optimizer's ``step``: ``hook(optimizer, args, kwargs)``.

    It may return ``(new_args, new_kwargs)``. Returns a handle whose ``remove()`` unregisters it.

    >>> import yaten
    >>> calls = []
    >>> handle = yaten.optim.optimizer.register_optimizer_step_pre_hook(lambda o, a, k: calls.append(1))
    >>> p = yaten.zeros(2, requires_grad=True)
    >>> yaten.optim.SGD([p], lr=0.1).step()
    >>> handle.remove()
    >>> calls
    [1]
    """
    return RemovableHandle(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    """Register a post hook run after every optimizer's ``step``: ``hook(optimizer, args, kwargs)``.

    >>> import yaten
    >>> calls = []
    >>> handle = yaten.optim.optimizer.register_optimizer_step_post_hook(lambda o, a, k: calls.append(1))
    >>> p = yaten.zeros(2, requires_grad=True)
    >>> yaten.optim.SGD([p], lr=0.1).step()
    >>> handle.remove()
    >>> calls
    [1]
    """
    return RemovableHandle(_global_optimizer_post_hooks, hook)


class Optimizer:
    """Base class for all optimizers, as ``torch.optim.Optimizer``.

    ``params`` is an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts (param groups,
    each with a ``"params"`` entry and options that override ``defaults``).

    >>> import yaten
    >>> w = yaten.ones(2, requires_grad=True)
    >>> b = yaten.zeros(1, requires_grad=True)
    >>> opt = yaten.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1)
    >>> [g["lr"] for g in opt.param_groups]
    [0.1, 0.5]
    >>> opt.state_dict()["param_groups"][1]["params"]
    [1]
    """

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        self._patch_step_function()

        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be "
                "an iterable of Tensors or dicts, but got " + typename(params)
            )

        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []

        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self) -> dict:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        for name in (
            "_optimizer_step_pre_hooks",
            "_optimizer_step_post_hooks",
            "_optimizer_state_dict_pre_hooks",
            "_optimizer_state_dict_post_hooks",
            "_optimizer_load_state_dict_pre_hooks",
            "_optimizer_load_state_dict_post_hooks",
        ):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    # ---- step hooks -------------------------------------------------------------------------

    @staticmethod
    def profile_hook_step(func):
        """Wrap a ``step`` so that it runs the global and per-optimizer step hooks around it."""

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self = args[0]
            for pre_hook in chain(
                _global_optimizer_pre_hooks.values(), self._optimizer_step_pre_hooks.values()
            ):
                result = pre_hook(self, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(
                            f"{func} must return None or a tuple of (new_args, new_kwargs), but got {result}."
                        )
            out = func(*args, **kwargs)
            for post_hook in chain(
                self._optimizer_step_post_hooks.values(), _global_optimizer_post_hooks.values()
            ):
                post_hook(self, args, kwargs)
            return out

        return wrapper

    def _patch_step_function(self) -> None:
        # As PyTorch: the class's step is wrapped once, at its first instantiation.
        if not getattr(self.__class__.step, "hooked", None):
            self.__class__.step = self.profile_hook_step(self.__class__.step)
            self.__class__.step.hooked = True

    def register_step_pre_hook(self, hook) -> RemovableHandle:
        """Register ``hook(optimizer, args, kwargs) -> None or (args, kwargs)``, run before ``step``.

        >>> import yaten
        >>> p = yaten.zeros(1, requires_grad=True)
        >>> opt = yaten.optim.SGD([p])
        >>> handle = opt.register_step_pre_hook(lambda o, a, k: print("before step"))
        >>> opt.step()
        before step
        >>> handle.remove()
        >>> opt.step()
        """
        return RemovableHandle(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook) -> RemovableHandle:
        """Register ``hook(optimizer, args, kwargs) -> None``, run after ``step``.

        >>> import yaten
        >>> p = yaten.zeros(1, requires_grad=True)
        >>> opt = yaten.optim.SGD([p])
        >>> handle = opt.register_step_post_hook(lambda o, a, k: print("after step"))
        >>> opt.step()
        after step
        """
        return RemovableHandle(self._optimizer_step_post_hooks, hook)

    def _register_ordered(self, hooks: OrderedDict, hook, prepend: bool) -> RemovableHandle:
        handle = RemovableHandle(hooks, hook)
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer)``, run before :meth:`state_dict`."""
        return self._register_ordered(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer, state_dict) -> state_dict or None``, run after :meth:`state_dict`."""
        return self._register_ordered(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer, state_dict) -> state_dict or None``, run before loading."""
        return self._register_ordered(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer)``, run after :meth:`load_state_dict`."""
        return self._register_ordered(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ---- state dict -------------------------------------------------------------------------

    def state_dict(self) -> dict:
        """The optimizer's state as ``{"state": {index: {...}}, "param_groups": [...]}``.

        Parameters are replaced by their index in the order of the param groups, exactly as
        PyTorch does, so the dict has the structure of ``torch.optim``'s.

        >>> import yaten
        >>> p = yaten.zeros(2, requires_grad=True)
        >>> opt = yaten.optim.SGD([p], lr=0.1, momentum=0.9)
        >>> p.grad = yaten.ones(2)
        >>> opt.step()
        >>> opt.state_dict()["state"]
        {0: {'momentum_buffer': tensor([1., 1.])}}
        """
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)

        param_mappings: dict[int, int] = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update(
                {id(p): i for i, p in enumerate(group["params"], start_index) if id(p) not in param_mappings}
            )
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {
            (param_mappings[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()
        }
        state_dict = {"state": packed_state, "param_groups": param_groups}

        for post_hook in self._optimizer_state_dict_post_hooks.values():
            hook_result = post_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups, key=None):
        # floating state follows the param's dtype and device; "step" keeps its own dtype
        fused = capturable = False
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        if key == "step":
            if capturable or fused:
                return value.to(dtype=yaten.float32, device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)

    def load_state_dict(self, state_dict: dict) -> None:
        """Load a state dict made by :meth:`state_dict` (of this optimizer class, or torch's).

        >>> import yaten
        >>> p = yaten.zeros(2, requires_grad=True)
        >>> opt = yaten.optim.Adam([p], lr=0.1)
        >>> p.grad = yaten.ones(2)
        >>> opt.step()
        >>> fresh = yaten.optim.Adam([p], lr=0.5)
        >>> fresh.load_state_dict(opt.state_dict())
        >>> fresh.param_groups[0]["lr"], fresh.state[p]["step"]
        (0.1, tensor(1.))
        """
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            hook_result = pre_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result

        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group "
                "that doesn't match the size of optimizer's group"
            )

        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
            )
        )

        def _cast(param, value, param_id=None, param_groups=None, key=None):
            if isinstance(value, Tensor):
                return Optimizer._process_value_according_to_param_policy(
                    param, value, param_id, param_groups, key
                )
            if isinstance(value, dict):
                return {
                    k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                    for k, v in value.items()
                }
            if isinstance(value, Iterable) and not isinstance(value, str):
                return type(value)(
                    _cast(param, v, param_id=param_id, param_groups=param_groups) for v in value
                )
            return value

        state: defaultdict = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k, param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})

        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # ---- gradients and groups ---------------------------------------------------------------

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors: to ``None`` (default) or to zeros.

        >>> import yaten
        >>> p = yaten.ones(2, requires_grad=True)
        >>> p.grad = yaten.ones(2)
        >>> opt = yaten.optim.SGD([p])
        >>> opt.zero_grad(set_to_none=False); p.grad
        tensor([0., 0.])
        >>> opt.zero_grad(); p.grad is None
        True
        """
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def step(self, closure=None):
        """Perform one optimization step; optimizers override this."""
        raise NotImplementedError

    def add_param_group(self, param_group: dict) -> None:
        """Add a param group (a dict with ``"params"`` and optional options) to ``param_groups``.

        >>> import yaten
        >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=0.1)
        >>> opt.add_param_group({"params": yaten.zeros(2, requires_grad=True), "lr": 0.01})
        >>> [g["lr"] for g in opt.param_groups]
        [0.1, 0.01]
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")

        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. "
                "Please use a list instead."
            )
        else:
            param_group["params"] = list(params)

        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise ValueError(
                    "all optimizer params should be with/without names. Some param names are missing"
                )
            param_group["param_names"] = names

        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is " + typename(param)
                )
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    f"parameter group didn't specify a value of required optimization parameter {name}"
                )
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; "
                "in future, this will cause an error; "
                "see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )

        param_set: set = set()
        for group in self.param_groups:
            param_set.update(set(group["params"]))
            if ("param_names" in param_group) != ("param_names" in group):
                current = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {current} to the optimizer"
                )
        if not param_set.isdisjoint(set(param_group["params"])):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)
