"""runtime/_repr.py against PyTorch's own repr of the same values."""

import importlib.util
import pathlib
import sys

import numpy as np
import pytest
import torch

_PATH = pathlib.Path(__file__).resolve().parents[2] / "runtime" / "_repr.py"
_spec = importlib.util.spec_from_file_location("yaten_repr_under_test", _PATH)
_repr = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _repr  # dataclasses look their module up there
_spec.loader.exec_module(_repr)
format_tensor = _repr.format_tensor
set_printoptions = _repr.set_printoptions

_rng = np.random.default_rng(20240611)


def _randn(*shape, dtype=np.float32, scale=1.0):
    return (_rng.standard_normal(shape) * scale).astype(dtype)


def _randint(*shape, dtype=np.int64, low=-50, high=50):
    return _rng.integers(low, high, size=shape).astype(dtype)


def _torch_repr(tensor):
    return repr(tensor).replace("torch.", "yaten.")


def _check(arr, **kwargs):
    expected = _torch_repr(torch.from_numpy(arr))
    got = format_tensor(
        arr, dtype_name=str(torch.from_numpy(arr).dtype).removeprefix("torch."), device="cpu", **kwargs
    )
    assert got == expected, f"\n--- yaten ---\n{got}\n--- torch ---\n{expected}"


