"""Sampling indices from categorical distributions over host arrays (multinomial's kernel).

Without replacement (and for a single draw) a row's ``num_samples`` largest ``p / Exp(1)`` keys are its
draws, the exponential-race sampling torch uses; with replacement each draw inverts the row's
normalised cumulative distribution. Zero-probability categories are never drawn while others remain.
"""

import numpy as np


def check_race(prob: np.ndarray) -> None:
    """The checks torch makes before its exponential race: finite, non-negative, a positive sum per row."""
    if not (np.all(prob >= 0) and np.all(prob < np.inf)):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if np.any(prob.sum(axis=-1) == 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


def check_rows(prob: np.ndarray) -> None:
    """The checks torch's with-replacement kernel makes, row by row in its order."""
    for row in prob:
        if not np.all(row >= 0):  # NaN fails here too, as in torch's kernel
            raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
        if not np.all(np.isfinite(row)):
            raise RuntimeError(
                "invalid multinomial distribution (encountering probability entry = infinity or NaN)"
            )
        if not row.sum() > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


def multinomial(
    prob: np.ndarray, num_samples: int, replacement: bool, engine: np.random.Generator
) -> np.ndarray:
    """``(rows, num_samples)`` int64 category indices drawn from each row of the 2-d float64 ``prob``.

    >>> import numpy as np
    >>> multinomial(np.array([[0.0, 1.0, 0.0]]), 2, True, np.random.default_rng(0)).tolist()
    [[1, 1]]
    """
    if not replacement or num_samples == 1:
        keys = prob / engine.exponential(size=prob.shape)
        if num_samples == 1:
            return np.argmax(keys, axis=-1)[:, None].astype(np.int64)
        return np.argsort(-keys, axis=-1, kind="stable")[:, :num_samples].astype(np.int64)
    cdf = np.cumsum(prob, axis=-1)
    cdf /= cdf[:, -1:]  # the last entry becomes exactly 1: a uniform draw in [0, 1) always lands
    draws = engine.random((prob.shape[0], num_samples))
    return np.stack([np.searchsorted(c, u, side="right") for c, u in zip(cdf, draws)]).astype(np.int64)
