"""The docstring examples of the CUDA kernel modules, run on the device (the simulator without a GPU);
tests/runtime/test_doctests.py runs every other module's."""

import doctest
import importlib
import pkgutil

import pytest

import yaten
import yaten.kernels.cuda

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

MODULES = [info.name for info in pkgutil.iter_modules(yaten.kernels.cuda.__path__, "yaten.kernels.cuda.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
