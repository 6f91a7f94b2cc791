"""``state_dict`` and ``load_state_dict`` with their hooks: the part of ``Module`` that saves and
restores its parameters, buffers and extra state (``Module`` inherits it)."""

import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ...utils.hooks import RemovableHandle
from ..parameter import Parameter, is_lazy
from ._wrapped_hook import _WrappedHook

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class StateDict:
    """The state_dict methods of ``Module`` (they read its ``_parameters``, ``_buffers``, ``_modules``
    and hook tables)."""

    def get_extra_state(self):
        """Extra (non-tensor) state for ``state_dict``: override with ``set_extra_state``."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report this bug."
        )

    def set_extra_state(self, state) -> None:
        """Restore what ``get_extra_state`` returned, from ``load_state_dict``."""
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report this bug."
        )

    # --- attributes -----------------------------------------------------------------------------------
    def _register_state_dict_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` after ``state_dict``; it may return a new dict."""
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError(
                "Cannot register the same function as the state dict post hook that was previously registered "
                "via register_state_dict_post_hook"
            )
        return RemovableHandle(self._state_dict_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` after ``state_dict``; changes it in place."""
        hook._from_public_api = True
        return RemovableHandle(self._state_dict_hooks, hook)

    def register_state_dict_pre_hook(self, hook):
        """``hook(module, prefix, keep_vars)`` before ``state_dict`` fills in this module's entries."""
        return RemovableHandle(self._state_dict_pre_hooks, hook)

    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if (
            getattr(self.__class__, "get_extra_state", StateDict.get_extra_state)
            is not StateDict.get_extra_state
        ):
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """An ordered dict of every parameter and persistent buffer by dotted name (detached unless
        ``keep_vars``).

        >>> import yaten
        >>> m = yaten.nn.Sequential(yaten.nn.Module())
        >>> m[0].w = yaten.nn.Parameter(yaten.ones(2))
        >>> dict(m.state_dict())
        {'0.w': tensor([1., 1.])}
        """
        if args:
            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict for details.",
                FutureWarning,
                stacklevel=2,
            )
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            hook_result = hook(self, destination, prefix, local_metadata)
            if not getattr(hook, "_from_public_api", False):
                if hook_result is not None:
                    destination = hook_result
            elif hook_result is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False):
        return RemovableHandle(
            self._load_state_dict_pre_hooks, _WrappedHook(hook, self if with_module else None)
        )

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`` before this module's entries are loaded."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook):
        """``hook(module, incompatible_keys)`` after ``load_state_dict`` loaded this module (and below);
        it may edit the key lists in place but must return None."""
        return RemovableHandle(self._load_state_dict_post_hooks, hook)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs) -> None:  # fmt: skip
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent_buffers = {
            k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set
        }
        local_state = {
            k: v
            for k, v in itertools.chain(self._parameters.items(), persistent_buffers.items())
            if v is not None
        }
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected yaten.Tensor or Tensor-like object from '
                    f"checkpoint but received {type(input_param)}"
                )
                continue
            # An uninitialized parameter (of a lazy module) has no shape to compare with.
            lazy = is_lazy(param)
            if (
                not lazy
                and len(param.shape) == 0
                and len(input_param.shape) == 1
                and input_param.shape[0] == 1
            ):
                input_param = input_param[0]  # an old checkpoint's 1-element buffer for a 0-d one
            if not lazy and input_param.shape != param.shape:
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {input_param.shape} from checkpoint, "
                    f"the shape in current model is {param.shape}."
                )
                continue
            try:
                with no_grad():
                    if assign:
                        if isinstance(param, Parameter):
                            if not isinstance(input_param, Parameter):
                                input_param = Parameter(input_param, requires_grad=param.requires_grad)
                            else:
                                input_param.requires_grad_(param.requires_grad)
                        setattr(self, name, input_param)
                    else:
                        param.copy_(input_param)
            except Exception as ex:  # reported with the others, as PyTorch does
                error_msgs.append(
                    f'While copying the parameter named "{key}", whose dimensions in the model are {param.size()} '
                    f"and whose dimensions in the checkpoint are {input_param.size()}, an exception occurred : "
                    f"{ex.args}."
                )
        extra_state_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if (
            getattr(self.__class__, "set_extra_state", StateDict.set_extra_state)
            is not StateDict.set_extra_state
        ):
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix) :].split(".", 1)
                    if len(input_name) > 1:
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Copy ``state_dict``'s tensors into the parameters and buffers (or, with ``assign``, make them
        the parameters and buffers). Returns the missing and unexpected keys; with ``strict`` any of
        them, or a size mismatch, is a RuntimeError.

        >>> import yaten
        >>> m = yaten.nn.Module()
        >>> m.w = yaten.nn.Parameter(yaten.zeros(2))
        >>> m.load_state_dict({"w": yaten.ones(2)})
        <All keys matched successfully>
        >>> m.load_state_dict({"v": yaten.ones(2)}, strict=False)
        _IncompatibleKeys(missing_keys=['w'], unexpected_keys=['v'])
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(
                local_state_dict, prefix, local_metadata, True, missing_keys, unexpected_keys, error_msgs
            )
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state_dict = {
                        k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)
                    }
                    load(child, child_state_dict, child_prefix)
            incompatible_keys = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, incompatible_keys) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not expected to return "
                        "new values, if incompatible_keys need to be modified, it should be done inplace."
                    )

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected_keys)
                    ),
                )
            if missing_keys:
                error_msgs.insert(
                    0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing_keys))
                )
        if error_msgs:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    self.__class__.__name__, "\n\t".join(error_msgs)
                )
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)
