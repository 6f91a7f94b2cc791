"""Named results of ops that return several tensors, as ``torch.return_types`` (``max(x, 1).values``).

>>> import yaten
>>> r = yaten.max(yaten.tensor([[1.0, 3.0], [4.0, 2.0]]), 1)
>>> r.values, r.indices
(tensor([3., 4.]), tensor([1, 0]))
"""

_TYPES = {}


def return_type(name: str, fields: tuple):
    """The tuple class of op ``name`` with the named ``fields`` (one class per op name)."""
    cls = _TYPES.get(name)
    if cls is None:
        cls = _TYPES[name] = _make(name, fields)
        globals()[name] = cls
    return cls


def _make(name: str, fields: tuple):
    def __new__(cls, *values):
        return tuple.__new__(cls, values)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"yaten.return_types.{name}(\n{body})"

    def __reduce__(self):
        return (return_type(name, fields), tuple(self))

    namespace = {"__slots__": (), "__new__": __new__, "__repr__": __repr__, "__reduce__": __reduce__,
                 "__module__": "yaten.return_types", "n_fields": len(fields)}  # fmt: skip
    for i, f in enumerate(fields):
        namespace[f] = property(lambda self, i=i: self[i], doc=f"The {f} of the result.")
    return type(name, (tuple,), namespace)
