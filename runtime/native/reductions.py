"""Reduction overloads that are other reductions with some arguments filled in."""

import yaten

from .._generated import ops as _ops  # (imported while ops loads; used at call time)


def var(self, unbiased=True):
    return yaten.var(self, None, correction=1 if unbiased else 0)


def var_dim(self, dim, unbiased=True, keepdim=False):
    return yaten.var(self, dim, correction=1 if unbiased else 0, keepdim=keepdim)


def std(self, unbiased=True):
    return yaten.std(self, None, correction=1 if unbiased else 0)


def std_dim(self, dim, unbiased=True, keepdim=False):
    return yaten.std(self, dim, correction=1 if unbiased else 0, keepdim=keepdim)


def all_(self):
    return _ops.all_dims(self, None, False)


def all_dim(self, dim, keepdim=False):
    return _ops.all_dims(self, (dim,), keepdim)


def any_(self):
    return _ops.any_dims(self, None, False)


def any_dim(self, dim, keepdim=False):
    return _ops.any_dims(self, (dim,), keepdim)


def softmax(self, dim, dtype=None):
    x = self if dtype is None else self.to(dtype)
    return _ops._softmax(x, dim, False)


def log_softmax(self, dim, dtype=None):
    x = self if dtype is None else self.to(dtype)
    return _ops._log_softmax(x, dim, False)


def max_other(self, other):
    return yaten.maximum(self, other)


def min_other(self, other):
    return yaten.minimum(self, other)
