"""The tensor core (runtime/_tensor.py, runtime/_storage.py, runtime/native/views.py) side by side with PyTorch.

Every case is written once as a function of the library module ``m`` and run with ``m = torch`` and
``m = yaten`` on the same data; results are compared for values, dtypes, shapes, strides, storage
offsets and sharing, and errors for exception type and message.
"""

import warnings

import numpy as np
import pytest
import torch

import yaten


def _name(x) -> str:
    return str(x).replace("torch.", "yaten.")


def _meta(t) -> dict:
    """What a tensor looks like from the outside: everything but where its memory is."""
    return {
        "dtype": _name(t.dtype),
        "shape": tuple(t.shape),
        "size": tuple(t.size()),
        "sizes": [t.size(d) for d in range(t.dim())],
        "stride": t.stride(),
        "strides": [t.stride(d) for d in range(t.dim())],
        "offset": t.storage_offset(),
        "contiguous": t.is_contiguous(),
        "dim": (t.dim(), t.ndim, t.ndimension()),
        "numel": (t.numel(), t.nelement()),
        "bytes": (t.element_size(), t.itemsize, t.nbytes),
        "float": t.is_floating_point(),
        "storage_bytes": t.untyped_storage().nbytes(),
        # An empty tensor's data_ptr() is 0, as in torch.
        "ptr_in_storage": t.data_ptr() - t.untyped_storage().data_ptr() if t.numel() else t.data_ptr(),
        "values": t.tolist(),
        "requires_grad": t.requires_grad,
    }


def _same(y, t) -> None:
    assert _meta(y) == _meta(t)


def _errors(call):
    """The exception type and message ``call(torch)`` and ``call(yaten)`` raise, library names unified."""
    out = []
    for m in (torch, yaten):
        with pytest.raises(Exception) as err:
            call(m)
        out.append((type(err.value), _name(err.value)))
    return out


def _same_error(call, prefix_only: bool = False) -> None:
    (t_type, t_msg), (y_type, y_msg) = _errors(call)
    assert y_type is t_type, (y_msg, t_msg)
    if prefix_only:
        # torch lists its overloads (or every device type) after the common first line.
        t_msg, y_msg = t_msg.split("\n")[0], y_msg.split("\n")[0]
    assert y_msg == t_msg


# --- metadata ---------------------------------------------------------------------------------------
VIEWS = {
    "contiguous": lambda m: m.arange(24.0).view(2, 3, 4),
    "0-d": lambda m: m.tensor(5.0),
    "int64": lambda m: m.arange(6).view(3, 2),
    "uint8": lambda m: m.arange(6, dtype=m.uint8),
    "bool": lambda m: m.tensor([[True, False]]),
    "float16": lambda m: m.arange(4.0, dtype=m.float16),
    "transpose": lambda m: m.arange(24.0).view(2, 3, 4).transpose(0, 2),
    "t": lambda m: m.arange(6.0).view(2, 3).t(),
    "permute": lambda m: m.arange(24.0).view(2, 3, 4).permute(1, 2, 0),
    "slice_step": lambda m: m.arange(24.0).view(2, 3, 4)[1:, ::2, 1:3],
    "select": lambda m: m.arange(24.0).view(2, 3, 4).select(1, 2),
    "narrow": lambda m: m.arange(24.0).view(4, 6).narrow(1, 2, 3),
    "expand": lambda m: m.arange(3.0).view(3, 1).expand(3, 4),
    "unsqueeze": lambda m: m.arange(6.0).view(2, 3)[:, 1:].unsqueeze(1),
    "squeeze": lambda m: m.arange(6.0).view(1, 2, 1, 3).squeeze(),
    "as_strided": lambda m: m.arange(10.0).as_strided((3, 3), (1, 2), 1),
    "as_strided_overlap": lambda m: m.arange(10.0).as_strided((4, 3), (1, 1)),
    "view_of_view": lambda m: m.arange(24.0)[4:].view(4, 5)[1:, 2:],
    "empty_slice": lambda m: m.arange(6.0).view(2, 3)[:, 3:],
    "empty_as_strided": lambda m: m.arange(6.0).as_strided((0, 2), (5, 7), 100),
    "detach_of_view": lambda m: m.arange(6.0).view(2, 3).t().detach(),
    "requires_grad": lambda m: m.ones(2, 3, requires_grad=True),
}


