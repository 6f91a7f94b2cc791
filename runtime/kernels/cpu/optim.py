"""Fused optimizer updates over host arrays: one pass per parameter instead of one op per formula step.

Each kernel walks the flat, contiguous arrays of one parameter and its state once, doing in registers
what the single-tensor algorithm does with a chain of in-place ops, in the same operation order and
in the arrays' dtype (the scalars come already cast to it), so the results are those of the op chain.
"""

import math

import numba
import numpy as np


@numba.njit(cache=True, error_model="numpy")
def _adam(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, maximize, decoupled, decay, weight_decay,
          lerp_weight, lerp_complement, beta2, one_minus_beta2, bias_correction2_sqrt, eps, neg_step_size):  # fmt: skip  # pragma: no cover (compiled)
    small = abs(lerp_weight) < 0.5
    amsgrad = max_exp_avg_sq.size != 0
    for i in range(param.size):
        g = -grad[i] if maximize else grad[i]
        p = param[i]
        if decoupled:
            p = p * decay
        elif weight_decay != 0:
            g = g + weight_decay * p
        m = exp_avg[i]
        # torch's lerp switches formula at |weight| = 0.5 to stay accurate near the end point
        m = m + lerp_weight * (g - m) if small else g - (g - m) * lerp_complement
        v = exp_avg_sq[i] * beta2 + one_minus_beta2 * g * g
        exp_avg[i] = m
        exp_avg_sq[i] = v
        if amsgrad:
            top = max_exp_avg_sq[i]
            if v > top or v != v:  # maximum propagates NaN
                top = v
            max_exp_avg_sq[i] = top
            v = top
        denom = math.sqrt(v) / bias_correction2_sqrt + eps
        param[i] = p + neg_step_size * m / denom


def adam(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, *, maximize, decoupled, lr, weight_decay,
         beta1, beta2, eps, step):  # fmt: skip
    """One Adam (or, with ``decoupled``, AdamW) update of ``param`` and its moments, in place.

    All arrays are flat, contiguous and of one float dtype; ``max_exp_avg_sq`` is None without amsgrad.
    ``step`` is the step count after this update's increment.

    >>> p, g = np.array([1.0, -2.0]), np.array([0.5, -0.5])
    >>> m, v = np.zeros(2), np.zeros(2)
    >>> adam(p, g, m, v, None, maximize=False, decoupled=False, lr=0.1, weight_decay=0.0,
    ...      beta1=0.9, beta2=0.999, eps=1e-8, step=1)
    >>> p
    array([ 0.9, -1.9])
    """
    t = param.dtype.type
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    _adam(
        param, grad, exp_avg, exp_avg_sq,
        np.empty(0, param.dtype) if max_exp_avg_sq is None else max_exp_avg_sq,
        maximize, decoupled, t(1 - lr * weight_decay), t(weight_decay), t(1 - beta1), t(1 - (1 - beta1)), t(beta2),
        t(1 - beta2), t(bias_correction2**0.5), t(eps), t(-lr / bias_correction1),
    )  # fmt: skip
