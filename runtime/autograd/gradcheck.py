"""gradcheck / gradgradcheck: analytical gradients against central finite differences, as
``torch.autograd.gradcheck``.

The checker follows PyTorch's steps and messages: input checks, the Jacobian of every differentiable
output with respect to every input that requires grad (slow mode, element by element) or one random
projection of it (``fast_mode``), a second backward to catch non-reentrant formulas, a zero
``grad_output`` that must give zero gradients, and undefined (``None``) output gradients that every
backward must accept. Jacobians are NumPy arrays: this is a test tool, not an op.

A complex tensor counts as its real coordinates (real and imaginary part of each element, in that
order), as torch's gradcheck splits it: the numerical Jacobian perturbs each part by ``eps``, and
the analytical one backpropagates a grad_output of ``1`` (the real part's row) and ``1j`` (the
imaginary part's), which under PyTorch's convention (``grad = dL/dRe + 1j * dL/dIm`` of the real
``L = Re(sum(conj(grad_output) * output))``) gives the same matrix.
"""

import warnings

import numpy as np

from .. import _tensor as T
from .._backend import backend
from .node import Node

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised by :func:`gradcheck` and :func:`gradgradcheck` when a check fails."""


FAILED_NONDET_MSG = """

NOTE: If your op relies on non-deterministic operations, this failure might be expected: call
gradcheck/gradgradcheck with `nondet_tol=<tol>` as a keyword argument.
"""

FAST_FAIL_SLOW_OK_MSG = (
    "Fast gradcheck failed but element-wise differences are small. This means that the test might've "
    "passed in slow_mode! Call gradcheck/gradgradcheck with `fast_mode=False` as a keyword argument."
)


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _is_tensor(x) -> bool:
    return isinstance(x, T.Tensor)


def _differentiable_outputs(out) -> tuple:
    return tuple(o for o in _as_tuple(out) if _is_tensor(o) and o._rg)


def _inexact(t) -> bool:
    return t._dtype.is_floating_point or t._dtype.is_complex


def _float_outputs(out) -> list:
    """The outputs a numerical Jacobian is taken of (floating or complex tensors, whether or not they
    require grad)."""
    return [o for o in _as_tuple(out) if _is_tensor(o) and _inexact(o)]


def _real_numel(t) -> int:
    """How many real coordinates ``t`` has (two per complex element)."""
    return t.numel() * (2 if t._dtype.is_complex else 1)


def _unsupported(**options) -> None:
    for name, value in options.items():
        if value:
            raise NotImplementedError(
                f"gradcheck({name}=True) is not supported by yaten (it has no "
                f"{'vmap' if 'batched' in name else 'forward-mode AD'}); leave {name}=False"
            )


def _check_inputs(inputs) -> None:
    """PyTorch's checks: a warning for inputs that are not float64, an error for stride-0 dims and
    for no input requiring grad."""
    any_rg = False
    for idx, x in enumerate(inputs):
        if not (_is_tensor(x) and x._rg):
            continue
        if x._dtype.name not in ("float64", "complex128"):
            warnings.warn(
                f"Input #{idx} requires gradient and is not a double precision floating point or complex. "
                "This check will likely fail if all the inputs are not of double precision floating point "
                "or complex. ",
                stacklevel=4,
            )
        if not all(st > 0 or sz <= 1 for st, sz in zip(x.stride(), x.shape)):
            raise RuntimeError(
                f"The {idx}th input has a dimension with stride 0. gradcheck only supports inputs that are "
                "non-overlapping to be able to compute the numerical gradients correctly. You should call "
                ".contiguous on the input before passing it to gradcheck."
            )
        any_rg = True
    if not any_rg:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them have "
            "requires_grad=True."
        )


def _host64(t) -> np.ndarray:
    """``t``'s real coordinates as a flat float64 array in logical (row-major) order; always a copy."""
    host = t.detach()._host()
    if host.dtype.kind == "c":
        return np.stack((host.real, host.imag), axis=-1).astype(np.float64).reshape(-1)
    return np.array(host, dtype=np.float64).reshape(-1)


def _directions(t) -> tuple:
    # The unit steps along one element's real coordinates.
    return (1, 1j) if t._dtype.is_complex else (1,)


def _from_real_coords(a: np.ndarray, t) -> np.ndarray:
    """Flat real coordinates ``a`` as values shaped (and typed: complex or real) like ``t``."""
    if t._dtype.is_complex:
        a = a[0::2] + 1j * a[1::2]
    return a.astype(t._dtype.np).reshape(tuple(t.shape))


