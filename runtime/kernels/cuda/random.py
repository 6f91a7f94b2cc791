"""Random numbers drawn on the device: Philox4x32-10 and the samplers built on it (numba.cuda).

A cuda ``Generator``'s state is PyTorch's: a 64-bit ``seed`` and an ``offset`` counting the 32-bit
words each thread has used (a multiple of 4). Every sampler here takes ``(seed, offset)``, writes
its samples into a device view of any strides and dtype, and returns by how much the offset
advances, so that the next draw starts on counters this one never touched.

Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC11) maps a
128-bit counter and a 64-bit key to four uint32 words in ten rounds. The key is the seed (low
word, high word); thread ``t`` of a draw at ``offset`` runs the counters
``(offset / 4 + j, t)`` for ``j`` below the draw's calls per thread (the first two words the
64-bit ``offset / 4 + j``, the last two the 64-bit ``t``), as curand's ``curand_init(seed, t,
offset)`` does. Each thread writes 4 consecutive elements of the draw, in C order:

- uniform in [0, 1): float32 from a word's top 24 bits, half from its top 11 (so no sample
  rounds up to 1, as the host's ``_uniform01``), float64 from 53 bits of two words (two calls per
  thread); ``uniform_`` maps them to ``low + (high - low) * u``, computed in float64.
- normal: Box–Muller on pairs of those uniforms, ``sqrt(-2 log(1 - u1)) * (cos, sin)(2 pi u2)``,
  computed in float64.
- bernoulli: 1 where ``u < p`` (a scalar, or a per-element probability read on the device), else 0.
- integers in [low, high) for a range of at most 2**32: ``low + (word * range) >> 32``, the floor of
  ``low + u * range`` for the 32-bit ``u = word / 2**32``, exact in integer arithmetic.

Half outputs, and any that are not C-contiguous float32/float64, are computed in a C-contiguous
float32/float64 (int64 for integers) array and then cast into place by the copy kernel.
"""

import math

import numpy as np
from numba import cuda

from ..cpu.convert import compute_dtype
from . import memory
from .copy import contiguous_cast, copy_into, launch

_MASK = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_M0 = np.uint64(0xD2511F53)  # Philox4x32's round multipliers
_M1 = np.uint64(0xCD9E8D57)
_W0 = np.uint64(0x9E3779B9)  # its key bumps (the golden ratio, sqrt(3) - 1)
_W1 = np.uint64(0xBB67AE85)
_SHIFT_53A = np.uint64(5)  # a double's 53 bits: 27 from one word, 26 from the next
_SHIFT_53B = np.uint64(6)
_LIFT_53 = np.uint64(26)
_TWO_53 = 2.0**-53
_TWO_PI = 2.0 * math.pi
_F16, _F32, _F64, _I64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int64))

# The bits of one word a uniform keeps, by the output dtype it must stay below 1 in.
_BITS = {_F16: 11, _F32: 24}


# --- Philox4x32-10 -----------------------------------------------------------------------------------


@cuda.jit(device=True)
def philox(c0, c1, c2, c3, k0, k1):
    """The four words of Philox4x32-10 at counter ``(c0, c1, c2, c3)`` under key ``(k0, k1)``; every
    argument and result is a uint64 holding a 32-bit value (a product of two fits in 64 bits)."""
    for _ in range(9):
        p0 = _M0 * c0
        p1 = _M1 * c2
        c0, c1, c2, c3 = (p1 >> _S32) ^ c1 ^ k0, p1 & _MASK, (p0 >> _S32) ^ c3 ^ k1, p0 & _MASK
        k0 = (k0 + _W0) & _MASK
        k1 = (k1 + _W1) & _MASK
    p0 = _M0 * c0
    p1 = _M1 * c2
    return (p1 >> _S32) ^ c1 ^ k0, p1 & _MASK, (p0 >> _S32) ^ c3 ^ k1, p0 & _MASK


@cuda.jit(device=True)
def _words(t, j, k0, k1, base):
    """Thread ``t``'s ``j``-th call of a draw whose first counter is ``base``."""
    c = base + np.uint64(j)
    s = np.uint64(t)
    return philox(c & _MASK, c >> _S32, s & _MASK, s >> _S32, k0, k1)


@cuda.jit(device=True)
def _uniform4(t, k0, k1, base, shift, scale, wide):
    """Thread ``t``'s four uniforms in [0, 1), as float64: ``(word >> shift) * scale`` of one call's
    words, or (``wide``) 53-bit ones from two words each of two calls."""
    a0, a1, a2, a3 = _words(t, 0, k0, k1, base)
    if wide:
        b0, b1, b2, b3 = _words(t, 1, k0, k1, base)
        return (
            np.float64(((a0 >> _SHIFT_53A) << _LIFT_53) | (a1 >> _SHIFT_53B)) * _TWO_53,
            np.float64(((a2 >> _SHIFT_53A) << _LIFT_53) | (a3 >> _SHIFT_53B)) * _TWO_53,
            np.float64(((b0 >> _SHIFT_53A) << _LIFT_53) | (b1 >> _SHIFT_53B)) * _TWO_53,
            np.float64(((b2 >> _SHIFT_53A) << _LIFT_53) | (b3 >> _SHIFT_53B)) * _TWO_53,
        )
    return (
        np.float64(a0 >> shift) * scale,
        np.float64(a1 >> shift) * scale,
        np.float64(a2 >> shift) * scale,
        np.float64(a3 >> shift) * scale,
    )


