"""yaten: a PyTorch-compatible tensor library whose operators are generated from YAML specs.

>>> import yaten as torch
>>> x = torch.ones(2, 3, requires_grad=True)
>>> (x * 2).sum().backward()
>>> x.grad.tolist()
[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]
"""

import os as _os
from math import e, inf, nan, pi

# Numba's OpenMP threads and OpenBLAS's threads share the cores. OpenMP's default is to busy-wait
# after each parallel kernel, which starves the BLAS call that follows (a 2-core machine measured a
# small pooling kernel then a 256x256 matmul 20x slower than the two apart). Threads wait passively
# unless the user chose otherwise; it must be set before the OpenMP runtime starts.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from ._host_allocator import keep_freed_memory as _keep_freed_memory

_keep_freed_memory()  # a training step's arrays are reused instead of page-faulting afresh

from . import _dtype
from ._autocast import (
    autocast_decrement_nesting,
    autocast_increment_nesting,
    clear_autocast_cache,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    get_autocast_ipu_dtype,
    get_autocast_xla_dtype,
    is_autocast_cache_enabled,
    is_autocast_cpu_enabled,
    is_autocast_enabled,
    is_autocast_ipu_enabled,
    is_autocast_xla_enabled,
    set_autocast_cache_enabled,
    set_autocast_cpu_dtype,
    set_autocast_cpu_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
    set_autocast_gpu_dtype,
    set_autocast_ipu_dtype,
    set_autocast_ipu_enabled,
    set_autocast_xla_dtype,
    set_autocast_xla_enabled,
)
from ._deterministic import (
    are_deterministic_algorithms_enabled,
    get_deterministic_debug_mode,
    is_deterministic_algorithms_warn_only_enabled,
    set_deterministic_debug_mode,
    use_deterministic_algorithms,
)  # fmt: skip
from ._device import device
from ._dtype import (
    bfloat16,
    bool,
    complex64,
    complex128,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
)  # fmt: skip
from ._interop import from_dlpack, frombuffer
from ._legacy_tensors import (
    BFloat16Tensor,
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    set_default_tensor_type,
)  # fmt: skip
from ._matmul_precision import get_float32_matmul_precision, set_float32_matmul_precision
from ._memory_format import channels_last, channels_last_3d, contiguous_format, memory_format, preserve_format
from ._promotion import broadcast_shapes, can_cast, promote_types, result_type
from ._repr import set_printoptions
from ._storage import UntypedStorage
from ._tensor import Size, Tensor, is_tensor, typename
from ._threads import get_num_interop_threads, get_num_threads, set_num_interop_threads, set_num_threads
from ._type_info import finfo, iinfo
from ._version import __version__
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)  # fmt: skip

half, float, double = float16, float32, float64
short, int, long = int16, int32, int64
cfloat, cdouble = complex64, complex128

from ._install import install as _install

_install(globals())
del _install


def __getattr__(name: str):
    # nn, optim and utils.data load on first use, so ``import yaten`` stays fast.
    if name in (
        "nn",
        "optim",
        "utils",
        "serialization",
        "multiprocessing",
        "safetensors",
        "testing",
        "linalg",
        "fft",
        "special",
        "func",
        "distributions",
        "amp",
        "cpu",
        "jit",
        "compiler",
        "_dynamo",
        "backends",
        "random",
        "accelerator",
        "hub",
        "onnx",
        "distributed",
    ):
        import importlib

        return importlib.import_module(f"yaten.{name}")
    if name == "vmap":  # torch.vmap is torch.func.vmap
        from .func import vmap

        return vmap
    if name in ("save", "load"):  # yaten.save / yaten.load: checkpoints load on first use too
        from . import serialization

        return getattr(serialization, name)
    if name == "compile":
        from ._compile import compile

        return compile
    if name in ("autocast", "GradScaler"):  # torch.autocast is torch.amp.autocast
        from .amp import GradScaler, autocast

        return autocast if name == "autocast" else GradScaler
    raise AttributeError(f"module 'yaten' has no attribute '{name}'")
