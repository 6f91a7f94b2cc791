"""``yaten.compile``: torch.compile's interface, checked as torch checks it, over eager execution.

yaten has no graph compiler yet. ``compile(fn)`` returns ``fn`` and ``compile(module)`` an
``OptimizedModule`` (torch's wrapper type: ``_orig_mod``, ``_orig_mod.``-prefixed ``state_dict`` keys,
attribute access passed through), so a program written for ``torch.compile`` runs and saves
checkpoints as under torch, with eager speed. ``Module.compile()`` is the in-place form.
"""

__all__ = ["compile"]

_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


def _check(model, dynamic, backend, mode, options) -> None:
    if model is not None and not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if dynamic is not None and not isinstance(dynamic, bool):
        raise AssertionError(f"Expected enable to be a bool, got {type(dynamic)}")
    if mode is not None and options is not None:
        raise RuntimeError(
            "Either mode or options can be specified, but both can't be specified at the same time."
        )
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if isinstance(backend, str):
        from ._dynamo.backends import list_backends
        from ._dynamo.exc import InvalidBackend

        if backend not in list_backends(exclude_tags=()):
            raise InvalidBackend(name=backend)


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None, name=None,
            disable=False, recompile_limit=None, isolate_recompiles=False, shapes_spec=None):  # fmt: skip
    """Compile a function or module: the function itself, or the module in an ``OptimizedModule``. With
    no model it is a decorator (``@compile(mode="max-autotune")``). torch's keyword arguments are
    accepted; an unknown ``mode`` or ``backend`` is torch's error.

    >>> import yaten
    >>> @yaten.compile
    ... def f(x):
    ...     return x * 2
    >>> f(yaten.ones(2)).tolist()
    [2.0, 2.0]
    >>> type(yaten.compile(yaten.nn.ReLU())).__name__
    'OptimizedModule'
    """
    _check(model, dynamic, backend, mode, options)
    if model is None:

        def fn(model):
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                           options=options, name=name, disable=disable)  # fmt: skip

        return fn
    if disable:
        return model
    from .nn import Module

    if isinstance(model, Module):
        from ._dynamo.eval_frame import OptimizedModule

        return OptimizedModule(model)
    return model
