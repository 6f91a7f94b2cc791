"""``finfo`` and ``iinfo``: the numerical properties of a floating or integer dtype, as torch's."""

import ml_dtypes
import numpy as np

from . import _dtype as D

_DEFAULT = object()  # finfo() is the default dtype's; finfo(None) is an error, as torch's


class finfo:
    """The properties of a floating dtype (the default dtype when none is given).

    >>> import yaten
    >>> yaten.finfo(yaten.float16).max, yaten.finfo().eps == yaten.finfo(yaten.float32).eps
    (65504.0, True)
    """

    def __init__(self, type=_DEFAULT):
        dt = _dtype_arg("finfo", D.get_default_dtype() if type is _DEFAULT else type).to_real()
        if not dt.is_floating_point:  # a complex dtype is described by its parts' float dtype, as torch
            raise TypeError(
                "yaten.finfo() requires a floating point input type. Use yaten.iinfo to handle 'yaten.finfo'"
            )
        info = ml_dtypes.finfo(dt.np)
        self.bits = info.bits
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        # In double, as torch's (NumPy's is rounded to the dtype).
        self.resolution = 10.0**-info.precision
        self.dtype = dt.name

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    __hash__ = None  # as torch's

    def __repr__(self) -> str:
        fields = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")
        return f"finfo({', '.join(f'{k}={getattr(self, k):g}' for k in fields)}, dtype={self.dtype})"


class iinfo:
    """The properties of an integer dtype.

    >>> import yaten
    >>> yaten.iinfo(yaten.int8)
    iinfo(min=-128, max=127, dtype=int8)
    """

    def __init__(self, type):
        dt = _dtype_arg("iinfo", type)
        if dt is D.bool:
            raise TypeError("yaten.bool is not supported by yaten.iinfo")
        if dt.is_floating_point or dt.is_complex:
            raise TypeError(
                "yaten.iinfo() requires an integer input type. Use yaten.finfo to handle 'yaten.iinfo'"
            )
        info = np.iinfo(dt.np)
        self.bits, self.min, self.max, self.dtype = info.bits, int(info.min), int(info.max), dt.name

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    __hash__ = None  # as torch's

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def _dtype_arg(fn: str, type) -> D.dtype:
    if not isinstance(type, D.dtype):
        raise TypeError(
            f"{fn}(): argument 'type' (position 1) must be yaten.dtype, not {type.__class__.__name__}"
        )
    return type
