"""Matrix products over device arrays: mm, bmm, addmm, dot, mv (numba.cuda).

Same signatures, checks (the ``check_*`` functions of ``kernels/cpu/linalg.py``, shared), dtype rules
and output shapes as the CPU kernels. Every op is one batched product
``out[z] = alpha * (a[z] @ b[z]) + beta * c[z]`` over 3-d strided views (a matrix is a batch of one,
a vector a matrix with a zero stride), computed by ``_product``, the one place that picks how:

- a tiled shared-memory kernel: a block of ``T x T`` threads (``T`` = 16, smaller when the output is
  smaller) computes a ``T x T`` tile of ``out``, staging ``T x T`` tiles of ``a`` and ``b`` through
  shared memory; elements past the edges of ``m``, ``n`` or ``k`` are loaded as zeros; the batch
  is the grid's z dimension;
- a row-dot kernel when ``out`` has one column (mv, dot): one block per output element, its threads
  striding along ``k``, then a tree reduction in shared memory.

A vendor BLAS (cuBLAS through CuPy on the same memory, via ``__cuda_array_interface__``) would be
one more branch of ``_product``; it is not reachable here, so only the Numba kernels exist.

Inputs are read through their strides, never copied, except half: half is gathered to float32,
multiplied there and rounded back once, as on the CPU. float32 accumulates in float32 (as cuBLAS
does), float64 in float64, integers in int64, wrapped to their dtype when stored, as PyTorch's
integer products wrap.
"""

import functools
import math

import numpy as np
from numba import cuda, from_dtype

from ..cpu.convert import compute_dtype
from ..cpu.linalg import check_addmm, check_bmm, check_dot, check_mm, check_mv, scalar_operand
from . import memory
from .copy import contiguous_cast, expand_strides
from .reduce import block_threads, refuse_complex

_F16, _F32, _F64, _I64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int64))

TILE = 16  # the tiled kernel's largest tile side: 256 threads per block
_MAX_GRID_Z = 65535  # CUDA's limit on gridDim.z: longer batches take several launches


def mm(self, mat2):
    """Matrix product of two 2-d device arrays of the same dtype (see ``kernels/cpu/linalg.py``)."""
    check_mm(self, mat2)
    refuse_complex("mm", self, mat2)
    return _unbatch(batched_matmul(_batch_of_one(self), _batch_of_one(mat2), self.dtype))


def bmm(self, mat2):
    """Batched matrix product of two 3-d device arrays: ``(b, n, k) @ (b, k, m) -> (b, n, m)``."""
    check_bmm(self, mat2)
    refuse_complex("bmm", self, mat2)
    return batched_matmul(self, mat2, self.dtype)


def addmm(self, mat1, mat2, beta, alpha):
    """``beta * self + alpha * (mat1 @ mat2)``; ``self`` broadcasts to the product's shape.

    As on the CPU: ``beta == 0`` does not read ``self``, ``alpha == 0`` skips the product (except
    for half, whose PyTorch kernel multiplies anyway).
    """
    shape = check_addmm(self, mat1, mat2)
    refuse_complex("addmm", self, mat1, mat2)
    dtype = self.dtype
    beta, alpha = scalar_operand(beta, dtype), scalar_operand(alpha, dtype)
    a, b = _batch_of_one(mat1), _batch_of_one(mat2)
    if alpha == 0 and dtype != _F16:
        # An empty k: the product is zeros, whatever a and b hold (NaN and inf included).
        a = memory.raw_view(a, a.dtype, (1, shape[0], 0), a.strides, 0)
        b = memory.raw_view(b, b.dtype, (1, 0, shape[1]), b.strides, 0)
    c = None
    if beta != 0:
        c = _batch_of_one(_broadcast(self, shape))
    return _unbatch(batched_matmul(a, b, dtype, alpha, beta, c))


def dot(self, tensor):
    """Inner product of two 1-d device arrays of the same dtype and length, as a 0-d array."""
    check_dot(self, tensor)
    refuse_complex("dot", self, tensor)
    (k,), (sa,), (sb,) = self.shape, self.strides, tensor.strides
    a = memory.raw_view(self, self.dtype, (1, 1, k), (0, 0, sa), 0)
    b = memory.raw_view(tensor, tensor.dtype, (1, k, 1), (0, sb, 0), 0)
    out = batched_matmul(a, b, self.dtype)
    return memory.raw_view(out, out.dtype, (), (), 0)


