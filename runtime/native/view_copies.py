"""The ``*_copy`` ops: each view op's result as a new contiguous tensor (torch's functionalization names,
``expand_copy``, ``permute_copy``, ...), composed as the view followed by a contiguous clone, so their
gradients and cuda come from the view and ``clone``."""

import yaten

from .._generated import ops as _ops  # (imported while ops loads; used at call time)


def _copy(view):
    return view.clone(memory_format=yaten.contiguous_format)


def expand_copy(self, size, implicit=False):
    return _copy(self.expand(size))


def permute_copy(self, dims):
    return _copy(self.permute(dims))


def diagonal_copy(self, offset=0, dim1=0, dim2=1):
    return _copy(self.diagonal(offset, dim1, dim2))


def select_copy(self, dim, index):
    return _copy(self.select(dim, index))


def narrow_copy(self, dim, start, length):
    return _copy(self.narrow(dim, start, length))


def alias_copy(self):
    return _copy(self)


def t_copy(self):
    return _copy(self.t())


def transpose_copy(self, dim0, dim1):
    return _copy(self.transpose(dim0, dim1))


def unsqueeze_copy(self, dim):
    return _copy(self.unsqueeze(dim))


def squeeze_copy(self):
    return _copy(self.squeeze())


def squeeze_copy_dims(self, dim):
    return _copy(self.squeeze(dim))


def view_copy(self, size):
    return _copy(self.view(size))


def view_copy_dtype(self, dtype):
    return _copy(self.view(dtype))


def slice_copy(self, dim=0, start=None, end=None, step=1):
    return _copy(_ops.slice_Tensor(self, dim, start, end, step))


def unfold_copy(self, dimension, size, step):
    return _copy(self.unfold(dimension, size, step))


def as_strided_copy(self, size, stride, storage_offset=None):
    return _copy(self.as_strided(size, stride, storage_offset))
