"""The op table's samples for torch.linalg and torch's legacy linear-algebra names (merged into
op_samples.EXPLICIT and BAD).

Matrices are well conditioned (diagonally dominant, symmetric positive-definite where an op needs it),
so float32 results and finite differences stay accurate. cholesky, eigh and eigvalsh read one triangle
of their input only, so finite differences of a full matrix do not see the symmetric gradient torch
defines: their gradients are checked through symmetric inputs in tests/linalg/test_linalg.py
(gradcheck, and against torch), and their table samples are forward-only. Singular and
non-positive-definite inputs raise torch.linalg.LinAlgError, which the table cannot compare by type
(yaten's is not torch's class): the same file checks them by message.
"""

import numpy as np
from op_samples import Sample, _f, _idx

INF = float("inf")

# The LAPACK primitives: CPU kernels only. On cuda they, and the composites that reach them, raise
# torch's NotImplementedError for a missing backend (tests/cuda/test_cuda_op_table.py accepts exactly that).
CPU_ONLY = ("linalg_solve", "linalg_inv", "linalg_inv_ex", "linalg_cholesky_ex", "linalg_det", "linalg_slogdet", "linalg_cholesky", "linalg_qr",
            "linalg_svd", "linalg_eigh", "linalg_solve_triangular", "geqrf")  # fmt: skip


def _wc(*shape, seed=0):
    """A batch of well-conditioned square matrices: random plus n on the diagonal."""
    n = shape[-1]
    return _f(*shape, seed=seed) + n * np.eye(n)


def _spd(*shape, seed=0):
    """A batch of symmetric positive-definite matrices."""
    a = _f(*shape, seed=seed)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def _upper(*shape, seed=0):
    return np.triu(_wc(*shape, seed=seed))


def _rank1():
    return np.outer([1.0, 2.0, 3.0], [1.0, -1.0, 0.5])