def mv(self, vec):
    """Matrix-vector product: ``(n, k) @ (k,) -> (n,)``."""
    check_mv(self, vec)
    refuse_complex("mv", self, vec)
    (k,), (s,) = vec.shape, vec.strides
    b = memory.raw_view(vec, vec.dtype, (1, k, 1), (0, s, 0), 0)
    out = batched_matmul(_batch_of_one(self), b, self.dtype)  # (1, n, 1)
    return memory.raw_view(out, out.dtype, out.shape[1:2], out.strides[1:2], 0)


# --- views --------------------------------------------------------------------------------------


def _batch_of_one(a):
    """The 2-d device array ``a`` as a ``(1, r, c)`` view."""
    return memory.raw_view(a, a.dtype, (1, *a.shape), (0, *a.strides), 0)


def _unbatch(a):
    """The ``(1, r, c)`` device array ``a`` as an ``(r, c)`` view."""
    return memory.raw_view(a, a.dtype, a.shape[1:], a.strides[1:], 0)


def _broadcast(a, shape):
    """``a`` broadcast to ``shape`` as a view (stride 0 along broadcast dims); already checked."""
    item = a.dtype.itemsize
    strides = tuple(s * item for s in expand_strides(a, shape))
    return memory.raw_view(a, a.dtype, shape, strides, 0)


# --- the product -------------------------------------------------------------------------------


def batched_matmul(a, b, dtype, alpha=1, beta=0, c=None):
    """``alpha * (a @ b) + beta * c`` for 3-d views ``a`` ``(z, m, k)``, ``b`` ``(z, k, n)`` and
    ``c`` (``(z, m, n)`` or None), as a new C-contiguous ``(z, m, n)`` array of ``dtype``.

    Half is computed in float32 (inputs gathered, result rounded back once).
    """
    z, m = a.shape[:2]
    n = b.shape[2]
    work = compute_dtype(dtype)
    if dtype == _F16:
        a, b = contiguous_cast(a, a.shape, _F32), contiguous_cast(b, b.shape, _F32)
        if c is not None:
            c = contiguous_cast(c, c.shape, _F32)
    out = memory.empty((z, m, n), work)
    acc = _F64 if work == _F64 else (_F32 if work.kind == "f" else _I64)
    _product(out, a, b, acc.type(alpha), acc.type(beta), c)
    if dtype == _F16:
        out = contiguous_cast(out, out.shape, _F16)
    return out


def _product(out, a, b, alpha, beta, c) -> None:
    """Write ``alpha * (a @ b) + beta * c`` into the C-contiguous ``out`` (``c`` None: no term).

    Chooses the implementation: the row-dot kernel for a single output column (matrix @ vector),
    the tiled kernel otherwise. (A vendor BLAS, when one can reach the same memory, goes here.)
    """
    z, m, n = out.shape
    k = a.shape[2]
    if out.size == 0:
        return
    acc = alpha.dtype
    af, a_s = memory.span(a)
    bf, b_s = memory.span(b)
    of = memory.flat(out)
    if c is None:
        cf, c_s, has_c = of, (0, 0, 0), False
    else:
        (cf, c_s), has_c = memory.span(c), True
    if n == 1:
        # b is one column, read through its k stride alone.
        threads = block_threads(k)
        kernel = _rowdot_kernel(acc, out.dtype, threads)
        kernel[z * m, threads](af, a_s, bf, b_s, m, k, alpha, beta, has_c, cf, c_s, of)
        return
    tile = _tile(m, n)
    kernel = _tiled_kernel(acc, out.dtype, tile)
    blocks = math.ceil(m / tile) * math.ceil(n / tile)
    for z0 in range(0, z, _MAX_GRID_Z):
        nz = min(_MAX_GRID_Z, z - z0)
        kernel[(blocks, 1, nz), (tile, tile)](af, a_s, bf, b_s, z0, m, n, k, alpha, beta, has_c, cf, c_s, of)


