"""``biject_to`` and ``transform_to``: from a constraint to a transform that maps the unconstrained
reals onto it, for optimizing constrained parameters in unconstrained space.

``biject_to(c)`` is a bijection (``biject_to(c).inv`` recovers the unconstrained value; HMC and
variational methods need the log-det-Jacobian); ``transform_to(c)`` need not be one and may be
cheaper (the simplex through a softmax rather than stick-breaking). Both are registries keyed on the
constraint's class; ``register`` adds a factory for a new one.

>>> import yaten
>>> from yaten.distributions import constraints
>>> t = biject_to(constraints.greater_than(1.0))
>>> t(yaten.tensor([0.0])).tolist(), t.inv(yaten.tensor([3.0])).tolist() == [float(yaten.tensor(2.0).log())]
([2.0], True)
"""

from numbers import Number

from . import constraints, transforms

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]


class ConstraintRegistry:
    """A table from constraint classes to factories ``constraint -> Transform``."""

    def __init__(self):
        self._registry = {}

    def register(self, constraint, factory=None):
        """Registers ``factory`` for ``constraint`` (a Constraint subclass, or an instance, which stands
        for its class); used as a decorator when ``factory`` is omitted.

        >>> reg = ConstraintRegistry()
        >>> @reg.register(constraints.real)
        ... def _to_real(c):
        ...     return transforms.identity_transform
        >>> reg(constraints.real) is transforms.identity_transform
        True
        """
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not (isinstance(constraint, type) and issubclass(constraint, constraints.Constraint)):
            raise TypeError(
                f"Expected constraint to be either a Constraint subclass or instance, but got {constraint}"
            )
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint):
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(f"Cannot transform {type(constraint).__name__} constraints") from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _both(constraint_class):
    """Registers one factory in both registries."""

    def register(factory):
        biject_to.register(constraint_class, factory)
        transform_to.register(constraint_class, factory)
        return factory

    return register


@_both(constraints._Real)
def _to_real(constraint):
    return transforms.identity_transform


@_both(constraints._GreaterThan)
@_both(constraints._GreaterThanEq)
def _to_greater_than(constraint):
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.lower_bound, 1)]
    )


@_both(constraints._LessThan)
def _to_less_than(constraint):
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.upper_bound, -1)]
    )


@_both(constraints._Interval)
@_both(constraints._HalfOpenInterval)
def _to_interval(constraint):
    low, high = constraint.lower_bound, constraint.upper_bound
    if isinstance(low, Number) and isinstance(high, Number) and low == 0 and high == 1:
        return transforms.SigmoidTransform()
    return transforms.ComposeTransform(
        [transforms.SigmoidTransform(), transforms.AffineTransform(low, high - low)]
    )


@_both(constraints._CorrCholesky)
def _to_corr_cholesky(constraint):
    return transforms.CorrCholeskyTransform()


@biject_to.register(constraints._Simplex)
def _biject_to_simplex(constraint):
    return transforms.StickBreakingTransform()


@transform_to.register(constraints._Simplex)
def _transform_to_simplex(constraint):
    return transforms.SoftmaxTransform()


@transform_to.register(constraints._LowerCholesky)
def _transform_to_lower_cholesky(constraint):
    return transforms.LowerCholeskyTransform()


@transform_to.register(constraints._PositiveDefinite)
@transform_to.register(constraints._PositiveSemidefinite)
def _transform_to_positive_definite(constraint):
    return transforms.PositiveDefiniteTransform()


def _register_built_from_others(registry):
    """The factories for constraints made of other constraints: each part through ``registry``."""

    @registry.register(constraints._IndependentConstraint)
    def _to_independent(constraint):
        base = registry(constraint.base_constraint)
        return transforms.IndependentTransform(base, constraint.reinterpreted_batch_ndims)

    @registry.register(constraints._Cat)
    def _to_cat(constraint):
        return transforms.CatTransform(
            [registry(c) for c in constraint.cseq], constraint.dim, constraint.lengths
        )

    @registry.register(constraints._Stack)
    def _to_stack(constraint):
        return transforms.StackTransform([registry(c) for c in constraint.cseq], constraint.dim)


_register_built_from_others(biject_to)
_register_built_from_others(transform_to)
