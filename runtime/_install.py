"""Wires the generated namespace functions and the hand-written bindings into the package."""


def install(namespace: dict) -> None:
    from . import _factories, _random, _ranges
    from ._generated import functions

    for name in functions.__all__:
        namespace[name] = getattr(functions, name)
    for mod in (_factories, _ranges, _random):
        for name in mod.__all__:
            namespace[name] = getattr(mod, name)
    from . import (  # noqa: F401 - attach operators, expose subpackages
        _conversions,
        _indexing,
        _operators,
        autograd,
        cuda,
    )

    namespace["autograd"] = autograd
    namespace["cuda"] = cuda
