"""``default_collate`` and ``default_convert``: samples to batches, as ``torch.utils.data``."""

import collections.abc
import copy
import re

import numpy as np

from ... import _dtype as D
from ..._factories import as_tensor, tensor
from ..._tensor import Tensor

__all__ = ["default_collate", "default_convert"]

# NumPy arrays of strings and objects cannot become tensors.
_NP_STR_OBJ = re.compile(r"[SaUO]")
_COLLATE_ERR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def default_convert(data):
    """Turn NumPy arrays (also inside dicts, lists and tuples) into tensors; what a loader without
    batching (``batch_size=None``) applies to each sample.

    >>> import numpy as np
    >>> from yaten.utils.data import default_convert
    >>> default_convert({"x": np.arange(2), "n": 3})
    {'x': tensor([0, 1]), 'n': 3}
    """
    elem_type = type(data)
    if isinstance(data, Tensor):
        return data
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if elem_type.__name__ == "ndarray" and _NP_STR_OBJ.search(data.dtype.str) is not None:
            return data
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        if isinstance(data, collections.abc.MutableMapping):
            clone = copy.copy(data)
            clone.update({key: default_convert(data[key]) for key in data})
            return clone
        try:
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:
            return {key: default_convert(data[key]) for key in data}
    if _is_namedtuple(data):
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        if isinstance(data, collections.abc.MutableSequence):
            clone = copy.copy(data)
            for i, d in enumerate(data):
                clone[i] = default_convert(d)
            return clone
        try:
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


def default_collate(batch):
    """Stack a list of samples into a batch, recursing into dicts, tuples, lists and namedtuples.

    Tensors are stacked along a new first dimension; NumPy arrays become tensors first; Python
    floats become a float64 tensor, ints an int64 one (bools a bool one); strings stay a list.
    A tuple of fields becomes a list of batched fields, as in PyTorch.

    >>> import yaten
    >>> from yaten.utils.data import default_collate
    >>> default_collate([(yaten.tensor([1, 2]), 0.5), (yaten.tensor([3, 4]), 1.5)])
    [tensor([[1, 2],
            [3, 4]]), tensor([0.5000, 1.5000], dtype=yaten.float64)]
    """
    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, Tensor):
        from ... import stack

        return stack(batch, 0)
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if elem_type.__name__ in ("ndarray", "memmap"):
            if _NP_STR_OBJ.search(elem.dtype.str) is not None:
                raise TypeError(_COLLATE_ERR.format(elem.dtype))
            return default_collate([as_tensor(b) for b in batch])
        if elem.shape == ():  # a NumPy scalar
            return as_tensor(np.asarray(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=D.float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)
            clone.update({key: default_collate([d[key] for d in batch]) for key in elem})
            return clone
        try:
            return elem_type({key: default_collate([d[key] for d in batch]) for key in elem})
        except TypeError:
            return {key: default_collate([d[key] for d in batch]) for key in elem}
    if _is_namedtuple(elem):
        return elem_type(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [default_collate(samples) for samples in transposed]
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            for i, samples in enumerate(transposed):
                clone[i] = default_collate(samples)
            return clone
        try:
            return elem_type([default_collate(samples) for samples in transposed])
        except TypeError:
            return [default_collate(samples) for samples in transposed]
    raise TypeError(_COLLATE_ERR.format(elem_type))
