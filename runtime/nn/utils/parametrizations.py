"""``yaten.nn.utils.parametrizations``: ``weight_norm``, ``spectral_norm`` and ``orthogonal`` as
parametrizations (``nn.utils.parametrize``), as ``torch.nn.utils.parametrizations``."""

from enum import Enum, auto

import yaten

from ... import _tensor as T
from ... import autograd
from ..functional import normalize
from ..modules.module import Module
from . import parametrize
from .spectral_norm import _as_matrix

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _is_orthogonal(Q) -> bool:
    n, k = Q.size(-2), Q.size(-1)
    Id = yaten.eye(k, dtype=Q.dtype, device=Q.device)
    eps = 10.0 * n * yaten.finfo(Q.dtype).eps
    return bool(yaten.allclose(Q.mH @ Q, Id, atol=eps))


def _make_orthogonal(A):
    """The Q of A's QR decomposition whose R has a positive diagonal (the unique one)."""
    X, tau = yaten.geqrf(A)
    Q = yaten.linalg.householder_product(X, tau)
    return Q * X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


def _upright(X):
    """``X`` with its last two dims swapped when it has fewer rows than columns, and whether they were."""
    wide = X.size(-2) < X.size(-1)
    return (X.mT if wide else X), wide


def _skew_map(tall, orthogonal_map):
    """An (n, k) matrix with orthonormal columns from the lower triangle of ``tall`` (n >= k): the lower
    triangle, padded to square with zero columns, gives the skew-Hermitian A = L - L^H; Q is exp(A) or the
    Cayley transform (I - A/2)^-1 (I + A/2), cut back to k columns."""
    n, k = tall.size(-2), tall.size(-1)
    lower = tall.tril()
    if k < n:
        padding = lower.new_zeros(n, n - k).expand(*lower.shape[:-2], -1, -1)
        lower = yaten.cat([lower, padding], dim=-1)
    skew = lower - lower.mH
    if orthogonal_map is _OrthMaps.matrix_exp:
        square = yaten.matrix_exp(skew)
    else:
        eye = yaten.eye(n, dtype=skew.dtype, device=skew.device)
        square = yaten.linalg.solve(yaten.add(eye, skew, alpha=-0.5), yaten.add(eye, skew, alpha=0.5))
    return square[..., :k]


def _householder_map(tall):
    """The product of the reflectors stored below the diagonal of ``tall`` (each normalized through its
    tau), its columns signed by the integer part of ``tall``'s diagonal."""
    reflectors = tall.tril(diagonal=-1)
    tau = 2.0 / (1.0 + (reflectors * reflectors).sum(dim=-2))
    signs = tall.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
    return yaten.linalg.householder_product(reflectors, tau) * signs


def _householder_preimage(tall):
    """What ``_householder_map`` sends to the orthogonal ``tall``: its geqrf reflectors, with the diagonal
    set to the signs (negated where a reflector is the identity, tau = 0)."""
    packed, tau = yaten.geqrf(tall)
    diagonal = packed.diagonal(dim1=-2, dim2=-1)
    flip = 1.0 - 2.0 * (tau == 0.0).to(diagonal.dtype)
    diagonal.copy_(diagonal.sign() * flip)
    return packed


def _orthogonal_base(tall):
    """A square orthogonal matrix whose first columns span ``tall``'s (``tall`` itself when it is square
    and already orthogonal); the extra columns come from random ones."""
    n, k = tall.size(-2), tall.size(-1)
    if n == k:
        return tall.clone() if _is_orthogonal(tall) else _make_orthogonal(tall)
    extra = yaten.randn(*tall.shape[:-2], n, n - k, dtype=tall.dtype, device=tall.device)
    return _make_orthogonal(yaten.cat([tall, extra], dim=-1))