# --- the kernels: thread t writes elements 4t .. 4t+3 of the flat out ------------------------------


@cuda.jit(device=True)
def _left(n, i):
    """How many of the 4 elements from ``i`` on exist in ``n`` (NVVM's ``min`` of two ints fails to type)."""
    return n - i if n - i < 4 else 4


@cuda.jit
def _philox_kernel(out, c0, c1, c2, c3, k0, k1):
    """``out[0:4]``: Philox4x32-10 of one counter and key (for the known-answer tests)."""
    if cuda.grid(1) == 0:
        r = philox(c0, c1, c2, c3, k0, k1)
        for k in range(4):
            out[k] = r[k]


@cuda.jit
def _uniform_kernel(out, k0, k1, base, shift, scale, wide, low, span):
    t = cuda.grid(1)
    i = 4 * t
    if i < out.shape[0]:
        u = _uniform4(t, k0, k1, base, shift, scale, wide)
        for k in range(_left(out.shape[0], i)):
            out[i + k] = low + span * u[k]


@cuda.jit
def _normal_kernel(out, k0, k1, base, shift, scale, wide, mean, std):
    t = cuda.grid(1)
    i = 4 * t
    if i < out.shape[0]:
        u = _uniform4(t, k0, k1, base, shift, scale, wide)
        r0 = math.sqrt(-2.0 * math.log(1.0 - u[0]))  # 1 - u is in (0, 1]: the log is finite
        r1 = math.sqrt(-2.0 * math.log(1.0 - u[2]))
        z = (r0 * math.cos(_TWO_PI * u[1]), r0 * math.sin(_TWO_PI * u[1]),
             r1 * math.cos(_TWO_PI * u[3]), r1 * math.sin(_TWO_PI * u[3]))  # fmt: skip
        for k in range(_left(out.shape[0], i)):
            out[i + k] = mean + std * z[k]


@cuda.jit
def _bernoulli_kernel(out, k0, k1, base, shift, scale, wide, p):
    t = cuda.grid(1)
    i = 4 * t
    if i < out.shape[0]:
        u = _uniform4(t, k0, k1, base, shift, scale, wide)
        for k in range(_left(out.shape[0], i)):
            out[i + k] = 1.0 if u[k] < p else 0.0


@cuda.jit
def _bernoulli_tensor_kernel(out, k0, k1, base, shift, scale, wide, prob, bad):
    """As ``_bernoulli_kernel`` with ``prob[i]`` for element ``i``; ``bad[0]`` becomes 1 where one
    is not in [0, 1] (NaN included)."""
    t = cuda.grid(1)
    i = 4 * t
    if i < out.shape[0]:
        u = _uniform4(t, k0, k1, base, shift, scale, wide)
        for k in range(_left(out.shape[0], i)):
            p = prob[i + k]
            if not (p >= 0 and p <= 1):
                bad[0] = 1
            out[i + k] = 1.0 if u[k] < p else 0.0


@cuda.jit
def _randint_kernel(out, k0, k1, base, low, span):
    t = cuda.grid(1)
    i = 4 * t
    if i < out.shape[0]:
        w = _words(t, 0, k0, k1, base)
        for k in range(_left(out.shape[0], i)):
            out[i + k] = low + np.int64((w[k] * span) >> _S32)


# --- host side ---------------------------------------------------------------------------------------


def philox4x32_10(counter, key):
    """Philox4x32-10's four words (Python ints) at ``counter`` (4 words) under ``key`` (2 words), run on
    the device: Random123's first known answer.

    >>> [hex(w) for w in philox4x32_10((0, 0, 0, 0), (0, 0))]
    ['0x6627e8d5', '0xe169c58d', '0xbc57ac4c', '0x9b00dbd8']
    """
    out = memory.empty((4,), np.uint64)
    c, k = (np.uint64(w) for w in counter), (np.uint64(w) for w in key)
    _philox_kernel[1, 1](out, *c, *k)
    return [int(w) for w in memory.to_host(out)]


def calls_per_thread(wide: bool) -> int:
    """Philox calls a thread makes for its 4 elements: 2 for 53-bit (``wide``) uniforms, else 1."""
    return 2 if wide else 1


def uniform_(dst, seed: int, offset: int, low: float = 0.0, high: float = 1.0) -> int:
    """Fill the float device view ``dst`` with ``low + (high - low) * u``, ``u`` uniform in [0, 1)
    at ``dst``'s precision; returns the offset's advance.

    >>> x = memory.empty((6,), np.float32)
    >>> uniform_(x, 0, 0), bool(((memory.to_host(x) >= 0) & (memory.to_host(x) < 1)).all())
    (4, True)
    """
    dt = np.dtype(dst.dtype)
    wide = dt == _F64
    shift, scale = _shift_scale(_BITS.get(dt, 24))
    span = float(high) - float(low)
    return _draw(
        _uniform_kernel, dst, compute_dtype(dt), seed, offset, wide, (shift, scale, wide, float(low), span)
    )


