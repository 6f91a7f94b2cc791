"""Random numbers: ``Generator``, the default generators, and the sampling factories.

A CPU ``Generator`` drives a NumPy ``PCG64`` engine. A cuda one is PyTorch's counter-based
Philox4x32-10 state, ``(seed, offset)``: its samples are drawn on the device by the kernels of
``kernels/cuda/random.py``, each draw advancing the offset past the counters it used. The streams are
not PyTorch's: a seed gives the same numbers in yaten on every run and platform, not the numbers torch
gives. As in PyTorch, an unseeded program starts from a fixed seed, so it too draws the same numbers
every run.

On cuda, ``rand``, ``randn``, ``normal``, ``bernoulli``, ``randperm`` (the order sorting random
keys), the ``*_like`` factories, ``randint`` for a range of at most 2**32 integers and the in-place
fills draw on the device. ``randint`` over a wider range draws on the host and copies the result over,
from a NumPy ``Philox`` engine keyed by the cuda generator's seed and started at its offset, which
then advances by the counters the host engine used: every cuda draw follows the one state.
"""

import contextlib
import math
import os
import warnings
from typing import ClassVar

import ml_dtypes
import numpy as np

from . import _device as _dev
from . import _dtype as D
from . import _factories as F
from ._backend import backend
from ._host_allocator import allocation_error
from ._overlap import assert_no_internal_overlap
from ._promotion import broadcast_shapes
from ._tensor import Tensor, wrap
from .autograd import grad_mode
from .autograd.record import check_inplace

__all__ = [
    "Generator", "bernoulli", "default_generator", "get_rng_state", "initial_seed", "manual_seed", "normal", "rand",
    "rand_like", "randint", "randint_like", "randn", "randn_like", "randperm", "seed", "set_rng_state",
]  # fmt: skip

DEFAULT_SEED = 67280421310721  # PyTorch's seed for a ``Generator()`` nobody seeded
_DEVICE_INT_RANGE = 2**32  # the widest range of integers a cuda randint draws on the device

# The C++ type names PyTorch's range checks print.
_TYPE_NAME = {
    D.bool: "bool", D.uint8: "unsigned char", D.int8: "signed char", D.int16: "short", D.int32: "int",
    D.int64: "long", D.float16: "c10::Half", D.bfloat16: "c10::BFloat16", D.float32: "float", D.float64: "double",
}  # fmt: skip

# A state tensor's bytes: the seed, PCG64's 128-bit state and increment, its buffered 32-bit half-draw.
_STATE_FIELDS = (("seed", 8), ("state", 16), ("inc", 16), ("has_uint32", 8), ("uinteger", 8))
_STATE_BYTES = sum(n for _, n in _STATE_FIELDS)
# A cuda generator's, as PyTorch's: the seed, then the Philox offset.
_CUDA_STATE_FIELDS = (("seed", 8), ("offset", 8))
_CUDA_STATE_BYTES = sum(n for _, n in _CUDA_STATE_FIELDS)


