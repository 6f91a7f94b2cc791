"""Learning-rate schedulers, as ``torch.optim.lr_scheduler``.

Each scheduler writes ``param_group["lr"]`` of its optimizer on every ``step()``. The step rules
are PyTorch's chainable (recursive) forms, so several schedulers may drive one optimizer and
each sees the lr the others left; ``step(epoch)`` uses the closed form where one exists.

The classes live in family modules (``multiplicative``, ``cosine``, ``cyclic``, ``composite``,
``plateau``) and are re-exported here, at PyTorch's class path, which pickles name.
"""

from .base import EPOCH_DEPRECATION_WARNING as EPOCH_DEPRECATION_WARNING
from .base import LRScheduler, _LRScheduler
from .composite import ChainedScheduler, SequentialLR
from .cosine import CosineAnnealingLR, CosineAnnealingWarmRestarts
from .cyclic import CyclicLR, OneCycleLR
from .multiplicative import (
    ConstantLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)
from .plateau import ReduceLROnPlateau

__all__ = [
    "ChainedScheduler",
    "ConstantLR",
    "CosineAnnealingLR",
    "CosineAnnealingWarmRestarts",
    "CyclicLR",
    "ExponentialLR",
    "LRScheduler",
    "LambdaLR",
    "LinearLR",
    "MultiStepLR",
    "MultiplicativeLR",
    "OneCycleLR",
    "PolynomialLR",
    "ReduceLROnPlateau",
    "SequentialLR",
    "StepLR",
]

for _cls in (*(globals()[_name] for _name in __all__), _LRScheduler):
    _cls.__module__ = __name__
del _cls
