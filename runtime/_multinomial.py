"""``multinomial``: category indices drawn from the rows of a probability tensor, with torch's checks.

The draws run on the host (``kernels/cpu/sample.py``) from the input device's generator: a CPU
generator's own engine, or for a cuda tensor the host Philox stream of the cuda generator, whose
offset then advances, as ``randint``'s wide ranges do (``_random._host_engine``).
"""

import numpy as np

from . import _dtype as D
from . import _factories as F
from ._random import _generator, _host_engine
from ._tensor import Tensor
from .autograd import grad_mode
from .kernels.cpu import sample

__all__ = ["multinomial"]

_MAX_CATEGORIES = 2**24  # torch keeps indices in a float during sampling


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> Tensor:
    """``num_samples`` indices drawn from each row of ``input`` (1-d or 2-d, non-negative weights that
    need not sum to 1), with or without replacement; an int64 tensor of shape ``(num_samples,)`` or
    ``(rows, num_samples)``.

    >>> import yaten
    >>> yaten.multinomial(yaten.tensor([0.0, 10.0, 0.0, 1.0]), 2).sort().values
    tensor([1, 3])
    >>> yaten.tensor([[0.0, 1.0], [1.0, 0.0]]).multinomial(3, replacement=True)
    tensor([[1, 1, 1],
            [0, 0, 0]])
    """
    F.tensor_arg("multinomial", "input", 1, input)
    n = F.as_index(num_samples)
    if n is None:
        raise TypeError(
            f"multinomial(): argument 'num_samples' (position 2) must be int, not {F.type_name(num_samples)}"
        )
    g = _generator("multinomial", generator, input.device)
    if out is not None and out.device != input.device:
        raise RuntimeError("multinomial arguments must have the same device")
    if not 1 <= input.ndim <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(
            f"multinomial only supports floating-point dtypes for input, got: {D.LEGACY_NAME[input.dtype]}"
        )
    if out is not None and out.dtype is not D.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: {D.LEGACY_NAME[out.dtype]}")
    if n <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = input.shape[-1]
    if not replacement and n > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if categories > _MAX_CATEGORIES:
        raise RuntimeError("number of categories cannot exceed 2^24")
    prob = input.detach()._host().astype(np.float64).reshape(-1, categories)
    shape = (n,) if input.ndim == 1 else (prob.shape[0], n)
    drawn = np.empty((prob.shape[0], n), np.int64)
    if drawn.size:
        race = not replacement or n == 1
        if race and categories == 0:
            raise RuntimeError(
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."
            )
        (sample.check_race if race else sample.check_rows)(prob)
        with _host_engine(g) as engine:
            drawn = sample.multinomial(prob, n, replacement, engine)
    result = F.make(drawn.reshape(shape), input.device)
    if out is None:
        return result
    if out.shape != result.shape:  # torch resizes multinomial's out silently
        out.set_(result)
    else:
        with grad_mode.no_grad():
            out.copy_(result)
    return out
