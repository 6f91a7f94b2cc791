"""torch.linalg's decompositions and solvers over host arrays, on NumPy's LAPACK.

Each kernel checks its inputs as torch does (in torch's order, with its messages) and works on a batch
of matrices in the last two dimensions. A singular or non-positive-definite input raises
``LinAlgError`` (torch.linalg.LinAlgError, a RuntimeError) naming the failing batch element and, as
LAPACK reports it, the zero pivot or the failing leading minor. Half precision is refused as torch
refuses it ("Low precision dtypes not supported").
"""

import numpy as np

from ..._promotion import infer_size
from .convert import is_floating
from .linalg import _name, _not_implemented


class LinAlgError(RuntimeError):
    """A linear-algebra routine failed on its input (singular matrix, not positive-definite, ...).

    >>> issubclass(LinAlgError, RuntimeError)
    True
    """


LinAlgError.__module__ = "yaten.linalg"


def check_matrix(
    fn: str, a, arg: str = "A", square: bool = True, low_precision: str | None = "refuse"
) -> None:
    """torch's squareCheckInputs and checkFloatingOrComplex for ``linalg.<fn>`` (shared with composites)."""
    if a.ndim < 2:
        raise RuntimeError(f"linalg.{fn}: The input tensor {arg} must have at least 2 dimensions.")
    if square and a.shape[-1] != a.shape[-2]:
        raise RuntimeError(
            f"linalg.{fn}: {arg} must be batches of square matrices, but they are {a.shape[-2]} by {a.shape[-1]} "
            "matrices"
        )
    check_floating(fn, a, low_precision)


def check_floating(fn: str, a, low_precision: str | None = "refuse") -> None:
    """A floating input; half and bfloat16 are refused as torch refuses them for ``fn``: ``"refuse"``
    (its "Low precision dtypes" error), the name of the LAPACK kernel it lacks, or None (allowed)."""
    dt = np.dtype(getattr(a.dtype, "np", a.dtype))  # an array's, or a Tensor's (for the composites)
    if dt.kind != "c" and not is_floating(dt):  # bfloat16 is ml_dtypes' kind "V"
        raise RuntimeError(
            f"linalg.{fn}: Expected a floating point or complex tensor as input. Got {_name(dt)}"
        )
    if dt.itemsize >= 4 or low_precision is None:
        return
    if low_precision == "refuse":
        raise RuntimeError(f"linalg.{fn}: Low precision dtypes not supported. Got {_name(dt)}")
    raise _not_implemented(low_precision, dt)


def _batch_prefix(a: np.ndarray, index: int) -> str:
    return f"(Batch element {index}): " if a.ndim > 2 else ""


def _first_failure(a: np.ndarray, fails) -> tuple:
    """``(batch index, detail)`` of the first matrix of ``a`` for which ``fails`` returns a detail."""
    for i, m in enumerate(a.reshape(-1, *a.shape[-2:])):
        detail = fails(m)
        if detail is not None:
            return i, detail
    raise AssertionError("LAPACK failed on a batch without a failing matrix")


def _zero_pivot(m: np.ndarray):
    """The 1-based index of the first zero pivot of ``m``'s LU factorisation with partial pivoting."""
    u = m.astype(np.float64 if m.dtype.kind == "f" else np.complex128).copy()
    n = u.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        if u[p, k] == 0:
            return k + 1
        u[[k, p]] = u[[p, k]]
        u[k + 1 :] -= np.outer(u[k + 1 :, k] / u[k, k], u[k])
    return None


def _singular(fn: str, a: np.ndarray, message: str) -> LinAlgError:
    i, k = _first_failure(a, _zero_pivot)
    return LinAlgError(f"{fn}: {_batch_prefix(a, i)}" + message.format(k=k))


def _is_vector_rhs(A: np.ndarray, B: np.ndarray) -> bool:
    """torch's rule for linalg.solve: B is a (batch of) vector(s) rather than matrices."""
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and B.shape == A.shape[:-1])


