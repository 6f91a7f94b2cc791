"""``Chi2``: the chi-squared distribution of ``df`` degrees of freedom, ``Gamma(df / 2, 1 / 2)``."""

from . import constraints
from .gamma import Gamma


class Chi2(Gamma):
    """The chi-squared distribution: a sum of ``df`` squared standard normals.

    >>> import yaten
    >>> Chi2(yaten.tensor([4.0])).mean.tolist()
    [4.0]
    """

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None):
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    @property
    def df(self):
        return self.concentration * 2
