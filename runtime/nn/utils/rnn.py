"""Packed and padded batches of variable-length sequences, as ``torch.nn.utils.rnn``.

A ``PackedSequence`` holds the steps of a batch of sequences sorted by decreasing length, time-major:
step ``t`` contributes the ``batch_sizes[t]`` sequences still running. Packing and padding are one
``index_select`` each over the flattened input (indices computed on the host from the lengths), so
gradients flow through them as through any index op, on every device.
"""

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

import yaten

from ..._tensor import Tensor

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pack_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpack_sequence",
    "unpad_sequence",
]


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


def bind(optional, fn):
    """``fn(optional)``, or None when ``optional`` is None."""
    if optional is None:
        return None
    return fn(optional)


class PackedSequence(PackedSequence_):
    """The data of a packed batch and its ``batch_sizes`` (a CPU int64 tensor: how many sequences
    run at each step), with the permutation that sorted the batch and its inverse. Made by
    ``pack_padded_sequence``/``pack_sequence``, not by hand.

    >>> import yaten
    >>> from yaten.nn.utils.rnn import pack_sequence
    >>> p = pack_sequence([yaten.tensor([1, 2, 3]), yaten.tensor([4, 5])])
    >>> p
    PackedSequence(data=tensor([1, 4, 2, 5, 3]), batch_sizes=tensor([2, 2, 1]), sorted_indices=None, unsorted_indices=None)
    >>> p.double().data.dtype, p.is_cuda
    (yaten.float64, False)
    """

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        return super().__new__(
            cls, *_packed_sequence_init_args(data, batch_sizes, sorted_indices, unsorted_indices)
        )

    def to(self, *args, **kwargs):
        """``data`` converted as ``Tensor.to`` converts it (the indices follow it to its device;
        ``batch_sizes`` stays on the CPU); ``self`` when nothing changes."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self

        def call_to(t):
            return t.to(data.device)

        return type(self)(data, self.batch_sizes, bind(self.sorted_indices, call_to),
                          bind(self.unsorted_indices, call_to))  # fmt: skip

    def cuda(self, *args, **kwargs):
        """This batch on the GPU (``to`` with ``device="cuda"`` unless the arguments name a GPU)."""
        probe = yaten.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if probe.is_cuda:
            return self.to(*args, **kwargs)
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    def cpu(self, *args, **kwargs):
        """This batch in host memory."""
        probe = yaten.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if probe.device.type == "cpu":
            return self.to(*args, **kwargs)
        kwargs["device"] = "cpu"
        return self.to(*args, **kwargs)

    @property
    def is_cuda(self):
        """Whether ``data`` is on a GPU."""
        return self.data.is_cuda


def _converter(dtype_name):
    def convert(self):
        return self.to(dtype=getattr(yaten, dtype_name))

    convert.__doc__ = f"``self.to(dtype=yaten.{dtype_name})``."
    return convert


for _method, _dtype_name in (("double", "float64"), ("float", "float32"), ("half", "float16"), ("long", "int64"),
                             ("int", "int32"), ("short", "int16"), ("char", "int8"), ("byte", "uint8")):  # fmt: skip
    setattr(PackedSequence, _method, _converter(_dtype_name))


def _packed_sequence_init_args(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)
    if batch_sizes is not None:  # PackedSequence(data, batch_sizes, sorted_indices)
        if batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. Instances of PackedSequence should never be created "
                "manually. They should be instantiated by functions like pack_sequence and "
                "pack_padded_sequences in nn.utils.rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence"
            )
        return data, batch_sizes, sorted_indices, unsorted_indices
    if not (isinstance(data, (list, tuple)) and len(data) == 2):  # PackedSequence((data, batch_sizes))
        raise AssertionError("Expected data to be a list or tuple of length 2")
    return data[0], data[1], sorted_indices, unsorted_indices


def invert_permutation(permutation):
    """The inverse of a 1-d permutation (None for None): ``out[permutation[i]] = i``.

    >>> import yaten
    >>> from yaten.nn.utils.rnn import invert_permutation
    >>> invert_permutation(yaten.tensor([2, 0, 1]))
    tensor([1, 2, 0])
    """
    if permutation is None:
        return None
    output = yaten.empty_like(permutation)
    output.scatter_(0, permutation, yaten.arange(0, permutation.numel(), device=permutation.device))
    return output


def _batch_sizes(lengths: np.ndarray, steps: int) -> np.ndarray:
    """How many of the sequences (``lengths`` sorted in decreasing order) run at each step."""
    return (lengths[None, :] > np.arange(steps)[:, None]).sum(1).astype(np.int64)


def _packed_rows(lengths: np.ndarray, steps: int, batch_first: bool) -> np.ndarray:
    """The rows of the flattened padded batch ((T*B) rows time-major, (B*T) batch-first) that make
    up the packed data, step by step."""
    sizes = _batch_sizes(lengths, steps)
    t = np.repeat(np.arange(steps), sizes)
    b = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return b * steps + t if batch_first else t * len(lengths) + b


def _pack_padded(input, lengths, batch_first):
    """``torch._pack_padded_sequence``: (data, batch_sizes) of a padded batch sorted by length."""
    steps, batch = input.size(0), input.size(1)  # torch's IndexError for a 1-d input, either layout
    if batch_first:
        steps, batch = batch, steps
    if lengths.device.type != "cpu" or lengths.dim() != 1:
        raise RuntimeError(
            f"'lengths' argument should be a 1D CPU int64 tensor, but got {lengths.dim()}D "
            f"{lengths.device} Long tensor"
        )
    lens = lengths.numpy()
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if len(lens) != batch:
        raise RuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(lens)} (batch_size={batch})"
        )
    if lens[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"
        )
    if (np.diff(lens) > 0).any():
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
            "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this "
            "requirement if you do not need ONNX exportability."
        )
    if lens[0] > steps:
        raise RuntimeError(
            f"Expected every length to be at most the padded length {steps}, but got a length of {lens[0]}"
        )
    rows = _packed_rows(lens, steps, batch_first)
    flat = input.reshape(steps * batch, *input.shape[2:])
    data = flat.index_select(0, yaten.from_numpy(rows).to(input.device))
    return data, yaten.from_numpy(_batch_sizes(lens, lens[0]))


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True) -> PackedSequence:
    """Pack a padded batch (T x B x *, or B x T x * with ``batch_first``) of sequences of the given
    ``lengths`` (a list or a CPU tensor). With ``enforce_sorted`` the lengths must decrease;
    otherwise the batch is sorted here and the permutation kept to undo it.

    >>> import yaten
    >>> from yaten.nn.utils.rnn import pack_padded_sequence
    >>> seq = yaten.tensor([[1, 2, 0], [3, 0, 0], [4, 5, 6]])
    >>> packed = pack_padded_sequence(seq, [2, 1, 3], batch_first=True, enforce_sorted=False)
    >>> packed.data, packed.batch_sizes, packed.sorted_indices
    (tensor([4, 1, 3, 5, 2, 6]), tensor([3, 2, 1]), tensor([2, 0, 1]))
    """
    if not isinstance(lengths, Tensor):
        lengths = yaten.as_tensor(lengths, dtype=yaten.int64, device="cpu")
    else:
        lengths = lengths.to(dtype=yaten.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = yaten.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack_padded(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pad_packed(data, batch_sizes, batch_first, padding_value, total_length):
    """``torch._pad_packed_sequence``: the padded batch (T x B x *, a transposed view with
    ``batch_first``) and the lengths, sorted."""
    sizes = batch_sizes.numpy()
    batch = int(sizes[0])
    lens = _batch_sizes(sizes, batch)  # sequence b runs for as many steps as have more than b sequences
    # Each padded slot (time-major) takes its packed row, or the padding row appended after the data.
    rows = np.full(total_length * batch, data.size(0), dtype=np.int64)
    rows[_packed_rows(lens, total_length, False)] = np.arange(data.size(0))
    padding = yaten.full((1, *data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
    flat = yaten.cat([data, padding]).index_select(0, yaten.from_numpy(rows).to(data.device))
    output = flat.reshape(total_length, batch, *data.shape[1:])
    return (output.transpose(0, 1) if batch_first else output), yaten.from_numpy(lens)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo ``pack_padded_sequence``: the padded batch (padded to ``total_length`` when given) and
    the lengths, in the batch's original order.

    >>> import yaten
    >>> from yaten.nn.utils.rnn import pack_sequence, pad_packed_sequence
    >>> p = pack_sequence([yaten.tensor([1, 2]), yaten.tensor([3, 4, 5])], enforce_sorted=False)
    >>> pad_packed_sequence(p, batch_first=True, padding_value=-1)
    (tensor([[ 1,  2, -1],
            [ 3,  4,  5]]), tensor([2, 3]))
    """
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in input, but got "
                f"total_length={total_length} and max sequence length being {max_seq_length}"
            )
        max_seq_length = total_length
    padded_output, lengths = _pad_packed(
        sequence.data, sequence.batch_sizes, batch_first, padding_value, max_seq_length
    )
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded_output.index_select(batch_dim, unsorted_indices), lengths[unsorted_indices.cpu()]
    return padded_output, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack sequences of lengths L_i x * into one T x B x * batch (B x T x * with ``batch_first``),
    padded with ``padding_value`` on the ``padding_side`` ("right" or "left"); the dtype is the
    first sequence's.

    >>> import yaten
    >>> from yaten.nn.utils.rnn import pad_sequence
    >>> pad_sequence([yaten.tensor([1, 2, 3]), yaten.tensor([4])], batch_first=True, padding_side="left")
    tensor([[1, 2, 3],
            [0, 0, 4]])
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError(
            f"pad_sequence: Expected iterable for input sequences, but got arg of type: {type(sequences)}"
        )
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    max_len = max(s.size(0) for s in sequences)
    first = sequences[0]
    out_dims = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    out = yaten.full((*out_dims, *first.shape[1:]), padding_value, dtype=first.dtype, device=first.device)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """Split a padded batch back into its sequences (as torch, a time-major batch is transposed in
    place first).

    >>> import yaten
    >>> from yaten.nn.utils.rnn import pad_sequence, unpad_sequence
    >>> padded = pad_sequence([yaten.tensor([1, 2, 3]), yaten.tensor([4])])
    >>> unpad_sequence(padded, yaten.tensor([3, 1]))
    [tensor([1, 2, 3]), tensor([4])]
    """
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = yaten.arange(padded_sequences.shape[1], device=lengths.device)
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths, strict=True)]


def pack_sequence(sequences, enforce_sorted=True) -> PackedSequence:
    """Pack a list of sequences (L_i x *): ``pad_sequence`` then ``pack_padded_sequence``.

    >>> import yaten
    >>> from yaten.nn.utils.rnn import pack_sequence
    >>> pack_sequence([yaten.tensor([1, 2, 3]), yaten.tensor([4, 5]), yaten.tensor([6])]).data
    tensor([1, 4, 6, 2, 5, 3])
    """
    lengths = yaten.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences) -> list:
    """The list of sequences a ``PackedSequence`` holds, in their original order.

    >>> import yaten
    >>> from yaten.nn.utils.rnn import pack_sequence, unpack_sequence
    >>> unpack_sequence(pack_sequence([yaten.tensor([1, 2]), yaten.tensor([3, 4, 5])], enforce_sorted=False))
    [tensor([1, 2]), tensor([3, 4, 5])]
    """
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
