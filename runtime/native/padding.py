"""Padding as CompositeImplicitAutograd ops: ``constant_pad_nd`` and ``pad`` (ATen's ``at::pad``: constant,
reflect, replicate and circular modes, with PyTorch's checks and messages).

A padded dimension is one ``index_select`` of the input: output position ``j`` (from ``-left`` to
``size + right``) reads input position ``j`` mirrored (reflect), clamped (replicate) or taken modulo
the size (circular, around what a negative padding leaves), or its clamped position with ``value``
where it falls outside (constant); a negative padding drops positions. Autograd and CUDA come through
``index_select`` and ``where``.
"""

import yaten

from .._autocast import STATE as _AMP
from .._autocast import call as _autocast

_MODES = {"reflect": "reflection", "replicate": "replication", "circular": "circular"}
_DIM_NAMES = ("D", "H", "W")


def _pairs(pad, ndim):
    """``[(dim, left, right)]`` of a flat padding list (last dimension first, as PyTorch's)."""
    return [(ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


def constant_pad_nd(self, pad, value=0):
    if len(pad) % 2 != 0:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) > 2 * self.ndim:
        raise RuntimeError(
            "Length of pad should be no more than twice the number of dimensions of the input. Pad length is "
            f"{len(pad)}while the input has {self.ndim}dimensions."
        )
    out, fill = self, yaten.full((), value, dtype=self.dtype, device=self.device)
    for dim, left, right in _pairs(pad, self.ndim):
        size = out.shape[dim]
        if left < 0 and size + left < 0:  # ATen narrows by a negative padding: its check, its message
            raise RuntimeError("narrow(): length must be non-negative.")
        j = yaten.arange(-left, size + right, device=out.device)
        if size == 0:  # nothing to read: all of it is padding
            shape = list(out.shape)
            shape[dim] = len(j)
            out = fill.expand(shape).clone()
            continue
        inside = ((j >= 0) & (j < size)).reshape([-1] + [1] * (out.ndim - 1 - dim))
        out = yaten.where(inside, out.index_select(dim, j.clamp(0, size - 1)), fill)
    return out


def _index(size, left, right, mode, device):
    """Which input position each output position of a padded dimension reads."""
    if mode == "circular":  # a negative padding narrows first; the rest wraps around what is left
        kept = size + min(left, 0) + min(right, 0)
        j = yaten.arange(-max(left, 0), kept + max(right, 0), device=device)
        return j.remainder(max(kept, 1)) + max(-left, 0)
    j = yaten.arange(-left, size + right, device=device)
    if mode == "reflect":
        j = j.abs()
        return yaten.where(j >= size, 2 * (size - 1) - j, j)
    return j.clamp(0, size - 1)


def _check_dims(self, mode, n):
    """PyTorch's rank and empty-dimension checks of the ``n``-d reflection/replication pads."""
    if mode != "circular" and self.dtype is yaten.bool:
        raise NotImplementedError(f"\"{_MODES[mode]}_pad{n}d\" not implemented for 'Bool'")
    if mode == "circular":
        return
    batched = self.ndim == n + 2
    if any(s == 0 for s in self.shape[1 if batched else 0 :]):
        raise RuntimeError(
            f"Expected {n + 1}D or {n + 2}D (batch mode) tensor with possibly 0 batch size and other non-zero "
            f"dimensions for input, but got: {list(self.shape)}"
        )


def _check_sizes(self, mode, pairs):
    """The padding-size checks of each mode, in ATen's order (width first)."""
    n = len(pairs)
    for i, (dim, left, right) in enumerate(pairs):
        size = self.shape[dim]
        if mode == "reflect" and not (left < size and right < size):
            raise RuntimeError(
                f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding input dimension, "
                f"but got: padding ({left}, {right}) at dimension {dim} of input {list(self.shape)}"
            )
        if mode == "circular" and (left > size or right > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if mode == "circular" and size + left + right < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    if mode == "circular":
        return
    sizes = [self.shape[dim] for dim, _, _ in reversed(pairs)]
    outs = [self.shape[dim] + left + right for dim, left, right in reversed(pairs)]
    if all(o < 1 for o in outs):
        names = _DIM_NAMES[3 - n :]
        given = ", ".join(f"{name}: {s}" for name, s in zip(names, sizes))
        calculated = " ".join(f"{name}: {o}" for name, o in zip(names, outs))
        raise RuntimeError(f"input ({given}) is too small. Calculated output {calculated}")


def pad(self, pad, mode="constant", value=None):
    if mode == "constant":
        return constant_pad_nd(self, pad, 0 if value is None else value)
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    n = len(pad) // 2
    if len(pad) % 2 != 0 or n not in (1, 2, 3) or self.ndim not in (n + 1, n + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {self.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )
    op = globals()["pad"]  # (the argument ``pad`` hides this function)
    if _AMP.active and _AMP.entered is not op and (mode == "replicate" or (mode == "reflect" and n < 3)):
        # torch's reflection_pad1d/2d and replication_pad1d/2d/3d are on its CPU autocast list (float32)
        return _autocast(op, {"cpu": "fp32"}, {"self": self, "pad": pad, "mode": mode})
    _check_dims(self, mode, n)
    pairs = _pairs(pad, self.ndim)
    _check_sizes(self, mode, pairs)
    out = self
    for dim, left, right in pairs:
        out = out.index_select(dim, _index(out.shape[dim], left, right, mode, out.device))
    return out