class Generator:
    """A seedable source of random numbers with a saveable state, as ``torch.Generator``.

    >>> import yaten
    >>> g = yaten.Generator().manual_seed(42)
    >>> a = yaten.rand(3, generator=g)
    >>> b = yaten.rand(3, generator=g.manual_seed(42))
    >>> a.tolist() == b.tolist()
    True
    >>> c = yaten.Generator("cuda").manual_seed(42)  # a Philox state: (seed, offset)
    >>> c.device, c.initial_seed(), c.get_state().shape
    (device(type='cuda', index=0), 42, yaten.Size([16]))
    """

    __slots__ = ("_np", "_offset", "_seed", "device")

    def __init__(self, device="cpu"):
        self.device = _dev.canonical(device)
        self.manual_seed(DEFAULT_SEED)

    def manual_seed(self, seed) -> "Generator":
        """Restart the stream from ``seed`` (an int; negative seeds wrap to 64 bits); returns self."""
        if not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {F.type_name(seed)}")
        seed = int(seed)
        if not -(2**63) <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed % 2**64
        if self.device.type == "cpu":
            self._np = np.random.Generator(np.random.PCG64(self._seed))
        else:
            self._np, self._offset = None, 0
        return self

    def seed(self) -> int:
        """Reseed from the operating system's entropy; returns the new seed."""
        s = _entropy_seed()
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        """The seed the stream was last started from."""
        return self._seed

    def get_state(self) -> Tensor:
        """The generator's state as a uint8 tensor, for ``set_state`` (a cuda generator's: 16 bytes,
        the seed and the offset)."""
        if self._np is None:
            values = {"seed": self._seed, "offset": self._offset}
            raw = b"".join(values[name].to_bytes(n, "little") for name, n in _CUDA_STATE_FIELDS)
            return wrap(np.frombuffer(raw, np.uint8).copy(), _dev.CPU)
        st = self._np.bit_generator.state
        values = {
            "seed": self._seed,
            "has_uint32": st["has_uint32"],
            "uinteger": st["uinteger"],
            **st["state"],
        }
        raw = b"".join(values[name].to_bytes(n, "little") for name, n in _STATE_FIELDS)
        return wrap(np.frombuffer(raw, np.uint8).copy(), _dev.CPU)

    def set_state(self, new_state) -> "Generator":
        """Restore a state from ``get_state``: the stream continues from where it was saved."""
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a yaten.ByteTensor, but got {F.type_name(new_state)}")
        if new_state.dtype is not D.uint8:
            raise TypeError("RNG state must be a yaten.ByteTensor")
        raw = np.ascontiguousarray(new_state._host()).tobytes()
        fields, size = (
            (_STATE_FIELDS, _STATE_BYTES) if self._np is not None else (_CUDA_STATE_FIELDS, _CUDA_STATE_BYTES)
        )
        if len(raw) != size:
            raise RuntimeError(
                f"Expected a yaten generator state of size {size} but found the input RNG state size "
                f"to be {len(raw)}"
            )
        values, at = {}, 0
        for name, n in fields:
            values[name] = int.from_bytes(raw[at : at + n], "little")
            at += n
        if self._np is None:
            self._seed, self._offset = values["seed"], values["offset"]
            return self
        engine = np.random.PCG64()
        engine.state = {
            "bit_generator": "PCG64",
            "state": {"state": values["state"], "inc": values["inc"]},
            "has_uint32": values["has_uint32"],
            "uinteger": values["uinteger"],
        }
        self._seed = values["seed"]
        self._np = np.random.Generator(engine)
        return self


def _entropy_seed() -> int:
    return int.from_bytes(os.urandom(8), "little")


# As torch 2.13: each process's default generator starts from a fresh seed drawn from the OS's entropy
# (``initial_seed()`` differs between runs); a forked child inherits its parent's stream.
default_generator = Generator().manual_seed(_entropy_seed())


class _Defaults:
    # One default generator per device type; the cuda one is made on first use, from the last seed given
    # to ``manual_seed`` or, as torch's, from a fresh seed of its own when none was.
    by_type: ClassVar[dict] = {"cpu": default_generator}
    seed = None


def default_generator_for(device: _dev.device) -> Generator:
    """The generator a random op on ``device`` uses when it is given none."""
    g = _Defaults.by_type.get(device.type)
    if g is None:
        seed = _entropy_seed() if _Defaults.seed is None else _Defaults.seed
        g = _Defaults.by_type[device.type] = Generator(device).manual_seed(seed)
    return g


def _generator(fn: str, generator, device: _dev.device) -> Generator:
    """``generator``, checked to be one for ``device``, or that device's default."""
    if generator is None:
        return default_generator_for(device)
    if not isinstance(generator, Generator):
        raise TypeError(f"{fn}(): argument 'generator' must be yaten.Generator, not {F.type_name(generator)}")
    if generator.device.type != device.type:
        raise RuntimeError(
            f"Expected a '{device.type}' device type for generator but found '{generator.device.type}'"
        )
    return generator


def _engine(fn: str, generator, device: _dev.device) -> np.random.Generator:
    """A CPU generator's NumPy engine."""
    return _generator(fn, generator, device)._np


@contextlib.contextmanager
def _host_engine(g: Generator):
    """A NumPy engine to draw ``g``'s next samples on the host: a CPU generator's own; for a cuda one, a
    ``Philox`` engine keyed by its seed from the counter its offset has reached, whose counters used
    the offset then steps past (4 per counter, as a device draw's per call)."""
    if g._np is not None:
        yield g._np
        return
    start = (g._offset + 3) // 4
    bits = np.random.Philox(counter=[start % 2**64, 0, 0, 0], key=[g._seed, 0])
    yield np.random.Generator(bits)
    used = (int(bits.state["state"]["counter"][0]) - start) % 2**64
    g._offset = 4 * (start + used)


def _kernels():
    from .kernels.cuda import random

    return random


def _draw_into(g: Generator, sampler: str, data, *args) -> None:
    """Run ``kernels/cuda/random.py``'s ``sampler`` into the device array ``data`` with ``g``'s state."""
    g._offset += getattr(_kernels(), sampler)(data, g._seed, g._offset, *args)


