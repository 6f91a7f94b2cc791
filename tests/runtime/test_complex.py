"""complex64 and complex128 as dtypes, side by side with PyTorch: the dtype objects, promotion,
creation, conversions to and from Python and NumPy, casts, printing, and the views and ops of
runtime/native/complex.py (values, strides, aliasing and errors).
"""

import itertools
import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.runtime.parity import same
from tests.tolerances import assert_matches

REAL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]


def _name(x) -> str:
    return str(x).replace("torch.", "yaten.")


# --- the dtypes ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [*COMPLEX, "cfloat", "cdouble"])
def test_dtype_attributes_as_torch(name):
    y, t = getattr(yaten, name), getattr(torch, name)
    assert _name(y) == _name(t)
    assert (y.is_complex, y.is_floating_point, y.is_signed, y.itemsize) == (
        t.is_complex, t.is_floating_point, t.is_signed, t.itemsize,
    )  # fmt: skip
    assert _name(y.to_real()) == _name(t.to_real())
    assert _name(y.to_complex()) == _name(t.to_complex())


@pytest.mark.parametrize("name", ["float32", "float64", "int64", "bool", "bfloat16"])
def test_to_complex_and_to_real_of_real_dtypes(name):
    same(lambda m: getattr(m, name).to_complex())
    same(lambda m: getattr(m, name).to_real())
    assert not getattr(yaten, name).is_complex


# --- promotion ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("a, b", list(itertools.product(REAL + COMPLEX, COMPLEX)))
def test_promote_types_with_complex_as_torch(a, b):
    same(lambda m: m.promote_types(getattr(m, a), getattr(m, b)))
    same(lambda m: m.promote_types(getattr(m, b), getattr(m, a)))


def test_half_with_a_complex_scalar_gives_complex64():
    # torch's complex of a half is complex32, a dtype yaten leaves out: there yaten gives complex64.
    assert torch.result_type(torch.tensor([1.0], dtype=torch.float16), 1j) == torch.complex32
    assert yaten.result_type(yaten.tensor([1.0], dtype=yaten.float16), 1j) is yaten.complex64


@pytest.mark.parametrize("a, b", list(itertools.product(REAL + COMPLEX, REAL + COMPLEX)))
def test_can_cast_with_complex_as_torch(a, b):
    if a in COMPLEX or b in COMPLEX:
        same(lambda m: m.can_cast(getattr(m, a), getattr(m, b)))


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.result_type(m.tensor([1.0]), 1j),
        lambda m: m.result_type(m.tensor([1.0], dtype=m.float64), 2j),
        lambda m: m.result_type(m.tensor([1, 2]), 1j),
        lambda m: m.result_type(m.tensor([True]), 1j),
        lambda m: m.result_type(m.tensor(1.0, dtype=m.float64), m.tensor([1j])),
        lambda m: m.result_type(m.tensor(1j, dtype=m.complex128), m.tensor([1.0])),
        lambda m: m.result_type(m.tensor([1j]), m.tensor([1.0], dtype=m.float64)),
        lambda m: m.result_type(1j, 2.0),
        lambda m: m.result_type(m.tensor([1j]), 2.5),
    ],
)
def test_result_type_with_complex_as_torch(case):
    same(case)


def test_python_complex_follows_the_default_dtype():
    for default in ("float64", "float32"):
        for m in (torch, yaten):
            m.set_default_dtype(getattr(m, default))
        try:
            same(lambda m: m.tensor([1j]).dtype)
            same(lambda m: m.result_type(m.tensor([1]), 1j))
        finally:
            torch.set_default_dtype(torch.float32)
            yaten.set_default_dtype(yaten.float32)
    for m in (torch, yaten):
        m.set_default_dtype(m.bfloat16)
    try:
        same(lambda m: m.tensor([1j]))
    finally:
        torch.set_default_dtype(torch.float32)
        yaten.set_default_dtype(yaten.float32)


