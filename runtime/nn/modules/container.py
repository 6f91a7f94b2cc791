"""Containers: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict and the deprecated
Container (as ``torch.nn``)."""

import operator
import warnings
from collections import OrderedDict
from collections import abc as container_abcs
from itertools import chain, islice

from ..._tensor import Tensor, typename
from ..parameter import Parameter
from .module import Module

__all__ = ["Container", "ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential"]


def _addindent(s_: str, num_spaces: int) -> str:
    # Unlike Module's, this one also indents blank lines (as PyTorch's container.py does).
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    return first + "\n" + "\n".join((num_spaces * " ") + line for line in s)


class Container(Module):
    """The deprecated ancestor of the containers: a Module whose keyword arguments become its children
    (it warns as torch's when built).

    >>> import warnings, yaten
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     yaten.nn.Container(fc=yaten.nn.Identity())
    Container(
      (fc): Identity()
    )
    """

    def __init__(self, **kwargs):
        warnings.warn(
            "`nn.Container` is deprecated. All of its functionality is now implemented in `nn.Module`. "
            "Subclass that instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)


class Sequential(Module):
    """Modules called one after another, each on the previous one's output, as ``torch.nn.Sequential``.

    Built from modules (named ``"0"``, ``"1"``, ...) or from one OrderedDict of named modules.
    Indexing with an int gives a module, with a slice a new Sequential.

    >>> import yaten
    >>> from yaten import nn
    >>> class Add(nn.Module):
    ...     def __init__(self, k):
    ...         super().__init__()
    ...         self.k = k
    ...     def forward(self, x):
    ...         return x + self.k
    ...     def extra_repr(self):
    ...         return f"k={self.k}"
    >>> net = nn.Sequential(Add(1), Add(10))
    >>> net(yaten.zeros(1))
    tensor([11.])
    >>> net[-1], len(net[:1])
    (Add(k=10), 1)
    >>> net
    Sequential(
      (0): Add(k=1)
      (1): Add(k=10)
    )
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _get_item_by_idx(self, iterator, idx):
        size = len(self)
        idx = operator.index(idx)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        idx %= size
        return next(islice(iterator, idx, None))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        return self._get_item_by_idx(self._modules.values(), idx)

    def __setitem__(self, idx, module) -> None:
        key = self._get_item_by_idx(self._modules.keys(), idx)
        setattr(self, key, module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            delattr(self, self._get_item_by_idx(self._modules.keys(), idx))
        # Renumber, as PyTorch does (names given through an OrderedDict become indices too).
        self._modules = OrderedDict(zip([str(i) for i in range(len(self._modules))], self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                f"add operator supports only objects of Sequential class, but {type(other)} is given."
            )
        ret = Sequential()
        for layer in chain(self, other):
            ret.append(layer)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                f"add operator supports only objects of Sequential class, but {type(other)} is given."
            )
        offset = len(self)
        for i, module in enumerate(other):
            self.add_module(str(i + offset), module)
        return self

    def __mul__(self, other):
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        combined = Sequential()
        offset = 0
        for _ in range(other):
            for module in self:
                combined.add_module(str(offset), module)
                offset += 1
        return combined

    def __rmul__(self, other):
        return self.__mul__(other)

    def __imul__(self, other):
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        n = offset = len(self)
        for _ in range(other - 1):
            for i in range(n):
                self.add_module(str(i + offset), self._modules[str(i)])
            offset += n
        return self

    def pop(self, key):
        """Remove and return the module at ``key`` (the rest are renumbered)."""
        v = self[key]
        del self[key]
        return v

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def __iter__(self):
        return iter(self._modules.values())

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

    def append(self, module):
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module):
        """Put ``module`` at ``index`` (negative counts from the end), shifting the later ones; returns self."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not (-n <= index <= n):
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential):
        """Append every module of ``sequential`` (any iterable of modules); returns self."""
        for layer in sequential:
            self.append(layer)
        return self


