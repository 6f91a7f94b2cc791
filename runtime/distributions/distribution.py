"""``Distribution``, the base of every distribution: its batch and event shapes, sampling through
``rsample``, ``expand``, argument and sample validation with torch's messages, and the quantities a
subclass defines (``log_prob``, ``entropy``, moments, ``cdf``/``icdf``, ``enumerate_support``)."""

import warnings

import yaten

from . import constraints
from .utils import lazy_property


class Distribution:
    """A probability distribution over values of shape ``batch_shape + event_shape``: ``batch_shape``
    indexes independent distributions, ``event_shape`` is the shape of one draw.

    >>> d = yaten.distributions.Normal(yaten.zeros(2), yaten.ones(2))
    >>> d.batch_shape, d.event_shape, tuple(d.sample((3,)).shape)
    (yaten.Size([2]), yaten.Size([]), (3, 2))
    """

    has_rsample = False
    has_enumerate_support = False
    _shared_over_batch = ()  # attributes that expand() keeps as they are (not batch-shaped)
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value):
        """Whether distributions validate their arguments and samples unless told otherwise (the default
        is on, as Python's ``__debug__``).

        >>> Distribution.set_default_validate_args(True)
        """
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        self._batch_shape = yaten.Size(batch_shape)
        self._event_shape = yaten.Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if not self._validate_args:
            return
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:
            arg_constraints = {}
            warnings.warn(
                f"{self.__class__} does not define `arg_constraints`. Please set `arg_constraints = {{}}` "
                "or initialize the distribution with `validate_args=False` to turn off validation.",
                stacklevel=2,
            )
        for name, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            if name not in self.__dict__ and isinstance(getattr(type(self), name, None), lazy_property):
                continue  # the parameter was given in its other form (probs for logits, ...)
            value = getattr(self, name)
            if not bool(constraint.check(value).all()):
                raise ValueError(
                    f"Expected parameter {name} (Tensor of shape {tuple(value.shape)}) of distribution "
                    f"{self!r} to satisfy the constraint {constraint!r}, but found invalid values:\n{value}"
                )

    @property
    def batch_shape(self):
        """The shape over which the parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self):
        """The shape of a single sample."""
        return self._event_shape

    @property
    def arg_constraints(self):
        """The constraint each parameter satisfies, by name."""
        raise NotImplementedError

    @property
    def support(self):
        """The constraint the samples satisfy."""
        raise NotImplementedError

    def expand(self, batch_shape, _instance=None):
        """A distribution of the same parameters broadcast to ``batch_shape`` (tensor views, no copies).

        >>> yaten.distributions.Normal(0.0, 1.0).expand((2, 3)).batch_shape
        yaten.Size([2, 3])
        """
        if type(self) is Distribution:
            raise NotImplementedError
        batch_shape = yaten.Size(batch_shape)
        new = _instance if _instance is not None else type(self).__new__(type(self))
        old = len(self._batch_shape)
        for name, value in self.__dict__.items():
            if name in self._shared_over_batch:
                pass
            elif yaten.is_tensor(value):
                value = value.expand(batch_shape + value.shape[old:])
            elif isinstance(value, Distribution):  # a wrapped one: its extra batch dimensions stay
                value = value.expand(batch_shape + value.batch_shape[old:])
            new.__dict__[name] = value
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _get_checked_instance(self, cls, _instance=None):
        """The object a subclass's own ``expand`` fills in: ``_instance``, else a new uninitialised one
        of this class (torch's NotImplementedError when the class has its own ``__init__`` and ``cls``'s
        ``expand``)."""
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom __init__ "
                "method must also define a custom .expand() method."
            )
        return self.__new__(type(self)) if _instance is None else _instance

    def _extended_shape(self, sample_shape=()):
        """The shape of ``sample(sample_shape)``: ``sample_shape + batch_shape + event_shape``."""
        return yaten.Size(sample_shape) + self._batch_shape + self._event_shape

    @property
    def mean(self):
        """The mean of each distribution of the batch."""
        raise NotImplementedError

    @property
    def mode(self):
        """The most likely value of each distribution of the batch."""
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self):
        """The variance of each distribution of the batch."""
        raise NotImplementedError

    @property
    def stddev(self):
        """The standard deviation: the square root of the variance."""
        return self.variance.sqrt()

    def sample(self, sample_shape=()):
        """Draws of shape ``sample_shape + batch_shape + event_shape``, outside the autograd graph."""
        with yaten.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()):
        """Reparameterized draws: differentiable with respect to the parameters."""
        raise NotImplementedError

    def sample_n(self, n):
        """``sample((n,))``, under a FutureWarning as torch's."""
        warnings.warn(
            "`sample_n(n)` will be deprecated. Use `sample((n,))` instead.", FutureWarning, stacklevel=2
        )
        return self.sample((n,))

    def log_prob(self, value):
        """The log of the density (or mass) at ``value``."""
        raise NotImplementedError

    def cdf(self, value):
        """The cumulative distribution function at ``value``."""
        raise NotImplementedError

    def icdf(self, value):
        """The inverse of the cumulative distribution function at ``value``."""
        raise NotImplementedError

    def enumerate_support(self, expand=True):
        """Every value of a discrete support along a new leading dimension, broadcast over the batch
        when ``expand``, else of size 1 in each batch dimension."""
        raise NotImplementedError

    def entropy(self):
        """The entropy of each distribution of the batch."""
        raise NotImplementedError

    def perplexity(self):
        """``exp(entropy())``."""
        return yaten.exp(self.entropy())

    def _validate_sample(self, value):
        """Raises torch's ValueError when ``value`` is not a tensor, does not broadcast with
        ``batch_shape + event_shape`` or lies outside the support."""
        if not yaten.is_tensor(value):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = value.dim() - len(self._event_shape)
        if value.shape[start:] != self._event_shape:
            raise ValueError(
                f"The right-most size of value must match event_shape: {value.shape} vs {self._event_shape}."
            )
        actual, expected = value.shape, self._batch_shape + self._event_shape
        if any(i != 1 and j != 1 and i != j for i, j in zip(reversed(actual), reversed(expected))):
            raise ValueError(
                f"Value is not broadcastable with batch_shape+event_shape: {actual} vs {expected}."
            )
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(
                f"{self.__class__} does not define `support` to enable sample validation. Please initialize "
                "the distribution with `validate_args=False` to turn off validation.",
                stacklevel=2,
            )
            return
        if not bool(support.check(value).all()):
            raise ValueError(
                f"Expected value argument (Tensor of shape {tuple(value.shape)}) to be within the support "
                f"({support!r}) of the distribution {self!r}, but found invalid values:\n{value}"
            )

    def __repr__(self):
        shown = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(
            f"{k}: {self.__dict__[k] if self.__dict__[k].numel() == 1 else self.__dict__[k].size()}"
            for k in shown
        )
        return f"{self.__class__.__name__}({args})"