def _tile(m: int, n: int) -> int:
    """The tile side for an ``m x n`` output: the power of two covering it, at most ``TILE``.

    A block never has many more threads than outputs: the simulator runs every thread, even idle ones.
    """
    t = 1
    while t < max(m, n) and t < TILE:
        t *= 2
    return t


def wrap_to(out):
    """A device function taking a sum in the accumulator's dtype to a value ``out``'s dtype holds:
    an int64 wrapped into a narrower integer, as PyTorch's integer products wrap.

    Done as arithmetic rather than left to the store's cast, because the simulator's NumPy store
    refuses an integer out of the dtype's range, where a GPU truncates.
    """
    if out.kind not in "iu" or out.itemsize == 8:

        @cuda.jit(device=True)
        def same(r):
            return r

        return same
    bits = 8 * out.itemsize
    mask = np.int64((1 << bits) - 1)
    top = np.int64(1 << (bits - 1) if out.kind == "i" else 1 << bits)  # the first value that wraps

    @cuda.jit(device=True)
    def wrap(r):
        r &= mask
        if r >= top:
            r -= mask + 1
        return r

    return wrap


@functools.cache
def _tiled_kernel(acc, out, tile: int):
    """The tiled product kernel accumulating in ``acc`` with ``tile x tile`` blocks, storing into
    ``out``'s dtype; compiled lazily, once per input dtype, and cached."""
    acc_t, zero, conv = from_dtype(acc), acc.type(0), acc.type
    wrap = wrap_to(out)

    @cuda.jit
    def tiled(a, a_s, b, b_s, z0, m, n, k, alpha, beta, has_c, c, c_s, out):
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        tiles_n = (n + tile - 1) // tile
        bi = cuda.blockIdx.x // tiles_n
        row = bi * tile + ty
        col = (cuda.blockIdx.x - bi * tiles_n) * tile + tx
        z = z0 + cuda.blockIdx.z
        sa = cuda.shared.array((tile, tile), acc_t)
        sb = cuda.shared.array((tile, tile), acc_t)
        pa = z * a_s[0] + row * a_s[1]
        pb = z * b_s[0] + col * b_s[2]
        s = zero
        for k0 in range(0, k, tile):
            i = k0 + tx
            if row < m and i < k:
                sa[ty, tx] = conv(a[pa + i * a_s[2]])
            else:
                sa[ty, tx] = zero
            j = k0 + ty
            if j < k and col < n:
                sb[ty, tx] = conv(b[pb + j * b_s[1]])
            else:
                sb[ty, tx] = zero
            cuda.syncthreads()
            for q in range(tile):
                s += sa[ty, q] * sb[q, tx]
            cuda.syncthreads()
        if row < m and col < n:
            r = alpha * s
            if has_c:
                r += beta * conv(c[z * c_s[0] + row * c_s[1] + col * c_s[2]])
            out[(z * m + row) * n + col] = wrap(r)

    return tiled


@functools.cache
def _rowdot_kernel(acc, out, threads: int):
    """The kernel for an output of one column: block ``z * m + row`` sums ``a[z, row, :] * b[z, :, 0]``
    with ``threads`` threads (a power of two), then reduces their partial sums in shared memory."""
    acc_t, zero, conv = from_dtype(acc), acc.type(0), acc.type
    wrap = wrap_to(out)

    @cuda.jit
    def rowdot(a, a_s, b, b_s, m, k, alpha, beta, has_c, c, c_s, out):
        blk = cuda.blockIdx.x
        t = cuda.threadIdx.x
        z = blk // m
        row = blk - z * m
        pa = z * a_s[0] + row * a_s[1]
        pb = z * b_s[0]
        s = zero
        j = t
        while j < k:
            s += conv(a[pa + j * a_s[2]]) * conv(b[pb + j * b_s[1]])
            j += threads
        partial = cuda.shared.array(threads, acc_t)
        partial[t] = s
        cuda.syncthreads()
        step = threads // 2
        while step > 0:
            if t < step:
                partial[t] += partial[t + step]
            cuda.syncthreads()
            step //= 2
        if t == 0:
            r = alpha * partial[0]
            if has_c:
                r += beta * conv(c[z * c_s[0] + row * c_s[1]])
            out[blk] = wrap(r)

    return rowdot
