"""Turning a generated scalar function into a NumPy ufunc for one dtype signature (Numba)."""

import numba


def build_ufunc(fn, ret: str, arg_types: list):
    """A ufunc computing ``fn`` elementwise with exactly the loop ``ret(arg_types...)``.

    Compiled code is cached on disk next to the generated module, so later processes only load it.
    """
    sig = f"{ret}({', '.join(arg_types)})"
    return numba.vectorize([sig], cache=True)(fn).ufunc
