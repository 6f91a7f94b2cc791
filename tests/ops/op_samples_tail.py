"""The op table's samples for the tail of torch's surface that real programs use (merged into
op_samples.EXPLICIT and BAD): fill, dist, diagflat, argwhere, ldexp, index_reduce, msort, mvlgamma, frexp,
rsub, isin, scalar_tensor, sum_to_size, renorm, pdist, channel_shuffle, vander, cov, corrcoef, the
``*_copy`` ops and the CTC loss.
"""

import numpy as np
from op_samples import Sample, _f, _idx


def _log_probs(*shape, seed=0):
    """Log-probabilities over the last axis (a log_softmax of normal samples)."""
    a = _f(*shape, seed=seed)
    return a - np.log(np.exp(a).sum(-1, keepdims=True))


SAMPLES = {
    "fill.Scalar": [Sample((_f(2, 3), 2.5)), Sample((_idx(1, 2), 2.5), label="int self")],
    "fill.Tensor": [
        Sample((_f(2, 3), np.array(1.5))),
        Sample((_f(3).T, _f(1).reshape(())), label="grad of value"),
    ],
    "dist": [
        Sample((_f(3, 4), _f(3, 4, seed=1))),
        Sample((_f(3, 4), _f(4, seed=1), 1), label="p=1, broadcast"),
        Sample((_f(5), _f(5, seed=1), float("inf")), label="p=inf"),
        Sample((_f(5), _f(5, seed=1), 3.5), label="p=3.5"),
        Sample((_f(5), _f(5, seed=1), 0), label="p=0", grad=False),
    ],
    "diagflat": [
        Sample((_f(3),)),
        Sample((_f(2, 2), 1), label="2-d, offset"),
        Sample((_f(3), -2), label="below"),
    ],
    "argwhere": [
        Sample((np.array([[0.0, 1.5], [2.0, 0.0]]),), grad=False),
        Sample((_idx(0, 3, 0, 1),), label="int"),
    ],
    "ldexp.Tensor": [
        # torch's gradient of an integer exponent below 0 is 0 (it computes 2 ** other in integers): yaten's is 2 ** other
        Sample((_f(3, 4), _idx(1, 2, 3, 0).reshape(1, 4))),
        Sample((_f(3), _idx(-1, -3, 0)), label="negative exponent", grad=False),
        Sample((_f(4), _f(4, seed=1)), label="float exponent"),
        Sample((_idx(1, 2, 3), _idx(2, 0, -1)), label="integers"),
    ],
    "index_reduce": [
        Sample((_f(4, 3), 0, _idx(0, 2, 0), _f(3, 3, seed=1), "prod")),
        Sample((_f(4, 3), 0, _idx(0, 2, 0), _f(3, 3, seed=1), "mean"), {"include_self": False}, label="mean"),
        Sample((_f(4, 3), 1, _idx(2, 2), _f(4, 2, seed=1), "amax"), label="amax, dim 1"),
        Sample(
            (_f(4, 3), -2, _idx(3, 1, 3), _f(3, 3, seed=1), "amin"), {"include_self": False}, label="amin"
        ),
    ],
    "msort": [Sample((_f(4, 3),)), Sample((_idx(3, 1, 2),), label="int")],
    "mvlgamma": [
        Sample((_f(3, 4, positive=True) + 1.5, 2)),
        Sample((_f(4, positive=True) + 2.0, 3), label="p=3"),
        Sample((_idx(2, 3, 4), 1), label="int"),
    ],
    "frexp.Tensor": [
        Sample((_f(3, 4) * 100,)),
        Sample(
            (np.array([0.0, -0.0, 1.0, -3.5, 1e-310, np.inf, -np.inf, np.nan]),), label="specials", grad=False
        ),
        Sample((_idx(1, 2),), label="int"),
    ],
    "rsub.Tensor": [Sample((_f(3, 4), _f(4, seed=1)), {"alpha": 2})],
    "rsub.Scalar": [Sample((_f(3, 4), 2.5)), Sample((_idx(1, 2), 5), label="int")],
    "isin.Tensor_Tensor": [
        Sample((_idx(1, 2, 3, 4, 2).reshape(5, 1), _idx(4, 2, 9)), grad=False),
        Sample(
            (np.array([1.0, np.nan, 2.5]), np.array([np.nan, 1.0])),
            {"invert": True},
            label="NaN, invert",
            grad=False,
        ),
        Sample((_idx(1, 2), np.array([2.0])), label="mixed dtypes", grad=False),
        Sample((_idx(1, 2), _idx()), label="no test elements"),
    ],
    "isin.Tensor_Scalar": [Sample((_idx(1, 2, 3), 2))],
    "isin.Scalar_Tensor": [
        Sample((2, _idx(1, 2))),
        Sample((5, _idx(1, 2)), {"invert": True}, label="invert"),
    ],
    "scalar_tensor": [
        Sample((3,)),
        Sample((2.5,), {"dtype": "float64"}, label="dtype"),
        Sample((7,), {"dtype": "int64"}, label="int"),
    ],
    "sum_to_size": [
        Sample((_f(2, 3), [1, 3]), method=True),
        Sample((_f(4, 2, 3), [2, 1]), method=True, label="leading dims"),
        Sample((_f(2, 3), [2, 3]), method=True, label="same size"),
    ],
    "renorm": [
        Sample((_f(3, 4), 2, 0, 1.0)),
        Sample((_f(3, 4, 2), 1, 1, 0.5), label="p=1, dim 1"),
        Sample((_f(3, 4) * 0.1, 2, 0, 5.0), label="under maxnorm"),
    ],
    "pdist": [
        Sample((_f(4, 3),)),
        Sample((_f(4, 3), 1.0), label="p=1"),
        Sample((_f(3, 2), 3.0), label="p=3"),
    ],
    "channel_shuffle": [Sample((_f(2, 6, 3), 3)), Sample((_f(1, 4, 2, 2), 2), label="4-d")],
    "vander": [  # torch's backward fails (an in-place cumprod): gradients in tests/runtime/test_surface_tail.py
        Sample((_f(3), 4), grad=False),
        Sample((_f(3),), {"increasing": True}, label="increasing", grad=False),
        Sample((_idx(1, 2, 3), 3), label="int"),
        Sample((_f(2), 0), label="N=0", grad=False),
    ],
    "cov": [
        Sample((_f(3, 5),)),
        Sample((_f(5),), label="1-d"),
        Sample(
            (_f(2, 4),),
            {"correction": 0, "fweights": _idx(1, 2, 1, 3), "aweights": _f(4, positive=True)},
            label="weights",
        ),
        Sample((_f(2, 4),), {"aweights": _f(4, positive=True)}, label="aweights"),
    ],
    "corrcoef": [Sample((_f(3, 5),)), Sample((_f(5),), label="1-d")],
    # --- the *_copy ops: a view's values in a new tensor ---
    "expand_copy": [Sample((_f(3, 1), [3, 4])), Sample((_f(3), [2, 3]), label="new dim")],
    "permute_copy": [Sample((_f(2, 3, 4), [2, 0, 1]))],
    "diagonal_copy": [Sample((_f(3, 4),)), Sample((_f(2, 3, 4), 1, 1, 2), label="offset, dims")],
    "select_copy.int": [Sample((_f(3, 4), 1, -1))],
    "narrow_copy": [Sample((_f(4, 3), 0, 1, 2))],
    "alias_copy": [Sample((_f(2, 3),))],
    "t_copy": [Sample((_f(2, 3),))],
    "transpose_copy.int": [Sample((_f(2, 3, 4), 0, 2))],
    "unsqueeze_copy": [Sample((_f(2, 3), 1))],
    "squeeze_copy": [Sample((_f(2, 1, 3, 1),))],
    "squeeze_copy.dim": [Sample((_f(2, 1, 3), 1))],
    "squeeze_copy.dims": [Sample((_f(2, 1, 3, 1), [1, 3]))],
    "view_copy": [Sample((_f(2, 6), [3, 4])), Sample((_f(2, 6), [-1]), label="inferred")],
    "view_copy.dtype": [Sample((_f(2, 4), "int64"), grad=False)],
    "slice_copy.Tensor": [Sample((_f(5, 3), 0, 1, 5, 2))],
    "unfold_copy": [Sample((_f(7), 0, 3, 2))],
    "as_strided_copy": [Sample((_f(12), [3, 2], [1, 3], 1))],
    # CTC: forward only here (torch's CTC gradient is the gradient through a log_softmax, not of the raw
    # formula, so finite differences disagree with it): tests/nn/test_ctc_loss.py compares gradients with
    # torch's and gradchecks them through log_softmax. _ctc_loss's log_alpha is compared too, so its
    # samples use every step and label (torch leaves the rest of log_alpha uninitialised).
    "ctc_loss.IntList": [
        Sample((_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1, 0).reshape(2, 3), [6, 5], [3, 2], 0, 1), grad=False),
        Sample(
            (_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1), [6, 4], [3, 2], 0, 2),
            label="concatenated, sum",
            grad=False,
        ),
        Sample(
            (_log_probs(6, 2, 4), _idx(0, 2, 2, 3, 1, 0).reshape(2, 3), [2, 5], [3, 2], 3, 0, True),
            label="none, zero_infinity",
            grad=False,
        ),
        Sample((_log_probs(5, 4), _idx(1, 3), [5], [2], 0, 1), label="unbatched", grad=False),
        Sample((_log_probs(5, 4), _idx(1, 3), [5], [2], 0, 0), label="unbatched, none", grad=False),
    ],
    "ctc_loss.Tensor": [
        Sample(
            (_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1, 0).reshape(2, 3), _idx(6, 5), _idx(3, 2), 0, 1),
            grad=False,
        ),
    ],
    "_ctc_loss": [
        Sample((_log_probs(5, 2, 4), _idx(1, 2, 2, 3, 1, 1).reshape(2, 3), [5, 5], [3, 3]), grad=False),
        Sample((_log_probs(4, 1, 3), _idx(1, 2), [4], [2], 2), label="blank 2", grad=False),
    ],
}

