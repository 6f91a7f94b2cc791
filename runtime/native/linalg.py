"""torch.linalg's composites (norms, pinv, matrix functions, products) and torch's legacy linear-algebra
names, written with yaten ops: their gradients come from the LAPACK primitives' formulas
(spec/derivatives.yaml) and the ops they call, and they run wherever those ops do."""

import math

import yaten

from .._dtype import LEGACY_NAME, TYPEID_NAME
from .._user_warning import warn_user
from ..kernels.cpu.lapack import LinAlgError, check_floating, check_matrix
from ..return_types import return_type


def _ord_text(ord) -> str:
    return f"{ord:g}" if isinstance(ord, float) else str(ord)


def _dims(dim, ndim: int) -> list:
    if dim is None:
        return list(range(ndim))
    return [dim] if isinstance(dim, int) else list(dim)


def linalg_vector_norm(self, ord=2, dim=None, keepdim=False, dtype=None):
    """The ``ord``-norm of ``self`` as a vector, over ``dim`` (default: all elements).

    >>> import yaten
    >>> yaten.linalg.vector_norm(yaten.tensor([[3.0, 0.0], [0.0, -4.0]]))
    tensor(5.)
    >>> yaten.linalg.vector_norm(yaten.tensor([[3.0, 0.0], [0.0, -4.0]]), float("inf"), dim=1)
    tensor([3., 4.])
    """
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        raise RuntimeError(
            f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {LEGACY_NAME[self.dtype]}"
        )
    if dtype is not None:
        if yaten.promote_types(self.dtype, dtype) != dtype:
            raise RuntimeError(
                f"linalg.vector_norm: the dtype of the input ({LEGACY_NAME[self.dtype]}) should be convertible "
                f"without narrowing to the specified dtype ({LEGACY_NAME[dtype]})"
            )
        self = self.to(dtype)
    dims = _dims(dim, self.ndim)
    if (ord < 0 or ord == math.inf) and any(self.shape[d] == 0 for d in dims):
        raise RuntimeError(
            f"linalg.vector_norm cannot compute the {_ord_text(ord)} norm on an empty tensor because the operation "
            "does not have an identity"
        )
    if self.ndim == 0:
        return self.abs() if ord != 0 else (self != 0).to(self.dtype.to_real())
    return yaten.norm(self, ord, dims, keepdim)


def _matrix_dims(dim, ndim: int) -> tuple:
    d0, d1 = (d % ndim for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    return d0, d1


def linalg_matrix_norm(self, ord="fro", dim=(-2, -1), keepdim=False, dtype=None):
    """The matrix norm ``ord`` ('fro', 'nuc', ±1, ±2, ±inf) of the matrices in dimensions ``dim``.

    >>> import yaten
    >>> yaten.linalg.matrix_norm(yaten.tensor([[1.0, -2.0], [3.0, 4.0]]), 1)
    tensor(6.)
    """
    check_matrix("matrix_norm", self, square=False, low_precision=None)
    dim = tuple(dim)
    d0, d1 = _matrix_dims(dim, self.ndim)
    if ord == "fro":
        return linalg_vector_norm(self, 2, dim, keepdim, dtype=dtype)
    if dtype is not None:
        self = self.to(dtype)
    if ord in ("nuc", 2, -2):
        check_floating("matrix_norm", self)
        values = linalg_svdvals(self.movedim((d0, d1), (-2, -1)))
        result = values.sum(-1) if ord == "nuc" else (values.amax(-1) if ord == 2 else values.amin(-1))
        if keepdim:
            result = result.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1))
        return result
    if ord in (1, -1, math.inf, -math.inf):
        inner, outer = (d0, d1) if ord in (1, -1) else (d1, d0)
        sums = self.abs().sum(inner, keepdim=True)
        result = sums.amax(outer, keepdim=True) if ord > 0 else sums.amin(outer, keepdim=True)
        return result if keepdim else result.squeeze((d0, d1))
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