def _evaluate(func, inputs) -> list:
    """The flat float outputs of ``func(*inputs)`` (run with the caller's grad mode, as PyTorch does,
    so a ``func`` that differentiates inside, like gradgradcheck's, still works)."""
    return [_host64(o) for o in _float_outputs(func(*inputs))]


class _Perturbed:
    """Element-wise in-place perturbation of an input's own buffer (PyTorch perturbs ``x.data``):
    the version counter is untouched, so graphs recorded before stay valid."""

    def __init__(self, x):
        self.data = x._data
        self.device = x._device

    def get(self, idx):
        if self.device.type == "cpu":
            return self.data[idx]
        return backend(self.device).to_host(self.data)[idx]

    def set(self, idx, value) -> None:
        self.data[idx] = value


def _numerical_jacobian(func, inputs, wrt, eps) -> list:
    """``jac[i][j]``: the (numel of input i, numel of output j) central-difference Jacobian."""
    jac = []
    for i in wrt:
        x = inputs[i]
        p = _Perturbed(x)
        cols = None
        steps = [(idx, d * eps) for idx in np.ndindex(tuple(x.shape)) for d in _directions(x)]
        for k, (idx, step) in enumerate(steps):
            orig = p.get(idx)
            p.set(idx, orig - step)
            minus = _evaluate(func, inputs)
            p.set(idx, orig + step)
            plus = _evaluate(func, inputs)
            p.set(idx, orig)
            if cols is None:
                cols = [np.zeros((len(steps), m.size)) for m in minus]
            for c, a, b in zip(cols, minus, plus):
                if a.size != b.size:
                    raise AssertionError(
                        f"Expected `func` to return outputs with the same shape when inputs are perturbed on "
                        f"index {idx} by {eps}"
                    )
                c[k] = (b - a) / (2 * eps)
        if cols is None:  # an empty input: no columns, but one (0, numel) block per output
            cols = [np.zeros((0, _real_numel(o))) for o in _float_outputs(func(*inputs))]
        jac.append(cols)
    return jac


def _numerical_jvp(func, inputs, i, u, eps) -> list:
    """J u for input ``i`` along direction ``u`` (flat), one flat array per float output."""
    x = inputs[i]
    p = _Perturbed(x)
    if x._device.type != "cpu":
        raise NotImplementedError("gradcheck(fast_mode=True) perturbs cpu inputs only")
    orig = np.array(p.data, copy=True)
    delta = _from_real_coords(u * eps, x)
    p.data[...] = orig - delta
    minus = _evaluate(func, inputs)
    p.data[...] = orig + delta
    plus = _evaluate(func, inputs)
    p.data[...] = orig
    return [(b - a) / (2 * eps) for a, b in zip(minus, plus)]


def _vjp(output, diff_inputs, v):
    import yaten

    return yaten.autograd.grad(output, diff_inputs, v, retain_graph=True, allow_unused=True)


def _stack(rows, diff_inputs, numel_out):
    """Rows of vector-Jacobian products -> one (numel_in, numel_out) matrix per input, and whether every
    gradient had its input's size and dtype."""
    sizes_ok, types_ok = True, True
    mats = []
    for x, col_list in zip(diff_inputs, rows):
        m = np.zeros((_real_numel(x), numel_out))
        for k, g in enumerate(col_list):
            if g is None:
                continue
            if tuple(g.shape) != tuple(x.shape):
                sizes_ok = False
                continue
            if g._dtype is not x._dtype:
                types_ok = False
            coords = _host64(g)
            if g._dtype.is_complex != x._dtype.is_complex:  # a real gradient of a complex input, or back
                coords = _host64(g.to(x._dtype)) if x._dtype.is_complex else coords[0::2]
            m[:, k] = coords
        mats.append(m)
    return mats, sizes_ok, types_ok


def _analytical_rows(output, diff_inputs, vs) -> list:
    """``rows[i][k]``: the gradient for input i of the backward of ``output`` with grad_output ``vs[k]``."""
    rows = [[] for _ in diff_inputs]
    for v in vs:
        for i, g in enumerate(_vjp(output, diff_inputs, v)):
            rows[i].append(None if g is None else g.detach().clone())
    return rows


def _unit_grad_outputs(output) -> list:
    import yaten

    out = []
    n = _real_numel(output)
    for k in range(n):
        unit = np.zeros(n)
        unit[k] = 1
        out.append(yaten.as_tensor(_from_real_coords(unit, output), device=output.device))
    return out


