"""``torch.nn.ChannelShuffle``: the channels of a (N, C, *) input regrouped, as ShuffleNet's."""

from .. import functional as F
from .module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """Split the C channels into ``groups`` groups and interleave them: (g, C/g) becomes (C/g, g).

    >>> import yaten
    >>> m = yaten.nn.ChannelShuffle(2)
    >>> m, m(yaten.arange(4.0).view(1, 4, 1, 1)).flatten()
    (ChannelShuffle(groups=2), tensor([0., 2., 1., 3.]))
    """

    def __init__(self, groups: int):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