class ModuleList(Module):
    """A list of submodules, registered (so their parameters are the list's), as ``torch.nn.ModuleList``.

    >>> import yaten
    >>> from yaten import nn
    >>> layers = nn.ModuleList([nn.Module() for _ in range(3)])
    >>> layers.append(nn.Sequential())
    ModuleList(
      (0-2): 3 x Module()
      (3): Sequential()
    )
    """

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self += modules

    def _get_abs_string_index(self, idx) -> str:
        idx = operator.index(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[self._get_abs_string_index(idx)]

    def __setitem__(self, idx, module) -> None:
        setattr(self, self._get_abs_string_index(idx), module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, self._get_abs_string_index(idx))
        self._modules = OrderedDict(zip([str(i) for i in range(len(self._modules))], self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        combined = ModuleList()
        for i, module in enumerate(chain(self, other)):
            combined.add_module(str(i), module)
        return combined

    def __repr__(self) -> str:
        # Runs of equal reprs are folded: "(0-2): 3 x Linear(...)".
        list_of_reprs = [repr(item) for item in self]
        if not list_of_reprs:
            return self._get_name() + "()"
        start_end_indices = [[0, 0]]
        repeated_blocks = [list_of_reprs[0]]
        for i, r in enumerate(list_of_reprs[1:], 1):
            if r == repeated_blocks[-1]:
                start_end_indices[-1][1] += 1
                continue
            start_end_indices.append([i, i])
            repeated_blocks.append(r)
        lines = []
        for (start_id, end_id), b in zip(start_end_indices, repeated_blocks):
            local_repr = f"({start_id}): {b}"
            if start_id != end_id:
                local_repr = f"({start_id}-{end_id}): {end_id - start_id + 1} x {b}"
            lines.append(_addindent(local_repr, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def insert(self, index: int, module) -> None:
        """Put ``module`` before position ``index``."""
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def append(self, module):
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key):
        """Remove and return the module at ``key`` (the rest are renumbered)."""
        v = self[key]
        del self[key]
        return v

    def extend(self, modules):
        """Append the modules of an iterable; returns self."""
        if not isinstance(modules, container_abcs.Iterable):
            raise TypeError(
                "ModuleList.extend should be called with an iterable, but got " + type(modules).__name__
            )
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self


class ModuleDict(Module):
    """A dict of submodules, in insertion order, as ``torch.nn.ModuleDict``.

    >>> import yaten
    >>> from yaten import nn
    >>> d = nn.ModuleDict({"enc": nn.Module(), "dec": nn.Sequential()})
    >>> list(d), "enc" in d, d
    (['enc', 'dec'], True, ModuleDict(
      (enc): Module()
      (dec): Sequential()
    ))
    """

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str):
        return self._modules[key]

    def __setitem__(self, key: str, module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key) -> bool:
        return key in self._modules

    def clear(self) -> None:
        """Remove every module."""
        self._modules.clear()

    def pop(self, key: str):
        """Remove and return the module at ``key``."""
        v = self[key]
        del self[key]
        return v

    def keys(self):
        """The names, in order."""
        return self._modules.keys()

    def items(self):
        """``(name, module)`` pairs, in order."""
        return self._modules.items()

    def values(self):
        """The modules, in order."""
        return self._modules.values()

    def update(self, modules) -> None:
        """Add or replace modules from a mapping or an iterable of ``(name, module)`` pairs."""
        if not isinstance(modules, container_abcs.Iterable):
            raise TypeError(
                "ModuleDict.update should be called with an iterable of key/value pairs, but got "
                + type(modules).__name__
            )
        if isinstance(modules, (OrderedDict, ModuleDict, container_abcs.Mapping)):
            for key, module in modules.items():
                self[key] = module
            return
        for key, module in _update_pairs("ModuleDict", modules):
            self[key] = module


def _update_pairs(container: str, pairs):
    """The (key, value) pairs of a ModuleDict/ParameterDict ``update`` sequence, with PyTorch's
    checks (and its wording, missing space included) on each element."""
    for j, pair in enumerate(pairs):
        if not isinstance(pair, container_abcs.Iterable):
            raise TypeError(
                f"{container} update sequence element #{j} should be Iterable; is{type(pair).__name__}"
            )
        if not len(pair) == 2:
            raise ValueError(
                f"{container} update sequence element #{j} has length {len(pair)}; 2 is required"
            )
        yield pair[0], pair[1]


def _tensor_line(k, p, type_str: str) -> str:
    if isinstance(p, Tensor):
        size_str = "x".join(str(size) for size in p.size())
        device_str = f" ({p.device})" if p.device.type == "cuda" else ""
        kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
        return f"  ({k}): {kind} containing: [{type_str} of size {size_str}{device_str}]"
    return f"  ({k}): Object of type: {type(p).__name__}"


class ParameterList(Module):
    """A list of parameters (tensors put in are made Parameters), as ``torch.nn.ParameterList``.

    >>> import yaten
    >>> ps = yaten.nn.ParameterList([yaten.zeros(2), yaten.zeros(3, 1)])
    >>> type(ps[0]).__name__, len(list(ps.parameters()))
    ('Parameter', 2)
    >>> ps
    ParameterList(
        (0): Parameter containing: [yaten.float32 of size 2]
        (1): Parameter containing: [yaten.float32 of size 3x1]
    )
    """

    def __init__(self, values=None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx) -> str:
        idx = operator.index(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            start, stop, step = idx.indices(len(self))
            out = self.__class__()
            for i in range(start, stop, step):
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx, param) -> None:
        idx = self._get_abs_string_index(idx)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, str(idx), param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value):
        """Add ``value`` at the end (a tensor becomes a Parameter); returns self."""
        new_idx = len(self)
        self._size += 1
        self[new_idx] = value
        return self

    def extend(self, values):
        """Append every value of an iterable (not a tensor); returns self."""
        if not isinstance(values, container_abcs.Iterable) or isinstance(values, Tensor):
            raise TypeError(
                "ParameterList.extend should be called with an iterable, but got " + type(values).__name__
            )
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(
            _tensor_line(k, p, repr(p.dtype) if isinstance(p, Tensor) else "") for k, p in enumerate(self)
        )

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A dict of parameters by string key (tensors put in are made Parameters), as
    ``torch.nn.ParameterDict``. A plain dict is added in sorted key order, as PyTorch does.

    >>> import yaten
    >>> pd = yaten.nn.ParameterDict({"b": yaten.zeros(1), "a": yaten.ones(2, 2)})
    >>> list(pd.keys())
    ['a', 'b']
    >>> pd
    ParameterDict(
        (a): Parameter containing: [yaten.FloatTensor of size 2x2]
        (b): Parameter containing: [yaten.FloatTensor of size 1]
    )
    """

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key) -> str:
        if not isinstance(key, str):
            raise TypeError(
                "Index given to ParameterDict cannot be used as a key as it is not a string "
                f"(type is '{type(key).__name__}'). Open an issue on github if you need non-string keys."
            )
        return key

    def __getitem__(self, key):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key, value) -> None:
        self._keys[key] = None
        attr = self._key_to_attr(key)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, attr, value)

    def __delitem__(self, key) -> None:
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def copy(self):
        """A new ParameterDict holding the same parameters."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def __contains__(self, key) -> bool:
        return key in self._keys

    def setdefault(self, key, default=None):
        """``self[key]``, set to ``default`` first if absent."""
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        """Remove every entry."""
        for k in self._keys.copy():
            del self[k]

    def pop(self, key):
        """Remove and return the entry at ``key``."""
        v = self[key]
        del self[key]
        return v

    def popitem(self):
        """Remove and return the last ``(key, value)`` pair."""
        k, _ = self._keys.popitem()
        self._keys[k] = None  # put back so that ``del self[k]`` below finds it
        val = self[k]
        del self[k]
        return k, val

    def get(self, key, default=None):
        """``self[key]`` if present, else ``default``."""
        return self[key] if key in self else default  # noqa: SIM401 (not a dict)

    def fromkeys(self, keys, default=None):
        """A new ParameterDict with ``keys``, each set to ``default``."""
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        """The keys, in order."""
        return self._keys.keys()

    def items(self):
        """``(key, value)`` pairs, in order."""
        return ((k, self[k]) for k in self._keys)

    def values(self):
        """The values, in order."""
        return (self[k] for k in self._keys)

    def update(self, parameters) -> None:
        """Add or replace entries from a mapping (a plain one in sorted key order) or ``(key, value)`` pairs."""
        if not isinstance(parameters, container_abcs.Iterable):
            raise TypeError(
                "ParametersDict.update should be called with an iterable of key/value pairs, but got "
                + type(parameters).__name__
            )
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            for key, parameter in parameters.items():
                self[key] = parameter
        elif isinstance(parameters, container_abcs.Mapping):
            for key, parameter in sorted(parameters.items()):
                self[key] = parameter
        else:
            for key, parameter in _update_pairs("ParameterDict", parameters):
                self[key] = parameter

    def extra_repr(self) -> str:
        return "\n".join(
            _tensor_line(k, p, typename(p) if isinstance(p, Tensor) else "") for k, p in self.items()
        )

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other):
        copy = self.copy()
        copy.update(other)
        return copy

    def __ror__(self, other):
        copy = other.copy()
        copy.update(self)
        return copy

    def __ior__(self, other):
        self.update(other)
        return self
