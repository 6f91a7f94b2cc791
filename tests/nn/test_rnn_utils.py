"""nn.utils.rnn (PackedSequence and the pack/pad functions) side by side with torch: values, dtypes,
errors, and gradients through packing and padding."""

import numpy as np
import pytest
import torch

import yaten
from tests.nn._module_parity import same
from tests.tolerances import assert_matches


def _data(*shape, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _t(m, a):
    return m.from_numpy(a.copy())


# --- pack_padded_sequence ----------------------------------------------------------------------------
PACK_CASES = {
    "time-major sorted": ((5, 3, 2), [5, 3, 1], {}),
    "batch-first sorted": ((3, 5, 2), [5, 3, 1], {"batch_first": True}),
    "ties": ((4, 3), [4, 2, 2], {}),
    "unsorted": ((4, 3, 2), [2, 4, 1], {"enforce_sorted": False}),
    "unsorted batch-first": ((3, 4, 2, 2), [1, 3, 4], {"enforce_sorted": False, "batch_first": True}),
    "lengths shorter than padding": ((6, 2, 1), [4, 2], {}),
    "single sequence": ((3, 1, 2), [3], {}),
}


@pytest.mark.parametrize("case", list(PACK_CASES))
@pytest.mark.parametrize("lengths_as", ["list", "tensor", "int32 tensor"])
def test_pack_padded_sequence_matches_torch(case, lengths_as):
    shape, lengths, kwargs = PACK_CASES[case]
    x = _data(*shape)

    def run(m):
        lens = {
            "list": lengths,
            "tensor": m.tensor(lengths),
            "int32 tensor": m.tensor(lengths, dtype=m.int32),
        }
        p = m.nn.utils.rnn.pack_padded_sequence(_t(m, x), lens[lengths_as], **kwargs)
        return p, type(p).__name__, p.batch_sizes.dtype

    same(run)


def test_pack_padded_sequence_of_integers_and_a_padded_view():
    x = np.arange(24).reshape(4, 3, 2)
    same(
        lambda m: m.nn.utils.rnn.pack_padded_sequence(
            _t(m, x).transpose(0, 1), [3, 2, 2, 1], batch_first=True
        )
    )


PACK_ERRORS = {
    "unsorted": ((4, 3, 2), [2, 4, 1], {}),
    "zero length": ((4, 3, 2), [4, 2, 0], {}),
    "zero length unsorted": ((4, 3, 2), [0, 2, 4], {"enforce_sorted": False}),
    "negative length": ((4, 3), [4, 2, -1], {}),
    "too few lengths": ((4, 3, 2), [4, 2], {}),
    "too many lengths": ((4, 3, 2), [4, 2, 1, 1], {}),
    "2-d lengths": ((4, 3), [[4, 2, 1]], {}),
    "empty input": ((4, 0, 2), [], {}),
    "1-d input": ((4,), [4], {}),
    "1-d input batch-first": ((4,), [4], {"batch_first": True}),
}


@pytest.mark.parametrize("case", list(PACK_ERRORS))
def test_pack_padded_sequence_errors_match_torch(case):
    shape, lengths, kwargs = PACK_ERRORS[case]
    x = _data(*shape)

    def run(m):
        return m.nn.utils.rnn.pack_padded_sequence(_t(m, x), m.tensor(lengths, dtype=m.int64), **kwargs)

    got = same(run)
    assert isinstance(got, tuple) and isinstance(got[0], type) and issubclass(got[0], Exception), got


def test_lengths_past_the_padding_are_refused():
    with pytest.raises(RuntimeError, match="at most the padded length 4"):
        yaten.nn.utils.rnn.pack_padded_sequence(yaten.zeros(4, 3), [5, 2, 1])


# --- pad_packed_sequence, pack_sequence, unpack/unpad ------------------------------------------------
@pytest.mark.parametrize("case", list(PACK_CASES))
@pytest.mark.parametrize("pad", [{}, {"padding_value": -2.5}, {"total_length": 7}, {"batch_first": True}])
def test_pad_packed_sequence_inverts_packing_as_torch(case, pad):
    shape, lengths, kwargs = PACK_CASES[case]
    x = _data(*shape)

    def run(m):
        p = m.nn.utils.rnn.pack_padded_sequence(_t(m, x), lengths, **kwargs)
        padded, lens = m.nn.utils.rnn.pad_packed_sequence(p, **pad)
        return padded, lens, padded.stride()

    same(run)


def test_pad_packed_sequence_total_length_too_short():
    def run(m):
        p = m.nn.utils.rnn.pack_sequence([m.ones(3), m.ones(2)])
        return m.nn.utils.rnn.pad_packed_sequence(p, total_length=2)

    assert same(run)[0] is ValueError


SEQUENCES = {
    "1-d": [(4,), (2,), (3,)],
    "trailing dims": [(2, 3, 2), (4, 3, 2), (1, 3, 2)],
    "equal lengths": [(3, 2), (3, 2)],
    "empty sequences": [(0, 3), (0, 3)],
}


@pytest.mark.parametrize("case", list(SEQUENCES))
@pytest.mark.parametrize("kwargs", [{}, {"batch_first": True}, {"padding_value": 1.5, "padding_side": "left"},
                                    {"batch_first": True, "padding_side": "left"}])  # fmt: skip
def test_pad_sequence_matches_torch(case, kwargs):
    arrays = [_data(*s, seed=i) for i, s in enumerate(SEQUENCES[case])]
    same(lambda m: m.nn.utils.rnn.pad_sequence([_t(m, a) for a in arrays], **kwargs))


def test_pad_sequence_takes_the_first_dtype_and_casts_the_padding():
    ints, floats = np.array([1, 2, 3]), np.array([4.5])
    same(lambda m: m.nn.utils.rnn.pad_sequence([_t(m, ints), _t(m, floats)], padding_value=-1.5))
    same(lambda m: m.nn.utils.rnn.pad_sequence([_t(m, floats), _t(m, ints)], batch_first=True))
    same(lambda m: m.nn.utils.rnn.pad_sequence(_t(m, _data(3, 2)), batch_first=True))  # a tensor's rows


PAD_ERRORS = {
    "empty list": lambda m: m.nn.utils.rnn.pad_sequence([]),
    "not iterable": lambda m: m.nn.utils.rnn.pad_sequence(5),
    "padding side": lambda m: m.nn.utils.rnn.pad_sequence([m.ones(2)], padding_side="up"),
}


@pytest.mark.parametrize("case", list(PAD_ERRORS))
def test_pad_sequence_errors_match_torch(case):
    assert same(PAD_ERRORS[case])[0] is RuntimeError


def test_pad_sequence_of_mismatched_trailing_dims_raises():
    for m in (torch, yaten):
        with pytest.raises(RuntimeError):
            m.nn.utils.rnn.pad_sequence([m.ones(2, 3), m.ones(3, 4)])


@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_pack_sequence_and_unpack_sequence_match_torch(enforce_sorted):
    arrays = [_data(*s, seed=i) for i, s in enumerate([(4, 2), (3, 2), (1, 2)])]
    if not enforce_sorted:
        arrays = arrays[::-1]

    def run(m):
        p = m.nn.utils.rnn.pack_sequence([_t(m, a) for a in arrays], enforce_sorted=enforce_sorted)
        return p, m.nn.utils.rnn.unpack_sequence(p)

    same(run)


@pytest.mark.parametrize("batch_first", [False, True])
def test_unpad_sequence_matches_torch_and_transposes_in_place(batch_first):
    arrays = [_data(*s, seed=i) for i, s in enumerate([(2, 3), (4, 3), (1, 3)])]

    def run(m):
        padded = m.nn.utils.rnn.pad_sequence([_t(m, a) for a in arrays], batch_first=batch_first)
        pieces = m.nn.utils.rnn.unpad_sequence(padded, m.tensor([2, 4, 1]), batch_first=batch_first)
        return pieces, padded.shape

    same(run)


def test_invert_permutation_matches_torch():
    same(lambda m: m.nn.utils.rnn.invert_permutation(m.tensor([3, 0, 2, 4, 1])))
    assert yaten.nn.utils.rnn.invert_permutation(None) is None


# --- PackedSequence ----------------------------------------------------------------------------------
def test_packed_sequence_is_torchs_named_tuple():
    P = yaten.nn.utils.rnn.PackedSequence
    assert P.__module__ == "yaten.nn.utils.rnn" and P.__qualname__ == "PackedSequence"
    assert P._fields == torch.nn.utils.rnn.PackedSequence._fields
    assert isinstance(P(yaten.ones(3), yaten.tensor([2, 1])), tuple)

    def run(m):
        p = m.nn.utils.rnn.pack_sequence([m.tensor([1.0, 2.0, 3.0]), m.tensor([4.0])])
        q = m.nn.utils.rnn.PackedSequence((p.data, p.batch_sizes))  # the (data, batch_sizes) form
        r = p._replace(data=p.data * 2)
        d, f = p.double(), p.double().float()
        return [p, q, r, repr(p).replace("torch", "yaten"), d.data.dtype, f.data.dtype, p.long().data,
                p.to(m.float32) is p, p.to("cpu") is p, p.cpu() is p, p.is_cuda, len(p), list(p._asdict())]  # fmt: skip

    same(run)


def test_packed_sequence_keeps_and_converts_its_indices():
    def run(m):
        p = m.nn.utils.rnn.pack_sequence([m.tensor([1.0]), m.tensor([2.0, 3.0])], enforce_sorted=False)
        q = p.to(m.float64)
        return (
            p,
            q,
            q.sorted_indices is not None,
            m.nn.utils.rnn.PackedSequence(p.data, p.batch_sizes, p.sorted_indices),
        )

    same(run)


def test_packed_sequence_errors_match_torch():
    assert same(lambda m: m.nn.utils.rnn.PackedSequence(m.ones(3)))[0] is AssertionError


# --- gradients ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", list(PACK_CASES))
def test_gradients_through_pack_and_pad_match_torch(case):
    shape, lengths, kwargs = PACK_CASES[case]
    x = _data(*shape)
    grads = {}
    for m in (torch, yaten):
        xm = _t(m, x).requires_grad_()
        p = m.nn.utils.rnn.pack_padded_sequence(xm, lengths, **kwargs)
        padded, _ = m.nn.utils.rnn.pad_packed_sequence(p, batch_first=kwargs.get("batch_first", False),
                                                       padding_value=3.0, total_length=8)  # fmt: skip
        w = _t(m, _data(*padded.shape, seed=5))
        ((padded * w).sum() + (p.data**2).sum()).backward()
        grads[m] = xm.grad
    assert_matches(grads[yaten], grads[torch])


@pytest.mark.parametrize("padding_side", ["left", "right"])
def test_gradients_through_pad_sequence_match_torch(padding_side):
    arrays = [_data(*s, seed=i) for i, s in enumerate([(2, 3), (4, 3), (1, 3)])]
    grads = {}
    for m in (torch, yaten):
        seqs = [_t(m, a).requires_grad_() for a in arrays]
        out = m.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_side=padding_side)
        (out * _t(m, _data(*out.shape, seed=9))).sum().backward()
        grads[m] = [s.grad for s in seqs]
    for got, want in zip(grads[yaten], grads[torch]):
        assert_matches(got, want)


def test_pack_and_pad_pass_gradcheck():
    x = yaten.from_numpy(_data(4, 3, 2)).requires_grad_()
    rnn = yaten.nn.utils.rnn

    def round_trip(x):
        p = rnn.pack_padded_sequence(x, [2, 4, 3], enforce_sorted=False)
        return p.data, rnn.pad_packed_sequence(p, padding_value=1.0, total_length=5)[0]

    assert yaten.autograd.gradcheck(round_trip, (x,))
    seqs = [yaten.from_numpy(_data(n, 2, seed=n)).requires_grad_() for n in (3, 1, 2)]
    assert yaten.autograd.gradcheck(lambda *s: rnn.pad_sequence(s, padding_side="left"), seqs)
