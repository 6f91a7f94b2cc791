"""Distance functions of ``torch.nn.functional``: ``normalize``, ``cosine_similarity``,
``pairwise_distance``."""

import yaten as _yaten


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """``input`` divided by its ``p``-norm over ``dim`` (at least ``eps``).

    >>> import yaten
    >>> yaten.nn.functional.normalize(yaten.tensor([[3.0, 4.0]]))
    tensor([[0.6000, 0.8000]])
    """
    if out is None:
        denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denom
    denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return _yaten.div(input, denom, out=out)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim`` (broadcast).

    >>> import yaten
    >>> yaten.nn.functional.cosine_similarity(yaten.tensor([[1.0, 0.0]]), yaten.tensor([[1.0, 1.0]]))
    tensor([0.7071])
    """
    return _yaten.cosine_similarity(x1, x2, dim, eps)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The ``p``-norm distance between the rows of ``x1`` and ``x2`` (of ``x1 - x2 + eps``).

    >>> import yaten
    >>> yaten.nn.functional.pairwise_distance(yaten.tensor([[0.0, 0.0]]), yaten.tensor([[3.0, 4.0]]), eps=0.0)
    tensor([5.])
    """
    return _yaten.pairwise_distance(x1, x2, p, eps, keepdim)


def pdist(input, p=2):
    """The ``p``-norm distances between the rows of a matrix, each pair once (``yaten.pdist``).

    >>> import yaten
    >>> yaten.nn.functional.pdist(yaten.tensor([[0.0, 0.0], [3.0, 4.0]]))
    tensor([5.])
    """
    return _yaten.pdist(input, p)
