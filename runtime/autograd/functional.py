"""Higher-level autograd over whole functions: jacobian, hessian, vjp, jvp, hvp, vhp.

As ``torch.autograd.functional``: every function is built on ``autograd.grad``. ``jvp`` and ``hvp`` use
the double-backward trick (the backward of a backward is linear in its ``grad_outputs``), so they need
the function to be twice (``hvp``: three times) differentiable through yaten's formulas.

Results mirror the structure of the arguments: a single Tensor where ``inputs`` (or the outputs of
``func``) was a Tensor, a tuple where it was a tuple, a tuple of tuples for a Jacobian of several
outputs by several inputs; entry ``[i][j]`` has shape ``outputs[i].shape + inputs[j].shape``.
"""

from .. import _tensor as T
from .grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

_STRATEGIES = ("forward-mode", "reverse-mode")


# --- argument handling (the checks and messages of torch.autograd.functional) ---------------------------
def _as_tuple(inp, arg_name: str, fn_name: str):
    """``(was_tuple, tuple_of_tensors)``; anything but a Tensor or a tuple of Tensors is a TypeError."""
    is_tuple = isinstance(inp, tuple)
    if not is_tuple:
        inp = (inp,)
    for i, el in enumerate(inp):
        if not isinstance(el, T.Tensor):
            where = f"the value at index {i}" if is_tuple else f"the given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but {where} "
                f"has type {type(el)}."
            )
    return is_tuple, inp


def _tuple_postprocess(res, to_unpack):
    """Undo ``_as_tuple``: unwrap one level per argument that was a single Tensor.

    ``to_unpack`` is one flag (one level of nesting) or ``(outer, inner)`` flags for a tuple of tuples.
    """
    if isinstance(to_unpack, tuple):
        outer, inner = to_unpack
        if not inner:
            res = tuple(el[0] for el in res)
        if not outer:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs, create_graph: bool, need_graph: bool):
    """New tensor objects for the inputs, so the inputs given as arguments differ from the same tensors
    captured by ``func`` from its closure. With ``create_graph`` an input that requires grad stays
    connected to its graph (through a view); otherwise it is detached and made a fresh leaf.
    """
    res = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            res.append(inp.view(inp.shape))
        else:
            res.append(inp.detach().requires_grad_(need_graph))
    return tuple(res)


def _grad_postprocess(inputs, create_graph: bool):
    """Detach the results (recursively through tuples) unless the caller asked for a graph."""
    if isinstance(inputs[0], T.Tensor):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v, other, is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(
                f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}."
            )