# --- creation ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.tensor([1 + 2j, 1]),
        lambda m: m.tensor([[1 + 2j], [3.5]]),
        lambda m: m.tensor(2 - 1j),
        lambda m: m.tensor([1, 2.5], dtype=m.complex128),
        lambda m: m.tensor([1 + 2j, 1], dtype=m.float32),
        lambda m: m.tensor([1 + 0j, 1], dtype=m.float32),
        lambda m: m.tensor([1 + 2j, 1], dtype=m.int64),
        lambda m: m.tensor([1j, 0j], dtype=m.bool),
        lambda m: m.tensor([1e300 + 1j], dtype=m.complex64),
        lambda m: m.tensor(np.array([1 + 2j, 3j])),
        lambda m: m.tensor(np.array([1 + 2j], dtype=np.complex64)),
        lambda m: m.tensor([np.complex64(1 + 2j), 1.0]),
        lambda m: m.tensor(np.array([1 + 2j]), dtype=m.float32),
        lambda m: m.as_tensor([1j, 2]),
        lambda m: m.from_numpy(np.array([[1j, 2]], dtype=np.complex64)),
        lambda m: m.tensor([1 + 1j], requires_grad=True),
        lambda m: m.zeros(2, 3, dtype=m.cfloat),
        lambda m: m.ones(2, dtype=m.cdouble),
        lambda m: m.empty(2, dtype=m.cfloat).shape,
        lambda m: m.eye(2, dtype=m.complex64),
        lambda m: m.full((2,), 1j),
        lambda m: m.full((2,), 2, dtype=m.cfloat),
        lambda m: m.full((2,), 1j, dtype=m.float32),
        lambda m: m.full((2,), 1 + 0j, dtype=m.float32),
        lambda m: m.full((1,), 1e300, dtype=m.cfloat),
        lambda m: m.full((1,), 1e300j, dtype=m.cfloat),
        lambda m: m.full((1,), 3 + 0j, dtype=m.int32),
        lambda m: m.full((1,), m.tensor(1j, dtype=m.cdouble)),
        lambda m: m.full_like(m.zeros(2), 1j),
        lambda m: m.full_like(m.zeros(2, dtype=m.cfloat), 1j),
        lambda m: m.zeros_like(m.zeros(2, dtype=m.cdouble)),
        lambda m: m.ones_like(m.tensor([1j])),
        lambda m: m.zeros(2, dtype=m.cfloat).fill_(3j),
        lambda m: m.zeros(2, dtype=m.cfloat).fill_(1e300j),
        lambda m: m.zeros(2).fill_(1j),
        lambda m: m.tensor([1.0]).new_tensor([1j]),
        lambda m: m.arange(3, dtype=m.cfloat),
        lambda m: m.linspace(0, 1, 3, dtype=m.cfloat),
        lambda m: m.linspace(1, -1, 4, dtype=m.complex128),
        lambda m: m.randint(3, (2,), dtype=m.cfloat),
        lambda m: m.zeros(2, dtype=m.cfloat).random_(),
        lambda m: m.zeros(2, dtype=m.cfloat).bernoulli_(),
        lambda m: m.zeros(2, dtype=m.cfloat).bernoulli_(m.tensor([0.5, 0.5])),
        lambda m: m.zeros(2, dtype=m.cfloat).requires_grad_(),
        lambda m: m.rand(2, dtype=m.cfloat).dtype,
        lambda m: m.randn_like(m.zeros(2, dtype=m.cdouble)).dtype,
    ],
)
def test_creation_as_torch(case):
    same(case)


def test_randn_of_complex_has_parts_of_variance_one_half():
    z = yaten.randn(200_000, dtype=yaten.complex64, generator=yaten.Generator().manual_seed(0)).numpy()
    assert z.dtype == np.complex64
    assert abs(z.real.var() - 0.5) < 0.01 and abs(z.imag.var() - 0.5) < 0.01
    assert abs(z.real.mean()) < 0.01 and abs(np.corrcoef(z.real, z.imag)[0, 1]) < 0.01


def test_rand_and_uniform_and_normal_fill_both_parts():
    z = yaten.rand(100_000, dtype=yaten.complex128).numpy()
    assert z.real.min() >= 0 and z.real.max() < 1 and z.imag.min() >= 0 and z.imag.max() < 1
    assert abs(z.imag.mean() - 0.5) < 0.01
    u = yaten.zeros(100_000, dtype=yaten.cfloat).uniform_(2.0, 3.0)
    assert u._version == 1
    assert u.numpy().imag.min() >= 2 and u.numpy().imag.max() < 3
    n = yaten.zeros(100_000, dtype=yaten.cfloat).normal_(2.0, 3.0).numpy()
    assert abs(n.imag.mean() - 2) < 0.05 and abs(n.imag.var() - 4.5) < 0.1  # each part N(2, 9/2), as torch


