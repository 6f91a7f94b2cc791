"""Datasets and samplers of yaten.utils.data, side by side with torch.utils.data."""

import pytest
import torch

import yaten
from yaten.utils import data as yd

td = torch.utils.data


def _lists(x):
    return x.tolist() if hasattr(x, "tolist") else x


def test_tensor_dataset_items_and_len():
    yds = yd.TensorDataset(yaten.arange(6).reshape(3, 2), yaten.tensor([1.0, 2.0, 3.0]))
    tds = td.TensorDataset(torch.arange(6).reshape(3, 2), torch.tensor([1.0, 2.0, 3.0]))
    assert len(yds) == len(tds) == 3
    for i in (0, 2, -1):
        assert [_lists(v) for v in yds[i]] == [_lists(v) for v in tds[i]]
    assert [_lists(v) for v in yds[[0, 2]]] == [_lists(v) for v in tds[[0, 2]]]


def test_tensor_dataset_size_mismatch_asserts_as_torch():
    with pytest.raises(AssertionError, match="Size mismatch between tensors") as t_err:
        td.TensorDataset(torch.zeros(3), torch.zeros(4))
    with pytest.raises(AssertionError) as y_err:
        yd.TensorDataset(yaten.zeros(3), yaten.zeros(4))
    assert str(y_err.value) == str(t_err.value)


def test_concat_dataset_indexing_and_errors():
    parts = [[1, 2], [3], [4, 5, 6]]
    y, t = yd.ConcatDataset(parts), td.ConcatDataset(parts)
    assert len(y) == len(t) == 6 and y.cumulative_sizes == t.cumulative_sizes
    assert [y[i] for i in range(-6, 6)] == [t[i] for i in range(-6, 6)]
    with pytest.raises(ValueError, match="absolute value of index should not exceed dataset length"):
        y[-7]
    with pytest.raises(AssertionError, match="datasets should not be an empty iterable"):
        yd.ConcatDataset([])


def test_dataset_add_and_iterable_refused_by_concat():
    class Ten(yd.Dataset):
        def __getitem__(self, i):
            return i

        def __len__(self):
            return 10

    assert isinstance(Ten() + Ten(), yd.ConcatDataset) and len(Ten() + Ten()) == 20

    class It(yd.IterableDataset):
        def __iter__(self):
            return iter([1, 2])

    assert list(It() + It()) == [1, 2, 1, 2]
    with pytest.raises(AssertionError, match="ConcatDataset does not support IterableDataset"):
        yd.ConcatDataset([It()])
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset should implement __getitem__."):
        yd.Dataset()[0]


def test_subset_and_stack_dataset():
    s = yd.Subset([10, 11, 12, 13], [3, 0, 2])
    assert len(s) == 3 and [s[i] for i in range(3)] == [13, 10, 12]
    assert s.__getitems__([0, 1]) == [13, 10]
    st, tt = yd.StackDataset([1, 2], ["a", "b"]), td.StackDataset([1, 2], ["a", "b"])
    assert st[1] == tt[1] and len(st) == len(tt)
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        yd.StackDataset([1], [1, 2])


@pytest.mark.parametrize("lengths", [[3, 7], [0.3, 0.7], [0.5, 0.25, 0.25], [0.34, 0.33, 0.33]])
def test_random_split_lengths_as_torch_and_a_partition(lengths):
    y = yd.random_split(range(10), lengths, generator=yaten.Generator().manual_seed(0))
    t = td.random_split(range(10), lengths, generator=torch.Generator().manual_seed(0))
    assert [len(s) for s in y] == [len(s) for s in t]
    assert sorted(i for s in y for i in s) == list(range(10))


def test_random_split_is_deterministic_for_a_seed():
    a = yd.random_split(range(20), [5, 15], generator=yaten.Generator().manual_seed(3))
    b = yd.random_split(range(20), [5, 15], generator=yaten.Generator().manual_seed(3))
    assert [list(s) for s in a] == [list(s) for s in b]
    yaten.manual_seed(1)
    c = [list(s) for s in yd.random_split(range(20), [5, 15])]
    yaten.manual_seed(1)
    assert c == [list(s) for s in yd.random_split(range(20), [5, 15])]


def test_random_split_errors_as_torch():
    with pytest.raises(
        ValueError, match="Sum of input lengths does not equal the length of the input dataset!"
    ):
        yd.random_split(range(10), [3, 3])
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        yd.random_split(range(2), [1.0, 0.0])


def test_sequential_and_batch_sampler_as_torch():
    for bs in (1, 3, 4, 10):
        for drop in (False, True):
            y = yd.BatchSampler(yd.SequentialSampler(range(10)), bs, drop)
            t = td.BatchSampler(td.SequentialSampler(range(10)), bs, drop)
            assert list(y) == list(t) and len(y) == len(t)


@pytest.mark.parametrize("bad", [0, -1, 2.0, True])
def test_batch_sampler_rejects_bad_batch_size_as_torch(bad):
    with pytest.raises(ValueError) as t_err:
        td.BatchSampler(range(3), bad, False)
    with pytest.raises(ValueError) as y_err:
        yd.BatchSampler(range(3), bad, False)
    assert str(y_err.value) == str(t_err.value)
    with pytest.raises(ValueError, match="drop_last should be a boolean value, but got drop_last=1"):
        yd.BatchSampler(range(3), 2, 1)


def test_random_sampler_permutation_and_determinism():
    s = yd.RandomSampler(range(10), generator=yaten.Generator().manual_seed(5))
    first = list(s)
    assert sorted(first) == list(range(10)) and len(s) == 10
    assert list(yd.RandomSampler(range(10), generator=yaten.Generator().manual_seed(5))) == first
    yaten.manual_seed(2)
    a = list(yd.RandomSampler(range(10)))
    yaten.manual_seed(2)
    assert list(yd.RandomSampler(range(10))) == a


def test_random_sampler_num_samples_and_replacement():
    s = yd.RandomSampler(range(4), num_samples=10, generator=yaten.Generator().manual_seed(0))
    out = list(s)
    assert len(out) == len(s) == 10 and sorted(out[:4]) == [0, 1, 2, 3] and sorted(out[4:8]) == [0, 1, 2, 3]
    r = list(yd.RandomSampler(range(3), replacement=True, num_samples=70))
    assert len(r) == 70 and set(r) <= {0, 1, 2}


@pytest.mark.parametrize(("kwargs", "exc"), [
    ({"replacement": 1}, TypeError), ({"num_samples": 0}, ValueError), ({"num_samples": 2.5}, ValueError),
])  # fmt: skip
def test_random_sampler_errors_as_torch(kwargs, exc):
    with pytest.raises(exc) as t_err:
        td.RandomSampler(range(3), **kwargs)
    with pytest.raises(exc) as y_err:
        yd.RandomSampler(range(3), **kwargs)
    assert str(y_err.value) == str(t_err.value)


def test_subset_random_sampler_and_weighted():
    s = yd.SubsetRandomSampler([5, 8, 9], generator=yaten.Generator().manual_seed(0))
    assert sorted(s) == [5, 8, 9] and len(s) == 3
    w = yd.WeightedRandomSampler([0.0, 0.0, 1.0, 0.0], num_samples=6)
    assert list(w) == [2] * 6 and len(w) == 6
    assert sorted(yd.WeightedRandomSampler([1, 1, 1], 3, replacement=False)) == [0, 1, 2]