def _device_new(
    g: Generator, sampler: str, shape, dt: D.dtype, dev: _dev.device, requires_grad, *args
) -> Tensor:
    """A new C-contiguous tensor on ``dev`` whose values ``sampler`` draws on the device (a complex
    one's real and imaginary parts drawn as a real (..., 2) tensor, as on the host)."""
    if dt.is_complex:
        from ._generated.ops import view_as_complex

        pairs = _device_new(g, sampler, (*shape, 2), dt.to_real(), dev, False, *args)
        if sampler == "normal_":
            pairs.mul_(math.sqrt(0.5))
        return view_as_complex(pairs).clone().requires_grad_(bool(requires_grad))
    data = backend(dev).empty(tuple(shape), dt.np)
    _draw_into(g, sampler, data, *args)
    return wrap(data, dev, bool(requires_grad))


# --- the global seed --------------------------------------------------------------------------------
def manual_seed(seed) -> Generator:
    """Seed the default generators of every device; returns the CPU one.

    >>> import yaten
    >>> a = yaten.manual_seed(0) and yaten.rand(2)
    >>> b = yaten.manual_seed(0) and yaten.rand(2)
    >>> a.tolist() == b.tolist()
    True
    """
    seed = int(seed)
    for g in _Defaults.by_type.values():
        g.manual_seed(seed)
    _Defaults.seed = default_generator.initial_seed()
    return default_generator


def seed() -> int:
    """Seed the default generators of every device from the OS's entropy; returns the seed.

    >>> import yaten
    >>> s = yaten.seed()
    >>> yaten.initial_seed() == s
    True
    """
    return manual_seed(_entropy_seed()).initial_seed()


def initial_seed() -> int:
    """The seed the default CPU generator was last started from: until ``manual_seed`` is called, a
    fresh one drawn from the OS's entropy when the process started, as torch 2.13's.

    >>> import yaten
    >>> yaten.manual_seed(7).initial_seed(), yaten.initial_seed()
    (7, 7)
    """
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default CPU generator's state, as a uint8 tensor.

    >>> import yaten
    >>> state = yaten.get_rng_state()
    >>> a = yaten.rand(2)
    >>> yaten.set_rng_state(state)
    >>> yaten.rand(2).tolist() == a.tolist()
    True
    """
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the default CPU generator's state from ``get_rng_state``.

    >>> import yaten
    >>> yaten.set_rng_state(yaten.get_rng_state())
    """
    default_generator.set_state(new_state)


# --- samples on the host ----------------------------------------------------------------------------
def _uniform01(engine: np.random.Generator, shape, dtype: D.dtype) -> np.ndarray:
    """Samples in [0, 1) of ``dtype``, drawn at its own precision so none rounds up to 1.

    A complex dtype gets independent real and imaginary parts, as torch's."""
    if dtype.is_complex:
        return _as_complex(_uniform01(engine, (*shape, 2), dtype.to_real()))
    if dtype is D.float64:
        return engine.random(shape)
    if dtype is D.float32:
        return engine.random(shape, dtype=np.float32)
    bits = ml_dtypes.finfo(dtype.np).nmant + 1  # half: 11 bits, bfloat16: 8, exact in the dtype
    return (engine.integers(0, 2**bits, shape) * 2.0**-bits).astype(np.float32).astype(dtype.np)


def _normal01(engine: np.random.Generator, shape, dtype: D.dtype) -> np.ndarray:
    if dtype.is_complex:  # torch's complex normal: each part N(0, 1/2), so that E|z|^2 = 1
        real = dtype.to_real()
        return _as_complex(_normal01(engine, (*shape, 2), real) * real.np.type(math.sqrt(0.5)))
    if dtype is D.float64:
        return engine.standard_normal(shape)
    return engine.standard_normal(shape, dtype=np.float32).astype(dtype.np, copy=False)


def _as_complex(pairs: np.ndarray) -> np.ndarray:
    # A C-contiguous (..., 2) float array's pairs as the complex numbers they store, sharing memory.
    return pairs.view(D.COMPLEX_OF[D.BY_NP[pairs.dtype]].np)[..., 0]


def _parts(t: Tensor) -> Tensor:
    # A complex tensor's real and imaginary parts as a real (..., 2) view, filled in its place.
    from ._generated.ops import view_as_real

    return view_as_real(t)


