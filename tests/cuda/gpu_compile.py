"""The tests' shared check that CUDA kernels compile for a real GPU on a machine without one.

A child process without the simulator tells Numba the current device is an sm_90 (an H100) and
compiles kernels to PTX through NVVM, which needs no driver; the check skips where NVVM (the CUDA
toolkit's compiler library) is not installed. Each test file passes the body that compiles its own
kernels, which may use ``np``, ``cuda``, ``from_dtype`` and ``nt`` (numba.types).
"""

import os
import subprocess
import sys
import textwrap

import pytest

_PREAMBLE = """
import sys
from numba.cuda.cudadrv import nvvm
if not nvvm.is_available():
    print("NVVM not found"); sys.exit(3)
import numba.cuda.compiler, numba.cuda.dispatcher
class _Device:
    compute_capability = (9, 0)
numba.cuda.compiler.get_current_device = numba.cuda.dispatcher.get_current_device = lambda: _Device()
import numpy as np
from numba import cuda, from_dtype, types as nt
"""


def compiles_for_a_gpu(body: str, *argv: str) -> None:
    """Run ``body`` after the preamble in a child process; it must end without error."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    code = _PREAMBLE + textwrap.dedent(body) + '\nprint("ok")\n'
    p = subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    if p.returncode == 3:
        pytest.skip("NVVM (the CUDA toolkit's compiler library) is not installed")
    assert p.returncode == 0 and p.stdout.strip().endswith("ok"), p.stderr[-3000:]
