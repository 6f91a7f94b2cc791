"""yaten.utils.tensorboard: torch's ``SummaryWriter`` over the ``tensorboard`` package, which is an
optional extra (``pip install 'yaten[tensorboard]'``); without it, importing this module raises
``ModuleNotFoundError`` (an ImportError, as torch's) naming the extra.

>>> import tempfile, yaten
>>> from yaten.utils.tensorboard import SummaryWriter
>>> with SummaryWriter(tempfile.mkdtemp()) as writer:
...     writer.add_scalar("loss", 0.5, global_step=1)
"""

try:
    import tensorboard  # noqa: F401 - the optional extra this module writes through
except ImportError as error:
    raise ModuleNotFoundError(
        "yaten.utils.tensorboard (torch.utils.tensorboard) needs the tensorboard package, an optional extra: "
        "pip install 'yaten[tensorboard]' (or pip install tensorboard)",
        name="tensorboard",
    ) from error

from .writer import FileWriter, SummaryWriter

__all__ = ["FileWriter", "SummaryWriter"]
