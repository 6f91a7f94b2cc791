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
            "pow.Scalar", "addcdiv"}  # fmt: skip
NONZERO_OTHER = {"div.Tensor", "div.Scalar", "remainder.Tensor", "remainder.Scalar", "floor_divide",
                 "floor_divide.Scalar", "fmod.Tensor", "fmod.Scalar", "atan2"}  # fmt: skip
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
    # Tie-free data (the sort is stable, torch's non-stable sort may order ties otherwise) except
    # under stable=True; no gradient through ties or NaN (finite differences see a kink there).
    "sort": [
        Sample((_f(3, 4),)),
        Sample((_f(3, 4), 0, True)),
        Sample((_f(3, 4).T, 1), label="non-contiguous"),
        Sample((_f(2, 3), -1, True), method=True, label="method"),
        Sample((np.array([[1.0, np.nan, -np.inf], [np.nan, 0.5, np.inf]]), 1, True), grad=False, label="nan"),
        Sample((_f(),), label="0-dim"),
        Sample((np.zeros((0, 3)), 1), label="empty"),
    ],
    "sort.stable": [
        Sample((_f(3, 4),), {"stable": None, "dim": 0}),
        Sample(
            (np.array([[1.0, 0.0, 1.0, 2.0], [2.0, 2.0, 0.0, np.nan]]),),
            {"stable": True},
            grad=False,
            label="ties",
        ),
        Sample(
            (np.array([[1.0, 0.0, 1.0, 2.0], [2.0, 2.0, 0.0, np.nan]]),),
            {"stable": True, "descending": True},
            grad=False,
            label="ties descending",
        ),
    ],
    "argsort": [
        Sample((_f(3, 4),), grad=False),
        Sample((_f(3, 4), 0, True), grad=False),
        Sample((_f(3, 4), 1), method=True, grad=False, label="method"),
    ],
    "argsort.stable": [
        Sample(
            (np.array([[1.0, 0.0, 1.0], [np.nan, 2.0, 2.0]]),),
            {"stable": True, "descending": True},
            grad=False,
        ),
        Sample((np.array([1.0, 0.0, 1.0]),), {"stable": True, "dim": 0}, grad=False),
    ],
    "topk": [
        Sample((_f(3, 4), 2)),
        Sample((_f(3, 4), 2, 0, False)),
        Sample((_f(3, 4).T, 1, 1), label="non-contiguous"),
        Sample((_f(2, 5), 3), method=True, label="method"),
        Sample((np.array([1.0, np.nan, 3.0, -np.inf]), 2), grad=False, label="nan"),
        Sample((_f(), 1), label="0-dim"),
        Sample((np.zeros((0, 3)), 2, 1), label="empty"),
    ],
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
    "norm.ScalarOpt_dim": [
        Sample((_f(3, 4), 2, [1])),
        Sample((_f(3, 4), 1, [0], True)),
        Sample((_f(3, 4), None, [1])),
    ],
    "norm.str": [Sample((_f(3, 4),), {"dim": 1}, method=True), Sample((_f(3, 4), "fro", None, True))],
    "cumsum": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), 0))],
    "softmax.int": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), 0))],
    "log_softmax.int": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), -1))],
    "_softmax": [Sample((_f(3, 4), 1, False))],
    "_log_softmax": [Sample((_f(3, 4), 1, False))],
    "_softmax_backward_data": [Sample((_f(3, 4), _f(3, 4, seed=1, positive=True), 1, "float64"))],
    "_log_softmax_backward_data": [Sample((_f(3, 4), _f(3, 4, seed=1), 0, "float64"))],
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
    "tril": [
        Sample((_f(3, 4),)),
        Sample((_f(2, 3, 4), 1), label="batched"),
        Sample((_f(4, 3).T,), {"diagonal": -1}, label="non-contiguous"),
        Sample((_f(3, 4), 5), method=True, label="past the corner"),
        Sample((np.zeros((2, 0, 3)),), label="empty"),
    ],
    "triu": [
        Sample((_f(3, 4),)),
        Sample((_f(2, 4, 3), -1), label="batched"),
        Sample((_f(4, 3).T,), {"diagonal": 2}, label="non-contiguous"),
        Sample((_f(3, 4), -5), method=True, label="past the corner"),
    ],
    "tril_indices": [Sample((3, 4, 1)), Sample((4, 3), {"offset": -1}), Sample((0, 3)), Sample((3, 3, -10))],
    "triu_indices": [Sample((3, 4, -1)), Sample((4, 3), {"offset": 1}), Sample((3, 0)), Sample((4, 3, 10))],
    "view": [Sample((_f(3, 4), (4, 3)), method=True), Sample((_f(3, 4), (-1,)), method=True)],
    "reshape": [Sample((_f(3, 4), (2, 6))), Sample((_f(4, 3).T, (12,)), label="copying")],
    "as_strided": [Sample((_f(3, 4), (2, 2), (1, 2), 1))],
    "transpose.int": [Sample((_f(3, 4, 2), 0, 2))],
    "t": [Sample((_f(3, 4),))],
    "permute": [Sample((_f(3, 4, 2), (2, 0, 1)))],
    "expand": [Sample((_f(3, 1), (3, 4)), method=True), Sample((_f(4), (2, 4)), method=True)],
    "expand_as": [Sample((_f(3, 1), _f(3, 4)), method=True)],
    "is_floating_point": [Sample((_f(3),), grad=False), Sample((_idx(1),), grad=False, label="integer")],
    "is_complex": [Sample((_f(3),), grad=False), Sample((_idx(1),), grad=False, label="integer")],
    "view_as": [Sample((_f(3, 4), _f(2, 6)), method=True), Sample((_f(3, 4), _f(12, seed=1)), method=True)],
    "reshape_as": [
        Sample((_f(3, 4), _f(2, 6)), method=True),
        Sample((_f(4, 3).T, _f(12, seed=1)), method=True, label="copying"),
    ],
    "squeeze": [Sample((_f(3, 1, 4),))],
    "squeeze.dim": [Sample((_f(3, 1, 4), 1))],
    "squeeze.dims": [Sample((_f(3, 1, 1), [1, 2]))],
    "unsqueeze": [Sample((_f(3, 4), 1)), Sample((_f(3, 4), -1))],
    "flatten.using_ints": [Sample((_f(2, 3, 4),)), Sample((_f(2, 3, 4), 1))],
    "unflatten.int": [Sample((_f(2, 6), 1, (2, 3)))],
    "narrow": [Sample((_f(4, 3), 0, 1, 2))],
    "narrow.Tensor": [Sample((_f(4, 3), 0, _idx(1).reshape(()), 2), grad=False)],
    "select.int": [Sample((_f(4, 3), 0, 1)), Sample((_f(4, 3), 1, -1))],
    "slice.Tensor": [Sample((_f(6, 3), 0, 1, 5, 2))],
    "split.Tensor": [Sample((_f(5, 3), 2))],
    "split_with_sizes": [Sample((_f(5, 3), [2, 3]))],
    "split.sizes": [Sample((_f(5, 3), [2, 3]), method=True)],
    "chunk": [
        Sample((_f(5, 3), 2)),
        Sample((np.zeros((0, 3)), 2), label="empty: 2 empty chunks", grad=False),
    ],
    "unbind.int": [Sample((_f(3, 2),)), Sample((_f(3, 2), 1))],
    "movedim.int": [Sample((_f(2, 3, 4), 0, 2))],
    "movedim.intlist": [Sample((_f(2, 3, 4), [0, 1], [2, 0]))],
    "contiguous": [Sample((_f(4, 3).T,), method=True)],
    "detach": [Sample((_f(3, 4),), grad=False)],
    "isclose": [
        Sample((_f(3, 4), _f(3, 4) + 1e-9), grad=False),
        Sample(
            (np.array([1.0, np.nan, np.inf, -np.inf, 1.0]), np.array([1.0, np.nan, np.inf, np.inf, 1.1])),
            grad=False,
            label="nan and inf",
        ),
        Sample(
            (np.array([1.0, np.nan]), np.array([1.0, np.nan])),
            {"equal_nan": True},
            grad=False,
            label="equal_nan",
        ),
        Sample(
            (_f(3, 1), _f(4, seed=1)), {"rtol": 0.5, "atol": 0.5}, method=True, grad=False, label="broadcast"
        ),
        Sample((_idx(1, 2, 100000001), _idx(1, 3, 100000000)), {"rtol": 0.5}, grad=False, label="integers"),
        Sample((_f(3), _f(3) + 1e-3), {"rtol": 0, "atol": 0}, grad=False, label="zero tolerances"),
    ],
    "allclose": [
        Sample((_f(3, 4), _f(3, 4) + 1e-9), grad=False),
        Sample((_f(3, 4), _f(3, 4) + 1e-3), method=True, grad=False, label="not close"),
        Sample((np.array([np.nan]), np.array([np.nan])), {"equal_nan": True}, grad=False, label="equal_nan"),
    ],
    "equal": [
        Sample((_f(3, 4), _f(3, 4)), grad=False),
        Sample((_f(3, 4), _f(4, 3)), method=True, grad=False, label="shapes"),
        Sample((_f(2), _idx(1, 2)), grad=False, label="dtypes"),
        Sample((np.array([np.nan]), np.array([np.nan])), grad=False, label="nan"),
        Sample((np.zeros((0, 2)), np.zeros((0, 2))), grad=False, label="empty"),
    ],
    "index_select": [Sample((_f(4, 3), 0, _idx(0, 2, 2)))],
    "index_add": [
        Sample((_f(4, 3), 0, _idx(0, 2, 2), _f(3, 3, seed=1)), {"alpha": 2}),
        Sample((_f(3, 4), -1, _idx(3, 0), _f(3, 2, seed=1)), method=True),
        Sample((_f(4, 3).T, 1, _idx(1, 1, 3), _f(3, 3, seed=1).T), label="non-contiguous"),
        Sample((_f(), 0, _idx(0), _f(seed=1)), {"alpha": -1.5}, label="0-d"),
    ],
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
    "round.decimals": [
        Sample((_f(3, 4),), {"decimals": 2}),
        Sample((_f(3, 4) * 100,), {"decimals": -1}, label="negative decimals"),
        Sample((_f(3, 4),), {"decimals": 0}, label="no decimals"),
    ],
    "_to_copy": [
        Sample((_f(3, 4),), {"dtype": "float32"}, grad=False),  # float32: too coarse for finite differences
        Sample((_f(3, 4),), {"dtype": "float64"}, label="same dtype"),
    ],
    # --- nn: activations, linear, dropout, embedding, losses ---
    # Deterministic dropout only (p 0 or 1, or not training): the streams are not torch's.
    "dropout": [Sample((_f(3, 4), 0.0, True)), Sample((_f(3, 4), 0.5, False)), Sample((_f(3, 4), 1.0, True))],
    "bilinear": [
        Sample((_f(2, 3), _f(2, 4, seed=1), _f(5, 3, 4, seed=2), _f(5, seed=3))),
        Sample((_f(2, 2, 3), _f(2, 2, 4, seed=1), _f(5, 3, 4, seed=2)), label="batch dims"),
    ],
    "embedding": [
        Sample((_f(5, 3), _idx(0, 2, 2, 4))),
        # Not the true derivative on purpose (no gradient for the padding row; counts divide it), so
        # finite differences disagree; tests/nn/test_dropout_embedding.py compares these grads with torch.
        Sample((_f(5, 3), _idx(0, 2, 2, 4).reshape(2, 2), 2), label="padding_idx", grad=False),
        Sample((_f(5, 3), _idx(0, 2, 2, 4), -1, True), label="scale_grad_by_freq", grad=False),
    ],
    "one_hot": [Sample((_idx(0, 2, 1),), grad=False), Sample((_idx(0, 2, 1).reshape(3, 1), 4), grad=False)],
    "mse_loss": [Sample((_f(3, 4), _f(3, 4, seed=1)))],
    "l1_loss": [Sample((_f(3, 4), _f(3, 4, seed=1)))],
    "smooth_l1_loss": [
        Sample((_f(3, 4), _f(3, 4, seed=1))),
        Sample((_f(3, 4), _f(3, 4, seed=1)), {"beta": 0.5}),
    ],
    "huber_loss": [
        Sample((_f(3, 4), _f(3, 4, seed=1))),
        Sample((_f(3, 4), _f(3, 4, seed=1)), {"delta": 0.5}),
    ],
    "nll_loss": [
        Sample((_f(3, 5), _idx(1, 0, 4))),
        Sample((_f(3, 5), _idx(1, 0, 4)), {"ignore_index": 0}, label="ignore_index"),
        Sample((_f(2, 3, 4), _idx(0, 2, 1, 1, 2, 0, 0, 1).reshape(2, 4)), label="K-dim"),
        Sample((_f(5), _idx(3).reshape(())), label="no batch"),
        # torch has no gradient for weight, so these are compared forward only.
        Sample(
            (_f(3, 5), _idx(1, 0, 4)), {"weight": _f(5, seed=1, positive=True)}, label="weight", grad=False
        ),
    ],
    "nll_loss_forward": [
        Sample((_f(3, 5), _idx(1, 0, 4), None, 1, -100), label="mean"),
        Sample((_f(3, 5), _idx(1, 0, 4), None, 0, 0), label="none, ignore_index"),
        Sample(
            (_f(3, 5), _idx(1, 0, 4), _f(5, seed=1, positive=True), 2, -100), label="sum, weight", grad=False
        ),
        Sample(
            (_f(2, 5), _idx(3, 3), None, 1, 3), label="mean, all ignored", grad=False
        ),  # NaN: no gradcheck
    ],
    "binary_cross_entropy": [
        Sample((_rng(3).random((3, 4)) * 0.8 + 0.1, _rng(4).random((3, 4)))),
        Sample(
            (_rng(3).random((3, 4)) * 0.8 + 0.1, _rng(4).random((3, 4)), _f(3, 4, seed=1, positive=True)),
            label="weight",
            grad=False,
        ),
    ],
    # torch.binary_cross_entropy_with_logits and torch.kl_div read a missing reduction as none (their Python
    # binding's default), yaten as the schema's Mean: the samples pass it.
    "binary_cross_entropy_with_logits": [
        Sample((_f(3, 4), _rng(4).random((3, 4)), None, None, 1)),
        Sample(
            (
                _f(3, 4),
                _rng(4).random((3, 4)),
                _f(3, 4, seed=1, positive=True),
                _f(4, seed=2, positive=True),
                2,
            ),
            label="weights",
            grad=False,
        ),
    ],
    "kl_div": [
        Sample((_f(3, 4), _rng(4).random((3, 4)), 1)),
        Sample((_f(3, 4), _rng(4).random((3, 4)), 0), label="none"),
        Sample((_f(3, 4), _f(3, 4, seed=1), 2), {"log_target": True}, label="log_target"),
    ],
    # --- nn: convolution and pooling ---
    "convolution": [
        Sample(
            (_f(2, 3, 5, 4), _f(4, 3, 3, 2, seed=1), _f(4, seed=2), [2, 1], [1, 0], [1, 1], False, [0], 1)
        ),
        Sample(
            (_f(2, 4, 3, 3), _f(4, 1, 2, 3, seed=1), None, [2], [1], [1], True, [1], 2), label="transposed"
        ),
        Sample((_f(2, 4, 6), _f(2, 2, 3, seed=1), _f(2, seed=2), [1], [2], [2], False, [0], 2), label="1-d"),
    ],
    "conv1d": [
        Sample((_f(2, 3, 7), _f(4, 3, 3, seed=1), _f(4, seed=2))),
        Sample((_f(3, 7), _f(4, 3, 2, seed=1), None, 2, 1, 2), label="unbatched, strided, dilated"),
        Sample((_f(2, 4, 6), _f(4, 2, 3, seed=1), None, 1, 0, 1, 2), label="groups"),
    ],
    "conv1d.padding": [
        Sample((_f(2, 3, 6), _f(2, 3, 4, seed=1), _f(2, seed=2), 1, "same")),
        Sample((_f(2, 3, 6), _f(2, 3, 3, seed=1), None, 1, "valid"), label="valid"),
    ],
    "conv2d": [
        Sample((_f(2, 3, 5, 4), _f(4, 3, 3, 3, seed=1), _f(4, seed=2), 1, 1)),
        Sample(
            (_f(2, 4, 6, 5), _f(6, 2, 2, 3, seed=1), None, (2, 1), (1, 0), (1, 2), 2), label="groups+dilation"
        ),
        Sample((_f(3, 5, 5), _f(2, 3, 3, 3, seed=1)), label="unbatched"),
        Sample((_f(2, 4, 5, 5).transpose(0, 1, 3, 2), _f(2, 4, 1, 1, seed=1)), label="non-contiguous, 1x1"),
    ],
    "conv2d.padding": [
        Sample((_f(2, 3, 5, 4), _f(2, 3, 3, 2, seed=1), _f(2, seed=2), 1, "same")),
        Sample((_f(2, 2, 5, 5), _f(2, 2, 2, 2, seed=1), None, 1, "same", 2), label="same, dilated"),
        Sample((_f(2, 3, 5, 4), _f(2, 3, 3, 2, seed=1), None, 1, "valid"), label="valid"),
    ],
    "conv_transpose1d": [
        Sample((_f(2, 4, 5), _f(4, 3, 3, seed=1), _f(3, seed=2), 2, 1, 1)),
    ],
    "conv_transpose2d.input": [
        Sample((_f(2, 3, 3, 4), _f(3, 2, 3, 2, seed=1), _f(2, seed=2))),
        Sample((_f(2, 4, 3, 3), _f(4, 1, 3, 3, seed=1), None, 2, 1, 1, 2, 1), label="strided, groups"),
        Sample((_f(4, 3, 3), _f(4, 2, 2, 2, seed=1), None, 1, 0, 0, 1, 2), label="unbatched, dilated"),
    ],
    "max_pool2d_with_indices": [
        Sample((_f(2, 3, 5, 6), 2)),
        Sample((_f(2, 2, 7, 6), (3, 2), (2, 1), 1, (1, 2), True), label="ceil_mode, dilation"),
        Sample((_f(2, 5, 5), 3, 2, 1), label="unbatched"),
    ],
    "max_pool2d": [
        Sample((_f(2, 3, 5, 6), 2)),
        Sample((_f(2, 2, 7, 7), 3, 2, 1, 1, True), label="ceil_mode"),
    ],
    "avg_pool2d": [
        Sample((_f(2, 3, 5, 6), 2)),
        Sample((_f(2, 2, 7, 6), (3, 2), (2, 1), 1, True, False), label="ceil_mode, no pad count"),
        Sample((_f(2, 5, 5), 3, 2, 1, False, True, 4), label="unbatched, divisor_override"),
    ],
    "adaptive_avg_pool2d": [
        Sample((_f(2, 3, 5, 7), (3, 4))),
        Sample((_f(2, 5, 4), (1, 1)), label="global, unbatched"),
        Sample((_f(1, 2, 3, 3), (5, 4)), label="upsampling"),
    ],
    # --- nn: normalization and attention ---
    "rms_norm": [
        Sample((_f(2, 3, 4), [4], _f(4, seed=1))),
        Sample((_f(2, 3, 4), [3, 4], None, 1e-3), label="2-d shape, eps"),
    ],
    "native_layer_norm": [
        Sample((_f(2, 3, 4), [4], _f(4, seed=1), _f(4, seed=2), 1e-5)),
        Sample((_f(2, 3, 4), [3, 4], None, None, 1e-3), label="2-d shape, no affine"),
    ],
    "native_batch_norm": [
        Sample((_f(4, 3), _f(3, seed=1), _f(3, seed=2), None, None, True, 0.1, 1e-5), label="training"),
        Sample((_f(3, 2, 4), None, _f(2, seed=2), None, None, True, 0.1, 1e-5), label="training 3-d"),
        Sample(
            (_f(3, 2, 4), _f(2, seed=1), None, _f(2, seed=3), _f(2, seed=4, positive=True), False, 0.1, 1e-3),
            label="eval",
            grad=False,
        ),
        Sample(
            (_f(3, 2, 4), None, None, np.zeros(2), np.ones(2), True, 0.1, 1e-5),
            label="training with stats",
            grad=False,
        ),
    ],
    "batch_norm": [
        Sample(
            (_f(4, 3), _f(3, seed=1), _f(3, seed=2), None, None, True, 0.1, 1e-5, False), label="training"
        ),
        Sample((_f(3, 2, 4), None, None, None, None, True, 0.1, 1e-5, False), label="training 3-d"),
        Sample(
            (_f(3, 2, 4), _f(2, seed=1), _f(2, seed=2), np.zeros(2), np.ones(2), True, 0.1, 1e-5, False),
            label="training with stats",
            grad=False,
        ),
        Sample(
            (
                _f(3, 2, 4),
                _f(2, seed=1),
                None,
                _f(2, seed=3),
                _f(2, seed=4, positive=True),
                False,
                0.1,
                1e-3,
                False,
            ),
            label="eval",
            grad=False,
        ),
    ],
    "layer_norm": [
        Sample((_f(2, 3, 4), [4], _f(4, seed=1), _f(4, seed=2))),
        Sample((_f(2, 3, 4), [3, 4]), {"eps": 1e-3}, label="2-d shape"),
    ],
    "group_norm": [
        Sample((_f(2, 6, 3), 3, _f(6, seed=1), _f(6, seed=2))),
        Sample((_f(3, 4), 2), label="2-d"),
    ],
    "scaled_dot_product_attention": [
        Sample((_f(2, 3, 4), _f(2, 5, 4, seed=1), _f(2, 5, 3, seed=2))),
        Sample((_f(2, 3, 4), _f(2, 5, 4, seed=1), _f(2, 5, 3, seed=2), _f(3, 5, seed=3)), label="float mask"),
        Sample(
            (
                _f(2, 3, 4),
                _f(2, 5, 4, seed=1),
                _f(2, 5, 3, seed=2),
                np.array([[1, 0, 1, 1, 0], [0, 0, 0, 0, 0], [1, 1, 1, 1, 1]], dtype=bool),
            ),
            label="bool mask, one row fully masked",
        ),
        Sample(
            (_f(1, 2, 3, 4), _f(1, 2, 3, 4, seed=1), _f(1, 2, 3, 2, seed=2)),
            {"is_causal": True, "scale": 0.3},
            label="causal",
        ),
        Sample(
            (_f(1, 4, 3, 2), _f(1, 2, 3, 2, seed=1), _f(1, 2, 3, 2, seed=2)),
            {"enable_gqa": True},
            label="gqa",
        ),
    ],
}