@pytest.mark.parametrize("make", VIEWS.values(), ids=VIEWS.keys())
def test_metadata_as_torch(make):
    _same(make(yaten), make(torch))


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.zeros(2, 3).size(2),
        lambda m: m.zeros(2, 3).size(-3),
        lambda m: m.zeros(2, 3).stride(5),
        lambda m: m.zeros(()).size(0),
        lambda m: m.zeros(()).stride(-1),
    ],
)
def test_dim_errors_as_torch(call):
    _same_error(call)


def test_size_type():
    s, t = yaten.zeros(2, 3, 4).shape, torch.zeros(2, 3, 4).shape
    assert repr(s) == _name(repr(t)) and s == t and s.numel() == t.numel() == 24
    assert isinstance(s[1:], yaten.Size) and repr(s[1:]) == _name(repr(t[1:])) and s[0] == 2
    assert isinstance(s + (5,), yaten.Size) and s + (5,) == t + (5,)


@pytest.mark.parametrize(
    "name", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
)
def test_dtype_attributes_as_torch(name):
    y, t = getattr(yaten, name), getattr(torch, name)
    assert repr(y) == _name(repr(t))
    for attr in ("is_floating_point", "is_signed", "itemsize", "is_complex"):
        assert getattr(y, attr) == getattr(t, attr), attr
    x = yaten.zeros(3, dtype=y)
    assert (x.element_size(), x.itemsize, x.nbytes, x.is_floating_point()) == (
        t.itemsize, t.itemsize, 3 * t.itemsize, t.is_floating_point
    )  # fmt: skip


def test_dtype_aliases():
    for alias in ("float", "double", "half", "long", "int", "short"):
        assert repr(getattr(yaten, alias)) == _name(repr(getattr(torch, alias)))


# --- views, storage, version counter -----------------------------------------------------------------
VIEW_OPS = {
    "slice": lambda x: x[1:],
    "t": lambda x: x.t(),
    "view": lambda x: x.view(3, 2),
    "select": lambda x: x[1],
    "expand": lambda x: x[:1].expand(4, 3),
    "as_strided": lambda x: x.as_strided((2,), (2,), 1),
    "view_of_view": lambda x: x[1:].t()[1:],
    "detach": lambda x: x.detach(),
    "unbind": lambda x: x.unbind(1)[2],
}


@pytest.mark.parametrize("op", VIEW_OPS.values(), ids=VIEW_OPS.keys())
def test_views_share_storage_and_version(op):
    for m in (torch, yaten):
        x = m.arange(6.0).view(2, 3)
        root = x._base
        v = op(x)
        assert v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
        assert v.untyped_storage().nbytes() == 24
        # _base is the root of the views (None for detach, a non-differentiable alias), as torch.
        assert (v._base is (x if root is None else root)) == (op is not VIEW_OPS["detach"])
        before = x._version
        x.add_(1)
        assert v._version == x._version == before + 1
        if op is not VIEW_OPS["expand"]:  # writing to overlapping elements is an error in torch
            v.mul_(2)
            assert x._version == v._version == before + 2
    _same(op(yaten.arange(6.0).view(2, 3)), op(torch.arange(6.0).view(2, 3)))


def test_views_write_through():
    for m in (torch, yaten):
        x = m.zeros(2, 3)
        x.t()[2].fill_(7.0)
        x[0, :2].add_(1.0)
        assert x.tolist() == [[1.0, 1.0, 7.0], [0.0, 0.0, 7.0]]
        assert x._base is None and x[0]._base is x and x[0][1:]._base is x


def test_contiguous():
    for m in (torch, yaten):
        x = m.arange(6.0).view(2, 3)
        assert x.contiguous() is x
        y = x.t().contiguous()
        assert y.stride() == (2, 1) and y.is_contiguous() and y.tolist() == x.t().tolist()
        assert y.data_ptr() != x.data_ptr() and y._base is None
    _same(yaten.arange(6.0).view(2, 3).t().contiguous(), torch.arange(6.0).view(2, 3).t().contiguous())


