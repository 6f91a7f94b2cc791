"""Constraints: the sets a distribution's parameters and values live in (``torch.distributions.constraints``).

A constraint answers ``check(value)`` with a bool tensor over the value's batch dimensions: its last
``event_dim`` dimensions form one event and are reduced. ``is_discrete`` says whether the set is
countable. The public objects and class names are torch's, so ``repr`` and pickles name the same things.

>>> import yaten
>>> from yaten.distributions import constraints
>>> constraints.positive
GreaterThan(lower_bound=0.0)
>>> constraints.simplex.check(yaten.tensor([[0.2, 0.8], [0.5, 0.6]])).tolist()
[True, False]
"""

import yaten

__all__ = [
    "Constraint",
    "MixtureSameFamilyConstraint",
    "boolean",
    "cat",
    "corr_cholesky",
    "dependent",
    "dependent_property",
    "greater_than",
    "greater_than_eq",
    "half_open_interval",
    "independent",
    "integer_interval",
    "interval",
    "is_dependent",
    "less_than",
    "lower_cholesky",
    "lower_triangular",
    "multinomial",
    "nonnegative",
    "nonnegative_integer",
    "one_hot",
    "positive",
    "positive_definite",
    "positive_integer",
    "positive_semidefinite",
    "real",
    "real_vector",
    "simplex",
    "square",
    "stack",
    "symmetric",
    "unit_interval",
]


class Constraint:
    """The base of every constraint: a set with ``check``, ``event_dim`` and ``is_discrete``."""

    is_discrete = False
    event_dim = 0

    def check(self, value):
        """A bool tensor: whether each event of ``value`` lies in the set."""
        raise NotImplementedError

    def __repr__(self):
        # torch's names drop the leading underscore of the class: _Real -> Real()
        return type(self).__name__[1:] + "()"


