"""F.ctc_loss, nn.CTCLoss and the _ctc_loss op beside torch: losses and gradients for every reduction,
padded and concatenated targets, lengths as lists and tensors, unbatched input, blanks, zero_infinity,
impossible alignments, float32/float64; gradcheck through log_softmax; torch's errors and messages."""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_matches

RNG = np.random.default_rng(0)
T, N, C = 7, 3, 5
LOGITS = RNG.standard_normal((T, N, C))
PADDED = RNG.integers(1, C, (N, 4))
CONCATENATED = RNG.integers(1, C, 9)


def _lib_args(lib, args):
    return [lib.from_numpy(a.copy()) if isinstance(a, np.ndarray) else a for a in args]


def _run(lib, logits, args, kwargs, grad_weights):
    x = lib.from_numpy(logits.copy()).requires_grad_()
    loss = lib.nn.functional.ctc_loss(x.log_softmax(-1), *_lib_args(lib, args), **kwargs)
    (loss * lib.from_numpy(grad_weights.astype(logits.dtype))).sum().backward()
    return loss, x.grad


CASES = {
    "padded mean": ((PADDED, [7, 5, 6], [4, 2, 3]), {}),
    "padded sum": ((PADDED, [7, 5, 6], [4, 2, 3]), {"reduction": "sum"}),
    "padded none": ((PADDED, [7, 5, 6], [4, 2, 3]), {"reduction": "none"}),
    "empty target": ((PADDED, [7, 5, 6], [4, 0, 3]), {"reduction": "none"}),
    "empty input and target": ((PADDED, [0, 5, 6], [0, 2, 3]), {"reduction": "none"}),
    "concatenated": ((CONCATENATED, [7, 5, 6], [4, 2, 3]), {"reduction": "none"}),
    "tensor lengths": ((PADDED, np.array([7, 5, 6]), np.array([4, 2, 3])), {}),
    "int32 lengths and targets": (
        (PADDED.astype(np.int32), np.array([7, 5, 6], np.int32), np.array([4, 2, 3], np.int32)),
        {},
    ),
    "tuple lengths": ((PADDED, (7, 5, 6), (4, 2, 3)), {"reduction": "sum"}),
    "blank last, repeats": ((np.array([[0, 1, 1, 2]] * 3), [7, 5, 6], [4, 2, 3]), {"blank": 4}),
    "impossible": ((PADDED, [7, 2, 6], [4, 3, 3]), {"reduction": "none"}),
    "impossible, zero_infinity": (
        (PADDED, [7, 2, 6], [4, 3, 3]),
        {"reduction": "none", "zero_infinity": True},
    ),
    "impossible mean, zero_infinity": ((PADDED, [7, 2, 6], [4, 3, 3]), {"zero_infinity": True}),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("case", CASES)
def test_loss_and_gradient_match_torch(case, dtype):
    args, kwargs = CASES[case]
    logits = LOGITS.astype(dtype)
    loss = torch.nn.functional.ctc_loss(
        torch.from_numpy(logits).log_softmax(-1), *_lib_args(torch, args), **kwargs
    )
    weights = RNG.standard_normal(tuple(loss.shape))
    t_loss, t_grad = _run(torch, logits, args, kwargs, weights)
    y_loss, y_grad = _run(yaten, logits, args, kwargs, weights)
    assert_matches(y_loss.detach(), t_loss.detach())
    assert_matches(y_grad, t_grad)  # NaN where torch's is NaN (an impossible alignment's gradient)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_unbatched(reduction):
    args = (PADDED[0], [7], [4])
    t_loss, t_grad = _run(torch, LOGITS[:, 0], args, {"reduction": reduction}, np.ones(()))
    y_loss, y_grad = _run(yaten, LOGITS[:, 0], args, {"reduction": reduction}, np.ones(()))
    assert_matches(y_loss.detach(), t_loss.detach())
    assert_matches(y_grad, t_grad)


def test_gradcheck_through_log_softmax():
    x = yaten.from_numpy(LOGITS[:5, :2].copy()).requires_grad_()
    targets = yaten.from_numpy(PADDED[:2, :3].copy())

    def loss(x):
        return yaten.nn.functional.ctc_loss(x.log_softmax(-1), targets, [5, 4], [3, 2], reduction="none")

    assert yaten.autograd.gradcheck(loss, (x,))


def test_op_and_its_backward_match_aten():
    lp = torch.from_numpy(LOGITS).log_softmax(-1)
    args = (torch.from_numpy(PADDED), [7, 5, 6], [4, 2, 3], 0, False)
    nll, log_alpha = torch._ctc_loss(lp, *args)
    y_lp = yaten.from_numpy(lp.numpy().copy())
    y_args = (yaten.from_numpy(PADDED.copy()), *args[1:])
    y_nll, y_log_alpha = yaten._ctc_loss(y_lp, *y_args)
    assert_matches(y_nll, nll)
    for b, (n_in, n_tg) in enumerate(zip(args[1], args[2])):  # torch leaves the rest uninitialised
        assert_matches(y_log_alpha[b, :n_in, : 2 * n_tg + 1], log_alpha[b, :n_in, : 2 * n_tg + 1])
    grad = torch.from_numpy(RNG.standard_normal(N))
    want = torch.ops.aten._ctc_loss_backward(grad, lp, args[0], args[1], args[2], nll, log_alpha, 0, False)
    got = yaten._ctc_loss_backward(
        yaten.from_numpy(grad.numpy().copy()), y_lp, y_args[0], args[1], args[2], y_nll, y_log_alpha, 0, False
    )
    assert_matches(got, want)
    assert type(yaten._ctc_loss(y_lp.requires_grad_(), *y_args)[0].grad_fn).__name__ == "CtcLossBackward0"


def test_module():
    lp = LOGITS.copy()
    for lib in (torch, yaten):
        m = lib.nn.CTCLoss(blank=4, reduction="sum", zero_infinity=True)
        assert (m.blank, m.reduction, m.zero_infinity) == (4, "sum", True)
    t = torch.nn.CTCLoss(blank=4)(
        torch.from_numpy(lp).log_softmax(-1), torch.from_numpy(PADDED - 1), [7, 5, 6], [4, 2, 3]
    )
    y = yaten.nn.CTCLoss(blank=4)(
        yaten.from_numpy(lp).log_softmax(-1), yaten.from_numpy(PADDED - 1), [7, 5, 6], [4, 2, 3]
    )
    assert_matches(y, t)
    assert repr(yaten.nn.CTCLoss()) == repr(torch.nn.CTCLoss()) == "CTCLoss()"


LP = RNG.standard_normal((6, 2, 4))
TG = np.array([[1, 2, 2], [3, 1, 0]])
BAD = {
    "blank high": (LP, TG, [6, 5], [3, 2], {"blank": 4}),
    "blank negative": (LP, TG, [6, 5], [3, 2], {"blank": -1}),
    "input lengths count": (LP, TG, [6, 5, 1], [3, 2], {}),
    "target lengths count": (LP, TG, [6, 5], [3, 2, 1], {}),
    "input too long": (LP, TG, [7, 5], [3, 2], {}),
    "input negative": (LP, TG, [-1, 5], [3, 2], {}),
    "target too long": (LP, TG, [6, 5], [4, 2], {}),
    "target negative": (LP, TG, [6, 5], [-1, 2], {}),
    "padded batch": (LP, TG[:1], [6, 5], [3, 2], {}),
    "3-d targets": (LP, TG[None], [6, 5], [3, 2], {}),
    "concatenated size": (LP, TG.reshape(-1), [6, 5], [3, 4], {}),
    "4-d log_probs": (LP[None], TG, [6, 5], [3, 2], {}),
    "2-d log_probs": (LP[0], TG, [6, 5], [3, 2], {}),
    "int log_probs": (LP.astype(np.int32), TG, [6, 5], [3, 2], {}),
    "empty log_probs": (np.zeros((6, 0, 4)), TG[:0], [], [], {}),
    "float input lengths": (LP, TG, np.array([6.0, 5.0]), np.array([3, 2]), {}),
    "bool target lengths": (LP, TG, np.array([6, 5]), np.array([True, True]), {}),
    "mixed lengths": (LP, TG, np.array([6, 5]), [3, 2], {}),
    "reduction": (LP, TG, [6, 5], [3, 2], {"reduction": "bad"}),
}


@pytest.mark.parametrize("case", BAD)
def test_errors_match_torch(case):
    lp, tg, il, tl, kwargs = BAD[case]
    with pytest.raises(Exception) as want:
        torch.nn.functional.ctc_loss(*_lib_args(torch, (lp, tg, il, tl)), **kwargs)
    with pytest.raises(want.type) as got:
        yaten.nn.functional.ctc_loss(*_lib_args(yaten, (lp, tg, il, tl)), **kwargs)
    if want.type is not TypeError:  # the overload-resolution TypeErrors list each library's signatures
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize(
    "targets", [np.array([[1, 2, 2], [3, 1, 0]], np.int16), np.array([[1.0, 2, 2], [3, 1, 0]])]
)
def test_op_refuses_targets_that_are_not_int_or_long(targets):
    lp = np.log(np.full((6, 2, 4), 0.25))
    with pytest.raises(RuntimeError) as want:
        torch._ctc_loss(torch.from_numpy(lp), torch.from_numpy(targets), [6, 5], [3, 2])
    with pytest.raises(RuntimeError) as got:
        yaten._ctc_loss(yaten.from_numpy(lp), yaten.from_numpy(targets), [6, 5], [3, 2])
    assert str(got.value) == str(want.value)


def test_labels_out_of_range_are_refused():
    """torch reads out of bounds here (its result is undefined); yaten raises."""
    with pytest.raises(IndexError, match="Target 4 is out of bounds for 4 labels"):
        yaten.nn.functional.ctc_loss(
            yaten.from_numpy(LP), yaten.tensor([[1, 4, 2], [3, 1, 0]]), [6, 5], [3, 2]
        )