def test_data_ptr_of_views():
    x = yaten.arange(12.0).view(3, 4)
    base = x.data_ptr()
    assert x[1].data_ptr() == base + 16 and x[1:, 2:].data_ptr() == base + 24 and x.t().data_ptr() == base
    assert x.untyped_storage().data_ptr() == base
    assert x.untyped_storage() is x[1:].untyped_storage()  # one storage object per buffer


def _storage_facts(m):
    s = m.arange(3, dtype=m.uint8).untyped_storage()
    f = m.tensor([1.0, -2.0]).untyped_storage()
    return (s[1], s[-1], s[0:2].tolist(), s[2:10].tolist(), len(s), s.nbytes(), s.size(), s.element_size(),
            s.device == m.device("cpu"), f.tolist(), m.zeros(0).untyped_storage().nbytes())  # fmt: skip


def test_untyped_storage_as_torch():
    assert _storage_facts(yaten) == _storage_facts(torch)
    _same_error(lambda m: m.arange(3, dtype=m.uint8).untyped_storage()[3])
    _same_error(lambda m: m.arange(3, dtype=m.uint8).untyped_storage()["a"])


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.arange(6.0).as_strided((3, 3), (1, 2), 1),  # past the end
        lambda m: m.arange(6.0).as_strided((3, 3), (1, 2)),
        lambda m: m.arange(6.0)[2:].as_strided((5,), (1,)),  # the view's offset counts
        lambda m: m.arange(6.0).as_strided((2,), (1,), -1),
        lambda m: m.arange(6.0).as_strided((2,), (-1,)),
        lambda m: m.arange(6.0).as_strided((-1,), (1,)),
        lambda m: m.arange(6.0).as_strided((2,), (1, 2)),
        lambda m: m.arange(6, dtype=m.int16).as_strided((2, 2), (3, 1), 3),
    ],
)
def test_as_strided_errors_as_torch(call):
    _same_error(call)


def test_as_strided_values_as_torch():
    for make in (
        lambda m: m.arange(6.0).as_strided((2, 2), (1, 2), 1),
        lambda m: m.arange(6.0)[2:].as_strided((2,), (1,)),  # default offset: the view's own
        lambda m: m.arange(6.0)[2:].as_strided((2,), (1,), 0),  # an explicit offset is absolute
        lambda m: m.arange(6.0).as_strided((3,), (0,), 5),
        lambda m: m.arange(6.0).as_strided((), (), 4),
    ):
        _same(make(yaten), make(torch))


# --- set_ -------------------------------------------------------------------------------------------
def test_set_tensor_source_as_torch():
    for m in (torch, yaten):
        a, b = m.zeros(2), m.arange(6.0).view(2, 3)
        old = a[1:]
        assert a.set_(b.t()) is a
        assert a.shape == (3, 2) and a.stride() == (1, 3) and a.storage_offset() == 0
        assert a.data_ptr() == b.data_ptr() and a._base is None
        assert a._version == 1 and b._version == 0  # set_ bumps a's own counter; b's stays
        b.add_(1)
        assert a._version == 1 and a.tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
        assert old.untyped_storage().nbytes() == 8  # views made before keep the old storage


def test_set_storage_source_as_torch():
    cases = [
        lambda m, s: m.zeros(1).set_(s),
        lambda m, s: m.zeros(1).set_(s, 1, (2, 2)),
        lambda m, s: m.zeros(1).set_(s, 1, (2, 2), (1, 2)),
        lambda m, s: m.zeros(1).set_(s, storage_offset=2, size=(2,), stride=(3,)),
        lambda m, s: m.zeros(1).set_(s, 0, [2], [1]),
        lambda m, s: m.zeros(1, dtype=m.float64).set_(s),  # 24 bytes: 3 doubles
        lambda m, s: m.zeros(1, dtype=m.int16).set_(s, 0, (2,)),
        lambda m, s: m.zeros(1).set_(s, 5, (0, 3)),
        lambda m, s: m.zeros(1).set_(m.arange(10.0)[2:], 1, (2,), (2,)),  # counted from the source's offset
        lambda m, s: m.zeros(1).set_(m.arange(10.0)[2:]),
        lambda m, s: m.zeros(1).set_(),
    ]
    for case in cases:
        y = case(yaten, yaten.arange(6.0).untyped_storage())
        t = case(torch, torch.arange(6.0).untyped_storage())
        _same(y, t)
        assert y._version == t._version == 1


