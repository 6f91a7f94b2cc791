"""Wires the generated namespace functions and the hand-written bindings into the package."""


def install(namespace: dict) -> None:
    # functional: torch.functional's varargs forms
    from . import _factories, _multinomial, _random, _ranges, _sampling, _tensor_kind, _unique, functional
    from ._generated import functions

    for name in functions.__all__:
        namespace[name] = getattr(functions, name)
    from .sparse import _factory as _sparse_factory

    for mod in (_factories, _ranges, _random, _multinomial, _sampling, _unique, functional, _tensor_kind,
                _sparse_factory):  # fmt: skip
        for name in mod.__all__:
            namespace[name] = getattr(mod, name)
    from . import (  # noqa: F401 - attach operators, expose subpackages
        _complex_attributes,
        _conversions,
        _indexing,
        _operators,
        _python_map,
        _random_fills,
        autograd,
        cuda,
    )

    namespace["autograd"] = autograd
    namespace["cuda"] = cuda


def install_module(namespace: dict, module: str) -> None:
    """Binds the spec's ``python_module: <module>`` functions in a submodule's namespace under their
    torch names (``fft_rfft`` as ``yaten.fft.rfft``) and lists them in its ``__all__``."""
    from ._generated import functions

    names = functions.MODULES.get(module, {})
    for name, binding in names.items():
        namespace[name] = getattr(functions, binding)
    namespace["__all__"] = sorted(names)