def _analytical_jacobian(output, diff_inputs, vs, numel_out, nondet_tol, check_grad_dtypes) -> list:
    """Backward twice with the same grad_outputs (PyTorch's reentrancy check), then size/dtype checks."""
    jac1, sizes_ok, types_ok = _stack(_analytical_rows(output, diff_inputs, vs), diff_inputs, numel_out)
    jac2, _, _ = _stack(_analytical_rows(output, diff_inputs, vs), diff_inputs, numel_out)
    # as PyTorch's: a NaN difference does not count as non-reentrant
    reentrant = not any(a.size and np.abs(a - b).max() > nondet_tol for a, b in zip(jac1, jac2))
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not reentrant:
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and grad_output multiple "
            "times gives different values, although analytical gradient matches numerical gradient."
            f"The tolerance for nondeterminism was {nondet_tol}." + FAILED_NONDET_MSG
        )
    return jac1


def _as_yaten(a: np.ndarray, dtype):
    import yaten

    return yaten.tensor(a, dtype=dtype.to_real())


def _notallclose_msg(analytical, numerical, output_idx, input_idx) -> str:
    return (
        f"Jacobian mismatch for output {output_idx:d} with respect to input {input_idx:d},\n"
        f"numerical:{numerical}\nanalytical:{analytical}\n"
    )


def _allclose(a, b, rtol, atol) -> bool:
    # torch.allclose(a, b): |a - b| <= atol + rtol * |b|, and a NaN anywhere is a mismatch.
    return bool(np.all(np.abs(a - b) <= atol + rtol * np.abs(b)))


def _check_no_differentiable_outputs(numerical) -> None:
    for per_input in numerical:
        for n in per_input:
            if np.any(n != 0):
                raise GradcheckError("Numerical gradient for function expected to be zero")


def _slow_gradcheck(func, func_out, inputs, wrt, outputs, eps, rtol, atol, nondet_tol, check_grad_dtypes):
    float_outs = _float_outputs(func_out)
    numerical = _numerical_jacobian(func, inputs, wrt, eps)
    if not outputs:
        _check_no_differentiable_outputs(numerical)
        return
    keep = [j for j, o in enumerate(float_outs) if o._rg]
    diff_inputs = [inputs[i] for i in wrt]
    for j, o in enumerate(outputs):
        analytical = _analytical_jacobian(
            o, diff_inputs, _unit_grad_outputs(o), _real_numel(o), nondet_tol, check_grad_dtypes
        )
        for i, a in enumerate(analytical):
            n = numerical[i][keep[j]]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(
                    _notallclose_msg(_as_yaten(a, diff_inputs[i].dtype), _as_yaten(n, o.dtype), j, i)
                )


def _random_unit_vector(rng, n) -> np.ndarray:
    v = rng.random(n)
    norm = np.linalg.norm(v)
    return v / norm if norm else v


def _fast_gradcheck(func, func_out, inputs, wrt, outputs, eps, rtol, atol, nondet_tol, check_grad_dtypes):
    """Compare v^T (J u) from finite differences with (v^T J) u from one backward (PyTorch's fast mode:
    one random direction u per input, one random v per output)."""
    import yaten

    rng = np.random.default_rng(0)
    all_u = [_random_unit_vector(rng, _real_numel(inputs[i])) for i in wrt]
    all_v = [_random_unit_vector(rng, _real_numel(o)) for o in outputs]
    float_outs = _float_outputs(func_out)
    keep = [j for j, o in enumerate(float_outs) if o._rg]
    ju = [_numerical_jvp(func, inputs, i, u, eps) for i, u in zip(wrt, all_u)]
    if not outputs:
        for per_input in ju:
            for d in per_input:
                if d.size and np.abs(d).max() > nondet_tol:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    diff_inputs = [inputs[i] for i in wrt]
    for j, (o, v) in enumerate(zip(outputs, all_v)):
        vt = yaten.as_tensor(_from_real_coords(v, o), device=o.device)
        vj = _analytical_jacobian(o, diff_inputs, [vt], 1, nondet_tol, check_grad_dtypes)
        for i, u in enumerate(all_u):
            a = float(vj[i][:, 0] @ u)
            n = float(v @ ju[i][keep[j]])
            adjusted_atol = atol * float(u.sum()) * float(v.sum())
            if not _allclose(np.array(a), np.array(n), rtol, adjusted_atol):
                raise GradcheckError(
                    _notallclose_msg(a, n, j, i)
                    + _slow_mode_report(func, inputs, wrt, outputs, i, j, keep, eps, rtol, atol)
                )


