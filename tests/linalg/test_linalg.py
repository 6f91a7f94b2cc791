"""torch.linalg beyond the op table (tests/ops/op_samples_linalg.py): LinAlgError's messages against
torch's, gradients of the ops that read one triangle (through symmetric inputs, gradchecked and against
torch), svd's full_matrices gradient, the legacy names' warnings, and the CPU-only list."""

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ops"))
from op_samples import SPEC
from op_samples_linalg import CPU_ONLY, fix_gauge

SINGULAR = [[1.0, 2.0], [2.0, 4.0]]
FAILURES = {
    "solve": lambda L: L.linalg.solve(L.tensor(SINGULAR), L.ones(2, 1)),
    "solve_batch": lambda L: L.linalg.solve(L.stack([L.eye(2), L.tensor(SINGULAR)]), L.ones(2)),
    "inv": lambda L: L.linalg.inv(L.tensor(SINGULAR)),
    "inv_batch": lambda L: L.linalg.inv(L.stack([L.eye(2), L.tensor(SINGULAR)])),
    "inv_zero_first_pivot": lambda L: L.linalg.inv(
        L.tensor([[0.0, 0.0, 1.0], [0.0, 0.0, 2.0], [1.0, 1.0, 0.0]])
    ),
    "inverse": lambda L: L.inverse(L.zeros(3, 3)),
    "matrix_power": lambda L: L.linalg.matrix_power(L.tensor(SINGULAR), -1),
    "cholesky": lambda L: L.linalg.cholesky(L.tensor([[1.0, 2.0], [2.0, 1.0]])),
    "cholesky_batch": lambda L: L.linalg.cholesky(L.stack([L.eye(2), -L.eye(2)])),
    "inv_ex_checked": lambda L: L.linalg.inv_ex(L.zeros(2, 2), check_errors=True),
    "cholesky_ex_checked": lambda L: L.linalg.cholesky_ex(L.stack([L.eye(2), -L.eye(2)]), check_errors=True),
}


def test_ex_variants_report_info_as_torch():
    # The factor of a failing matrix is unspecified (LAPACK's leftovers in torch, NaN in yaten): only
    # info, and the factors of the matrices that succeeded, are compared.
    singular = [[[1.0, 0.0], [0.0, 2.0]], [[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]]]
    indefinite = [[[4.0, 2.0], [2.0, 5.0]], [[1.0, 2.0], [2.0, 1.0]], [[-1.0, 0.0], [0.0, 1.0]]]
    for fn, data in (("inv_ex", singular), ("cholesky_ex", indefinite)):
        got = getattr(yaten.linalg, fn)(yaten.tensor(data))
        want = getattr(torch.linalg, fn)(torch.tensor(data))
        assert got.info.tolist() == want.info.tolist() and got.info.dtype is yaten.int32
        assert_close(got[0][0], want[0][0], fn)
        assert np.isnan(got[0][1:].numpy()).all()


@pytest.mark.parametrize("case", sorted(FAILURES))
def test_linalg_errors_match_torch(case):
    with pytest.raises(torch.linalg.LinAlgError) as want:
        FAILURES[case](torch)
    with pytest.raises(yaten.linalg.LinAlgError) as got:
        FAILURES[case](yaten)
    assert str(got.value) == str(want.value)
    assert isinstance(got.value, RuntimeError)


def test_singular_triangular_solve_gives_inf_as_torch():
    A, B = np.array([[0.0, 1.0], [0.0, 1.0]]), np.ones((2, 1))
    got = yaten.linalg.solve_triangular(yaten.tensor(A), yaten.tensor(B), upper=True)
    want = torch.linalg.solve_triangular(torch.tensor(A), torch.tensor(B), upper=True)
    assert np.array_equal(np.isfinite(got.numpy()), np.isfinite(want.numpy()))


def _sym(lib, x):
    return x @ x.mT + 3 * lib.eye(x.shape[-1], dtype=x.dtype)


# Functions of a general matrix X through a symmetric positive-definite one, so finite differences see
# the symmetric gradient: (name, function of (lib, X)).
SYMMETRIC = {
    "cholesky": lambda L, x: L.linalg.cholesky(_sym(L, x)),
    "cholesky_upper": lambda L, x: L.linalg.cholesky(_sym(L, x), upper=True),
    "eigh": lambda L, x: fix_gauge("linalg_eigh", L.linalg.eigh(_sym(L, x))),
    "eigh_upper": lambda L, x: fix_gauge("linalg_eigh", L.linalg.eigh(_sym(L, x), UPLO="U")),
    "eigvalsh": lambda L, x: L.linalg.eigvalsh(_sym(L, x)),
    "legacy_cholesky": lambda L, x: L.cholesky(_sym(L, x)),
    "cholesky_ex": lambda L, x: L.linalg.cholesky_ex(_sym(L, x)).L,
    "pinv_hermitian": lambda L, x: L.linalg.pinv(_sym(L, x), hermitian=True),
    "svd_full": lambda L, x: fix_gauge("linalg_svd", L.linalg.svd(x[..., :3], full_matrices=True))[1:],
}


def _outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


@pytest.mark.parametrize("case", sorted(SYMMETRIC))
def test_gradcheck_through_symmetric_inputs(case):
    x = yaten.from_numpy(np.random.default_rng(3).standard_normal((2, 4, 4))).requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert yaten.autograd.gradcheck(lambda t: tuple(_outputs(SYMMETRIC[case](yaten, t))), (x,))


