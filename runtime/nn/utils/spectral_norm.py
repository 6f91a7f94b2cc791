"""The legacy ``nn.utils.spectral_norm``: ``weight`` recomputed from ``weight_orig`` divided by its spectral
norm (power iteration on the buffers ``weight_u``/``weight_v``) by a forward pre-hook, as
``torch.nn.utils.spectral_norm``; its state_dict hooks load torch's checkpoints, old versions included."""

import yaten

from ... import autograd
from ..functional import normalize
from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter

__all__ = ["SpectralNorm", "SpectralNormLoadStateDictPreHook", "SpectralNormStateDictHook", "remove_spectral_norm",
           "spectral_norm"]  # fmt: skip

# Names that hold the reparametrization, as suffixes of the parameter's name (torch's state_dict keys).
_ORIG, _U, _V = "_orig", "_u", "_v"


def _as_matrix(weight, dim):
    """``weight`` with ``dim`` moved first and the rest flattened: the matrix whose norm is taken."""
    if dim != 0:
        weight = weight.movedim(dim, 0)
    return weight.reshape(weight.size(0), -1)


def _power_iteration(mat, u, v, steps, eps):
    """``steps`` rounds of v <- norm(W^T u), u <- norm(W v), written into ``u`` and ``v`` themselves so the
    buffers carry the estimate to the next forward."""
    with autograd.no_grad():
        for _ in range(steps):
            normalize(yaten.mv(mat.t(), u), dim=0, eps=eps, out=v)
            normalize(yaten.mv(mat, v), dim=0, eps=eps, out=u)


def _sigma(mat, u, v):
    """The spectral-norm estimate u^T W v."""
    return yaten.dot(u, yaten.mv(mat, v))


def _hook_of(hooks, kind, name):
    """The key of the ``kind`` hook in ``hooks`` that serves parameter ``name``, or None (a forward pre-hook
    names its parameter itself; a state_dict hook through the pre-hook it holds as ``fn``)."""
    for key, hook in hooks.items():
        if isinstance(hook, kind) and getattr(hook, "fn", hook).name == name:
            return key
    return None


def _take_off_pre_hook(module, kind, name: str, label: str) -> None:
    """Undo and drop the ``kind`` forward pre-hook serving ``name``; torch's ValueError when there is none."""
    key = _hook_of(module._forward_pre_hooks, kind, name)
    if key is None:
        raise ValueError(f"{label} of '{name}' not found in {module}")
    module._forward_pre_hooks.pop(key).remove(module)


class SpectralNorm:
    """The forward pre-hook of ``spectral_norm``."""

    _version: int = 1  # 1: weight_v is in the state_dict (version 0 recomputes it on load)

    def __init__(
        self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.name, self.dim, self.eps = name, dim, eps
        self.n_power_iterations = n_power_iterations

    def reshape_weight_to_matrix(self, weight):
        return _as_matrix(weight, self.dim)

    def compute_weight(self, module: Module, do_power_iteration: bool):
        orig = getattr(module, self.name + _ORIG)
        u, v = getattr(module, self.name + _U), getattr(module, self.name + _V)
        mat = _as_matrix(orig, self.dim)
        if do_power_iteration:
            _power_iteration(mat, u, v, self.n_power_iterations, self.eps)
            # Copies, so that backward sees the values of this forward even if the buffers move on.
            u, v = (
                u.clone(memory_format=yaten.contiguous_format),
                v.clone(memory_format=yaten.contiguous_format),
            )
        return orig / _sigma(mat, u, v)

    def remove(self, module: Module) -> None:
        with autograd.no_grad():
            final = self.compute_weight(module, do_power_iteration=False).detach()
        for suffix in ("", _U, _V, _ORIG):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(final))

    def __call__(self, module: Module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        # The least-squares v with W v ~ u, scaled so that u^T W v equals target_sigma (version-0 load).
        gram_pinv = weight_mat.t().mm(weight_mat).pinverse()
        v = gram_pinv.mm(weight_mat.t()).mv(u)
        return v.mul_(target_sigma / _sigma(weight_mat, u, v))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int, eps: float) -> "SpectralNorm":
        if _hook_of(module._forward_pre_hooks, SpectralNorm, name) is not None:
            raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        hook = SpectralNorm(name, n_power_iterations, dim, eps)
        param = module._parameters[name]
        if param is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(param, UninitializedParameter):
            raise ValueError(
                "The module passed to `SpectralNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying spectral normalization"
            )
        rows, cols = _as_matrix(param, dim).shape
        with autograd.no_grad():  # random unit starting vectors, u first (torch's draw order)
            u0 = normalize(param.new_empty(rows).normal_(0, 1), dim=0, eps=eps)
            v0 = normalize(param.new_empty(cols).normal_(0, 1), dim=0, eps=eps)
        delattr(module, name)
        module.register_parameter(name + _ORIG, param)
        # A plain attribute until the first forward replaces it with the normalized weight.
        setattr(module, name, param.data)
        module.register_buffer(name + _U, u0)
        module.register_buffer(name + _V, v0)
        module.register_forward_pre_hook(hook)
        module._register_state_dict_hook(SpectralNormStateDictHook(hook))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(hook))
        return hook


