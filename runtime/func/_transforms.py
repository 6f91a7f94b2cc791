"""``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd`` and ``hessian`` on yaten's
reverse-mode autograd.

Each transform tracks its inputs afresh (a detached leaf that requires grad, or a view of an input that
already requires grad, so an enclosing transform or ``backward`` still reaches it) and differentiates
with ``autograd.grad``. A transform nested in another, or given inputs that require grad, keeps the
graph of its results (``create_graph``), so transforms compose: ``grad(grad(f))``, ``jacrev(jacrev(f))``.
yaten has no forward-mode autograd: ``jvp`` is the double-vjp (the vjp of the vjp, linear in its
cotangent) and ``jacfwd`` builds the Jacobian from rows as ``jacrev`` does; the values are torch's.
"""

import functools
import threading

from .. import autograd, stack
from .._tensor import Tensor
from ..autograd.node import AccumulateGrad
from . import _pytree as pytree


class _Depth(threading.local):
    value = 0


_DEPTH = _Depth()


def _check_argnums(argnums, nargs: int) -> None:
    if isinstance(argnums, tuple):
        if not argnums:
            raise RuntimeError("argnums must be non-empty")
        if len(set(argnums)) != len(argnums):
            raise RuntimeError(f"argnums elements must be unique, got {argnums}")
        for a in argnums:
            _check_argnums(a, nargs)
        return
    if not isinstance(argnums, int) or isinstance(argnums, bool):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if not -nargs <= argnums < nargs:
        raise RuntimeError(f"Got argnum={argnums}, but only {nargs} positional inputs")


def _tensor_leaves(tree):
    leaves, spec = pytree.flatten(tree)
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(leaf)}")
    return leaves, spec


def _track(t: Tensor) -> Tensor:
    return t.view_as(t) if t.requires_grad else t.detach().requires_grad_()


class _Level:
    """One transform's inputs, tracked, and whether its results keep their graph."""

    def __init__(self, tree):
        self.outer, self.spec = _tensor_leaves(tree)
        self.inner = [_track(t) for t in self.outer]
        self.recording = autograd.is_grad_enabled()  # whether the caller's autograd records this call
        self.walked = False
        self.create_graph = _DEPTH.value > 0 or (self.recording and any(t.requires_grad for t in self.outer))
        self.tree = pytree.unflatten(self.inner, self.spec)

    def _reaches_outside(self, outputs, inputs) -> bool:
        """Whether ``outputs`` depend on a tensor requiring grad other than ``inputs`` and this level's (a
        parameter ``func`` closes over): torch's results then carry a graph back to it."""
        inner = {id(t) for t in [*self.inner, *inputs]}
        seen, stack = set(), [o.grad_fn for o in outputs if o.grad_fn is not None]
        while stack:
            node = stack.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, AccumulateGrad):
                if id(node.variable) not in inner:
                    return True
                continue
            stack.extend(n for n, _ in node.next_functions)
        return False

    def __enter__(self):
        _DEPTH.value += 1
        self._grad_mode = autograd.enable_grad()
        self._grad_mode.__enter__()
        return self

    def __exit__(self, *exc):
        self._grad_mode.__exit__(*exc)
        _DEPTH.value -= 1

    def grads(self, outputs, grad_outputs=None, inputs=None, retain_graph=None):
        """d(outputs)/d(inputs) (this level's tracked inputs by default), zeros where unused."""
        own_inputs = inputs is None
        inputs = self.inner if own_inputs else inputs
        outputs = list(outputs)
        if grad_outputs is not None:
            grad_outputs = list(grad_outputs)
        keep = [i for i, o in enumerate(outputs) if o.requires_grad]
        if not self.create_graph and self.recording and not (own_inputs and self.walked):
            self.create_graph = self._reaches_outside([outputs[i] for i in keep], inputs)
            self.walked = own_inputs  # the rows of a Jacobian share one graph: walk it once
        found = [None] * len(inputs)
        if keep:
            found = autograd.grad(
                [outputs[i] for i in keep],
                inputs,
                None if grad_outputs is None else [grad_outputs[i] for i in keep],
                retain_graph=True if retain_graph is None else retain_graph,
                create_graph=self.create_graph,
                allow_unused=True,
            )
        return [g if g is not None else x.new_zeros(x.shape) for g, x in zip(found, inputs)]

    def result(self, tree):
        """``tree`` as the transform returns it: detached when no graph is kept."""
        if self.create_graph:
            return tree
        return pytree.tree_map(lambda t: t.detach() if isinstance(t, Tensor) else t, tree)


def _split_aux(output, has_aux: bool, api: str):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return output


def _output_leaves(output, api: str):
    leaves, spec = pytree.flatten(output)
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(
                f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(leaf)}"
            )
    return leaves, spec


def _with_argnums(args, argnums):
    """The differentiated part of ``args`` and a function that puts new values in its place."""
    diff = tuple(args[a] for a in argnums) if isinstance(argnums, tuple) else args[argnums]

    def replace(new):
        out = list(args)
        for a, v in zip(argnums, new) if isinstance(argnums, tuple) else [(argnums, new)]:
            out[a] = v
        return out

    return diff, replace