def _check_floating(fn: str, dtype, kernel: str) -> None:
    # Checked before requires_grad: in torch the sampling kernel refuses the dtype first.
    dt = F.dtype_arg(fn, dtype) or D.get_default_dtype()
    if not (dt.is_floating_point or dt.is_complex):
        raise F.not_implemented(kernel, dt)


def _check_from_to(low: int, high: int, dtype: D.dtype) -> None:
    """PyTorch's checks of an integer range [low, high) against what ``dtype`` can hold."""
    if dtype.is_complex:
        raise RuntimeError("check_random_bounds handles only integral, floating-point and boolean types")
    if not low < high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    name = _TYPE_NAME[dtype]
    if dtype.kind == "f":
        top = float(ml_dtypes.finfo(dtype.np).max)
        bottom = -top
    elif dtype is D.bool:
        bottom, top = 0, 1
    else:
        bottom, top = int(np.iinfo(dtype.np).min), int(np.iinfo(dtype.np).max)
    ends = ((low, "from"), (high - 1, "to - 1"))
    for v, what in ends:
        if not bottom <= v <= top:
            raise RuntimeError(f"{what} is out of bounds for {name}")
    if dtype.kind == "f":
        digits = ml_dtypes.finfo(dtype.np).nmant + 1
        for v, what in ends:
            if abs(v) > 2**digits:
                warnings.warn(
                    f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations {name} can "
                    "support discrete uniform distribution only within this range. This warning will become an "
                    "error in version 1.7 release, please fix the code in advance",
                    UserWarning,
                    stacklevel=3,
                )


def _int64_arg(fn: str, name: str, x) -> int:
    v = F.as_index(x)
    if v is None:
        raise TypeError(f"{fn}(): argument '{name}' must be int, not {F.type_name(x)}")
    if not -(2**63) <= v < 2**63:
        raise ValueError("Overflow when unpacking long long")
    return v


def _randint_args(args: tuple, low, high, size):
    # torch's overloads are randint(high, size) and randint(low, high, size), any of them by keyword.
    if len(args) > 3:
        raise TypeError(f"randint() takes at most 3 positional arguments ({len(args)} given)")
    if len(args) == 3:
        names = ("low", "high", "size")
    elif len(args) == 2:
        names = ("low", "high") if size is not None else ("high", "size")
    else:
        names = ("low",) if high is not None else ("high",)
    given = {"low": low, "high": high, "size": size}
    for name, value in zip(names, args):
        if given[name] is not None:
            raise TypeError(f"randint() got multiple values for argument '{name}'")
        given[name] = value
    if given["high"] is None or given["size"] is None:
        raise TypeError("randint() missing required arguments: expected (high, size) or (low, high, size)")
    size_position = 3 if len(args) == 3 or names == ("low", "high") else 2
    lo = 0 if given["low"] is None else _int64_arg("randint", "low", given["low"])
    return lo, _int64_arg("randint", "high", given["high"]), given["size"], size_position


# --- sampling factories -----------------------------------------------------------------------------
def rand(*args, size=None, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False) -> Tensor:  # fmt: skip
    """Samples from the uniform distribution on [0, 1).

    >>> import yaten
    >>> x = yaten.rand(2, 3, generator=yaten.Generator().manual_seed(0))
    >>> x.shape, all(0 <= v < 1 for row in x.tolist() for v in row)
    (yaten.Size([2, 3]), True)
    """
    shape = F.parse_size("rand", args, size)
    _check_floating("rand", dtype, "check_uniform_bounds")
    dt, dev = F.options("rand", dtype, device, requires_grad)
    g = _generator("rand", generator, dev)
    if g._np is None:
        return _device_new(g, "uniform_", shape, dt, dev, requires_grad)
    try:
        host = _uniform01(g._np, shape, dt)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, shape, dt.np) from None
    return F.make(host, dev, requires_grad)


def randn(*args, size=None, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False) -> Tensor:  # fmt: skip
    """Samples from the standard normal distribution.

    >>> import yaten
    >>> yaten.randn(4, dtype=yaten.float64).dtype
    yaten.float64
    """
    shape = F.parse_size("randn", args, size)
    _check_floating("randn", dtype, "normal_kernel_cpu")
    dt, dev = F.options("randn", dtype, device, requires_grad)
    g = _generator("randn", generator, dev)
    if g._np is None:
        return _device_new(g, "normal_", shape, dt, dev, requires_grad)
    try:
        host = _normal01(g._np, shape, dt)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, shape, dt.np) from None
    return F.make(host, dev, requires_grad)