def _check_requires_grad(inputs, input_type: str, strict: bool) -> None:
    """In strict mode, every tensor of ``inputs`` must exist and require grad (else a RuntimeError)."""
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:  # only grad_inputs can be None
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This is not allowed in "
                "strict mode."
            )
        if inp.requires_grad:
            continue
        if input_type == "hessian":
            raise RuntimeError(
                f"The hessian of the user-provided function with respect to input {i} is independent of the "
                "input. This is not allowed in strict mode. You should ensure that your function is thrice "
                "differentiable and that the hessian depends on the inputs."
            )
        if input_type == "jacobian":
            raise RuntimeError(
                "While computing the hessian, found that the jacobian of the user-provided function with "
                f"respect to input {i} is independent of the input. This is not allowed in strict mode. You "
                "should ensure that your function is twice differentiable and that the jacobian depends on "
                "the inputs (this would be violated by a linear function for example)."
            )
        if input_type == "grad_inputs":
            raise RuntimeError(
                f"The gradient with respect to input {i} is independent of the inputs of the user-provided "
                "function. This is not allowed in strict mode."
            )
        raise RuntimeError(
            f"Output {i} of the user-provided function does not require gradients. The outputs must be "
            "computed in a differentiable manner from the input when running in strict mode."
        )


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` that skips outputs which are None or need no grad (their gradient is None)."""
    from . import grad

    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return grad(
        tuple(o for o, _ in kept),
        inputs,
        tuple(g for _, g in kept),
        allow_unused=True,
        create_graph=create_graph,
        retain_graph=retain_graph,
    )


_FILL_ERRORS = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in "
    "strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs "
    "when using the double backward trick to compute forward mode gradients. This is not allowed in strict "
    "mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not "
    "allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
    "grad_jacobian. This is not allowed in strict mode as it prevents from using the double backward trick "
    "to replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict: bool, create_graph: bool, stage: str):
    """Zeros (shaped as ``refs[i]``) for the gradients that are None, or the strict-mode error."""
    from .. import zeros_like

    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_FILL_ERRORS[stage].format(i=i))
            g = zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This is not allowed "
                "in strict mode when create_graph=True."
            )
        res.append(g)
    return tuple(res)


def _v_or_default(v, inputs, is_inputs_tuple, fn_name, create_graph, none_message):
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
        _validate_v(v, inputs, is_inputs_tuple)
        return v
    if len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError(none_message)
    return None


_V_NONE_INPUT = (
    "The vector v can only be None if the input to the user-provided function is a single Tensor with a "
    "single element."
)


def _single_scalar_output(outputs, is_outputs_tuple, fn_name: str) -> None:
    if is_outputs_tuple or not isinstance(outputs[0], T.Tensor):
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn_name} should contain a single element"
        )


# --- public API ---------------------------------------------------------------------------------------
def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``func(*inputs)`` and the vector-Jacobian product ``v^T J`` (shaped as the inputs).

    ``v`` matches the outputs of ``func``; it may be left out when ``func`` returns one single-element
    Tensor. ``strict=True`` raises where an input has no effect on the outputs instead of returning
    zeros; ``create_graph=True`` keeps both results differentiable.

    >>> import yaten
    >>> from yaten.autograd.functional import vjp
    >>> x = yaten.tensor([1.0, 2.0])
    >>> vjp(lambda x: x ** 2, x, yaten.tensor([1.0, 10.0]))
    (tensor([1., 4.]), tensor([ 2., 40.]))
    >>> vjp(lambda x, y: (x * y).sum(), (x, yaten.tensor([3.0, 4.0])))
    (tensor(11.), (tensor([3., 4.]), tensor([1., 2.])))
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, outputs, is_outputs_tuple)
        elif len(outputs) != 1 or outputs[0].nelement() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function returns a single Tensor with a "
                "single element."
            )
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "back")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``func(*inputs)`` and the Jacobian-vector product ``J v`` (shaped as the outputs).

    Computed, as PyTorch does, with the double-backward trick: the gradient of ``grad(out, x, u)`` with
    respect to the dummy ``u`` in direction ``v`` is ``J v``. ``v`` matches the inputs; it may be left
    out when the input is one single-element Tensor.

    >>> import yaten
    >>> from yaten.autograd.functional import jvp
    >>> x = yaten.tensor([1.0, 2.0])
    >>> jvp(lambda x: x ** 2, x, yaten.tensor([1.0, 10.0]))
    (tensor([1., 4.]), tensor([ 2., 40.]))
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _v_or_default(v, inputs, is_inputs_tuple, "jvp", create_graph, _V_NONE_INPUT)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        # The backward is linear in grad_outputs, so their value never reaches the result; zeros keep
        # inf and nan out of the double-backward graph.
        from .. import zeros_like

        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_outputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: entry ``[i][j]`` has shape ``out_i.shape + in_j.shape``.

    A single Tensor when both ``inputs`` and the output of ``func`` are single Tensors, a tuple when one
    of them is a tuple, a tuple (per output) of tuples (per input) when both are. Rows are computed with
    one ``autograd.grad`` per output element. ``vectorize=True`` is accepted for PyTorch compatibility
    and computes the same result row by row (yaten has no vmap); it keeps PyTorch's rule that it cannot
    be combined with ``strict=True``. ``strategy="forward-mode"`` needs forward-mode AD, which yaten
    does not have: it raises NotImplementedError (after PyTorch's own argument checks).

    >>> import yaten
    >>> from yaten.autograd.functional import jacobian
    >>> jacobian(lambda x: x ** 2, yaten.tensor([1.0, 2.0]))
    tensor([[2., 0.],
            [0., 4.]])
    >>> jx, jy = jacobian(lambda x, y: x * y, (yaten.tensor([1.0, 2.0]), yaten.tensor([3.0, 4.0])))
    >>> jy
    tensor([[1., 0.],
            [0., 2.]])
    """
    if strategy not in _STRATEGIES:
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more '
            'outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use '
            '"reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                'yaten.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-mode"` are '
                'not supported together (yet). Please either set `create_graph=False` or `strategy="reverse-mode"`.'
            )
        return _jacfwd(func, inputs, strict, vectorize)

    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if vectorize and strict:
            raise RuntimeError(
                "yaten.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported "
                "together. Please either set `strict=False` or `vectorize=False`."
            )
        jac = tuple(
            _jacobian_rows(out, i, inputs, create_graph, strict, vectorize) for i, out in enumerate(outputs)
        )
        jac = _grad_postprocess(jac, create_graph)
        return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def _jacobian_rows(out, i, inputs, create_graph, strict, vectorize):
    """The Jacobians of output ``out`` (number ``i``) with respect to each input, one row per element."""
    from .. import stack, zeros, zeros_like

    if vectorize and out.nelement() == 0:
        # PyTorch's vmap path gives an empty Jacobian here (it raises IndexError only when every output
        # is empty, an artefact of its basis construction); its row loop (below) fails in stack().
        return tuple(zeros(out.shape + inp.shape, dtype=inp.dtype, device=inp.device) for inp in inputs)
    rows = tuple([] for _ in inputs)
    flat = out.reshape(-1)
    for j in range(out.nelement()):
        vj = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
        for k, (rows_k, g, inp) in enumerate(zip(rows, vj, inputs)):
            if g is not None:
                if strict and create_graph and not g.requires_grad:
                    raise RuntimeError(
                        f"The jacobian of the user-provided function is independent of input {i}. This is not "
                        "allowed in strict mode when create_graph=True."
                    )
                rows_k.append(g)
            else:
                if strict:
                    raise RuntimeError(
                        f"Output {i} of the user-provided function is independent of input {k}. This is not "
                        "allowed in strict mode."
                    )
                rows_k.append(zeros_like(inp))
    return tuple(stack(rows_k, dim=0).view(out.size() + inp.size()) for rows_k, inp in zip(rows, inputs))


