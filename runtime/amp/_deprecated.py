"""The FutureWarning of torch's deprecated per-device amp names (``torch.cuda.amp.autocast``, ...)."""

import warnings


def warn(old: str, new: str) -> None:
    """Warns that ``torch.<old>(args...)`` is deprecated in favour of ``new``, at the caller's caller."""
    warnings.warn(
        f"`torch.{old}(args...)` is deprecated. Please use `{new}` instead.", FutureWarning, stacklevel=3
    )
