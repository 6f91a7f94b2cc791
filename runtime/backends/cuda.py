"""torch.backends.cuda: cuBLAS's matmul flags (``matmul.allow_tf32`` is the float32 matmul precision,
shared with ``set_float32_matmul_precision``) and the scaled-dot-product attention backend switches.

``is_built()`` is True: yaten's CUDA kernels (numba.cuda) are part of every install; whether a device
can run them is ``yaten.cuda.is_available()``.

>>> import yaten
>>> yaten.backends.cuda.matmul.allow_tf32
False
>>> yaten.backends.cuda.is_built()
True
"""

from .. import _matmul_precision

__all__ = ["cuBLASModule", "cudnn_sdp_enabled", "enable_cudnn_sdp", "enable_flash_sdp", "enable_math_sdp",
           "enable_mem_efficient_sdp", "flash_sdp_enabled", "is_built", "math_sdp_enabled", "matmul",
           "mem_efficient_sdp_enabled"]  # fmt: skip

_REDUCTIONS = ("allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction")


def is_built() -> bool:
    """Whether this yaten has CUDA kernels: always (numba.cuda), with or without a device."""
    return True


class cuBLASModule:
    """``backends.cuda.matmul``: its attributes are checked as torch's (an unknown one raises)."""

    def __init__(self):
        object.__setattr__(self, "_reductions", dict.fromkeys(_REDUCTIONS, True))

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _matmul_precision.allow_tf32()
        if name in _REDUCTIONS:
            return self._reductions[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            if not isinstance(value, bool):
                raise RuntimeError(f"set_allow_tf32_cublas expects a bool, but got {type(value).__name__}")
            _matmul_precision.set_allow_tf32(value)
        elif name in _REDUCTIONS:
            self._reductions[name] = _reduction_flag(name, value)
        else:
            raise AttributeError(f"Unknown attribute {name}")


def _reduction_flag(name, value) -> bool:
    # A bool, or (allow_reduced_precision, allow_splitk) as torch accepts.
    if isinstance(value, bool):
        return value
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, bool) for v in value):
        if value[0] and len(value) > 1 and not value[1]:
            raise RuntimeError(
                "allow_splitk=False is not supported when reduced precision reductions are enabled"
            )
        return value[0]
    raise TypeError(f"{name} expects a bool or a tuple/list of bools, but got {type(value)}")


matmul = cuBLASModule()

_SDP = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def _sdp_setter(kind, message):
    def enable(enabled: bool) -> None:
        if not isinstance(enabled, bool):
            raise RuntimeError(message + type(enabled).__name__)
        _SDP[kind] = enabled

    enable.__name__ = f"enable_{kind}_sdp"
    enable.__doc__ = (
        f"Allow or forbid the {kind} scaled-dot-product attention backend (a flag: yaten has one)."
    )
    return enable


def _sdp_getter(kind):
    def enabled() -> bool:
        return _SDP[kind]

    enabled.__name__ = f"{kind}_sdp_enabled"
    enabled.__doc__ = f"Whether the {kind} scaled-dot-product attention backend is allowed (True by default)."
    return enabled


# torch's checks word these messages so (three name the math setter; cudnn's keeps a stray "%s").
enable_flash_sdp = _sdp_setter("flash", "set_sdp_use_math expects a bool, but got ")
enable_mem_efficient_sdp = _sdp_setter("mem_efficient", "set_sdp_use_math expects a bool, but got ")
enable_math_sdp = _sdp_setter("math", "set_sdp_use_math expects a bool, but got ")
enable_cudnn_sdp = _sdp_setter("cudnn", "set_sdp_use_cudnn expects a bool, but got %s")
flash_sdp_enabled = _sdp_getter("flash")
mem_efficient_sdp_enabled = _sdp_getter("mem_efficient")
math_sdp_enabled = _sdp_getter("math")
cudnn_sdp_enabled = _sdp_getter("cudnn")