def test_set_shares_memory_with_storage():
    s = yaten.arange(6.0).untyped_storage()
    a = yaten.zeros(1).set_(s, 1, (2,), (2,))
    b = yaten.zeros(1).set_(s)
    a.fill_(-1.0)
    assert b.tolist() == [0.0, -1.0, 2.0, -1.0, 4.0, 5.0]
    assert a.untyped_storage() is s and a.data_ptr() == s.data_ptr() + 4


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.zeros(2).set_(m.zeros(2, dtype=m.int64)),
        lambda m: m.zeros(2, dtype=m.int8).set_(m.zeros(2, dtype=m.bool)),
        lambda m: m.zeros(2, dtype=m.float16).set_(m.zeros(2, dtype=m.uint8)),
        lambda m: m.zeros(2).set_(m.arange(6.0).untyped_storage(), 1, (2, 2), (1,)),
        lambda m: m.zeros(2).set_(m.arange(6.0).untyped_storage(), -1, (2,)),
        lambda m: m.zeros(2).set_(m.arange(6.0).untyped_storage(), 1, (2,), (-1,)),
        lambda m: m.zeros(2).set_(m.arange(6.0).view(2, 3).t(), 0, (2,)),
        lambda m: m.zeros(2, requires_grad=True).set_(m.zeros(3)),
    ],
)
def test_set_errors_as_torch(call):
    _same_error(call)


@pytest.mark.parametrize(
    "call",
    [lambda m: m.zeros(2).set_(1), lambda m: m.zeros(2).set_(m.arange(6.0).untyped_storage(), 1)],
)
def test_set_argument_errors_as_torch(call):
    (t_type, t_msg), (y_type, y_msg) = _errors(call)
    assert y_type is t_type is TypeError
    for msg in (t_msg, y_msg):  # torch names its storage class by module path; the signatures follow
        assert msg.startswith("set_() received an invalid combination of arguments - got (")
        assert (
            " * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)" in msg
        )


def test_set_out_of_bounds_is_an_error():
    # torch grows the storage; yaten cannot (its views hold the old memory), so it refuses instead.
    with pytest.raises(RuntimeError, match=r"^setStorage: sizes \[10\], strides \[1\], storage offset 0, and itemsize 4 "
                       r"requiring a storage size of 40 are out of bounds for storage of size 24$"):  # fmt: skip
        yaten.zeros(1).set_(yaten.arange(6.0).untyped_storage(), 0, (10,))


def test_set_and_autograd_as_torch():
    for m in (torch, yaten):
        with m.no_grad():
            leaf = m.zeros(2, requires_grad=True).set_(m.ones(3))
        assert leaf.requires_grad and leaf.is_leaf and leaf.tolist() == [1.0, 1.0, 1.0]
        x = m.ones(2, requires_grad=True) * 2
        x.set_(m.zeros(3))
        assert repr(x) == "tensor([0., 0., 0.], grad_fn=<NotImplemented>)" and x.requires_grad
        with pytest.raises(RuntimeError, match="^derivative for set_ is not implemented$"):
            x.sum().backward()
        a = m.zeros(2).set_(m.ones(3, requires_grad=True))
        assert a.requires_grad and "grad_fn=<NotImplemented>" in repr(a)


# --- NumPy ------------------------------------------------------------------------------------------
def test_numpy_shares_memory_both_ways():
    for m in (torch, yaten):
        x = m.arange(6.0).view(2, 3)
        a = x.numpy()
        assert a.dtype == np.float32 and a.shape == (2, 3)
        a[0, 0] = 10.0
        x[1, 2] = -1.0
        assert x.tolist() == [[10.0, 1.0, 2.0], [3.0, 4.0, -1.0]] and a[1, 2] == -1.0
        t = x.t().numpy()
        assert np.shares_memory(t, a) and t.strides == (4, 12)
        arr = np.arange(6, dtype=np.int32).reshape(2, 3)
        y = m.from_numpy(arr)
        arr[0, 1] = 50
        y[1, 1] = 40
        assert y.tolist() == [[0, 50, 2], [3, 40, 5]] and arr[1, 1] == 40 and y.dtype == m.int32
        assert y.data_ptr() == arr.ctypes.data
        assert np.shares_memory(np.asarray(x), a) and np.asarray(x, dtype=np.float64).dtype == np.float64