def _jacfwd(func, inputs, strict, vectorize):
    if strict:
        raise RuntimeError(
            'yaten.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not '
            'supported together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.'
        )
    _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        # PyTorch's message, missing space included.
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly implemented for "
            "`vectorize=True`."
        )
    raise NotImplementedError(
        'yaten has no forward-mode AD, so jacobian(strategy="forward-mode") and '
        'hessian(outer_jacobian_strategy="forward-mode") are not supported; use the default '
        '"reverse-mode", which gives the same values.'
    )


def hessian(
    func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"
):
    """The Hessian of the scalar function ``func`` at ``inputs`` (the Jacobian of its gradient).

    A single Tensor of shape ``x.shape + x.shape`` for a single input, else a tuple of tuples where
    ``[i][j]`` has shape ``inputs[i].shape + inputs[j].shape``. ``func`` must return one single-element
    Tensor. ``vectorize`` and ``outer_jacobian_strategy`` apply to the outer Jacobian, as in ``jacobian``.

    >>> import yaten
    >>> from yaten.autograd.functional import hessian
    >>> hessian(lambda x: (x ** 3).sum(), yaten.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in _STRATEGIES:
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        _single_scalar_output(t_out, is_out_tuple, "hessian")
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(
        jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )  # fmt: skip
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``func(*inputs)`` and the vector-Hessian product ``v^T H`` of the scalar function ``func``.

    >>> import yaten
    >>> from yaten.autograd.functional import vhp
    >>> vhp(lambda x: (x ** 3).sum(), yaten.tensor([1.0, 2.0]), yaten.tensor([1.0, 1.0]))
    (tensor(9.), tensor([ 6., 12.]))
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _v_or_default(v, inputs, is_inputs_tuple, "vhp", create_graph, _V_NONE_INPUT)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vhp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        _single_scalar_output(outputs, is_outputs_tuple, "vhp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``func(*inputs)`` and the Hessian-vector product ``H v`` of the scalar function ``func``.

    Uses the double-backward trick on top of a double backward (``func`` is differentiated three
    times); for a twice continuously differentiable ``func`` ``vhp`` gives the same values faster.

    >>> import yaten
    >>> from yaten.autograd.functional import hvp
    >>> x, y = yaten.tensor([1.0, 2.0]), yaten.tensor([3.0, 4.0])
    >>> hvp(lambda x, y: (x * y).sum(), (x, y), (yaten.ones(2), yaten.zeros(2)))
    (tensor(11.), (tensor([0., 0.]), tensor([1., 1.])))
    """
    from .. import zeros_like

    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _v_or_default(v, inputs, is_inputs_tuple, "hvp", create_graph, _V_NONE_INPUT)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "hvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        _single_scalar_output(outputs, is_outputs_tuple, "hvp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        grad_jac = tuple(zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        # PyTorch checks `jac` again here (not `double_back`); kept so strict mode raises where it does.
        _check_requires_grad(jac, "hessian", strict=strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)
