"""PyTorch's tensor ``repr`` format, as a pure function over host numpy arrays.

This reproduces the rules of ``torch/_tensor_str.py`` (PyTorch 2.13) for dense, strided tensors:
the print options, the formatter that picks integer, fixed or scientific notation, summarization with
``...``, line wrapping and the ``dtype=`` / ``device=`` / ``grad_fn=`` suffixes. The Tensor layer
copies its data to the host and calls :func:`format_tensor`; nothing here knows about Tensors.

Torch's quirks are kept on purpose, since the goal is byte-identical output; each one is marked.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

__all__ = ["format_tensor", "get_printoptions", "set_printoptions"]

_FLOAT_NAMES = frozenset({"float16", "bfloat16", "float32", "float64"})
_COMPLEX_NAMES = frozenset({"complex64", "complex128"})


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_PROFILES = {
    "default": _PrintOptions(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": _PrintOptions(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": _PrintOptions(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}

PRINT_OPTS = _PrintOptions()


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set the options used to print tensors, with ``torch.set_printoptions`` semantics.

    ``profile`` ("default", "short" or "full") resets precision, threshold, edgeitems and linewidth
    first; the other arguments then override it. As in torch, ``sci_mode`` is always assigned, so
    leaving it out switches back to automatic notation.

    >>> import numpy as np
    >>> set_printoptions(precision=2)
    >>> format_tensor(np.array([1.12345], dtype=np.float32), dtype_name="float32", device="cpu")
    'tensor([1.12])'
    >>> set_printoptions(profile="default")
    """
    if profile is not None:
        if profile not in _PROFILES:
            # torch silently ignores an unknown profile; a typo deserves a message instead.
            raise ValueError(
                f"set_printoptions(): unknown profile {profile!r}; "
                f"use one of {', '.join(map(repr, _PROFILES))}"
            )
        base = _PROFILES[profile]
        PRINT_OPTS.precision = base.precision
        PRINT_OPTS.threshold = base.threshold
        PRINT_OPTS.edgeitems = base.edgeitems
        PRINT_OPTS.linewidth = base.linewidth
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current print options, as keyword arguments for :func:`set_printoptions`.

    >>> get_printoptions()["precision"]
    4
    """
    return dataclasses.asdict(PRINT_OPTS)


class _Formatter:
    """Chooses one notation and one width for every element of a tensor, like torch's ``_Formatter``.

    ``values`` is the (possibly summarized) data the choice is made from.
    """

    def __init__(self, values: np.ndarray, floating: bool):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not floating:
            # Python's str of int / bool ("True", "False"): tolist() yields Python scalars.
            self.max_width = max([1, *(len(str(v)) for v in set(flat.tolist()))])
            return
        finite = flat[np.isfinite(flat) & (flat != 0)]
        if finite.size == 0:
            # torch returns before looking at sci_mode: all-zero / all-nonfinite never prints in sci.
            return
        # Widening to float64 is exact for float16/32, so the comparisons match torch's.
        finite = finite.astype(np.float64)
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        magnitudes = np.abs(finite)
        lo, hi = magnitudes.min(), magnitudes.max()
        if PRINT_OPTS.sci_mode is None:
            with np.errstate(over="ignore"):  # a ratio that overflows to inf still means sci mode
                ratio = hi / lo
            self.sci_mode = bool(ratio > 1000.0 or hi > 1.0e8 or lo < 1.0e-4)
        else:
            self.sci_mode = bool(PRINT_OPTS.sci_mode)
        unique = set(np.unique(finite).tolist())
        precision = PRINT_OPTS.precision
        if self.sci_mode:
            widths = (len(f"{v:.{precision}e}") for v in unique)
        elif self.int_mode:
            widths = (len(f"{v:.0f}") + 1 for v in unique)  # + 1 for the trailing "."
        else:
            widths = (len(f"{v:.{precision}f}") for v in unique)
        self.max_width = max(self.max_width, *widths)

    def format(self, value: Any) -> str:
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{PRINT_OPTS.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if not (math.isinf(value) or math.isnan(value)):
                text += "."
        else:
            text = f"{value:.{PRINT_OPTS.precision}f}"
        return " " * (self.max_width - len(text)) + text


class _ComplexFormatter:
    """torch's pair of formatters for a complex tensor: one for the real parts, one for the imaginary.

    >>> f = _ComplexFormatter(np.array([1 + 2j, 3 - 1j]))
    >>> f.format(3 - 1j), f.max_width
    ('3.-1.j', 6)
    """

    def __init__(self, values: np.ndarray):
        self.real = _Formatter(values.real, floating=True)
        self.imag = _Formatter(values.imag, floating=True)
        # The element width torch lines up by: both parts and the "j" (the sign is in imag's width).
        self.max_width = self.real.max_width + self.imag.max_width + 1

    def format(self, value: complex) -> str:
        real_str = self.real.format(value.real)
        imag_str = (self.imag.format(value.imag) + "j").lstrip()
        # A sign (of a negative number, or -0.0) joins the parts; else torch puts a "+".
        return real_str + imag_str if imag_str[0] in "+-" else real_str + "+" + imag_str


def _summarized(values: np.ndarray) -> np.ndarray:
    """The elements a summarized print shows, which are all the formatter gets to see."""
    edge = PRINT_OPTS.edgeitems
    if values.ndim == 0:
        return values
    if values.ndim == 1:
        if values.shape[0] > 2 * edge:
            # Quirk kept from torch: with edgeitems == 0, ``t[-0:]`` is the whole vector.
            return np.concatenate((values[:edge], values[-edge:]))
        return values
    if not edge:
        return values[(slice(0, 0),) * values.ndim]
    rows = range(values.shape[0])
    if values.shape[0] > 2 * edge:
        rows = [*range(edge), *range(values.shape[0] - edge, values.shape[0])]
    return np.stack([_summarized(values[i]) for i in rows])


def _vector_str(values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    edge = PRINT_OPTS.edgeitems
    element_length = formatter.max_width + 2  # the element plus ", "
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    if summarize and not edge:
        data = ["..."]
    elif summarize and values.shape[0] > 2 * edge:
        data = (
            [formatter.format(v) for v in values[:edge].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in values[-edge:].tolist()]
        )
    else:
        data = [formatter.format(v) for v in values.tolist()]
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str(values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    if values.ndim == 0:
        return formatter.format(values.item())
    if values.ndim == 1:
        return _vector_str(values, indent, summarize, formatter)
    edge = PRINT_OPTS.edgeitems
    n = values.shape[0]
    if summarize and n > 2 * edge:
        slices = (
            [_tensor_str(values[i], indent + 1, summarize, formatter) for i in range(edge)]
            + ["..."]
            + [_tensor_str(values[i], indent + 1, summarize, formatter) for i in range(n - edge, n)]
        )
    else:
        slices = [_tensor_str(values[i], indent + 1, summarize, formatter) for i in range(n)]
    # One blank line between 2-d blocks of a 3-d tensor, two between 3-d blocks, and so on.
    return "[" + ("," + "\n" * (values.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(text: str, suffixes: list[str], indent: int, force_newline: bool = False) -> str:
    parts = [text]
    # Quirk kept from torch: this overcounts the last line by 2 (by 1 after a newline).
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if force_newline or last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
            force_newline = False
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def format_tensor(
    values: np.ndarray,
    *,
    dtype_name: str,
    device: str,
    default_dtype_name: str = "float32",
    grad_fn_name: str | None = None,
    requires_grad: bool = False,
    prefix: str = "tensor",
) -> str:
    """The text PyTorch's ``repr`` gives a tensor with these values, spelling the dtype ``yaten.<name>``.

    ``values`` holds the tensor's elements on the host, in the tensor's shape; ``dtype_name`` is the
    tensor's dtype ("float32", "int64", "bool", ...), which decides the notation and the ``dtype=``
    suffix; ``device`` is shown unless it is "cpu". ``grad_fn_name`` (e.g. "MulBackward0") wins over
    ``requires_grad``. The options set by :func:`set_printoptions` apply.

    >>> import numpy as np
    >>> format_tensor(np.array([1.0, 2.5]), dtype_name="float64", device="cpu")
    'tensor([1.0000, 2.5000], dtype=yaten.float64)'
    >>> format_tensor(np.array(3, dtype=np.int64), dtype_name="int64", device="cuda:0", requires_grad=False)
    "tensor(3, device='cuda:0')"
    >>> format_tensor(np.zeros((0, 3), dtype=np.float32), dtype_name="float32", device="cpu")
    'tensor([], size=(0, 3))'
    """
    values = np.asarray(values)
    # A complex tensor prints its dtype unless it is the complex of the default float dtype.
    default_complex_name = "complex128" if default_dtype_name == "float64" else "complex64"
    defaults = (default_dtype_name, default_complex_name, "int64", "bool")
    start = prefix + "("
    indent = len(start)
    shape = str(tuple(int(s) for s in values.shape))
    suffixes = []
    if device != "cpu":
        suffixes.append(f"device='{device}'")
    if values.size == 0:
        # An empty tensor shows no elements to infer int64 from, so every non-default dtype is named.
        if values.ndim != 1:
            suffixes.append("size=" + shape)
        if dtype_name != default_dtype_name:
            suffixes.append(f"dtype=yaten.{dtype_name}")
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + shape)
        if dtype_name not in defaults:
            suffixes.append(f"dtype=yaten.{dtype_name}")
        body = _elements(values, dtype_name, indent)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(start + body, suffixes, indent)


def _elements(values: np.ndarray, dtype_name: str, indent: int) -> str:
    """The bracketed elements of a non-empty tensor, its first line starting at column ``indent``."""
    summarize = values.size > PRINT_OPTS.threshold
    shown = _summarized(values) if summarize else values
    if dtype_name in _COMPLEX_NAMES:
        formatter = _ComplexFormatter(shown)
    else:
        formatter = _Formatter(shown, floating=dtype_name in _FLOAT_NAMES)
    return _tensor_str(values, indent, summarize, formatter)


def format_sparse_coo(
    indices: np.ndarray,
    values: np.ndarray,
    *,
    size: tuple,
    dtype_name: str,
    device: str,
    default_dtype_name: str = "float32",
    grad_fn_name: str | None = None,
    requires_grad: bool = False,
) -> str:
    """The text PyTorch's ``repr`` gives a sparse COO tensor with these (host) indices and values.

    >>> import numpy as np
    >>> print(format_sparse_coo(np.array([[0, 1]]), np.array([1.0, 2.0]), size=(3,), dtype_name="float64",
    ...                         device="cpu"))
    tensor(indices=tensor([[0, 1]]),
           values=tensor([1., 2.]),
           size=(3,), nnz=2, dtype=yaten.float64, layout=yaten.sparse_coo)
    """
    indent = len("tensor(")
    parts = []
    for prefix, part, name in (("indices=tensor(", indices, "int64"), ("values=tensor(", values, dtype_name)):
        text = "[]" if part.size == 0 else _elements(part, name, indent + len(prefix))
        if part.size == 0:
            text += ", size=" + str(tuple(int(n) for n in part.shape))
        parts.append(prefix + text + ")")
    suffixes = [f"device='{device}'"] if device != "cpu" else []
    suffixes += ["size=" + str(tuple(size)), f"nnz={values.shape[0]}"]
    if dtype_name not in (default_dtype_name, "int64", "bool"):
        suffixes.append(f"dtype=yaten.{dtype_name}")
    suffixes.append("layout=yaten.sparse_coo")
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    body = "tensor(" + (",\n" + " " * indent).join(parts)
    return _add_suffixes(body, suffixes, indent, force_newline=True)