def randint(*args, low=None, high=None, size=None, generator=None, dtype=None, layout=None, device=None,
            requires_grad=False, pin_memory=False) -> Tensor:  # fmt: skip
    """Integers drawn uniformly from [low, high): ``randint(high, size)`` or ``randint(low, high, size)``.

    >>> import yaten
    >>> x = yaten.randint(3, 10, (5,))
    >>> x.dtype, all(3 <= v < 10 for v in x.tolist())
    (yaten.int64, True)
    """
    lo, hi, size, position = _randint_args(args, low, high, size)
    shape = F.size_arg("randint", size, position)
    dt, dev = F.options("randint", dtype, device, requires_grad, default=D.int64)
    _check_from_to(lo, hi, dt)
    g = _generator("randint", generator, dev)
    if g._np is None and hi - lo <= _DEVICE_INT_RANGE:
        return _device_new(g, "randint_", shape, dt, dev, requires_grad, lo, hi)
    with _host_engine(g) as engine:
        try:
            values = engine.integers(lo, hi, shape, dtype=np.int64).astype(dt.np)
        except (MemoryError, ValueError) as e:
            raise allocation_error(e, shape, np.int64) from None
    return F.make(values, dev, requires_grad)


def randperm(n, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False) -> Tensor:  # fmt: skip
    """A random permutation of ``0 .. n-1``.

    >>> import yaten
    >>> sorted(yaten.randperm(5).tolist())
    [0, 1, 2, 3, 4]
    """
    m = F.as_index(n)
    if m is None:
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, not {F.type_name(n)}")
    dt, dev = F.options("randperm", dtype, device, requires_grad, default=D.int64)
    F.check_shape([m])
    if dt is D.bool:
        raise F.not_implemented("randperm", dt)
    if m > 0:
        F.checked_scalar(m - 1, dt)
    limit = {
        D.float16: (11, "2049", "Half"),
        D.float32: (24, "2^24+1", "Float"),
        D.float64: (53, "2^53+1", "Double"),
    }
    if dt in limit and m > 2 ** limit[dt][0] + 1:
        raise RuntimeError(f"n cannot be greater than {limit[dt][1]} for {limit[dt][2]} type.")
    g = _generator("randperm", generator, dev)
    if g._np is None:  # the order that sorts m random keys, as torch's cuda randperm
        keys = _device_new(g, "uniform_", (m,), D.float64, dev, False)
        with grad_mode.no_grad():
            order = keys.sort()[1]
        return wrap(order._data if dt is D.int64 else order.to(dt)._data, dev, requires_grad)
    try:
        host = g._np.permutation(m).astype(dt.np)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, (m,), np.int64) from None
    return F.make(host, dev, requires_grad)


