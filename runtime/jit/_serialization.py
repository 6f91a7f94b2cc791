"""``jit.save``/``jit.load``: a TorchScript archive holds compiled code that yaten cannot write or run,
so both raise ``NotImplementedError`` that says what to use instead."""

import os

from ._deprecation import warn_deprecated

__all__ = ["load", "save"]

_INSTEAD = (
    "save the weights with yaten.save(model.state_dict(), f) and load them into the model's class with "
    "model.load_state_dict(yaten.load(f))"
)


def save(m, f, _extra_files=None) -> None:
    """Refuse to write a TorchScript archive (yaten has no TorchScript), naming the alternative.

    >>> import yaten
    >>> yaten.jit.save(yaten.nn.Linear(1, 1), "m.pt")
    Traceback (most recent call last):
    NotImplementedError: yaten cannot write TorchScript archives (torch.jit.save): save the weights ...
    """
    warn_deprecated("save")
    refuse_save()


def refuse_save() -> None:
    """The error of every way to write a TorchScript archive (``jit.save``, ``ScriptModule.save``)."""
    raise NotImplementedError(f"yaten cannot write TorchScript archives (torch.jit.save): {_INSTEAD}")


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    """Refuse to read a TorchScript archive; a missing file is torch's ValueError first.

    >>> import yaten
    >>> yaten.jit.load("no_such_file.pt")
    Traceback (most recent call last):
    ValueError: The provided filename no_such_file.pt does not exist
    """
    warn_deprecated("load")
    if isinstance(f, (str, os.PathLike)):
        if not os.path.exists(f):
            raise ValueError(f"The provided filename {f} does not exist")
        if os.path.isdir(f):
            raise ValueError(f"The provided filename {f} is a directory")
    raise NotImplementedError(
        "yaten cannot run TorchScript archives (torch.jit.load): they hold compiled TorchScript code; "
        "load a checkpoint saved with torch.save instead, or " + _INSTEAD
    )
