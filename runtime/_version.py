"""``yaten.__version__``: the version of PyTorch's API that yaten follows, with yaten's own version as its
local label (``2.13.0+yaten.0.1.0``), so that the version checks real programs make
(``torch.__version__ >= "2.0"``, ``version.parse(torch.__version__)``, ``__version__.split(".")``) take
the path they take on torch 2.13, the API yaten implements.

It is a ``str`` that compares as a version, as torch's ``TorchVersion``: against a string, a
``packaging`` Version or a tuple such as ``(2, 0)``.
"""

from functools import partialmethod

TORCH_API = "2.13.0"
YATEN = "0.1.0"  # pyproject.toml's version


class TorchVersion(str):
    """A version string that compares as a PEP 440 version.

    >>> v = TorchVersion("2.13.0+yaten.0.1.0")
    >>> v >= "2.0", v < (3, 0), v > "2.13.0", v.split("+")[0]
    (True, True, True, '2.13.0')
    """

    def _compare(self, other, *, method: str):
        from packaging.version import InvalidVersion, Version  # on first comparison: import yaten stays fast

        if isinstance(other, tuple | list):
            other = ".".join(str(part) for part in other)
        try:
            return getattr(Version(self), method)(other if isinstance(other, Version) else Version(other))
        except (InvalidVersion, TypeError):
            return getattr(str(self), method)(other)

    __hash__ = str.__hash__


for _method in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
    setattr(TorchVersion, _method, partialmethod(TorchVersion._compare, method=_method))
del _method


__version__ = TorchVersion(f"{TORCH_API}+yaten.{YATEN}")
