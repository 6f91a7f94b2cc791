"""The small pieces of torch's surface real programs reach for first, each against torch: finfo/iinfo, the
constants, the legacy typed constructors and their isinstance checks, is_tensor, ``__version__``, and the
random in-place fills ``Tensor.bernoulli_`` and ``Tensor.random_``."""

import math
import tomllib
import warnings
from pathlib import Path

import pytest
import torch
from packaging import version

import yaten
from tests.runtime.parity import same

ROOT = Path(__file__).resolve().parents[2]
FLOATS = ("float16", "float32", "float64")
INTS = ("uint8", "int8", "int16", "int32", "int64")


# --- finfo / iinfo ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS)
def test_finfo_is_torchs(dtype):
    fields = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")
    _, got = same(
        lambda m: (
            [getattr(m.finfo(getattr(m, dtype)), f) for f in fields] + [repr(m.finfo(getattr(m, dtype)))]
        )
    )
    assert got[-2] == dtype


def test_finfo_defaults_to_the_default_dtype():
    same(lambda m: repr(m.finfo()))
    yaten.set_default_dtype(yaten.float64)
    try:
        assert yaten.finfo().dtype == "float64"
    finally:
        yaten.set_default_dtype(yaten.float32)


@pytest.mark.parametrize("dtype", INTS)
def test_iinfo_is_torchs(dtype):
    same(lambda m: [getattr(m.iinfo(getattr(m, dtype)), f) for f in ("bits", "max", "min", "dtype")])
    same(lambda m: repr(m.iinfo(getattr(m, dtype))))


def test_info_equality_is_by_dtype():
    same(lambda m: [m.finfo(m.float32) == m.finfo(m.float32), m.finfo(m.float32) == m.finfo(m.float64),
                    m.iinfo(m.int8) == m.iinfo(m.int8), m.iinfo(m.int8) == m.iinfo(m.uint8)])  # fmt: skip


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.finfo(m.int32),
        lambda m: m.finfo(m.bool),
        lambda m: m.iinfo(m.float32),
        lambda m: m.iinfo(m.bool),
        lambda m: m.finfo("float32"),
        lambda m: m.finfo(None),
        lambda m: m.iinfo(3),
    ],
    ids=["finfo-int", "finfo-bool", "iinfo-float", "iinfo-bool", "finfo-str", "finfo-None", "iinfo-int"],
)
def test_info_refuses_the_wrong_kinds_as_torch(case):
    got = same(case)
    assert got[0] is TypeError


# --- constants, is_tensor, is_floating_point, is_complex ----------------------------------------------------
def test_constants_are_torchs():
    for name in ("pi", "e", "inf"):
        assert getattr(yaten, name) == getattr(torch, name)
    assert math.isnan(yaten.nan)


def test_is_tensor_and_the_dtype_predicates():
    same(lambda m: [m.is_tensor(m.ones(1)), m.is_tensor(m.nn.Parameter(m.ones(1))), m.is_tensor([1.0]),
                    m.is_tensor(1), m.is_floating_point(m.ones(1)), m.is_floating_point(m.ones(1, dtype=m.int64)),
                    m.is_complex(m.ones(1)), m.ones(1).is_floating_point(), m.ones(1).is_complex()])  # fmt: skip


# --- legacy constructors --------------------------------------------------------------------------
LEGACY = ("FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ShortTensor", "CharTensor",
          "ByteTensor", "BoolTensor")  # fmt: skip


@pytest.mark.parametrize("name", LEGACY)
def test_legacy_constructor_of_sizes_is_uninitialised_of_that_shape_and_dtype(name):
    same(lambda m: [(t.dtype, t.shape) for t in (getattr(m, name)(2, 3), getattr(m, name)(m.Size([4])),
                                                  getattr(m, name)(0), getattr(m, name)(2, device="cpu"))])  # fmt: skip


@pytest.mark.parametrize("name", LEGACY)
def test_legacy_constructor_of_data(name):
    same(lambda m: getattr(m, name)([[1, 0], [2, 3]]))
    same(lambda m: getattr(m, name)((1, 0)))
    same(lambda m: getattr(m, name)())
    same(lambda m: getattr(m, name)([]))


