"""Shape ops over device arrays: cat, flip, roll, repeat, tril, triu.

The checks, promotion and result shape are the CPU kernel's (``kernels/cpu/shape.py``, which reads only
shapes and dtypes). ``cat`` writes each input, cast, into its slice of the result by the copy kernel.

flip, roll and repeat are one kernel, ``_remap``: one thread per output element, which reads the
source element whose coordinate along each dim ``d`` is ``(sign[d] * c + offset[d]) % n[d]`` for the
output coordinate ``c`` (``n[d]``: the source's size along ``d``). A flipped dim has ``sign = -1``,
``offset = n - 1``; a dim rolled by ``shift`` has ``offset = -shift`` (taken modulo ``n`` on the host,
so the kernel's operands are never negative); a repeated dim is ``r * n`` long in the output and
reads ``c % n``, the extra leading dims of a repeat reading a dim of size 1. The source is read
through its strides (``memory.span``), never copied first; the output is a new array laid out as the
CPU kernel lays it out: flip keeps ``self``'s memory layout (preserve_format), roll and repeat are
C-contiguous.
"""

import numpy as np  # noqa: F401 (the docstring examples use it)
from numba import cuda

from ..cpu.shape import cat_plan, flip_checks, preserve_strides, repeat_checks, roll_checks, triangle_checks
from . import memory
from .copy import contiguous_cast, copy_into, launch


def cat(tensors, dim):
    """Concatenate device arrays along ``dim`` in their promoted dtype; 1-d empty arrays are skipped."""
    kept, d, shape, out_dtype = cat_plan(tensors, dim)
    out = memory.empty(shape, out_dtype)
    start = 0
    for t in kept:
        n = t.shape[d]
        if n:
            copy_into(out[(slice(None),) * d + (slice(start, start + n),)], t)
        start += n
    return out


def flip(self, dims):
    """A copy of ``self`` reversed along ``dims``, in ``self``'s memory layout.

    >>> memory.to_host(flip(memory.from_host(np.arange(6).reshape(2, 3)), (1,)))
    array([[2, 1, 0],
           [5, 4, 3]])
    """
    flipped = flip_checks(self, dims)
    strides, span = preserve_strides(self)
    item = self.dtype.itemsize
    out = memory.raw_view(
        memory.empty((span,), self.dtype), self.dtype, self.shape, [s * item for s in strides], 0
    )
    sign = tuple(-1 if d in flipped else 1 for d in range(self.ndim))
    offset = tuple(n - 1 if d in flipped else 0 for d, n in enumerate(self.shape))
    _remap(out, self, self.shape, sign, offset)
    return out


def roll(self, shifts, dims):
    """``self`` rolled by ``shifts`` along ``dims``; with no dims, rolled as if flattened.

    >>> memory.to_host(roll(memory.from_host(np.arange(6).reshape(2, 3)), (1,), ()))
    array([[5, 0, 1],
           [2, 3, 4]])
    """
    shifts, axes = roll_checks(self, shifts, dims)
    out = memory.empty(self.shape, self.dtype)
    if axes is None:  # the flattened input: a C-contiguous one seen as 1-d, rolled along its one dim
        n = self.size
        if n:
            src = memory.flat(contiguous_cast(self, self.shape, self.dtype))
            _remap(memory.flat(out), src, (n,), (1,), (-shifts[0] % n,))
        return out
    total = [0] * self.ndim  # a dim named twice is rolled by the sum of its shifts, as np.roll
    for s, d in zip(shifts, axes, strict=True):
        total[d] += s
    offset = tuple(-s % n if n else 0 for s, n in zip(total, self.shape))
    _remap(out, self, tuple(self.shape), (1,) * self.ndim, offset)
    return out


def tril(self, diagonal):
    """``self`` with the elements above its ``diagonal``-th diagonal zeroed (over the last two dims).

    >>> memory.to_host(tril(memory.from_host(np.arange(1, 7).reshape(2, 3)), 0))
    array([[1, 0, 0],
           [4, 5, 0]])
    """
    triangle_checks("tril", self)
    return _triangle(self, diagonal, True)


def triu(self, diagonal):
    """``self`` with the elements below its ``diagonal``-th diagonal zeroed (over the last two dims).

    >>> memory.to_host(triu(memory.from_host(np.arange(1, 7).reshape(2, 3)), 1))
    array([[0, 2, 3],
           [0, 0, 6]])
    """
    triangle_checks("triu", self)
    return _triangle(self, diagonal, False)


def _triangle(self, diagonal, lower):
    """A C-contiguous copy of ``self`` keeping, per matrix, the elements with ``col - row <= diagonal``
    (``lower``) or ``col - row >= diagonal``, the others zero."""
    src = contiguous_cast(self, self.shape, self.dtype)
    out = memory.empty(self.shape, self.dtype)
    rows, cols = self.shape[self.ndim - 2], self.shape[self.ndim - 1]  # (the simulator's shape has no [-1])
    launch(_triangle_kernel, self.size, memory.flat(out), memory.flat(src), rows, cols, diagonal, lower)
    return out


@cuda.jit
def _triangle_kernel(out, src, rows, cols, diagonal, lower):
    i = cuda.grid(1)
    if i < out.shape[0]:
        col = i % cols
        row = (i // cols) % rows
        if (col - row <= diagonal) if lower else (col - row >= diagonal):
            out[i] = src[i]
        else:
            out[i] = 0


def repeat(self, repeats):
    """``self`` tiled ``repeats`` times per dim (``len(repeats) >= self.ndim``; extra dims lead).

    >>> memory.to_host(repeat(memory.from_host(np.array([1, 2])), (2, 2)))
    array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    padded, target = repeat_checks(self, repeats)
    out = memory.empty(target, self.dtype)
    extra = len(padded) - self.ndim
    # The extra leading dims read the source's one element along them: a size-1 dim of stride 0.
    src = memory.raw_view(self, self.dtype, padded, (0,) * extra + tuple(self.strides), 0)
    _remap(out, src, padded, (1,) * len(padded), (0,) * len(padded))
    return out


# --- the remapping gather -------------------------------------------------------------------------


def _remap(out, src, n_src, sign, offset) -> None:
    """Write into every element of the new array ``out`` the element of ``src`` it maps to (see the
    module's docstring); ``n_src``, ``sign`` and ``offset`` are per-dim tuples of ints."""
    total = out.size
    if total == 0:
        return
    out_flat, out_st = memory.span(out)
    src_flat, src_st = memory.span(src)
    dims = (out.shape, n_src, sign, offset, src_st, out_st)
    if out.ndim == 0:  # one element, seen as one dim of size 1 (a kernel needs a dim)
        dims = ((1,), (1,), (1,), (0,), (0,), (0,))
    # The dims in the order of out's memory (largest stride first), so that consecutive threads
    # write consecutive elements.
    order = sorted(range(len(dims[0])), key=lambda d: -dims[5][d])
    shape, n_src, sign, offset, src_st, out_st = (tuple(int(t[d]) for d in order) for t in dims)
    launch(_remap_kernel, total, out_flat, out_st, src_flat, src_st, shape, n_src, sign, offset, total)


@cuda.jit
def _remap_kernel(out, out_st, src, src_st, shape, n_src, sign, offset, total):
    i = cuda.grid(1)
    if i < total:
        rem = i
        o = 0
        s = 0
        for d in range(len(shape) - 1, -1, -1):
            q = rem // shape[d]
            c = rem - q * shape[d]
            rem = q
            o += c * out_st[d]
            s += ((sign[d] * c + offset[d]) % n_src[d]) * src_st[d]
        out[o] = src[s]