def test_numpy_errors_as_torch():
    _same_error(lambda m: m.ones(2, requires_grad=True).numpy())
    _same_error(lambda m: m.from_numpy(np.arange(4)[::-1]))
    swapped = np.arange(4, dtype=np.float32).view(np.dtype(np.float32).newbyteorder())
    _same_error(lambda m: m.from_numpy(swapped))


def test_numpy_of_requires_grad_with_force():
    for m in (torch, yaten):
        x = m.ones(2, requires_grad=True)
        assert x.numpy(force=True).tolist() == [1.0, 1.0]
        assert x.detach().numpy().tolist() == [1.0, 1.0]


# --- conversion to Python -----------------------------------------------------------------------------
SCALARS = {
    "item_float": lambda m: m.tensor(3.5).item(),
    "item_1elem": lambda m: m.tensor([[7]]).item(),
    "item_bool": lambda m: m.tensor(True).item(),
    "item_half": lambda m: m.tensor(0.1, dtype=m.float16).item(),
    "item_many": lambda m: m.tensor([1, 2]).item(),
    "item_empty": lambda m: m.tensor([]).item(),
    "tolist": lambda m: m.arange(6).view(2, 3).t().tolist(),
    "tolist_0d": lambda m: m.tensor(2.5).tolist(),
    "tolist_uint8": lambda m: m.tensor([[1, 255]], dtype=m.uint8).tolist(),
    "tolist_bool": lambda m: m.tensor([True, False]).tolist(),
    "tolist_empty": lambda m: m.zeros(2, 0).tolist(),
    "len": lambda m: len(m.zeros(4, 2)),
    "len_0d": lambda m: len(m.tensor(1)),
    "iter": lambda m: [t.tolist() for t in m.arange(6).view(3, 2)],
    "iter_0d": lambda m: list(m.tensor(1)),
    "bool_true": lambda m: bool(m.tensor([2.0])),
    "bool_false": lambda m: bool(m.tensor(0)),
    "bool_many": lambda m: bool(m.tensor([1, 2])),
    "bool_empty": lambda m: bool(m.tensor([])),
    "float": lambda m: float(m.tensor([[2]])),
    "float_many": lambda m: float(m.tensor([1.0, 2.0])),
    "int": lambda m: int(m.tensor(-3.9)),
    "int_many": lambda m: int(m.tensor([3, 4])),
    "complex": lambda m: complex(m.tensor(1.5)),
    "complex_many": lambda m: complex(m.tensor([1.5, 2])),
    "index": lambda m: [10, 20, 30][m.tensor(2)],
    "index_bool": lambda m: [10, 20, 30][m.tensor(True)],
    "index_1elem": lambda m: [10, 20, 30][m.tensor([1])],
    "index_float": lambda m: [10, 20, 30][m.tensor(1.0)],
    "index_many": lambda m: [10, 20, 30][m.tensor([1, 2])],
    "format": lambda m: f"{m.tensor(2.5):.3f}",
    "range": lambda m: list(range(m.tensor(3))),
}


@pytest.mark.parametrize("call", SCALARS.values(), ids=SCALARS.keys())
def test_python_conversions_as_torch(call):
    results = []
    for m in (torch, yaten):
        try:
            r = call(m)
            results.append((type(r), r))
        except Exception as e:
            results.append((type(e), _name(e)))
    assert results[1] == results[0]


# --- repr -------------------------------------------------------------------------------------------
REPRS = {
    "float": lambda m: m.tensor([1.0, 2.5]),
    "requires_grad": lambda m: m.tensor([1.0, 2.0], requires_grad=True),
    "grad_fn": lambda m: (m.tensor([1.0, 2.0], requires_grad=True) * m.tensor([3.0, 4.0])).sum(),
    "grad_fn_float64": lambda m: m.tensor([[1.0, 2.0]], dtype=m.float64, requires_grad=True).exp(),
    "int32": lambda m: m.tensor([[1, 2], [3, 4]], dtype=m.int32),
    "int64": lambda m: m.arange(3),
    "bool": lambda m: m.tensor([True, False]),
    "empty": lambda m: m.zeros(0, 3),
    "0-d_half": lambda m: m.tensor(1.5, dtype=m.float16),
    "view": lambda m: m.arange(12.0).view(3, 4).t()[1:],
    "uint8": lambda m: m.tensor([0, 255], dtype=m.uint8),
}