def test_legacy_constructor_of_a_tensor_aliases_it():
    same(lambda m: m.FloatTensor(m.tensor(3.0)))
    for make in (yaten.FloatTensor, yaten.Tensor):  # an alias with t's history, as torch's
        t = yaten.ones(2, requires_grad=True)
        alias = make(t)
        assert alias is not t and alias._base is t and alias.data_ptr() == t.data_ptr()
        (alias * 3).sum().backward()
        assert t.grad.tolist() == [3.0, 3.0]


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.LongTensor(2.5),
        lambda m: m.FloatTensor(-1),
        lambda m: m.FloatTensor([[1], [2, 3]]),
        lambda m: m.FloatTensor(2, "a"),
        lambda m: m.LongTensor(m.tensor([1.5])),
        lambda m: m.FloatTensor(2, device="meta"),
    ],
    ids=["a float", "negative size", "ragged data", "a str size", "another dtype's tensor", "meta device"],
)
def test_legacy_constructor_refuses_what_torch_refuses(case):
    with pytest.raises(Exception) as expected:
        case(torch)
    with pytest.raises(expected.type):
        case(yaten)


def test_isinstance_against_legacy_types_is_by_dtype_as_torchs_metaclass():
    cases = lambda m: [isinstance(t, getattr(m, name)) for name in LEGACY
                       for t in (m.ones(2), m.ones(2, dtype=m.int64), m.ones(2, requires_grad=True), [1.0])]  # fmt: skip
    same(cases)
    same(lambda m: [issubclass(m.FloatTensor, m.Tensor), m.FloatTensor.dtype, m.LongTensor.is_cuda,
                    m.FloatTensor.__name__])  # fmt: skip


def test_type_converts_to_a_legacy_constructors_dtype():
    same(lambda m: [m.ones(2).type(m.LongTensor), m.ones(2, dtype=m.int64).type(m.DoubleTensor)])
    same(lambda m: m.ones(2).type(int))


# --- __version__ ------------------------------------------------------------------------------------------
def test_version_is_torchs_api_version_with_yatens_as_its_local_label():
    ours = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert yaten.__version__ == f"2.13.0+yaten.{ours}"
    assert version.parse(yaten.__version__).release == version.parse(torch.__version__).release


@pytest.mark.parametrize(
    "check",
    [
        lambda v: v >= "2.0",
        lambda v: v < "3",
        lambda v: v > "1.13.1",
        lambda v: v >= (2, 1),
        lambda v: v < (3, 0),
        lambda v: v != "1.0",
        lambda v: version.parse(v) >= version.parse("2.0"),
        lambda v: int(v.split(".")[0]) >= 2,
        lambda v: tuple(int(x) for x in v.split("+")[0].split(".")[:2]) >= (1, 12),
        lambda v: v.startswith("2."),
    ],
)
def test_version_checks_real_programs_make_take_torch_2_13s_path(check):
    assert check(yaten.__version__) and check(torch.__version__)


def test_version_compares_as_a_version_not_as_a_string():
    assert yaten.__version__ >= "2.9"  # as strings, "2.13.0..." < "2.9"
    assert not yaten.__version__ < "2.10"
    assert yaten.__version__ == yaten.__version__ and {yaten.__version__: 1}[str(yaten.__version__)] == 1


# --- bernoulli_ and random_ ---------------------------------------------------------------------------------
def test_bernoulli_fills_in_place_with_zeros_and_ones_at_the_given_rate():
    x = yaten.empty(20000)
    v = x._version
    assert x.bernoulli_(0.3) is x and x._version == v + 1
    assert set(x.tolist()) == {0.0, 1.0}
    assert abs(x.mean().item() - 0.3) < 0.02
    same(lambda m: m.empty(4).bernoulli_(m.tensor([0.0, 1.0, 1.0, 0.0])))
    same(lambda m: m.empty(2, 3, dtype=m.int64).bernoulli_(m.tensor([1.0, 0.0, 1.0])))
    same(lambda m: m.empty(3, dtype=m.bool).bernoulli_(1.0))