def grad_and_value(func, argnums=0, has_aux: bool = False):
    """``func``'s gradient with respect to the arguments ``argnums`` (pytrees of tensors), and its value:
    ``(grad, value)``, or ``(grad, (value, aux))`` with ``has_aux``. ``func`` returns a scalar tensor.

    >>> import yaten
    >>> from yaten.func import grad_and_value
    >>> grad_and_value(lambda x: (x ** 2).sum())(yaten.tensor([1.0, 2.0]))
    (tensor([2., 4.]), tensor(5.))
    """
    api = "grad_and_value(f)(*args)"

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        _check_argnums(argnums, len(args))
        diff, replace = _with_argnums(args, argnums)
        with _Level(diff) as level:
            output = func(*replace(level.tree), **kwargs)
            value, aux = _split_aux(output, has_aux, api)
            if not isinstance(value, Tensor):
                raise RuntimeError(f"{api}: Expected f(*args) to return a Tensor, got {type(value)}")
            if value.dim() != 0:
                raise RuntimeError(
                    f"{api}: Expected f(*args) to return a scalar Tensor, got tensor with {value.dim()} dims. "
                    "Maybe you wanted to use the vjp or jacrev APIs instead?"
                )
            grads = pytree.unflatten(level.grads([value]), level.spec)
        if has_aux:
            return level.result((grads, (value, aux)))
        return level.result((grads, value))

    return wrapper


def grad(func, argnums=0, has_aux: bool = False):
    """The function computing ``func``'s gradient with respect to the arguments ``argnums`` (``(grad,
    aux)`` with ``has_aux``). Nests: ``grad(grad(f))`` is the second derivative.

    >>> import yaten
    >>> from yaten.func import grad
    >>> grad(grad(lambda x: x.sin()))(yaten.tensor(0.5))
    tensor(-0.4794)
    """
    inner = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = inner(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return wrapper


def vjp(func, *primals, has_aux: bool = False):
    """``(func(*primals), vjp_fn)`` (and ``aux``): ``vjp_fn(cotangents)`` is the tuple of the
    vector-Jacobian products with each primal; it may be called several times.

    >>> import yaten
    >>> from yaten.func import vjp
    >>> out, vjp_fn = vjp(lambda x: x * 3, yaten.tensor([1.0, 2.0]))
    >>> vjp_fn(yaten.tensor([1.0, 0.5]))
    (tensor([3.0000, 1.5000]),)
    """
    api = "vjp(f, *primals)"
    with _Level(primals) as level:
        output, aux = _split_aux(func(*level.tree), has_aux, api)
        outputs, out_spec = _output_leaves(output, api)

    def vjp_fn(cotangents):
        leaves, spec = pytree.flatten(cotangents)
        if pytree.spec_repr(spec) != pytree.spec_repr(out_spec):
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of outputs to the "
                f"function. cotangents: {pytree.spec_pprint(spec)}, primal output: {pytree.spec_pprint(out_spec)}"
            )
        with level:
            grads = level.grads(outputs, leaves)
        return level.result(pytree.unflatten(grads, level.spec))

    result = (level.result(output), vjp_fn)
    return (*result, level.result(aux)) if has_aux else result


