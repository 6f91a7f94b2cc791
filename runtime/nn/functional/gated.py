"""The activations of ``torch.nn.functional`` with more than one operand: ``glu`` and ``prelu``."""

import yaten as _yaten


def glu(input, dim=-1):
    """``a * sigmoid(b)`` of the halves ``a``, ``b`` of ``input`` along ``dim``.

    >>> import yaten
    >>> yaten.nn.functional.glu(yaten.tensor([2.0, 0.0]))
    tensor([1.])
    """
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _yaten.glu(input, dim)


def prelu(input, weight):
    """``input`` where positive, ``weight * input`` elsewhere (one weight, or one per channel).

    >>> import yaten
    >>> yaten.nn.functional.prelu(yaten.tensor([-2.0, 3.0]), yaten.tensor([0.25]))
    tensor([-0.5000,  3.0000])
    """
    return _yaten.prelu(input, weight)