def test_bernoulli_follows_the_generator():
    draws = [
        yaten.empty(50).bernoulli_(0.5, generator=yaten.Generator().manual_seed(7)).tolist() for _ in range(2)
    ]
    assert draws[0] == draws[1] and 0 < sum(draws[0]) < 50


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.empty(3).bernoulli_(1.5),
        lambda m: m.empty(3).bernoulli_(m.tensor([0.0, 1.0, 2.0])),
        lambda m: m.empty(3).bernoulli_(m.tensor([0.5, 0.5])),
        lambda m: m.empty(3).bernoulli_(m.tensor([1, 0, 1])),
        lambda m: m.empty(3, requires_grad=True).bernoulli_(0.5),
    ],
    ids=["p above 1", "a p above 1", "p not broadcastable", "integer p", "leaf requiring grad"],
)
def test_bernoulli_refuses_what_torch_refuses(case):
    with pytest.raises(Exception) as expected:
        case(torch)
    with pytest.raises(expected.type):
        case(yaten)


# torch's ranges of random_(): [0, 2**digits] for floats (every integer exact), [0, max] for integers.
RANGES = {"float16": 2**11, "float32": 2**24, "float64": 2**53, "uint8": 255, "int8": 127, "int16": 2**15 - 1,
          "int32": 2**31 - 1, "int64": 2**63 - 1, "bool": 1}  # fmt: skip


@pytest.mark.parametrize("dtype", list(RANGES))
def test_random_covers_torchs_range_per_dtype(dtype):
    x = yaten.empty(4000, dtype=getattr(yaten, dtype)).random_()
    values = [int(v) for v in x.tolist()]
    top = RANGES[dtype]
    assert min(values) >= 0 and max(values) <= top
    assert max(values) > top // 2  # draws reach the upper half of the range
    t = torch.empty(4000, dtype=getattr(torch, dtype)).random_()
    assert int(t.min()) >= 0 and int(t.max()) <= top


@pytest.mark.parametrize(
    "args, kwargs, low, high",
    [
        ((5,), {}, 0, 4),
        ((3, 5), {}, 3, 4),
        ((-3, -1), {}, -3, -2),
        ((1,), {"to": 3}, 1, 2),
        ((), {"to": 2}, 0, 1),
        ((), {"from": 1, "to": 3}, 1, 2),
    ],
)
def test_random_from_to_forms(args, kwargs, low, high):
    for m in (torch, yaten):
        x = m.empty(400, dtype=m.int64).random_(*args, **kwargs)
        assert set(x.tolist()) == set(range(low, high + 1))


def test_random_from_with_no_to_runs_to_the_dtypes_top():
    same(lambda m: m.empty(3, dtype=m.int8).random_(127, None))
    x = yaten.empty(1000, dtype=yaten.int16).random_(30000, None)
    assert min(x.tolist()) >= 30000 and max(x.tolist()) > 32000


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.empty(3).random_(5, 3),
        lambda m: m.empty(3, dtype=m.uint8).random_(-3),
        lambda m: m.empty(3, dtype=m.uint8).random_(0, 300),
        lambda m: m.empty(3, dtype=m.int8).random_(200, None),
        lambda m: m.empty(3).random_(2**25, None),
        lambda m: m.empty(3).random_(2.5),
        lambda m: m.empty(3).random_(None),
        lambda m: m.empty(3, requires_grad=True).random_(),
    ],
    ids=[
        "from >= to",
        "negative to",
        "to past uint8",
        "from past int8",
        "from past float's top",
        "float to",
        "None to",
        "leaf requiring grad",
    ],
)
def test_random_refuses_what_torch_refuses(case):
    with pytest.raises(Exception) as expected:
        case(torch)
    with pytest.raises(expected.type) as got:
        case(yaten)
    if expected.type is RuntimeError:
        assert str(got.value) == str(expected.value)


def test_random_warns_as_torch_past_a_floats_exact_integers():
    with pytest.warns(UserWarning, match="Due to precision limitations float"):
        yaten.empty(3).random_(0, 2**60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yaten.empty(3).random_(0, 2**24)