def normal_(dst, seed: int, offset: int, mean: float = 0.0, std: float = 1.0) -> int:
    """Fill the float device view ``dst`` with ``mean + std * z``, ``z`` standard normal (Box–Muller);
    returns the offset's advance.

    >>> x = memory.empty((2, 3), np.float64)
    >>> normal_(x, 0, 0, 5.0, 0.0), memory.to_host(x).tolist()
    (8, [[5.0, 5.0, 5.0], [5.0, 5.0, 5.0]])
    """
    dt = np.dtype(dst.dtype)
    wide = dt == _F64
    shift, scale = _shift_scale(24)
    args = (shift, scale, wide, float(mean), float(std))
    return _draw(_normal_kernel, dst, compute_dtype(dt), seed, offset, wide, args)


def bernoulli_(dst, seed: int, offset: int, p) -> int:
    """Fill the device view ``dst`` (any dtype) with 1 with probability ``p`` (a float, or a float
    device array of ``dst``'s shape, read in place or gathered), else 0; returns the offset's
    advance. Per-element probabilities are checked on the device, which lowers a one-value flag the
    host reads back (so this form waits for the kernel): out of [0, 1] (or NaN), they raise the CPU's
    RuntimeError and advance nothing.

    >>> x = memory.empty((5,), np.int64)
    >>> bernoulli_(x, 0, 0, memory.from_host([0.0, 1.0, 0.0, 1.0, 1.0])), memory.to_host(x).tolist()
    (8, [0, 1, 0, 1, 1])
    """
    dt = np.dtype(dst.dtype)
    acc = dt if dt in (_F32, _F64) else _F32  # 0 and 1 are written in it, then cast into dst
    shift, scale = _shift_scale(24)
    if isinstance(p, float):
        wide = dt == _F64
        return _draw(_bernoulli_kernel, dst, acc, seed, offset, wide, (shift, scale, wide, p))
    wide = np.dtype(p.dtype) == _F64  # uniforms at the probabilities' precision
    prob = memory.flat(contiguous_cast(p, tuple(dst.shape), compute_dtype(p.dtype)))
    bad = memory.from_host(np.zeros(1, np.int32))
    out, direct = _target(dst, acc)
    k0, k1, base = _key(seed, offset)
    launch(_bernoulli_tensor_kernel, _threads(out.size), out, k0, k1, base, shift, scale, wide, prob, bad)
    if prob.size and memory.to_host(bad)[0]:
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    return _finish(dst, out, direct, wide)


def randint_(dst, seed: int, offset: int, low: int, high: int) -> int:
    """Fill the device view ``dst`` (any dtype) with integers uniform in [low, high), a range of at
    most 2**32 (the caller draws wider ones on the host); returns the offset's advance.

    >>> x = memory.empty((1000,), np.int64)
    >>> randint_(x, 0, 0, -3, 4), sorted(set(memory.to_host(x).tolist()))
    (4, [-3, -2, -1, 0, 1, 2, 3])
    """
    span = int(high) - int(low)
    if not 0 < span <= 2**32:
        raise ValueError(f"randint_ draws ranges of 1 .. 2**32 integers on the device, not {span}")
    return _draw(_randint_kernel, dst, _I64, seed, offset, False, (np.int64(low), np.uint64(span)))


def _shift_scale(bits: int):
    return np.uint64(32 - bits), 2.0**-bits


def _key(seed: int, offset: int):
    """The kernels' key words and first counter: the offset in calls, rounded up to a whole call."""
    seed = int(seed) % 2**64
    return np.uint64(seed & 0xFFFFFFFF), np.uint64(seed >> 32), np.uint64((int(offset) + 3) // 4 % 2**64)


def _threads(n: int) -> int:
    return (n + 3) // 4


def _target(dst, acc):
    """``(out, direct)``: the flat array a kernel writes, ``dst``'s own elements (``direct``) when it is
    C-contiguous in ``acc``, else a new C-contiguous ``acc`` array of its shape."""
    if np.dtype(dst.dtype) == acc and memory.is_contiguous(dst):
        return memory.flat(dst), True
    return memory.flat(memory.empty(tuple(dst.shape), acc)), False


def _finish(dst, out, direct: bool, wide: bool) -> int:
    """Cast ``out`` into ``dst`` unless it was written in place; the offset's advance (none for no
    elements)."""
    if dst.size == 0:
        return 0
    if not direct:
        shape = tuple(dst.shape)
        copy_into(dst, memory.raw_view(out, out.dtype, shape, memory.c_strides(shape, out.dtype.itemsize), 0))
    return 4 * calls_per_thread(wide)


def _draw(kernel, dst, acc, seed, offset, wide, args) -> int:
    out, direct = _target(dst, np.dtype(acc))
    k0, k1, base = _key(seed, offset)
    launch(kernel, _threads(out.size), out, k0, k1, base, *args)
    return _finish(dst, out, direct, wide)
