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


# The samplers with one parameter per element (``_sampling.py``), over float64 host arrays.


def standard_gamma(engine: np.random.Generator, alpha: np.ndarray, tiny: float) -> np.ndarray:
    """Standard Gamma(``alpha``) draws, at least ``tiny`` (torch's clamp to the smallest normal float of the
    dtype, which also answers a non-positive or NaN concentration).

    >>> import numpy as np
    >>> standard_gamma(np.random.default_rng(0), np.array([0.0, np.nan]), 1e-38).tolist()
    [1e-38, 1e-38]
    """
    valid = alpha > 0
    drawn = np.where(valid, engine.standard_gamma(np.where(valid, alpha, 1.0)), 0.0)
    return np.maximum(drawn, tiny)


def dirichlet(engine: np.random.Generator, alpha: np.ndarray, tiny: float, below_one: float) -> np.ndarray:
    """Dirichlet draws along the last axis of ``alpha``: Gamma draws (each at least ``tiny``) over their sum,
    clamped to [``tiny``, ``below_one``] as torch's.

    >>> import numpy as np
    >>> dirichlet(np.random.default_rng(0), np.array([[1e-30, 1e-30]]), 1e-38, 1 - 2**-24).tolist()
    [[0.5, 0.5]]
    """
    gamma = standard_gamma(engine, alpha, tiny)
    return np.clip(gamma / gamma.sum(axis=-1, keepdims=True), tiny, below_one)


def poisson(engine: np.random.Generator, rate: np.ndarray) -> np.ndarray:
    """Poisson(``rate``) draws as floats (rates already checked non-negative; an infinite rate gives
    torch's int64 minimum).

    >>> import numpy as np
    >>> poisson(np.random.default_rng(0), np.array([0.0, np.inf])).tolist()
    [0.0, -9.223372036854776e+18]
    """
    finite = np.isfinite(rate)
    drawn = engine.poisson(np.where(finite, rate, 0.0)).astype(np.float64)
    return np.where(finite, drawn, float(np.iinfo(np.int64).min))


def binomial(engine: np.random.Generator, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """Binomial(``count``, ``prob``) draws as floats: counts are floored, a count below one or a probability
    at most zero gives 0, a NaN probability NaN, a probability above one ``count`` successes.

    >>> import numpy as np
    >>> binomial(np.random.default_rng(0), np.array([3.5, -1.0, 2.0]), np.array([1.0, 0.5, np.nan])).tolist()
    [3.0, 0.0, nan]
    """
    n = np.floor(np.where(count > 0, count, 0.0))
    p = np.where(np.isnan(prob), 0.0, np.clip(prob, 0.0, 1.0))
    drawn = engine.binomial(np.where(np.isfinite(n), n, 0).astype(np.int64), p).astype(np.float64)
    return np.where(np.isnan(prob), np.nan, drawn)
