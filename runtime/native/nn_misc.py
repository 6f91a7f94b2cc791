"""The nn ops that are neither activations nor losses: dropout, feature dropout, bilinear, embedding,
one_hot.

``dropout``, ``feature_dropout``, ``bilinear`` and ``one_hot`` are CompositeImplicitAutograd (yaten calls only, as PyTorch's
CPU code); ``embedding`` is CompositeExplicitAutograd, its gradient ``embedding_backward`` in
``autograd/formulas.py`` (a scatter-add that skips ``padding_idx``).
"""

import yaten

from .. import _dtype as D


def _check_p(p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")


def _noise(input, p, feature=False):
    """Bernoulli(1 - p) keep-mask over ``input`` (over its (N, C) channels, broadcast over the rest, for
    feature dropout), scaled by 1 / (1 - p), from yaten's default generator."""
    if not input.dtype.is_floating_point:
        # PyTorch draws the noise in input's dtype and scales it in place, which an integer refuses.
        raise RuntimeError(
            f"result type Float can't be cast to the desired output type {D.LEGACY_NAME[input.dtype]}"
        )
    shape = [*input.shape[:2], *[1] * (input.ndim - 2)] if feature else input.shape
    keep = yaten.bernoulli(yaten.empty(shape, dtype=input.dtype, device=input.device), 1 - p)
    return keep.div_(1 - p)


def _dropout(input, p, train, feature, inplace, alpha=False):
    """PyTorch's CPU dropout: ``input`` itself when there is nothing to drop, else ``input * noise``
    (so the mask is what MulBackward0 saves), zeros for p = 1. Alpha dropout (SELU's) sets the dropped
    elements to SELU's negative saturation and rescales, so mean and variance stay: ``input * a * keep + b``."""
    _check_p(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    if feature and input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1:
        noise = yaten.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(noise) if inplace else input * noise
    noise = _noise(input, p, feature)
    if not alpha:
        return input.mul_(noise) if inplace else input * noise
    keep = noise.mul_(1 - p)  # back to the 0/1 mask
    sat = 1.7580993408473766  # -SELU's saturation value, scale * alpha
    a = 1.0 / ((sat * sat * p + 1) * (1 - p)) ** 0.5
    b = (keep - 1) * (sat * a) + sat * a * p
    keep = keep.mul_(a)
    return (input.mul_(keep) if inplace else input * keep).add_(b)


def dropout(input, p, train):
    return _dropout(input, p, train, False, False)


def dropout_(self, p, train):
    return _dropout(self, p, train, False, True)


def feature_dropout(input, p, train):
    """Dropout of whole channels: one keep-or-drop per (sample, channel), as PyTorch's feature_dropout."""
    return _dropout(input, p, train, True, False)


def feature_dropout_(self, p, train):
    return _dropout(self, p, train, True, True)


def alpha_dropout(input, p, train):
    return _dropout(input, p, train, False, False, alpha=True)


def alpha_dropout_(self, p, train):
    return _dropout(self, p, train, False, True, alpha=True)


def feature_alpha_dropout(input, p, train):
    return _dropout(input, p, train, True, False, alpha=True)


def feature_alpha_dropout_(self, p, train):
    return _dropout(self, p, train, True, True, alpha=True)


def bilinear(input1, input2, weight, bias=None):
    """``y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o]``, as two matrix
    products over the flattened batch (PyTorch's ``_trilinear`` does the same contraction)."""
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.shape[i]} and "
                f"{input2.shape[i]}"
            )
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(
            f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} but expected "
            f"{weight.shape[1]}"
        )
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(
            f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} but expected "
            f"{weight.shape[2]}"
        )
    out_f, in1, in2 = weight.shape
    if bias is not None and bias.shape[0] != out_f:
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but expected {out_f}"
        )
    batch = tuple(input1.shape[:-1])
    x1 = input1.reshape(-1, in1)
    x2 = input2.reshape(-1, in2)
    # (N, in1) @ (in1, out * in2) -> (N, out, in2), then contract in2 with x2.
    w = weight.permute(1, 0, 2).reshape(in1, out_f * in2)
    y = (x1.mm(w).reshape(-1, out_f, in2) * x2.unsqueeze(1)).sum(-1)
    if bias is not None:
        y = y + bias
    return y.reshape(batch + (out_f,))


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """The rows of ``weight`` at ``indices``: shape ``indices.shape + (embedding_dim,)``."""
    if indices.dtype not in (D.int64, D.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
            f"but got {indices.type()} instead (while checking arguments for embedding)"
        )
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    with yaten.no_grad():
        rows = weight.index_select(0, indices.reshape(-1))
        return rows.reshape(tuple(indices.shape) + (weight.shape[1],))


def one_hot(self, num_classes=-1):
    """int64 one-hot vectors along a new last dim; ``num_classes=-1`` takes ``self.max() + 1``."""
    if self.dtype is not D.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if self.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    else:
        if bool((self < 0).any()):
            raise RuntimeError("Class values must be non-negative.")
        top = int(self.max())
        if num_classes == -1:
            num_classes = top + 1
        elif top >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    out = yaten.zeros(tuple(self.shape) + (num_classes,), dtype=D.int64, device=self.device)
    return out.scatter_(-1, self.unsqueeze(-1), 1)