_NORMAL_OVERLOADS = (
    "expected one of: (Tensor mean, Tensor std), (Tensor mean, float std = 1), (float mean, Tensor std), "
    "(float mean, float std, tuple of ints size, *, dtype, device, requires_grad)"
)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False) -> Tensor:  # fmt: skip
    """Samples from normal distributions with the given ``mean`` and ``std`` (numbers or tensors).

    With tensors, the result has their broadcast shape and the dtype of ``mean`` (else ``std``);
    with two numbers, ``size`` gives the shape. The result records no gradient.

    >>> import yaten
    >>> yaten.normal(2.0, 0.5, (2, 3)).shape
    yaten.Size([2, 3])
    >>> yaten.normal(yaten.zeros(3), yaten.ones(2, 1)).shape
    yaten.Size([2, 3])
    """
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not (mean_t or std_t):
        if size is None:
            raise TypeError(
                f"normal() received an invalid combination of arguments: missing 'size'; {_NORMAL_OVERLOADS}"
            )
        m = float(F.number_arg("normal", "mean", 1, mean))
        s = float(F.number_arg("normal", "std", 2, std))
        shape = F.size_arg("normal", size, 3)
        _check_floating("normal", dtype, "normal_kernel_cpu")
        dt, dev = F.options("normal", dtype, device, requires_grad)
        if s < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {s:g}")
        g = _generator("normal", generator, dev)
        if g._np is None:
            return _device_new(g, "normal_", shape, dt, dev, requires_grad, m, s)
        with np.errstate(over="ignore"):
            try:
                host = np.asarray(m + s * g._np.standard_normal(shape)).astype(dt.np)
            except (MemoryError, ValueError) as e:
                raise allocation_error(e, shape, np.float64) from None
        return F.make(host, dev, requires_grad)
    if size is not None or dtype is not None or device is not None or requires_grad:
        raise TypeError(
            f"normal() received an invalid combination of arguments: size, dtype, device and requires_grad "
            f"go only with a float mean and std; {_NORMAL_OVERLOADS}"
        )
    like = mean if mean_t else std
    dt, dev = like.dtype, like.device
    if not dt.is_floating_point:
        raise F.not_implemented("normal_kernel_cpu", dt)
    m = mean if mean_t else float(F.number_arg("normal", "mean", 1, mean))
    if std_t:
        if not bool((std.detach() >= 0).all()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    else:
        s = float(F.number_arg("normal", "std", 2, std))
        if s < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {s:g}")
    shape = broadcast_shapes(tuple(mean.shape) if mean_t else (), tuple(std.shape) if std_t else ())
    g = _generator("normal", generator, dev)
    if g._np is None:  # mean + std * z on the device
        z = _device_new(g, "normal_", shape, D.float64 if dt is D.float64 else D.float32, dev, False)
        with grad_mode.no_grad():
            return ((m.detach() if mean_t else m) + (std.detach() if std_t else s) * z).to(dt)
    m = m._host().astype(np.float64) if mean_t else m
    s = std._host().astype(np.float64) if std_t else s
    with np.errstate(over="ignore"):
        host = np.asarray(m + s * g._np.standard_normal(shape)).astype(dt.np)
    return F.make(host, dev)


def bernoulli(input, p=None, *, generator=None) -> Tensor:
    """0/1 samples: 1 with probability ``input`` element-wise, or with probability ``p`` if given.

    The result has ``input``'s shape and dtype and records no gradient.

    >>> import yaten
    >>> yaten.bernoulli(yaten.tensor([0.0, 1.0]))
    tensor([0., 1.])
    """
    F.tensor_arg("bernoulli", "input", 1, input)
    if p is None:
        if not input.dtype.is_floating_point:
            raise F.not_implemented("bernoulli_tensor_cpu_p_", input.dtype)
        if input.device.type == "cuda":  # the probabilities are read, and checked, on the device
            return _device_new(_generator("bernoulli", generator, input.device), "bernoulli_", input.shape,
                               input.dtype, input.device, False, input._data)  # fmt: skip
        prob = input._host()
        if not ((prob >= 0) & (prob <= 1)).all():
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    else:
        if isinstance(p, Tensor):
            raise TypeError("bernoulli(): argument 'p' (position 2) must be float, not Tensor")
        prob = float(F.number_arg("bernoulli", "p", 2, p))
        if not 0 <= prob <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={prob:g}")
        if input.device.type == "cuda":
            g = _generator("bernoulli", generator, input.device)
            return _device_new(g, "bernoulli_", input.shape, input.dtype, input.device, False, prob)
    _, dev, host, strides = F.like("bernoulli", input, None, None, False, None)
    host[...] = _engine("bernoulli", generator, dev).random(tuple(input.shape)) < prob
    return F.make(host, dev, False, strides)


# --- *_like -----------------------------------------------------------------------------------------
def rand_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:  # fmt: skip
    """``rand`` with the shape (and, by default, dtype, device and layout) of ``input``.

    >>> import yaten
    >>> yaten.rand_like(yaten.zeros(2, 2, dtype=yaten.float64)).dtype
    yaten.float64
    """
    dt, dev, host, strides = F.like("rand_like", input, dtype, device, requires_grad, memory_format)
    if not (dt.is_floating_point or dt.is_complex):
        raise F.not_implemented("check_uniform_bounds", dt)
    g = _generator("rand_like", generator, dev)
    if g._np is None:
        return _device_new(g, "uniform_", host.shape, dt, dev, requires_grad)
    host[...] = _uniform01(g._np, host.shape, dt)
    return F.make(host, dev, requires_grad, strides)


def randn_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:  # fmt: skip
    """``randn`` with the shape (and, by default, dtype, device and layout) of ``input``.

    >>> import yaten
    >>> yaten.randn_like(yaten.zeros(3)).shape
    yaten.Size([3])
    """
    dt, dev, host, strides = F.like("randn_like", input, dtype, device, requires_grad, memory_format)
    if not (dt.is_floating_point or dt.is_complex):
        raise F.not_implemented("normal_kernel_cpu", dt)
    g = _generator("randn_like", generator, dev)
    if g._np is None:
        return _device_new(g, "normal_", host.shape, dt, dev, requires_grad)
    host[...] = _normal01(g._np, host.shape, dt)
    return F.make(host, dev, requires_grad, strides)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None) -> Tensor:  # fmt: skip
    """``randint`` with the shape (and, by default, dtype, device and layout) of ``input``:
    ``randint_like(input, high)`` or ``randint_like(input, low, high)``.

    >>> import yaten
    >>> yaten.randint_like(yaten.zeros(4), 10).dtype
    yaten.float32
    """
    if high is None:
        low, high = 0, low
    lo, hi = _int64_arg("randint_like", "low", low), _int64_arg("randint_like", "high", high)
    dt, dev, host, strides = F.like("randint_like", input, dtype, device, requires_grad, memory_format)
    _check_from_to(lo, hi, dt)
    g = _generator("randint_like", generator, dev)
    if g._np is None and hi - lo <= _DEVICE_INT_RANGE:
        return _device_new(g, "randint_", host.shape, dt, dev, requires_grad, lo, hi)
    with _host_engine(g) as engine:
        host[...] = engine.integers(lo, hi, host.shape, dtype=np.int64)
    return F.make(host, dev, requires_grad, strides)


