"""``torch.nn.AdaptiveLogSoftmaxWithLoss``: the adaptive softmax of Grave et al. (2016), a head over the
frequent classes and one cluster per tail, each tail a two-layer low-rank projection."""

import itertools
from collections import namedtuple

import yaten

from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

# torch's result type: a namedtuple class called _ASMoutput with fields (output, loss)
_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])

_BAD_CUTOFFS = (
    "cutoffs should be a sequence of unique, positive integers sorted in an increasing order, where "
    "each value is between 1 and n_classes-1"
)


def _checked_cutoffs(cutoffs, n_classes):
    """The cutoffs as a list, or torch's ValueError when they do not split [1, n_classes-1] upward."""
    bounds = list(cutoffs)
    if not bounds:
        raise ValueError("cutoffs should be a sequence of length larger than 0")
    integral = all(int(c) == c for c in bounds)
    increasing = all(a < b for a, b in itertools.pairwise(bounds))
    if not (integral and increasing and bounds[0] > 0 and bounds[-1] < n_classes):
        raise ValueError(_BAD_CUTOFFS)
    return bounds


def _check_input_target(input, target):
    """torch's shape rules: a 1-D target with a 2-D input of the same batch, or a 0-D target with a
    1-D input."""
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target.dim() == 1 and input.size(0) != target.size(0):
        raise RuntimeError("Input and target should have the same size in the batch dimension.")
    expected = target.dim() + 1
    if input.dim() != expected:
        raise RuntimeError(
            f"{target.dim()}D target tensor expects {expected}D input tensors, "
            f"but found inputs with size {input.size()}"
        )


class AdaptiveLogSoftmaxWithLoss(Module):
    """Log-probabilities of the targets (``output``) and their mean negative (``loss``) under an adaptive
    softmax: classes below ``cutoffs[0]`` are scored by the head, each further range by its cluster
    (whose head logit is added). ``log_prob`` gives every class's, ``predict`` the most likely one.

    >>> import yaten
    >>> m = yaten.nn.AdaptiveLogSoftmaxWithLoss(16, 10, cutoffs=[4, 7])
    >>> out = m(yaten.randn(3, 16), yaten.tensor([0, 5, 9]))
    >>> out.output.shape, out.loss.shape
    (yaten.Size([3]), yaten.Size([]))
    >>> bool(m.log_prob(yaten.randn(2, 16)).exp().sum(1).sub(1).abs().max() < 1e-5)
    True
    """

    def __init__(
        self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False, device=None, dtype=None
    ):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        bounds = _checked_cutoffs(cutoffs, n_classes)
        # The attribute names below are torch's (scripts and reprs read them).
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = bounds + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = bounds[0]
        self.n_clusters = len(bounds)
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, **factory)
        # Cluster k projects to in_features / div_value**(k+1) dims, then to its own classes.
        self.tail = ModuleList(
            Sequential(
                Linear(in_features, int(in_features // div_value ** (k + 1)), bias=False, **factory),
                Linear(int(in_features // div_value ** (k + 1)), hi - lo, bias=False, **factory),
            )
            for k, (lo, hi) in enumerate(self._cluster_ranges())
        )

    def _cluster_ranges(self):
        """The [lo, hi) class range of each tail cluster."""
        return list(itertools.pairwise(self.cutoffs))

    def reset_parameters(self) -> None:
        for layer in self.modules():
            if isinstance(layer, Linear):
                layer.reset_parameters()

    def forward(self, input_, target_):
        _check_input_target(input_, target_)
        single = target_.dim() == 0
        x = input_.unsqueeze(0) if single else input_
        target = target_.unsqueeze(0) if single else target_
        if bool(((target < 0) | (target >= self.n_classes)).any()):
            raise RuntimeError(
                f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                f"[{target.min().item()}, {target.max().item()}] were found. "
            )
        # Each row reads one head column: its own class in the shortlist, else its cluster's column;
        # rows in a cluster add the log-probability of their class within that cluster.
        head_column = target.clone()
        within_cluster = x.new_zeros(target.size(0))
        for k, (lo, hi) in enumerate(self._cluster_ranges()):
            rows = ((target >= lo) & (target < hi)).nonzero().view(-1)
            if rows.numel() == 0:
                continue
            head_column.index_fill_(0, rows, self.shortlist_size + k)
            cluster_lp = F.log_softmax(self.tail[k](x.index_select(0, rows)), dim=1)
            picked = cluster_lp.gather(1, (target.index_select(0, rows) - lo).unsqueeze(1)).squeeze(1)
            within_cluster = within_cluster.index_copy(0, rows, picked)
        head_lp = F.log_softmax(self.head(x), dim=1)
        output = head_lp.gather(1, head_column.unsqueeze(1)).squeeze(1) + within_cluster
        loss = output.neg().mean()
        return _ASMoutput(output.squeeze(0) if single else output, loss)

    def _get_full_log_prob(self, input, head_output):
        head_lp = F.log_softmax(head_output, dim=1)
        pieces = [head_lp[:, : self.shortlist_size]]
        for k, cluster in enumerate(self.tail):
            cluster_column = head_lp[:, self.shortlist_size + k : self.shortlist_size + k + 1]
            pieces.append(F.log_softmax(cluster(input), dim=1) + cluster_column)
        return yaten.cat(pieces, dim=1)

    def log_prob(self, input):
        """The log-probability of every class, (N, n_classes)."""
        return self._get_full_log_prob(input, self.head(input))

    def predict(self, input):
        """The most likely class of each row (the full distribution is computed only for rows whose
        head argmax is a cluster)."""
        head_output = self.head(input)
        guess = head_output.argmax(dim=1)
        rows = (guess >= self.shortlist_size).nonzero().view(-1)
        if rows.numel() == 0:
            return guess
        full = self._get_full_log_prob(input.index_select(0, rows), head_output.index_select(0, rows))
        return guess.index_copy(0, rows, full.argmax(dim=1))
