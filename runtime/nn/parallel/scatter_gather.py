"""``scatter`` and ``gather``: split a batch over CUDA devices and join the results on one, as torch's
(tensors inside tuples, lists and dicts are split; other objects are repeated). yaten has one CUDA
device, so a real split is over ``[0]``; cpu tensors are refused as torch refuses them."""

from ... import _device as _dev
from ..._tensor import Tensor

__all__ = ["gather", "scatter", "scatter_kwargs"]


def _device(index) -> _dev.device:
    d = index if isinstance(index, _dev.device) else _dev.device("cuda", index)
    return _dev.canonical(d)


def scatter(inputs, target_gpus, dim=0):
    """Split ``inputs`` in ``len(target_gpus)`` chunks along ``dim``, chunk ``i`` on ``target_gpus[i]``.

    >>> import yaten
    >>> yaten.nn.parallel.scatter((1, "a"), [0])
    [(1, 'a')]
    """

    def split(obj):
        if isinstance(obj, Tensor):
            chunks = obj.chunk(len(target_gpus), dim)
            return [chunk.to(_device(gpu)) for chunk, gpu in zip(chunks, target_gpus)]
        if isinstance(obj, tuple) and obj:
            return list(zip(*map(split, obj)))
        if isinstance(obj, list) and obj:
            return [list(parts) for parts in zip(*map(split, obj))]
        if isinstance(obj, dict) and obj:
            return [type(obj)(parts) for parts in zip(*map(split, obj.items()))]
        return [obj for _ in target_gpus]

    return split(inputs)


def scatter_kwargs(inputs, kwargs, target_gpus, dim=0):
    """``scatter`` of the positional and keyword arguments, padded to the same number of chunks."""
    scattered_inputs = scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = scatter(kwargs, target_gpus, dim) if kwargs else []
    if len(scattered_inputs) < len(scattered_kwargs):
        scattered_inputs.extend(() for _ in range(len(scattered_kwargs) - len(scattered_inputs)))
    elif len(scattered_kwargs) < len(scattered_inputs):
        scattered_kwargs.extend({} for _ in range(len(scattered_inputs) - len(scattered_kwargs)))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


def gather(outputs, target_device, dim=0):
    """Join the per-device ``outputs`` along ``dim`` on ``target_device`` (``-1``: the cpu).

    >>> import yaten
    >>> yaten.nn.parallel.gather([yaten.ones(2)], 0)
    Traceback (most recent call last):
    AssertionError: Gather function not implemented for CPU tensors
    """

    def join(outs):
        out = outs[0]
        if isinstance(out, Tensor):
            if out.device.type == "cpu":
                raise AssertionError("Gather function not implemented for CPU tensors")
            device = _dev.CPU if target_device == -1 else _device(target_device)
            from ..._generated.functions import cat

            return cat([o.to(device) for o in outs], dim)
        if out is None:
            return None
        if isinstance(out, dict):
            if not all(len(out) == len(d) for d in outs):
                raise ValueError("All dicts must have the same number of keys")
            return type(out)((k, join([d[k] for d in outs])) for k in out)
        return type(out)(map(join, zip(*outs)))

    return join(outputs)
