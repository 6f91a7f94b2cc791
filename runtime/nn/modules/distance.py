"""``torch.nn.PairwiseDistance`` and ``torch.nn.CosineSimilarity``."""

from .. import functional as F
from .module import Module

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class PairwiseDistance(Module):
    """The ``p``-norm distance between the rows of two inputs.

    >>> import yaten
    >>> yaten.nn.PairwiseDistance(eps=0.0)(yaten.tensor([[0.0, 0.0]]), yaten.tensor([[3.0, 4.0]]))
    tensor([5.])
    """

    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """Cosine similarity of two inputs along ``dim``.

    >>> import yaten
    >>> yaten.nn.CosineSimilarity()(yaten.tensor([[1.0, 0.0]]), yaten.tensor([[2.0, 0.0]]))
    tensor([1.])
    """

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
