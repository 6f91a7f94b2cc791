"""yaten.compiler: ``torch.compiler``'s controls around ``compile`` (``disable``, ``is_compiling``,
``reset``, ``list_backends``, ...). yaten runs compiled code eagerly, so nothing is ever compiling.

>>> import yaten
>>> yaten.compiler.is_compiling()
False
"""

from .._compile import compile
from .._dynamo import allow_in_graph, assume_constant_result, disable, list_backends, reset

__all__ = ["allow_in_graph", "assume_constant_result", "compile", "cudagraph_mark_step_begin", "disable",
           "get_default_backend", "is_compiling", "is_dynamo_compiling", "is_exporting", "list_backends",
           "reset", "set_stance"]  # fmt: skip


def is_compiling() -> bool:
    """Whether the code runs under the compiler's tracing: never, in yaten."""
    return False


def is_dynamo_compiling() -> bool:
    """Whether dynamo traces this code: never, in yaten."""
    return False


def is_exporting() -> bool:
    """Whether ``torch.export`` traces this code: never, in yaten."""
    return False


def get_default_backend() -> str:
    """The backend ``compile`` uses by default.

    >>> import yaten
    >>> yaten.compiler.get_default_backend()
    'inductor'
    """
    return "inductor"


def cudagraph_mark_step_begin() -> None:
    """Mark the start of a CUDA-graph step (yaten records no CUDA graphs)."""


def set_stance(stance="default", *, skip_guard_eval_unsafe=False, force_backend=None) -> None:
    """Set how compiled code behaves (``"force_eager"``, ...): compiled code always runs eagerly here.

    >>> import yaten
    >>> yaten.compiler.set_stance("force_eager")
    """