# --- to and from Python, NumPy and other dtypes -------------------------------------------------------
@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.tensor(1 + 2j).item(),
        lambda m: m.tensor([[1 + 2j, 3]]).tolist(),
        lambda m: m.zeros(2, dtype=m.cfloat)[0].item(),
        lambda m: complex(m.tensor(1.5)),
        lambda m: complex(m.tensor(1.5 - 2j)),
        lambda m: float(m.tensor(1 + 2j)),
        lambda m: float(m.tensor(1 + 0j)),
        lambda m: int(m.tensor(1 + 2j)),
        lambda m: int(m.tensor(3 + 0j)),
        lambda m: bool(m.tensor(0 + 1j)),
        lambda m: m.tensor(1 + 0j).__index__(),
        lambda m: m.tensor([1 + 2j]).is_complex(),
        lambda m: m.is_complex(m.tensor([1.0])),
        lambda m: m.tensor([1j]).is_floating_point(),
        lambda m: m.tensor([1j]).element_size(),
        lambda m: m.tensor([1.5]).cfloat(),
        lambda m: m.tensor([1.5]).cdouble(),
        lambda m: m.tensor([1.5, 2]).to(m.complex64),
        lambda m: m.tensor([1 + 2j, -3.5 - 1j]).to(m.float32),
        lambda m: m.tensor([1 + 2j, -3.5 - 1j]).to(m.int64),
        lambda m: m.tensor([1 + 2j, 0j, 2j]).to(m.bool),
        lambda m: m.tensor([1.5j], dtype=m.complex128).to(m.float16),
        lambda m: m.tensor([1.5 + 1j], dtype=m.complex128).to(m.complex64),
        lambda m: m.zeros(2).copy_(m.tensor([1 + 2j, 1])),
        lambda m: m.zeros(2, dtype=m.cfloat).copy_(m.tensor([1, 1])),
        lambda m: m.tensor([1 + 2j]).view(m.float32),
        lambda m: m.tensor([1.0, 2.0, 3.0, 4.0]).view(m.complex64),
        lambda m: m.tensor([1.0, 2.0, 3.0, 4.0]).view(m.complex128),
        lambda m: m.tensor([1.0, 2.0, 3.0]).view(m.complex64),
    ],
)
def test_conversions_as_torch(case):
    same(case)


def test_numpy_shares_memory():
    z = yaten.tensor([1 + 2j, 3j])
    a = z.numpy()
    assert a.dtype == np.complex64
    a[0] = 5
    assert z.tolist() == [(5 + 0j), 3j]


