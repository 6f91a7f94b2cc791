"""yaten.autograd: reverse-mode differentiation (``backward``, ``grad``) over the Node graph."""

import numpy as np

from .. import _tensor as T
from .._backend import backend
from .anomaly_mode import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly
from .engine import run_backward
from .function import Function
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)  # fmt: skip
from .gradcheck import gradcheck, gradgradcheck  # GradcheckError: yaten.autograd.gradcheck, as PyTorch
from .node import Node, gradient_edge

__all__ = [
    "Function",
    "Node",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "inference_mode",
    "is_anomaly_check_nan_enabled",
    "is_anomaly_enabled",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "no_grad",
    "set_detect_anomaly",
    "set_grad_enabled",
]


def _as_tuple(x):
    if x is None:
        return ()
    return (x,) if isinstance(x, T.Tensor) else tuple(x)


def _root_grads(outputs, grad_outputs, create_graph: bool):
    grads = list(_as_tuple(grad_outputs)) if grad_outputs is not None else [None] * len(outputs)
    if len(grads) != len(outputs):
        raise RuntimeError("grad can be implicitly created only for scalar outputs")
    out = []
    for i, (o, g) in enumerate(zip(outputs, grads)):
        if not o._rg:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        if g is None:
            if o._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = T.wrap(backend(o._device).from_host(np.ones(o._data.shape, o._dtype.np)), o._device)
        elif isinstance(g, T.Tensor):
            if g.shape != o.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] has a shape "
                    f"of {o.shape}."
                )
        else:
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        out.append(g)
    return out


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None) -> None:
    """Accumulate the gradient of ``tensors`` into the ``.grad`` of the leaves they depend on.

    >>> import yaten
    >>> x = yaten.tensor([1.0, 2.0], requires_grad=True)
    >>> yaten.autograd.backward((x ** 2).sum())
    >>> x.grad
    tensor([2., 4.])
    """
    outputs = _as_tuple(tensors)
    if retain_graph is None:
        retain_graph = create_graph
    grads = _root_grads(outputs, grad_tensors, create_graph)
    roots = [gradient_edge(o) for o in outputs]
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            if not t._rg:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        edges = [gradient_edge(t) for t in inputs]
        captured = run_backward(roots, grads, retain_graph, create_graph, capture=edges)
        from .accumulate import accumulate_grad

        for t, g in zip(inputs, captured):
            accumulate_grad(t, g)
        return
    run_backward(roots, grads, retain_graph, create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None,
         is_grads_batched=False, materialize_grads=False):  # fmt: skip
    """The gradients of ``outputs`` with respect to ``inputs``, returned rather than accumulated.

    >>> import yaten
    >>> x = yaten.tensor(3.0, requires_grad=True)
    >>> yaten.autograd.grad(x ** 2, x)
    (tensor(6.),)
    """
    outputs = _as_tuple(outputs)
    inputs_t = _as_tuple(inputs)
    if not inputs_t:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False."
        )
    if is_grads_batched:
        raise NotImplementedError("autograd.grad(is_grads_batched=True) is not supported by yaten")
    if retain_graph is None:
        retain_graph = create_graph
    for t in inputs_t:
        if not t._rg:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grads = _root_grads(outputs, grad_outputs, create_graph)
    roots = [gradient_edge(o) for o in outputs]
    edges = [gradient_edge(t) for t in inputs_t]
    result = run_backward(roots, grads, retain_graph, create_graph, capture=edges)
    for i, g in enumerate(result):
        if g is None:
            if materialize_grads:
                from .. import zeros_like

                result[i] = zeros_like(inputs_t[i])
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
    return tuple(result)


def __getattr__(name: str):
    # autograd.functional and autograd.graph (with to_dot) load on first use: ``import yaten`` stays fast.
    if name in ("functional", "graph"):
        import importlib

        return importlib.import_module(f"yaten.autograd.{name}")
    raise AttributeError(f"module 'yaten.autograd' has no attribute '{name}'")
