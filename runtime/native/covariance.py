"""Covariance and correlation of variables observed together (``cov``, ``corrcoef``), as ATen's
Correlation.cpp: rows are variables, columns observations, with frequency and importance weights."""

import warnings

import yaten

from .._dtype import LEGACY_NAME


def _check_weights(name, w, n, integral):
    if w.ndim > 1:
        raise RuntimeError(
            f"cov(): expected {name} to have one or fewer dimensions but got {name} with {w.ndim} dimensions"
        )
    if integral and w.dtype.kind != "i":
        raise RuntimeError(
            f"cov(): expected {name} to have integral dtype but got {name} with {LEGACY_NAME[w.dtype]} dtype"
        )
    if not integral and not w.dtype.is_floating_point:
        raise RuntimeError(
            f"cov(): expected {name} to have floating point dtype but got {name} with {LEGACY_NAME[w.dtype]} dtype"
        )
    if w.numel() != n:
        raise RuntimeError(
            f"cov(): expected {name} to have the same numel as there are observations in the input but got "
            f"{w.numel()} != {n}"
        )
    if n and bool((w < 0).any()):
        raise RuntimeError(f"cov(): {name} cannot be negative")


def cov(self, correction=1, fweights=None, aweights=None):
    if self.ndim > 2:
        raise RuntimeError(
            f"cov(): expected input to have two or fewer dimensions but got an input with {self.ndim} dimensions"
        )
    if self.dtype is yaten.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = self.reshape(1, -1) if self.ndim < 2 else self
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights("fweights", fweights, n, integral=True)
        w = fweights
    if aweights is not None:
        _check_weights("aweights", aweights, n, integral=False)
        w = aweights if w is None else w * aweights
    w_sum = yaten.tensor(n, device=x.device) if w is None else w.sum()
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x if w is None else x * w).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm = w_sum - correction
    if bool(norm <= 0):
        warnings.warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of observations.",
            UserWarning,
            stacklevel=4,
        )
        norm = yaten.zeros_like(norm)
    centered = x - avg.unsqueeze(1)
    c = yaten.mm(centered, (centered if w is None else centered * w).t())
    return yaten.true_divide(c, norm).squeeze()


def corrcoef(self):
    if self.ndim > 2:
        raise RuntimeError(
            f"corrcoef(): expected input to have two or fewer dimensions but got an input with {self.ndim} dimensions"
        )
    c = cov(self)
    if c.ndim == 0:  # one variable: nan where its variance is nan, inf or 0, else 1
        return c / c
    stddev = c.diagonal().sqrt()
    return (c / stddev.reshape(-1, 1) / stddev.reshape(1, -1)).clip(-1, 1)
