"""``torch.nn.Embedding``: a lookup table of ``num_embeddings`` vectors of size ``embedding_dim``, and
``EmbeddingBag``: the sums, means or maxima of bags of its rows."""

import yaten

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Embedding", "EmbeddingBag"]


def _padding_index(padding_idx, num_embeddings, name):
    """``padding_idx`` checked against the table (``name`` is how the message spells it) and made
    non-negative."""
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= num_embeddings:
                raise AssertionError(f"{name} must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -num_embeddings:
                raise AssertionError(f"{name} must be within num_embeddings")
            padding_idx = num_embeddings + padding_idx
    return padding_idx


class _Table(Module):
    """The weight of an embedding table: N(0, 1), the ``padding_idx`` row zero."""

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        if self.padding_idx is not None:
            with yaten.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def _norm_repr(self) -> str:
        """The repr of the renormalization and gradient-scaling options that differ from the defaults."""
        s = ""
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        return s


class Embedding(_Table):
    """Rows of ``weight`` (initialized from N(0, 1), the ``padding_idx`` row zero) looked up by index;
    the ``padding_idx`` row gets no gradient.

    >>> import yaten
    >>> m = yaten.nn.Embedding(10, 3, padding_idx=0)
    >>> m
    Embedding(10, 3, padding_idx=0)
    >>> m(yaten.tensor([[0, 4]])).shape
    yaten.Size([1, 2, 3])
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None,
                 dtype=None):  # fmt: skip
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = _padding_index(padding_idx, num_embeddings, "Padding_idx")
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(
                yaten.empty((num_embeddings, embedding_dim), device=device, dtype=dtype),
                requires_grad=not _freeze,
            )
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    def forward(self, input):
        return F.embedding(
            input,
            self.weight,
            self.padding_idx,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.sparse,
        )

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        s += self._norm_repr()
        if self.sparse is not False:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):  # fmt: skip
        """An Embedding whose weight is ``embeddings`` (frozen unless ``freeze=False``).

        >>> import yaten
        >>> m = yaten.nn.Embedding.from_pretrained(yaten.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> m(yaten.tensor([1])), m.weight.requires_grad
        (tensor([[3., 4.]]), False)
        """
        if embeddings.ndim != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(
            num_embeddings=rows,
            embedding_dim=cols,
            _weight=embeddings,
            _freeze=freeze,
            padding_idx=padding_idx,
            max_norm=max_norm,
            norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq,
            sparse=sparse,
        )


class EmbeddingBag(_Table):
    """The sum, mean or max (``mode``) of each bag of embedding rows, without materializing the rows:
    bags are the rows of a 2-d ``input``, or the ``offsets`` slices of a 1-d one; ``per_sample_weights``
    scale the rows (mode 'sum'), ``padding_idx`` rows are left out.

    >>> import yaten
    >>> m = yaten.nn.EmbeddingBag.from_pretrained(yaten.arange(6.0).reshape(3, 2), mode="sum")
    >>> m
    EmbeddingBag(3, 2, mode='sum')
    >>> m(yaten.tensor([0, 2, 1]), yaten.tensor([0, 2]))
    tensor([[4., 6.],
            [2., 3.]])
    """

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):  # fmt: skip
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.padding_idx = _padding_index(padding_idx, num_embeddings, "padding_idx")
        if _weight is None:
            self.weight = Parameter(yaten.empty((num_embeddings, embedding_dim), device=device, dtype=dtype))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                               self.mode, self.sparse, per_sample_weights, self.include_last_offset,
                               self.padding_idx)  # fmt: skip

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings!r}, {self.embedding_dim!r}" + self._norm_repr() + f", mode={self.mode!r}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx!r}"
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):  # fmt: skip
        """An EmbeddingBag whose weight is ``embeddings`` (frozen unless ``freeze=False``)."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, max_norm=max_norm,
                  norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, mode=mode, sparse=sparse,
                  include_last_offset=include_last_offset, padding_idx=padding_idx)  # fmt: skip
        bag.weight.requires_grad = not freeze
        return bag
