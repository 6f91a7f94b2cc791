"""``parallel_apply``: each module on its own inputs, as torch's (which uses one thread per device; with
yaten's single device the calls run one after another, in order)."""

from ..._tensor import Tensor

__all__ = ["parallel_apply"]


def parallel_apply(modules, inputs, kwargs_tup=None, devices=None) -> list:
    """``[modules[i](*inputs[i], **kwargs_tup[i])]``; an input that is not a tuple is one argument.

    >>> import yaten
    >>> relu = yaten.nn.ReLU()
    >>> parallel_apply([relu], [yaten.tensor([-1.0, 2.0])])[0].tolist()
    [0.0, 2.0]
    """
    if len(modules) != len(inputs):
        raise AssertionError(
            f"The number of modules {len(modules)} is not equal to the number of inputs {len(inputs)}"
        )
    kwargs_tup = kwargs_tup if kwargs_tup is not None else ({},) * len(modules)
    if len(modules) != len(kwargs_tup):
        raise AssertionError(f"{len(modules)} modules but {len(kwargs_tup)} keyword-argument sets")
    outputs = []
    for module, args, kwargs in zip(modules, inputs, kwargs_tup):
        if isinstance(args, Tensor) or not isinstance(args, (list, tuple)):
            args = (args,)
        outputs.append(module(*args, **kwargs))
    return outputs