@pytest.mark.parametrize("case", sorted(SYMMETRIC))
def test_gradients_through_symmetric_inputs_match_torch(case):
    data = np.random.default_rng(4).standard_normal((2, 4, 4))
    grads = []
    for lib in (torch, yaten):
        x = lib.from_numpy(data.copy()).requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            outs = _outputs(SYMMETRIC[case](lib, x))
        rng = np.random.default_rng(5)
        sum((o * lib.from_numpy(rng.standard_normal(tuple(o.shape)))).sum() for o in outs).backward()
        grads.append(x.grad)
    assert_close(grads[1], grads[0], "gradient")


def test_qr_backward_refuses_mode_r_and_complete_tall():
    x = yaten.randn(4, 3, dtype=yaten.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="The derivative of linalg.qr depends on Q"):
        yaten.linalg.qr(x, mode="r").R.sum().backward()
    with pytest.raises(RuntimeError, match="not differentiable when mode='complete' and nrows > ncols"):
        yaten.linalg.qr(x, mode="complete").Q.sum().backward()


def test_legacy_names_warn_as_torch():
    a = yaten.eye(2)
    with pytest.warns(UserWarning, match="torch.cholesky is deprecated in favor of torch.linalg.cholesky"):
        yaten.cholesky(a)
    with pytest.warns(UserWarning, match="torch.qr is deprecated in favor of torch.linalg.qr"):
        yaten.qr(a)


def test_legacy_svd_returns_v_and_zeros_without_uv():
    x = np.random.default_rng(6).standard_normal((4, 3))
    U, S, V = yaten.svd(yaten.tensor(x))
    assert_close(U @ yaten.diag_embed(S) @ V.mT, yaten.tensor(x), "U S V^T")
    t = torch.svd(torch.tensor(x), compute_uv=False)
    y = yaten.svd(yaten.tensor(x), compute_uv=False)
    assert [tuple(v.shape) for v in y] == [tuple(v.shape) for v in t]
    assert not y.U.numpy().any() and not y.V.numpy().any()


def test_namespace_and_method_names():
    for name in ("solve", "inv", "det", "slogdet", "cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh",
                 "norm", "vector_norm", "matrix_norm", "pinv", "matrix_power", "matrix_exp", "multi_dot",
                 "cross", "solve_triangular", "lstsq", "inv_ex", "cholesky_ex", "matrix_rank", "cond", "vecdot", "matmul", "diagonal", "LinAlgError"):  # fmt: skip
        assert hasattr(yaten.linalg, name), name
    for name in ("inverse", "det", "logdet", "slogdet", "svd", "cholesky", "qr", "pinverse", "matrix_power",
                 "matrix_exp", "cholesky_solve", "cholesky_inverse", "multinomial"):  # fmt: skip
        assert hasattr(yaten, name) and hasattr(yaten.Tensor, name), name


def test_cpu_only_lists_the_ops_without_a_cuda_kernel():
    no_cuda = {fn.name for fn in SPEC.functions if (fn.name.startswith("linalg_") or fn.name in CPU_ONLY)
               and any(k == "CPU" for k, _ in fn.dispatch) and not any(k == "CUDA" for k, _ in fn.dispatch)}  # fmt: skip
    assert no_cuda == set(CPU_ONLY)


@pytest.mark.parametrize("p", [1, -1, float("inf"), "fro", "nuc"])
def test_cond_gradient_in_a_norm(p):
    data = np.random.default_rng(7).standard_normal((2, 3, 3)) + 3 * np.eye(3)
    x = yaten.from_numpy(data.copy()).requires_grad_()
    assert yaten.autograd.gradcheck(lambda t: yaten.linalg.cond(t, p), (x,))
    yaten.linalg.cond(x, p).sum().backward()
    t = torch.from_numpy(data.copy()).requires_grad_()  # torch's cond backward fails here: its definition
    (torch.linalg.matrix_norm(t, p) * torch.linalg.matrix_norm(torch.linalg.inv(t), p)).sum().backward()
    assert_close(x.grad, t.grad, "gradient")


LOW_PRECISION = {
    "solve": lambda L, e: L.linalg.solve(e, e),
    "inv": lambda L, e: L.linalg.inv(e),
    "det": lambda L, e: L.linalg.det(e),
    "slogdet": lambda L, e: L.linalg.slogdet(e),
    "cholesky": lambda L, e: L.linalg.cholesky(e),
    "qr": lambda L, e: L.linalg.qr(e),
    "svd": lambda L, e: L.linalg.svd(e),
    "eigh": lambda L, e: L.linalg.eigh(e),
    "solve_triangular": lambda L, e: L.linalg.solve_triangular(e, e, upper=True),
    "matrix_norm_2": lambda L, e: L.linalg.matrix_norm(e, 2),
    "matrix_norm_1": lambda L, e: L.linalg.matrix_norm(e, 1),
    "matrix_exp": lambda L, e: L.linalg.matrix_exp(e),
    "lstsq": lambda L, e: L.linalg.lstsq(e, e),
    "matrix_rank": lambda L, e: L.linalg.matrix_rank(e),
    "pinv": lambda L, e: L.linalg.pinv(e),
}


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("case", sorted(LOW_PRECISION))
def test_low_precision_as_torch(case, dtype):
    def run(lib):
        try:
            LOW_PRECISION[case](lib, lib.eye(2, dtype=getattr(lib, dtype)))
        except (RuntimeError, NotImplementedError) as error:
            return type(error), str(error)
        return None

    assert run(yaten) == run(torch)