# --- in-place fills, for Tensor.uniform_/normal_ and nn.init --------------------------------------
def _fill_on_device(tensor: Tensor, fn: str, generator, sampler: str, *args) -> Tensor:
    """Draw ``tensor``'s new values into it on the device (a cuda tensor)."""
    g = _generator(fn, generator, tensor.device)
    if grad_mode.is_grad_enabled():
        check_inplace(tensor)
    assert_no_internal_overlap(tensor._data)
    _draw_into(g, sampler, tensor._data, *args)
    tensor._vc[0] += 1
    return tensor


def _write(tensor: Tensor, values: np.ndarray) -> Tensor:
    if grad_mode.is_grad_enabled():
        check_inplace(tensor)
    assert_no_internal_overlap(tensor._data)
    with np.errstate(over="ignore"):
        values = values.astype(tensor.dtype.np)
    if tensor.device.type == "cpu":
        tensor._data[...] = values
    else:
        from .kernels.cuda.copy import copy_into

        copy_into(tensor._data, backend(tensor.device).from_host(values))
    tensor._vc[0] += 1
    return tensor


def fill_uniform_(tensor: Tensor, low=0.0, high=1.0, generator=None) -> Tensor:
    """Fill ``tensor`` in place with samples from U[low, high), as ``Tensor.uniform_``; returns it.

    >>> import yaten
    >>> from yaten._random import fill_uniform_
    >>> x = fill_uniform_(yaten.empty(1000), -2.0, 3.0)
    >>> all(-2 <= v < 3 for v in x.tolist())
    True
    """
    dt = tensor.dtype
    if dt.is_complex:  # each part uniform on [low, high), as torch's
        fill_uniform_(_parts(tensor), low, high, generator)
        return tensor
    if not dt.is_floating_point:
        raise F.not_implemented("check_uniform_bounds", dt)
    lo, hi = float(low), float(high)
    top, name = float(ml_dtypes.finfo(dt.np).max), _TYPE_NAME[dt]
    if not -top <= lo <= top:
        raise RuntimeError(f"from is out of bounds for {name}")
    if not -top <= hi <= top:
        raise RuntimeError(f"to is out of bounds for {name}")
    if lo > hi:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={lo:g} > to={hi:g}"
        )
    if hi - lo > top:
        raise RuntimeError(
            f"uniform_ expects to-from <= std::numeric_limits<{name}>::max(), but found to={hi:g} and from={lo:g} "
            "which result in to-from to exceed the limit"
        )
    if tensor.device.type == "cuda":
        return _fill_on_device(tensor, "uniform_", generator, "uniform_", lo, hi)
    u = _uniform01(_engine("uniform_", generator, tensor.device), tuple(tensor.shape), dt).astype(np.float64)
    values = (lo + (hi - lo) * u).astype(dt.np)
    if (
        lo < hi
    ):  # a draw that rounds up to ``to`` in a narrow dtype stays below it: torch's range is [from, to)
        values = np.minimum(values, np.nextafter(dt.np.type(hi), dt.np.type(-np.inf)))
    return _write(tensor, values)


