"""argsort and argsort.stable: the indices of sort (kernels in kernels/cpu/sort.py, kernels/cuda/sort.py).

yaten's sort is always stable, so both overloads give the stable order; torch's non-stable argsort
may order ties differently.
"""

import yaten


def argsort(self, dim=-1, descending=False):
    """The int64 indices that sort ``self`` along ``dim`` (stably; NaN sorts as the largest).

    >>> yaten.argsort(yaten.tensor([3.0, 1.0, 2.0]))
    tensor([1, 2, 0])
    """
    return yaten.sort(self, dim, descending)[1]


def argsort_stable(self, stable, dim=-1, descending=False):
    """argsort.stable: the indices of ``sort(self, stable=stable, ...)``.

    >>> yaten.argsort(yaten.tensor([1, 0, 1]), stable=True, descending=True)
    tensor([0, 2, 1])
    """
    return yaten.sort(self, stable=stable, dim=dim, descending=descending)[1]


def msort(self):
    """``self`` sorted along its first dim.

    >>> yaten.msort(yaten.tensor([[3, 1], [2, 5]]))
    tensor([[2, 1],
            [3, 5]])
    """
    return yaten.sort(self, 0)[0]
