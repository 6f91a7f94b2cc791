"""``torch.distributions.transforms``: the transforms built from other transforms (composition, event
reinterpretation, reshaping, concatenation and stacking), and, re-exported at this class path, the
elementwise and vector transforms of ``elementwise_transforms`` and ``vector_transforms``.

>>> import yaten
>>> t = ComposeTransform([AffineTransform(0.0, 2.0), ExpTransform()])
>>> t(yaten.tensor([0.0, 1.0])).tolist() == [1.0, float(yaten.tensor(2.0).exp())]
True
>>> round(t.inv(t(yaten.tensor([0.5]))).item(), 6)
0.5
"""

import functools
import operator
import weakref

import yaten

from . import constraints
from .elementwise_transforms import (
    AbsTransform,
    AffineTransform,
    CumulativeDistributionTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
)
from .transform import Transform, _InverseTransform
from .utils import _sum_rightmost
from .vector_transforms import (
    CorrCholeskyTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    SoftmaxTransform,
    StickBreakingTransform,
)

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "CatTransform",
    "ComposeTransform",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "ExpTransform",
    "IndependentTransform",
    "LowerCholeskyTransform",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StackTransform",
    "StickBreakingTransform",
    "TanhTransform",
    "Transform",
    "identity_transform",
]


class ComposeTransform(Transform):
    """The transforms of ``parts`` applied in order (an empty list is the identity).

    Its domain is the first part's, its codomain the last part's, each widened with as many event
    dimensions as the parts in between consume.
    """

    def __init__(self, parts, cache_size=0):
        if cache_size:
            parts = [part.with_cache(cache_size) for part in parts]
        super().__init__(cache_size=cache_size)
        self.parts = list(parts)

    def __eq__(self, other):
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    @property
    def domain(self):
        if not self.parts:
            return constraints.real
        return _widened(self.parts[0].domain, _event_dim(self.parts[::-1], "codomain", "domain"))

    @property
    def codomain(self):
        if not self.parts:
            return constraints.real
        return _widened(self.parts[-1].codomain, _event_dim(self.parts, "domain", "codomain"))

    @property
    def bijective(self):
        return all(p.bijective for p in self.parts)

    @property
    def sign(self):
        return functools.reduce(operator.mul, (p.sign for p in self.parts), 1)

    @property
    def inv(self):
        inv = self._inv() if self._inv is not None else None
        if inv is None:
            inv = ComposeTransform([p.inv for p in reversed(self.parts)])
            self._inv = weakref.ref(inv)
            inv._inv = weakref.ref(self)
        return inv

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else ComposeTransform(self.parts, cache_size=cache_size)

    def _call(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def _inverse(self, y):
        return self.inv(y)

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return yaten.zeros_like(x)
        xs = [x]
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        # each part's term is summed over the event dimensions the whole has and the part does not
        terms, event_dim = [], self.domain.event_dim
        for part, a, b in zip(self.parts, xs[:-1], xs[1:]):
            terms.append(_sum_rightmost(part.log_abs_det_jacobian(a, b), event_dim - part.domain.event_dim))
            event_dim += part.codomain.event_dim - part.domain.event_dim
        return functools.reduce(operator.add, terms)

    def forward_shape(self, shape):
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape):
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self):
        inner = ",\n    ".join(repr(p) for p in self.parts)
        return f"{type(self).__name__}(\n    {inner}\n)"


def _event_dim(parts, into, out_of):
    """The event dimensions the composed map has at the ``out_of`` end of ``parts[-1]``, walking from
    ``parts[0]``'s ``into`` end: each part changes the count by what it adds, and needs at least its own."""
    dim = getattr(parts[0], into).event_dim
    for part in parts:
        dim += getattr(part, out_of).event_dim - getattr(part, into).event_dim
        dim = max(dim, getattr(part, out_of).event_dim)
    return dim


def _widened(constraint, event_dim):
    if event_dim > constraint.event_dim:
        return constraints.independent(constraint, event_dim - constraint.event_dim)
    return constraint


identity_transform = ComposeTransform([])


class IndependentTransform(Transform):
    """``base_transform`` with its ``reinterpreted_batch_ndims`` rightmost batch dimensions taken into
    the event: the log-det-Jacobian is summed over them.

    >>> t = IndependentTransform(ExpTransform(), 1)
    >>> t.log_abs_det_jacobian(yaten.tensor([1.0, 2.0]), None).tolist()
    3.0
    """

    def __init__(self, base_transform, reinterpreted_batch_ndims, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(
            self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size
        )

    @property
    def domain(self):
        return constraints.independent(self.base_transform.domain, self.reinterpreted_batch_ndims)

    @property
    def codomain(self):
        return constraints.independent(self.base_transform.codomain, self.reinterpreted_batch_ndims)

    @property
    def bijective(self):
        return self.base_transform.bijective

    @property
    def sign(self):
        return self.base_transform.sign

    def _call(self, x):
        if x.dim() < self.domain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform(x)

    def _inverse(self, y):
        if y.dim() < self.codomain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        return _sum_rightmost(self.base_transform.log_abs_det_jacobian(x, y), self.reinterpreted_batch_ndims)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_transform!r}, {self.reinterpreted_batch_ndims})"

    def forward_shape(self, shape):
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape):
        return self.base_transform.inverse_shape(shape)


