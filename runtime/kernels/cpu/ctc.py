"""Connectionist temporal classification over host arrays: ``_ctc_loss`` and its backward, as ATen's.

``log_probs`` is (T, N, C): log-probabilities of C labels at T time steps for N samples. Sample b reads
its first ``input_lengths[b]`` steps and its target of ``target_lengths[b]`` labels, either row b of a
padded (N, S) ``targets`` or the next labels of a concatenated 1-d ``targets``. The recursions run over
the extended target l' (a blank before, between and after the labels: 2 S + 1 states) in log space
(Graves et al. 2006, eq. 6-7 forward, 10-11 backward), one compiled pass per sample each way.

The forward returns the negative log-likelihood per sample and the forward variables ``log_alpha``
(N, T, 2 S + 1), -inf where a state is unreachable or outside the sample's lengths (ATen leaves those
uninitialised). The backward is ATen's: ``exp(log_probs) - exp(log(sum of alpha beta over the states
of each label) + nll - log_probs)``, times the incoming gradient, 0 past a sample's input length. That
is the gradient through a log_softmax that produced ``log_probs`` (whose backward removes the first
term), not the derivative of the raw formula: it is what torch computes, and what training uses.
"""

import math

import numba
import numpy as np

from ..._dtype import BY_NP, LEGACY_NAME

_CHECKING = "(while checking arguments for ctc_loss_allocate_outputs)"