@pytest.mark.parametrize("make", REPRS.values(), ids=REPRS.keys())
def test_repr_as_torch(make):
    assert repr(make(yaten)) == _name(repr(make(torch)))
    assert str(make(yaten)) == _name(str(make(torch)))


# --- conversions and new tensors ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "method", ["float", "double", "half", "long", "int", "short", "char", "byte", "bool"]
)
def test_dtype_conversions_as_torch(method):
    data = [[-2.5, 0.0], [1.75, 300.0]]
    y, t = getattr(yaten.tensor(data), method)(), getattr(torch.tensor(data), method)()
    _same(y, t)
    for x in (t, y):
        assert getattr(x, method)() is x  # no conversion needed: the tensor itself, as torch


def test_type_as_cpu_and_type():
    for m in (torch, yaten):
        x = m.tensor([1.5, -2.0])
        assert x.type_as(m.zeros(1, dtype=m.int16)).dtype == m.int16
        assert x.type_as(x) is x and x.cpu() is x and x.to("cpu") is x
        assert x.to(m.float64).dtype == m.float64 and x.to(m.float64, copy=True) is not x
    for y, t in (
        (yaten.zeros(1), torch.zeros(1)),
        (yaten.zeros(1, dtype=yaten.uint8), torch.zeros(1, dtype=torch.uint8)),
    ):
        assert y.type() == _name(t.type())
    assert yaten.zeros(1).type(yaten.int64).dtype == yaten.int64
    assert (
        yaten.zeros(1).type("torch.IntTensor").dtype
        == yaten.int32
        == yaten.zeros(1).type("yaten.IntTensor").dtype
    )


NEW = {
    "new_zeros": lambda x, m: x.new_zeros(2, 3),
    "new_zeros_tuple": lambda x, m: x.new_zeros((2, 3)),
    "new_zeros_dtype": lambda x, m: x.new_zeros(2, dtype=m.float64),
    "new_ones": lambda x, m: x.new_ones(3),
    "new_ones_grad": lambda x, m: x.new_ones(3, dtype=m.float32, requires_grad=True),
    "new_full": lambda x, m: x.new_full((2,), 3.5),
    "new_full_dtype": lambda x, m: x.new_full((2, 1), 7, dtype=m.int16),
    "new_empty": lambda x, m: x.new_empty(2, 3).fill_(1),
    "new_tensor": lambda x, m: x.new_tensor([1.5, 2.0]),
    "new_tensor_dtype": lambda x, m: x.new_tensor([1, 2], dtype=m.float16),
}


@pytest.mark.parametrize("base", ["int64", "float32", "bool"])
@pytest.mark.parametrize("make", NEW.values(), ids=NEW.keys())
def test_new_tensors_as_torch(make, base):
    y = make(yaten.zeros(1, dtype=getattr(yaten, base)), yaten)
    t = make(torch.zeros(1, dtype=getattr(torch, base)), torch)
    _same(y, t)
    assert y.device == yaten.device("cpu")


# --- devices ------------------------------------------------------------------------------------------
DEVICES = [("cpu",), ("cuda",), ("cuda:1",), ("cuda", 2), ("meta",)]


@pytest.mark.parametrize("args", DEVICES, ids=str)
def test_device_objects_as_torch(args):
    y, t = yaten.device(*args), torch.device(*args)
    assert (repr(y), str(y), y.type, y.index) == (repr(t), str(t), t.type, t.index)
    assert (
        y == yaten.device(str(t)) and hash(y) == hash(yaten.device(str(t))) and (y == str(t)) == (t == str(t))
    )


@pytest.mark.parametrize(
    "args",
    [("cuda:x",), ("cuda:01",), ("cuda:-1",), ("cuda:1", 1), (None,), (1.5,), ("cuda", "x"), ("cpu", -1)],
    ids=str,
)
def test_device_errors_as_torch(args):
    _same_error(lambda m: m.device(*args))