def linalg_solve(A, B, left):
    """X with ``A X = B`` (``left=False``: ``X A = B``); B may be a vector or a batch of them.

    >>> linalg_solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([2.0, 2.0]), True)
    array([1. , 0.5])
    """
    check_matrix("solve", A, low_precision="lu_cpu")
    check_floating("solve", B, "lu_cpu")
    if A.dtype != B.dtype:
        raise RuntimeError(
            f"linalg.solve: Expected A and B to have the same dtype, but found A of type {_name(A.dtype)} and B "
            f"of type {_name(B.dtype)} instead"
        )
    vector = _is_vector_rhs(A, B)
    b = B[..., None] if vector else B
    rows = b.shape[-2] if left else b.shape[-1]
    if rows != A.shape[-1]:
        shape_b = f"{b.shape[-2]}x{b.shape[-1]}"
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"linalg.solve: Incompatible shapes of A and B for the equation {equation} "
            f"({A.shape[-2]}x{A.shape[-1]} and {shape_b})"
        )
    batch = tuple(infer_size(b.shape[:-2], A.shape[:-2]))  # torch names B's batch 'a' in its message
    a = np.broadcast_to(A, batch + A.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    try:
        x = (
            np.linalg.solve(a, b)
            if left
            else np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
        )
    except np.linalg.LinAlgError:
        raise _singular(
            "torch.linalg.solve", a, "The solver failed because the input matrix is singular."
        ) from None
    x = np.ascontiguousarray(x, dtype=A.dtype)
    return x[..., 0] if vector else x


_INV_SINGULAR = "The diagonal element {k} is zero, the inversion could not be completed because the input matrix is singular."


def _per_matrix(a: np.ndarray, factor, failure) -> tuple:
    """``factor`` of each matrix of ``a`` with torch's int32 ``info``: 0, or ``failure``'s detail for a
    matrix it fails on (that matrix's values are NaN; LAPACK leaves unspecified ones there)."""
    flat = a.reshape(-1, *a.shape[-2:])
    out, info = [], np.zeros(len(flat), np.int32)
    for i, m in enumerate(flat):
        try:
            out.append(factor(m))
        except np.linalg.LinAlgError:
            info[i] = failure(m)
            out.append(np.full(a.shape[-2:], np.nan, a.dtype))
    return np.stack(out).reshape(a.shape) if out else np.empty(a.shape, a.dtype), info.reshape(a.shape[:-2])


def _inv(A, fn: str, check_errors: bool) -> tuple:
    check_matrix("inv", A)
    try:
        return np.ascontiguousarray(np.linalg.inv(A), dtype=A.dtype), np.zeros(A.shape[:-2], np.int32)
    except np.linalg.LinAlgError:
        if check_errors:
            raise _singular(fn, A, _INV_SINGULAR) from None
    inverse, info = _per_matrix(A, np.linalg.inv, _zero_pivot)
    return inverse.astype(A.dtype), info


def linalg_inv(A):
    """The inverse of a (batch of) square matrices.

    >>> linalg_inv(np.array([[2.0, 0.0], [0.0, 4.0]]))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    return _inv(A, "linalg.inv", True)[0]


def linalg_inv_ex(A, check_errors):
    """``(inverse, info)``: info is 0, or the 1-based index of a singular matrix's zero pivot (its inverse
    is then NaN); ``check_errors`` raises instead.

    >>> linalg_inv_ex(np.array([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]]), False)[1]
    array([0, 2], dtype=int32)
    """
    return _inv(A, "linalg.inv_ex", check_errors)


def linalg_det(A):
    """The determinant of a (batch of) square matrices.

    >>> float(linalg_det(np.array([[1.0, 2.0], [3.0, 4.0]])))
    -2.0000000000000004
    """
    check_matrix("det", A, low_precision="lu_cpu")
    return np.asarray(np.linalg.det(A), dtype=A.dtype)


def linalg_slogdet(A):
    """``(sign, log|det|)`` of a (batch of) square matrices.

    >>> linalg_slogdet(np.array([[0.0, 2.0], [3.0, 0.0]]))
    (array(-1.), array(1.79175947))
    """
    check_matrix("slogdet", A)
    sign, logabsdet = np.linalg.slogdet(A)
    return np.asarray(sign, dtype=A.dtype), np.asarray(logabsdet, dtype=A.real.dtype)


def _failing_minor(m: np.ndarray):
    """The order of the first leading minor of ``m`` that is not positive-definite."""
    for k in range(1, m.shape[0] + 1):
        try:
            np.linalg.cholesky(m[:k, :k])
        except np.linalg.LinAlgError:
            return k
    return None


def _cholesky(self, upper: bool, fn: str, check_errors: bool) -> tuple:
    check_matrix("cholesky", self, low_precision="cholesky_cpu")
    lower = np.tril(self)
    sym = lower + np.swapaxes(np.tril(self, -1), -1, -2).conj()  # LAPACK's potrf reads the lower triangle
    try:
        L, info = np.linalg.cholesky(sym), np.zeros(sym.shape[:-2], np.int32)
    except np.linalg.LinAlgError:
        if check_errors:
            i, k = _first_failure(sym, _failing_minor)
            raise LinAlgError(
                f"{fn}: {_batch_prefix(sym, i)}The factorization could not be completed because the input is "
                f"not positive-definite (the leading minor of order {k} is not positive-definite)."
            ) from None
        L, info = _per_matrix(sym, np.linalg.cholesky, _failing_minor)
    L = np.swapaxes(L, -1, -2).conj() if upper else L
    return np.ascontiguousarray(L, dtype=self.dtype), info


def linalg_cholesky(self, upper):
    """The Cholesky factor L (``upper``: U = L^H) of a (batch of) symmetric positive-definite matrices;
    only the lower triangle is read, as LAPACK's ``potrf`` reads it.

    >>> linalg_cholesky(np.array([[4.0, 2.0], [2.0, 5.0]]), False)
    array([[2., 0.],
           [1., 2.]])
    """
    return _cholesky(self, upper, "linalg.cholesky", True)[0]


def linalg_cholesky_ex(self, upper, check_errors):
    """``(L, info)``: info is 0, or the order of the first leading minor that is not positive-definite
    (L is then NaN); ``check_errors`` raises instead.

    >>> linalg_cholesky_ex(np.array([[1.0, 2.0], [2.0, 1.0]]), False, False)[1]
    array(2, dtype=int32)
    """
    return _cholesky(self, upper, "linalg.cholesky_ex", check_errors)


_QR_MODES = ("reduced", "r", "complete")


def linalg_qr(A, mode):
    """``(Q, R)`` of the QR decomposition; ``mode='r'`` returns an empty Q, as torch does.

    >>> q, r = linalg_qr(np.array([[3.0, 1.0], [4.0, 2.0]]), "reduced")
    >>> np.allclose(q @ r, [[3.0, 1.0], [4.0, 2.0]])
    True
    """
    if mode not in _QR_MODES:
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or 'complete'"
        )
    check_matrix("qr", A, square=False, low_precision="geqrf_cpu")
    if mode == "r":
        r = np.linalg.qr(A, mode="r")
        return np.empty((0,), A.dtype), np.ascontiguousarray(r, dtype=A.dtype)
    q, r = np.linalg.qr(A, mode=mode)
    return np.ascontiguousarray(q, dtype=A.dtype), np.ascontiguousarray(r, dtype=A.dtype)


def geqrf(self):
    """``(a, tau)``: the QR decomposition as LAPACK's geqrf stores it (R on and above the diagonal, the
    Householder vectors below it, their scales in ``tau``).

    >>> a, tau = geqrf(np.array([[3.0, 1.0], [4.0, 2.0]]))
    >>> np.round(np.abs(a[0]), 4), np.round(tau, 4)
    (array([5. , 2.2]), array([1.6, 0. ]))
    """
    if self.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    dt = np.dtype(self.dtype)
    if dt.kind != "c" and (not is_floating(dt) or dt.itemsize < 4):
        raise _not_implemented("geqrf_cpu", dt)
    h, tau = np.linalg.qr(self, mode="raw")  # h is a transposed (Fortran-order) as LAPACK leaves it
    return np.ascontiguousarray(np.swapaxes(h, -1, -2), dtype=dt), np.ascontiguousarray(tau, dtype=dt)


def linalg_svd(A, full_matrices, driver):
    """``(U, S, Vh)`` with ``A = U diag(S) Vh``, singular values in descending order.

    >>> u, s, vh = linalg_svd(np.array([[3.0, 0.0], [0.0, -2.0]]), False, None)
    >>> s
    array([3., 2.])
    """
    check_matrix("svd", A, square=False, low_precision="linalg_svd_cpu")
    if driver is not None:
        raise RuntimeError(
            "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend."
        )
    u, s, vh = np.linalg.svd(A, full_matrices=full_matrices)
    real = A.real.dtype if A.dtype.kind == "c" else A.dtype
    return (np.ascontiguousarray(u, dtype=A.dtype), np.ascontiguousarray(s, dtype=real),
            np.ascontiguousarray(vh, dtype=A.dtype))  # fmt: skip


def linalg_eigh(self, UPLO):
    """``(eigenvalues, eigenvectors)`` of a (batch of) symmetric matrices, eigenvalues ascending; only the
    ``UPLO`` triangle is read.

    >>> w, v = linalg_eigh(np.array([[2.0, 1.0], [1.0, 2.0]]), "L")
    >>> w
    array([1., 3.])
    """
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    check_matrix("eigh", self, low_precision="linalg_eigh_cpu")
    w, v = np.linalg.eigh(self, UPLO=UPLO)
    real = self.real.dtype if self.dtype.kind == "c" else self.dtype
    return np.ascontiguousarray(w, dtype=real), np.ascontiguousarray(v, dtype=self.dtype)


def linalg_solve_triangular(self, B, upper, left, unitriangular):
    """X with ``A X = B`` (``left=False``: ``X A = B``) for a triangular A (``self``): only its ``upper``
    or lower triangle is read, and its diagonal taken as ones if ``unitriangular``.

    >>> linalg_solve_triangular(np.array([[2.0, 1.0], [0.0, 1.0]]), np.array([[3.0], [1.0]]), True, True, False)
    array([[1.],
           [1.]])
    """
    check_matrix("solve_triangular", self, low_precision="triangular_solve_cpu")
    if B.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 dimensions.")
    check_floating("solve_triangular", B, "triangular_solve_cpu")
    if self.dtype != B.dtype:
        raise RuntimeError(
            f"linalg.solve_triangular: Expected A and B to have the same dtype, but found A of type "
            f"{_name(self.dtype)} and B of type {_name(B.dtype)} instead"
        )
    if (B.shape[-2] if left else B.shape[-1]) != self.shape[-1]:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"linalg.solve_triangular: Incompatible shapes of A and B for the equation {equation} "
            f"({self.shape[-2]}x{self.shape[-1]} and {B.shape[-2]}x{B.shape[-1]})"
        )
    a = np.triu(self) if upper else np.tril(self)
    if unitriangular:
        a = a.copy()
        np.einsum("...ii->...i", a)[...] = 1
    if not left:  # X A = B  <=>  A^T X^T = B^T
        a, B = np.swapaxes(a, -1, -2), np.swapaxes(B, -1, -2)
    batch = tuple(infer_size(B.shape[:-2], a.shape[:-2]))
    a, b = np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(B, batch + B.shape[-2:])
    with np.errstate(all="ignore"):  # a zero diagonal gives inf/nan, as LAPACK's trtrs without checks
        x = _triangular_solve(a, b, upper if left else not upper)
    x = np.swapaxes(x, -1, -2) if not left else x
    return np.ascontiguousarray(x, dtype=self.dtype)


def _triangular_solve(a: np.ndarray, b: np.ndarray, upper: bool) -> np.ndarray:
    """Substitution over the rows of a triangular ``a`` (vectorised over the batch and right-hand sides)."""
    n = a.shape[-1]
    x = np.zeros(np.broadcast_shapes(a.shape[:-1], b.shape[:-1]) + b.shape[-1:], dtype=np.result_type(a, b))
    for i in reversed(range(n)) if upper else range(n):
        acc = b[..., i, :] - np.einsum("...j,...jk->...k", a[..., i, :], x)
        x[..., i, :] = acc / a[..., i, i, None]
    return x
