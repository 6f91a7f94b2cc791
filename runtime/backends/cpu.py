"""torch.backends.cpu: the CPU's vector capability, read from NumPy's CPU feature detection.

>>> import yaten
>>> yaten.backends.cpu.get_cpu_capability() in ("DEFAULT", "AVX2", "AVX512", "SVE256", "ZVECTOR", "VSX")
True
"""

import platform

__all__ = ["get_cpu_capability"]


def _features() -> dict:
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:  # NumPy 1.x
        from numpy.core._multiarray_umath import __cpu_features__
    return __cpu_features__


def get_cpu_capability() -> str:
    """The widest vector instruction set the CPU has, as torch names it: ``"AVX512"``, ``"AVX2"`` (x86),
    ``"SVE256"`` (ARM with 256-bit SVE), ``"ZVECTOR"``, ``"VSX"``, else ``"DEFAULT"``."""
    features = _features()
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64", "i386", "i686"):
        if all(features.get(f) for f in ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ")):
            return "AVX512"
        return "AVX2" if features.get("AVX2") and features.get("FMA3") else "DEFAULT"
    if machine == "s390x":
        return "ZVECTOR" if features.get("VX") else "DEFAULT"
    if machine.startswith("ppc64"):
        return "VSX" if features.get("VSX") else "DEFAULT"
    return "DEFAULT"