class ReshapeTransform(Transform):
    """Reshapes the rightmost ``in_shape`` of a value to ``out_shape`` (the same number of elements).

    >>> ReshapeTransform((4,), (2, 2))(yaten.zeros(3, 4)).shape
    yaten.Size([3, 2, 2])
    """

    bijective = True

    def __init__(self, in_shape, out_shape, cache_size=0):
        self.in_shape = yaten.Size(in_shape)
        self.out_shape = yaten.Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError("in_shape, out_shape have different numbers of elements")
        super().__init__(cache_size=cache_size)

    @property
    def domain(self):
        return constraints.independent(constraints.real, len(self.in_shape))

    @property
    def codomain(self):
        return constraints.independent(constraints.real, len(self.out_shape))

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x):
        return x.reshape(_batch(x.shape, self.in_shape) + self.out_shape)

    def _inverse(self, y):
        return y.reshape(_batch(y.shape, self.out_shape) + self.in_shape)

    def log_abs_det_jacobian(self, x, y):
        return x.new_zeros(_batch(x.shape, self.in_shape))

    def forward_shape(self, shape):
        return _reshaped(shape, self.in_shape, self.out_shape)

    def inverse_shape(self, shape):
        return _reshaped(shape, self.out_shape, self.in_shape)


def _batch(shape, event):
    return shape[: len(shape) - len(event)]


def _reshaped(shape, event, new_event):
    if len(shape) < len(event):
        raise ValueError("Too few dimensions on input")
    cut = len(shape) - len(event)
    if tuple(shape[cut:]) != tuple(event):
        raise ValueError(f"Shape mismatch: expected {shape[cut:]} but got {event}")
    return yaten.Size(tuple(shape[:cut]) + tuple(new_event))


class _Sliced(Transform):
    """A list of transforms each applied to its own slice of the value along ``dim``; the subclass
    says how the value is cut (``_slices``) and put back together (``_join``)."""

    def __init__(self, tseq, dim=0, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.transforms = [t.with_cache(cache_size) for t in tseq]
        self.dim = dim

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    def _map(self, value, fns):
        if not -value.dim() <= self.dim < value.dim():
            raise ValueError(f"dim {self.dim} is out of range for a value of {value.dim()} dimensions")
        return self._join([fn(part) for fn, part in zip(fns, self._slices(value), strict=True)])

    def _call(self, x):
        return self._map(x, self.transforms)

    def _inverse(self, y):
        return self._map(y, [t.inv for t in self.transforms])


class CatTransform(_Sliced):
    """Applies ``tseq[i]`` to the i-th consecutive slice (of ``lengths[i]``, default 1) along ``dim``.

    >>> t = CatTransform([ExpTransform(), AffineTransform(0.0, 2.0)], dim=0, lengths=[1, 2])
    >>> t(yaten.tensor([0.0, 1.0, 2.0])).tolist()
    [1.0, 2.0, 4.0]
    """

    def __init__(self, tseq, dim=0, lengths=None, cache_size=0):
        super().__init__(tseq, dim, cache_size)
        self.lengths = [1] * len(self.transforms) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise ValueError(
                f"CatTransform: {len(self.transforms)} transforms but {len(self.lengths)} lengths"
            )

    @property
    def event_dim(self):
        return max(t.event_dim for t in self.transforms)

    @property
    def length(self):
        return sum(self.lengths)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size=cache_size)

    @property
    def domain(self):
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @property
    def codomain(self):
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)

    def _slices(self, value):
        if value.size(self.dim) != self.length:
            raise ValueError(
                f"CatTransform expects size {self.length} along dim {self.dim}, got {value.size(self.dim)}"
            )
        starts = [sum(self.lengths[:i]) for i in range(len(self.lengths))]
        return [value.narrow(self.dim, s, n) for s, n in zip(starts, self.lengths)]

    def _join(self, parts):
        return yaten.cat(parts, dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        terms = [
            _sum_rightmost(t.log_abs_det_jacobian(a, b), self.event_dim - t.event_dim)
            for t, a, b in zip(self.transforms, self._slices(x), self._slices(y))
        ]
        dim = (self.dim - x.dim() if self.dim >= 0 else self.dim) + self.event_dim
        # a slicing dimension inside the batch keeps its slices apart; one inside the event sums them
        return yaten.cat(terms, dim=dim) if dim < 0 else functools.reduce(operator.add, terms)


class StackTransform(_Sliced):
    """Applies ``tseq[i]`` to the i-th slice along ``dim`` (whose size is ``len(tseq)``).

    >>> t = StackTransform([ExpTransform(), AffineTransform(0.0, 2.0)], dim=0)
    >>> t(yaten.tensor([0.0, 1.0])).tolist()
    [1.0, 2.0]
    """

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size=cache_size)

    @property
    def domain(self):
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @property
    def codomain(self):
        return constraints.stack([t.codomain for t in self.transforms], self.dim)

    def _slices(self, value):
        return [value.select(self.dim, i) for i in range(value.size(self.dim))]

    def _join(self, parts):
        return yaten.stack(parts, dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        return self._join(
            [
                t.log_abs_det_jacobian(a, b)
                for t, a, b in zip(self.transforms, self._slices(x), self._slices(y))
            ]
        )


# pickles name these classes at torch's class path, torch.distributions.transforms
for _cls in (Transform, _InverseTransform, *(globals()[_n] for _n in __all__ if _n != "identity_transform")):
    _cls.__module__ = __name__