SAMPLES = {
    "linalg_solve": [
        Sample((_wc(3, 3), _f(3, 2, seed=1))),
        Sample((_wc(3, 3), _f(3, seed=1)), label="vector"),
        Sample((_wc(2, 3, 3), _f(3, 2, seed=1)), label="broadcast B"),
        Sample((_wc(2, 3, 3), _f(2, 3, seed=1)), label="batched vector"),
        Sample((_wc(3, 3), _f(2, 3, seed=1)), {"left": False}, label="right"),
        Sample((_wc(3, 3).T, _f(3, 2, seed=1)), label="non-contiguous"),
    ],
    "linalg_inv": [Sample((_wc(3, 3),)), Sample((_wc(2, 3, 3),), label="batched"), Sample((_wc(3, 3).T,))],
    "linalg_inv_ex": [Sample((_wc(3, 3),)), Sample((_wc(2, 3, 3),), label="batched")],
    "linalg_cholesky_ex": [Sample((_spd(3, 3),), {"upper": True}, grad=False)],
    "linalg_det": [Sample((_wc(3, 3),)), Sample((_f(2, 3, 3, seed=2) + np.eye(3),), label="batched")],
    "linalg_slogdet": [Sample((_wc(3, 3),)), Sample((-_wc(2, 3, 3, seed=1),), label="negative det")],
    "linalg_cholesky": [
        Sample((_spd(3, 3),), grad=False),
        Sample((_spd(2, 3, 3),), {"upper": True}, grad=False, label="batched upper"),
    ],
    "geqrf": [
        Sample((_f(4, 3),), grad=False),
        Sample((_f(3, 4),), grad=False, label="wide"),
        Sample((_f(2, 3, 3),), grad=False, label="batched"),
    ],
    "orgqr": [
        Sample((_f(4, 3), _f(3, seed=1))),
        Sample((_f(4, 3), _f(3, seed=1)), method=True, label="method"),
    ],
    "ormqr": [
        Sample((_f(4, 3), _f(3, seed=1), _f(4, 2, seed=2))),
        Sample((_f(4, 3), _f(3, seed=1), _f(4, 2, seed=2), True, True), label="transpose"),
        Sample((_f(4, 3), _f(3, seed=1), _f(2, 4, seed=2), False), label="right"),
        Sample((_f(4, 3), _f(3, seed=1), _f(2, 4, seed=2), False, True), label="right transpose"),
        Sample((_f(2, 3, 2), _f(2, 2, seed=1), _f(2, 3, 2, seed=2)), label="batched"),
        Sample((_f(3, 4), _f(3, seed=1), _f(3, 2, seed=2)), label="wide input"),
    ],
    "linalg_householder_product": [
        Sample((_f(4, 3), _f(3, seed=1))),
        Sample((_f(4, 3), _f(2, seed=1)), label="fewer reflectors"),
        Sample((_f(2, 3, 2), _f(2, 2, seed=1)), label="batched"),
    ],
    "linalg_qr": [
        Sample((_f(4, 3),)),
        Sample((_f(3, 4),), label="wide"),
        Sample((_wc(2, 3, 3),), label="batched"),
        Sample((_wc(3, 3), "complete"), label="complete"),
        Sample((_f(4, 3), "r"), grad=False, label="r"),
    ],
    "linalg_svd": [
        Sample((_f(4, 3),), {"full_matrices": False}),
        Sample((_f(3, 4),), {"full_matrices": False}, label="wide"),
        Sample((_f(2, 3, 3),), {"full_matrices": False}, label="batched"),
        Sample((_f(4, 3),), grad=False, label="full"),  # gradients: tests/linalg/test_linalg.py
    ],
    "linalg_eigh": [
        Sample((_spd(3, 3),), grad=False),
        Sample((_f(2, 3, 3), "U"), grad=False, label="upper triangle of a batch"),
    ],
    "linalg_solve_triangular": [
        Sample((_upper(3, 3), _f(3, 2, seed=1)), {"upper": True}),
        Sample((_upper(3, 3).T, _f(2, 3, seed=1)), {"upper": False, "left": False}, label="lower right"),
        Sample((_upper(2, 3, 3), _f(3, 2, seed=1)), {"upper": True, "unitriangular": True}, label="unit"),
    ],
    "linalg_svdvals": [Sample((_f(4, 3),)), Sample((_f(2, 3, 4),), label="batched")],
    "linalg_eigvalsh": [Sample((_spd(3, 3),), grad=False), Sample((_f(3, 3), "U"), grad=False, label="U")],
    "linalg_vector_norm": [
        Sample((_f(3, 4),)),
        Sample((_f(3, 4), 1, 1)),
        Sample((_f(3, 4), INF, [0, 1], True), label="inf"),
        Sample((_f(3, 4), -INF, 0), label="-inf"),
        Sample((_f(3, 4), 3.5, -1), label="p"),
        Sample((_f(3, 4), 0, 1), grad=False, label="zero"),
        Sample((_f(3, 4).T,), {"dtype": "float64"}, label="dtype"),
        Sample((_f(), 2), label="0-d"),
    ],
    "linalg_matrix_norm": [
        Sample((_f(3, 4), 1)),
        Sample((_f(3, 4), -1, (0, 1), True), label="-1 keepdim"),
        Sample((_f(2, 3, 4), INF), label="inf"),
        Sample((_f(3, 4), -INF), label="-inf"),
        Sample((_f(3, 4), 2), label="2"),
        Sample((_f(2, 3, 4), -2, (2, 1)), label="-2 dims"),
    ],
    "linalg_matrix_norm.str_ord": [
        Sample((_f(3, 4),)),
        Sample((_f(3, 4), "nuc"), label="nuc"),
        Sample((_f(2, 3, 4), "fro", (0, 2), True), label="fro dims"),
    ],
    "linalg_norm": [
        Sample((_f(3, 4),)),
        Sample((_f(2, 3, 4),), label="3d"),
        Sample((_f(3, 4), 2), label="matrix 2"),
        Sample((_f(4), 3), label="vector 3"),
        Sample((_f(2, 3, 4), INF, (1, 2)), label="matrix dims"),
        Sample((_f(2, 3, 4), None, 1, True), label="vector dim"),
    ],
    "linalg_norm.ord_str": [Sample((_f(3, 4), "fro")), Sample((_f(2, 3, 4), "nuc", (0, 1)), label="nuc")],
    "linalg_pinv.atol_rtol_float": [
        Sample((_f(4, 3),)),
        Sample((_f(2, 3, 4),), label="batched"),
        Sample((_rank1(),), grad=False, label="rank 1"),
        Sample((_spd(3, 3),), {"hermitian": True}, grad=False, label="hermitian"),
        Sample((_f(3, 3),), {"atol": 0.5, "rtol": 0.0}, grad=False, label="atol"),
    ],
    "linalg_pinv": [Sample((_f(4, 3), 1e-10)), Sample((_rank1(), 0.1), grad=False, label="rank 1")],
    "linalg_matrix_power": [
        Sample((_f(3, 3), 3)),
        Sample((_f(2, 3, 3), 0), label="0"),
        Sample((_wc(3, 3), -2), label="negative"),
        Sample((np.array([[1, 1], [0, 1]]), 5), label="integer"),
    ],
    "linalg_matrix_exp": [
        Sample((_f(3, 3),)),
        Sample((_f(2, 3, 3) * 3,), label="batched, large"),
        Sample((np.zeros((3, 3)),), label="zero"),
    ],
    "linalg_multi_dot": [
        Sample(([_f(2, 3), _f(3, 4, seed=1), _f(4, 2, seed=2)],)),
        Sample(([_f(3), _f(3, 4, seed=1), _f(4, seed=2)],), label="vectors"),
    ],
    "linalg_lstsq": [
        Sample((_f(5, 3), _f(5, 2, seed=1))),
        Sample((_f(5, 3), _f(5, seed=1)), {"driver": "gelsd"}, label="vector gelsd"),
        Sample((_f(2, 5, 3), _f(2, 5, 2, seed=1)), {"driver": "gels"}, label="batched gels"),
        Sample((_f(3, 5), _f(3, 2, seed=1)), {"driver": "gelss"}, label="wide gelss"),
    ],
    "linalg_cross": [
        Sample((_f(4, 3), _f(4, 3, seed=1))),
        Sample((_f(3, 2), _f(3, 2, seed=1)), {"dim": 0}, label="dim"),
        Sample((_f(2, 3), _f(1, 3, seed=1)), label="broadcast"),
    ],
    "linalg_matrix_rank.atol_rtol_float": [
        Sample((_f(4, 3),), grad=False),
        Sample((_rank1(),), grad=False, label="rank 1"),
        Sample((_spd(2, 3, 3),), {"hermitian": True, "atol": 4.0}, grad=False, label="hermitian atol"),
    ],
    "linalg_matrix_rank": [Sample((_f(3, 3), 0.5), grad=False)],
    # torch's own backward of cond in a norm other than ±2 fails (an in-place write to a saved inverse):
    # those gradients are gradchecked and compared with torch's norm(A) * norm(inv(A)) in tests/linalg.
    "linalg_cond": [
        Sample((_wc(3, 3),)),
        Sample((_f(2, 3, 4), -2), label="-2 wide"),
        Sample((_wc(3, 3), 1), grad=False, label="1"),
        Sample((_wc(2, 3, 3), -INF), grad=False, label="-inf"),
        Sample((np.stack([np.eye(2), np.zeros((2, 2))]), 1), grad=False, label="singular"),
    ],
    "linalg_cond.p_str": [
        Sample((_wc(3, 3), "fro"), grad=False),
        Sample((_wc(3, 3), "nuc"), grad=False, label="nuc"),
    ],
    "linalg_vecdot": [Sample((_f(2, 3), _f(3, seed=1))), Sample((_f(3, 2), _f(3, 2, seed=1)), {"dim": 0})],
    "linalg_matmul": [Sample((_f(2, 3), _f(3, seed=1))), Sample((_f(2, 2, 3), _f(3, 4, seed=1)))],
    "linalg_diagonal": [
        Sample((_f(2, 3, 4),), {"offset": 1}),
        Sample((_f(3, 4, 2),), {"dim1": 0, "dim2": 1}),
    ],
    "cholesky_solve": [
        Sample((_f(3, 2, seed=1), np.linalg.cholesky(_spd(3, 3)))),
        Sample((_f(2, 3, 1, seed=1), np.linalg.cholesky(_spd(3, 3)).T, True), method=True, label="upper"),
    ],
    "cholesky_inverse": [
        Sample((np.linalg.cholesky(_spd(3, 3)),)),
        Sample((np.linalg.cholesky(_spd(2, 3, 3)).swapaxes(-1, -2), True), method=True, label="upper"),
    ],
    "inverse": [Sample((_wc(3, 3),)), Sample((_wc(2, 3, 3),), method=True, label="method")],
    "det": [Sample((_wc(3, 3),)), Sample((_wc(3, 3),), method=True, label="method")],
    "logdet": [Sample((_spd(3, 3),)), Sample((-_wc(3, 3),), grad=False, label="negative det")],
    "slogdet": [Sample((_wc(3, 3),)), Sample((-_wc(2, 3, 3),), method=True, label="method")],
    "svd": [
        Sample((_f(4, 3),)),
        Sample((_f(3, 3), False), label="full"),
        Sample((_f(4, 3), True, False), grad=False, label="no uv"),
        Sample((_f(2, 3, 4),), method=True, label="method"),
    ],
    "cholesky": [Sample((_spd(3, 3),), grad=False), Sample((_spd(3, 3), True), grad=False, label="upper")],
    "qr": [Sample((_f(4, 3),)), Sample((_wc(3, 3), False), method=True, label="complete")],
    "pinverse": [Sample((_f(4, 3),)), Sample((_rank1(), 0.1), grad=False, label="rank 1")],
    "matrix_power": [Sample((_f(3, 3), 2)), Sample((_wc(3, 3), -1), method=True, label="method")],
    "matrix_exp": [Sample((_f(3, 3),)), Sample((_f(3, 3),), method=True, label="method")],
}

