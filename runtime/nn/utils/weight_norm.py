"""The legacy ``nn.utils.weight_norm``: ``weight`` recomputed from ``weight_g`` and ``weight_v`` by a forward
pre-hook, as ``torch.nn.utils.weight_norm`` (deprecated there for ``parametrizations.weight_norm``)."""

import warnings

import yaten

from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter
from .spectral_norm import _hook_of, _take_off_pre_hook

__all__ = ["WeightNorm", "remove_weight_norm", "weight_norm"]


class WeightNorm:
    """The forward pre-hook of ``weight_norm``: sets ``module.<name>`` to ``g * v / ||v||``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim  # -1: one norm over the whole tensor

    def compute_weight(self, module: Module):
        magnitude, direction = (getattr(module, self.name + part) for part in ("_g", "_v"))
        return yaten._weight_norm(direction, magnitude, self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int) -> "WeightNorm":
        warnings.warn(
            "`torch.nn.utils.weight_norm` is deprecated in favor of `torch.nn.utils.parametrizations.weight_norm`.",
            FutureWarning,
            stacklevel=3,
        )
        if _hook_of(module._forward_pre_hooks, WeightNorm, name) is not None:
            raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        hook = WeightNorm(name, dim)
        current = getattr(module, name)
        if isinstance(current, UninitializedParameter):
            raise ValueError(
                "The module passed to `WeightNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying weight normalization"
            )
        # The tensor leaves the parameters; g and v replace it, and the hook rebuilds it from them.
        module._parameters.pop(name)
        magnitude = yaten.norm_except_dim(current, 2, hook.dim)
        module.register_parameter(name + "_g", Parameter(magnitude.data))
        module.register_parameter(name + "_v", Parameter(current.data))
        hook(module, None)
        module.register_forward_pre_hook(hook)
        return hook

    def remove(self, module: Module) -> None:
        final = self.compute_weight(module).data
        delattr(module, self.name)
        for part in ("_g", "_v"):
            module._parameters.pop(self.name + part)
        setattr(module, self.name, Parameter(final))

    def __call__(self, module: Module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int = 0) -> Module:
    """Split ``module.<name>`` into a magnitude ``<name>_g`` and a direction ``<name>_v`` (parameters),
    recombined before every forward; the norm is over every dimension but ``dim`` (all for None).

    >>> import warnings
    >>> from yaten import nn
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m = nn.utils.weight_norm(nn.Linear(3, 2))
    >>> sorted(m.state_dict()), m.weight_g.shape
    (['bias', 'weight_g', 'weight_v'], yaten.Size([2, 1]))
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Undo ``weight_norm``: ``module.<name>`` becomes a parameter again, with its current value.

    >>> import warnings
    >>> from yaten import nn
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m = nn.utils.remove_weight_norm(nn.utils.weight_norm(nn.Linear(3, 2)))
    >>> sorted(m.state_dict())
    ['bias', 'weight']
    """
    _take_off_pre_hook(module, WeightNorm, name, "weight_norm")
    return module
