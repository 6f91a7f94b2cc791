"""``nn.factory_kwargs``: the device/dtype/memory_format keywords a module passes on to factories."""

__all__ = ["factory_kwargs"]

_SIMPLE_KEYS = ("device", "dtype", "memory_format")


def factory_kwargs(kwargs):
    """The canonical factory keywords in ``kwargs`` (its ``factory_kwargs`` dict merged with its own
    ``device``/``dtype``/``memory_format``), as ``torch.nn.factory_kwargs``; any other key, or a key
    given both ways, is a TypeError.

    >>> import yaten
    >>> yaten.nn.factory_kwargs({"dtype": yaten.float64, "factory_kwargs": {"device": "cpu"}})
    {'device': 'cpu', 'dtype': yaten.float64}
    >>> yaten.nn.factory_kwargs({"bias": True})
    Traceback (most recent call last):
    TypeError: unexpected kwargs {'bias'}
    """
    if kwargs is None:
        return {}
    expected_keys = {*_SIMPLE_KEYS, "factory_kwargs"}
    if not kwargs.keys() <= expected_keys:
        raise TypeError(f"unexpected kwargs {kwargs.keys() - expected_keys}")
    r = dict(kwargs.get("factory_kwargs", {}))  # a copy: the caller's dict is left untouched
    for k in _SIMPLE_KEYS:
        if k in kwargs:
            if k in r:
                raise TypeError(f"{k} specified twice, in **kwargs and in factory_kwargs")
            r[k] = kwargs[k]
    return r