def _slow_mode_report(func, inputs, wrt, outputs, i, j, keep, eps, rtol, atol) -> str:
    numerical = _numerical_jacobian(func, inputs, [wrt[i]], eps)[0][keep[j]]
    o = outputs[j]
    analytical = _analytical_jacobian(
        o, [inputs[wrt[i]]], _unit_grad_outputs(o), _real_numel(o), float("inf"), False
    )[0]
    max_diff = np.abs(numerical - analytical).max() if numerical.size else 0.0
    msg = (
        "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
        "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
        f"Numerical:\n {_as_yaten(numerical, o.dtype)}\n"
        f"Analytical:\n{_as_yaten(analytical, inputs[wrt[i]].dtype)}\n\n"
        f"The max per-element difference (slow mode) is: {max_diff}.\n"
    )
    if _allclose(analytical, numerical, rtol, atol):
        msg += FAST_FAIL_SLOW_OK_MSG
    return msg


def _test_backward_mul_by_grad_output(outputs, diff_inputs) -> None:
    import yaten

    grads = yaten.autograd.grad(
        outputs, diff_inputs, [yaten.zeros_like(o) for o in outputs], allow_unused=True
    )
    for gi, di in zip(grads, diff_inputs):
        if gi is None:
            continue
        if np.any(gi.detach()._host() != 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if gi._dtype is not di._dtype:
            raise GradcheckError("grad is incorrect type")
        if gi._device != di._device:
            raise GradcheckError("grad is incorrect device")
        if tuple(gi.shape) != tuple(di.shape):
            raise GradcheckError("grad is incorrect size")


class _UndefinedGrad(Node):
    """Passes no gradient on (PyTorch's ``torch._C._functions.UndefinedGrad``): the backward of what it
    wraps receives ``None`` for that output."""

    __slots__ = ()

    def apply(self, grads):
        return (None,)


def _undefined_grad(o):
    from .grad_mode import no_grad
    from .record import connect, set_history

    with no_grad():
        out = o.clone()
    node = _UndefinedGrad()
    connect(node, [o])
    set_history(out, node)
    return out


def _test_undefined_backward_mode(func, inputs, diff_inputs) -> None:
    import yaten

    def warn_bc_breaking():
        warnings.warn(
            "Backwards compatibility: New undefined gradient support checking feature is enabled by default, "
            "but it may break existing callers of this function. If this is true for you, you can call this "
            'function with "check_undefined_grad=False" to disable the feature',
            stacklevel=4,
        )

    def check(outs):
        try:
            grads = yaten.autograd.grad(
                outs, diff_inputs, [yaten.zeros_like(o) for o in outs], allow_unused=True
            )
        except RuntimeError as e:
            warn_bc_breaking()
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. Please look at "
                '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
            ) from e
        for gi in grads:
            if gi is not None and np.any(gi.detach()._host() != 0):
                warn_bc_breaking()
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads are undefined or "
                    'zero. Please look at "Notes about undefined output gradients" in '
                    '"tools/autograd/derivatives.yaml"'
                )

    check([_undefined_grad(o) for o in _differentiable_outputs(func(*inputs))])
    n = len(_differentiable_outputs(func(*inputs)))
    if n > 1:  # each output's gradient undefined on its own must work too
        for k in range(n):
            outs = _differentiable_outputs(func(*inputs))
            check([_undefined_grad(o) if i == k else o for i, o in enumerate(outs)])