def test_unknown_device_type_error():
    # torch lists every device type it knows; yaten lists its own.
    (t_type, t_msg), (y_type, y_msg) = _errors(lambda m: m.device("gpu"))
    assert y_type is t_type is RuntimeError
    assert y_msg == "Expected one of cpu, cuda, meta device type at start of device string: gpu"
    assert t_msg.startswith("Expected one of cpu, cuda, ") and t_msg.endswith(
        " device type at start of device string: gpu"
    )


def test_tensor_device_basics():
    for m in (torch, yaten):
        x = m.zeros(2, device="cpu")
        assert x.device == m.device("cpu") and x.device.type == "cpu" and x.device.index is None
        assert x.is_cpu and not x.is_cuda and x.cpu() is x
        assert m.zeros(1, device=m.device("cpu")).device == m.device("cpu") != "cpu"  # no str equality


def test_no_warnings_on_plain_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = yaten.ones(2, requires_grad=True)
        assert x.grad is None  # a leaf: no non-leaf warning
        _ = yaten.arange(3.0).view(3, 1).expand(3, 2).tolist()


WHERE_METHOD = {
    "tensor": lambda m: m.tensor([4.0, 7.0]).where(m.tensor([True, False]), m.tensor([0.5, 0.5])).tolist(),
    "scalar": lambda m: m.tensor([4.0, 7.0]).where(m.tensor([False, True]), 2).tolist(),
    "keywords": lambda m: m.tensor([4.0, 7.0]).where(condition=m.tensor([True, False]), other=1.5).tolist(),
}


@pytest.mark.parametrize("call", WHERE_METHOD.values(), ids=WHERE_METHOD.keys())
def test_a_method_binds_its_receiver_to_self_wherever_self_is(call):
    # where.self(Tensor condition, Tensor self, Tensor other): x.where(c, y) is where(c, x, y)
    assert call(yaten) == call(torch)


def test_fill_with_a_0d_tensor_as_torch():
    """``fill_(tensor)`` takes a 0-d tensor's value, and its gradient is the sum of the filled ones'."""
    results = []
    for lib in (torch, yaten):
        value = lib.tensor(2.5, requires_grad=True)
        y = lib.zeros(3, requires_grad=True) * 1
        y.fill_(value)
        (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        ints = lib.zeros(2, dtype=lib.int64).fill_(lib.tensor(3.7))
        results.append((y.tolist(), value.grad.item(), ints.tolist()))
    assert results[1] == results[0] == ([2.5, 2.5, 2.5], 6.0, [3, 3])


@pytest.mark.parametrize("element", [1.0, 5, True, yaten.tensor(2.0), yaten.tensor([[9.0], [1.0]])])
def test_contains_as_torch(element):
    t = torch.tensor(element.numpy()) if isinstance(element, yaten.Tensor) else element
    assert (element in yaten.arange(3.0)) == (t in torch.arange(3.0))


@pytest.mark.parametrize(
    "shape, perm, fmt",
    [
        ((2, 3, 4, 5), None, "channels_last"),
        ((2, 4, 5, 3), (0, 3, 1, 2), "channels_last"),
        ((2, 1, 4, 5), None, "channels_last"),
        ((2, 3, 1, 1), None, "channels_last"),
        ((0, 3, 4, 5), None, "channels_last"),
        ((2, 3), None, "channels_last"),
        ((2, 3, 4, 5, 6), None, "channels_last_3d"),
        ((2, 4, 5, 6, 3), (0, 4, 1, 2, 3), "channels_last_3d"),
        ((2, 4, 5, 3), (0, 3, 1, 2), "contiguous_format"),
    ],
)
def test_is_contiguous_in_a_memory_format_as_torch(shape, perm, fmt):
    # A tensor permuted from NHWC is channels-last contiguous; a plain NCHW one is not (unless its
    # channel or spatial dims are 1).
    got = []
    for m in (torch, yaten):
        x = m.zeros(shape)
        x = x.permute(*perm) if perm else x
        got.append(x.is_contiguous(memory_format=getattr(m, fmt)))
    assert got[1] == got[0]
