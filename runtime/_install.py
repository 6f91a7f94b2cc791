"""Wires the generated layer into the package: namespace functions and Tensor methods."""


def install(namespace: dict) -> None:
    from . import _factories, _random
    from ._generated import functions, methods
    from ._tensor import Tensor

    for name in functions.__all__:
        namespace[name] = getattr(functions, name)
    for name, fn in vars(methods.TensorMethods).items():
        if callable(fn) and not name.startswith("__"):
            setattr(Tensor, name, fn)
    for mod in (_factories, _random):
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
