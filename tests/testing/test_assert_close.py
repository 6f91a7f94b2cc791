"""torch.testing.assert_close / assert_allclose / make_tensor against torch's own: same outcome, same
exception type, same message (dtype and class names printed with yaten's module name)."""

import warnings

import numpy as np
import pytest
import torch

import yaten

NAN, INF = float("nan"), float("inf")

# (actual, expected, keyword arguments), built for a library by ``lib``.
CASES = {
    "float_close": lambda L: (L.tensor([1.0, 2.0, 3.0]), L.tensor([1.0, 2.5, 3.0]), {}),
    "2d_index": lambda L: (L.tensor([[1.0, 2.0], [3.0, 4]]), L.tensor([[1.0, 2.0], [3.0, 5]]), {}),
    "int_equal": lambda L: (L.tensor([1, 2, 3]), L.tensor([1, 4, 3]), {}),
    "uint8": lambda L: (L.tensor([1, 2], dtype=L.uint8), L.tensor([3, 2], dtype=L.uint8), {}),
    "bool": lambda L: (L.tensor([True, False]), L.tensor([True, True]), {}),
    "dtype": lambda L: (L.tensor([1.0, 2.0]), L.tensor([1.0, 2.0], dtype=L.float64), {}),
    "dtype_unchecked": lambda L: (
        L.tensor([1.0, 2.0]),
        L.tensor([1.0, 2.0], dtype=L.float64),
        {"check_dtype": False},
    ),
    "shape": lambda L: (L.tensor([1.0, 2.0]), L.tensor([1.0, 2.0, 3]), {}),
    "nan": lambda L: (L.tensor([1.0, NAN]), L.tensor([1.0, NAN]), {}),
    "nan_equal": lambda L: (L.tensor([1.0, NAN]), L.tensor([1.0, NAN]), {"equal_nan": True}),
    "inf": lambda L: (L.tensor([1.0, INF]), L.tensor([1.0, INF]), {}),
    "inf_sign": lambda L: (L.tensor([1.0, INF]), L.tensor([1.0, -INF]), {}),
    "msg": lambda L: (L.tensor([1.0, 2.0]), L.tensor([1.0, 3.0]), {"msg": "custom"}),
    "msg_callable": lambda L: (L.tensor([1.0, 2.0]), L.tensor([1.0, 3.0]), {"msg": lambda m: m + "!!"}),
    "list": lambda L: ([L.tensor([1.0, 2.0])], [L.tensor([1.0, 3.0])], {}),
    "list_length": lambda L: ([L.tensor([1.0])], [L.tensor([1.0]), L.tensor(1.0)], {}),
    "dict": lambda L: ({"a": L.tensor([1.0, 2.0])}, {"a": L.tensor([1.0, 3.0])}, {}),
    "dict_keys": lambda L: ({"a": L.tensor([1.0])}, {"b": L.tensor([1.0])}, {}),
    "floats": lambda L: (1.0, 1.1, {}),
    "ints": lambda L: (1, 2, {}),
    "number_types": lambda L: (1, 1.0, {"check_dtype": True}),
    "booleans": lambda L: (True, False, {}),
    "none": lambda L: (None, 1, {}),
    "zero_dim": lambda L: (L.tensor(1.0), L.tensor(1.5), {}),
    "rtol_only": lambda L: (L.tensor([1.0, 2.0]), L.tensor([1.0, 3.0]), {"rtol": 0.1}),
    "explicit_tols": lambda L: (L.tensor([1.0, 2.0]), L.tensor([1.0, 2.1]), {"rtol": 0.0, "atol": 0.2}),
    "all_mismatch": lambda L: (L.zeros(3, 4), L.ones(3, 4), {}),
    "within_default": lambda L: (L.tensor([1.0, 2.0]), L.tensor([1.0, 2.00001]), {}),
    "half": lambda L: (L.tensor([1.0, 2.0], dtype=L.float16), L.tensor([1.0, 2.01], dtype=L.float16), {}),
    "bfloat16": lambda L: (L.tensor([1.0, 2], dtype=L.bfloat16), L.tensor([1.0, 2.5], dtype=L.bfloat16), {}),
    "stride": lambda L: (L.zeros(2, 3).t(), L.zeros(2, 3).t().contiguous(), {"check_stride": True}),
    "requires_grad": lambda L: (L.tensor([1.0, 2.0]), L.tensor([1.0, 2.0]).requires_grad_(), {}),
}


def _outcome(lib, fn, case):
    actual, expected, kwargs = CASES[case](lib)
    try:
        fn(lib)(actual, expected, **kwargs)
    except (AssertionError, TypeError, ValueError) as error:
        return type(error), str(error).replace("torch.", "yaten.")
    return None


@pytest.mark.parametrize("case", sorted(CASES))
def test_assert_close_matches_torch(case):
    def fn(lib):
        return lib.testing.assert_close

    assert _outcome(yaten, fn, case) == _outcome(torch, fn, case)


def test_unsupported_pair_is_a_type_error():
    with pytest.raises(
        TypeError, match="No comparison pair was able to handle inputs of type .* and <class 'list'>"
    ):
        yaten.testing.assert_close(yaten.tensor([1.0]), [1.0])


@pytest.mark.parametrize("case", ["float_close", "nan", "within_default", "half"])
def test_assert_allclose_matches_torch(case):
    def fn(lib):
        return lib.testing.assert_allclose

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _outcome(yaten, fn, case) == _outcome(torch, fn, case)
    assert [w.category for w in caught] == [FutureWarning, FutureWarning]


@pytest.mark.parametrize(
    "dtype", ["bool", "uint8", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
)
def test_make_tensor_ranges(dtype):
    dt = getattr(yaten, dtype)
    t = yaten.testing.make_tensor(50, 40, dtype=dt, device="cpu")
    assert t.shape == (50, 40) and t.dtype is dt and t.is_contiguous()
    values = t.to(yaten.float64).numpy() if dtype != "bool" else t.numpy()
    low, high = {"bool": (0, 1), "uint8": (0, 9), "float16": (-9, 9), "bfloat16": (-9, 9)}.get(dtype, (-9, 9))
    assert values.min() >= low and values.max() <= high
    assert len(np.unique(values)) > 1  # random, not constant


def test_make_tensor_options():
    t = yaten.testing.make_tensor((3, 4), dtype=yaten.int64, device="cpu", low=0, high=3, noncontiguous=True,
                                  exclude_zero=True)  # fmt: skip
    assert not t.is_contiguous() and t.shape == (3, 4)
    assert set(t.flatten().tolist()) <= {1, 2}
    f = yaten.testing.make_tensor(5, dtype=yaten.float64, device="cpu", low=-1, high=1, requires_grad=True)
    assert f.requires_grad and bool(((f >= -1) & (f < 1)).all())


@pytest.mark.parametrize(
    "kwargs",
    [{"low": 3, "high": 1}, {"low": float("nan")}, {"requires_grad": True}, {"low": 300}],
    ids=["low_ge_high", "nan", "requires_grad_int", "out_of_range"],
)
def test_make_tensor_errors_match_torch(kwargs):
    def run(lib):
        try:
            lib.testing.make_tensor(3, dtype=lib.uint8, device="cpu", **kwargs)
        except ValueError as error:
            return str(error).replace("torch.", "yaten.")
        return None

    assert run(yaten) == run(torch) is not None