def jvp(func, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """``(func(*primals), J @ tangents)`` (and ``aux``): the Jacobian-vector product, computed as the
    double-vjp (yaten has no forward-mode autograd).

    >>> import yaten
    >>> from yaten.func import jvp
    >>> jvp(lambda x: x ** 2, (yaten.tensor([1.0, 2.0]),), (yaten.tensor([1.0, 1.0]),))
    (tensor([1., 4.]), tensor([2., 4.]))
    """
    api = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(
            f"{api}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals)."
        )
    tangent_leaves, tangent_spec = pytree.flatten(tangents)
    primal_spec = pytree.flatten(primals)[1]
    if pytree.spec_repr(tangent_spec) != pytree.spec_repr(primal_spec):
        raise RuntimeError(
            f"{api}: Expected primals and tangents to have the same python structure. For example, if primals is "
            f"a tuple of 3 tensors, tangents also must be. Got primals with structure {pytree.spec_repr(primal_spec)} "
            f"and tangents with structure {pytree.spec_repr(tangent_spec)}"
        )
    with _Level(primals) as level:
        for p, t in zip(level.inner, tangent_leaves):
            if isinstance(t, Tensor) and t.shape != p.shape:
                raise RuntimeError(
                    "Trying to set a forward gradient that has a different size than that of the original Tensor, "
                    f"this is not supported. Tensor is of size {list(p.shape)} while the given forward gradient is "
                    f"of size {list(t.shape)}."
                )
        output, aux = _split_aux(func(*level.tree), has_aux, api)
        outputs, out_spec = _output_leaves(output, api)
        # u -> J^T u is linear in u; differentiating <J^T u, t> by u gives J t.
        cotangents = [o.new_zeros(o.shape).requires_grad_() for o in outputs]
        level.create_graph = True
        vjps = level.grads(outputs, cotangents)
        level.create_graph = _DEPTH.value > 1 or (
            level.recording and any(t.requires_grad for t in level.outer)
        )
        jvps = level.grads(vjps, [t.to(v.dtype) for t, v in zip(tangent_leaves, vjps)], inputs=cotangents)
    result = (level.result(output), level.result(pytree.unflatten(jvps, out_spec)))
    return (*result, level.result(aux)) if has_aux else result


def linearize(func, *primals):
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is the Jacobian-vector product at ``primals``.
    yaten computes each ``jvp_fn`` call as ``jvp`` does (torch traces the linearized function once).

    >>> import yaten
    >>> from yaten.func import linearize
    >>> out, jvp_fn = linearize(yaten.sin, yaten.tensor([0.0, 1.0]))
    >>> jvp_fn(yaten.tensor([1.0, 1.0]))
    tensor([1.0000, 0.5403])
    """
    with autograd.no_grad():
        output = func(*primals)
    primal_leaves = pytree.flatten(primals)[0]

    def jvp_fn(*tangents):
        for i, (t, p) in enumerate(zip(pytree.flatten(tangents)[0], primal_leaves)):
            if t.shape != p.shape:
                raise RuntimeError(
                    f"tangent:{i} with shape {t.shape} in flattened pytree doesn't match the shape {p.shape} of the "
                    "corresponding primal."
                )
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn


def _jacobian(func, argnums, has_aux: bool, api: str):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        _check_argnums(argnums, len(args))
        diff, replace = _with_argnums(args, argnums)
        with _Level(diff) as level:
            output, aux = _split_aux(func(*replace(level.tree), **kwargs), has_aux, "vjp(f, *primals)")
            outputs, out_spec = _output_leaves(output, "vjp(f, *primals)")
            jac = []
            for o in outputs:
                flat = o.reshape(-1)
                rows = [level.grads([flat[j]]) for j in range(flat.numel())]
                per_input = []
                for k, x in enumerate(level.inner):
                    col = [r[k] for r in rows]
                    stacked = stack(col) if col else x.new_zeros((0, *x.shape))
                    per_input.append(stacked.reshape(*o.shape, *x.shape))
                jac.append(pytree.unflatten(per_input, level.spec))
        result = level.result(pytree.unflatten(jac, out_spec))
        return (result, level.result(aux)) if has_aux else result

    return wrapper


_RANDOMNESS = ("error", "different", "same")


def jacrev(func, argnums=0, *, has_aux: bool = False, chunk_size=None, _preallocate_and_copy: bool = False):
    """The function computing ``func``'s Jacobian with respect to the arguments ``argnums``, row by row
    with reverse mode: for each output, a tensor of shape ``output.shape + input.shape``.

    >>> import yaten
    >>> from yaten.func import jacrev
    >>> jacrev(lambda x: x ** 2)(yaten.tensor([1.0, 3.0]))
    tensor([[2., 0.],
            [0., 6.]])
    """
    return _jacobian(func, argnums, has_aux, "jacrev")


def jacfwd(func, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """The Jacobian as ``jacrev`` computes it (yaten has no forward-mode autograd; the values are the same).

    >>> import yaten
    >>> from yaten.func import jacfwd
    >>> jacfwd(lambda x: x.sin())(yaten.tensor([0.0]))
    tensor([[1.]])
    """
    if randomness not in _RANDOMNESS:
        raise RuntimeError(
            f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}"
        )
    return _jacobian(func, argnums, has_aux, "jacfwd")


def hessian(func, argnums=0):
    """The Hessian of ``func`` with respect to the arguments ``argnums``: ``jacfwd(jacrev(func))``.

    >>> import yaten
    >>> from yaten.func import hessian
    >>> hessian(lambda x: (x ** 3).sum())(yaten.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)


def functionalize(func, *, remove: str = "mutations"):
    """``func`` as torch's functionalization gives it: the same results and the same updates of its inputs.
    torch rewrites the traced program without mutations (``remove``) for compilers; yaten runs eagerly and
    has no such program, so the function returned runs ``func`` as written.

    >>> import yaten
    >>> from yaten.func import functionalize
    >>> functionalize(lambda x: x.clone().add_(1))(yaten.zeros(2))
    tensor([1., 1.])
    """
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}. Valid options are:\n"
            "     remove='mutations': all inplace and out= operators will be removed from the program, and replaced "
            "with their out-of-place equivalents.\n"
            "     remove='mutations_and_views': In addition to the above, all aliasing operators {view} will be "
            "replaced with their non-aliasing counterparts, {view}_copy.\n"
        )

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    return wrapper


def debug_unwrap(tensor, *, recurse: bool = True):
    """The plain tensor inside a transform's wrapper; yaten's transforms don't wrap tensors, so ``tensor``.

    >>> import yaten
    >>> from yaten.func import debug_unwrap
    >>> t = yaten.ones(1)
    >>> debug_unwrap(t) is t
    True
    """
    return tensor