BAD_SAMPLES = {
    "linalg_solve": [
        Sample((_f(2, 3), _f(2)), label="not square"),
        Sample((_f(3), _f(3)), label="1-d"),
        Sample((_wc(3, 3), _f(2)), label="shapes"),
        Sample((_wc(2, 3, 3), _f(4, 3, 1)), label="batch shapes"),
    ],
    "linalg_inv": [Sample((_f(2, 3),), label="not square")],
    "linalg_inv_ex": [Sample((_f(2, 3),), label="not square")],
    "linalg_cholesky_ex": [Sample((_f(2, 3),), label="not square")],
    "linalg_det": [Sample((_f(2, 3),), label="not square"), Sample((_f(3),), label="1-d")],
    "linalg_cholesky": [Sample((_f(2, 3),), label="not square")],
    "linalg_qr": [Sample((_f(3, 3), "x"), label="mode")],
    "geqrf": [Sample((_f(3),), label="1-d"), Sample((np.ones((2, 2), np.int64),), label="int64")],
    "ormqr": [
        Sample((_f(4, 3), _f(3), _f(3, 2)), label="other rows"),
        Sample((_f(4, 3), _f(5), _f(4, 2)), label="tau size"),
        Sample((_f(4, 3), _f(3), _f(2, 3), False), label="right other columns"),
        Sample((_f(3), _f(3), _f(4, 2)), label="1-d input"),
        Sample((_f(4, 3), _f(3), _f(4)), label="1-d other"),
        Sample((_f(4, 3), _f(2, 3), _f(4, 2)), label="tau dims"),
        Sample((_f(4, 3), _f(3), _f(2, 4, 2)), label="other dims"),
        Sample((_f(2, 4, 3), _f(3, 3), _f(2, 4, 2)), label="tau batch"),
        Sample((np.ones((4, 3), np.int64), np.ones(3, np.int64), np.ones((4, 2), np.int64)), label="int64"),
    ],
    "linalg_householder_product": [
        Sample((_f(3), _f(2)), label="1-d"),
        Sample((_f(2, 3), _f(2)), label="wide"),
        Sample((_f(3, 2), _f(3)), label="too many reflectors"),
        Sample((_f(3, 2), _f(1, 2)), label="tau dims"),
        Sample((_f(2, 3, 2), _f(3, 2)), label="batch"),
        Sample((np.ones((3, 2), np.int64), np.ones(2, np.int64)), label="int64"),
    ],
    "linalg_eigh": [Sample((_f(3, 3), "X"), label="UPLO"), Sample((_f(2, 3),), label="not square")],
    "linalg_solve_triangular": [Sample((_upper(3, 3), _f(3)), {"upper": True}, label="1-d B")],
    "linalg_vector_norm": [Sample((np.zeros((0, 3)), -1), label="empty negative ord")],
    "linalg_matrix_norm": [Sample((_f(3, 3), 3), label="order"), Sample((_f(3), 1), label="1-d")],
    "linalg_norm": [Sample((_f(2, 2, 2), 2), label="3-d with ord")],
    "linalg_matrix_power": [Sample((_f(2, 3), 2), label="not square")],
    "linalg_multi_dot": [
        Sample(([_f(3, 3)],), label="one tensor"),
        Sample(([_f(3, 3), _f(2, 3)],), label="shapes"),
        Sample(([_f(3, 3), _f(2, 3, 3)],), label="3-d"),
    ],
    "linalg_lstsq": [
        Sample((_f(5, 3), _f(4, 2)), label="rows"),
        Sample((_f(5, 3), _f(5, 2)), {"driver": "x"}, label="driver"),
        Sample((_f(3), _f(3)), label="1-d"),
    ],
    "linalg_cross": [Sample((_f(2), _f(2)), label="length 2"), Sample((_f(2, 3), _f(3)), label="ndim")],
    "linalg_pinv.atol_rtol_float": [Sample((_f(3),), label="1-d")],
    "linalg_cond": [Sample((_f(3, 3), 3), label="order"), Sample((_f(2, 3), 1), label="not square")],
    "linalg_vecdot": [Sample((_idx(1, 2), _idx(1, 2)), label="integers")],
    "cholesky_solve": [Sample((_f(3), np.eye(3)), label="1-d")],
    "cholesky_inverse": [Sample((_f(3),), label="1-d")],
}


