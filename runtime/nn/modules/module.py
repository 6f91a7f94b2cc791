"""Module: the base class of every layer, as ``torch.nn.Module``.

Parameters, buffers and submodules live in ``_parameters``, ``_buffers`` and ``_modules`` (filled by
``__setattr__``); everything else (``to``, ``named_*``, ``__repr__``, and ``state_dict`` /
``load_state_dict``, which ``Module`` inherits from ``_state_dict.StateDict``) walks them.
``__call__`` runs ``forward`` between the forward hooks, and wires the backward hooks through
``BackwardHook`` (``_backward_hook.py``). The module-global hooks live in this module's globals,
as in PyTorch.
"""

import inspect
import warnings
from collections import OrderedDict

from ..._conversions import _TO, _Direct
from ..._tensor import Tensor, typename
from ...autograd.grad_mode import no_grad
from ...utils.hooks import RemovableHandle
from ..parameter import Buffer, Parameter
from ._backward_hook import BackwardHook
from ._state_dict import StateDict
from ._wrapped_hook import _WrappedHook

__all__ = [
    "Module",
    "register_module_backward_hook",
    "register_module_buffer_registration_hook",
    "register_module_forward_hook",
    "register_module_forward_pre_hook",
    "register_module_full_backward_hook",
    "register_module_full_backward_pre_hook",
    "register_module_module_registration_hook",
    "register_module_parameter_registration_hook",
]


def _addindent(s_: str, num_spaces: int) -> str:
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(num_spaces * " ") + line if line.strip() else "" for line in s]
    return first + "\n" + "\n".join(s)


# --- module-global hooks (every Module's calls and registrations run them) -------------------------
_global_buffer_registration_hooks = OrderedDict()
_global_module_registration_hooks = OrderedDict()
_global_parameter_registration_hooks = OrderedDict()
_global_backward_pre_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_is_full_backward_hook = None
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_forward_hooks_always_called = OrderedDict()
_global_forward_hooks_with_kwargs = OrderedDict()


def register_module_buffer_registration_hook(hook) -> RemovableHandle:
    """``hook(module, name, buffer)`` runs in every ``register_buffer``; it may return a new buffer."""
    return RemovableHandle(_global_buffer_registration_hooks, hook)


def register_module_module_registration_hook(hook) -> RemovableHandle:
    """``hook(module, name, submodule)`` runs whenever a submodule is registered; it may return another."""
    return RemovableHandle(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook) -> RemovableHandle:
    """``hook(module, name, param)`` runs in every ``register_parameter``; it may return a new one."""
    return RemovableHandle(_global_parameter_registration_hooks, hook)


def register_module_forward_pre_hook(hook) -> RemovableHandle:
    """``hook(module, args)`` runs before every module's forward, before the module's own pre-hooks."""
    return RemovableHandle(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False) -> RemovableHandle:
    """``hook(module, args, output)`` runs after every module's forward, before the module's own hooks.

    >>> import yaten
    >>> from yaten.nn.modules.module import register_module_forward_hook
    >>> seen = []
    >>> with register_module_forward_hook(lambda m, args, out: seen.append(type(m).__name__)):
    ...     _ = yaten.nn.Sequential(yaten.nn.Sequential())(yaten.ones(1))
    >>> seen
    ['Sequential', 'Sequential']
    """
    handle = RemovableHandle(
        _global_forward_hooks,
        hook,
        extra_dict=[_global_forward_hooks_with_kwargs, _global_forward_hooks_always_called],
    )
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def register_module_backward_hook(hook) -> RemovableHandle:
    """The legacy global backward hook (deprecated in PyTorch; prefer the full one)."""
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is True:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global Module hook. Please "
            "use only one of them."
        )
    _global_is_full_backward_hook = False
    return RemovableHandle(_global_backward_hooks, hook)


def register_module_full_backward_pre_hook(hook) -> RemovableHandle:
    """``hook(module, grad_output)`` runs in every module's backward, before the module's own."""
    return RemovableHandle(_global_backward_pre_hooks, hook)