def linalg_norm(self, ord=None, dim=None, keepdim=False, dtype=None):
    """A vector norm (``dim`` of one dimension, or a 1-d input) or a matrix norm (two dimensions, or a
    2-d input with ``ord``); without ``ord`` or ``dim``, the 2-norm of all elements.

    >>> import yaten
    >>> yaten.linalg.norm(yaten.tensor([[1.0, 2.0], [2.0, 4.0]]), "nuc")
    tensor(5.)
    """
    if dim is not None:
        dims = _dims(dim, self.ndim)
        if len(dims) == 1:
            return linalg_vector_norm(self, 2 if ord is None else ord, dims, keepdim, dtype=dtype)
        if len(dims) == 2:
            return linalg_matrix_norm(self, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {dims}")
    if ord is None:
        return linalg_vector_norm(self, 2, None, keepdim, dtype=dtype)
    if self.ndim == 2:
        return linalg_matrix_norm(self, ord, (-2, -1), keepdim, dtype=dtype)
    if self.ndim == 1 and not isinstance(ord, str):
        return linalg_vector_norm(self, ord, None, keepdim, dtype=dtype)
    if isinstance(ord, str):
        return linalg_matrix_norm(self, ord, (-2, -1), keepdim, dtype=dtype)
    raise RuntimeError(
        f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {self.ndim}D."
    )


def linalg_svdvals(A, driver=None):
    """The singular values of ``A``, in descending order.

    >>> import yaten
    >>> yaten.linalg.svdvals(yaten.tensor([[0.0, 2.0], [-3.0, 0.0]]))
    tensor([3., 2.])
    """
    return yaten.linalg.svd(A, full_matrices=False, driver=driver)[1]


def linalg_eigvalsh(self, UPLO="L"):
    """The eigenvalues of a symmetric matrix, ascending.

    >>> import yaten
    >>> yaten.linalg.eigvalsh(yaten.tensor([[2.0, 1.0], [1.0, 2.0]]))
    tensor([1., 3.])
    """
    return yaten.linalg.eigh(self, UPLO)[0]


def _rank_tolerances(A, atol, rtol) -> tuple:
    """torch's (atol, rtol) for pinv and matrix_rank: rtol defaults to eps * max(m, n), or to 0 when a
    positive atol is given."""
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else yaten.finfo(A.dtype).eps * max(A.shape[-2:])
    return (0.0 if atol is None else atol), rtol


def linalg_pinv(self, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse: singular values (eigenvalues' magnitudes if ``hermitian``) at
    most ``max(atol, rtol * largest)`` count as zero; default ``rtol`` is ``eps * max(m, n)``.

    >>> import yaten
    >>> yaten.linalg.pinv(yaten.tensor([[1.0, 0.0], [0.0, 0.0]]))
    tensor([[1., 0.],
            [0., 0.]])
    """
    if self.ndim < 2 or not self.dtype.is_floating_point or self.dtype.itemsize < 4:
        raise RuntimeError(
            f"linalg.pinv({LEGACY_NAME[self.dtype]}{{{list(self.shape)}}}): expected a tensor with 2 or more "
            "dimensions of float, double, cfloat or cdouble types"
        )
    atol, rtol = _rank_tolerances(self, atol, rtol)
    if hermitian:
        w, V = yaten.linalg.eigh(self)
        values, left, right = w, V, V.mT
        size = w.abs()
    else:
        left, values, right = yaten.linalg.svd(self, full_matrices=False)
        size = values
    if values.shape[-1] == 0:
        return self.new_zeros(tuple(self.shape[:-2]) + (self.shape[-1], self.shape[-2]))
    tol = (rtol * size.amax(-1, keepdim=True)).clamp_min(atol)
    keep = size > tol
    inverse = yaten.where(
        keep, 1 / yaten.where(keep, values, yaten.ones_like(values)), yaten.zeros_like(values)
    )
    return (right.mT * inverse.unsqueeze(-2)) @ left.mT


def linalg_pinv_rcond(self, rcond, hermitian=False):
    """linalg.pinv(A, rcond): ``rtol=rcond`` with no absolute tolerance.

    >>> import yaten
    >>> yaten.linalg.pinv(yaten.tensor([[2.0]]), 1e-15)
    tensor([[0.5000]])
    """
    return linalg_pinv(self, atol=0.0, rtol=rcond, hermitian=hermitian)


def linalg_matrix_power(self, n):
    """``self`` to the integer power ``n`` (``n < 0``: of its inverse), by repeated squaring.

    >>> import yaten
    >>> yaten.linalg.matrix_power(yaten.tensor([[1, 1], [0, 1]]), 3)
    tensor([[1, 3],
            [0, 1]])
    """
    if self.ndim < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
    if self.shape[-1] != self.shape[-2]:
        raise RuntimeError(
            f"linalg.matrix_power: A must be batches of square matrices, but they are {self.shape[-2]} by "
            f"{self.shape[-1]} matrices"
        )
    if n == 0:
        eye = yaten.eye(self.shape[-1], dtype=self.dtype, device=self.device)
        return self.clone().copy_(eye.expand(self.shape))  # as torch: connected, with a zero gradient
    base = yaten.linalg.inv(self) if n < 0 else self
    result, n = None, abs(n)
    while n:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if n:
            base = base @ base
    return result


_TAYLOR_DEGREE = 18  # with ||X|| <= 1/2 the truncated series errs by < 0.5**19 / 19!, below float64's ulp


def linalg_matrix_exp(self):
    """The matrix exponential, by scaling and squaring a Taylor series.

    >>> import yaten
    >>> yaten.linalg.matrix_exp(yaten.tensor([[0.0, 1.0], [0.0, 0.0]]))
    tensor([[1., 1.],
            [0., 1.]])
    """
    check_matrix("matrix_exp", self, low_precision=None)
    if self.numel() == 0:
        return self.clone()
    norm = float(self.detach().abs().sum(-2).amax())  # the largest 1-norm in the batch
    squarings = max(0, math.ceil(math.log2(norm / 0.5))) if norm > 0 else 0
    x = self / 2.0**squarings
    eye = yaten.eye(self.shape[-1], dtype=self.dtype, device=self.device)
    result = eye
    for k in range(_TAYLOR_DEGREE, 0, -1):  # Horner: I + X/1 (I + X/2 (I + ...))
        result = eye + (x @ result) / k
    for _ in range(squarings):
        result = result @ result
    return result


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def linalg_lstsq(self, b, rcond=None, driver=None):
    """The least-squares solution X of ``self @ X = b`` (``b`` a matrix or a vector), through the
    pseudo-inverse: ``(solution, residuals, rank, singular_values)``, the last three filled as torch's
    CPU drivers fill them (default 'gelsy': rank only; 'gelsd'/'gelss': all; 'gels': residuals).

    >>> import yaten
    >>> yaten.linalg.lstsq(yaten.tensor([[1.0], [1.0]]), yaten.tensor([[1.0], [3.0]])).solution.round()
    tensor([[2.]])
    """
    driver = "gelsy" if driver is None else driver
    if self.dtype not in (yaten.float32, yaten.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if driver not in _LSTSQ_DRIVERS:
        raise RuntimeError(
            "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"
        )
    if self.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if self.dtype != b.dtype:
        raise RuntimeError(
            "torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype "
            f"{LEGACY_NAME[self.dtype]} and other's dtype {LEGACY_NAME[b.dtype]}"
        )
    vector = b.ndim == self.ndim - 1
    B = b.unsqueeze(-1) if vector else b
    if B.shape[-2] != self.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    m, n = self.shape[-2], self.shape[-1]
    rcond = yaten.finfo(self.dtype).eps * max(m, n) if rcond is None or rcond < 0 else rcond
    values = linalg_svdvals(self)
    rank = (values > rcond * values.amax(-1, keepdim=True)).sum(-1)
    solution = linalg_pinv(self, 0.0, rcond) @ B
    empty = self.reshape(-1)[:0]  # torch's unfilled outputs are empty, and differentiable like the rest
    residuals = empty
    if driver != "gelsy" and m > n and bool((rank == n).all()):
        residuals = ((self @ solution - B) ** 2).sum(-2)
    return return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))(
        solution.squeeze(-1) if vector else solution,
        residuals,
        rank if driver != "gels" else rank.new_empty((0,)),
        (values if driver in ("gelsd", "gelss") else empty).detach(),  # not differentiable, as torch's
    )


def linalg_matrix_rank(self, atol=None, rtol=None, hermitian=False):
    """The number of singular values (eigenvalue magnitudes if ``hermitian``) above
    ``max(atol, rtol * largest)``, per matrix.

    >>> import yaten
    >>> yaten.linalg.matrix_rank(yaten.tensor([[1.0, 2.0], [2.0, 4.0]]))
    tensor(1)
    """
    if self.dtype not in (yaten.float32, yaten.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    atol, rtol = _rank_tolerances(self, atol, rtol)
    values = yaten.linalg.eigvalsh(self).abs() if hermitian else linalg_svdvals(self)
    if values.shape[-1] == 0:
        return yaten.zeros(tuple(self.shape[:-2]), dtype=yaten.int64, device=self.device)
    tol = (rtol * values.amax(-1, keepdim=True)).clamp_min(atol)
    return (values > tol).sum(-1)


def linalg_matrix_rank_tol(self, tol, hermitian=False):
    """linalg.matrix_rank(A, tol): singular values above ``tol`` (an absolute tolerance).

    >>> import yaten
    >>> yaten.linalg.matrix_rank(yaten.tensor([[1.0, 0.0], [0.0, 0.1]]), 0.5)
    tensor(1)
    """
    return linalg_matrix_rank(self, tol, 0.0, hermitian)


def linalg_cond(self, p=None):
    """The condition number of a matrix in the norm ``p`` (None/2, -2: from the singular values; 'fro',
    'nuc', ±1, ±inf: ``norm(A) * norm(inv(A))``, inf for a singular matrix).

    >>> import yaten
    >>> yaten.linalg.cond(yaten.tensor([[2.0, 0.0], [0.0, 0.5]]))
    tensor(4.)
    """
    if p is None or p in (2, -2):
        values = linalg_svdvals(self)
        big, small = values.amax(-1), values.amin(-1)
        return big / small if p != -2 else small / big
    if p not in ("fro", "nuc", 1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    check_matrix(f"cond(ord={p})", self)
    try:
        return _norm_cond(self, p)
    except LinAlgError:  # torch gives inf for the singular matrices of a batch
        flat = [_norm_cond_or_inf(m, p) for m in self.reshape(-1, *self.shape[-2:])]
        return yaten.stack(flat).reshape(self.shape[:-2])


def _norm_cond(A, p):
    return linalg_matrix_norm(A, p) * linalg_matrix_norm(yaten.linalg.inv(A), p)


def _norm_cond_or_inf(m, p):
    try:
        return _norm_cond(m, p)
    except LinAlgError:
        return yaten.full((), math.inf, dtype=m.dtype, device=m.device)


def linalg_vecdot(x, y, dim=-1):
    """The dot product of vectors along ``dim`` (inputs broadcast).

    >>> import yaten
    >>> yaten.linalg.vecdot(yaten.tensor([[1.0, 2.0], [3.0, 4.0]]), yaten.tensor([1.0, 1.0]))
    tensor([3., 7.])
    """
    if not x.dtype.is_floating_point:
        raise RuntimeError(
            f"linalg.vecdot: Expected a floating point or complex tensor as input. Got {LEGACY_NAME[x.dtype]}"
        )
    return (x * y).sum(dim)


def linalg_matmul(self, other):
    """linalg.matmul: ``matmul``.

    >>> import yaten
    >>> yaten.linalg.matmul(yaten.eye(2), yaten.tensor([1.0, 2.0]))
    tensor([1., 2.])
    """
    return yaten.matmul(self, other)


def linalg_diagonal(A, offset=0, dim1=-2, dim2=-1):
    """linalg.diagonal: ``diagonal`` over the last two dimensions by default.

    >>> import yaten
    >>> yaten.linalg.diagonal(yaten.eye(2))
    tensor([1., 1.])
    """
    return A.diagonal(offset, dim1, dim2)


def cholesky_solve(self, input2, upper=False):
    """X with ``A X = self`` for ``A = L L^T`` given its Cholesky factor ``input2`` (``upper``: U = L^T).

    >>> import yaten
    >>> yaten.cholesky_solve(yaten.tensor([[4.0], [8.0]]), yaten.tensor([[2.0, 0.0], [0.0, 2.0]]))
    tensor([[1.],
            [2.]])
    """
    if self.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {self.ndim} dimensions instead")
    # A is formed from the whole factor, so the gradient reaches every entry of it, as torch's does
    A = input2.mT @ input2 if upper else input2 @ input2.mT
    return yaten.linalg.solve(A, self)


def cholesky_inverse(self, upper=False):
    """The inverse of ``A = L L^T`` from its Cholesky factor ``self`` (``upper``: U = L^T).

    >>> import yaten
    >>> yaten.cholesky_inverse(yaten.tensor([[2.0]]))
    tensor([[0.2500]])
    """
    if self.ndim < 2:
        raise RuntimeError("cholesky_inverse: The input tensor A must have at least 2 dimensions.")
    eye = yaten.eye(self.shape[-1], dtype=self.dtype, device=self.device).expand(self.shape)
    return cholesky_solve(eye, self, upper)


def _cpp_name(dtype) -> str:
    return TYPEID_NAME[dtype]


def linalg_multi_dot(tensors):
    """The product of a chain of matrices (the first may be a row vector, the last a column vector).

    >>> import yaten
    >>> yaten.linalg.multi_dot([yaten.ones(2), yaten.eye(2), yaten.tensor([1.0, 2.0])])
    tensor(3.)
    """
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    for i, t in enumerate(tensors):
        where = "the first tensor" if i == 0 else ("the last tensor" if i == n - 1 else f"tensor {i}")
        ok = t.ndim in (1, 2) if i in (0, n - 1) else t.ndim == 2
        if not ok:
            need = "1D or 2D" if i in (0, n - 1) else "2D"
            raise RuntimeError(f"multi_dot(): {where} must be {need} but got {t.ndim}D")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError(
                f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                f"{_cpp_name(tensors[0].dtype)} and tensor {i} {_cpp_name(t.dtype)}"
            )
    mats = [tensors[0].unsqueeze(0) if tensors[0].ndim == 1 else tensors[0], *tensors[1:-1]]
    mats.append(tensors[-1].unsqueeze(-1) if tensors[-1].ndim == 1 else tensors[-1])
    for i in range(n - 1):
        if mats[i].shape[-1] != mats[i + 1].shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {list(tensors[i].shape)} and "
                f"{list(tensors[i + 1].shape)} cannot be multiplied"
            )
    result = mats[0]
    for m in mats[1:]:
        result = result @ m
    if tensors[0].ndim == 1:
        result = result.squeeze(0)
    return result.squeeze(-1) if tensors[-1].ndim == 1 else result


def linalg_cross(self, other, dim=-1):
    """The cross product of 3-vectors along ``dim`` (inputs broadcast).

    >>> import yaten
    >>> yaten.linalg.cross(yaten.tensor([1.0, 0.0, 0.0]), yaten.tensor([0.0, 1.0, 0.0]))
    tensor([0., 0., 1.])
    """
    if self.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if self.shape[dim] != 3 or other.shape[dim] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {self.shape[dim]} and {other.shape[dim]}"
        )
    return self.roll(-1, dim) * other.roll(1, dim) - self.roll(1, dim) * other.roll(-1, dim)


# --- torch's legacy names ------------------------------------------------------------------------
def inverse(self):
    """torch.inverse: ``linalg.inv``.

    >>> import yaten
    >>> yaten.tensor([[2.0]]).inverse()
    tensor([[0.5000]])
    """
    return yaten.linalg.inv(self)


def det(self):
    """torch.det: ``linalg.det``.

    >>> import yaten
    >>> yaten.det(yaten.tensor([[2.0, 0.0], [0.0, 3.0]]))
    tensor(6.)
    """
    return yaten.linalg.det(self)


def slogdet(self):
    """torch.slogdet: ``linalg.slogdet``, ``(sign, logabsdet)``.

    >>> import yaten
    >>> yaten.slogdet(yaten.tensor([[-2.0]])).sign
    tensor(-1.)
    """
    return return_type("slogdet", ("sign", "logabsdet"))(*yaten.linalg.slogdet(self))


def logdet(self):
    """log(det(self)): NaN for a negative determinant, -inf for a zero one.

    >>> import yaten
    >>> yaten.logdet(yaten.tensor([[1.0, 0.0], [0.0, 4.0]]))
    tensor(1.3863)
    """
    if not self.dtype.is_floating_point:
        raise RuntimeError(
            f"logdet: Expected a floating point or complex tensor as input. Got {LEGACY_NAME[self.dtype]}"
        )
    sign, logabsdet = yaten.linalg.slogdet(self)
    return yaten.where(sign < 0, yaten.full_like(logabsdet, math.nan), logabsdet)


def svd(self, some=True, compute_uv=True):
    """torch.svd: ``(U, S, V)`` with V (not Vh); ``some=False`` gives the full U and V; without
    ``compute_uv``, U and V are zeros.

    >>> import yaten
    >>> yaten.svd(yaten.tensor([[3.0, 0.0], [0.0, 2.0]])).S
    tensor([3., 2.])
    """
    result = return_type("svd", ("U", "S", "V"))
    if not compute_uv:
        m, n = self.shape[-2], self.shape[-1]
        batch = tuple(self.shape[:-2])
        U = yaten.zeros(batch + (m, m), dtype=self.dtype, device=self.device)
        return result(
            U, linalg_svdvals(self), yaten.zeros(batch + (n, n), dtype=self.dtype, device=self.device)
        )
    U, S, Vh = yaten.linalg.svd(self, full_matrices=not some)
    return result(U, S, Vh.mT)


def cholesky(self, upper=False):
    """torch.cholesky (deprecated in torch): ``linalg.cholesky``, ``upper`` giving U = L^T.

    >>> import yaten, warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     yaten.cholesky(yaten.tensor([[4.0]]))
    tensor([[2.]])
    """
    warn_user(
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future PyTorch "
        "release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand\n"
        "U = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\n"
        "This transform will produce equivalent results for all valid (symmetric positive definite) inputs."
    )
    return yaten.linalg.cholesky(self, upper=upper)


def qr(self, some=True):
    """torch.qr (deprecated in torch): ``linalg.qr`` in mode 'reduced' (``some``) or 'complete'.

    >>> import yaten, warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     yaten.qr(yaten.eye(2)).R
    tensor([[1., 0.],
            [0., 1.]])
    """
    warn_user(
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\n"
        "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = torch.qr(A, some)\n"
        "should be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else 'complete')"
    )
    return return_type("qr", ("Q", "R"))(*yaten.linalg.qr(self, "reduced" if some else "complete"))


def pinverse(self, rcond=1e-15):
    """torch.pinverse: ``linalg.pinv(self, rcond)``.

    >>> import yaten
    >>> yaten.tensor([[4.0]]).pinverse()
    tensor([[0.2500]])
    """
    return linalg_pinv_rcond(self, rcond)


def matrix_power(self, n):
    """torch.matrix_power: ``linalg.matrix_power``.

    >>> import yaten
    >>> yaten.tensor([[2.0]]).matrix_power(-1)
    tensor([[0.5000]])
    """
    return linalg_matrix_power(self, n)


def matrix_exp(self):
    """torch.matrix_exp: ``linalg.matrix_exp``.

    >>> import yaten
    >>> yaten.tensor([[0.0]]).matrix_exp()
    tensor([[1.]])
    """
    return linalg_matrix_exp(self)


def linalg_householder_product(input, tau):
    """The first n columns of the product of the Householder reflectors ``I - tau_i v_i v_i^H`` whose
    vectors are below ``input``'s diagonal (with a 1 on it): the Q of ``geqrf``'s output, as LAPACK's orgqr."""
    fn = "torch.linalg.householder_product"
    if input.ndim < 2:
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    m, n = input.shape[-2], input.shape[-1]
    if m < n:
        raise RuntimeError(f"{fn}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if n < tau.shape[-1]:
        raise RuntimeError(f"{fn}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if tau.ndim != input.ndim - 1:
        raise RuntimeError(
            f"{fn}: Expected tau to have one dimension less than input, but got tau.ndim equal to {tau.ndim} and "
            f"input.ndim is equal to {input.ndim}"
        )
    if tuple(tau.shape[:-1]) != tuple(input.shape[:-2]):
        raise RuntimeError(
            f"{fn}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got {list(tau.shape[:-1])}"
        )
    if not (input.dtype.is_floating_point or input.dtype.is_complex) or input.dtype.itemsize < 4:
        raise NotImplementedError(f"\"orgqr_cpu\" not implemented for '{LEGACY_NAME[input.dtype]}'")
    if tau.dtype != input.dtype:
        raise RuntimeError(
            f"{fn}: tau dtype {LEGACY_NAME[tau.dtype]} does not match input dtype {LEGACY_NAME[input.dtype]}"
        )
    return _apply_reflectors(
        input, tau, yaten.eye(m, n, dtype=input.dtype, device=input.device).expand(*input.shape)
    )


def _apply_reflectors(input, tau, C, adjoint: bool = False):
    """``Q @ C`` (``Q^H @ C`` with ``adjoint``) for ``Q = H_0 H_1 ... H_{k-1}``, ``H_i = I - tau_i v_i v_i^H``,
    the vectors ``v_i`` below ``input``'s diagonal with a 1 on it (LAPACK's storage)."""
    rows = yaten.arange(input.shape[-2], device=input.device)
    k = tau.shape[-1]
    for i in range(k) if adjoint else reversed(range(k)):
        v = input[..., :, i] * (rows > i).to(input.dtype) + (rows == i).to(input.dtype)
        t = tau[..., i, None, None]
        C = C - (t.conj() if adjoint else t) * v.unsqueeze(-1) * (v.conj().unsqueeze(-2) @ C)
    return C


def orgqr(self, input2):
    """``linalg.householder_product(self, input2)`` under LAPACK's name."""
    return linalg_householder_product(self, input2)


def ormqr(self, input2, input3, left=True, transpose=False):
    """``Q @ input3`` for the Q of ``geqrf``'s ``(self, input2)``: ``Q^H`` with ``transpose``, on the right
    of ``input3`` when not ``left`` (LAPACK's ormqr)."""
    fn = "torch.ormqr"
    if self.ndim < 2:
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    if input3.ndim < 2:
        raise RuntimeError(f"{fn}: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if input3.shape[side] != self.shape[-2]:
        raise RuntimeError(f"{fn}: other.shape[{side}] must be equal to input.shape[-2]")
    if input2.shape[-1] != min(input3.shape[side], self.shape[-1]):
        raise RuntimeError(f"{fn}: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])")
    if input2.ndim != self.ndim - 1:
        raise RuntimeError(
            f"{fn}: Expected tau to have one dimension less than input, but got tau.ndim equal to {input2.ndim} and "
            f"input.ndim is equal to {self.ndim}"
        )
    if input3.ndim != self.ndim:
        raise RuntimeError(
            f"{fn}: Expected other to have the same number of dimensions as input, but got other.ndim equal to "
            f"{input3.ndim} and input.ndim is equal to {self.ndim}"
        )
    for name, t in (("tau", input2), ("other", input3)):
        batch = list(t.shape[: t.ndim - (1 if t is input2 else 2)])
        if batch != list(self.shape[:-2]):
            raise RuntimeError(
                f"{fn}: Expected batch dimensions of {name} to be equal to input.shape[:-2], but got {batch}"
            )
    if not (self.dtype.is_floating_point or self.dtype.is_complex) or self.dtype.itemsize < 4:
        raise NotImplementedError(f"\"ormqr_cpu\" not implemented for '{LEGACY_NAME[self.dtype]}'")
    for name, t in (("tau", input2), ("other", input3)):
        if t.dtype != self.dtype:
            raise RuntimeError(
                f"{fn}: Expected input and {name} to have the same dtype, but input has dtype"
                f"{LEGACY_NAME[self.dtype]} and {name} has dtype {LEGACY_NAME[t.dtype]}"
            )
    if left:
        return _apply_reflectors(self, input2, input3, adjoint=transpose)
    # C Q = (Q^H C^H)^H and C Q^H = (Q C^H)^H.
    return _apply_reflectors(self, input2, input3.mH, adjoint=not transpose).mH