def test_complex_to_real_cast_warns_as_torch():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        yaten.tensor([1 + 2j]).float()
    assert [(x.category, str(x.message)) for x in w] == [
        (UserWarning, "Casting complex values to real discards the imaginary part")
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yaten.tensor([1 + 2j]).bool()  # nonzero in either part: nothing is discarded
        yaten.tensor([1.0]).cfloat()


# --- printing ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.tensor([1 + 2j, 3 - 1j]),
        lambda m: m.tensor([1 + 2j, 3 - 1j], dtype=m.complex128),
        lambda m: m.tensor(2.5 - 0.25j),
        lambda m: m.tensor([1e-5 + 2j, 1000]),
        lambda m: m.tensor([1e-5 + 2e10j, 1000]),
        lambda m: m.tensor([-0.0 - 0.0j, 1.5]),
        lambda m: m.tensor(float("nan") + 1j * float("inf")),
        lambda m: m.tensor([[1 + 1j, -2.5], [3j, 4]]),
        lambda m: m.zeros(3, 4, dtype=m.cfloat),
        lambda m: m.zeros(0, 3, dtype=m.cfloat),
        lambda m: m.empty(0, dtype=m.cdouble),
        lambda m: m.ones(2, 3, dtype=m.cdouble, requires_grad=True),
        lambda m: m.arange(2000, dtype=m.float32).to(m.cfloat),
        lambda m: m.arange(24.0).reshape(2, 3, 4).to(m.cfloat) * 1.5,
        lambda m: m.tensor([1 + 2j, 3 - 1j]).conj(),
    ],
)
def test_repr_as_torch(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert repr(case(yaten)) == _name(repr(case(torch)))


def test_repr_in_a_float64_default_and_with_print_options():
    try:
        for m in (torch, yaten):
            m.set_default_dtype(m.float64)
        same(lambda m: repr(m.tensor([1j])).replace("torch.", "yaten."))
        same(lambda m: repr(m.tensor([1j], dtype=m.complex64)).replace("torch.", "yaten."))
        for m in (torch, yaten):
            m.set_printoptions(precision=2, sci_mode=True)
        same(lambda m: repr(m.tensor([1.123 + 2j, 3 - 1j])).replace("torch.", "yaten."))
    finally:
        for m in (torch, yaten):
            m.set_default_dtype(m.float32)
            m.set_printoptions(profile="default")


# --- the views of the parts -----------------------------------------------------------------------------
def _z(m):
    return m.tensor([[1 + 2j, 3 - 1j], [5 + 0j, 1j]])


def _layout(x):
    return tuple(x.shape), x.stride(), x.storage_offset(), _name(x.dtype)


@pytest.mark.parametrize(
    "view",
    [
        lambda m: m.view_as_real(_z(m)),
        lambda m: m.view_as_real(_z(m).t()),
        lambda m: m.view_as_real(_z(m)[1:, 1:]),
        lambda m: m.view_as_real(m.tensor(1j)),
        lambda m: _z(m).real,
        lambda m: _z(m).imag,
        lambda m: _z(m).t().imag,
        lambda m: _z(m)[1:].imag,
        lambda m: m.real(_z(m)),
        lambda m: m.imag(_z(m)),
        lambda m: m.view_as_complex(m.arange(8.0).reshape(2, 4)[:, :2]),
        lambda m: m.view_as_complex(m.arange(6.0).reshape(3, 2)[::3]),
        lambda m: m.view_as_complex(m.zeros(0, 2)),
        lambda m: m.view_as_complex(m.tensor([1.0, 2.0], dtype=m.float64)),
    ],
)
def test_views_have_torch_values_and_layout(view):
    same(view)
    assert _layout(view(yaten)) == _layout(view(torch))


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.view_as_real(m.tensor([1.0, 2.0])),
        lambda m: m.view_as_complex(m.tensor([1.0, 2.0, 3.0])),
        lambda m: m.view_as_complex(m.tensor([[1.0, 2.0]]).t()),
        lambda m: m.view_as_complex(m.tensor([[1, 2]])),
        lambda m: m.view_as_complex(m.zeros(2, 2, dtype=m.bfloat16)),
        lambda m: m.view_as_complex(m.arange(12.0).reshape(3, 4)[:, 1:3]),
        lambda m: m.view_as_complex(m.arange(6.0).reshape(2, 3)[:, 1:]),
        lambda m: m.view_as_complex(m.tensor(2.0)),
        lambda m: m.ones(2).imag,
        lambda m: m.imag(m.ones(2)),
    ],
)
def test_view_errors_as_torch(case):
    same(case)


def test_views_alias_their_base():
    z = yaten.tensor([1 + 2j, 3 - 1j])
    r, i, pairs = z.real, z.imag, yaten.view_as_real(z)
    assert r._base is z and pairs._base is z
    r[0] = 10
    i.mul_(2)
    assert z.tolist() == [(10 + 4j), (3 - 2j)]
    pairs[1, 0] = -1
    assert z[1].item() == -1 - 2j
    back = yaten.view_as_complex(pairs)
    back[0] = 0
    assert z[0].item() == 0
    x = yaten.ones(2)
    assert yaten.real(x) is x and x.real is x


def test_real_and_imag_are_settable():
    def case(m):
        z = m.zeros(2, 2, dtype=m.cdouble)
        z.real = m.tensor([1.0, 2.0], dtype=m.float64)
        z.imag = 3
        x = m.ones(2)
        x.real = m.tensor([5.0, 6.0])
        return z, x

    same(case)