@numba.njit(cache=True, inline="always")
def _label(flat, offset, s, blank):  # pragma: no cover - compiled
    """The label of state s of the extended target: blank at even states, the target between."""
    return blank if s % 2 == 0 else flat[offset + s // 2]


@numba.njit(cache=True, error_model="numpy", inline="always")
def _logaddexp3(a, b, c):  # pragma: no cover - compiled
    m = max(a, b, c)
    if m == -math.inf:  # all -inf: -inf - -inf would be NaN
        m = 0.0
    return math.log(math.exp(a - m) + math.exp(b - m) + math.exp(c - m)) + m


@numba.njit(cache=True, error_model="numpy")
def _forward(lp, flat, offsets, in_lens, tg_lens, blank, nll, log_alpha):  # pragma: no cover - compiled
    """Fills ``log_alpha`` (pre-filled with -inf) and ``nll`` sample by sample."""
    ninf = -math.inf
    for b in range(lp.shape[1]):
        n_in, n_tg, off = in_lens[b], tg_lens[b], offsets[b]
        la = log_alpha[b]
        if n_in == 0:  # an empty input emits only the empty target, with probability 1
            nll[b] = -0.0 if n_tg == 0 else math.inf
            continue
        la[0, 0] = lp[0, b, blank]
        if n_tg > 0:
            la[0, 1] = lp[0, b, flat[off]]
        for t in range(1, n_in):
            for s in range(2 * n_tg + 1):
                c = _label(flat, off, s, blank)
                a2 = la[t - 1, s - 1] if s > 0 else ninf
                a3 = la[t - 1, s - 2] if s > 1 and _label(flat, off, s - 2, blank) != c else ninf
                la[t, s] = _logaddexp3(la[t - 1, s], a2, a3) + lp[t, b, c]
        last = la[n_in - 1, 2 * n_tg - 1] if n_tg > 0 else ninf
        nll[b] = -_logaddexp3(la[n_in - 1, 2 * n_tg], last, ninf)


@numba.njit(cache=True, error_model="numpy")
def _backward(
    grad, lp, flat, offsets, in_lens, tg_lens, blank, zero_infinity, nll, log_alpha, out
):  # pragma: no cover
    """Fills ``out`` (pre-filled with 0) sample by sample; ``grad`` has one element per sample."""
    ninf = -math.inf
    for b in range(lp.shape[1]):
        n_in, n_tg, off = in_lens[b], tg_lens[b], offsets[b]
        if n_in == 0 or (zero_infinity and nll[b] == math.inf):
            continue
        la = log_alpha[b]
        g = out[:, b, :]  # first log(sum of alpha beta) per (t, label), then the gradient
        g[:n_in, :] = ninf
        beta = np.full((n_in, 2 * n_tg + 1), ninf, lp.dtype)
        top = 2 * n_tg
        beta[n_in - 1, top] = lp[n_in - 1, b, blank]
        g[n_in - 1, blank] = la[n_in - 1, top] + beta[n_in - 1, top]
        if n_tg > 0:
            c = _label(flat, off, top - 1, blank)
            beta[n_in - 1, top - 1] = lp[n_in - 1, b, c]
            g[n_in - 1, c] = la[n_in - 1, top - 1] + beta[n_in - 1, top - 1]
        for t in range(n_in - 2, -1, -1):
            for s in range(top, -1, -1):
                c = _label(flat, off, s, blank)
                b2 = beta[t + 1, s + 1] if s < top else ninf
                b3 = beta[t + 1, s + 2] if s < top - 1 and _label(flat, off, s + 2, blank) != c else ninf
                beta[t, s] = _logaddexp3(beta[t + 1, s], b2, b3) + lp[t, b, c]
                g[t, c] = _logaddexp3(g[t, c], la[t, s] + beta[t, s], ninf)
        scale = grad[b]
        for t in range(n_in):
            for c in range(lp.shape[2]):
                x = lp[t, b, c]
                g[t, c] = (math.exp(x) - math.exp(g[t, c] + nll[b] - x)) * scale


def _flat_targets(log_probs, targets, input_lengths, target_lengths, blank):
    """ATen's checks (types, shapes, lengths; its messages), then the targets as one flat int64 array
    and the offset of each sample's labels in it."""
    if log_probs.size == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    if log_probs.dtype not in (np.float32, np.float64):
        raise NotImplementedError(
            f"\"ctc_loss_cpu\" not implemented for '{LEGACY_NAME[BY_NP[log_probs.dtype]]}'"
        )
    if targets.dtype not in (np.int64, np.int32):
        got = LEGACY_NAME[BY_NP[targets.dtype]]
        raise RuntimeError(
            f"Expected tensor for argument #2 'targets' to have scalar type Int; but got torch.{got}Tensor "
            f"instead {_CHECKING}"
        )
    if log_probs.ndim != 3:
        raise RuntimeError(
            f"Expected 3-dimensional tensor, but got {log_probs.ndim}-dimensional tensor for argument #1 "
            f"'log_probs' {_CHECKING}"
        )
    if targets.ndim not in (1, 2):
        raise RuntimeError(
            f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional tensor for argument #2 "
            f"'targets' {_CHECKING}"
        )
    max_in, batch, labels = log_probs.shape
    if not 0 <= blank < labels:
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for n in target_lengths:
        _at_least("target_lengths", n, 0)
    tg_lens = np.asarray(target_lengths, np.int64).reshape(batch)
    if targets.ndim == 1:
        _size(targets, 0, int(tg_lens.sum()))
        offsets = np.concatenate(([0], np.cumsum(tg_lens)[:-1])).astype(np.int64)
    else:
        _size(targets, 0, batch)
        longest = int(tg_lens.max(initial=0))
        if targets.shape[1] < longest:
            raise RuntimeError(
                f"Expected tensor to have size at least {longest} at dimension 1, but got size "
                f"{targets.shape[1]} for argument #2 'targets' {_CHECKING}"
            )
        offsets = np.arange(batch, dtype=np.int64) * targets.shape[1]
    for n in input_lengths:
        _at_least("input_lengths", n, 0)
        if n > max_in:
            raise RuntimeError(
                f"Expected input_lengths to have value at most {max_in}, but got value {n} {_CHECKING}"
            )
    flat = np.ascontiguousarray(targets, np.int64).reshape(-1)
    used = np.concatenate([flat[o : o + n] for o, n in zip(offsets, tg_lens)] + [flat[:0]])
    bad = used[(used < 0) | (used >= labels)]
    if bad.size:  # ATen reads out of bounds here; yaten refuses
        raise IndexError(f"Target {int(bad[0])} is out of bounds for {labels} labels.")
    return flat, offsets, np.asarray(input_lengths, np.int64).reshape(batch), tg_lens


def _at_least(name, value, low):
    if value < low:
        raise RuntimeError(f"Expected {name} to have value at least {low}, but got value {value} {_CHECKING}")


def _size(targets, dim, size):
    if targets.shape[dim] != size:
        raise RuntimeError(
            f"Expected tensor to have size {size} at dimension {dim}, but got size {targets.shape[dim]} "
            f"for argument #2 'targets' {_CHECKING}"
        )


def ctc_loss_forward(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    """``(neg_log_likelihood, log_alpha)`` of each sample: (N,) and (N, T, 2 S + 1), S the longest target.
    ``zero_infinity`` is applied by ``ctc_loss`` (and the backward), as ATen's.

    >>> lp = np.log(np.full((2, 1, 2), 0.5))
    >>> nll, log_alpha = ctc_loss_forward(lp, np.array([[1]]), [2], [1])
    >>> np.exp(-nll)  # three paths of probability 1/4 emit the label: "1-", "-1" and "11"
    array([0.75])
    """
    flat, offsets, in_lens, tg_lens = _flat_targets(log_probs, targets, input_lengths, target_lengths, blank)
    max_in, batch, _ = log_probs.shape
    states = 2 * int(tg_lens.max(initial=0)) + 1
    nll = np.empty(batch, log_probs.dtype)
    log_alpha = np.full((batch, max_in, states), -np.inf, log_probs.dtype)
    _forward(log_probs, flat, offsets, in_lens, tg_lens, blank, nll, log_alpha)
    return nll, log_alpha


def ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha,
                      blank, zero_infinity=False):  # fmt: skip
    """The gradient of ``ctc_loss_forward``'s negative log-likelihoods with respect to ``log_probs``
    (ATen's; see the module's docstring), each sample's scaled by its element of ``grad``.

    >>> lp = np.log(np.full((2, 1, 2), 0.5))
    >>> nll, log_alpha = ctc_loss_forward(lp, np.array([[1]]), [2], [1])
    >>> ctc_loss_backward(np.ones(1), lp, np.array([[1]]), [2], [1], nll, log_alpha, 0)[:, 0]
    array([[ 0.16666667, -0.16666667],
           [ 0.16666667, -0.16666667]])
    """
    flat, offsets, in_lens, tg_lens = _flat_targets(log_probs, targets, input_lengths, target_lengths, blank)
    out = np.zeros(log_probs.shape, log_probs.dtype)
    scale = np.broadcast_to(np.asarray(grad, log_probs.dtype), (log_probs.shape[1],))
    nll = np.asarray(neg_log_likelihood, log_probs.dtype)
    _backward(scale, log_probs, flat, offsets, in_lens, tg_lens, blank, zero_infinity, nll, log_alpha, out)
    return out
