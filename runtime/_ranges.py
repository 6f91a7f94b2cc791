"""``arange``, ``linspace`` and ``logspace``, as PyTorch computes them (the first two bit for bit).

They reproduce the evaluation order (and fused multiply-adds) of torch's x86 CPU kernels, so their
floating values match torch's to the last bit.
"""

import math

import numpy as np

from . import _dtype as D
from ._factories import as_index, checked_scalar, make, not_implemented, number_arg, options, type_name
from ._host_allocator import allocation_error
from ._tensor import Tensor

__all__ = ["arange", "linspace", "logspace"]


def _split(a):
    c = 134217729.0 * a  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    hi = c - (c - a)
    return hi, a - hi


def _fma(a, b, c):
    """``a * b + c`` in float64 with a single rounding, as the fused multiply-add torch's kernels compile to.

    Dekker's exact product and Knuth's two-sum give the exact result as ``s + (e1 + e2)``; rounding
    that sum is the correctly rounded fma except when ``e1 + e2`` itself rounds across a tie, which
    takes inputs far more contrived than a range's start and step. Runs in cache-sized chunks: the
    dozen temporaries would otherwise cost more than the arithmetic.
    """
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64).reshape(-1) for v in (a, b, c)))
    out = np.empty(a.shape)
    with np.errstate(all="ignore"):
        for i in range(0, a.size, 1 << 14):
            x, y, z = a[i : i + (1 << 14)], b[i : i + (1 << 14)], c[i : i + (1 << 14)]
            p = x * y
            x_hi, x_lo = _split(x)
            y_hi, y_lo = _split(y)
            p_err = ((x_hi * y_hi - p) + x_hi * y_lo + x_lo * y_hi) + x_lo * y_lo
            s = p + z
            t = s - p
            out[i : i + (1 << 14)] = s + (p_err + ((p - (s - t)) + (z - t)))
    return out


def _fma32(a, b, c):
    # A product of two floats is exact in double; the sum rounds to double, then to float.
    with np.errstate(all="ignore"):
        return (np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)).astype(
            np.float32
        )


