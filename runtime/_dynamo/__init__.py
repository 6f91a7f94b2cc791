"""yaten._dynamo: the pieces of ``torch._dynamo`` that programs touch around ``torch.compile``
(``config``, ``reset``, ``disable``, ``mark_dynamic``, ``list_backends``, ...). yaten has no graph
compiler (``yaten.compile`` returns code that runs eagerly), so these record or return what torch's
would where there is nothing to compile.

>>> import yaten._dynamo
>>> yaten._dynamo.is_compiling()
False
>>> yaten._dynamo.reset()
"""

from . import config, exc
from .backends import list_backends
from .eval_frame import OptimizedModule

__all__ = ["OptimizedModule", "allow_in_graph", "assume_constant_result", "config", "disable", "exc",
           "graph_break", "is_compiling", "list_backends", "mark_dynamic", "mark_static",
           "maybe_mark_dynamic", "reset"]  # fmt: skip


def reset() -> None:
    """Clear the compiler's caches: there are none."""


def is_compiling() -> bool:
    """Whether the code runs inside the compiler's tracing: never, in yaten."""
    return False


def disable(fn=None, recursive=True, *, reason=None, wrapping=True):
    """Keep ``fn`` out of compilation (also as ``@disable(recursive=False)``): ``fn`` itself.

    >>> import yaten._dynamo
    >>> yaten._dynamo.disable(abs)(-2)
    2
    """
    if fn is None:
        return lambda f: f
    return fn


def allow_in_graph(fn):
    """Let the compiler put ``fn`` in its graph as one call: ``fn`` itself."""
    return fn


def assume_constant_result(fn):
    """Let the compiler treat ``fn``'s result as a constant: ``fn`` itself."""
    return fn


def graph_break() -> None:
    """Force a graph break at this point (nothing to break in eager code)."""


def mark_dynamic(t, index, *, hint_override=None, min=None, max=None, specialize_on=None) -> None:
    """Mark dimension(s) ``index`` of ``t`` as dynamic for the compiler: recorded on the tensor.

    >>> import yaten, yaten._dynamo
    >>> t = yaten.ones(2, 3)
    >>> yaten._dynamo.mark_dynamic(t, 0)
    >>> t._dynamo_dynamic_indices
    {0}
    """
    indices = index if isinstance(index, (list, tuple)) else [index]
    for i in indices:
        if not -t.dim() <= i < t.dim():
            raise IndexError(f"Dimension out of range (expected to be in range of [{-t.dim()}, {t.dim() - 1}], "
                             f"but got {i})")  # fmt: skip
    t._dynamo_dynamic_indices = getattr(t, "_dynamo_dynamic_indices", set()) | {i % t.dim() for i in indices}


def maybe_mark_dynamic(t, index) -> None:
    """Like ``mark_dynamic``, as a hint."""
    mark_dynamic(t, index)


def mark_static(t, index=None) -> None:
    """Mark ``t`` (or its dimension ``index``) as static for the compiler; nothing to record eagerly."""