class _Dependent(Constraint):
    """A placeholder for a set that depends on other arguments (a ``Uniform``'s support); it cannot
    check values. Calling it makes a copy with ``is_discrete``/``event_dim`` set."""

    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    @property
    def is_discrete(self):
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self):
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        if is_discrete is NotImplemented:
            is_discrete = self._is_discrete
        if event_dim is NotImplemented:
            event_dim = self._event_dim
        return _Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint):
    """Whether ``constraint`` is a ``dependent`` placeholder.

    >>> is_dependent(dependent), is_dependent(real)
    (True, False)
    """
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    """A property of a distribution class whose value is a constraint that depends on the instance;
    read on the class it is a ``dependent`` placeholder (with known ``is_discrete``/``event_dim``)."""

    def __init__(self, fn=None, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        property.__init__(self, fn)
        _Dependent.__init__(self, is_discrete=is_discrete, event_dim=event_dim)

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


class _Wrapping(Constraint):
    """A constraint defined from ``base_constraint``, discrete when it is."""

    def __init__(self, base_constraint):
        if not isinstance(base_constraint, Constraint):
            raise TypeError(f"expected a Constraint, got {type(base_constraint).__name__}")
        self.base_constraint = base_constraint

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete


class _IndependentConstraint(_Wrapping):
    """``base_constraint`` with its ``reinterpreted_batch_ndims`` rightmost batch dimensions taken as
    part of the event (all of them must pass)."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        super().__init__(base_constraint)
        if not isinstance(reinterpreted_batch_ndims, int) or reinterpreted_batch_ndims < 0:
            raise ValueError(
                f"reinterpreted_batch_ndims must be a non-negative int, got {reinterpreted_batch_ndims}"
            )
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def event_dim(self):
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        n = self.reinterpreted_batch_ndims
        if result.dim() < n:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        return result.reshape(tuple(result.shape[: result.dim() - n]) + (-1,)).all(-1)

    def __repr__(self):
        return f"{type(self).__name__[1:]}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class MixtureSameFamilyConstraint(_Wrapping):
    """A ``MixtureSameFamily``'s support: a value is in it when it is in every component's support."""

    @property
    def event_dim(self):
        return self.base_constraint.event_dim

    def check(self, value):
        result = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        return result.reshape(tuple(result.shape[: result.dim() - 1]) + (-1,)).all(-1)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_constraint!r})"


# --- sets of numbers -----------------------------------------------------------------------------


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _Real(Constraint):
    def check(self, value):
        return value == value  # False only at NaN


class _Bounded(Constraint):
    """A set given by a lower and/or an upper bound (``_bounds`` names which, in constructor order)."""

    _bounds = ("lower_bound", "upper_bound")

    def __init__(self, *bounds):
        for name, bound in zip(self._bounds, bounds, strict=True):
            setattr(self, name, bound)

    def __repr__(self):
        args = ", ".join(f"{name}={getattr(self, name)}" for name in self._bounds)
        return f"{type(self).__name__[1:]}({args})"


class _GreaterThan(_Bounded):
    _bounds = ("lower_bound",)

    def check(self, value):
        return self.lower_bound < value


class _GreaterThanEq(_Bounded):
    _bounds = ("lower_bound",)

    def check(self, value):
        return self.lower_bound <= value


class _LessThan(_Bounded):
    _bounds = ("upper_bound",)

    def check(self, value):
        return value < self.upper_bound


class _Interval(_Bounded):
    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)


class _HalfOpenInterval(_Bounded):
    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _IntegerInterval(_Bounded):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)


class _IntegerGreaterThan(_Bounded):
    is_discrete = True
    _bounds = ("lower_bound",)

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)


class _IntegerLessThan(_Bounded):
    is_discrete = True
    _bounds = ("upper_bound",)

    def check(self, value):
        return (value % 1 == 0) & (value <= self.upper_bound)


# --- sets of vectors -----------------------------------------------------------------------------


class _Simplex(Constraint):
    """Nonnegative vectors summing to 1 (within 1e-6)."""

    event_dim = 1

    def check(self, value):
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value):
        return ((value == 0) | (value == 1)).all(-1) & (value.sum(-1) == 1)


class _Multinomial(Constraint):
    """Nonnegative count vectors whose total is at most ``upper_bound``."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return (value >= 0).all(-1) & (value.sum(-1) <= self.upper_bound)


# --- sets of matrices ----------------------------------------------------------------------------


def _every_entry(matrix_check):
    """Reduces a per-entry bool over the last two dimensions."""
    return matrix_check.all(-1).all(-1)


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        return yaten.full(tuple(value.shape[:-2]), value.shape[-2] == value.shape[-1], dtype=yaten.bool)


class _Symmetric(_Square):
    def check(self, value):
        square = super().check(value)
        if not bool(square.all()):
            return square
        return _every_entry(yaten.isclose(value, value.mT, atol=1e-6))


class _PositiveSemidefinite(_Symmetric):
    def check(self, value):
        symmetric = super().check(value)
        if not bool(symmetric.all()):
            return symmetric
        return (yaten.linalg.eigvalsh(value) >= 0).all(-1)


class _PositiveDefinite(_Symmetric):
    def check(self, value):
        symmetric = super().check(value)
        if not bool(symmetric.all()):
            return symmetric
        return yaten.linalg.cholesky_ex(value).info == 0


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        return _every_entry(value.tril() == value)


class _LowerCholesky(_LowerTriangular):
    """Lower-triangular matrices with a positive diagonal."""

    def check(self, value):
        return super().check(value) & (value.diagonal(dim1=-2, dim2=-1) > 0).all(-1)


class _CorrCholesky(_LowerCholesky):
    """Cholesky factors of correlation matrices: lower Cholesky with unit-norm rows."""

    def check(self, value):
        tol = yaten.finfo(value.dtype).eps * value.shape[-1] * 10
        unit_rows = ((yaten.linalg.norm(value.detach(), dim=-1) - 1).abs() <= tol).all(-1)
        return super().check(value) & unit_rows


# --- sets built from others ----------------------------------------------------------------------


class _Pieces(Constraint):
    """Constraints ``cseq`` applied to pieces of a value along ``dim``: discrete when any is, with the
    largest event of theirs."""

    def __init__(self, cseq, dim=0):
        self.cseq = list(cseq)
        self.dim = dim

    @property
    def is_discrete(self):
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self):
        return max(c.event_dim for c in self.cseq)


class _Cat(_Pieces):
    """Constraints applied to consecutive slices (of ``lengths``, default 1) along ``dim``."""

    def __init__(self, cseq, dim=0, lengths=None):
        super().__init__(cseq, dim)
        self.lengths = [1] * len(self.cseq) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.cseq):
            raise ValueError(f"cat: {len(self.cseq)} constraints but {len(self.lengths)} lengths")

    def check(self, value):
        starts = [sum(self.lengths[:i]) for i in range(len(self.lengths))]
        parts = [c.check(value.narrow(self.dim, s, n)) for c, s, n in zip(self.cseq, starts, self.lengths)]
        return yaten.cat(parts, self.dim)


class _Stack(_Pieces):
    """Constraints applied to the successive slices along ``dim``."""

    @property
    def event_dim(self):
        # stacking along a dimension inside the pieces' events adds one to the event
        dim = super().event_dim
        return dim + 1 if self.dim + dim < 0 else dim

    def check(self, value):
        parts = [c.check(value.select(self.dim, i)) for i, c in enumerate(self.cseq)]
        return yaten.stack(parts, self.dim)


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
multinomial = _Multinomial
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
half_open_interval = _HalfOpenInterval
simplex = _Simplex()
lower_triangular = _LowerTriangular()
lower_cholesky = _LowerCholesky()
corr_cholesky = _CorrCholesky()
square = _Square()
symmetric = _Symmetric()
positive_semidefinite = _PositiveSemidefinite()
positive_definite = _PositiveDefinite()
cat = _Cat
stack = _Stack
