"""Device copies with a dtype cast, as numba.cuda kernels that index by strides.

``contiguous_cast`` gathers a (broadcast) view into a new C-contiguous array; ``copy_into`` writes
an array into a view of any strides. Both see a view as its flat memory block (``memory.span``) plus
strides in elements, with dims coalesced first, so a kernel is compiled once per number of dims
left (one for every dense copy). The assignment ``out[i] = src[j]`` is the cast: numbers to bool
are ``!= 0``, floats to ints truncate, as NumPy's ``astype``.
"""

import numbers
import warnings

import numpy as np
from numba import cuda

from ..._memory_format import check_rank
from ..cpu.convert import COMPLEX_TO_REAL_WARNING, scalar_to
from ..cpu.shape import preserve_strides
from . import memory

THREADS = 256  # threads per block of the elementwise kernels
_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)


def launch(kernel, n: int, *args) -> None:
    """Run ``kernel`` over ``n`` threads (none when ``n`` is 0), ``THREADS`` per block at most.

    A block never has more threads than elements: the simulator runs every thread, even idle ones.
    """
    if n:
        tpb = min(THREADS, n)
        kernel[(n + tpb - 1) // tpb, tpb](*args)


@cuda.jit
def _gather(out, src, strides, shape):
    i = cuda.grid(1)
    if i < out.shape[0]:
        rem = i
        off = 0
        for d in range(len(shape) - 1, -1, -1):
            n = shape[d]
            q = rem // n
            off += (rem - q * n) * strides[d]
            rem = q
        out[i] = src[off]


@cuda.jit
def _scatter(dst, dst_strides, src, src_strides, shape, total):
    i = cuda.grid(1)
    if i < total:
        rem = i
        d_off = 0
        s_off = 0
        for d in range(len(shape) - 1, -1, -1):
            n = shape[d]
            q = rem // n
            r = rem - q * n
            d_off += r * dst_strides[d]
            s_off += r * src_strides[d]
            rem = q
        dst[d_off] = src[s_off]


def contiguous_cast(arr, shape, np_dtype):
    """``arr`` broadcast to ``shape`` and cast to ``np_dtype``, as a C-contiguous device array.

    When ``arr`` already is exactly that, the result is a view of it (no copy): treat it as read-only.
    """
    shape = tuple(int(n) for n in shape)
    return gather(arr, shape, expand_strides(arr, shape), np_dtype)


def gather(arr, shape, strides, np_dtype):
    """A C-contiguous array of ``shape`` whose element ``idx`` is the element of ``arr``'s memory at
    ``sum(idx * strides)`` elements from ``arr``'s first one, cast to ``np_dtype``.

    Without a cast, a layout that already is C-contiguous is returned as a view, not copied.
    """
    dt = np.dtype(np_dtype)
    shape, strides = tuple(shape), tuple(strides)
    if dt == arr.dtype and all(s == c for n, s, c in zip(shape, strides, memory.c_strides(shape)) if n != 1):
        return memory.raw_view(arr, dt, shape, memory.c_strides(shape, dt.itemsize), 0)
    return _gather_new(arr, shape, strides, dt)


def copy_into(dst, src):
    """Write ``src`` (broadcast to ``dst``'s shape, cast to its dtype) into the device view ``dst``.

    ``dst`` may have any strides; when its memory overlaps ``src``'s, ``src`` is copied first so no
    element is read after it was overwritten. Returns ``dst``.
    """
    shape = tuple(dst.shape)
    if src.dtype.kind == "c" and dst.dtype.kind != "c":
        src = _real_part(src, dst.dtype)
    src_strides = expand_strides(src, shape, copy=True)
    total = dst.size
    if total == 0:
        return dst
    if overlaps(dst, src) or _via_float32(src.dtype, dst.dtype):
        mid = _F32 if _via_float32(src.dtype, dst.dtype) else src.dtype
        src = _gather_new(src, src.shape, memory.span(src)[1], mid)
        src_strides = expand_strides(src, shape, copy=True)
    dst_flat, dst_strides = memory.span(dst)
    src_flat = memory.span(src)[0]
    cshape, (dstr, sstr) = coalesce(shape, dst_strides, src_strides)
    launch(_scatter, total, dst_flat, dstr, src_flat, sstr, cshape, total)
    return dst


def _real_part(src, dst_dtype):
    # A complex value converts to a real dtype by its real part, as the CPU's cast does; to bool it is
    # nonzero in either part, which the one-input copy kernel can't see.
    if dst_dtype == np.bool_:
        raise NotImplementedError(
            "Could not run 'aten::_to_copy' with arguments from the 'CUDA' backend: yaten has no cuda kernel "
            "converting complex to bool; convert on the cpu"
        )
    warnings.warn(COMPLEX_TO_REAL_WARNING, UserWarning, stacklevel=4)
    return memory.raw_view(src, np.finfo(src.dtype).dtype, src.shape, src.strides, 0)  # the real parts


def _gather_new(arr, shape, strides, dt):
    if _via_float32(arr.dtype, dt):
        arr, strides = _gather_new(arr, shape, strides, _F32), memory.c_strides(shape)
    out = memory.empty(shape, dt)
    if out.size:
        cshape, (cstr,) = coalesce(shape, strides)
        launch(_gather, out.size, memory.flat(out), memory.span(arr)[0], cstr, cshape)
    return out


def _via_float32(src_dt, dst_dt) -> bool:
    # NVVM rejects Numba's half -> bool conversion ("Failed to verify"): go through float32.
    return src_dt == _F16 and dst_dt == np.bool_


def expand_strides(arr, shape, copy: bool = False) -> tuple:
    """``arr``'s strides in elements once broadcast to ``shape`` (0 along broadcast dims)."""
    item = arr.dtype.itemsize
    nd, ad = len(shape), arr.ndim
    if ad > nd:
        if copy:
            raise RuntimeError(
                f"output with shape {list(shape)} doesn't match the broadcast shape {list(arr.shape)}"
            )
        raise RuntimeError(
            f"expand: the number of sizes provided ({nd}) must be greater or equal to the number of "
            f"dimensions in the tensor ({ad})"
        )
    out = [0] * nd
    for k in range(ad):
        d = nd - ad + k
        n = arr.shape[k]
        if n == shape[d]:
            out[d] = arr.strides[k] // item
        elif n != 1:
            if copy:
                raise RuntimeError(
                    f"The size of tensor a ({shape[d]}) must match the size of tensor b ({n}) at "
                    f"non-singleton dimension {d}"
                )
            raise RuntimeError(
                f"The expanded size of the tensor ({shape[d]}) must match the existing size ({n}) at "
                f"non-singleton dimension {d}.  Target sizes: {list(shape)}.  Tensor sizes: {list(arr.shape)}"
            )
    return tuple(out)


def coalesce(shape, *strides):
    """``shape`` and each array's ``strides`` with size-1 dims dropped and neighbours merged where
    every array steps through them as through one dim; always at least 1-d (kernels need a dim)."""
    dims = []
    for d, n in enumerate(shape):
        if n == 1:
            continue
        st = [int(s[d]) for s in strides]
        if dims and all(ps == s * n for ps, s in zip(dims[-1][1], st)):
            dims[-1] = (dims[-1][0] * n, st)
        else:
            dims.append((int(n), st))
    if not dims:
        return (1,), tuple((0,) for _ in strides)
    return tuple(n for n, _ in dims), tuple(tuple(st[k] for _, st in dims) for k in range(len(strides)))


def overlaps(a, b) -> bool:
    """Whether the memory blocks of device arrays ``a`` and ``b`` overlap."""
    la = memory.span_bytes(a.shape, a.strides, a.dtype.itemsize)
    lb = memory.span_bytes(b.shape, b.strides, b.dtype.itemsize)
    if not la or not lb:
        return False
    pa, pb = memory.data_ptr(a), memory.data_ptr(b)
    return pa < pb + lb and pb < pa + la


def empty_preserve(like, np_dtype):
    """An uninitialised device array shaped like ``like`` in ``like``'s memory layout (torch's
    preserve_format, by the CPU's rule)."""
    strides, n = preserve_strides(like)
    dt = np.dtype(np_dtype)
    return memory.raw_view(memory.empty((n,), dt), dt, like.shape, [s * dt.itemsize for s in strides], 0)


def clone(self, memory_format=None):
    """A copy of ``self``: C-contiguous for "contiguous_format", else keeping its layout (preserve_format).

    >>> t = memory.from_host(np.arange(6).reshape(2, 3)).T
    >>> clone(t).strides == t.strides, clone(t, "contiguous_format").strides
    (True, (16, 8))
    """
    check_rank(memory_format, self.ndim)
    if memory_format == "contiguous_format":
        return copy_into(memory.empty(self.shape, self.dtype), self)
    return copy_into(empty_preserve(self, self.dtype), self)


def to_dtype(self, dtype):
    """A copy of ``self`` converted to ``dtype`` as torch converts, in ``self``'s memory layout.

    >>> memory.to_host(to_dtype(memory.from_host(np.array([-1.5, 2.7])), np.dtype(np.int32)))
    array([-1,  2], dtype=int32)
    """
    return copy_into(empty_preserve(self, dtype), self)


def fill_(self, value):
    """Write ``value`` (a number, checked against ``self``'s dtype as the CPU checks it, or a 0-d
    device array) into every element of the view ``self``."""
    if isinstance(value, numbers.Number):
        value = memory.from_host(np.asarray(scalar_to(value, self.dtype)))
    copy_into(self, value)


def zero_(self):
    fill_(self, 0)
