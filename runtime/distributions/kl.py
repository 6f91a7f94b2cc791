"""``kl_divergence`` and its registry: ``register_kl(P, Q)`` adds the formula for a pair of classes, and
a lookup takes the most specific registered pair for the classes of ``p`` and ``q`` (by their method
resolution orders), warning when two pairs are equally specific."""

import functools
import warnings

_KL_REGISTRY = {}  # (type_p, type_q) -> fn(p, q)


def register_kl(type_p, type_q):
    """A decorator registering ``fn(p, q)`` as ``KL(p || q)`` for ``p`` of ``type_p``, ``q`` of ``type_q``
    (and their subclasses, unless a more specific pair is registered).

    >>> import yaten
    >>> import yaten.distributions as D
    >>> class Flat(D.Uniform):
    ...     pass
    >>> @register_kl(Flat, Flat)
    ... def _kl_flat(p, q):
    ...     return yaten.zeros(p.batch_shape)
    >>> D.kl_divergence(Flat(0.0, 1.0), Flat(0.0, 2.0)).item()
    0.0
    """

    def decorator(fn):
        _KL_REGISTRY[type_p, type_q] = fn
        _dispatch.cache_clear()
        return fn

    return decorator


@functools.cache
def _dispatch(type_p, type_q):
    matches = [(p, q) for p, q in _KL_REGISTRY if issubclass(type_p, p) and issubclass(type_q, q)]
    if not matches:
        return None
    rank_p = {c: i for i, c in enumerate(type_p.__mro__)}
    rank_q = {c: i for i, c in enumerate(type_q.__mro__)}
    by_p = min(matches, key=lambda m: (rank_p[m[0]], rank_q[m[1]]))
    by_q = min(matches, key=lambda m: (rank_q[m[1]], rank_p[m[0]]))
    if _KL_REGISTRY[by_p] is not _KL_REGISTRY[by_q]:
        warnings.warn(
            f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
            f"Please register_kl({by_p[0].__name__}, {by_q[1].__name__})",
            RuntimeWarning,
            stacklevel=3,
        )
    return _KL_REGISTRY[by_p]


def kl_divergence(p, q):
    """``KL(p || q)``, the Kullback-Leibler divergence of ``q`` from ``p``, per batch element.

    >>> import yaten.distributions as D
    >>> D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 1.0)).item()
    0.5
    """
    fn = _dispatch(type(p), type(q))
    if fn is None:
        raise NotImplementedError(
            f"No KL(p || q) is implemented for p type {p.__class__.__name__} and q type {q.__class__.__name__}"
        )
    return fn(p, q)
