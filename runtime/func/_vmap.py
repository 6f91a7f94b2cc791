"""``vmap``: a function mapped over a dimension of its inputs.

yaten runs ``func`` once per batch element (the inputs ``select``-ed at their ``in_dims``) and stacks the
results at ``out_dims``; there are no batched tensors. The results, the argument errors, nesting
(``vmap(vmap(f))``) and composition with ``grad`` (per-sample gradients) are torch's. Two things differ
because of that design: an output declared unbatched (``out_dims=None``) is checked by comparing the
per-element results, ``.item()`` inside ``func`` is allowed (torch refuses it), and ``randomness``
watches the CPU generator (``"error"`` does not see a draw on the CUDA generator).
"""

import functools

from .. import _random, equal, stack
from .._tensor import Tensor
from . import _pytree as pytree
from ._transforms import _RANDOMNESS


def _name(func) -> str:
    return getattr(func, "__name__", repr(func))


def _in_dims_per_leaf(func, in_dims, args):
    where = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
        raise ValueError(
            f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching the structure of "
            f"inputs, got: {type(in_dims)}."
        )
    if not args:
        raise ValueError(
            f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are trying to "
            "vmap over a function with no inputs. The latter is unsupported."
        )
    dims = pytree.broadcast_prefix(in_dims, args)
    if dims is None:
        raise ValueError(
            f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has structure "
            f"{pytree.spec_repr(pytree.flatten(in_dims)[1])} but inputs has structure "
            f"{pytree.spec_repr(pytree.flatten(args)[1])}."
        )
    leaves, spec = pytree.flatten(args)
    sizes = []
    for leaf, d in zip(leaves, dims):
        if d is None:
            continue
        if not isinstance(leaf, Tensor):
            raise ValueError(
                f"{where}: Got in_dim={d} for an input but the input is of type {type(leaf)}. We cannot vmap over "
                "non-Tensor arguments, please use None as the respective in_dim"
            )
        n = leaf.dim()
        if not -n <= d < n:
            raise ValueError(
                f"{where}: Got in_dim={d} for some input, but that input is a Tensor of dimensionality {n} so "
                f"expected in_dim to satisfy -{n} <= in_dim < {n}."
            )
        sizes.append(leaf.shape[d])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(set(sizes)) > 1:
        raise ValueError(
            f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes {sizes} for the "
            "mapped dimension"
        )
    return leaves, spec, dims, sizes[0]


def _unbatched(func, results):
    first = results[0]
    for other in results[1:]:
        same = other is first or (
            equal(other, first) if isinstance(first, Tensor) and isinstance(other, Tensor) else other == first
        )
        if not same:
            raise ValueError(
                f"vmap({_name(func)}, ...): `{_name(func)}` can not return a BatchedTensor when out_dim is None"
            )
    return first


def _stack_outputs(func, out_dims, per_element):
    out_spec = pytree.flatten(per_element[0])[1]
    dims = pytree.broadcast_prefix(out_dims, per_element[0])
    if dims is None:
        raise ValueError(
            f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the structure "
            f"of `outputs`. out_dims has structure {pytree.spec_repr(pytree.flatten(out_dims)[1])} but outputs has "
            f"structure {pytree.spec_repr(out_spec)}."
        )
    columns = list(zip(*(pytree.flatten(out)[0] for out in per_element)))
    leaves = []
    for d, column in zip(dims, columns):
        if d is None:
            leaves.append(_unbatched(func, column))
            continue
        if not all(isinstance(x, Tensor) for x in column):
            bad = next(type(x) for x in column if not isinstance(x, Tensor))
            raise ValueError(
                f"vmap({_name(func)}, ...): `{_name(func)}` must only return Tensors, got type {bad}. Did you mean to "
                "set out_dims= to None for output?"
            )
        leaves.append(stack(column, dim=d))
    return pytree.unflatten(leaves, out_spec)


def _check_out_dims(func, out_dims) -> None:
    leaves = pytree.flatten(out_dims)[0]
    if not all(d is None or (isinstance(d, int) and not isinstance(d, bool)) for d in leaves):
        raise ValueError(
            f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python collection "
            "of ints representing where in the outputs the vmapped dimension should appear."
        )


def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """``func`` mapped over dimension ``in_dims`` of its inputs (an int for all, or a tuple matching the
    arguments, None for an unmapped one), its results stacked at ``out_dims``.

    yaten calls ``func`` once per batch element and stacks the results (see the module's note).
    ``randomness`` is torch's: ``"error"`` refuses random operations in ``func``, ``"same"`` gives each
    element the same random numbers, ``"different"`` lets them differ.

    >>> import yaten
    >>> from yaten.func import vmap
    >>> vmap(yaten.dot)(yaten.ones(3, 2), yaten.arange(6.0).reshape(3, 2))
    tensor([1., 5., 9.])
    >>> vmap(lambda x, y: x * y, in_dims=(0, None))(yaten.ones(2, 3), yaten.arange(3.0))
    tensor([[0., 1., 2.],
            [0., 1., 2.]])
    """
    if randomness not in _RANDOMNESS:
        raise RuntimeError(
            f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}"
        )
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        _check_out_dims(func, out_dims)
        leaves, spec, dims, size = _in_dims_per_leaf(func, in_dims, args)
        start = _random.get_rng_state()
        per_element = []
        for i in range(size):
            if randomness == "same":
                _random.set_rng_state(start)
            before = _random.get_rng_state() if randomness == "error" else None
            element = [leaf if d is None else leaf.select(d, i) for leaf, d in zip(leaves, dims)]
            per_element.append(func(*pytree.unflatten(element, spec), **kwargs))
            if before is not None and not equal(before, _random.get_rng_state()):
                raise RuntimeError(
                    "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
                    "'different' randomness flags on vmap or perform the randomness operation out of vmap"
                )
        return _stack_outputs(func, out_dims, per_element)

    return wrapper