# name -> array; every case is compared with torch under the default print options.
CASES = {
    # every dtype, 1-d
    "float16": _randn(7, dtype=np.float16),
    "float32": _randn(7),
    "float64": _randn(7, dtype=np.float64),
    "int8": _randint(9, dtype=np.int8),
    "int16": _randint(9, dtype=np.int16, low=-3000, high=3000),
    "int32": _randint(9, dtype=np.int32, low=-(10**6), high=10**6),
    "int64": _randint(9),
    "uint8": _randint(9, dtype=np.uint8, low=0, high=256),
    "bool": _rng.integers(0, 2, size=9).astype(bool),
    "bool_all_true": np.ones(4, dtype=bool),
    # 0-dim
    "scalar_float": np.array(3.5, dtype=np.float32),
    "scalar_float64": np.array(-0.125, dtype=np.float64),
    "scalar_int": np.array(-42, dtype=np.int64),
    "scalar_int8": np.array(7, dtype=np.int8),
    "scalar_bool": np.array(True),
    "scalar_nan": np.array(np.nan, dtype=np.float32),
    "scalar_neg_zero": np.array(-0.0, dtype=np.float32),
    "scalar_big": np.array(1e10, dtype=np.float64),
    "scalar_tiny": np.array(1.5e-7, dtype=np.float32),
    # empty
    "empty_1d": np.zeros(0, dtype=np.float32),
    "empty_2d": np.zeros((0, 3), dtype=np.float32),
    "empty_3d": np.zeros((2, 0, 4), dtype=np.float64),
    "empty_int64": np.zeros(0, dtype=np.int64),
    "empty_bool": np.zeros((3, 0), dtype=bool),
    # nesting
    "2d": _randn(3, 4),
    "3d": _randn(2, 3, 4),
    "4d": _randn(2, 2, 2, 3),
    "4d_int": _randint(2, 3, 2, 2),
    "3d_bool": _rng.integers(0, 2, size=(2, 2, 3)).astype(bool),
    # notation choice
    "integer_valued": np.array([1.0, 2.0, -3.0, 100.0], dtype=np.float32),
    "integer_valued_2d": np.arange(12, dtype=np.float64).reshape(3, 4),
    "large_sci": np.array([1e10, 2.5e10, -3e9], dtype=np.float64),
    "large_int_valued_sci": np.array([1e9, 2e9], dtype=np.float32),
    "tiny_sci": np.array([1e-5, 2e-5, 3.5e-6], dtype=np.float32),
    "mixed_ratio": np.array([0.001, 1.5, 2000.0], dtype=np.float32),
    "mixed_tiny_huge": np.array([1e-30, 1e30, -5.0], dtype=np.float64),
    "three_digit_exponent": np.array([1e-200, 1e200, 1.0], dtype=np.float64),
    "rounding_to_ten": np.array([9.99996, 0.5], dtype=np.float64),
    "float16_extremes": np.array([65504.0, 6e-5, -1.0], dtype=np.float16),
    # nan / inf / zeros
    "nan_inf": np.array([np.nan, np.inf, -np.inf, 1.5], dtype=np.float32),
    "nan_inf_integer_valued": np.array([np.nan, np.inf, -np.inf, 2.0], dtype=np.float32),
    "only_nonfinite": np.array([np.nan, -np.inf], dtype=np.float64),
    "nan_inf_sci": np.array([np.nan, 1e12, -np.inf], dtype=np.float64),
    "negative_zero": np.array([-0.0, 0.0, 1.0], dtype=np.float32),
    "negative_zero_fixed": np.array([-0.0, 0.5], dtype=np.float32),
    "all_zero": np.zeros((2, 3), dtype=np.float32),
    # wrapping
    "long_row": _randn(40),
    "long_row_int": _randint(60, low=-(10**9), high=10**9),
    "long_rows_2d": _randn(3, 25, dtype=np.float64, scale=100.0),
    "long_rows_sci": _randn(2, 20, dtype=np.float64, scale=1e9),
    # summarization
    "summarized_1d": _randn(2000),
    "summarized_1d_int": np.arange(2000, dtype=np.int64),
    "summarized_2d": _randn(40, 40),
    "summarized_3d": _randn(3, 500, 3),
    "summarized_4d": _randint(5, 6, 7, 8, dtype=np.int32),
    "summarized_bool": _rng.integers(0, 2, size=(30, 50)).astype(bool),
    "summarized_edges_decide_mode": np.concatenate([np.ones(3), np.full(1000, 0.5), np.ones(3)]).astype(
        np.float32
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_matches_torch(name):
    _check(CASES[name])


@pytest.fixture
def restore_printoptions():
    yield
    torch.set_printoptions(profile="default")
    set_printoptions(profile="default")


PRINTOPTION_CASES = [
    ("precision_2", {"precision": 2}, _randn(5)),
    ("precision_8", {"precision": 8}, _randn(5, dtype=np.float64)),
    ("precision_0", {"precision": 0}, np.array([1.4, 2.6, -0.5], dtype=np.float64)),
    ("threshold_5", {"threshold": 5}, np.arange(10)),
    ("threshold_0_scalar", {"threshold": 0}, np.array(2.5, dtype=np.float32)),
    ("edgeitems_1", {"edgeitems": 1}, _randn(30, 40)),
    ("edgeitems_0_1d", {"edgeitems": 0}, _randn(2000)),
    ("edgeitems_0_2d", {"edgeitems": 0}, _randn(40, 40)),
    ("edgeitems_0_small", {"edgeitems": 0}, _randn(2, 3)),
    ("linewidth_40", {"linewidth": 40}, _randn(4, 12)),
    ("linewidth_1", {"linewidth": 1}, _randn(2, 3)),
    ("linewidth_200", {"linewidth": 200}, _randn(3, 30)),
    ("sci_true", {"sci_mode": True}, _randn(2, 3)),
    ("sci_true_all_zero", {"sci_mode": True}, np.zeros(3, dtype=np.float32)),
    ("sci_false", {"sci_mode": False}, np.array([1e-6, 1e10], dtype=np.float64)),
    ("sci_false_int_valued_huge", {"sci_mode": False}, np.array([1e20, 3.0], dtype=np.float64)),
    ("profile_short", {"profile": "short"}, _randn(20, 20, dtype=np.float64)),
    ("profile_full", {"profile": "full"}, _randn(1200)),
    ("profile_full_override", {"profile": "full", "precision": 2}, _randn(6)),
]


@pytest.mark.parametrize("name,options,arr", PRINTOPTION_CASES, ids=[c[0] for c in PRINTOPTION_CASES])
def test_printoptions(name, options, arr, restore_printoptions):
    torch.set_printoptions(**options)
    set_printoptions(**options)
    assert _repr.get_printoptions() == dict(torch._tensor_str.get_printoptions())
    _check(arr)


def test_printoptions_unknown_profile_is_an_error(restore_printoptions):
    with pytest.raises(ValueError, match="unknown profile 'shrot'"):
        set_printoptions(profile="shrot")


@pytest.mark.parametrize(
    "arr",
    [_randn(3), np.array(1.5, dtype=np.float32), _randn(2, 3, dtype=np.float64), _randn(4, 30)],
    ids=["1d", "0d", "2d_float64", "wrapped"],
)
def test_requires_grad_suffix(arr):
    expected = _torch_repr(torch.from_numpy(arr).requires_grad_())
    dtype_name = str(torch.from_numpy(arr).dtype).removeprefix("torch.")
    assert format_tensor(arr, dtype_name=dtype_name, device="cpu", requires_grad=True) == expected


@pytest.mark.parametrize(
    "arr",
    [
        _randn(3),
        _randn(3, 20, dtype=np.float64),
        _randn(5, dtype=np.float16),
        np.array(2.0, dtype=np.float32),
    ],
    ids=["1d", "wrapped_float64", "float16", "0d"],
)
def test_grad_fn_suffix(arr):
    result = torch.from_numpy(arr).requires_grad_() * 2
    expected = _torch_repr(result)
    dtype_name = str(result.dtype).removeprefix("torch.")
    got = format_tensor(
        result.detach().numpy(),
        dtype_name=dtype_name,
        device="cpu",
        grad_fn_name="MulBackward0",
        requires_grad=True,
    )
    assert got == expected


def test_suffix_wraps_after_long_last_line():
    # The last line is long enough that the dtype suffix goes to its own line.
    arr = np.array([123456.78, -98765.4321, 1.5, 2.5, 3.5, 4.5, 5.5], dtype=np.float64)
    _check(arr)
    assert "\n" in format_tensor(arr, dtype_name="float64", device="cpu")


@pytest.mark.parametrize(
    "arr", [_randn(3), _randn(2, 2), np.array(4.0, dtype=np.float32)], ids=["1d", "2d", "0d"]
)
def test_default_dtype_float64(arr):
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        expected = _torch_repr(torch.from_numpy(arr))
    finally:
        torch.set_default_dtype(old)
    got = format_tensor(arr, dtype_name="float32", device="cpu", default_dtype_name="float64")
    assert got == expected
    assert format_tensor(
        arr.astype(np.float64), dtype_name="float64", device="cpu", default_dtype_name="float64"
    ) == expected.replace(", dtype=yaten.float32", "")


def test_empty_shows_int64_and_bool_dtype():
    assert (
        format_tensor(np.zeros(0, dtype=np.int64), dtype_name="int64", device="cpu")
        == "tensor([], dtype=yaten.int64)"
    )
    assert (
        format_tensor(np.zeros((2, 0), dtype=bool), dtype_name="bool", device="cpu")
        == "tensor([], size=(2, 0), dtype=yaten.bool)"
    )


def test_cuda_device_suffix():
    arr = np.array([1.0, 2.5], dtype=np.float32)
    assert (
        format_tensor(arr, dtype_name="float32", device="cuda:0")
        == "tensor([1.0000, 2.5000], device='cuda:0')"
    )
    assert (
        format_tensor(arr.astype(np.float64), dtype_name="float64", device="cuda:1", requires_grad=True)
        == "tensor([1.0000, 2.5000], device='cuda:1', dtype=yaten.float64,\n       requires_grad=True)"
    )
    assert (
        format_tensor(np.zeros((0, 2), dtype=np.int64), dtype_name="int64", device="cuda:0")
        == "tensor([], device='cuda:0', size=(0, 2), dtype=yaten.int64)"
    )


def test_custom_prefix():
    arr = _randn(2, 3)
    expected = _torch_repr(torch.from_numpy(arr)).replace("tensor(", "Parameter(").replace("\n ", "\n    ")
    assert format_tensor(arr, dtype_name="float32", device="cpu", prefix="Parameter") == expected


def test_complex_values_print_as_torch():
    arr = np.array([1 + 2j, 3 - 1j, -0.5e-5 + 1e3j], dtype=np.complex64)
    assert format_tensor(arr, dtype_name="complex64", device="cpu") == _torch_repr(torch.from_numpy(arr))
