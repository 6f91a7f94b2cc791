"""The elementwise ops at the values the op table's random samples never hit (NaN, infinities, signed
zeros, poles, shift counts past the width), against torch."""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

NAN, INF = float("nan"), float("inf")
EDGES = np.array([NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, -2.0, 0.5, 3.0])
OTHER = np.array([1.0, INF, INF, NAN, 0.0, -0.0, NAN, 2.0, -INF, 3.0])

CASES = {
    "fmax": lambda m, a, b: m.fmax(a, b),
    "fmin": lambda m, a, b: m.fmin(a, b),
    "isposinf": lambda m, a, b: m.isposinf(a),
    "isneginf": lambda m, a, b: m.isneginf(a),
    "xlogy": lambda m, a, b: m.xlogy(a, b),
    "logaddexp": lambda m, a, b: m.logaddexp(a, b),
    "logaddexp2": lambda m, a, b: m.logaddexp2(a, b),
    "hypot": lambda m, a, b: m.hypot(a, b),
    "copysign": lambda m, a, b: m.copysign(a, b),
    "heaviside": lambda m, a, b: m.heaviside(a, b),
    "digamma": lambda m, a, b: m.digamma(a),
    "lgamma": lambda m, a, b: m.lgamma(a),
    "polygamma 1": lambda m, a, b: m.polygamma(1, a),
    "polygamma 3": lambda m, a, b: m.polygamma(3, a),
    "erfinv": lambda m, a, b: m.erfinv(a),
    "sinc": lambda m, a, b: m.sinc(a),
    "frac": lambda m, a, b: m.frac(a),
    "signbit": lambda m, a, b: m.signbit(a),
    "sgn": lambda m, a, b: m.sgn(a),
    "nan_to_num": lambda m, a, b: m.nan_to_num(a),
    "atanh": lambda m, a, b: m.atanh(a),
    "acosh": lambda m, a, b: m.acosh(a),
    "logit": lambda m, a, b: m.logit(a),
    "hardshrink": lambda m, a, b: m.nn.functional.hardshrink(a),
    "threshold": lambda m, a, b: m.nn.functional.threshold(a, 0.5, 9.0),
    "mish": lambda m, a, b: m.nn.functional.mish(a),
    "logsigmoid": lambda m, a, b: m.nn.functional.logsigmoid(a),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(CASES))
def test_edge_values_match_torch(name, dtype):
    a, b = EDGES.astype(dtype), OTHER.astype(dtype)
    if name == "polygamma 1" and dtype == np.float32:
        # At the poles (the negative integers) both results are 1 / sin(pi x)^2 of a rounding error of
        # sin(pi x), torch's taken in float32, yaten's in float64: huge and unrelated.
        keep = ~((a < 0) & (a == np.floor(a)))
        a, b = a[keep], b[keep]
    with np.errstate(all="ignore"):
        want = CASES[name](torch, torch.from_numpy(a), torch.from_numpy(b))
    got = CASES[name](yaten, yaten.from_numpy(a), yaten.from_numpy(b))
    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    assert_close(got, want, name)


def test_shifts_past_the_width_and_negative_counts():
    a = np.array([5, -5, 1, -1, 7], np.int64)
    counts = np.array([64, 70, -1, 63, 0], np.int64)
    for op in ("bitwise_left_shift", "bitwise_right_shift"):
        want = getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(counts))
        got = getattr(yaten, op)(yaten.from_numpy(a), yaten.from_numpy(counts))
        assert got.tolist() == want.tolist(), op


def test_bitwise_operators_and_their_in_place_forms():
    outs = []
    for m in (torch, yaten):
        a, b = m.tensor([12, -3, 7]), m.tensor([True, False, True])
        r = [
            a & 6,
            6 & a,
            a | 1,
            1 | a,
            a ^ a,
            3 ^ a,
            b & b,
            b | False,
            a << 2,
            1 << a.abs(),
            a >> 1,
            64 >> a.abs(),
        ]
        c = a.clone()
        c &= 6
        c |= 1
        c ^= 2
        c <<= 1
        c >>= 1
        outs.append([t.tolist() for t in (*r, c)] + [str(t.dtype).split(".")[1] for t in r])
    assert outs[0] == outs[1]
