"""The op table: sample inputs for every op in spec/native_functions.yaml.

Pointwise ops get their samples from their schema (every layout the issue asks for: contiguous,
non-contiguous, broadcast, 0-dim, empty); other ops list theirs in ``EXPLICIT`` by overload name.
A sample holds NumPy arrays for tensor arguments, so the same data feeds yaten and torch.
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from codegen.load import load

ROOT = Path(__file__).resolve().parents[2]
SPEC = load(ROOT)


@dataclass
class Sample:
    args: tuple
    kwargs: dict = field(default_factory=dict)
    label: str = ""
    method: bool = False  # call as args[0].<name>(*args[1:])
    grad: bool = True  # include in gradient checks


def _rng(seed=0):
    return np.random.default_rng(seed)


# Inputs must stay inside an op's domain (log of positives, no division by zero, ...).
POSITIVE = {"log", "log2", "log10", "sqrt", "rsqrt", "reciprocal", "pow.Tensor_Tensor", "pow.Tensor_Scalar",
            "pow.Scalar"}  # fmt: skip
NONZERO_OTHER = {"div.Tensor", "div.Scalar", "remainder.Tensor", "remainder.Scalar", "floor_divide",
                 "floor_divide.Scalar", "atan2"}  # fmt: skip
SCALARS = {"exponent": 2.0, "alpha": 2, "other": 1.5, "weight": 0.25, "min": -0.5, "max": 0.5, "self": 2.0}
UNIT_RANGE = {"log1p", "atan2"}


def _array(rng, shape, dtype, name, op):
    return np.asarray(_values(rng, shape, dtype, name, op))


def _values(rng, shape, dtype, name, op):
    if np.dtype(dtype).kind == "b":
        return rng.random(shape) > 0.5
    if np.dtype(dtype).kind in "iu":
        lo = 1 if (op in POSITIVE or (name == "other" and op in NONZERO_OTHER)) else -4
        a = np.asarray(rng.integers(lo, 5, size=shape).astype(dtype))
        if name == "other" and op in NONZERO_OTHER:
            a[a == 0] = 1
        return a
    if op in POSITIVE or (name == "other" and op in NONZERO_OTHER):
        return (rng.random(shape) + 0.5).astype(dtype)
    if op in UNIT_RANGE:
        return (rng.random(shape) * 0.8 + 0.1).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def pointwise_samples(fn, dtype):
    """Samples of a pointwise op for one dtype, derived from its schema."""
    rng = _rng(len(fn.name))
    name = fn.name
    args = [a for a in fn.schema.flat_arguments if a not in fn.schema.out_arguments]
    layouts = {
        "contiguous": lambda i: (3, 4),
        "broadcast": lambda i: (3, 1) if i == 0 else (4,),
        "0-dim": lambda i: (),
        "empty": lambda i: (0, 4),
    }
    layouts["non-contiguous"] = None  # transposed views of (4, 3) arrays
    kwonly = {a.name for a in fn.schema.arguments.kwarg_only}
    out = []
    for label, shape_of in layouts.items():
        vals, kwargs, tensor_i = [], {}, 0
        for a in args:
            if str(a.type) == "Tensor":
                dt = np.bool_ if a.name == "condition" else dtype
                if shape_of is None:
                    v = _array(rng, (4, 3), dt, a.name, name).T
                else:
                    v = _array(rng, shape_of(tensor_i), dt, a.name, name)
                tensor_i += 1
            else:
                v = SCALARS.get(a.name, 2)
            if (
                a.name in kwonly or a.name == "alpha"
            ):  # torch reads a positional alpha as deprecated add(input, alpha, other)
                kwargs[a.name] = v
            else:
                vals.append(v)
        out.append(Sample(tuple(vals), kwargs, label=label))
    return out


def _f(*shape, seed=0, positive=False):
    a = _rng(seed).standard_normal(shape)
    return np.abs(a) + 0.5 if positive else a


def _idx(*values):
    return np.array(values, dtype=np.int64)


# Explicit samples for the ops that are not pointwise: overload name -> list of Samples (float64 data;
# the dtype tests convert the floating arrays).
EXPLICIT = {
    "sum": [
        Sample((_f(3, 4),)),
        Sample((_f(3, 4).T,), label="non-contiguous"),
        Sample((_f(),), label="0-dim"),
        Sample((np.zeros((0, 3)),), label="empty"),
    ],
    "sum.dim_IntList": [
        Sample((_f(3, 4, 2), [0, 2])),
        Sample((_f(3, 4), 1, True)),
        Sample((_f(3, 4), [-1])),
        Sample((_f(3, 4).T, 0), label="non-contiguous"),
    ],
    "mean": [Sample((_f(3, 4),)), Sample((_f(),), label="0-dim")],
    "mean.dim": [Sample((_f(3, 4, 2), [0, 2])), Sample((_f(3, 4), 1, True))],
    "prod": [Sample((_f(3, 4),)), Sample((np.array([[1.0, 0.0], [2.0, 3.0]]),), label="with zero")],
    "prod.dim_int": [
        Sample((_f(3, 4), 1)),
        Sample((np.array([[1.0, 0.0], [2.0, 3.0]]), 0, True), label="zero"),
    ],
    "max": [Sample((_f(3, 4),))],
    "max.dim": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), 0, True))],
    "max.other": [Sample((_f(3, 4), _f(3, 4, seed=1)))],
    "min": [Sample((_f(3, 4),))],
    "min.dim": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), 0, True))],
    "min.other": [Sample((_f(3, 4), _f(3, 4, seed=1)))],
    "amax": [Sample((_f(3, 4), [1])), Sample((_f(3, 4), [0, 1], True))],
    "amin": [Sample((_f(3, 4), [1])), Sample((_f(3, 4), [0, 1], True))],
    "argmax": [Sample((_f(3, 4),), grad=False), Sample((_f(3, 4), 1), grad=False)],
    "argmin": [Sample((_f(3, 4),), grad=False), Sample((_f(3, 4), 0, True), grad=False)],
    "var.correction": [Sample((_f(3, 4), [1]), {"correction": 0}), Sample((_f(3, 4),))],
    "std.correction": [Sample((_f(3, 4), [1]), {"correction": 0}), Sample((_f(3, 4),))],
    "var": [Sample((_f(3, 4),))],
    "var.dim": [Sample((_f(3, 4), [0]))],
    "std": [Sample((_f(3, 4),))],
    "std.dim": [Sample((_f(3, 4), [0], False, True))],
    "logsumexp": [Sample((_f(3, 4), [1])), Sample((_f(3, 4), [0], True))],
    "all": [Sample((_f(3, 4) > 0,), grad=False)],
    "all.dim": [Sample((_f(3, 4) > 0, 1), grad=False)],
    "all.dims": [Sample((_f(3, 4) > 0, [0]), grad=False)],
    "any": [Sample((_f(3, 4) > 0,), grad=False)],
    "any.dim": [Sample((_f(3, 4) > 0, 1), grad=False)],
    "any.dims": [Sample((_f(3, 4) > 0, [0]), grad=False)],
    "norm.Scalar": [Sample((_f(3, 4),)), Sample((_f(3, 4), 1)), Sample((_f(3, 4), 3))],
    "norm.ScalarOpt_dim": [Sample((_f(3, 4), 2, [1])), Sample((_f(3, 4), 1, [0], True))],
    "cumsum": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), 0))],
    "softmax.int": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), 0))],
    "log_softmax.int": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), -1))],
    "_softmax": [Sample((_f(3, 4), 1, False))],
    "_log_softmax": [Sample((_f(3, 4), 1, False))],
    "mm": [
        Sample((_f(3, 4), _f(4, 2, seed=1))),
        Sample((_f(4, 3).T, _f(4, 2, seed=1)), label="non-contiguous"),
    ],
    "bmm": [Sample((_f(2, 3, 4), _f(2, 4, 5, seed=1)))],
    "addmm": [
        Sample((_f(3, 2), _f(3, 4, seed=1), _f(4, 2, seed=2))),
        Sample((_f(2), _f(3, 4, seed=1), _f(4, 2, seed=2)), {"beta": 0.5, "alpha": 2}, label="broadcast"),
    ],
    "dot": [Sample((_f(4), _f(4, seed=1)))],
    "mv": [Sample((_f(3, 4), _f(4, seed=1)))],
    "matmul": [
        Sample((_f(3, 4), _f(4, 2, seed=1))),
        Sample((_f(2, 3, 4), _f(4, seed=1)), label="batched-vec"),
        Sample((_f(4), _f(2, 4, 3, seed=1)), label="vec-batched"),
        Sample((_f(4), _f(4, seed=1)), label="dot"),
        Sample((_f(2, 1, 3, 4), _f(5, 4, 2, seed=1)), label="broadcast"),
    ],
    "outer": [Sample((_f(3), _f(4, seed=1)))],
    "linear": [Sample((_f(2, 3), _f(4, 3, seed=1), _f(4, seed=2))), Sample((_f(5, 2, 3), _f(4, 3, seed=1)))],
    "cat": [Sample(([_f(2, 3), _f(4, 3, seed=1)],)), Sample(([_f(2, 3), _f(2, 1, seed=1)], 1))],
    "stack": [Sample(([_f(2, 3), _f(2, 3, seed=1)],)), Sample(([_f(2, 3), _f(2, 3, seed=1)], 2))],
    "flip": [Sample((_f(3, 4), [0])), Sample((_f(3, 4), [0, 1]))],
    "roll": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), [1, -1], [0, 1]))],
    "repeat": [Sample((_f(2, 3), (2, 1)), method=True), Sample((_f(2, 3), (2, 1, 2)), method=True)],
    "clone": [Sample((_f(3, 4),)), Sample((_f(4, 3).T,), label="non-contiguous")],
    "view": [Sample((_f(3, 4), (4, 3)), method=True), Sample((_f(3, 4), (-1,)), method=True)],
    "reshape": [Sample((_f(3, 4), (2, 6))), Sample((_f(4, 3).T, (12,)), label="copying")],
    "as_strided": [Sample((_f(3, 4), (2, 2), (1, 2), 1))],
    "transpose.int": [Sample((_f(3, 4, 2), 0, 2))],
    "t": [Sample((_f(3, 4),))],
    "permute": [Sample((_f(3, 4, 2), (2, 0, 1)))],
    "expand": [Sample((_f(3, 1), (3, 4)), method=True), Sample((_f(4), (2, 4)), method=True)],
    "expand_as": [Sample((_f(3, 1), _f(3, 4)), method=True)],
    "squeeze": [Sample((_f(3, 1, 4),))],
    "squeeze.dim": [Sample((_f(3, 1, 4), 1))],
    "squeeze.dims": [Sample((_f(3, 1, 1), [1, 2]))],
    "unsqueeze": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), -1))],
    "flatten.using_ints": [Sample((_f(2, 3, 4),)), Sample((_f(2, 3, 4), 1))],
    "unflatten.int": [Sample((_f(2, 6), 1, (2, 3)))],
    "narrow": [Sample((_f(4, 3), 0, 1, 2))],
    "select.int": [Sample((_f(4, 3), 0, 1)), Sample((_f(4, 3), 1, -1))],
    "slice.Tensor": [Sample((_f(6, 3), 0, 1, 5, 2))],
    "split.Tensor": [Sample((_f(5, 3), 2))],
    "split_with_sizes": [Sample((_f(5, 3), [2, 3]))],
    "chunk": [Sample((_f(5, 3), 2))],
    "unbind.int": [Sample((_f(3, 2),)), Sample((_f(3, 2), 1))],
    "movedim.int": [Sample((_f(2, 3, 4), 0, 2))],
    "movedim.intlist": [Sample((_f(2, 3, 4), [0, 1], [2, 0]))],
    "contiguous": [Sample((_f(4, 3).T,), method=True)],
    "detach": [Sample((_f(3, 4),), grad=False)],
    "index_select": [Sample((_f(4, 3), 0, _idx(0, 2, 2)))],
    "gather": [Sample((_f(3, 4), 1, _idx(0, 2, 1, 3, 3, 0).reshape(3, 2)))],
    "scatter.src": [Sample((_f(3, 4), 1, _idx(0, 2, 1, 3, 3, 0).reshape(3, 2), _f(3, 2, seed=1)))],
    "scatter.value": [Sample((_f(3, 4), 1, _idx(0, 2, 1, 3, 3, 0).reshape(3, 2), 2.5))],
    "scatter_add": [Sample((_f(3, 4), 1, _idx(0, 0, 1, 3, 3, 3).reshape(3, 2), _f(3, 2, seed=1)))],
    "masked_fill.Scalar": [Sample((_f(3, 4), _f(3, 4, seed=1) > 0, 0.5))],
    "masked_fill.Tensor": [Sample((_f(3, 4), _f(3, 4, seed=1) > 0, np.array(0.5)))],
    "masked_select": [Sample((_f(3, 4), _f(3, 4, seed=1) > 0)), Sample((_f(3, 4), _f(4, seed=1) > 0))],
    "index.Tensor": [Sample((_f(4, 3), [_idx(0, 2, 3)])), Sample((_f(4, 3), [None, _idx(1, 1)]))],
    "index_put": [
        Sample((_f(4, 3), [_idx(0, 2)], _f(2, 3, seed=1))),
        Sample((_f(4, 3), [_idx(0, 0)], _f(2, 3, seed=1), True), label="accumulate"),
    ],
    "nonzero": [Sample((_f(3, 4) > 0,), grad=False)],
    "clamp": [Sample((_f(3, 4), -0.5, 0.5)), Sample((_f(3, 4), None, 0.2))],
    "div.Tensor_mode": [
        Sample((_f(3, 4), _f(3, 4, seed=1, positive=True)), {"rounding_mode": "floor"}, grad=False),
        Sample((_f(3, 4), _f(3, 4, seed=1, positive=True)), {"rounding_mode": "trunc"}, grad=False),
    ],
    "div.Scalar_mode": [
        Sample((_f(3, 4), 2.5), {"rounding_mode": "floor"}, grad=False),
        Sample((_f(3, 4), -2), {"rounding_mode": "trunc"}, grad=False),
        Sample((_f(3, 4), 2), {"rounding_mode": None}, grad=False),
    ],
    "gelu": [Sample((_f(3, 4),)), Sample((_f(3, 4),), {"approximate": "tanh"})],
    "square": [Sample((_f(3, 4),))],
    "_to_copy": [
        Sample((_f(3, 4),), {"dtype": "float32"}, grad=False),  # float32: too coarse for finite differences
        Sample((_f(3, 4),), {"dtype": "float64"}, label="same dtype"),
    ],
}

# Overloads that are not user-facing or whose samples live elsewhere (with the reason).
NOT_SAMPLED = {
    "_gelu_erf": "reached through gelu", "_gelu_tanh": "reached through gelu",
}  # fmt: skip

# Where torch keeps the ops it has outside the torch namespace (overload name -> callable path).
TORCH_NAME = {"index.Tensor": "ops.aten.index.Tensor", "slice.Tensor": "ops.aten.slice.Tensor",
              "_to_copy": "ops.aten._to_copy.default"}  # fmt: skip


def functional_ops():
    """The functional overloads of the spec (in-place and out= variants are tested through them)."""
    return [fn for fn in SPEC.functions if fn.schema.kind() == "functional"]


def differentiable(name: str) -> bool:
    """An op with a derivatives.yaml entry, one that records the entry of the op it is the Scalar overload
    of (``scalar_of``), or a CompositeImplicitAutograd one (differentiable through the ops it calls)."""
    if SPEC.derivative_for(name) is not None:
        return True
    fn = next(f for f in SPEC.functions if f.name == name)
    if getattr(fn, "scalar_of", None) is not None:
        return differentiable(fn.scalar_of)
    return any(key == "CompositeImplicitAutograd" for key, _ in fn.dispatch)


# Bad inputs, per overload: torch raises on each, and yaten must raise the same exception type.
BAD = {
    "add.Tensor": [
        Sample((_f(3, 4), _f(3, 5)), label="shape mismatch"),
        Sample((_idx(1, 2), _idx(3, 4)), {"alpha": 1.5}, label="float alpha, int result"),
    ],
    "mul.Tensor": [Sample((_f(2, 3), _f(4, 1, 2)), label="shape mismatch")],
    "div.Tensor_mode": [Sample((_f(3), _f(3)), {"rounding_mode": "ceil"}, label="bad rounding mode")],
    "silu": [Sample((_idx(1, 2),), label="integer input")],
    "sum.dim_IntList": [
        Sample((_f(3, 4), [2]), label="dim out of range"),
        Sample((_f(3, 4), [0, 0]), label="repeated dim"),
    ],
    "mean": [Sample((_idx(1, 2),), label="integer input")],
    "max.dim": [Sample((np.zeros((0, 3)), 0), label="empty reduction")],
    "var.correction": [Sample((_idx(1, 2),), label="integer input")],
    "softmax.int": [Sample((_f(3), 1), label="dim out of range")],
    "mm": [
        Sample((_f(2, 3), _f(4, 2)), label="inner sizes"),
        Sample((_f(3), _f(3, 2)), label="not a matrix"),
        Sample((_f(2, 3), _f(3, 2).astype(np.float32)), label="dtype mismatch"),
    ],
    "bmm": [Sample((_f(2, 3), _f(2, 3)), label="not 3-d")],
    "dot": [Sample((_f(3), _f(4)), label="sizes")],
    "matmul": [Sample((_f(), _f(3)), label="0-d")],
    "cat": [Sample(([],), label="empty list"), Sample(([_f(2, 3), _f(2, 4)],), label="sizes")],
    "stack": [Sample(([_f(2, 3), _f(3, 2)],), label="sizes")],
    "view": [
        Sample((_f(3, 4), (5,)), method=True, label="numel"),
        Sample((_f(4, 3).T, (12,)), method=True, label="not viewable"),
    ],
    "reshape": [Sample((_f(3, 4), (-1, -1)), label="two -1")],
    "permute": [Sample((_f(3, 4), (0,)), label="length"), Sample((_f(3, 4), (0, 0)), label="repeated")],
    "expand": [Sample((_f(3, 2), (3, 4)), method=True, label="non-singleton")],
    "select.int": [Sample((_f(3, 4), 0, 3), label="index out of range")],
    "transpose.int": [Sample((_f(3, 4), 0, 2), label="dim out of range")],
    "squeeze.dim": [Sample((_f(3, 4), 2), label="dim out of range")],
    "narrow": [Sample((_f(3, 4), 0, 2, 2), label="past the end")],
    "split_with_sizes": [Sample((_f(5, 3), [2, 2]), label="sizes don't add up")],
    "index_select": [
        Sample((_f(4, 3), 0, _idx(5)), label="index out of range"),
        Sample((_f(4, 3), 0, np.array([0.0])), label="float index"),
    ],
    "gather": [Sample((_f(3, 4), 1, _idx(4).reshape(1, 1)), label="index out of range")],
    "masked_fill.Scalar": [Sample((_f(3), _idx(1, 0, 1), 0.5), label="int mask")],
    "index.Tensor": [Sample((_f(4, 3), [_idx(4)]), label="index out of range")],
    "flip": [Sample((_f(3, 4), [0, 0]), label="repeated dim")],
    "repeat": [Sample((_f(2, 3), (2,)), method=True, label="too few repeats")],
}