def register_module_full_backward_hook(hook) -> RemovableHandle:
    """``hook(module, grad_input, grad_output)`` runs in every module's backward, before its own."""
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is False:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global Module hook. Please "
            "use only one of them."
        )
    _global_is_full_backward_hook = True
    return RemovableHandle(_global_backward_hooks, hook)


def _forward_unimplemented(self, *input):
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')


def _ordered_handle(hooks: OrderedDict, hook, prepend: bool, extra_dict=None) -> RemovableHandle:
    handle = RemovableHandle(hooks, hook, extra_dict=extra_dict)
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


# Module.to's signatures are Tensor.to's; they give back what to convert to.
_TO_ARGS = (
    _Direct(_TO[0].params, lambda device, dtype, non_blocking, copy, fmt: (device, dtype, non_blocking, fmt)),
    _Direct(_TO[1].params, lambda dtype, non_blocking, copy, fmt: (None, dtype, non_blocking, fmt)),
    _Direct(_TO[2].params, lambda t, non_blocking, copy, fmt: (t.device, t.dtype, non_blocking, fmt)),
)


class Module(StateDict):
    """The base class of all layers, as ``torch.nn.Module``: subclass it, assign parameters and
    submodules in ``__init__``, and write ``forward``.

    >>> import yaten
    >>> from yaten import nn
    >>> class Affine(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.weight = nn.Parameter(yaten.ones(2, 3))
    ...         self.register_buffer("scale", yaten.tensor(2.0))
    ...     def forward(self, x):
    ...         return x @ self.weight.t() * self.scale
    >>> m = Affine()
    >>> m(yaten.ones(1, 3))
    tensor([[6., 6.]], grad_fn=<MulBackward0>)
    >>> [name for name, _ in m.named_parameters()], list(m.state_dict())
    (['weight'], ['weight', 'scale'])
    """

    dump_patches = False
    _version = 1
    training: bool
    call_super_init = False
    forward = _forward_unimplemented

    def __init__(self, *args, **kwargs) -> None:
        if self.call_super_init is False and kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'"
            )
        if self.call_super_init is False and args:
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were given"
            )
        setattr_ = super().__setattr__
        setattr_("training", True)
        setattr_("_parameters", {})
        setattr_("_buffers", {})
        setattr_("_non_persistent_buffers_set", set())
        setattr_("_backward_pre_hooks", OrderedDict())
        setattr_("_backward_hooks", OrderedDict())
        setattr_("_is_full_backward_hook", None)
        setattr_("_forward_hooks", OrderedDict())
        setattr_("_forward_hooks_with_kwargs", OrderedDict())
        setattr_("_forward_hooks_always_called", OrderedDict())
        setattr_("_forward_pre_hooks", OrderedDict())
        setattr_("_forward_pre_hooks_with_kwargs", OrderedDict())
        setattr_("_state_dict_hooks", OrderedDict())
        setattr_("_state_dict_pre_hooks", OrderedDict())
        setattr_("_load_state_dict_pre_hooks", OrderedDict())
        setattr_("_load_state_dict_post_hooks", OrderedDict())
        setattr_("_modules", {})
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    # --- registration ------------------------------------------------------------------------------
    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        """Add a buffer: module state that is not a parameter (saved in ``state_dict`` unless
        ``persistent=False``).

        >>> import yaten
        >>> m = yaten.nn.Module()
        >>> m.register_buffer("running_mean", yaten.zeros(2))
        >>> m.register_buffer("cache", yaten.zeros(1), persistent=False)
        >>> list(m.state_dict()), [n for n, _ in m.named_buffers()]
        (['running_mean'], ['running_mean', 'cache'])
        """
        self._check_new_name("buffer", "_buffers", name)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' (yaten Tensor or None required)"
            )
        for hook in _global_buffer_registration_hooks.values():
            output = hook(self, name, tensor)
            if output is not None:
                tensor = output
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def _check_new_name(self, kind: str, table: str, name) -> None:
        """PyTorch's checks on the name of a new buffer or parameter (``table``: where it will live)."""
        if table not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in self.__dict__[table]:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name: str, param) -> None:
        """Add a parameter (a ``Parameter`` or None), reachable as an attribute."""
        self._check_new_name("parameter", "_parameters", name)
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{typename(param)}' object to parameter '{name}' "
                "(yaten.nn.Parameter or None required)"
            )
        if param.grad_fn:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be created "
                f"explicitly. To express '{name}' as a function of another Tensor, compute the value in the "
                "forward() method."
            )
        for hook in _global_parameter_registration_hooks.values():
            output = hook(self, name, param)
            if output is not None:
                param = output
        self._parameters[name] = param

    def add_module(self, name: str, module) -> None:
        """Add a child module (or None), reachable as an attribute."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        for hook in _global_module_registration_hooks.values():
            output = hook(self, name, module)
            if output is not None:
                module = output
        self._modules[name] = module

    def register_module(self, name: str, module) -> None:
        """Alias for ``add_module``."""
        self.add_module(name, module)

    def get_submodule(self, target: str) -> "Module":
        """The submodule at dotted path ``target`` (``""`` is the module itself).

        >>> import yaten
        >>> net = yaten.nn.Sequential(yaten.nn.Sequential(yaten.nn.Module()))
        >>> type(net.get_submodule("0.0")).__name__
        'Module'
        """
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def set_submodule(self, target: str, module: "Module", strict: bool = False) -> None:
        """Replace (or, unless ``strict``, add) the submodule at dotted path ``target``."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        atoms = target.split(".")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent = self if len(atoms) == 1 else self.get_submodule(".".join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + " has no attribute `" + atoms[-1] + "`")
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Module):
            raise AttributeError("`" + atoms[-1] + "` is not an nn.Module")
        setattr(parent, atoms[-1], module)

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at dotted path ``target``."""
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at dotted path ``target``."""
        module_path, _, buffer_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        buffer = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buffer

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("_compiled_call_impl", None)
        return state

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        # Modules pickled by older versions lack the newer hook tables.
        for name in ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks_with_kwargs",
                     "_forward_hooks_always_called", "_state_dict_hooks", "_state_dict_pre_hooks",
                     "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks", "_backward_pre_hooks"):  # fmt: skip
            if name not in self.__dict__:
                self.__dict__[name] = OrderedDict()
        if "_non_persistent_buffers_set" not in self.__dict__:
            self._non_persistent_buffers_set = set()
        if "_is_full_backward_hook" not in self.__dict__:
            self._is_full_backward_hook = None

    def __getattr__(self, name: str):
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as parameter '{name}' (yaten.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
            for hook in _global_module_registration_hooks.values():
                output = hook(self, name, value)
                if output is not None:
                    value = output
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as child module '{name}' (yaten.nn.Module or None expected)"
                )
            for hook in _global_module_registration_hooks.values():
                output = hook(self, name, value)
                if output is not None:
                    value = output
            modules[name] = value
            return
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Buffer) or (buffers is not None and name in buffers):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{typename(value)}' as buffer '{name}' "
                    "(yaten.nn.Buffer, yaten.Tensor or None expected)"
                )
            if isinstance(value, Buffer):
                persistent = value.persistent
            else:
                persistent = name not in self._non_persistent_buffers_set
            own = getattr(self.register_buffer, "__func__", None) is Module.register_buffer
            if own or "persistent" in inspect.signature(self.register_buffer).parameters:
                self.register_buffer(name, value, persistent)
            elif not persistent:
                raise RuntimeError(
                    "Registering a non-persistent buffer on a Module subclass that implements register_buffer() "
                    "without the persistent argument is not allowed."
                )
            else:
                self.register_buffer(name, value)
            return
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            super().__delattr__(name)

    def __dir__(self):
        keys = [*dir(self.__class__), *self.__dict__, *self._parameters, *self._modules, *self._buffers]
        return sorted(key for key in keys if not key[0].isdigit())

    # --- traversal ------------------------------------------------------------------------------------
    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate: bool = True):
        memo = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or v in memo:
                    continue
                if remove_duplicate:
                    memo.add(v)
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse: bool = True):
        """The parameters of this module and (with ``recurse``) its submodules, each once."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """``(dotted name, parameter)`` pairs; a parameter shared by two modules comes once unless
        ``remove_duplicate=False``.

        >>> import yaten
        >>> net = yaten.nn.ModuleDict({"a": yaten.nn.Module()})
        >>> net.a.w = yaten.nn.Parameter(yaten.zeros(1))
        >>> [name for name, _ in net.named_parameters(prefix="net")]
        ['net.a.w']
        """
        yield from self._named_members(
            lambda module: module._parameters.items(), prefix=prefix, recurse=recurse,
            remove_duplicate=remove_duplicate,
        )  # fmt: skip

    def buffers(self, recurse: bool = True):
        """The buffers of this module and (with ``recurse``) its submodules."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """``(dotted name, buffer)`` pairs, as ``named_parameters``."""
        yield from self._named_members(
            lambda module: module._buffers.items(), prefix=prefix, recurse=recurse,
            remove_duplicate=remove_duplicate,
        )  # fmt: skip

    def children(self):
        """The direct submodules, each once."""
        for _, module in self.named_children():
            yield module

    def named_children(self):
        """``(name, submodule)`` for the direct submodules, each once."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self, remove_duplicate: bool = True):
        """This module and all below it, depth first."""
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_modules(self, memo=None, prefix: str = "", remove_duplicate: bool = True):
        """``(dotted name, module)`` for this module (named ``prefix``) and all below it."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def apply(self, fn):
        """Call ``fn`` on every submodule (children first) and then on this module; returns self.

        >>> import yaten
        >>> net = yaten.nn.Sequential(yaten.nn.Module(), yaten.nn.ModuleList())
        >>> _ = net.apply(lambda m: print(type(m).__name__))
        Module
        ModuleList
        Sequential
        """
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def train(self, mode: bool = True):
        """Set training mode (``training``) here and below; returns self.

        >>> import yaten
        >>> net = yaten.nn.Sequential(yaten.nn.Module())
        >>> net.eval()[0].training, net.train()[0].training
        (False, True)
        """
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        """``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True):
        """Set ``requires_grad`` of every parameter; returns self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of every parameter: to None, or (``set_to_none=False``) to zeros in place.

        >>> import yaten
        >>> m = yaten.nn.Module()
        >>> m.w = yaten.nn.Parameter(yaten.ones(2))
        >>> (m.w * 3).sum().backward()
        >>> m.zero_grad(set_to_none=False)
        >>> m.w.grad
        tensor([0., 0.])
        >>> m.zero_grad()
        >>> m.w.grad is None
        True
        """
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    g = p.grad
                    if g.grad_fn is not None:
                        g.detach_()
                    else:
                        g.requires_grad_(False)
                    g.zero_()

    # --- conversion -----------------------------------------------------------------------------------
    def _apply(self, fn, recurse: bool = True):
        """Replace every parameter's and buffer's data by ``fn`` of it. Parameters stay the same objects
        (their data is swapped, as PyTorch does unless told to overwrite), and so do their grads."""
        if recurse:
            for module in self.children():
                module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with no_grad():
                applied = fn(param)
            param.data = applied
            grad = param._grad
            if grad is not None:
                with no_grad():
                    grad_applied = fn(grad)
                grad.data = grad_applied
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to_empty(self, *, device, recurse: bool = True):
        """Move the parameters and buffers to ``device`` without copying their values (left uninitialized).

        >>> import yaten
        >>> m = yaten.nn.Module()
        >>> m.w = yaten.nn.Parameter(yaten.ones(2))
        >>> m.to_empty(device="cpu").w.shape
        yaten.Size([2])
        """
        from ..._factories import empty_like

        return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)

    def to(self, *args, **kwargs):
        """Move and/or cast the parameters and buffers (in place): ``to(device)``, ``to(dtype)``,
        ``to(tensor)``, ``to(device, dtype)``. A dtype applies to floating-point tensors only.

        >>> import yaten
        >>> m = yaten.nn.Module()
        >>> m.w = yaten.nn.Parameter(yaten.ones(1))
        >>> m.register_buffer("steps", yaten.tensor(0))
        >>> w = m.w
        >>> _ = m.to(yaten.float64)
        >>> m.w is w, m.w.dtype, m.steps.dtype
        (True, yaten.float64, yaten.int64)
        """
        device, dtype, non_blocking, _ = _parse_to(args, kwargs)
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(
                f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}"
            )

        def convert(t):
            return t.to(device, dtype if t.is_floating_point() or t.is_complex() else None, non_blocking)

        return self._apply(convert)

    def cuda(self, device=None):
        """Move the parameters and buffers to the GPU."""
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        """Move the parameters and buffers to host memory."""
        return self._apply(lambda t: t.cpu())

    def share_memory(self):
        """Move the parameters and buffers (and their grads) into shared memory, so that the processes
        this module is sent to with ``yaten.multiprocessing`` update the same weights (Hogwild).

        >>> import yaten
        >>> m = yaten.nn.Linear(2, 1).share_memory()
        >>> m.weight.is_shared(), m.bias.is_shared()
        (True, True)
        """
        return self._apply(lambda t: t.share_memory_())

    def type(self, dst_type):
        """Cast every parameter and buffer (floating or not) to ``dst_type``."""
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        """Cast floating-point parameters and buffers to float32."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        """Cast floating-point parameters and buffers to float64."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        """Cast floating-point parameters and buffers to float16."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        """Cast floating-point parameters and buffers to bfloat16."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    # --- hooks ----------------------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False):
        """``hook(module, args)`` (or ``hook(module, args, kwargs)`` with ``with_kwargs``) runs before
        ``forward``; a non-None return replaces the input (a non-tuple is wrapped in one).

        >>> import yaten
        >>> class Double(yaten.nn.Module):
        ...     def forward(self, x):
        ...         return x * 2
        >>> m = Double()
        >>> h = m.register_forward_pre_hook(lambda mod, args: args[0] + 1)
        >>> m(yaten.tensor([1.0]))
        tensor([4.])
        """
        handle = _ordered_handle(self._forward_pre_hooks, hook, prepend, self._forward_pre_hooks_with_kwargs)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False):  # fmt: skip
        """``hook(module, args, output)`` (or ``hook(module, args, kwargs, output)``) runs after
        ``forward``; a non-None return replaces the output. With ``always_call`` it also runs when
        forward raised.

        >>> import yaten
        >>> class Double(yaten.nn.Module):
        ...     def forward(self, x):
        ...         return x * 2
        >>> m = Double()
        >>> h = m.register_forward_hook(lambda mod, args, out: out + 1)
        >>> m(yaten.tensor([1.0]))
        tensor([3.])
        >>> h.remove()
        >>> m(yaten.tensor([1.0]))
        tensor([2.])
        """
        handle = _ordered_handle(
            self._forward_hooks,
            hook,
            prepend,
            [self._forward_hooks_with_kwargs, self._forward_hooks_always_called],
        )
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_pre_hook(self, hook, prepend: bool = False):
        """``hook(module, grad_output)`` runs when the gradients w.r.t. the module's outputs are known; a
        non-None return replaces them."""
        return _ordered_handle(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook, prepend: bool = False):
        """``hook(module, grad_input, grad_output)`` runs once the gradients w.r.t. the module's tensor
        inputs are known; a non-None return replaces ``grad_input``.

        >>> import yaten
        >>> class Square(yaten.nn.Module):
        ...     def forward(self, x):
        ...         return x * x
        >>> m = Square()
        >>> h = m.register_full_backward_hook(lambda mod, gi, go: print(gi, go))
        >>> x = yaten.tensor([3.0], requires_grad=True)
        >>> m(x).sum().backward()
        (tensor([6.]),) (tensor([1.]),)
        """
        if self._is_full_backward_hook is False:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single Module. Please use "
                "only one of them."
            )
        self._is_full_backward_hook = True
        return _ordered_handle(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        """The legacy backward hook, on the grad_fn of the output (deprecated in PyTorch; use
        ``register_full_backward_hook``)."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single Module. Please use "
                "only one of them."
            )
        self._is_full_backward_hook = False
        return RemovableHandle(self._backward_hooks, hook)

    def _get_backward_hooks(self):
        full, non_full = [], []
        if _global_is_full_backward_hook is True:
            full += _global_backward_hooks.values()
        if self._is_full_backward_hook is True:
            full += self._backward_hooks.values()
        if _global_is_full_backward_hook is False:
            non_full += _global_backward_hooks.values()
        if self._is_full_backward_hook is False:
            non_full += self._backward_hooks.values()
        return full, non_full

    def _get_backward_pre_hooks(self):
        return [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]

    def _maybe_warn_non_full_backward_hook(self, inputs, result, grad_fn) -> None:
        if not isinstance(result, Tensor):
            if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
                warnings.warn(_NON_FULL["output"], FutureWarning, stacklevel=2)
                return
        else:
            result = (result,)
        if not isinstance(inputs, Tensor):
            if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
                warnings.warn(_NON_FULL["input"], FutureWarning, stacklevel=2)
                return
        else:
            inputs = (inputs,)
        out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
        if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
            warnings.warn(_NON_FULL["nested"], FutureWarning, stacklevel=2)
        elif len(out_grad_fn) > 1:
            warnings.warn(_NON_FULL["nodes"], FutureWarning, stacklevel=2)
        else:
            inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
            next_functions = {n[0] for n in grad_fn.next_functions}
            if inputs_grad_fn != next_functions:
                warnings.warn(_NON_FULL["multiple"], FutureWarning, stacklevel=2)

    # --- calling --------------------------------------------------------------------------------------
    def _call_impl(self, *args, **kwargs):
        forward_call = self.forward
        if not (self._backward_hooks or self._backward_pre_hooks or self._forward_hooks
                or self._forward_pre_hooks or _global_backward_pre_hooks or _global_backward_hooks
                or _global_forward_hooks or _global_forward_pre_hooks):  # fmt: skip
            return forward_call(*args, **kwargs)
        result = None
        called_always = set()

        def inner():
            nonlocal result, args, kwargs
            full_backward_hooks, non_full_backward_hooks = [], []
            backward_pre_hooks = []
            if self._backward_pre_hooks or _global_backward_pre_hooks:
                backward_pre_hooks = self._get_backward_pre_hooks()
            if self._backward_hooks or _global_backward_hooks:
                full_backward_hooks, non_full_backward_hooks = self._get_backward_hooks()
            for hook_id, hook in (*_global_forward_pre_hooks.items(), *self._forward_pre_hooks.items()):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    args_kwargs_result = hook(self, args, kwargs)
                    if args_kwargs_result is not None:
                        if isinstance(args_kwargs_result, tuple) and len(args_kwargs_result) == 2:
                            args, kwargs = args_kwargs_result
                        else:
                            raise RuntimeError(
                                "forward pre-hook must return None or a tuple of (new_args, new_kwargs), but got "
                                f"{args_kwargs_result}."
                            )
                else:
                    args_result = hook(self, args)
                    if args_result is not None:
                        args = args_result if isinstance(args_result, tuple) else (args_result,)
            bw_hook = None
            if full_backward_hooks or backward_pre_hooks:
                bw_hook = BackwardHook(self, full_backward_hooks, backward_pre_hooks)
                args = bw_hook.setup_input_hook(args)
            result = forward_call(*args, **kwargs)
            for hook_id, hook in (*_global_forward_hooks.items(), *self._forward_hooks.items()):
                if (
                    hook_id in self._forward_hooks_always_called
                    or hook_id in _global_forward_hooks_always_called
                ):
                    called_always.add(hook_id)
                if hook_id in self._forward_hooks_with_kwargs or hook_id in _global_forward_hooks_with_kwargs:
                    hook_result = hook(self, args, kwargs, result)
                else:
                    hook_result = hook(self, args, result)
                if hook_result is not None:
                    result = hook_result
            if bw_hook:
                if not isinstance(result, (Tensor, tuple)):
                    warnings.warn(
                        "For backward hooks to be called, module output should be a Tensor or a tuple of Tensors "
                        f"but received {type(result)}",
                        stacklevel=2,
                    )
                result = bw_hook.setup_output_hook(result)
            if non_full_backward_hooks:
                var = result
                while not isinstance(var, Tensor):
                    if isinstance(var, dict):
                        var = next(v for v in var.values() if isinstance(v, Tensor))
                    else:
                        var = var[0]
                grad_fn = var.grad_fn
                if grad_fn is not None:
                    for hook in non_full_backward_hooks:
                        grad_fn.register_hook(_WrappedHook(hook, self))
                    self._maybe_warn_non_full_backward_hook(args, result, grad_fn)
            return result

        try:
            return inner()
        except Exception:
            # Run the always_call forward hooks that forward's error kept from running, then re-raise.
            for hook_id, hook in _global_forward_hooks.items():
                if hook_id in _global_forward_hooks_always_called and hook_id not in called_always:
                    try:
                        hook_result = hook(self, args, result)
                        if hook_result is not None:
                            result = hook_result
                    except Exception as e:
                        warnings.warn(
                            "global module forward hook with ``always_call=True`` raised an exception that was "
                            f"silenced as another error was raised in forward: {e!s}",
                            stacklevel=2,
                        )
            for hook_id, hook in self._forward_hooks.items():
                if hook_id in self._forward_hooks_always_called and hook_id not in called_always:
                    try:
                        if hook_id in self._forward_hooks_with_kwargs:
                            hook_result = hook(self, args, kwargs, result)
                        else:
                            hook_result = hook(self, args, result)
                        if hook_result is not None:
                            result = hook_result
                    except Exception as e:
                        warnings.warn(
                            "module forward hook with ``always_call=True`` raised an exception that was silenced "
                            f"as another error was raised in forward: {e!s}",
                            stacklevel=2,
                        )
            raise

    def _wrapped_call_impl(self, *args, **kwargs):
        return self._call_impl(*args, **kwargs)

    __call__ = _wrapped_call_impl

    def compile(self, *args, **kwargs) -> None:
        """Compile this module's call in place with ``yaten.compile`` (same arguments, checked as
        torch's); the module keeps its class and ``state_dict`` keys and runs eagerly.

        >>> import yaten
        >>> m = yaten.nn.Linear(2, 2)
        >>> m.compile(mode="max-autotune")
        >>> type(m).__name__, list(m.state_dict())
        ('Linear', ['weight', 'bias'])
        """
        from ..._compile import compile

        self._compiled_call_impl = compile(self._call_impl, *args, **kwargs)

    # --- printing -------------------------------------------------------------------------------------
    def _get_name(self) -> str:
        return self.__class__.__name__

    def extra_repr(self) -> str:
        """The text between the parentheses of this module's repr (before its children); override it."""
        return ""

    def __repr__(self) -> str:
        extra_repr = self.extra_repr()
        extra_lines = extra_repr.split("\n") if extra_repr else []
        child_lines = [
            "(" + key + "): " + _addindent(repr(module), 2) for key, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        return main_str + ")"


def _parse_to(args, kwargs):
    from ..._arg_parser import resolve

    return resolve("to", _TO_ARGS, args, dict(kwargs))


_NON_FULL = {
    "output": "Using non-full backward hooks on a Module that does not return a single Tensor or a tuple of "
    "Tensors is deprecated and will be removed in future versions. This hook will be missing some of the "
    "grad_output. Please use register_full_backward_hook to get the documented behavior.",
    "input": "Using non-full backward hooks on a Module that does not take as input a single Tensor or a tuple "
    "of Tensors is deprecated and will be removed in future versions. This hook will be missing some of the "
    "grad_input. Please use register_full_backward_hook to get the documented behavior.",
    "nested": "Using a non-full backward hook when outputs are nested in python data structure is deprecated "
    "and will be removed in future versions. This hook will be missing some grad_output.",
    "nodes": "Using a non-full backward hook when outputs are generated by different autograd Nodes is "
    "deprecated and will be removed in future versions. This hook will be missing some grad_output. Please use "
    "register_full_backward_hook to get the documented behavior.",
    "multiple": "Using a non-full backward hook when the forward contains multiple autograd Nodes is deprecated "
    "and will be removed in future versions. This hook will be missing some grad_input. Please use "
    "register_full_backward_hook to get the documented behavior.",
}
