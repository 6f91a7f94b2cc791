"""yaten.nn: modules, parameters, ``functional`` and ``init``, as ``torch.nn``."""

# ruff: noqa: F401 (this file only re-exports)

from . import functional, init, modules, utils
from .modules import Module, ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .modules.activation import (
    ELU,
    GELU,
    Hardtanh,
    LeakyReLU,
    LogSoftmax,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from .modules.attention import MultiheadAttention
from .modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .modules.conv import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from .modules.dropout import Dropout
from .modules.flatten import Flatten, Unflatten
from .modules.linear import Bilinear, Identity, Linear
from .modules.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .modules.normalization import GroupNorm, LayerNorm, RMSNorm
from .modules.pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .modules.sparse import Embedding
from .parameter import Buffer, Parameter