def _column_signs(m):
    """The sign of each column's largest-magnitude entry (1 for a zero column), shaped (..., 1, cols)."""
    m = m.detach()
    s = m.gather(-2, m.abs().argmax(dim=-2, keepdim=True)).sign()
    return s + (s == 0).to(s.dtype)


def _paired_signs(lib, U, V):
    """Signs for U's columns and V's columns: the first min(m, n) shared (a singular pair flips together)."""
    su, sv = _column_signs(U), _column_signs(V)
    k = min(su.shape[-1], sv.shape[-1])
    return su, lib.cat([su.narrow(-1, 0, k), sv.narrow(-1, k, sv.shape[-1] - k)], dim=-1)


def fix_gauge(name: str, result):
    """Singular vectors and eigenvectors are defined up to sign, and torch's LAPACK and NumPy's may pick
    different ones: before comparing, flip each (pair of) vector(s) so its largest entry is positive.
    Differentiable (the signs are constants), so gradients are compared on the same outputs."""
    if name not in ("linalg_svd", "svd", "linalg_eigh"):
        return result
    import torch

    import yaten

    lib = torch if isinstance(result[0], torch.Tensor) else yaten
    if name == "linalg_eigh":
        values, vectors = result
        return values, vectors * _column_signs(vectors)
    U, S, V = result
    if name == "linalg_svd":
        su, sv = _paired_signs(lib, U, V.mT)
        return U * su, S, V * sv.mT
    su, sv = _paired_signs(lib, U, V)
    return U * su, S, V * sv
