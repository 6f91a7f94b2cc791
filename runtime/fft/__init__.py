"""yaten.fft: discrete Fourier transforms and their helpers, as ``torch.fft``.

The functions are the spec's ``python_module: fft`` entries (``fft_fftfreq`` is ``yaten.fft.fftfreq``),
bound here from the generated namespace.

>>> import yaten
>>> yaten.fft.fftshift(yaten.fft.fftfreq(4))
tensor([-0.5000, -0.2500,  0.0000,  0.2500])
"""

from .._install import install_module

install_module(globals(), "fft")
del install_module
