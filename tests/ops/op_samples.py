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
            "pow.Scalar", "addcdiv", "lgamma", "digamma", "polygamma", "_standard_gamma_grad",
            "igamma", "igammac"}  # fmt: skip
NONZERO_OTHER = {"div.Tensor", "div.Scalar", "remainder.Tensor", "remainder.Scalar", "floor_divide",
                 "floor_divide.Scalar", "fmod.Tensor", "fmod.Scalar", "atan2", "xlogy.Tensor",
                 "xlogy.Scalar_Self"}  # fmt: skip
SCALARS = {"exponent": 2.0, "alpha": 2, "other": 1.5, "weight": 0.25, "min": -0.5, "max": 0.5, "self": 2.0}
# Pointwise ops whose derivative torch leaves not implemented for some inputs (a backward that reaches
# them raises): their table samples skip the gradient checks; tests/distributions checks the others.
PARTLY_DIFFERENTIABLE = {"igamma", "igammac", "_standard_gamma_grad"}
UNIT_RANGE = {"log1p", "atan2", "asin", "acos", "atanh", "erfinv", "_dirichlet_grad"}
ABOVE_ONE = {"acosh"}


def _array(rng, shape, dtype, name, op):
    return np.asarray(_values(rng, shape, dtype, name, op))


def _values(rng, shape, dtype, name, op):
    if np.dtype(dtype).kind == "c":  # the real part in the op's domain, off the real axis's branch cuts
        real = _values(rng, shape, np.float64, name, op)
        return (real + 0.5j * rng.standard_normal(shape)).astype(dtype)
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
    if op in ABOVE_ONE:
        return (rng.random(shape) + 1.5).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _scale_alpha(arg) -> bool:
    # A Scalar alpha (add's, sub's) goes by keyword: torch reads a positional one as the deprecated
    # add(input, alpha, other). A Tensor named alpha (_dirichlet_grad's) is an ordinary operand.
    return arg.name == "alpha" and str(arg.type) != "Tensor"


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
            if a.name in kwonly or _scale_alpha(a):
                kwargs[a.name] = v
            else:
                vals.append(v)
        out.append(Sample(tuple(vals), kwargs, label=label, grad=name not in PARTLY_DIFFERENTIABLE))
    return out


def _f(*shape, seed=0, positive=False):
    a = _rng(seed).standard_normal(shape)
    return np.abs(a) + 0.5 if positive else a


def _c(*shape, seed=0):
    """Complex128 samples (complex64 in the float32 runs): standard normal real and imaginary parts."""
    rng = _rng(seed)
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def _idx(*values):
    return np.array(values, dtype=np.int64)


