"""The docstring examples of the public runtime run as doctests (imported as ``yaten.*`` modules)."""

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import yaten


def _modules():
    names = ["yaten"]
    for info in pkgutil.walk_packages(yaten.__path__, "yaten."):
        if ".kernels.cuda" in info.name or info.name.startswith("yaten._generated"):
            continue  # cuda kernels need the simulator (tests/cuda); generated code has no examples
        if (
            info.name.startswith("yaten.utils.tensorboard")
            and importlib.util.find_spec("tensorboard") is None
        ):
            continue  # an optional extra; tests/namespaces/test_tensorboard.py checks the import error
        names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