def gradcheck(
    func,
    inputs,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: bool | None = None,
) -> bool:
    """Check the gradients of ``func`` at ``inputs`` against central finite differences (use float64).

    Returns True, or raises :class:`GradcheckError` saying which Jacobian differs (returns False instead
    with ``raise_exception=False``). A sparse input is checked as torch checks it: with ``masked=True``
    through its specified values only, else through every element of its dense form. The batched and
    forward-mode checks raise NotImplementedError when asked for.

    >>> import yaten
    >>> x = yaten.tensor([1.0, 2.0], dtype=yaten.float64, requires_grad=True)
    >>> yaten.autograd.gradcheck(lambda t: (t * t).sum(), (x,))
    True
    >>> wrong = lambda t: t * 1 + (t * 0.5).detach()  # claims d/dt = 1, really 1.5
    >>> yaten.autograd.gradcheck(wrong, (x,), raise_exception=False)
    False
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    _unsupported(
        check_batched_grad=check_batched_grad,
        check_batched_forward_grad=check_batched_forward_grad,
        check_forward_ad=check_forward_ad,
    )
    func, inputs = _through_sparse_inputs(func, _as_tuple(inputs), bool(masked))
    try:
        return _gradcheck(
            func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes, fast_mode
        )
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _through_sparse_inputs(func, inputs: tuple, masked: bool):
    """``func`` and ``inputs`` with each sparse input that requires grad replaced by a strided tensor it
    is rebuilt from inside the call: its values (``masked``: the Jacobian of the specified elements, the
    gradient's values at the input's indices) or its dense form (every element, as torch's default)."""
    import yaten

    sparse = [i for i, x in enumerate(inputs) if _is_tensor(x) and x.is_sparse and x.requires_grad]
    if not sparse:
        return func, inputs
    originals = {i: inputs[i].detach().coalesce() for i in sparse}
    plain = list(inputs)
    for i, x in originals.items():
        plain[i] = (x.values() if masked else x.to_dense()).clone().requires_grad_()

    def rebuilt(*args):
        args = list(args)
        for i, x in originals.items():
            if masked:
                args[i] = yaten.sparse_coo_tensor(x.indices(), args[i], x.shape, is_coalesced=True)
            else:
                args[i] = args[i].to_sparse(x.sparse_dim())
        return func(*args)

    return rebuilt, tuple(plain)


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes, fast_mode):
    inputs = _as_tuple(inputs)
    _check_inputs(inputs)
    func_out = func(*inputs)
    outputs = _differentiable_outputs(func_out)
    wrt = [i for i, x in enumerate(inputs) if _is_tensor(x) and x._rg]
    check = _fast_gradcheck if fast_mode else _slow_gradcheck
    check(func, func_out, inputs, wrt, outputs, eps, rtol, atol, nondet_tol, check_grad_dtypes)
    if not outputs:
        return True
    diff_inputs = [inputs[i] for i in wrt]
    _test_backward_mul_by_grad_output(outputs, diff_inputs)
    if check_undefined_grad:
        _test_undefined_backward_mode(func, inputs, diff_inputs)
    return True


def _random_grad_output(x, noncontiguous: bool):
    """A tensor like ``x`` (float64 for a non-float output) of uniform values in [-1, 1), requiring grad,
    as ``torch.testing.make_tensor(..., low=-1, high=1, noncontiguous=...)``; a complex one's parts
    each in [-1, 1)."""
    import yaten

    dtype = x.dtype if _inexact(x) else yaten.float64

    def uniform(shape):
        if dtype.is_complex:  # the parts, drawn as a real (..., 2) tensor
            shape = (*shape, 2)
        t = yaten.rand(shape, dtype=dtype.to_real(), device=x.device) * 2 - 1
        return yaten.view_as_complex(t) if dtype.is_complex else t

    shape = tuple(x.shape)
    wide = noncontiguous and x.numel() > 1
    t = uniform((*shape[:-1], 2 * shape[-1]))[..., ::2] if wide else uniform(shape)
    return t.detach().requires_grad_()


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """Check second derivatives: gradcheck of ``(inputs, grad_outputs) -> the gradients of func``.

    The backward runs with ``create_graph=True``; ``grad_outputs`` (random in [-1, 1) unless given)
    take part as inputs, so the check covers how each gradient depends on them too.

    >>> import yaten
    >>> x = yaten.tensor([0.5, 2.0], dtype=yaten.float64, requires_grad=True)
    >>> yaten.autograd.gradgradcheck(lambda t: t.sin() * t, (x,))
    True
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    _unsupported(check_batched_grad=check_batched_grad, check_fwd_over_rev=check_fwd_over_rev)
    import yaten

    tupled_inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(_random_grad_output(o, gen_non_contig_grad_outputs) for o in outs)
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    diff_input_idx = {i for i, x in enumerate(tupled_inputs) if _is_tensor(x) and x._rg}
    diff_grad_output_idx = {i for i, x in enumerate(tupled_grad_outputs) if _is_tensor(x) and x._rg}

    def new_func(*args):
        input_args = tuple(
            x.requires_grad_() if i in diff_input_idx else x
            for i, x in enumerate(args[: len(args) - num_outputs])
        )
        outs = _differentiable_outputs(func(*input_args))
        gos = tuple(
            x.requires_grad_() if i in diff_grad_output_idx else x
            for i, x in enumerate(args[len(args) - num_outputs :])
        )
        diff_inputs = tuple(x for i, x in enumerate(input_args) if i in diff_input_idx)
        grads = yaten.autograd.grad(outs, diff_inputs, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        new_func,
        tupled_inputs + tupled_grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad,
        fast_mode=fast_mode,
        check_forward_ad=check_fwd_over_rev,
        check_backward_ad=check_rev_over_rev,
        masked=masked,
    )