# Overloads that are not user-facing or whose samples live elsewhere (with the reason).
NOT_SAMPLED = {
    "_gelu_erf": "reached through gelu", "_gelu_tanh": "reached through gelu",
    # Backward kernels: reached here through their ops' gradients (and gradgradcheck); compared with
    # torch.ops.aten directly in tests/nn/test_conv.py, test_pooling.py and test_norm.py.
    "convolution_backward": "tests/nn/test_conv.py",
    "max_pool2d_with_indices_backward": "tests/nn/test_pooling.py",
    "avg_pool2d_backward": "tests/nn/test_pooling.py",
    "_adaptive_avg_pool2d_backward": "tests/nn/test_pooling.py",
    "native_layer_norm_backward": "tests/nn/test_norm.py",
    "native_batch_norm_backward": "tests/nn/test_norm.py",
    "nll_loss_backward": "tests/nn/test_loss.py",
}  # fmt: skip

# Where torch keeps the ops it has outside the torch namespace (overload name -> callable path).
TORCH_NAME = {"index.Tensor": "ops.aten.index.Tensor", "slice.Tensor": "ops.aten.slice.Tensor",
              "_to_copy": "ops.aten._to_copy.default", "nll_loss_forward": "ops.aten.nll_loss_forward.default",
              **{name: f"ops.aten.{name}.default" for name in (
                  "nll_loss_backward", "convolution_backward", "max_pool2d_with_indices_backward",
                  "avg_pool2d_backward", "_adaptive_avg_pool2d_backward", "native_layer_norm_backward",
                  "native_batch_norm_backward")}}  # fmt: skip


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
    "div.Tensor_mode": [
        Sample((_f(3), _f(3)), {"rounding_mode": "ceil"}, label="bad rounding mode"),
        Sample((_idx(5, 3), _idx(1, 0)), {"rounding_mode": "trunc"}, label="integer division by zero"),
        Sample((_idx(5, 3), _idx(1, 0)), {"rounding_mode": "floor"}, label="integer floor division by zero"),
    ],
    # --- elementwise: integer division by zero, bool arithmetic, conditions ---
    "floor_divide": [
        Sample((_idx(5, 3), _idx(1, 0)), label="integer division by zero"),
        Sample((np.array([True]), np.array([True])), label="bool inputs"),
    ],
    "floor_divide.Scalar": [Sample((_idx(5, 3), 0), label="integer division by zero")],
    "remainder.Tensor": [
        Sample((_idx(5, 3), _idx(1, 0)), label="integer division by zero"),
        Sample((np.array([True]), np.array([True])), label="bool inputs"),
    ],
    "remainder.Scalar": [Sample((_idx(5, 3), 0), label="integer division by zero")],
    "fmod.Tensor": [Sample((_idx(5, 3), _idx(1, 0)), label="integer division by zero")],
    "fmod.Scalar": [Sample((_idx(5, 3), 0), label="integer division by zero")],
    "pow.Tensor_Scalar": [Sample((_idx(1, 2), -1), label="integer to a negative integer")],
    "pow.Tensor_Tensor": [Sample((np.array([True]), np.array([True])), label="bool inputs")],
    "sub.Tensor": [
        Sample((np.array([True]), np.array([False])), label="two bool tensors"),
        Sample((np.array([True]), _idx(1)), label="a bool tensor"),
    ],
    "neg": [Sample((np.array([True, False]),), label="bool input")],
    "abs": [Sample((np.array([True, False]),), label="bool input")],
    "relu": [Sample((np.array([True, False]),), label="bool input")],
    "floor": [Sample((np.array([True, False]),), label="bool input")],
    "round": [Sample((np.array([True, False]),), label="bool input")],
    "round.decimals": [Sample((_idx(1, 2),), {"decimals": 1}, label="integer input")],
    "bitwise_not": [Sample((_f(3),), label="float input")],
    "where.self": [
        Sample((_f(3), _f(3), _f(3)), label="float condition"),
        Sample((_idx(1, 0, 1), _f(3), _f(3)), label="int condition"),
    ],
    "silu": [Sample((_idx(1, 2),), label="integer input")],
    "sum.dim_IntList": [
        Sample((_f(3, 4), [2]), label="dim out of range"),
        Sample((_f(3, 4), [0, 0]), label="repeated dim"),
    ],
    "mean": [Sample((_idx(1, 2),), label="integer input")],
    "max.dim": [Sample((np.zeros((0, 3)), 0), label="empty reduction")],
    "sort": [Sample((_f(3), 1), label="dim out of range"), Sample((_f(), -2), label="0-d dim out of range")],
    "topk": [
        Sample((_f(3), 4), label="k too large"),
        Sample((_f(3), -1), label="negative k"),
        Sample((_f(), 2), label="0-d k too large"),
        Sample((np.zeros((0, 3)), 1, 0), label="k of an empty dim"),
        Sample((np.array([True, False]), 1), label="bool input"),
    ],
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
    "is_floating_point": [Sample((1.5,), label="a number")],
    "is_complex": [Sample((1j,), label="a number")],
    "view_as": [Sample((_f(4, 3).T, _f(12)), method=True, label="not viewable")],
    "reshape_as": [Sample((_f(3, 4), _f(5)), method=True, label="numel")],
    "addcdiv": [
        Sample((_f(3), _idx(1, 2, 3), _idx(1, 2, 3)), label="integer division"),
        Sample((_f(3), np.array([True]), _idx(1)), label="bool and integer division"),
    ],
    "index_add": [
        Sample((_f(3, 2), 0, _idx(0, 3), _f(2, 2)), label="index out of range"),
        Sample((_f(3, 2), 0, _idx(-1), _f(1, 2)), label="negative index"),
        Sample((_f(3, 2), 0, np.array([0.0]), _f(1, 2)), label="float index"),
        Sample((_f(3, 2), 0, _idx(0, 1).reshape(2, 1), _f(2, 2)), label="2-d index"),
        Sample((_f(3, 2), 0, _idx(0), _f(1, 2).astype(np.float32)), label="dtype mismatch"),
        Sample((_f(3, 2), 0, _idx(0, 1), _f(1, 2)), label="index count"),
        Sample((_f(3, 2), 0, _idx(0), _f(1, 3)), label="source shape"),
        Sample((_f(3, 2), 2, _idx(0), _f(1, 2)), label="dim out of range"),
    ],
    "isclose": [
        Sample((_f(2), _f(2).astype(np.float32)), label="dtype mismatch"),
        Sample((_f(2), _f(2)), {"rtol": -1.0}, label="negative rtol"),
        Sample((_f(2), _f(2)), {"atol": -0.5}, label="negative atol"),
        Sample((_f(2), _f(3)), label="shape mismatch"),
        Sample((_f(2), 1.0), label="a number"),
    ],
    "allclose": [Sample((_f(2), _f(2).astype(np.float32)), label="dtype mismatch")],
    "equal": [Sample((_f(2), 1), label="a number")],
    "tril": [Sample((_f(3),), label="1-d input"), Sample((_f(),), label="0-d input")],
    "triu": [Sample((_f(3),), label="1-d input")],
    "tril_indices": [
        Sample((-1, 3), label="negative row"),
        Sample((3, 3), {"dtype": "float32"}, label="float dtype"),
    ],
    "triu_indices": [
        Sample((3, -2), label="negative col"),
        Sample((3, 3), {"dtype": "float64"}, label="float dtype"),
    ],
    "expand": [Sample((_f(3, 2), (3, 4)), method=True, label="non-singleton")],
    "select.int": [Sample((_f(3, 4), 0, 3), label="index out of range")],
    "transpose.int": [Sample((_f(3, 4), 0, 2), label="dim out of range")],
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
    # --- nn: activations, linear, dropout, embedding, losses ---
    "leaky_relu": [Sample((_idx(1, 2),), label="integer input")],
    "dropout": [Sample((_f(3), 1.5, True), label="p out of range")],
    "bilinear": [Sample((_f(2, 3), _f(2, 4), _f(5, 3, 3)), label="input2 size")],
    "embedding": [
        Sample((_f(5, 3), _idx(5)), label="index out of range"),
        Sample((_f(5, 3), np.array([1.0])), label="float indices"),
    ],
    "one_hot": [
        Sample((_idx(0, -1),), label="negative class"),
        Sample((_idx(0, 3), 2), label="class too large"),
    ],
    "mse_loss": [Sample((_idx(1, 2), _idx(1, 2)), label="integer input")],
    "smooth_l1_loss": [Sample((_f(3), _f(3)), {"beta": -1.0}, label="negative beta")],
    "nll_loss": [
        Sample((_f(3, 5), _idx(1, 0, 5)), label="target out of bounds"),
        Sample((_f(3, 5), np.array([1.0, 0.0, 2.0])), label="float target"),
        Sample((_f(3, 5), _idx(1, 0)), label="batch size"),
        Sample((_f(3, 5), _idx(1, 0, 4)), {"weight": _f(2)}, label="weight size"),
    ],
    "kl_div": [Sample((_idx(1, 2), _idx(1, 2), 1), label="integer inputs")],
    # --- nn: convolution and pooling ---
    "conv2d": [
        Sample((_f(1, 4, 5, 5), _f(8, 3, 3, 3)), label="channels"),
        Sample((_f(1, 3, 2, 2), _f(8, 3, 3, 3)), label="kernel larger than input"),
        Sample((_f(2, 3), _f(8, 3, 3, 3)), label="2-d input"),
        Sample((_f(1, 3, 5, 5), _f(8, 3, 3, 3), _f(4)), label="bias size"),
        Sample((_f(1, 3, 5, 5), _f(3, 3, 3, 3), None, 1, 0, 1, 2), label="groups"),
        Sample((_f(1, 3, 5, 5), _f(8, 3, 3, 3), None, 0), label="zero stride"),
        Sample((_f(1, 3, 5, 5), _f(8, 3, 3, 3).astype(np.float32)), label="dtype"),
    ],
    "conv2d.padding": [
        Sample((_f(1, 3, 5, 5), _f(8, 3, 3, 3), None, 2, "same"), label="same, strided"),
        Sample((_f(1, 3, 5, 5), _f(8, 3, 3, 3), None, 1, "foo"), label="unknown string"),
    ],
    "conv_transpose2d.input": [
        Sample((_f(1, 3, 5, 5), _f(4, 2, 3, 3)), label="channels"),
        Sample((_f(1, 4, 5, 5), _f(4, 2, 3, 3), None, 2, 0, 2), label="output_padding"),
    ],
    "max_pool2d": [
        Sample((_f(1, 3, 5, 5), 3, 1, 2), label="padding over half the kernel"),
        Sample((_f(1, 3, 1, 1), 2), label="output too small"),
        Sample((_f(3, 5), 2), label="2-d input"),
    ],
    "avg_pool2d": [
        Sample((_f(1, 3, 5, 5), 2, 2, 0, False, True, 0), label="zero divisor"),
        Sample((_f(1, 3, 5, 5), 3, 1, 2), label="padding over half the kernel"),
    ],
    "adaptive_avg_pool2d": [
        Sample((_f(3, 5), 2), label="2-d input"),
        Sample((_f(1, 3, 0, 5), (2, 2)), label="empty plane"),
    ],
    # --- nn: normalization and attention ---
    "rms_norm": [
        Sample((_f(2, 3), [4]), label="shape"),
        Sample((_f(2, 3), [3], _f(4)), label="weight shape"),
    ],
    "batch_norm": [
        Sample((_f(2, 3), None, None, np.zeros(4), np.ones(4), True, 0.1, 1e-5, False), label="stats size"),
        Sample((_f(2, 3), None, None, None, None, False, 0.1, 1e-5, False), label="eval without stats"),
        Sample((_f(3), None, None, None, None, True, 0.1, 1e-5, False), label="1-d input"),
    ],
    "layer_norm": [
        Sample((_f(2, 3), [4]), label="shape"),
        Sample((_f(2, 3), [3], _f(4)), label="weight shape"),
    ],
    "group_norm": [
        Sample((_f(2, 6), 4), label="groups don't divide channels"),
        Sample((_f(2, 6), 3, _f(3)), label="weight size"),
    ],
    "scaled_dot_product_attention": [
        Sample(
            (_f(2, 3, 4), _f(2, 5, 4), _f(2, 5, 3), np.ones((3, 5), dtype=bool)),
            {"is_causal": True},
            label="mask and causal",
        ),
        Sample((_f(2, 3, 4), _f(2, 5, 3), _f(2, 5, 3)), label="embedding sizes"),
        Sample((_f(4), _f(4), _f(4)), label="1-d inputs"),
        Sample((_f(2, 3, 4), _f(2, 3, 4), _f(2, 3, 4)), {"dropout_p": 1.5}, label="dropout_p above 1"),
    ],
    # --- more argument kinds: 0-d and empty inputs, out-of-range dims, negative sizes, wrong types ---
    "gelu": [Sample((_f(3),), {"approximate": "fast"}, label="unknown approximate")],
    "clamp": [Sample((_f(3),), label="no bounds")],
    "square": [Sample(("x",), label="non-tensor")],
    "div.Scalar_mode": [Sample((_f(3), 2.0), {"rounding_mode": "up"}, label="bad rounding mode")],
    "as_strided": [
        Sample((_f(6), (4,), (2,)), label="past the storage"),
        Sample((_f(6), (2, 3), (1,)), label="strides length"),
        Sample((_f(6), (-1,), (1,)), label="negative size"),
    ],
    "t": [Sample((_f(2, 3, 4),), label="3-d")],
    "squeeze": [Sample(("x",), label="non-tensor")],
    "squeeze.dims": [
        Sample((_f(3, 1), [0, 0]), label="repeated dim"),
        Sample((_f(), [1]), label="0-d dim 1"),
    ],
    "squeeze.dim": [Sample((_f(3, 4), 2), label="dim out of range"), Sample((_f(), 1), label="0-d dim 1")],
    "unsqueeze": [Sample((_f(3, 4), 3), label="dim out of range"), Sample((_f(), -3), label="0-d dim -3")],
    "slice.Tensor": [Sample((_f(6), 0, 0, 6, 0), label="zero step"), Sample((_f(), 0), label="0-d")],
    "split.Tensor": [
        Sample((_f(), 1), label="0-d"),
        Sample((_f(4), -1), label="negative size"),
        Sample((_f(4), 2, 1), label="dim out of range"),
    ],
    "split.sizes": [Sample((_f(4), [5, -1]), method=True, label="negative size")],
    "unbind.int": [Sample((_f(),), label="0-d"), Sample((_f(3), 1), label="dim out of range")],
    "detach": [Sample(([1.0],), label="list")],
    "flatten.using_ints": [Sample((_f(2, 3, 4), 2, 1), label="start after end")],
    "unflatten.int": [
        Sample((_f(6), 0, (4, 2)), label="sizes' product"),
        Sample((_f(6), 0, ()), label="no sizes"),
    ],
    "expand_as": [Sample((_f(2, 3), _f(3, 2)), label="shapes")],
    "narrow.Tensor": [Sample((_f(4), 0, np.array([0.0]), 1), label="float start")],
    "chunk": [Sample((_f(), 2), label="0-d"), Sample((_f(4), 0), label="zero chunks")],
    "movedim.int": [Sample((_f(2, 3), 0, 2), label="dim out of range")],
    "movedim.intlist": [Sample((_f(2, 3), [0, 0], [0, 1]), label="repeated dim")],
    "contiguous": [
        Sample((_f(3),), {"memory_format": "channels_last"}, method=True, label="format as a string")
    ],
    "sum": [Sample((_f(3),), {"dtype": "x"}, label="bad dtype")],
    "mean.dim": [
        Sample((_f(3, 4), [2]), label="dim out of range"),
        Sample((_idx(1, 2), [0]), label="integer input"),
    ],
    "prod": [Sample(("x",), label="non-tensor")],
    "prod.dim_int": [Sample((_f(3, 4), 2), label="dim out of range")],
    "max": [Sample((np.zeros((0,)),), label="empty")],
    "min": [Sample((np.zeros((0,)),), label="empty")],
    "min.dim": [
        Sample((np.zeros((0, 3)), 0), label="empty reduction"),
        Sample((_f(3), 1), label="dim out of range"),
    ],
    "max.other": [Sample((_f(3), _f(4)), label="shapes")],
    "min.other": [Sample((_f(3), _f(4)), label="shapes")],
    "sort.stable": [Sample((_f(3),), {"stable": True, "dim": 1}, label="dim out of range")],
    "argsort": [Sample((_f(3), 1), label="dim out of range")],
    "argsort.stable": [Sample((_f(3),), {"stable": True, "dim": 2}, label="dim out of range")],
    "amax": [Sample((np.zeros((0,)),), label="empty"), Sample((_f(3), [1]), label="dim out of range")],
    "amin": [Sample((np.zeros((0,)),), label="empty")],
    "argmax": [Sample((np.zeros((0,)),), label="empty"), Sample((_f(3), 1), label="dim out of range")],
    "argmin": [Sample((np.zeros((0, 2)), 0), label="empty dim")],
    "std.correction": [Sample((_idx(1, 2),), label="integer input"), Sample((_f(3), [1]), label="dim")],
    "var": [Sample((_idx(1, 2),), label="integer input")],
    "var.dim": [Sample((_f(3), [1]), label="dim out of range")],
    "std": [Sample((np.array([True]),), label="bool input")],
    "std.dim": [Sample((_f(3), [2]), label="dim out of range")],
    "logsumexp": [Sample((_f(3), [1]), label="dim out of range")],
    "all": [Sample(("x",), label="non-tensor")],
    "all.dim": [Sample((_f(3), 1), label="dim out of range")],
    "all.dims": [Sample((_f(3),), {"dim": [0, 0]}, label="repeated dim")],
    "any": [Sample(("x",), label="non-tensor")],
    "any.dim": [Sample((_f(3), 1), label="dim out of range")],
    "any.dims": [Sample((_f(3),), {"dim": [1]}, label="dim out of range")],
    "norm.Scalar": [Sample((_idx(1, 2),), label="integer input")],
    "norm.ScalarOpt_dim": [Sample((_f(3), 2, [1]), label="dim out of range")],
    "norm.str": [Sample((_f(3, 4),), {"p": "x"}, method=True, label="unknown order")],
    "cumsum": [Sample((_f(3), 1), label="dim out of range")],
    "_softmax": [Sample((_f(3), 1, False), label="dim out of range")],
    "_log_softmax": [Sample((_f(3), 1, False), label="dim out of range")],
    "_softmax_backward_data": [Sample((_f(3), _f(4), 0, "float64"), label="shapes")],
    "_log_softmax_backward_data": [Sample((_f(3), _f(3), 1, "float64"), label="dim out of range")],
    "log_softmax.int": [
        Sample((_f(3), 1), label="dim out of range"),
        Sample((_idx(1, 2), 0), label="integer"),
    ],
    "addmm": [
        Sample((_f(2, 2), _f(2, 3), _f(2, 2)), label="inner sizes"),
        Sample((_f(3, 3), _f(2, 3), _f(3, 2)), label="self shape"),
    ],
    "mv": [Sample((_f(2, 3), _f(2)), label="sizes"), Sample((_f(3), _f(3)), label="1-d matrix")],
    "outer": [Sample((_f(2, 2), _f(2)), label="2-d self"), Sample((_f(), _f(2)), label="0-d self")],
    "linear": [
        Sample((_f(2, 3), _f(4, 2)), label="sizes"),
        Sample((_f(2, 3), _f(4, 3), _f(3)), label="bias size"),
    ],
    "roll": [Sample((_f(2, 3), [1, 2], [0]), label="shifts and dims"), Sample((_f(2, 3), 1, 2), label="dim")],
    "clone": [Sample((_f(3),), {"memory_format": "channels_last"}, label="format as a string")],
    "masked_select": [
        Sample((_f(3), np.array([1.0, 0.0, 1.0])), label="float mask"),
        Sample((_f(3), np.array([True, False])), label="mask shape"),
    ],
    "nonzero": [Sample(("x",), label="non-tensor")],
    "scatter.src": [Sample((_f(3), 0, _idx(5), _f(1)), label="index out of range")],
    "scatter.value": [Sample((_f(3), 0, np.array([1.0]), 1.0), label="float index")],
    "scatter_add": [Sample((_f(3), 0, _idx(1).reshape(1, 1), _f(1, 1)), label="index dims")],
    "masked_fill.Tensor": [Sample((_f(3), np.array([True, False, True]), _f(3)), label="1-d value")],
    "index_put": [
        Sample((_f(3), [_idx(3)], _f(1)), label="index out of range"),
        Sample((_f(3), [_idx(0, 1)], _f(3)), label="values shape"),
    ],
    "l1_loss": [Sample((_f(3), _f(4)), label="shapes")],
    "huber_loss": [Sample((_f(3), _f(3)), {"delta": -1.0}, label="negative delta")],
    "nll_loss_forward": [Sample((_f(2, 3), _idx(0, 3), None, 1, -100), label="target out of bounds")],
    "nll_loss_backward": [
        Sample(
            (np.array(1.0), _f(2, 3), _idx(0, 3), None, 1, -100, np.array(2.0)), label="target out of bounds"
        )
    ],
    "binary_cross_entropy_with_logits": [
        Sample((_f(2, 3), _f(2, 3)), {"pos_weight": _f(2)}, label="pos_weight size"),
    ],
    "binary_cross_entropy": [
        Sample((np.array([1.5]), np.array([1.0])), label="input out of [0, 1]"),
        Sample((np.array([np.nan, 0.5]), np.array([1.0, 0.0])), label="NaN input"),
    ],
    "convolution": [
        Sample(
            (_f(1, 2, 5, 5), _f(2, 1, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), label="channels"
        ),
    ],
    "convolution_backward": [
        Sample(
            (
                _f(1, 2, 3, 3),
                _f(1, 1, 5, 5),
                _f(2, 1, 3, 3),
                None,
                [1, 1],
                [0, 0],
                [1, 1],
                False,
                [0, 0],
                0,
                [True, True, False],
            ),
            label="zero groups",
        ),
    ],
    "conv1d": [
        Sample((_f(1, 2, 5), _f(2, 1, 3)), label="channels"),
        Sample((_f(2), _f(2, 1, 3)), label="1-d"),
    ],
    "conv1d.padding": [Sample((_f(1, 1, 5), _f(2, 1, 3), None, 2, "same"), label="same, strided")],
    "conv_transpose1d": [Sample((_f(1, 3, 5), _f(2, 1, 3)), label="channels")],
    "max_pool2d_with_indices": [Sample((_f(1, 1, 4, 4), [0]), label="zero kernel")],
    "max_pool2d_with_indices_backward": [
        Sample(
            (_f(1, 1, 3, 3), _f(1, 1, 4, 4), [2], [2], [0], [1], False, _idx(0).reshape(1, 1, 1, 1)),
            label="grad shape",
        ),
    ],
    "avg_pool2d_backward": [
        Sample((_f(1, 1, 3, 3), _f(1, 1, 4, 4), [2], [2], [0], False, True, None), label="grad shape"),
    ],
    "_adaptive_avg_pool2d_backward": [Sample((_f(1, 1, 3), _f(1, 1, 4, 4)), label="grad dims")],
    "native_layer_norm": [Sample((_f(2, 3), [4], None, None, 1e-5), label="shape")],
    "native_batch_norm": [
        Sample((_f(3), None, None, None, None, True, 0.1, 1e-5), label="1-d input"),
        Sample((_idx(1, 2).reshape(1, 2), None, None, None, None, True, 0.1, 1e-5), label="integer input"),
    ],
    "native_layer_norm_backward": [
        Sample(
            (_f(2, 3), _f(2, 3), [4], _f(2, 1), _f(2, 1), None, None, [True, False, False]), label="shape"
        ),
    ],
}