class SpectralNormLoadStateDictPreHook:
    """Loads a version-0 state_dict (``weight``, ``weight_orig``, ``weight_u``; no ``weight_v``)."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ) -> None:
        name = self.fn.name
        version = local_metadata.get("spectral_norm", {}).get(name + ".version")
        if version is not None and version >= 1:
            return
        base = prefix + name
        if (
            version is None
            and base not in state_dict
            and all(base + s in state_dict for s in (_ORIG, _U, _V))
        ):
            return  # already in the current layout, saved without metadata
        absent = [base + s for s in (_ORIG, "", _U) if base + s not in state_dict]
        if absent:
            if strict:
                missing_keys.extend(absent)
            return
        with autograd.no_grad():
            orig = state_dict[base + _ORIG]
            sigma = (orig / state_dict.pop(base)).mean()
            mat = _as_matrix(orig, self.fn.dim)
            state_dict[base + _V] = self.fn._solve_v_and_rescale(mat, state_dict[base + _U], sigma)


class SpectralNormStateDictHook:
    """Records the spectral norm's version in the state_dict's metadata."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata) -> None:
        versions = local_metadata.setdefault("spectral_norm", {})
        key = f"{self.fn.name}.version"
        if key in versions:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        versions[key] = self.fn._version


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Module:  # fmt: skip
    """Divide ``module.<name>`` by its spectral norm before every forward, estimated by power iteration
    (``n_power_iterations`` steps per training forward); ``dim`` is 1 for ``ConvTranspose*``, else 0.

    >>> from yaten import nn
    >>> m = nn.utils.spectral_norm(nn.Linear(4, 3))
    >>> sorted(m.state_dict())
    ['bias', 'weight_orig', 'weight_u', 'weight_v']
    """
    if dim is None:
        from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d

        dim = int(isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)))
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: Module, name: str = "weight") -> Module:
    """Undo ``spectral_norm``: ``module.<name>`` becomes a parameter with its current normalized value.

    >>> from yaten import nn
    >>> m = nn.utils.remove_spectral_norm(nn.utils.spectral_norm(nn.Linear(4, 3)))
    >>> sorted(m.state_dict())
    ['bias', 'weight']
    """
    _take_off_pre_hook(module, SpectralNorm, name, "spectral_norm")
    for hooks, kind in ((module._state_dict_hooks, SpectralNormStateDictHook),
                        (module._load_state_dict_pre_hooks, SpectralNormLoadStateDictPreHook)):  # fmt: skip
        key = _hook_of(hooks, kind, name)
        if key is not None:
            del hooks[key]
    return module