# --- conjugation and the other complex ops ----------------------------------------------------------------
@pytest.mark.parametrize(
    "case",
    [
        lambda m: _z(m).conj(),
        lambda m: m.conj(_z(m)),
        lambda m: m.conj_physical(_z(m)),
        lambda m: _z(m).conj_physical_(),
        lambda m: _z(m).resolve_conj(),
        lambda m: m.resolve_neg(_z(m)),
        lambda m: _z(m).adjoint(),
        lambda m: m.adjoint(_z(m)),
        lambda m: _z(m).H,
        lambda m: _z(m).mH,
        lambda m: m.ones(2, 3).adjoint(),
        lambda m: m.ones(2, 2, 2).H,
        lambda m: m.ones(2).H,
        lambda m: m.ones(2).mH,
        lambda m: m.ones(3).adjoint(),
        lambda m: m.complex(m.tensor([1.0]), m.tensor([2.0])),
        lambda m: m.complex(m.tensor([1.0]), m.tensor([2.0, 3])),
        lambda m: m.complex(m.tensor([1.0]), m.tensor([2.0], dtype=m.float64)),
        lambda m: m.complex(m.tensor([1.0], dtype=m.float64), m.tensor([2.0])),
        lambda m: m.complex(m.tensor([1]), m.tensor([2])),
        lambda m: m.complex(m.tensor([1.0, 3, 4]), m.tensor([2.0, 3])),
        lambda m: m.polar(m.tensor([2.0, 1.0]), m.tensor([0.5])),
        lambda m: m.polar(m.tensor([1.0]), m.tensor([2.0], dtype=m.float64)),
        lambda m: m.polar(m.tensor([2]), m.tensor([2])),
        lambda m: m.angle(_z(m)),
        lambda m: _z(m).angle(),
        lambda m: m.angle(m.tensor([-1.0, 0.0, 2.0, float("nan")])),
        lambda m: m.angle(m.tensor([1, -2])),
        lambda m: m.isreal(m.tensor([1 + 0j, 1j])),
        lambda m: m.isreal(m.tensor([1.0, 2.0])),
        lambda m: m.tensor([1.0, 2.0]).isreal(),
    ],
)
def test_complex_ops_as_torch(case):
    same(case)


def test_conj_of_a_real_tensor_is_itself_and_no_tensor_carries_a_conj_bit():
    x = yaten.ones(2)
    assert x.conj() is x and x.conj_physical() is x and x.resolve_conj() is x
    z = yaten.tensor([1 + 2j])
    c = z.conj()
    assert c is not z and not c.is_conj() and not yaten.is_conj(c)
    assert c.resolve_conj() is c
    c[0] = 0  # a new tensor, not a view: the input keeps its values
    assert z.item() == 1 + 2j


def test_conj_physical_in_place_bumps_the_version_as_torch():
    for m in (torch, yaten):
        x = m.ones(2)
        x.conj_physical_()
        assert x._version == 1


def test_polar_builds_the_rotary_embedding_table_as_torch():
    def case(m):
        freqs = 1.0 / (10000.0 ** (m.arange(0, 8, 2)[:4].float() / 8))
        freqs = m.outer(m.arange(6), freqs).float()
        return m.polar(m.ones_like(freqs), freqs)

    got, want = case(yaten), case(torch)
    assert_matches(got, want)


@pytest.mark.parametrize(
    "case",
    [
        lambda m: repr(m.finfo(m.complex64)),
        lambda m: m.finfo(m.complex128).eps,
        lambda m: m.finfo(m.complex64) == m.finfo(m.float32),
        lambda m: m.iinfo(m.complex64),
        lambda m: m.testing.make_tensor(2, 3, dtype=m.complex64, device="cpu").dtype,
        lambda m: (
            m.testing.make_tensor(2, dtype=m.complex128, device="cpu", requires_grad=True).requires_grad
        ),
    ],
)
def test_type_info_and_make_tensor_of_complex_as_torch(case):
    same(case)


def test_make_tensor_draws_both_parts_in_range():
    t = yaten.testing.make_tensor(50, dtype=yaten.complex64, device="cpu", low=-2, high=3, noncontiguous=True)
    a = t.numpy()
    assert not t.is_contiguous()
    for part in (a.real, a.imag):
        assert part.min() >= -2 and part.max() < 3 and part.std() > 0.5


@pytest.mark.parametrize(
    "make",
    [
        lambda: yaten.view_as_complex(yaten.ones(2, 2, dtype=yaten.float16)),
        lambda: yaten.complex(yaten.ones(2, dtype=yaten.float16), yaten.ones(2, dtype=yaten.float16)),
        lambda: yaten.polar(yaten.ones(2, dtype=yaten.float16), yaten.ones(2, dtype=yaten.float16)),
    ],
)
def test_the_complex_of_a_half_says_complex32_is_left_out(make):
    # torch gives complex32 here; yaten has no complex32 and says so.
    with pytest.raises(RuntimeError, match="complex32, which yaten does not have"):
        make()
