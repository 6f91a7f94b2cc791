"""Samplers, as ``torch.utils.data.sampler``: which indices a DataLoader fetches, in which order."""

from ... import _dtype as D
from ... import _random

__all__ = [
    "BatchSampler", "RandomSampler", "Sampler", "SequentialSampler", "SubsetRandomSampler",
    "WeightedRandomSampler",
]  # fmt: skip


class Sampler:
    """Base class: iterating a sampler gives dataset indices (or, for a batch sampler, lists of them)."""

    def __init__(self, data_source=None) -> None:
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``.

    >>> from yaten.utils.data import SequentialSampler
    >>> list(SequentialSampler("abc"))
    [0, 1, 2]
    """

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


def _fresh_generator() -> _random.Generator:
    # As PyTorch: an unseeded sampler draws its seed from the default generator, so
    # ``manual_seed`` makes it repeatable, and each epoch gets a new order.
    seed = int(_random.randint(-(2**63), 2**63 - 1, (), dtype=D.int64).item())
    return _random.Generator().manual_seed(seed)


class RandomSampler(Sampler):
    """A random permutation of the indices, or ``num_samples`` draws with ``replacement``.

    >>> import yaten
    >>> from yaten.utils.data import RandomSampler
    >>> sorted(RandomSampler(range(5), generator=yaten.Generator().manual_seed(1)))
    [0, 1, 2, 3, 4]
    >>> len(list(RandomSampler(range(5), replacement=True, num_samples=8)))
    8
    """

    def __init__(self, data_source, replacement: bool = False, num_samples=None, generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer value, but got num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        # The dataset may change size after the sampler is made.
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = _fresh_generator() if self.generator is None else self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from _random.randint(high=n, size=(32,), dtype=D.int64, generator=generator).tolist()
            yield from _random.randint(
                high=n, size=(self.num_samples % 32,), dtype=D.int64, generator=generator
            ).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from _random.randperm(n, generator=generator).tolist()
            yield from _random.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order.

    >>> from yaten.utils.data import SubsetRandomSampler
    >>> sorted(SubsetRandomSampler([4, 7, 9]))
    [4, 7, 9]
    """

    def __init__(self, indices, generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in _random.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``.

    >>> from yaten.utils.data import WeightedRandomSampler
    >>> list(WeightedRandomSampler([0.0, 1.0, 0.0], 3))
    [1, 1, 1]
    """

    def __init__(self, weights, num_samples: int, replacement: bool = True, generator=None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer value, but got num_samples={num_samples}"
            )
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        from ..._factories import as_tensor

        weights_tensor = as_tensor(weights, dtype=D.float64)
        if len(weights_tensor.shape) != 1:
            raise ValueError(
                f"weights should be a 1d sequence but given weights have shape {tuple(weights_tensor.shape)}"
            )
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        p = self.weights._host()
        if (p < 0).any() or not p.sum() > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        if not self.replacement and self.num_samples > int((p > 0).sum()):
            raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
        generator = _fresh_generator() if self.generator is None else self.generator
        drawn = generator._np.choice(len(p), self.num_samples, replace=self.replacement, p=p / p.sum())
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Group another sampler's indices into lists of ``batch_size`` (the last one shorter unless ``drop_last``).

    >>> from yaten.utils.data import BatchSampler, SequentialSampler
    >>> list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False))
    [[0, 1, 2], [3, 4, 5], [6]]
    >>> list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True))
    [[0, 1, 2], [3, 4, 5]]
    """

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
