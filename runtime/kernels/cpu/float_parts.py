"""A floating-point number's parts: ``frexp``, the mantissa in [0.5, 1) (0, inf and NaN as they are)
and the power of two it is scaled by, as int32 (NumPy's frexp, which reads subnormals exactly)."""

import numpy as np

from ..._dtype import BY_NP


def check_floating(dtype) -> None:
    if not BY_NP[np.dtype(dtype)].is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")


def frexp(self):
    """``(mantissa, exponent)`` with ``self == mantissa * 2 ** exponent``.

    >>> frexp(np.array([8.0, -3.5, 0.0]))
    (array([ 0.5  , -0.875,  0.   ]), array([4, 2, 0], dtype=int32))
    """
    check_floating(self.dtype)
    wide = self if self.dtype in (np.float16, np.float32, np.float64) else self.astype(np.float32)
    mantissa, exponent = np.frexp(wide)
    return mantissa.astype(self.dtype), exponent.astype(np.int32)
