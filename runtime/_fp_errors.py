"""Kernels compute inf and NaN silently, as PyTorch's do: NumPy's floating-point warnings never
reach the user ("divide by zero encountered in log"), not even under ``simplefilter("error")``.

NumPy reports a loop's floating-point errors as its error state says (``np.errstate``), a context
variable: the state is per thread and per asyncio task, and it is the user's too. So it is set for
the duration of a kernel only, never for the process (``np.seterr`` would change the user's own
NumPy). ``np.errstate(all="ignore")`` builds its state object on every entry (about 2 us, more than
a small op's whole loop); ``quiet`` sets one state built once, the same context-variable step that
``np.errstate.__enter__`` takes, for a fraction of that.
"""

from numpy._core._ufunc_config import _extobj_contextvar as _extobj
from numpy._core._ufunc_config import _make_extobj

_IGNORE = _make_extobj(all="ignore")


def quiet(fn):
    """``fn`` to be run with NumPy's floating-point errors ignored: every cpu kernel is called
    through one (the generated dispatch tables and ``PointwiseOp`` wrap them), so no kernel needs
    its own. (A closure: a class's ``__call__`` would cost twice as much per call.)

    >>> import numpy as np, warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error")
    ...     quiet(np.log)(np.zeros(1))
    array([-inf])
    """

    def run(*args, **kwargs):
        token = _extobj.set(_IGNORE)
        try:
            return fn(*args, **kwargs)
        finally:
            _extobj.reset(token)

    return run
