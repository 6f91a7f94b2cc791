"""The history of views: rebased when they are written in place, regenerated when they went stale.

After an in-place op on a view, its base's history becomes a CopySlices node, and any view of that
base whose storage changed since it was recorded gets, when next used, a fresh history: an
``as_strided`` of the base (PyTorch's AsStridedBackward0).
"""

from .grad_mode import enable_grad


def rebase_view(view, fn) -> None:
    """After in-place op ``fn`` (already connected to ``view``'s old history) wrote into ``view``."""
    from .copy_slices import CopySlices
    from .record import set_history

    base = view._base
    set_history(base, CopySlices(base, view, fn))
    regenerate(view)


def refresh_view(view) -> None:
    """Regenerate ``view``'s history if its storage changed in place since it was recorded (through
    the base or another view): its gradient must then flow through the base's newest history."""
    recorded = view._view_version
    if recorded is not None and recorded != view._vc[0] and (view._grad_fn is not None or view._base._rg):
        if getattr(view, "_custom_view", None) is not None:
            from .record import custom_view_error

            raise RuntimeError(
                custom_view_error(view, "its base or another view of its base has been modified inplace")
            )
        regenerate(view)


def regenerate(view) -> None:
    """Give ``view`` a fresh history from its base: an ``as_strided`` node over the base's grad_fn."""
    from .._generated import ops

    base = view._base
    with enable_grad():
        fresh = ops.as_strided(base, list(view.shape), list(view.stride()), view.storage_offset())
    view._grad_fn = fresh._grad_fn
    view._rg = fresh._rg
    view._output_nr = 0
    view._view_version = view._vc[0]
