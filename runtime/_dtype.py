"""dtypes: yaten.float32 and friends, each tied to the NumPy dtype its storage uses.

bfloat16 is ml_dtypes' NumPy extension type; kernels compute it in float32, as torch's CPU kernels do
(``kernels/cpu/convert.compute_dtype``). complex64 and complex128 are NumPy's own complex types (a pair
of float32 / float64: real, then imaginary).
"""

import ml_dtypes
import numpy as np


class dtype:
    """A tensor element type, as ``torch.dtype``.

    >>> import yaten
    >>> yaten.float32.is_floating_point, yaten.int64.itemsize
    (True, 8)
    """

    __slots__ = ("is_floating_point", "is_signed", "itemsize", "kind", "name", "np")

    def __init__(self, name: str, np_dtype, kind: str):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.itemsize = self.np.itemsize
        self.kind = kind  # "b" bool, "i" integral, "f" floating, "c" complex: the promotion category
        self.is_floating_point = kind == "f"
        self.is_signed = name not in ("uint8", "bool")

    @property
    def is_complex(self) -> bool:
        return self.kind == "c"

    def to_real(self) -> "dtype":
        """The real dtype of a complex one's parts (complex64 -> float32); any other dtype itself.

        >>> import yaten
        >>> yaten.complex64.to_real(), yaten.int64.to_real()
        (yaten.float32, yaten.int64)
        """
        return REAL_OF.get(self, self)

    def to_complex(self) -> "dtype":
        """The complex dtype whose parts are this float dtype (float32 -> complex64), as torch's.

        >>> import yaten
        >>> yaten.float64.to_complex(), yaten.complex64.to_complex()
        (yaten.complex128, yaten.complex64)
        """
        if self.kind == "c":
            return self
        if self is bfloat16:  # torch's answer (its complex of a half is complex32, which yaten lacks)
            return complex64
        if self not in COMPLEX_OF:
            raise RuntimeError(f"Unknown Complex ScalarType for {LEGACY_NAME[self]}")
        return COMPLEX_OF[self]

    def __repr__(self) -> str:
        return f"yaten.{self.name}"

    def __reduce__(self):
        return self.name


bool = dtype("bool", np.bool_, "b")
uint8 = dtype("uint8", np.uint8, "i")
int8 = dtype("int8", np.int8, "i")
int16 = dtype("int16", np.int16, "i")
int32 = dtype("int32", np.int32, "i")
int64 = dtype("int64", np.int64, "i")
float16 = dtype("float16", np.float16, "f")
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, "f")
float32 = dtype("float32", np.float32, "f")
float64 = dtype("float64", np.float64, "f")
complex64 = dtype("complex64", np.complex64, "c")
complex128 = dtype("complex128", np.complex128, "c")

ALL = (bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64, complex128)
ALIASES = {
    "half": float16, "float": float32, "double": float64, "short": int16, "int": int32, "long": int64,
    "cfloat": complex64, "cdouble": complex128,
}  # fmt: skip
COMPLEX_OF = {float32: complex64, float64: complex128}
REAL_OF = {c: f for f, c in COMPLEX_OF.items()}
BY_NP = {d.np: d for d in ALL}
BY_NAME = {d.name: d for d in ALL}
# PyTorch's legacy names (``FloatTensor``) and the C++ type names its errors print (``long int``).
LEGACY_NAME = {
    bool: "Bool", uint8: "Byte", int8: "Char", int16: "Short", int32: "Int", int64: "Long",
    float16: "Half", bfloat16: "BFloat16", float32: "Float", float64: "Double",
    complex64: "ComplexFloat", complex128: "ComplexDouble",
}  # fmt: skip
BY_LEGACY_NAME = {v: k for k, v in LEGACY_NAME.items()}
TYPEID_NAME = {
    bool: "bool", uint8: "unsigned char", int8: "signed char", int16: "short int", int32: "int",
    int64: "long int", float16: "c10::Half", bfloat16: "c10::BFloat16", float32: "float", float64: "double",
    complex64: "c10::complex<float>", complex128: "c10::complex<double>",
}  # fmt: skip
# The names c10's "value cannot be converted to type ... without overflow" errors print.
C10_NAME = {
    bool: "bool", uint8: "uint8_t", int8: "int8_t", int16: "int16_t", int32: "int", int64: "int64_t",
    float16: "c10::Half", bfloat16: "c10::BFloat16", float32: "float", float64: "double",
    complex64: "c10::complex<float>", complex128: "c10::complex<double>",
}  # fmt: skip


class _Default:
    value = float32


def get_default_dtype() -> dtype:
    """The dtype of float tensors made from Python floats (float32 unless changed).

    >>> import yaten
    >>> yaten.get_default_dtype()
    yaten.float32
    """
    return _Default.value


def set_default_dtype(d: dtype) -> None:
    """Set the default floating dtype: float32, float64, float16 or bfloat16, as in PyTorch."""
    if not isinstance(d, dtype) or d not in (float32, float64, float16, bfloat16):
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _Default.value = d
    from ._pointwise import clear_plans  # promotion results that used the old default

    clear_plans()
