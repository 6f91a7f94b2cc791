"""yaten.backends: ``torch.backends``' flags and answers about this machine's libraries (``cuda``,
``cudnn``, ``mps``, ``cpu``, ``mkl``, ``mkldnn``, ``openmp``, ``opt_einsum``), with torch's defaults.
Each flag is settable and checked as torch checks it; each ``is_available()`` says what yaten really
runs on (never cuDNN, oneDNN or Metal: its kernels are NumPy, Numba and numba.cuda).

>>> import yaten
>>> yaten.backends.cudnn.deterministic = True
>>> yaten.backends.cudnn.deterministic
True
>>> yaten.backends.cudnn.deterministic = False
"""

from . import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp, opt_einsum

__all__ = ["cpu", "cuda", "cudnn", "mkl", "mkldnn", "mps", "openmp", "opt_einsum"]
