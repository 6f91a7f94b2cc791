"""``Transform``, the base of the invertible maps between constrained and unconstrained spaces, and its
inverse view ``_InverseTransform`` (what ``t.inv`` returns).

A transform knows its ``domain`` and ``codomain`` (constraints), whether it is ``bijective``, its
``sign`` (of the derivative, for monotone maps), the ``log_abs_det_jacobian`` of the map, and how it
changes shapes. With ``cache_size=1`` it remembers its last pair ``(x, y)``, so ``t.inv(t(x))`` returns
``x`` itself, by identity, whether or not the map is numerically invertible there.
"""

import weakref

from . import constraints


class Transform:
    """An invertible (or at least forward-computable) map ``y = t(x)``.

    >>> import yaten
    >>> from yaten.distributions.transforms import ExpTransform
    >>> t = ExpTransform(cache_size=1)
    >>> x = yaten.tensor([0.0, 1.0]); y = t(x)
    >>> t.inv(y) is x, t.inv.inv is t
    (True, True)
    """

    bijective = False
    domain = constraints.real
    codomain = constraints.real

    def __init__(self, cache_size=0):
        if cache_size not in (0, 1):
            raise ValueError("cache_size must be 0 or 1")
        self._cache_size = cache_size
        self._inv = None
        self._cached_x_y = None, None

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_inv"] = None  # a weak reference does not pickle; the inverse is rebuilt on demand
        return state

    @property
    def event_dim(self):
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise ValueError("Please use either .domain.event_dim or .codomain.event_dim")

    @property
    def inv(self):
        """The inverse transform (held weakly, so a transform and its inverse do not keep each other)."""
        inv = self._inv() if self._inv is not None else None
        if inv is None:
            inv = _InverseTransform(self)
            self._inv = weakref.ref(inv)
        return inv

    @property
    def sign(self):
        """The sign of the derivative, for transforms that are monotone elementwise."""
        raise NotImplementedError

    def with_cache(self, cache_size=1):
        """This transform with the given cache size (itself when it already has it)."""
        if self._cache_size == cache_size:
            return self
        if type(self).__init__ is Transform.__init__:
            return type(self)(cache_size=cache_size)
        raise NotImplementedError(f"{type(self)}.with_cache is not implemented")

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __call__(self, x):
        return self._through_cache(x, self._call, 0)

    def _inv_call(self, y):
        return self._through_cache(y, self._inverse, 1)

    def _through_cache(self, value, fn, side):
        """``fn(value)``, or the other half of the cached pair when ``value`` is its ``side`` half."""
        if not self._cache_size:
            return fn(value)
        pair = self._cached_x_y
        if value is pair[side]:
            return pair[1 - side]
        result = fn(value)
        self._cached_x_y = (value, result) if side == 0 else (result, value)
        return result

    def _call(self, x):
        raise NotImplementedError

    def _inverse(self, y):
        raise NotImplementedError

    def log_abs_det_jacobian(self, x, y):
        """``log |det dy/dx|`` at ``x`` (``y = t(x)``), summed over the event dimensions."""
        raise NotImplementedError

    def forward_shape(self, shape):
        """The shape of ``t(x)`` for an ``x`` of ``shape``."""
        return shape

    def inverse_shape(self, shape):
        """The shape of ``t.inv(y)`` for a ``y`` of ``shape``."""
        return shape

    def __repr__(self):
        return type(self).__name__ + "()"


class _Parameterless(Transform):
    """A transform without parameters: any two of the same class are equal."""

    def __eq__(self, other):
        return isinstance(other, type(self))


class _InverseTransform(Transform):
    """The inverse of a transform: it calls the transform's inverse, swaps domain and codomain and
    negates the log-det-Jacobian."""

    def __init__(self, transform):
        super().__init__(cache_size=transform._cache_size)
        self._inv = transform  # held strongly: the inverse keeps its transform alive

    def __getstate__(self):
        return self.__dict__.copy()

    @property
    def inv(self):
        return self._inv

    @property
    def domain(self):
        return self._inv.codomain

    @property
    def codomain(self):
        return self._inv.domain

    @property
    def bijective(self):
        return self._inv.bijective

    @property
    def sign(self):
        return self._inv.sign

    def with_cache(self, cache_size=1):
        return self._inv.with_cache(cache_size).inv

    def __eq__(self, other):
        return isinstance(other, _InverseTransform) and self._inv == other._inv

    def __repr__(self):
        return f"{type(self).__name__}({self._inv!r})"

    def __call__(self, x):
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    def forward_shape(self, shape):
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape):
        return self._inv.forward_shape(shape)
