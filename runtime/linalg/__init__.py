"""yaten.linalg: linear algebra, as ``torch.linalg``.

The functions are the spec's ``python_module: linalg`` entries (``linalg_solve`` is
``yaten.linalg.solve``), bound here from the generated namespace. The decompositions and solvers run on
NumPy's LAPACK (``kernels/cpu/lapack.py``); a singular or non-positive-definite input raises
``LinAlgError``, a RuntimeError.

>>> import yaten
>>> yaten.linalg.solve(yaten.tensor([[2.0, 0.0], [0.0, 4.0]]), yaten.tensor([2.0, 2.0]))
tensor([1.0000, 0.5000])
>>> yaten.linalg.inv(yaten.tensor([[1.0, 2.0], [2.0, 4.0]]))
Traceback (most recent call last):
...
yaten.linalg.LinAlgError: linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular.
"""

from .._install import install_module
from ..kernels.cpu.lapack import LinAlgError

install_module(globals(), "linalg")
__all__ = [*__all__, "LinAlgError"]  # noqa: F821 - install_module set it
del install_module