def pointwise_bad_samples(fn):
    """Bad calls of a pointwise op, derived from its schema: a string where the first tensor goes, and
    (for ops of several tensors) shapes that don't broadcast."""
    args = [a for a in fn.schema.flat_arguments if a not in fn.schema.out_arguments]
    kwonly = {a.name for a in fn.schema.arguments.kwarg_only}
    tensors = [a for a in args if str(a.type) == "Tensor"]

    def sample(value_of, label):
        vals, kwargs = [], {}
        for a in args:
            v = value_of(a)
            if a.name in kwonly or a.name == "alpha":
                kwargs[a.name] = v
            else:
                vals.append(v)
        return Sample(tuple(vals), kwargs, label=label)

    def plain(a, shape=(3, 4)):
        if str(a.type) != "Tensor":
            return SCALARS.get(a.name, 2)
        return (
            np.ones(shape, bool)
            if a.name == "condition"
            else _values(_rng(), shape, np.float64, a.name, fn.name)
        )

    out = [sample(lambda a: "x" if a is tensors[0] else plain(a), "string input")]
    if len(tensors) > 1:
        out.append(
            sample(lambda a: plain(a, (3, 5) if a is tensors[-1] else (3, 4)), "shapes don't broadcast")
        )
    return out


for _fn in functional_ops():
    if _fn.pointwise is not None and not _fn.name.startswith("_"):  # torch has no public _gelu_erf
        BAD.setdefault(_fn.name, []).extend(pointwise_bad_samples(_fn))