def fill_bernoulli_(tensor: Tensor, p=0.5, generator=None) -> Tensor:
    """Fill ``tensor`` in place with 0/1 samples, 1 with probability ``p`` (a number, or a tensor that
    broadcasts to ``tensor``'s shape), as ``Tensor.bernoulli_``; returns it.

    >>> import yaten
    >>> from yaten._random import fill_bernoulli_
    >>> fill_bernoulli_(yaten.empty(3), yaten.tensor([0.0, 1.0, 1.0])).tolist()
    [0.0, 1.0, 1.0]
    """
    if grad_mode.is_grad_enabled():
        check_inplace(tensor)
    if tensor.dtype.is_complex:
        kernel = "bernoulli_tensor_cpu_self_" if isinstance(p, Tensor) else "bernoulli_scalar_cpu_"
        raise F.not_implemented(kernel, tensor.dtype)
    if isinstance(p, Tensor):
        if not p.dtype.is_floating_point:
            raise F.not_implemented("bernoulli_tensor_cpu_p_", p.dtype)
        draws = bernoulli(p.to(tensor.device).expand(tensor.shape), generator=generator)
    else:
        draws = bernoulli(tensor, p, generator=generator)
    with grad_mode.no_grad():
        return tensor.copy_(draws)


def fill_random_(tensor: Tensor, args: tuple, kwargs: dict, generator=None) -> Tensor:
    """Fill ``tensor`` in place with integers drawn uniformly, as ``Tensor.random_``: ``random_()`` over
    ``[0, top]`` (the dtype's largest integer; for floats ``2**digits``, every integer exact there),
    ``random_(to)`` over ``[0, to)``, ``random_(from, to)`` over ``[from, to)``, and ``random_(from, None)``
    over ``[from, top]``. Returns ``tensor``. A cuda tensor's values are drawn on the host from its generator's
    Philox stream at the generator's offset (as wide ``randint`` ranges are) and copied in.

    >>> import yaten
    >>> from yaten._random import fill_random_
    >>> all(3 <= v < 5 for v in fill_random_(yaten.empty(8), (3, 5), {}).tolist())
    True
    """
    if tensor.dtype.is_complex:
        raise F.not_implemented("random_kernel_cpu", tensor.dtype)
    low, high = _random_range(tensor.dtype, args, kwargs)
    g = _generator("random_", generator, tensor.device)
    with _host_engine(g) as engine:
        values = engine.integers(low, high, tuple(tensor.shape), dtype=np.int64, endpoint=True)
    return _write(tensor, values)


def _random_range(dtype: D.dtype, args: tuple, kwargs: dict) -> tuple:
    """The inclusive range ``(low, high)`` of a ``random_`` call's overload, checked as torch checks it."""
    if len(args) > 2:
        raise TypeError(f"random_() takes from 0 to 2 positional arguments but {len(args)} were given")
    bound = dict(zip(("from", "to") if len(args) == 2 or "to" in kwargs else ("to",), args))
    for key, value in kwargs.items():
        if key not in ("from", "to") or key in bound:
            raise TypeError(f"random_() got an unexpected or repeated keyword argument '{key}'")
        bound[key] = value
    if dtype is D.bool:
        top = 1
    elif dtype.is_floating_point:
        top = 2 ** (ml_dtypes.finfo(dtype.np).nmant + 1)
    else:
        top = int(np.iinfo(dtype.np).max)
    if not bound:
        return 0, top
    low = _int64_arg("random_", "from", bound.get("from", 0))
    if "from" in bound and bound.get("to") is None:  # random_(from, None): up to the dtype's top
        if dtype.is_floating_point and low > top:
            raise RuntimeError(
                "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, "
                f"but got from={low} > to_inc={top}"
            )
        _check_from_to(low, low + 1, dtype)  # from within the dtype's range
        return low, top
    high = _int64_arg("random_", "to", bound["to"])
    _check_from_to(low, high, dtype)
    return low, high - 1


def fill_normal_(tensor: Tensor, mean=0.0, std=1.0, generator=None) -> Tensor:
    """Fill ``tensor`` in place with samples from N(mean, std²), as ``Tensor.normal_``; returns it.

    >>> import yaten
    >>> from yaten._random import fill_normal_
    >>> fill_normal_(yaten.empty(2, 3), 0.0, 0.02).shape
    yaten.Size([2, 3])
    """
    dt = tensor.dtype
    if dt.is_complex:  # each part N(mean, std²/2), as torch's
        fill_normal_(_parts(tensor), mean, std * math.sqrt(0.5), generator)
        return tensor
    if not dt.is_floating_point:
        raise F.not_implemented("normal_kernel_cpu", dt)
    m, s = float(mean), float(std)
    if s < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {s:g}")
    if tensor.device.type == "cuda":
        return _fill_on_device(tensor, "normal_", generator, "normal_", m, s)
    z = _engine("normal_", generator, tensor.device).standard_normal(tuple(tensor.shape))
    return _write(tensor, np.asarray(m + s * z))