def _arange_floats(start: float, step: float, n: int, dtype: D.dtype) -> np.ndarray:
    """torch's CPU arange for a floating dtype, bit for bit.

    The kernel runs AVX2 vectors (x86 machines with AVX-512 dispatch it to the AVX2 build too), two
    per iteration, then a scalar tail. A vector's base ``start + step * i`` is computed in the
    accumulate type and rounded to the dtype; its lanes are ``base + k * step`` (k < lanes). The
    tail computes ``start + step * i`` per element. Every ``x + y * z`` compiles to a fused multiply-add.
    """
    lanes = 32 // dtype.itemsize
    acc, fma = (np.float32, _fma32) if dtype.itemsize == 2 else (np.float64, _fma)
    x0, dx = acc(start), acc(step)
    nvec = n - n % (2 * lanes)
    out = np.empty(n, dtype.np)
    base = fma(dx, np.arange(0, nvec, lanes).astype(acc), x0).astype(dtype.np).astype(acc)
    lane = np.tile(np.arange(lanes, dtype=acc), nvec // lanes)
    out[:nvec] = fma(lane, dx, np.repeat(base, lanes)).astype(dtype.np)
    out[nvec:] = fma(dx, np.arange(nvec, n).astype(acc), x0).astype(dtype.np)
    return out


def _wrap64(x: int) -> int:
    return (x + 2**63) % 2**64 - 2**63


def _arange_size(start, end, step, dtype: D.dtype):
    """The length of ``arange`` and the integer start and step integral dtypes compute with."""
    ds, de, dst = float(start), float(end), float(step)
    if not (dst > 0 or dst < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(ds) and math.isfinite(de)):
        raise RuntimeError(f"unsupported range: {ds:g} -> {de:g}")
    if not ((dst > 0 and de >= ds) or (dst < 0 and de <= ds)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    xs = xst = None
    if dtype.kind == "i":  # the accumulate type of every integral dtype is int64: scalars truncate
        xs, xe, xst = (int(checked_scalar(v, D.int64)) for v in (start, end, step))
    if dtype is D.int64:
        if xst == 0:
            raise ValueError("step must be nonzero")
        num = _wrap64(_wrap64(_wrap64(xe - xs) + xst) - (1 if xst > 0 else -1))
        q = abs(num) // abs(xst)
        size = float(q if (num >= 0) == (xst > 0) else -q)
    else:
        size = math.ceil((de - ds) / dst)
    if not 0 <= size <= 2.0**63:
        raise RuntimeError("invalid size, possible overflow?")
    return int(size), xs, xst


def arange(start=0, end=None, step=1, *, dtype=None, layout=None, device=None, requires_grad=False,
           pin_memory=False) -> Tensor:  # fmt: skip
    """Values from ``start`` up to (not including) ``end`` in steps of ``step``.

    The dtype is int64 when all arguments are integers, else the default float dtype.

    >>> import yaten
    >>> yaten.arange(5)
    tensor([0, 1, 2, 3, 4])
    >>> yaten.arange(1, 2, 0.25)
    tensor([1.0000, 1.2500, 1.5000, 1.7500])
    """
    if end is None:
        start, end = 0, start
        names = (("start", 0), ("end", 1), ("step", 3))
    else:
        names = (("start", 1), ("end", 2), ("step", 3))
    s, e, st = (number_arg("arange", nm, pos, v) for (nm, pos), v in zip(names, (start, end, step)))
    inferred = D.get_default_dtype() if any(isinstance(v, float) for v in (s, e, st)) else D.int64
    dt, dev = options("arange", dtype, device, requires_grad, default=inferred)
    if dt is D.bool or dt.is_complex:
        raise not_implemented("arange_cpu", dt)
    n, xs, xst = _arange_size(s, e, st, dt)
    try:
        if dt.kind == "i":
            host = (np.int64(xs) + np.int64(xst) * np.arange(n, dtype=np.int64)).astype(dt.np)
        else:
            host = _arange_floats(s, st, n, dt)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, (n,), np.int64 if dt.kind == "i" else dt.np) from None
    return make(host, dev, requires_grad)


def _endpoint(name: str, position: int, x):
    if isinstance(x, Tensor) and x.ndim != 0:
        raise RuntimeError(
            f"linspace only supports 0-dimensional start and end tensors, but got {name} with {x.ndim} dimension(s)."
        )
    return number_arg("linspace", name, position, x)


def _linspace_values(start, end, n: int, dtype: D.dtype) -> np.ndarray:
    """torch's CPU linspace, bit for bit: the first half counts up from ``start``, the rest down from ``end``.

    Floating dtypes compute in their own type (``step = (end - start) / (n - 1)``, one fused
    multiply-add per element; half and bfloat16 without fusing); integral dtypes step in double and truncate.
    """
    if dtype.is_complex:  # the real and imaginary parts each spaced as the real dtype's
        z0, z1 = complex(checked_scalar(start, dtype)), complex(checked_scalar(end, dtype))
        real = dtype.to_real()
        parts = (_linspace_values(z0.real, z1.real, n, real), _linspace_values(z0.imag, z1.imag, n, real))
        return np.stack(parts, axis=-1).view(dtype.np)[:, 0]
    s = checked_scalar(start, dtype)
    if n == 1:
        return np.full(1, s, dtype.np)  # torch fills with start and never converts end
    e = checked_scalar(end, dtype)
    half = n // 2
    up = np.arange(half)
    down = n - 1 - np.arange(half, n)
    with np.errstate(all="ignore"):
        if dtype is D.float16 or dtype is D.bfloat16:  # each operation rounded to the 16-bit type
            step = (e - s) / dtype.np.type(n - 1)
            return np.concatenate([s + step * up.astype(dtype.np), e - step * down.astype(dtype.np)])
        if dtype is D.float32:
            step = (e - s) / np.float32(n - 1)
            return np.concatenate(
                [_fma32(step, up.astype(np.float32), s), _fma32(-step, down.astype(np.float32), e)]
            )
        step = (float(e) - float(s)) / (n - 1)
        vals = np.concatenate([_fma(step, up, float(s)), _fma(-step, down, float(e))])
        if dtype is D.float64:
            return vals
        return np.trunc(vals).astype(np.int64).astype(dtype.np)


def _spaced_args(name, start, end, steps, dtype, device, requires_grad):
    """linspace's and logspace's checked arguments: start, end, steps, dtype, device."""
    s, e = _endpoint("start", 1, start), _endpoint("end", 2, end)
    n = as_index(steps)
    if n is None:
        raise TypeError(f"{name}(): argument 'steps' (position 3) must be int, not {type_name(steps)}")
    dt, dev = options(name, dtype, device, requires_grad)
    if n < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dt is D.bool:
        raise not_implemented(f"{name}_cpu", dt)
    return s, e, n, dt, dev


def linspace(start, end, steps, *, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False) -> Tensor:  # fmt: skip
    """``steps`` evenly spaced values from ``start`` to ``end``, both included.

    >>> import yaten
    >>> yaten.linspace(0, 1, 5)
    tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
    s, e, n, dt, dev = _spaced_args("linspace", start, end, steps, dtype, device, requires_grad)
    try:
        host = _linspace_values(s, e, n, dt) if n else np.empty(0, dt.np)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, (n,), np.int64 if dt.kind == "i" else dt.np) from None
    return make(host, dev, requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False) -> Tensor:  # fmt: skip
    """``steps`` values from ``base ** start`` to ``base ** end``, evenly spaced in the exponent.

    >>> import yaten
    >>> yaten.logspace(0, 2, 3)
    tensor([  1.,  10., 100.])
    >>> yaten.logspace(-1, 1, 3, base=2)
    tensor([0.5000, 1.0000, 2.0000])
    """
    s, e, n, dt, dev = _spaced_args("logspace", start, end, steps, dtype, device, requires_grad)
    b = number_arg("logspace", "base", 4, base)
    # The exponents are linspace's (integral dtypes step in double), raised to base in the dtype.
    exps_dtype = dt if dt.is_floating_point else D.float64
    exps = _linspace_values(s, e, n, exps_dtype) if n else np.empty(0, exps_dtype.np)
    with np.errstate(all="ignore"):
        host = np.power(exps_dtype.np.type(b), exps)
    if not dt.is_floating_point:
        host = np.trunc(host).astype(np.int64).astype(dt.np)
    return make(host.astype(dt.np), dev, requires_grad)
