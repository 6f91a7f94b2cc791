"""The CTC loss as ATen composes it (``ctc_loss_impl``): unbatched input, target lengths given as ints or
as tensors, ``zero_infinity`` and the reductions around one ``_ctc_loss`` op, whose alpha/beta recursions
and gradient are the CPU kernel ``kernels/cpu/ctc.py`` (``reduction`` is ATen's enum, as in ``loss.py``).
A mean divides each sample's loss by its target length (at least 1) before averaging over the batch.
"""

import math

import yaten

from .loss import MEAN, NONE, _reduce


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=MEAN, zero_infinity=False):
    batched = log_probs.ndim == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    res = yaten._ctc_loss(
        lp, targets.to(lp.device, yaten.int64), input_lengths, target_lengths, blank, zero_infinity
    )[0]
    if zero_infinity:
        res = yaten.where(res == math.inf, yaten.zeros((), dtype=res.dtype, device=res.device), res)
    if reduction == MEAN:
        lengths = yaten.tensor(list(target_lengths), dtype=res.dtype, device=res.device).clamp_min(1)
        return (res / lengths).mean()
    if reduction == NONE and not batched:
        return res.squeeze(0)
    return _reduce(res, reduction)


def ctc_loss_tensor_lengths(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=MEAN,
                            zero_infinity=False):  # fmt: skip
    """``ctc_loss`` with the lengths as integer tensors (on any device), read on the host as ATen reads them."""
    lengths = []
    for name, t in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if t.dtype.kind != "i":  # bool, floating and complex lengths are refused
            raise RuntimeError(f"{name} must be integral")
        lengths.append(t.to("cpu", yaten.int64).reshape(-1).tolist())
    return ctc_loss(log_probs, targets, *lengths, blank, reduction, zero_infinity)