class _Orthogonal(Module):
    def __init__(self, weight, orthogonal_map: _OrthMaps, *, use_trivialization=True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            # Set by right_inverse: the map then runs around the point last assigned (Q = base @ map(X)).
            self.register_buffer("base", None)

    def forward(self, X):
        tall, wide = _upright(X)
        if self.orthogonal_map is _OrthMaps.householder:
            Q = _householder_map(tall)
        else:
            Q = _skew_map(tall, self.orthogonal_map)
        if hasattr(self, "base"):
            Q = self.base @ Q
        return Q.mT if wide else Q

    @autograd.no_grad()
    def right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError(
                f"Expected a matrix or batch of matrices of shape {self.shape}. Got a tensor of shape {Q.shape}."
            )
        tall, wide = _upright(Q)
        if hasattr(self, "base"):
            self.base = _orthogonal_base(tall)
            # -I is a point every map sends to the identity, so forward() gives base (whose columns are Q's).
            start = yaten.zeros_like(Q)
            start.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return start
        if self.orthogonal_map is not _OrthMaps.householder:
            raise NotImplementedError(
                "It is not possible to assign to the matrix exponential "
                "or the Cayley parametrizations when use_trivialization=False."
            )
        preimage = _householder_preimage(tall)
        return preimage.mT if wide else preimage


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:  # fmt: skip
    """Make ``module.<name>`` (a matrix or a batch of them) orthogonal (unitary): ``Q^H Q = I``.

    ``orthogonal_map`` is ``"matrix_exp"``, ``"cayley"`` (of a skew-symmetric matrix) or
    ``"householder"`` (a product of reflectors); the default is ``matrix_exp`` for square or complex
    matrices, ``householder`` otherwise. With ``use_trivialization`` (the default) the map is applied
    around a ``base`` buffer (``Q = base @ map(X)``) set when a value is assigned.

    >>> import yaten
    >>> from yaten import nn
    >>> m = nn.utils.parametrizations.orthogonal(nn.Linear(4, 3))
    >>> bool(yaten.allclose(m.weight @ m.weight.T, yaten.eye(3), atol=1e-5))
    True
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, T.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        square = weight.size(-2) == weight.size(-1)
        orthogonal_map = "matrix_exp" if square or weight.is_complex() else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError(
            f'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". Got: {orthogonal_map}'
        )
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return yaten._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return yaten.norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int = 0):
    """Reparametrize ``module.<name>`` by its magnitude and direction: ``weight = g * v / ||v||``, the
    norm over every dimension but ``dim`` (all of them for ``dim=None``). The originals are
    ``parametrizations.<name>.original0`` (g) and ``original1`` (v); a state_dict of the legacy
    ``nn.utils.weight_norm`` (``<name>_g``/``<name>_v``) loads into it.

    >>> import yaten
    >>> from yaten import nn
    >>> m = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
    >>> sorted(m.state_dict())
    ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
    >>> m.parametrizations.weight.original0.shape
    yaten.Size([2, 1])
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def _weight_norm_compat_hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                 error_msgs) -> None:  # fmt: skip
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    module._register_load_state_dict_pre_hook(_weight_norm_compat_hook)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if not -ndim <= dim < ndim:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] but got {dim})"
            )
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.dim = dim % ndim
        self.eps = eps
        if ndim == 1:
            return  # a vector is simply normalized: no estimate to keep
        self.n_power_iterations = n_power_iterations
        mat = self._reshape_weight_to_matrix(weight)
        rows, cols = mat.shape
        self.register_buffer("_u", normalize(mat.new_empty(rows).normal_(0, 1), dim=0, eps=eps))
        self.register_buffer("_v", normalize(mat.new_empty(cols).normal_(0, 1), dim=0, eps=eps))
        self._power_method(mat, 15)  # start from a converged estimate

    def _reshape_weight_to_matrix(self, weight):
        return _as_matrix(weight, self.dim)

    @autograd.no_grad()
    def _power_method(self, weight_mat, n_power_iterations: int) -> None:
        # u <- norm(W v), v <- norm(W^H u), written into the buffers (out=) so their updates persist.
        for _ in range(n_power_iterations):
            normalize(yaten.mv(weight_mat, self._v), dim=0, eps=self.eps, out=self._u)
            normalize(yaten.mv(weight_mat.H, self._u), dim=0, eps=self.eps, out=self._v)

    def forward(self, weight):
        if weight.ndim == 1:
            return normalize(weight, dim=0, eps=self.eps)
        mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(mat, self.n_power_iterations)
        # Copies: backward must see this call's estimate, not a later in-place update of the buffers.
        u, v = (buf.clone(memory_format=yaten.contiguous_format) for buf in (self._u, self._v))
        return weight / yaten.vdot(u, yaten.mv(mat, v))

    def right_inverse(self, value):
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Module:  # fmt: skip
    """Divide ``module.<name>`` by its spectral norm (largest singular value), estimated by power
    iteration on the buffers ``parametrizations.<name>[0]._u`` and ``_v`` (``n_power_iterations`` steps
    per call in training, none in eval). ``dim`` is the output dimension: 1 for ``ConvTranspose*``, else 0.

    >>> import yaten
    >>> from yaten import nn
    >>> m = nn.utils.parametrizations.spectral_norm(nn.Linear(4, 3))
    >>> sorted(m.state_dict())
    ['bias', 'parametrizations.weight.0._u', 'parametrizations.weight.0._v', 'parametrizations.weight.original']
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, T.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d

        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
