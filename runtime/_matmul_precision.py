"""The float32 matmul precision (``set_float32_matmul_precision``), one setting with
``backends.cuda.matmul.allow_tf32`` as in torch: ``"high"``/``"medium"`` allow TF32, ``"highest"``
does not.

yaten's matrix products compute in float32 (NumPy's BLAS on cpu, its own tiled kernel on cuda) at every
setting: a lower precision is permission, never an obligation, as in torch.
"""

import warnings

__all__ = ["get_float32_matmul_precision", "set_float32_matmul_precision"]

_STATE = {"precision": "highest"}
_PRECISIONS = ("highest", "high", "medium")


def set_float32_matmul_precision(precision: str) -> None:
    """Set the internal precision of float32 matrix products (``"highest"``, ``"high"``, ``"medium"``).

    >>> import yaten
    >>> yaten.set_float32_matmul_precision("high")
    >>> yaten.backends.cuda.matmul.allow_tf32
    True
    >>> yaten.set_float32_matmul_precision("highest")
    """
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got {type(precision).__name__}")
    if precision not in _PRECISIONS:
        warnings.warn(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
            "setFloat32MatmulPrecision call has no effect.",
            UserWarning,
            stacklevel=2,
        )
        return
    _STATE["precision"] = precision


def get_float32_matmul_precision() -> str:
    """The float32 matmul precision: ``"highest"`` unless set.

    >>> import yaten
    >>> yaten.get_float32_matmul_precision()
    'highest'
    """
    return _STATE["precision"]


def allow_tf32() -> bool:
    return _STATE["precision"] != "highest"


def set_allow_tf32(value: bool) -> None:
    _STATE["precision"] = "high" if value else "highest"