BAD_SAMPLES = {
    "expand_copy": [Sample((_f(3, 2), [3, 4]), label="non-singleton")],
    "fill.Tensor": [Sample((_f(2, 3), _f(2)), label="1-d value")],
    "sum_to_size": [Sample((_f(2, 3), [2, 2]), method=True, label="not expandable")],
    "mvlgamma": [Sample((_f(3, positive=True) + 2, 0), label="p")],
    "renorm": [Sample((_f(3), 2, 0, 1.0), label="1-d"), Sample((_f(3, 2), 2, 0, -1.0), label="maxnorm")],
    "pdist": [Sample((_f(3),), label="1-d"), Sample((_f(3, 2), -1.0), label="p")],
    "channel_shuffle": [Sample((_f(2, 6, 3), 4), label="groups"), Sample((_f(2, 6), 2), label="2-d")],
    "vander": [Sample((_f(2, 2),), label="2-d")],
    "cov": [
        Sample((_f(2, 2, 2),), label="3-d"),
        Sample((_f(2, 3),), {"fweights": _f(3)}, label="float fweights"),
        Sample((_f(2, 3),), {"fweights": _idx(1, -1, 1)}, label="negative fweights"),
        Sample((_f(2, 3),), {"aweights": _f(2, positive=True)}, label="aweights count"),
    ],
    "dist": [Sample((_idx(1, 2), _idx(0, 0)), label="integers"), Sample((_f(3), _f(2)), label="shapes")],
    "ldexp.Tensor": [Sample((_f(3), 2), label="number exponent")],
    "index_reduce": [
        Sample((_f(4, 3), 0, _idx(0, 2, 0), _f(3, 3), "sum"), label="reduce"),
        Sample((_f(4, 3), 0, _idx(0, 2, 0).astype(np.float64), _f(3, 3), "prod"), label="float index"),
        Sample((_f(4, 3), 0, _idx(0, 2, 0).reshape(3, 1), _f(3, 3), "prod"), label="2-d index"),
        Sample((_f(4, 3), 0, _idx(0, 4, 0), _f(3, 3), "prod"), label="index out of range"),
        Sample((_f(4, 3), 0, _idx(0, 2), _f(3, 3), "prod"), label="count"),
        Sample((_f(4, 3), 0, _idx(0, 2, 0), _f(3, 2), "prod"), label="source shape"),
    ],
    "permute_copy": [Sample((_f(2, 3), [0, 0]), label="repeated dim")],
    "view_copy": [Sample((_f(2, 6), [5, 2]), label="size")],
    "select_copy.int": [Sample((_f(3, 4), 1, 4), label="index")],
    "ctc_loss.IntList": [
        Sample((_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1, 0).reshape(2, 3), [6, 5], [3, 2], 4), label="blank"),
        Sample(
            (_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1, 0).reshape(2, 3), [7, 5], [3, 2]), label="input length"
        ),
        Sample(
            (_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1, 0).reshape(2, 3), [6, 5], [4, 2]), label="target length"
        ),
        Sample((_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1), [6, 5], [3, 3]), label="concatenated size"),
        Sample(
            (_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1, 0).reshape(1, 2, 3), [6, 5], [3, 2]),
            label="targets dim",
        ),
        Sample(
            (_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1, 0).reshape(2, 3), [6], [3, 2]), label="lengths count"
        ),
    ],
    "ctc_loss.Tensor": [
        Sample(
            (_log_probs(6, 2, 4), _idx(1, 2, 2, 3, 1, 0).reshape(2, 3), _f(2), _idx(3, 2)),
            label="float lengths",
        ),
    ],
    "_ctc_loss": [
        Sample((_log_probs(6, 2, 4), _f(2, 3), [6, 5], [3, 2]), label="float targets"),
        Sample(
            (_log_probs(6, 4), _idx(1, 2, 2, 3, 1, 0).reshape(2, 3), [6, 5], [3, 2]), label="2-d log_probs"
        ),
    ],
}
