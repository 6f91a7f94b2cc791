"""How close a floating result must be to its reference: the one rule every parity helper uses.

The same float math may round differently in its last bits from one run to the other: SIMD `sin`/`exp`
differ between CPU models (NumPy's and torch's alike), and sums, BLAS products and threaded reductions
add in an order set by the vector width and the number of cores. So floating values are compared
within a tolerance chosen by their dtype (the idea of torch.testing.assert_close's defaults: a relative
bound, and an absolute floor for results that cancel to about zero). Everything whose math is exact
(integers, bools, shapes, dtypes, strides, and the tests that only copy or index) is compared exactly.
"""

import numpy as np

# (rtol, atol) by dtype name. rtol is well above what rounding order and SIMD change (float32: ~80 ulps;
# float64: 1e-10, for chains of ops and long sums) and far below a real error; float16 and bfloat16
# results are float32 ones rounded once, an ulp (float16: ~1e-3, bfloat16: 2**-8..2**-7) apart at most.
# atol is the floor where values cancel to ~0.
TOLERANCE = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (8e-3, 1e-5),
    "float32": (1e-5, 1e-5),
    "float64": (1e-10, 1e-12),
    "complex64": (1e-5, 1e-5),  # complex values: their float parts' tolerances (np.allclose on |a - b|)
    "complex128": (1e-10, 1e-12),
}


def tolerance(dtype) -> tuple[float, float] | None:
    """``(rtol, atol)`` for a NumPy, torch or yaten dtype (or its name); None when it is not floating."""
    return TOLERANCE.get(str(np.dtype(dtype) if isinstance(dtype, type) else dtype).rpartition(".")[2])


def as_array(x) -> np.ndarray:
    """The values of a torch or yaten tensor (or anything NumPy takes) as an array of its dtype
    (bfloat16 tensors, which neither library's numpy() converts, as float32)."""
    if hasattr(x, "detach"):
        x = x.detach().cpu()
        if getattr(x, "is_conj", bool)():  # torch's lazily conjugated tensors: NumPy reads them resolved
            x = x.resolve_conj()
        if getattr(x, "_is_zerotensor", bool)():  # torch's gradient of sgn & co.: NumPy reads it only forced
            return x.numpy(force=True)
        return (x.float() if str(x.dtype).endswith("bfloat16") else x).numpy()
    return np.asarray(x)


def close(got, want, dtype) -> bool:
    """Whether two values (nested lists, arrays or numbers) of ``dtype`` agree: within the dtype's
    tolerance (NaN where NaN) when it is floating, exactly otherwise."""
    g, w = np.asarray(got), np.asarray(want)
    tol = tolerance(dtype)
    if g.shape != w.shape:
        return False
    if tol is None:
        return bool(np.array_equal(g, w))
    return bool(np.allclose(g, w, rtol=tol[0], atol=tol[1], equal_nan=True))


def assert_close(got, want, what: str = "", rtol: float | None = None, atol: float | None = None) -> None:
    """``got`` has ``want``'s values (tensors, arrays or numbers): floats within their dtype's tolerance
    (``rtol``/``atol`` override it where a test's math loses more, say why there), NaN where NaN,
    anything else exactly; the shapes must be equal."""
    g, w = as_array(got), as_array(want)
    assert g.shape == w.shape, f"{what}: shape {g.shape} vs {w.shape}"
    tol = tolerance(getattr(want, "dtype", w.dtype))
    if tol is None:
        np.testing.assert_array_equal(g, w, err_msg=what)
        return
    rtol, atol = tol[0] if rtol is None else rtol, tol[1] if atol is None else atol
    np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def assert_matches(got, want, rtol: float | None = None, atol: float | None = None) -> None:
    """A yaten tensor ``got`` has torch's ``want``'s dtype, shape and values (as ``assert_close``)."""
    assert str(want.dtype) == f"torch.{got.dtype.name}", (got.dtype, want.dtype)
    assert tuple(got.shape) == tuple(want.shape), (tuple(got.shape), tuple(want.shape))
    assert_close(got, want, rtol=rtol, atol=atol)


def assert_close_reordered(got, want, what: str = "") -> None:
    """``assert_close`` for results summed in another order (a device's parallel trees): where terms
    cancel, the error is relative to the terms, not to the result, so the absolute floor is raised to
    the dtype's relative tolerance."""
    tol = tolerance(want.dtype)
    assert_close(got, want, what, atol=None if tol is None else tol[0])
