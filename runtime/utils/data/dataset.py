"""Datasets, as ``torch.utils.data.dataset``: map-style and iterable, and ways to combine them."""

import bisect
import itertools
import math
import warnings

from ... import _random
from ..._tensor import Tensor

__all__ = [
    "ChainDataset", "ConcatDataset", "Dataset", "IterableDataset", "StackDataset", "Subset", "TensorDataset",
    "random_split",
]  # fmt: skip


class Dataset:
    """A map-style dataset: ``dataset[i]`` gives a sample, ``len(dataset)`` (optional) how many.

    >>> from yaten.utils.data import Dataset
    >>> class Squares(Dataset):
    ...     def __getitem__(self, i):
    ...         return i * i
    ...     def __len__(self):
    ...         return 4
    >>> [Squares()[i] for i in range(4)], len(Squares() + Squares())
    ([0, 1, 4, 9], 8)
    """

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: "Dataset") -> "ConcatDataset":
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset that is a stream: iterating it gives the samples.

    With ``num_workers > 0`` every worker iterates its own copy; use ``get_worker_info()`` in
    ``__iter__`` to split the work, as in PyTorch.

    >>> from yaten.utils.data import IterableDataset
    >>> class Count(IterableDataset):
    ...     def __iter__(self):
    ...         return iter(range(3))
    >>> list(Count() + Count())
    [0, 1, 2, 0, 1, 2]
    """

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other: Dataset) -> "ChainDataset":
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Samples are the ``i``-th rows of each tensor, as a tuple.

    >>> import yaten
    >>> from yaten.utils.data import TensorDataset
    >>> ds = TensorDataset(yaten.arange(3), yaten.tensor([1.0, 2.0, 3.0]))
    >>> len(ds), ds[1]
    (3, (tensor(1), tensor(2.)))
    """

    def __init__(self, *tensors: Tensor) -> None:
        assert all(tensors[0].size(0) == tensor.size(0) for tensor in tensors), (
            "Size mismatch between tensors"
        )
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class StackDataset(Dataset):
    """Samples are the ``i``-th samples of several datasets, as a tuple (positional) or a dict (keywords).

    >>> from yaten.utils.data import StackDataset
    >>> StackDataset(x=[1, 2], y=["a", "b"])[1]
    {'x': 2, 'y': 'b'}
    """

    def __init__(self, *args, **kwargs) -> None:
        if args:
            if kwargs:
                raise ValueError(
                    "Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like input/output, but both types are given."
                )
            self._length = len(args[0])
            if any(self._length != len(dataset) for dataset in args):
                raise ValueError("Size mismatch between datasets")
            self.datasets = args
        elif kwargs:
            tmp = list(kwargs.values())
            self._length = len(tmp[0])
            if any(self._length != len(dataset) for dataset in tmp):
                raise ValueError("Size mismatch between datasets")
            self.datasets = kwargs
        else:
            raise ValueError("At least one dataset should be passed")

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: dataset[index] for k, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __len__(self) -> int:
        return self._length


class ConcatDataset(Dataset):
    """Several map-style datasets one after the other.

    >>> from yaten.utils.data import ConcatDataset
    >>> ds = ConcatDataset([[1, 2], [3, 4, 5]])
    >>> len(ds), ds[2], ds[-1], ds.cumulative_sizes
    (5, 3, 5, [2, 5])
    """

    @staticmethod
    def cumsum(sequence) -> list:
        r, s = [], 0
        for e in sequence:
            s += len(e)
            r.append(s)
        return r

    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "datasets should not be an empty iterable"
        for d in self.datasets:
            assert not isinstance(d, IterableDataset), "ConcatDataset does not support IterableDataset"
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if dataset_idx == 0 else idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]


class ChainDataset(IterableDataset):
    """Several iterable datasets one after the other.

    >>> from yaten.utils.data import ChainDataset
    >>> list(ChainDataset([range(2), range(3)]))
    [0, 1, 0, 1, 2]
    """

    def __init__(self, datasets) -> None:
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            yield from d

    def __len__(self) -> int:
        return sum(len(d) for d in self.datasets)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order.

    >>> from yaten.utils.data import Subset
    >>> s = Subset([10, 11, 12, 13], [3, 1])
    >>> len(s), s[0], s[1]
    (2, 13, 11)
    """

    def __init__(self, dataset, indices) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices: list) -> list:
        # A dataset that fetches a whole batch at once keeps doing so through the subset.
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[idx] for idx in indices])
        return [self.dataset[self.indices[idx]] for idx in indices]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset, lengths, generator=None) -> list:
    """Split ``dataset`` into non-overlapping random subsets of the given lengths (or fractions).

    Fractions that sum to 1 become lengths ``floor(frac * len(dataset))``, the remainder dealt out one
    by one from the first subset on, as in PyTorch. The permutation comes from yaten's generator:
    a seed gives the same split on every run, but not the split torch gives for that seed.

    >>> import yaten
    >>> from yaten.utils.data import random_split
    >>> a, b = random_split(range(10), [0.7, 0.3], generator=yaten.Generator().manual_seed(0))
    >>> len(a), len(b), sorted(list(a) + list(b)) == list(range(10))
    (7, 3, True)
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(math.floor(len(dataset) * frac))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(
                    f"Length of split at index {i} is 0. This might result in an empty dataset.", stacklevel=2
                )
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    if generator is None:
        generator = _random.default_generator
    indices = _random.randperm(sum(lengths), generator=generator).tolist()
    return [
        Subset(dataset, indices[offset - length : offset])
        for offset, length in zip(itertools.accumulate(lengths), lengths)
    ]