# Explicit samples for the ops that are not pointwise: overload name -> list of Samples (float64 data;
# the dtype tests convert the floating arrays).
EXPLICIT = {
    # --- shape and indexing: einsum, products, joining/splitting, rearranging, scattering ---
    "einsum": [
        Sample(("ij,jk->ik", [_f(2, 3), _f(3, 4, seed=1)]), label="matmul"),
        Sample(("bij,bjk", [_f(2, 3, 4), _f(2, 4, 2, seed=1)]), label="implicit output"),
        Sample(("ii->i", [_f(3, 3)]), label="diagonal"),
        Sample(("ii", [_f(3, 3)]), label="trace"),
        Sample(("...ij,...j->...i", [_f(2, 3, 4), _f(4, seed=1)]), label="ellipsis, broadcast"),
        Sample(("i,j->ij", [_f(3), _f(2, seed=1)]), label="outer"),
        Sample(("bhqd,bhkd->bhqk", [_f(2, 2, 3, 4), _f(2, 2, 5, 4, seed=1)]), label="attention scores"),
        Sample(("ij,jk,kl->il", [_f(2, 3), _f(3, 4, seed=1), _f(4, 2, seed=2)]), label="three operands"),
        Sample(("i j , j ->i", [_f(2, 3), _f(3, seed=1)]), label="spaces"),
        Sample(("ij->", [_f(2, 3)]), label="sum all"),
        Sample(("ij->ji", [_f(4, 3).T]), label="non-contiguous transpose"),
        Sample(("ab,cd->", [_f(2, 3), _f(2, 2, seed=1)]), label="no shared label"),
        Sample(("i,i->i", [np.zeros(0), np.zeros(0)]), label="empty"),
    ],
    "tensordot": [
        Sample((_f(2, 3, 4), _f(3, 4, 5, seed=1)), {"dims": ([1, 2], [0, 1])}),
        Sample((_f(2, 3), _f(2, 3, seed=1)), {"dims": ([1, 0], [1, 0])}, label="reordered pairs"),
        Sample((_f(2, 3), _f(4, seed=1)), {"dims": 0}, label="outer"),
        Sample((_f(2, 3, 4), _f(3, 4, 5, seed=1)), label="default dims=2"),
    ],
    "inner": [
        Sample((_f(2, 3), _f(4, 3, seed=1))),
        Sample((_f(3), _f(3, seed=1)), label="vectors"),
        Sample((_f(), _f(2, 3, seed=1)), label="0-d"),
    ],
    "vdot": [Sample((_f(3), _f(3, seed=1)))],
    "kron": [
        Sample((_f(2, 3), _f(2, 2, seed=1))),
        Sample((_f(2), _f(2, 3, seed=1)), label="different ranks"),
    ],
    "addmv": [
        Sample((_f(2), _f(2, 3, seed=1), _f(3, seed=2))),
        Sample(
            (_f(1), _f(2, 3, seed=1), _f(3, seed=2)), {"beta": 0.5, "alpha": 2.0}, label="broadcast, scaled"
        ),
    ],
    "addr": [
        Sample((_f(2, 3), _f(2, seed=1), _f(3, seed=2))),
        Sample(
            (_f(3), _f(2, seed=1), _f(3, seed=2)), {"beta": 2.0, "alpha": -1.0}, label="broadcast, scaled"
        ),
    ],
    "baddbmm": [
        Sample((_f(2, 3, 2), _f(2, 3, 4, seed=1), _f(2, 4, 2, seed=2))),
        Sample(
            (_f(3, 2), _f(2, 3, 4, seed=1), _f(2, 4, 2, seed=2)), {"beta": 0.5, "alpha": 3.0}, label="scaled"
        ),
    ],
    "addbmm": [
        Sample((_f(3, 2), _f(2, 3, 4, seed=1), _f(2, 4, 2, seed=2))),
        Sample((_f(2), _f(2, 3, 4, seed=1), _f(2, 4, 2, seed=2)), {"alpha": 0.5}, label="broadcast, scaled"),
    ],
    "chain_matmul": [
        Sample((_f(2, 3), _f(3, 4, seed=1), _f(4, 2, seed=2))),
        Sample((_f(2, 3),), label="one matrix"),
    ],
    "cross": [
        Sample((_f(4, 3), _f(4, 3, seed=1)), {"dim": 1}),
        Sample((_f(3, 2), _f(3, 1, seed=1)), {"dim": 0}, label="broadcast"),
    ],
    "cdist": [
        Sample((_f(3, 2), _f(4, 2, seed=1))),
        Sample((_f(2, 3, 2), _f(2, 4, 2, seed=1), 1.0), label="batched, p=1"),
        Sample((_f(3, 2), _f(4, 2, seed=1), 3.0), label="p=3"),
        Sample((_f(3, 2), _f(4, 2, seed=1), float("inf")), label="p=inf"),
        Sample((_f(30, 3), _f(4, 3, seed=1)), label="by matrix product: over 25 rows"),
        Sample((_f(2, 3), _f(4, 3, seed=1), 2.0, "use_mm_for_euclid_dist"), label="by matrix product"),
        Sample(
            (_f(30, 3), _f(4, 3, seed=1), 2.0, "donot_use_mm_for_euclid_dist"), label="not by matrix product"
        ),
    ],
    "trace": [Sample((_f(3, 4),)), Sample((_f(4, 3).T,), label="non-contiguous")],
    "diagonal": [
        Sample((_f(3, 4),)),
        Sample((_f(3, 4), 1), label="offset"),
        Sample((_f(3, 4), -2), label="negative offset"),
        Sample((_f(2, 3, 4), 0, 2, 0), label="dims"),
        Sample((_f(3, 4), 5), label="offset past the end"),
    ],
    "diag_embed": [
        Sample((_f(2, 3),)),
        Sample((_f(2, 3), 1, 0, 2), label="offset, dims"),
    ],
    "diag": [
        Sample((_f(3),)),
        Sample((_f(3), -1), label="1-d, offset"),
        Sample((_f(3, 4), 1), label="2-d, offset"),
    ],
    "unfold": [
        Sample((_f(7), 0, 3, 2), method=True),
        Sample((_f(2, 6), 1, 2, 2), method=True, label="2-d"),
        Sample((_f(6, 4).T, 1, 3, 1), method=True, label="non-contiguous"),
        Sample((_f(), 0, 1, 1), method=True, label="0-d"),
    ],
    "tile": [
        Sample((_f(2, 3), (2, 1))),
        Sample((_f(2, 3), (2,)), label="fewer dims"),
        Sample((_f(3), (2, 2))),
    ],
    "repeat_interleave.Tensor": [Sample((_idx(1, 0, 3),), grad=False)],
    "repeat_interleave.self_Tensor": [
        Sample((_f(3, 2), _idx(1, 0, 2), 0)),
        Sample((_f(3, 2), _idx(2)), label="flattened, one repeat"),
        Sample((_f(3, 2), _idx(1, 3), 1), {"output_size": 4}, label="output_size"),
    ],
    "repeat_interleave.self_int": [Sample((_f(3, 2), 2)), Sample((_f(3, 2), 3, -1), label="dim")],
    "rot90": [
        Sample((_f(2, 3),)),
        Sample((_f(2, 3), 2), label="k=2"),
        Sample((_f(2, 3, 4), -1, [2, 0]), label="k=-1, dims"),
        Sample((_f(2, 3), 4), label="k=4"),
    ],
    "fliplr": [Sample((_f(2, 3),))],
    "flipud": [Sample((_f(2, 3),))],
    "ravel": [Sample((_f(2, 3),)), Sample((_f(3, 2).T,), label="non-contiguous")],
    "take": [Sample((_f(3, 4), _idx(0, 5, -1, 11).reshape(2, 2)))],
    "take_along_dim": [
        Sample((_f(3, 4), _idx(0, 2, 1).reshape(3, 1), 1)),
        Sample((_f(3, 4), _idx(0, 5, 11))),
        Sample((_f(3, 4), _idx(2, 0).reshape(2, 1), 0), label="broadcast"),
    ],
    "atleast_1d": [Sample((_f(),)), Sample((_f(2, 3),), label="2-d")],
    "atleast_2d": [Sample((_f(),)), Sample((_f(3),), label="1-d")],
    "atleast_3d": [Sample((_f(),)), Sample((_f(3),), label="1-d"), Sample((_f(2, 3),), label="2-d")],
    "atleast_1d.Sequence": [Sample(([_f(), _f(2)],))],
    "atleast_2d.Sequence": [Sample(([_f(), _f(2)],))],
    "atleast_3d.Sequence": [Sample(([_f(), _f(2), _f(2, 3)],))],
    "hstack": [Sample(([_f(2), _f(3)],), label="1-d"), Sample(([_f(2, 1), _f(2, 3)],), label="2-d")],
    "vstack": [Sample(([_f(3), _f(3)],), label="1-d"), Sample(([_f(2, 3), _f(1, 3)],), label="2-d")],
    "dstack": [Sample(([_f(3), _f(3)],), label="1-d"), Sample(([_f(2, 3), _f(2, 3, 2)],), label="2-d, 3-d")],
    "column_stack": [Sample(([_f(3), _f(3, 2), _f(3)],))],
    "tensor_split.sections": [Sample((_f(7, 2), 3)), Sample((_f(2, 5), 2, 1), label="dim")],
    "tensor_split.indices": [
        Sample((_f(7, 2), [1, 5])),
        Sample((_f(7), [4, 2, -1, 9]), label="out of order"),
    ],
    "tensor_split.tensor_indices_or_sections": [
        Sample((_f(7), _idx(1, 5)), label="indices"),
        Sample((_f(7), _idx(3).reshape(())), label="sections"),
    ],
    "hsplit.int": [Sample((_f(2, 4), 2)), Sample((_f(6), 3), label="1-d")],
    "hsplit.array": [Sample((_f(2, 4), [1, 3]))],
    "vsplit.int": [Sample((_f(4, 2), 2))],
    "vsplit.array": [Sample((_f(4, 2), [3]))],
    "dsplit.int": [Sample((_f(2, 2, 4), 2))],
    "dsplit.array": [Sample((_f(2, 2, 4), [1]))],
    "meshgrid.indexing": [
        Sample(([_f(3), _f(2, seed=1)],), {"indexing": "ij"}),
        Sample(([_f(3), _f(2, seed=1), _f(4, seed=2)],), {"indexing": "xy"}, label="xy"),
        Sample(([_f(), _f(2, seed=1)],), {"indexing": "xy"}, label="0-d"),
    ],
    "meshgrid": [Sample(([_f(3), _f(2, seed=1)],), label="no indexing: warns")],
    "broadcast_to": [Sample((_f(3, 1), (2, 3, 4))), Sample((_f(3), (2, -1)), label="-1")],
    "broadcast_tensors": [Sample((_f(3, 1), _f(4, seed=1), _f()))],
    "block_diag": [Sample((_f(2, 3), _f(), _f(2, seed=1))), Sample((_f(1, 2), _idx(1, 2)), label="mixed")],
    "cartesian_prod": [Sample((_f(3), _f(2, seed=1))), Sample((_f(3),), label="one tensor")],
    "combinations": [
        Sample((_f(4),)),
        Sample((_f(4), 3), label="r=3"),
        Sample((_f(3), 2, True), label="with replacement"),
        Sample((_f(2), 3), label="r too large"),
    ],
    "index_fill.int_Scalar": [Sample((_f(3, 4), 1, _idx(0, 2), -1.5)), Sample((_f(3, 4), 0, _idx(1), 2.0))],
    "index_fill.int_Tensor": [Sample((_f(3, 4), 1, _idx(0, 2), np.array(-1.5)))],
    "index_copy": [
        Sample((_f(4, 3), 0, _idx(3, 0), _f(2, 3, seed=1))),
        Sample((_f(4, 3), 1, _idx(2), _f(4, 1, seed=1)), label="dim 1"),
    ],
    "masked_scatter": [
        Sample((_f(2, 3), np.array([[True, False, True], [False, False, True]]), _f(2, 3, seed=1))),
        Sample((_f(2, 3), np.array([True, False, True]), _f(7, seed=1)), label="broadcast mask"),
    ],
    "select_scatter": [Sample((_f(3, 4), _f(4, seed=1), 0, 1)), Sample((_f(3, 4), _f(3, seed=1), 1, -1))],
    "slice_scatter": [
        Sample((_f(5, 3), _f(2, 3, seed=1), 0, 1, 5, 2)),
        Sample((_f(3, 4), _f(3, 2, seed=1)), {"dim": 1, "start": 2}, label="keywords"),
    ],
    "diagonal_scatter": [
        Sample((_f(3, 4), _f(3, seed=1))),
        Sample((_f(3, 4), _f(2, seed=1), -1), label="offset"),
    ],
    "put": [
        Sample((_f(3, 4), _idx(0, 5, 11), _f(3, seed=1))),
        Sample((_f(3, 4), _idx(1, 1), _f(2, seed=1), True), label="accumulate"),
    ],
    "scatter_reduce.two": [
        Sample((_f(3, 4), 0, _idx(0, 1, 2, 0, 2, 2, 0, 1).reshape(2, 4), _f(2, 4, seed=1), reduce))
        for reduce in ("sum", "prod", "mean", "amax", "amin")
    ]
    + [
        Sample(
            (_f(3, 4), 1, _idx(3, 3, 0, 1, 0, 0).reshape(3, 2), _f(3, 2, seed=1), reduce),
            {"include_self": False},
            label=f"{reduce}, not self, dim 1",
        )
        for reduce in ("sum", "prod", "mean", "amax", "amin")
    ]
    + [
        Sample(
            (_f(3, 4), 0, _idx(0, 2, 1, 0).reshape(1, 4), _f(2, 4), "sum"),
            grad=False,
            label="index smaller than src",
        ),
        Sample((_idx(1, 2, 3), 0, _idx(0, 0), _idx(4, 5), "mean"), grad=False, label="integer mean"),
    ],
    "clamp.Tensor": [
        Sample((_f(3, 4), _f(3, 4, seed=1) - 1, _f(4, seed=2) + 1.5)),
        Sample((_f(3, 4), None, _f(3, 1, seed=2)), label="max only"),
    ],
    "where": [Sample((_f(3, 4) > 0,)), Sample((np.array(True),), label="0-d")],
    "where.Scalar": [
        Sample((_f(3, 4) > 0, 1.0, -1.0)),
        Sample((_f(3) > 0, 1, 2), label="ints"),
        Sample((_f(3) > 0, True, 2.5), label="bool and float"),
    ],
    "view.dtype": [
        Sample((_f(2, 4), "int64"), method=True, label="to int64"),
        Sample((_f(2, 4), "float32"), method=True, label="to float32"),
        Sample((_f(3, 4)[:, 2:], "float64"), method=True, label="offset view"),
        Sample((_f(), "float64"), method=True, label="0-d, same size"),
    ],
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
    "cumprod": [
        Sample((_f(3, 4), 1)),
        Sample((np.array([[2.0, 0.0, 3.0, 0.0], [1.5, -2.0, 0.0, 4.0]]), 1), label="zeros"),
        Sample((_f(3, 4), 0), {"dtype": "float64"}),
        Sample((_idx(1, 2, 3), 0), label="integer"),
    ],
    "cummax": [
        Sample((_f(3, 4), 1)),
        Sample((_f(3, 4).T, 0), label="non-contiguous"),
        Sample((_idx(2, 1, 3), 0)),
    ],
    "cummin": [Sample((_f(3, 4), 1)), Sample((_f(), 0), label="0-dim"), Sample((_idx(2, 1, 3), 0))],
    "logcumsumexp": [
        Sample((_f(3, 4), 1)),
        Sample((np.array([-1000.0, 0.0, 1000.0]), 0), label="wide range"),
    ],
    "count_nonzero.dim_IntList": [
        Sample((np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]), [0]), grad=False),
        Sample((_idx(0, 1, 2), [0])),
    ],
    "count_nonzero": [
        Sample((np.array([[1.0, 0.0], [2.0, 3.0]]),), grad=False),
        Sample((np.array([[1.0, 0.0], [2.0, 3.0]]), 1), grad=False),
    ],
    "nansum": [
        Sample((np.array([[1.0, np.nan, 2.0], [3.0, 4.0, np.nan]]),)),
        Sample((np.array([[1.0, np.nan, 2.0], [3.0, 4.0, np.nan]]), [1], True)),
        Sample((_idx(1, 2, 3),), label="integer"),
    ],
    "nanmean": [
        Sample((np.array([[1.0, np.nan, 2.0], [3.0, 4.0, np.nan]]),)),
        Sample((np.array([[1.0, np.nan, 2.0], [3.0, 4.0, np.nan]]), [0])),
    ],
    "std_mean": [Sample((_f(3, 4),)), Sample((_f(3, 4), False))],
    "std_mean.dim": [Sample((_f(3, 4), [1])), Sample((_f(3, 4), [0], False, True))],
    "std_mean.correction": [Sample((_f(3, 4), [1]), {"correction": 0}), Sample((_f(3, 4),))],
    "var_mean": [Sample((_f(3, 4),)), Sample((_f(3, 4), False))],
    "var_mean.dim": [Sample((_f(3, 4), [1])), Sample((_f(3, 4), [0], False, True))],
    "var_mean.correction": [Sample((_f(3, 4), [1]), {"correction": 2, "keepdim": True}), Sample((_f(3, 4),))],
    "aminmax": [
        Sample((_f(3, 4),)),
        Sample((_f(3, 4),), {"dim": 1, "keepdim": True}),
        Sample((_idx(3, 1, 2),), {"dim": 0}, method=True),
    ],
    # Tie-free data for the order statistics (torch does not say which of equal elements it returns).
    "median": [
        Sample((_f(3, 4),)),
        Sample((_f(5),), method=True),
        Sample((np.array([1.0, np.nan, 2.0]),), grad=False),
    ],
    "median.dim": [
        Sample((_f(3, 4), 1)),
        Sample((_f(3, 5), 0, True)),
        Sample((np.array([[1.0, np.nan, 2.0], [3.0, 0.0, 4.0]]), 1), label="NaN", grad=False),
    ],
    "nanmedian": [Sample((np.array([1.0, np.nan, 2.0, 5.0, 3.0]),)), Sample((_f(4),))],
    "nanmedian.dim": [
        Sample((np.array([[1.0, np.nan, 2.0], [3.0, 0.0, 4.0]]), 1), label="NaN"),
        Sample((_f(3, 4), 0, True)),
    ],
    "kthvalue": [Sample((_f(3, 4), 2)), Sample((_f(3, 4), 3, 0, True)), Sample((_f(), 1), label="0-dim")],
    "mode": [
        Sample((np.array([[1.0, 2.0, 2.0, 1.0, 3.0], [4.0, 4.0, 0.5, 0.5, 0.5]]),), grad=False),
        Sample((_idx(1, 2, 2, 3, 3, 2),), label="integer"),
        Sample((_f(3, 4), 0, True)),
    ],
    "quantile": [
        Sample((_f(3, 4), np.array([0.1, 0.3, 0.9]))),
        Sample((_f(3, 4), np.array([0.0, 1.0])), label="ends", grad=False),
        Sample((_f(3, 4), np.array([0.25, 0.5]), 1, True)),
        Sample((_f(3, 4), np.array(0.4), 0), {"interpolation": "midpoint"}),
        Sample((_f(3, 4), np.array([0.4, 0.7]), None, True), {"interpolation": "nearest"}),
    ],
    "quantile.scalar": [
        Sample((_f(3, 4), 0.3, 1), {"interpolation": "lower"}),
        Sample((_f(3, 4), 0.3), {"interpolation": "higher"}, method=True),
        Sample((np.array([1.0, np.nan, 2.0]), 0.5), grad=False),
    ],
    "nanquantile": [
        Sample((np.array([[1.0, np.nan, 2.0, 5.0], [np.nan] * 4]), np.array([0.2, 0.9]), 1), grad=False),
    ],
    "nanquantile.scalar": [Sample((np.array([1.0, np.nan, 2.0, 5.0]), 0.6)), Sample((_f(3, 4), 0.5, 0))],
    "diff": [
        Sample((_f(3, 4),)),
        Sample((_f(3, 4), 2, 0, _f(1, 4, seed=1), _f(2, 4, seed=2))),
        Sample((_idx(1, 4, 9, 16), 5), label="n beyond the size"),
        Sample((np.array([True, False, False]),), method=True),
    ],
    "trapezoid.x": [Sample((_f(3, 4), _f(4, seed=1))), Sample((_f(3, 4), _f(3, 4, seed=1)), {"dim": 0})],
    "trapezoid.dx": [
        Sample((_f(3, 4),), {"dx": 0.5}),
        Sample((_idx(1, 2, 4),)),
        Sample((np.zeros((2, 0)),), grad=False),
    ],
    "cumulative_trapezoid.x": [Sample((_f(3, 4), _f(3, seed=1)), {"dim": 0})],
    "cumulative_trapezoid.dx": [Sample((_f(3, 4),), {"dx": 2}), Sample((_idx(1, 2, 4),))],
    "searchsorted.Tensor": [
        Sample((np.array([1.0, 3.0, 5.0, 7.0]), np.array([[3.0, 6.0], [0.0, 9.0]]))),
        Sample((_idx(1, 3, 5, 7), _idx(3, 7, 8)), {"right": True, "out_int32": True}),
        Sample((np.array([[1.0, 3.0], [2.0, 4.0]]), np.array([[2.0], [3.0]])), {"side": "right"}),
        Sample((_idx(5, 1, 3), _idx(3, 6, 0)), {"sorter": _idx(1, 2, 0)}),
    ],
    "searchsorted.Scalar": [Sample((_idx(1, 3, 5, 7), 3), {"right": True})],
    "bucketize.Tensor": [
        Sample((_idx(0, 3, 9), _idx(1, 3, 5))),
        Sample((_f(3, 4), np.array([-1.0, 0.0, 1.0])), {"right": True}, grad=False),
    ],
    "bucketize.Scalar": [Sample((3, _idx(1, 3, 5)), {"out_int32": True})],
    "bincount": [
        Sample((_idx(1, 3, 3, 0),), {"minlength": 6}),
        Sample((_idx(1, 3, 3, 0), np.array([0.5, 1.0, 2.0, 3.0])), grad=False),
        Sample((_idx(1, 3, 3, 0), _idx(1, 2, 3, 4)), label="integer weights"),
        Sample((np.zeros(0, np.int64),), label="empty"),
    ],
    "histogram.bins_tensor": [
        Sample((np.array([1.0, 2.0, 1.0, 4.0, 7.0, np.nan]), np.array([0.0, 1.5, 2.0, 4.0])), grad=False),
        Sample(
            (_f(3, 4), np.array([-1.0, 0.0, 0.5, 2.0])),
            {"weight": _f(3, 4, seed=1), "density": True},
            grad=False,
        ),
    ],
    "histogram.bin_ct": [
        Sample((np.array([1.0, 2.0, 1.0, 4.0]), 3), grad=False),
        Sample((_f(3, 4), 4), {"range": [0.0, 3.0], "density": True}, grad=False),
        Sample((np.array([2.0, 2.0]), 2), label="one value", grad=False),
        Sample((np.zeros(0),), label="empty", grad=False),
        Sample((_f(3, 4),), {"weight": _f(3, 4, seed=1)}, method=True, grad=False),
    ],
    "histc": [
        Sample((np.array([1.0, 2.0, 1.0, 4.0]), 4, 0, 3), grad=False),
        Sample((_f(3, 4), 5), grad=False),
        Sample((np.array([2.0, 2.0]), 2), label="one value", grad=False),
        Sample((np.zeros(0), 2), label="empty", grad=False),
    ],
    "_unique2": [
        Sample((_idx(3, 1, 3, 2, 1),), grad=False),
        Sample((_f(3, 4).round(), True, True, True), grad=False),
        Sample((np.zeros((0, 2)), True, True, True), label="empty", grad=False),
    ],
    "unique_dim": [
        Sample((_idx(1, 2, 0, 5, 1, 2).reshape(3, 2), 0, True, True, True), grad=False),
        Sample((_idx(1, 2, 1, 0, 5, 0).reshape(2, 3), 1), grad=False),
        Sample((np.zeros((0, 2)), 0), label="empty", grad=False),
    ],
    "unique_consecutive": [
        Sample((_idx(1, 1, 2, 2, 3, 1, 1, 2),), grad=False),
        Sample((_idx(1, 1, 2, 1).reshape(2, 2), True, True), grad=False),
        Sample((_idx(1, 1, 2, 1, 1, 0).reshape(2, 3), True, True, 1), grad=False),
    ],
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
    # --- complex numbers (runtime/native/complex.py) ---
    "view_as_real": [
        Sample((_c(3, 4),)),
        Sample((_c(4, 3).T,), label="non-contiguous"),
        Sample((_c(),), label="0-dim"),
        Sample((_c(0, 2),), label="empty", grad=False),  # NumPy's (0, 0) strides: no complex view of a grad
    ],
    "view_as_complex": [
        Sample((_f(3, 2),)),
        Sample((_f(2, 3, 2),), label="3-d"),
    ],
    "view_as_real_copy": [Sample((_c(3, 4),)), Sample((_c(4, 3).T,), label="non-contiguous")],
    # torch has no derivative for view_as_complex_copy (yaten's is view_as_complex's, gradchecked there)
    "view_as_complex_copy": [
        Sample((_f(3, 2),), grad=False),
        Sample((_f(2, 3, 2),), label="3-d", grad=False),
    ],
    "real": [
        Sample((_c(3, 4),)),
        Sample((_c(4, 3).T,), label="non-contiguous"),
        Sample((_f(3, 4),), label="real"),
    ],
    "imag": [Sample((_c(3, 4),)), Sample((_c(4, 3).T,), label="non-contiguous")],
    "_conj_physical": [Sample((_c(3, 4),))],
    "conj_physical": [Sample((_c(3, 4),)), Sample((_f(3, 4),), label="real")],
    "conj": [
        Sample((_c(3, 4),)),
        Sample((_c(4, 3).T,), method=True, label="method"),
        Sample((_f(3),), label="real"),
    ],
    "resolve_conj": [Sample((_c(3, 4),)), Sample((_f(3),), label="real")],
    "resolve_neg": [Sample((_c(3, 4),)), Sample((_f(3),), label="real")],
    "is_conj": [Sample((_c(3, 4),), grad=False), Sample((_f(3),), method=True, label="real", grad=False)],
    "complex": [
        Sample((_f(3, 4), _f(3, 4, seed=1))),
        Sample((_f(3, 1), _f(4, seed=1)), label="broadcast"),
        Sample((_f(), _f(seed=1)), label="0-dim"),
    ],
    "polar": [
        Sample((_f(3, 4, positive=True), _f(3, 4, seed=1))),
        Sample((_f(3, 1, positive=True), _f(4, seed=1)), label="broadcast"),
    ],
    "angle": [
        Sample((_c(3, 4),)),
        Sample((_c(4, 3).T,), method=True, label="method"),
        Sample((_f(3, 4),), label="real"),
        Sample((_idx(-2, 0, 3),), label="integer"),
    ],
    "isreal": [
        Sample((np.array([1 + 0j, 2j, 3 - 1j]),), grad=False),
        Sample((_f(3),), method=True, label="real", grad=False),
    ],
    "adjoint": [Sample((_c(2, 3, 4),)), Sample((_f(3, 4),), method=True, label="real")],
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
    "conv3d": [
        Sample(
            (_f(2, 4, 4, 5, 4), _f(6, 2, 2, 3, 2, seed=1), _f(6, seed=2), (2, 1, 1), (1, 0, 1), (1, 2, 1), 2)
        ),
        Sample((_f(3, 4, 3, 3), _f(2, 3, 2, 2, 2, seed=1)), label="unbatched"),
    ],
    "conv3d.padding": [Sample((_f(1, 2, 4, 3, 4), _f(2, 2, 3, 2, 2, seed=1), _f(2, seed=2), 1, "same"))],
    "conv_transpose3d.input": [
        Sample(
            (_f(2, 4, 3, 2, 3), _f(4, 2, 2, 3, 2, seed=1), _f(4, seed=2), (2, 1, 2), (1, 0, 1), (1, 0, 0), 2)
        ),
        Sample((_f(2, 3, 2, 3), _f(2, 2, 2, 2, 2, seed=1)), label="unbatched"),
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
    "avg_pool1d": [
        Sample((_f(2, 3, 8), 3)),
        Sample((_f(3, 7), 3, 2, 1, True, False), label="unbatched, ceil_mode, no pad count"),
    ],
    "max_pool1d_with_indices": [
        Sample((_f(2, 3, 8), 2)),
        Sample((_f(3, 9), 3, 2, 1, 2, True), label="unbatched, dilation, ceil_mode"),
    ],
    "max_pool1d": [Sample((_f(2, 3, 8), 3, 2, 1))],
    "adaptive_avg_pool1d": [Sample((_f(2, 3, 7), 3)), Sample((_f(3, 4), 6), label="unbatched, upsampling")],
    "adaptive_avg_pool3d": [
        Sample((_f(2, 3, 5, 4, 6), [2, 3, 4])),
        Sample((_f(2, 3, 4, 5), [1, 1, 1]), label="unbatched, global"),
    ],
    "adaptive_max_pool1d": [Sample((_f(2, 3, 7), 3)), Sample((_f(3, 4), 6), label="unbatched, upsampling")],
    "adaptive_max_pool2d": [
        Sample((_f(2, 3, 5, 7), [3, 4])),
        Sample((_f(3, 4, 5), [1, 1]), label="unbatched, global"),
        Sample((_f(1, 2, 3, 3), [5, 4]), label="upsampling"),
    ],
    "adaptive_max_pool3d": [Sample((_f(2, 2, 5, 4, 6), [2, 3, 4]))],
    "max_pool3d_with_indices": [
        Sample((_f(2, 2, 5, 6, 4), 2)),
        Sample(
            (_f(2, 5, 6, 4), (3, 2, 2), (2, 1, 2), (1, 1, 0), (1, 2, 1), True),
            label="unbatched, ceil, dilated",
        ),
    ],
    "max_pool3d": [Sample((_f(1, 2, 4, 4, 4), 2, 2, 1))],
    # random_samples (a keyword: not differentiable, so it may not require grad) away from the jumps of
    # the window starts.
    "fractional_max_pool2d": [
        Sample(
            (_f(2, 3, 7, 6), [2, 3], [3, 4]),
            {"random_samples": np.array([[[0.3, 0.7]] * 3, [[0.55, 0.1]] * 3])},
        ),
        Sample(
            (_f(2, 6, 5), 2, [4, 4]),
            {"random_samples": np.array([[[0.2, 0.9], [0.45, 0.35]]])},
            label="unbatched, square",
        ),
    ],
    "fractional_max_pool3d": [
        Sample(
            (_f(1, 2, 6, 6, 5), 2, [3, 4, 2]),
            {"random_samples": np.array([[[0.3, 0.6, 0.15], [0.8, 0.25, 0.5]]])},
        ),
        Sample(
            (_f(2, 5, 4, 5), [2, 1, 2], 3),
            {"random_samples": np.array([[[0.5, 0.2, 0.7]] * 2])},
            label="unbatched",
        ),
    ],
    "avg_pool3d": [
        Sample((_f(2, 2, 5, 6, 4), 2)),
        Sample(
            (_f(2, 5, 6, 4), (3, 2, 2), (2, 1, 2), (1, 1, 0), True, False),
            label="unbatched, ceil, no pad count",
        ),
        Sample((_f(1, 2, 4, 4, 4), 2, 2, 1, False, True, 5), label="divisor_override"),
    ],
    # --- nn: padding and upsampling ---
    "constant_pad_nd": [
        Sample((_f(2, 3, 4), [1, 2], 1.5)),
        Sample((_f(2, 3, 4), [-1, 2, 0, 1, 1, 1]), label="negative, 3 dims"),
        Sample((_idx(1, 2, 3), [2, 0], 7), grad=False, label="int64"),
    ],
    "pad": [
        Sample((_f(2, 3, 4), [1, 2], "constant", 0.5)),
        Sample((_f(2, 3, 4), [2, 1], "reflect"), label="reflect 1-d"),
        Sample((_f(2, 3, 4, 5), [1, 2, 2, 0], "reflect"), label="reflect 2-d"),
        Sample((_f(1, 2, 3, 4, 3), [1, 1, 2, 0, 1, 2], "reflect"), label="reflect 3-d"),
        Sample((_f(3, 4), [3, 1], "replicate"), label="replicate unbatched"),
        Sample((_f(2, 3, 4, 5), [-1, 2, 1, 3], "replicate"), label="replicate 2-d, negative"),
        Sample((_f(2, 3, 4, 4, 3), [1, 1, 2, 0, 1, 2], "replicate"), label="replicate 3-d"),
        Sample((_f(2, 3, 4), [4, 2], "circular"), label="circular 1-d"),
        Sample((_f(2, 3, 4, 5), [-1, 2, 1, -2], "circular"), label="circular 2-d, negative"),
        Sample((_f(2, 3, 4, 5, 2), [1, 1, 2, 0, 1, 2], "circular"), label="circular 3-d"),
    ],
    "upsample_nearest1d.vec": [
        Sample((_f(2, 3, 4), [7], None)),
        Sample((_f(2, 3, 4), None, [1.5]), label="scale"),
    ],
    "upsample_nearest2d.vec": [
        Sample((_f(2, 3, 4, 3), [8, 5], None)),
        Sample((_f(1, 2, 5, 4), None, [0.6, 2.0]), label="scale, down"),
    ],
    "upsample_nearest3d.vec": [Sample((_f(1, 2, 3, 2, 3), [4, 3, 5], None))],
    "_upsample_nearest_exact1d.vec": [Sample((_f(2, 3, 4), [7], None))],
    "_upsample_nearest_exact2d.vec": [Sample((_f(1, 2, 5, 4), None, [0.6, 1.7]), label="scale")],
    "_upsample_nearest_exact3d.vec": [Sample((_f(1, 2, 3, 2, 3), [4, 3, 5], None))],
    "upsample_linear1d.vec": [
        Sample((_f(2, 3, 4), [7], False, None)),
        Sample((_f(2, 3, 4), None, True, [2.5]), label="align_corners, scale"),
    ],
    "upsample_bilinear2d.vec": [
        Sample((_f(2, 3, 4, 3), [7, 5], False, None)),
        Sample((_f(1, 2, 5, 4), [3, 6], True, None), label="align_corners"),
        Sample((_f(1, 2, 5, 4), None, False, [1.5, 0.5]), label="scale"),
    ],
    "upsample_trilinear3d.vec": [
        Sample((_f(1, 2, 3, 2, 3), [4, 3, 5], False, None)),
        Sample((_f(1, 2, 3, 2, 3), None, True, [2.0, 1.5, 1.0]), label="align_corners, scale"),
    ],
    "upsample_bicubic2d.vec": [
        Sample((_f(2, 3, 4, 3), [7, 5], False, None)),
        Sample((_f(1, 2, 5, 4), [3, 6], True, None), label="align_corners"),
    ],
    "affine_grid_generator": [
        Sample((_f(2, 2, 3), [2, 3, 4, 5], False)),
        Sample((_f(1, 3, 4), [1, 2, 3, 2, 4], True), label="3-d, align_corners"),
    ],
    "grid_sampler": [
        Sample((_f(2, 3, 5, 4), _f(2, 3, 2, 2, seed=1) * 1.3, 0, 0, False)),
        Sample((_f(1, 2, 4, 4), _f(1, 2, 3, 2, seed=1) * 1.3, 0, 1, True), label="border, align_corners"),
        Sample((_f(1, 2, 4, 3), _f(1, 2, 3, 2, seed=1) * 1.7, 0, 2, False), label="reflection"),
        Sample((_f(1, 2, 4, 3), _f(1, 3, 2, 2, seed=1) * 1.2, 1, 0, False), label="nearest"),
    ],
    "im2col": [
        Sample((_f(2, 3, 5, 6), [2, 2], [1, 1], [0, 0], [1, 1])),
        Sample((_f(3, 5, 6), [2, 3], [2, 1], [1, 2], [2, 1]), label="unbatched, dilated, padded, strided"),
    ],
    "col2im": [
        Sample((_f(2, 12, 20), [5, 6], [2, 2], [1, 1], [0, 0], [1, 1])),
        Sample(
            (_f(18, 24), [5, 6], [2, 3], [2, 1], [1, 2], [2, 1]), label="unbatched, dilated, padded, strided"
        ),
    ],
    "pixel_shuffle": [Sample((_f(2, 8, 2, 3), 2)), Sample((_f(9, 1, 2), 3), label="unbatched")],
    "pixel_unshuffle": [Sample((_f(2, 2, 4, 6), 2)), Sample((_f(3, 2, 3, 3), 3), label="unbatched")],
    "cosine_similarity": [
        Sample((_f(3, 4), _f(3, 4, seed=1))),
        Sample((_f(2, 3, 4), _f(3, 1, seed=1), -1, 1e-6), label="broadcast, dim, eps"),
        Sample((_idx(1, 2, 0), _f(3, seed=1), 0), grad=False, label="int64 with float"),
    ],
    "pairwise_distance": [
        Sample((_f(3, 4), _f(3, 4, seed=1))),
        Sample((_f(3, 4), _f(4, seed=1), 1.0, 1e-3, True), label="broadcast, p=1, keepdim"),
        Sample((_f(3, 4), _f(3, 4, seed=1), 3.0), label="p=3"),
        Sample((_idx(1, 2, 0), _idx(0, 2, 4)), grad=False, label="int64"),
    ],
    "glu": [Sample((_f(3, 4),)), Sample((_f(4, 3), 0), label="dim 0")],
    "norm_except_dim": [
        Sample((_f(3, 2, 4),)),
        Sample((_f(3, 2, 4), 3, 1), label="pow 3, middle dim"),
        Sample((_f(3, 2, 4), 2, 2), label="last dim"),
        Sample((_f(3, 2, 4), 2, -1), label="whole norm"),
        Sample((_f(5), 2, 0), label="vector"),
    ],
    "_weight_norm": [
        Sample((_f(3, 2, 4), _f(3, 1, 1, seed=1))),
        Sample((_f(3, 4), _f(1, 4, seed=1), 1), label="dim 1"),
        Sample((_f(3, 4), _f(seed=1), -1), label="whole norm"),
    ],
    "prelu": [
        Sample((_f(2, 3, 4), _f(3, seed=1))),
        Sample((_f(2, 3), _f(1, seed=1)), label="one weight"),
        Sample((_f(5), _f(1, seed=1)), label="1-d"),
    ],
    # deterministic cases only; the random ones: tests/runtime/test_surface_tail.py
    "alpha_dropout": [
        Sample((_f(3, 4), 0.0, True)),
        Sample((_f(3, 4), 0.5, False)),
        Sample((_f(3, 4), 1.0, True)),
    ],
    "feature_alpha_dropout": [Sample((_f(2, 3, 4), 0.5, False)), Sample((_f(2, 3, 4), 1.0, True))],
    "feature_dropout": [
        Sample((_f(2, 3, 4), 0.0, True)),
        Sample((_f(2, 3, 4), 0.5, False)),
        Sample((_f(2, 3, 4), 1.0, True)),
    ],
    "margin_ranking_loss": [
        Sample((_f(5), _f(5, seed=1), np.sign(_f(5, seed=2)), 0.3, 1)),
        Sample((_f(5), _f(5, seed=1), np.sign(_f(5, seed=2)), 0.0, 0), label="none"),
    ],
    "hinge_embedding_loss": [
        Sample((_f(3, 4), np.sign(_f(3, 4, seed=1)), 1.0, 1)),
        Sample((_f(3, 4), np.sign(_f(3, 4, seed=1)), 0.5, 2), label="margin, sum"),
    ],
    "soft_margin_loss": [  # an int64 target: torch's soft_margin_loss has no gradient for the target
        Sample((_f(3, 4), np.sign(_f(3, 4, seed=1)).astype(np.int64), 1)),
        Sample((_f(4), _idx(1, -1, -1, 1), 0), label="none"),
    ],
    "cosine_embedding_loss": [
        Sample((_f(4, 3), _f(4, 3, seed=1), np.sign(_f(4, seed=2)), 0.1, 1)),
        Sample((_f(3), _f(3, seed=1), np.array(-1.0), -0.5, 0), label="0-d target"),
    ],
    "triplet_margin_loss": [
        Sample((_f(4, 3), _f(4, 3, seed=1), _f(4, 3, seed=2), 1.0, 2.0, 1e-6, False, 1)),
        Sample((_f(4, 3), _f(4, 3, seed=1), _f(4, 3, seed=2), 2.0, 1.0, 1e-6, True, 0), label="swap, p=1"),
    ],
    "multi_margin_loss": [
        Sample((_f(3, 4), _idx(0, 3, 1), 1, 0.7, None, 1)),
        Sample(
            (_f(3, 4), _idx(0, 3, 1), 2, 1.0, _f(4, seed=1), 0), grad=False, label="p=2, weight"
        ),  # no weight grad
        Sample((_f(3, 4), _idx(2, 0, 1), 2, 1.0, None, 2), label="p=2"),
        Sample((_f(4), np.array(2), 1, 1.0, None, 2), label="1-d"),
    ],
    "multilabel_margin_loss": [
        Sample((_f(3, 4), np.array([[0, 3, -1, 2], [1, -1, 0, 0], [3, 2, 1, 0]]), 1)),
        Sample((_f(4), _idx(0, 3, -1, 1), 0), label="1-d"),
    ],
    "poisson_nll_loss": [
        Sample((_f(3, 4), _f(3, 4, seed=1, positive=True) * 3, True, True, 1e-8, 1), label="log_input, full"),
        Sample(
            (_f(3, 4, positive=True), _f(3, 4, seed=1, positive=True), False, False, 1e-8, 2), label="rates"
        ),
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
    "instance_norm": [
        Sample((_f(2, 3, 4), _f(3, seed=1), _f(3, seed=2), None, None, True, 0.1, 1e-5, False)),
        Sample((_f(2, 2, 3, 3), None, None, None, None, True, 0.1, 1e-3, False), label="2-d images"),
        Sample(
            (_f(2, 3, 4), None, _f(3, seed=2), np.zeros(3), np.ones(3), True, 0.1, 1e-5, False),
            label="training with stats",
            grad=False,
        ),
        Sample(
            (_f(2, 3, 4), None, None, _f(3, seed=3), _f(3, seed=4, positive=True), False, 0.1, 1e-5, False),
            label="running stats",
            grad=False,
        ),
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
    # --- torch.fft ---
    "fft_fftfreq": [
        Sample((5,)),
        Sample((6, 0.5), label="even n, spacing"),
        Sample((4,), {"d": 2.0, "dtype": "float64"}, label="float64"),
        Sample((0,), label="n = 0"),
        Sample((3, 0.0), label="zero spacing"),
    ],
    "fft_rfftfreq": [
        Sample((5,)),
        Sample((6, 2.0), {"dtype": "float64"}, label="even n, float64"),
        Sample((0,), label="n = 0"),
        Sample((-1,), label="n = -1"),
    ],
    "fft_fftshift": [
        Sample((_f(3, 4),)),
        Sample((_f(3, 5),), {"dim": 1}, label="one dim"),
        Sample((_f(2, 3, 5),), {"dim": [0, -1]}, label="dims"),
        Sample((_f(5, 4).T,), {"dim": 0}, label="non-contiguous"),
        Sample((np.zeros((2, 0, 3)),), label="empty"),
    ],
    "fft_ifftshift": [
        Sample((_f(3, 5),)),
        Sample((_f(2, 3, 5),), {"dim": (-1, 1)}, label="dims"),
        Sample((_idx(0, 1, 2, 3, 4),), {"dim": 0}, label="integer"),
    ],
}

# Overloads that are not user-facing or whose samples live elsewhere (with the reason).
# Ops whose complex forward PyTorch computes but whose autograd it refuses ("silu does not support automatic
# differentiation for outputs with complex dtype"): yaten differentiates them, and
# tests/ops/test_complex_ops.py gradchecks that; there is no torch gradient to compare with.
NO_COMPLEX_AUTOGRAD_IN_TORCH = {"silu"}

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
    "_ctc_loss_backward": "tests/nn/test_ctc_loss.py",
    # torch has no CPU kernel for the fused cells (CUDA only): the op table reaches them through
    # lstm_cell/gru_cell; tests/nn/test_rnn.py gradchecks them and compares their backwards with torch's.
    "_thnn_fused_lstm_cell": "tests/nn/test_rnn.py", "_thnn_fused_gru_cell": "tests/nn/test_rnn.py",
    "_thnn_fused_lstm_cell_backward_impl": "tests/nn/test_rnn.py",
    "_thnn_fused_gru_cell_backward": "tests/nn/test_rnn.py",
    # The sparse COO layout's ops take or make sparse tensors, which the table's NumPy samples cannot
    # describe: tests/sparse/ compares each with torch (values, gradients, errors) and gradchecks them.
    **{name: "tests/sparse/" for name in (
        "_sparse_coo_tensor_with_dims_and_tensors", "_indices", "_values", "indices", "values", "_nnz",
        "is_coalesced", "_to_dense", "_to_sparse.sparse_dim", "to_sparse.sparse_dim", "to_sparse", "coalesce",
        "_coalesce", "_sparse_addmm", "_sparse_sum.dim", "sparse_mask", "_sparse_softmax", "_sparse_log_softmax")},
}  # fmt: skip

# Ops besides the LAPACK primitives (op_samples_linalg.CPU_ONLY) with a CPU kernel only: on cuda they
# raise torch's NotImplementedError for a missing backend, which tests/cuda/test_cuda_op_table.py accepts.
NO_CUDA_KERNEL = ("_ctc_loss",)

# Where torch keeps the ops it has outside the torch namespace (overload name -> callable path).
TORCH_NAME = {"index.Tensor": "ops.aten.index.Tensor", "slice.Tensor": "ops.aten.slice.Tensor",
              "unique_dim": "ops.aten.unique_dim.default",
              "log_sigmoid": "_C._nn.log_sigmoid",
              **{f"{name}.vec": f"ops.aten.{name}.vec" for name in (
                  "upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d", "_upsample_nearest_exact1d",
                  "_upsample_nearest_exact2d", "_upsample_nearest_exact3d", "upsample_linear1d",
                  "upsample_bilinear2d", "upsample_trilinear3d", "upsample_bicubic2d")},
              "adaptive_avg_pool3d": "ops.aten.adaptive_avg_pool3d.default",
              "soft_margin_loss": "ops.aten.soft_margin_loss.default",
              "multi_margin_loss": "ops.aten.multi_margin_loss.default",
              "multilabel_margin_loss": "ops.aten.multilabel_margin_loss.default",
              "im2col": "ops.aten.im2col.default", "col2im": "ops.aten.col2im.default",
              "max_pool3d_with_indices": "ops.aten.max_pool3d_with_indices.default",
              "fractional_max_pool2d": "_C._nn.fractional_max_pool2d",
              "fractional_max_pool3d": "_C._nn.fractional_max_pool3d",
              "avg_pool3d": "ops.aten.avg_pool3d.default",
              "adaptive_max_pool2d": "ops.aten.adaptive_max_pool2d.default",
              "adaptive_max_pool3d": "ops.aten.adaptive_max_pool3d.default",
              "_to_copy": "ops.aten._to_copy.default", "nll_loss_forward": "ops.aten.nll_loss_forward.default",
              **{name: f"ops.aten.{name}.default" for name in (
                  "nll_loss_backward", "convolution_backward", "max_pool2d_with_indices_backward",
                  "avg_pool2d_backward", "_adaptive_avg_pool2d_backward", "native_layer_norm_backward",
                  "native_batch_norm_backward")}}  # fmt: skip


def function_of(lib, fn):
    """An op's namespace function in ``lib`` (yaten or torch): ``lib.<name>``, or for an op of a submodule
    (the spec's ``python_module: fft``) ``lib.fft.<name without fft_>``."""
    name = fn.schema.name.name
    if fn.python_module is None:
        return getattr(lib, name)
    return getattr(getattr(lib, fn.python_module), name.removeprefix(fn.python_module + "_"))


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
    # --- shape and indexing ---
    "einsum": [
        Sample(("ij,jk->ik", [_f(2, 3), _f(4, 2)]), label="contracted sizes"),
        Sample(("ij->ik", [_f(2, 3)]), label="output label not in input"),
        Sample(("ijk->i", [_f(2, 3)]), label="too many subscripts"),
        Sample(("ij,jk->ik", [_f(2, 3)]), label="too few operands"),
        Sample(("ii->i", [_f(2, 3)]), label="repeated label, sizes"),
        Sample(("i1->i", [_f(2, 3)]), label="invalid subscript"),
        Sample(("ij->ii", [_f(2, 2)]), label="repeated output label"),
    ],
    "tensordot": [
        Sample((_f(2, 3), _f(4, 2)), {"dims": 1}, label="sizes"),
        Sample((_f(2), _f(2)), {"dims": 2}, label="dims too large"),
    ],
    "inner": [Sample((_f(2, 3), _f(2)), label="last dims")],
    "vdot": [
        Sample((_f(2, 3), _f(6)), label="2-d"),
        Sample((_f(3), _f(3).astype(np.float32)), label="dtypes"),
    ],
    "addmv": [Sample((_f(2), _f(2, 3), _f(4)), label="sizes")],
    "addr": [Sample((_f(2, 3), _f(2, 1), _f(3)), label="2-d vec1")],
    "baddbmm": [Sample((_f(2, 3, 2), _f(2, 3, 4), _f(3, 4, 2)), label="batch sizes")],
    "addbmm": [Sample((_f(3, 2), _f(2, 3, 4), _f(2, 3, 2)), label="inner sizes")],
    "chain_matmul": [Sample((_f(2, 3), _f(4, 2)), label="sizes")],
    "cross": [
        Sample((_f(4, 2), _f(4, 2)), {"dim": 1}, label="size 2"),
        Sample((_f(3), _f(3)), {"dim": 1}, label="dim out of range"),
    ],
    "cdist": [
        Sample((_f(3), _f(4, 3)), label="1-d"),
        Sample((_f(3, 2), _f(4, 3)), label="columns"),
        Sample((_f(3, 2), _f(4, 2), -1.0), label="negative p"),
        Sample((_f(3, 2), _f(4, 2), 2.0, "fast"), label="unknown compute_mode"),
    ],
    "trace": [Sample((_f(3),), label="1-d"), Sample((_f(2, 2, 2),), label="3-d")],
    "diagonal": [Sample((_f(3, 4), 0, 1, 1), label="same dims"), Sample((_f(3),), label="1-d")],
    "diag_embed": [Sample((_f(3), 0, 0, 0), label="same dims")],
    "diag": [Sample((_f(2, 2, 2),), label="3-d"), Sample((_f(),), label="0-d")],
    "unfold": [
        Sample((_f(4), 0, 5, 1), method=True, label="size too large"),
        Sample((_f(4), 0, 2, 0), method=True, label="zero step"),
        Sample((_f(4), 1, 2, 1), method=True, label="dim out of range"),
    ],
    "tile": [Sample((_f(2), (-1,)), label="negative")],
    "repeat_interleave.Tensor": [
        Sample((_idx(1, -1),), label="negative"),
        Sample((_idx(1, 2).reshape(1, 2),), label="2-d"),
        Sample((np.array([1.0]),), label="float repeats"),
        Sample((_idx(1, 2),), {"output_size": 5}, label="output_size"),
    ],
    "repeat_interleave.self_Tensor": [Sample((_f(3), _idx(1, 2)), label="sizes")],
    "repeat_interleave.self_int": [Sample((_f(3), -1), label="negative"), Sample((_f(3), 2, 1), label="dim")],
    "rot90": [
        Sample((_f(3),), label="1-d"),
        Sample((_f(2, 3), 1, [0, 0]), label="same dims"),
        Sample((_f(2, 3), 1, [0]), label="one dim"),
    ],
    "fliplr": [Sample((_f(3),), label="1-d")],
    "flipud": [Sample((_f(),), label="0-d")],
    "take": [
        Sample((_f(3), _idx(3)), label="out of range"),
        Sample((_f(3), np.array([0.0])), label="float index"),
    ],
    "take_along_dim": [
        Sample((_f(3, 4), _idx(0), 1), label="dims"),
        Sample((_f(3, 4), np.array([[1.0]]), 1), label="float indices"),
    ],
    "hstack": [Sample(([],), label="empty list")],
    "vstack": [Sample(([_f(2), _f(3)],), label="sizes")],
    "dstack": [Sample(([],), label="empty list")],
    "tensor_split.sections": [Sample((_f(3), 0), label="zero sections"), Sample((_f(), 2), label="0-d")],
    "tensor_split.tensor_indices_or_sections": [
        Sample((_f(6), np.array([1.0, 2.0])), label="float"),
        Sample((_f(6), _idx(1, 2).reshape(1, 2)), label="2-d"),
    ],
    "hsplit.int": [Sample((_f(2, 3), 2), label="not divisible"), Sample((_f(), 1), label="0-d")],
    "vsplit.int": [Sample((_f(3), 1), label="1-d")],
    "dsplit.array": [Sample((_f(2, 3), [1]), label="2-d")],
    "meshgrid.indexing": [
        Sample(([_f(2), _f(3)],), {"indexing": "yx"}, label="bad indexing"),
        Sample(([_f(2, 2)],), {"indexing": "ij"}, label="2-d"),
    ],
    "broadcast_to": [Sample((_f(3), (2, 4)), label="shape")],
    "broadcast_tensors": [Sample((_f(3), _f(4)), label="shapes")],
    "block_diag": [Sample((_f(2, 2, 2),), label="3-d")],
    "cartesian_prod": [Sample((_f(2, 2), _f(2)), label="2-d")],
    "combinations": [Sample((_f(2, 2),), label="2-d"), Sample((_f(3), -1), label="negative r")],
    "index_fill.int_Scalar": [
        Sample((_f(3, 4), 1, _idx(4), 1.0), label="index out of range"),
        Sample((_f(3, 4), 2, _idx(0), 1.0), label="dim out of range"),
        Sample((_f(3, 4), 0, np.array([0.0]), 1.0), label="float index"),
    ],
    "index_fill.int_Tensor": [Sample((_f(3, 4), 1, _idx(0), _f(2)), label="1-d value")],
    "index_copy": [
        Sample((_f(4, 3), 0, _idx(0), _f(2, 3)), label="source rows"),
        Sample((_f(4, 3), 0, _idx(4), _f(1, 3)), label="index out of range"),
        Sample((_f(4, 3), 0, _idx(0), _f(3)), label="source dims"),
        Sample((_f(4, 3), 0, np.array([0.0]), _f(1, 3)), label="float index"),
    ],
    "masked_scatter": [
        Sample((_f(3), np.array([1.0, 0.0, 1.0]), _f(3)), label="float mask"),
        Sample((_f(3), np.array([True, True, True]), _f(2)), label="source too small"),
    ],
    "select_scatter": [Sample((_f(3, 4), _f(3), 0, 1), label="src shape")],
    "slice_scatter": [Sample((_f(3, 4), _f(3, 4), 0, 1), label="src shape")],
    "diagonal_scatter": [Sample((_f(3, 4), _f(4)), label="src shape")],
    "put": [
        Sample((_f(3), _idx(0, 1), _f(1)), label="sizes"),
        Sample((_f(3), _idx(3), _f(1)), label="out of range"),
    ],
    "scatter_reduce.two": [
        Sample((_f(3), 0, _idx(0, 5), _f(2), "sum"), label="index out of range"),
        Sample((_f(3), 0, _idx(0, 1), _f(2), "median"), label="unknown reduce"),
        Sample((_f(3), 0, np.array([0.0]), _f(2), "sum"), label="float index"),
        Sample((_f(3), 0, _idx(0, 1, 2, 0), _f(2), "sum"), label="index larger than src"),
        Sample((_f(3), 0, _idx(0, 1).reshape(1, 2), _f(2), "sum"), label="index dims"),
    ],
    "clamp.Tensor": [Sample((_f(3), None, None), label="no bounds"), Sample((_f(3), _f(4)), label="shapes")],
    "where": [Sample(("x",), label="non-tensor")],
    "view.dtype": [
        Sample((_f(3, 4).T, "float32"), method=True, label="stride(-1) not 1"),
        Sample((_f(), "float32"), method=True, label="0-d, other size"),
    ],
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
    "view_as_real": [Sample((_f(3),), label="real input")],
    "view_as_complex": [
        Sample((_f(2, 3),), label="last dim 3"),
        Sample((_idx(1, 2),), label="integer"),
        Sample((_f(),), label="0-dim"),
    ],
    "imag": [Sample((_f(3),), label="real input")],
    "complex": [
        Sample((_f(3), _f(3).astype(np.float32)), label="dtypes"),
        Sample((_idx(1), _idx(2)), label="integer"),
        Sample((_f(3), _f(2)), label="shapes"),
    ],
    "polar": [Sample((_f(3).astype(np.float32), _f(3)), label="dtypes")],
    "adjoint": [Sample((_f(3),), label="1-d")],
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
    "alpha_dropout": [Sample((_f(3), -0.5, True), label="p out of range")],
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
    "conv3d": [
        Sample((_f(1, 4, 3, 3, 3), _f(2, 3, 2, 2, 2)), label="channels"),
        Sample((_f(1, 3, 2, 3, 3), _f(2, 3, 3, 2, 2)), label="kernel larger than input"),
        Sample((_f(3, 3, 3), _f(2, 3, 2, 2, 2)), label="3-d input"),
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
    # --- nn: padding and upsampling ---
    "avg_pool1d": [Sample((_f(3),), {"kernel_size": 3}, label="1-d input")],
    "max_pool1d_with_indices": [Sample((_f(3), 3), label="1-d input")],
    "adaptive_avg_pool1d": [Sample((_f(3), 2), label="1-d input")],
    "adaptive_avg_pool3d": [Sample((_f(3, 4), [2, 2, 2]), label="2-d input")],
    "max_pool3d_with_indices": [
        Sample((_f(5, 6, 4), 2), label="3-d input"),
        Sample((_f(1, 2, 5, 6, 4), 3, 1, 2), label="padding over half the kernel"),
    ],
    "avg_pool3d": [Sample((_f(1, 2, 4, 4, 4), 2, 2, 0, False, True, 0), label="zero divisor")],
    "fractional_max_pool2d": [
        Sample((_f(1, 2, 5, 5), 2, [5, 2]), {"random_samples": _f(1, 2, 2)}, label="pool too large"),
        Sample((_f(1, 2, 5, 5), 2, 2), {"random_samples": _f(1, 2)}, label="2-d samples"),
        Sample((_f(2, 2, 5, 5), 2, 2), {"random_samples": _f(1, 2, 2)}, label="too few samples"),
        Sample((_f(5, 5), 2, 2), {"random_samples": _f(1, 2, 2)}, label="2-d input"),
    ],
    "fractional_max_pool3d": [
        Sample((_f(1, 2, 4, 5, 5), 2, 3), {"random_samples": _f(1, 2, 3)}, label="pool ends on the edge"),
        Sample((_f(1, 2, 5, 5, 5), 2, 2), {"random_samples": _f(1, 3, 3)}, label="samples per channel"),
    ],
    "adaptive_max_pool2d": [
        Sample((_f(3), [3, 3]), label="1-d input"),
        Sample((_f(2, 3, 0), [3, 3]), label="empty plane"),
    ],
    "constant_pad_nd": [
        Sample((_f(2, 3), [1]), label="odd length"),
        Sample((_f(2, 3), [1, 1, 1, 1, 1, 1]), label="too long"),
        Sample((_f(2, 3), [-4, 1]), label="negative length"),
    ],
    "pad": [
        Sample((_f(2, 3), [1]), label="odd length"),
        Sample((_f(2, 3), [1, 1], "foo"), label="unknown mode"),
        Sample((_f(2, 3), [1, 1], "reflect", 1.0), label="value with reflect"),
        Sample((_f(2, 3, 4), [4, 1], "reflect"), label="reflect too wide"),
        Sample((_f(2, 3, 4), [1, 1, 3, 1], "reflect"), label="reflect too tall"),
        Sample((_f(2, 3, 4), [-2, -2], "reflect"), label="reflect empty output"),
        Sample((_f(2, 3, 4), [1, 1, 1, 1, 1, 1], "replicate"), label="replicate rank"),
        Sample((_f(4), [1, 1], "replicate"), label="replicate 1-d input"),
        Sample((_f(2, 0, 3), [1, 1], "replicate"), label="replicate empty"),
        Sample((np.array([[True, False]]), [1, 1], "reflect"), label="reflect bool"),
        Sample((_f(2, 3, 4), [5, 1], "circular"), label="circular wraps twice"),
        Sample((_f(2, 3, 4), [-2, -3], "circular"), label="circular negative size"),
    ],
    "upsample_nearest2d.vec": [
        Sample((_f(2, 3, 4), [8, 5], None), label="rank"),
        Sample((_f(2, 3, 4, 3), [8], None), label="output_size length"),
        Sample((_f(2, 3, 4, 3), [8, 5], [2.0, 2.0]), label="both"),
        Sample((_f(2, 3, 4, 3), [0, 5], None), label="empty output"),
    ],
    "upsample_bilinear2d.vec": [
        Sample((_idx(1, 2, 3, 4).reshape(1, 1, 2, 2), [3, 3], False, None), label="int64"),
        Sample((_f(2, 3, 4, 3), None, False, [2.0]), label="scale_factors length"),
    ],
    "cosine_embedding_loss": [
        Sample((_f(4, 3), _f(4, 3), _f(4, 1)), label="2-d target"),
        Sample((_f(4, 3), _f(4, 3), np.array(1.0)), label="0-d target, 2-d inputs"),
    ],
    "triplet_margin_loss": [Sample((_f(4, 3), _f(4, 3), _f(3)), label="ranks")],
    "multi_margin_loss": [
        Sample((_f(3, 4), _idx(0, 3, 1), 3, 1.0, None, 1), label="p"),
        Sample((_f(3, 4), _idx(0, 4, 1), 1, 1.0, None, 1), label="target out of range"),
        Sample((_f(3, 4), _idx(0, 3), 1, 1.0, None, 1), label="target size"),
        Sample((_f(3, 4), _idx(0, 3, 1), 1, 1.0, _f(3), 1), label="weight size"),
    ],
    "multilabel_margin_loss": [
        Sample(
            (_f(3, 4), np.array([[0, 4, -1, 2], [1, -1, 0, 0], [3, 2, 1, 0]]), 0), label="target out of range"
        ),
        Sample((_f(3, 4), np.array([[0, 3, -1]]), 0), label="target size"),
    ],
    "grid_sampler": [
        Sample((_f(2, 3, 5, 4), _f(1, 3, 2, 2), 0, 0, False), label="batch"),
        Sample((_f(2, 3, 5, 4), _f(2, 3, 2, 3), 0, 0, False), label="grid last size"),
        Sample((_f(2, 3, 5, 4), _f(2, 3, 2), 0, 0, False), label="ranks"),
    ],
    "im2col": [
        Sample((_f(2, 3, 5, 6), [7, 7], [1, 1], [0, 0], [1, 1]), label="kernel too large"),
        Sample((_f(2, 3, 5, 6), [0, 0], [1, 1], [0, 0], [1, 1]), label="zero kernel"),
        Sample((_f(2, 0, 5, 6), [2, 2], [1, 1], [0, 0], [1, 1]), label="empty channels"),
    ],
    "col2im": [
        Sample((_f(2, 12, 21), [5, 6], [2, 2], [1, 1], [0, 0], [1, 1]), label="block count"),
        Sample((_f(2, 13, 20), [5, 6], [2, 2], [1, 1], [0, 0], [1, 1]), label="channels"),
        Sample((_f(2, 3, 4, 5), [5, 6], [2, 2], [1, 1], [0, 0], [1, 1]), label="4-d input"),
    ],
    "pixel_shuffle": [
        Sample((_f(2, 5, 2, 2), 2), label="channels"),
        Sample((_f(5, 2), 2), label="2-d input"),
        Sample((_f(4, 2, 2), 0), label="zero factor"),
    ],
    "pixel_unshuffle": [
        Sample((_f(4, 5, 2), 2), label="height"),
        Sample((_f(4, 4, 5), 2), label="width"),
        Sample((_f(4, 4, 4), -1), label="negative factor"),
    ],
    "cosine_similarity": [
        Sample((_f(2, 3), _f(2, 4)), label="shape"),
        Sample((_idx(1, 2), _idx(1, 2)), {"dim": 0}, label="int64"),
    ],
    "glu": [Sample((_f(2, 3), 1), label="odd dimension")],
    "norm_except_dim": [Sample((_f(2, 3), 2, 5), label="dim out of range")],
    "prelu": [
        Sample((_f(2, 4), _f(3)), label="weight size"),
        Sample((_f(2, 4), _f(2, 2)), label="2-d weight"),
        Sample((_f(2, 3), _f(1).astype(np.float32)), label="dtypes"),
        Sample((_idx(1, 2), _idx(1)), label="int64"),
    ],
    "feature_dropout": [
        Sample((_f(3), 0.5, True), label="1-d input"),
        Sample((_f(3, 2), 1.5, True), label="p"),
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
    "instance_norm": [
        Sample((_f(2, 3, 4), None, None, None, None, False, 0.1, 1e-5, False), label="no stats"),
        Sample((_f(2, 3, 4), _f(4), None, None, None, True, 0.1, 1e-5, False), label="weight size"),
        Sample(
            (_f(2, 3, 4), None, None, np.zeros(4), np.ones(4), True, 0.1, 1e-5, False), label="stats size"
        ),
        Sample((_f(3), None, None, None, None, True, 0.1, 1e-5, False), label="1-d input"),
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
    "cumprod": [
        Sample((_f(3), 1), label="dim out of range"),
        Sample((_f(3), 0), {"dtype": "bool"}, label="bool"),
    ],
    "cummax": [Sample((_f(3), 1), label="dim out of range")],
    "logcumsumexp": [Sample((_idx(1, 2), 0), label="integer input")],
    "count_nonzero.dim_IntList": [Sample((_f(3, 4), [0, 0]), label="repeated dim")],
    "nanmean": [Sample((_idx(1, 2),), label="integer input")],
    "std_mean": [Sample((_idx(1, 2),), label="integer input")],
    "aminmax": [Sample((np.zeros((0, 3)),), label="empty")],
    "median.dim": [Sample((np.zeros((2, 0)), 1), label="empty reduction")],
    "kthvalue": [Sample((_f(3), 4), label="k too large"), Sample((_f(3), 0), label="k zero")],
    "mode": [Sample((np.zeros(0),), label="empty reduction")],
    "quantile": [
        Sample((_f(3), np.array([0.5, 1.5])), label="q above 1"),
        Sample((_f(3), np.array([[0.5]])), label="2-d q"),
        Sample((np.zeros(0), np.array(0.5)), label="empty input"),
        Sample((_idx(1, 2), _idx(0)), label="integer input"),
    ],
    "quantile.scalar": [
        Sample((_f(3), 1.5), label="q above 1"),
        Sample((_f(3), 0.5), {"interpolation": "foo"}, label="bad interpolation"),
    ],
    "diff": [
        Sample((_f(),), label="0-dim"),
        Sample((_f(3), -1), label="negative n"),
        Sample((_f(3, 2), 1, -1, _f(2)), label="prepend dims"),
    ],
    "trapezoid.dx": [Sample((_f(),), label="0-dim")],
    "trapezoid.x": [Sample((_f(3), _f(2)), label="x size")],
    "searchsorted.Tensor": [
        Sample((_f(4), _f(2)), {"side": "foo"}, label="bad side"),
        Sample((_f(4), _f(2)), {"side": "left", "right": True}, label="opposite sides"),
        Sample((_f(2, 2), _f(2)), label="leading dims"),
        Sample((_f(), _f(2)), label="0-dim boundaries"),
        Sample((_idx(5, 1, 3), _idx(3)), {"sorter": _idx(1, 2)}, label="sorter size"),
        Sample((_idx(5, 1, 3), _idx(3)), {"sorter": _idx(1, 2, 5)}, label="sorter out of range"),
    ],
    "bucketize.Tensor": [Sample((_idx(3), _idx(1, 2).reshape(1, 2)), label="2-d boundaries")],
    "bincount": [
        Sample((_idx(-1),), label="negative"),
        Sample((_f(3),), label="float input"),
        Sample((_idx(1, 2).reshape(1, 2),), label="2-d"),
        Sample((_idx(1, 2), _f(3)), label="weights length"),
        Sample((_idx(1, 2), None, -1), label="negative minlength"),
    ],
    "histogram.bin_ct": [
        Sample((_idx(1, 2), 2), label="integer input"),
        Sample((_f(3), 0), label="zero bins"),
        Sample((_f(3), 2), {"range": [3.0, 1.0]}, label="min above max"),
        Sample((_f(3), 2), {"weight": _f(1)}, label="weight shape"),
    ],
    "histogram.bins_tensor": [Sample((_f(3), _f(1, 2)), label="2-d bins")],
    "histc": [
        Sample((_idx(1, 2), 3), label="integer input"),
        Sample((_f(3), 0), label="zero bins"),
        Sample((_f(3), 2, 3, 1), label="min above max"),
        Sample((np.array([1.0, np.inf]), 2), label="infinite range"),
    ],
    "unique_dim": [
        Sample((np.zeros((0, 0)), 0), label="two empty dims"),
        Sample((np.zeros((2, 0)), 0), label="empty dim not selected"),
        Sample((_f(), 0), label="0-dim"),
    ],
    "unique_consecutive": [Sample((_idx(1, 2), False, False, 1), label="dim out of range")],
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
    "fft_fftfreq": [
        Sample((5,), {"dtype": "int64"}, label="integer dtype"),
        Sample((-1,), label="negative n"),
        Sample((4.0,), label="float n"),
    ],
    "fft_rfftfreq": [
        Sample((5,), {"dtype": "int64"}, label="integer dtype"),
        Sample((-5,), label="negative n"),
    ],
    "fft_fftshift": [
        Sample((_f(5),), {"dim": 1}, label="dim out of range"),
        Sample((_f(),), label="0-d input"),
    ],
    "fft_ifftshift": [Sample((_f(3, 4),), {"dim": [0, 2]}, label="dim out of range")],
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
            if a.name in kwonly or _scale_alpha(a):
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

# The elementwise compositions (runtime/native/elementwise.py).
_SPECIALS = np.array([[np.nan, 1.5, -np.inf], [np.inf, -0.25, 3.0]])
_PROB = np.array([[0.15, 0.5, 0.85], [0.3, 0.05, 0.97]])
EXPLICIT.update({
    "nan_to_num": [Sample((_SPECIALS,), grad=False, label="nan and infinities"),
                   Sample((_SPECIALS, 1.0, 2.0, -3.0), grad=False, label="replacements"),
                   Sample((_f(3, 4),), label="finite"),
                   Sample((_idx(1, -2, 3),), label="integers")],
    "logit": [Sample((_PROB,)), Sample((_PROB, 0.1), label="eps")],
    "positive": [Sample((_f(3, 4),)), Sample((_idx(1, -2),), label="integers")],
    "float_power.Tensor_Tensor": [Sample((_f(3, 4, positive=True), _f(4, seed=1))),
                                  Sample((_idx(1, 2, 3), _idx(2, 0, 1)), label="integers")],
    "float_power.Scalar": [Sample((2.0, _f(3, 4)))],
    "float_power.Tensor_Scalar": [Sample((_f(3, 4, positive=True), 2.5)), Sample((_idx(2, 3), 2), label="integers")],
})  # fmt: skip


# The recurrent cells (runtime/native/rnn.py): batch 3, input 2, hidden 2.
def _cell_sample(gates, *, lstm=False, bias=True, label="biases"):
    hx = [_f(3, 2, seed=1), _f(3, 2, seed=2)] if lstm else _f(3, 2, seed=1)
    weights = (_f(gates * 2, 2, seed=3), _f(gates * 2, 2, seed=4))
    biases = (_f(gates * 2, seed=5), _f(gates * 2, seed=6)) if bias else ()
    return Sample((_f(3, 2), hx, *weights, *biases), label=label)


EXPLICIT.update({
    name: [_cell_sample(gates, lstm=name == "lstm_cell"),
           _cell_sample(gates, lstm=name == "lstm_cell", bias=False, label="no bias")]
    for name, gates in (("lstm_cell", 4), ("gru_cell", 3), ("rnn_tanh_cell", 1), ("rnn_relu_cell", 1))
})  # fmt: skip


def _rnn_params(gates, size, hidden, layers=1, directions=1, bias=True, proj=0):
    """torch's flat ``_flat_weights`` list of an RNN/LSTM/GRU, as host arrays."""
    out, seed, real = [], 10, proj or hidden
    for layer in range(layers):
        for _ in range(directions):
            shapes = [(gates * hidden, size if layer == 0 else real * directions), (gates * hidden, real)]
            shapes += [(gates * hidden,)] * (2 * bias) + [(proj, hidden)] * bool(proj)
            for shape in shapes:
                out.append(_f(*shape, seed=seed) * 0.5)
                seed += 1
    return out


def _layer_samples(name, gates):
    """``.input`` (padded) and ``.data`` (packed) samples of torch.lstm/gru/rnn_tanh/rnn_relu."""
    lstm = name == "lstm"

    def state(layers, batch, hidden, proj=0):
        h = _f(layers, batch, proj or hidden, seed=7)
        return [h, _f(layers, batch, hidden, seed=8)] if lstm else h

    padded = [
        Sample((_f(3, 2, 2), state(2, 2, 2), _rnn_params(gates, 2, 2, directions=2), True, 1, 0.0, False, True,
                False), label="bidirectional"),
        Sample((_f(2, 3, 2), state(2, 2, 2), _rnn_params(gates, 2, 2, layers=2, bias=False), False, 2, 0.0, False,
                False, True), label="2 layers, batch_first, no bias"),
    ]  # fmt: skip
    if lstm:
        padded.append(Sample((_f(3, 2, 2), state(1, 2, 3, proj=1), _rnn_params(4, 2, 3, proj=1), True, 1, 0.0,
                              False, False, False), label="proj_size"))  # fmt: skip
    packed = [Sample((_f(4, 2), _idx(2, 1, 1), state(2, 2, 2), _rnn_params(gates, 2, 2, directions=2), True, 1,
                      0.0, False, True), label="packed, bidirectional")]  # fmt: skip
    return {f"{name}.input": padded, f"{name}.data": packed}


for _name, _gates in (("lstm", 4), ("gru", 3), ("rnn_tanh", 1), ("rnn_relu", 1)):
    EXPLICIT.update(_layer_samples(_name, _gates))
BAD.update({
    "lstm_cell": [Sample((_f(3, 2), [_f(3, 2)], _f(8, 2), _f(8, 2)), label="one hidden state"),
                  Sample((_f(3, 3), [_f(3, 2), _f(3, 2)], _f(8, 2), _f(8, 2)), label="input size")],
    "gru_cell": [Sample((_f(3, 2), _f(4, 2), _f(6, 2), _f(6, 2)), label="batch size"),
                 Sample((_f(3, 2), _f(3, 2), _f(5, 2), _f(6, 2)), label="weight_ih rows")],
    "rnn_tanh_cell": [Sample((_f(3, 2), _f(3, 3), _f(2, 2), _f(2, 2)), label="hidden size")],
    "rnn_relu_cell": [Sample((_f(2), _f(2), _f(2, 2), _f(2, 2)), label="unbatched")],
})  # fmt: skip

# torch.linalg's samples live in their own file (it imports Sample and _f from here).
from op_samples_linalg import BAD_SAMPLES as _LINALG_BAD
from op_samples_linalg import SAMPLES as _LINALG

EXPLICIT.update(_LINALG)
BAD.update(_LINALG_BAD)

# torch.fft's transforms, stft/istft and the window functions (op_samples_fft.py).
from op_samples_fft import BAD_SAMPLES as _FFT_BAD
from op_samples_fft import CPU_ONLY as _FFT_CPU_ONLY
from op_samples_fft import SAMPLES as _FFT

EXPLICIT.update(_FFT)
BAD.update(_FFT_BAD)
NO_CUDA_KERNEL += _FFT_CPU_ONLY

# The tail of torch's surface (fill, dist, cov, the *_copy ops, CTC, ...): op_samples_tail.py.
from op_samples_tail import BAD_SAMPLES as _TAIL_BAD
from op_samples_tail import SAMPLES as _TAIL

EXPLICIT.update(_TAIL)
BAD.update(_TAIL_BAD)

# The sparse COO layout's ops on strided tensors (op_samples_sparse.py).
from op_samples_sparse import BAD_SAMPLES as _SPARSE_BAD
from op_samples_sparse import SAMPLES as _SPARSE

EXPLICIT.update(_SPARSE)
BAD.update(_SPARSE_BAD)
