"""The backward engine: runs a graph of Nodes from roots to leaves without recursion.

Nodes run in dependency order; among ready nodes the most recently created runs first (as in
PyTorch's CPU engine), so a long chain of 100,000 nodes is just a loop.
"""

import heapq

from . import anomaly_mode
from .anomaly_mode import STATE as ANOMALY
from .grad_mode import STATE


def _dependencies(roots):
    deps = {}
    stack = list(dict.fromkeys(n for n in roots if n is not None))  # a node may be several roots' node
    seen = set(stack)
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return deps


def _needed(nodes, targets):
    """Which nodes must run to deliver gradients to ``targets``: those with a target below them.

    A target itself only has its incoming gradient captured; it runs only if another target lies
    further down (as in PyTorch, where ``autograd.grad`` stops at the inputs).
    """
    reaches = {}  # node -> whether a target is the node itself or lies below it
    run = {}
    for start in nodes:
        if start in reaches:
            continue
        stack = [(start, iter(start.next_functions))]
        reaches[start] = None  # on the stack
        while stack:
            node, it = stack[-1]
            for nxt, _ in it:
                if nxt is not None and nxt not in reaches:
                    reaches[nxt] = None
                    stack.append((nxt, iter(nxt.next_functions)))
                    break
            else:
                stack.pop()
                below = any(nxt is not None and reaches[nxt] for nxt, _ in node.next_functions)
                run[node] = below
                reaches[node] = below or node in targets
    return run


def _add_grad(buf, i, g):
    old = buf[i]
    # As torch's InputBuffer: onto a sparse gradient the new one goes first (dense + sparse is defined).
    buf[i] = g if old is None else (g + old if old.is_sparse else old + g)


def _pre(node, grads):
    """Tensor and node pre-hooks (each may replace the gradients), then retain_grad hooks."""
    if node._pre_hooks:
        for hook in tuple(node._pre_hooks.values()):
            res = hook(tuple(grads))
            if res is not None:
                grads = list(res)
    if node._retain_hooks:
        for hook in tuple(node._retain_hooks.values()):
            hook(grads)
    return grads


def _call_node(node, grads):
    """The node's gradients for its inputs, brought to their shapes and dtypes, then its post hooks
    (which see them validated, as in PyTorch)."""
    if node._skips_without_grads and all(g is None for g in grads):
        out = (None,) * len(node.next_functions)
    else:
        out = _validate(node, node.apply(grads))
    if node._post_hooks:
        for hook in tuple(node._post_hooks.values()):
            res = hook(tuple(out), tuple(grads))
            if res is not None:
                out = _checked_hook_result(hook, res, len(out))
    return out


def _checked_hook_result(hook, res, expected: int) -> tuple:
    """PyTorch's checks on what a node's post hook returned in place of its grad_inputs."""
    if not isinstance(res, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(res).__name__}'")
    if len(res) != expected:
        name = getattr(hook, "__name__", type(hook).__name__)
        raise RuntimeError(
            f"hook '{name}' has returned an incorrect number of values (got {len(res)}, but expected {expected})"
        )
    return res


def _expandable(shape, to) -> bool:
    """Whether a tensor of ``shape`` broadcasts to ``to`` (so a gradient of shape ``to`` sums back)."""
    if len(shape) > len(to):
        return False
    return all(n == 1 or n == m for n, m in zip(reversed(shape), reversed(to)))


def _validate(node, outs):
    """Bring each gradient to its input's shape (summing broadcast dims), dtype and device, as PyTorch
    does."""
    meta = node._input_meta
    if not meta:
        return outs
    fixed = list(outs)
    for i, (g, m) in enumerate(zip(outs, meta)):
        if g is None or m is None:
            continue
        shape, dtype, device = m
        if g._data.shape != shape:
            if not _expandable(shape, g._data.shape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got {list(g.shape)} but "
                    f"expected shape compatible with {list(shape)}"
                )
            from .formulas import sum_to

            g = sum_to(g, shape)
        if g._dtype is not dtype:
            if g._dtype.is_complex and not dtype.is_complex:
                g = g.real  # a real input's gradient is the real part (PyTorch's handle_r_to_c)
            g = g.to(dtype)
        if g._device is not device and g._device != device:  # an input that joined as a CPU scalar
            g = g.to(device)
        fixed[i] = g
    return fixed


def _deliver(node, outs, buffers, deps, ready) -> None:
    """Add a node's gradients into the input buffers of the nodes it feeds; queue those now ready.

    A function of its own, so no loop variable outlives it holding a gradient: AccumulateGrad takes
    a gradient no one else references instead of copying it (accumulate.py counts the references).
    """
    for (nxt, nr), g in zip(node.next_functions, outs):
        if nxt is None:
            continue
        if g is not None:
            buf = buffers.get(nxt)
            if buf is None:
                buf = buffers[nxt] = [None] * nxt._num_outputs
            _add_grad(buf, nr, g)
    for nxt, _ in node.next_functions:
        if nxt is None:
            continue
        left = deps[nxt] - 1
        deps[nxt] = left
        if left == 0:
            heapq.heappush(ready, (-nxt._seq, nxt))


def run_backward(roots, root_grads, keep_graph: bool, create_graph: bool, capture=None):
    """Propagate ``root_grads`` from the ``(node, input_nr)`` edges ``roots`` through the graph.

    With ``capture`` (a list of edges), gradients arriving at those edges are returned instead of
    accumulated into leaves, and only the part of the graph leading to them runs.
    """
    root_nodes = [n for n, _ in roots]
    deps = _dependencies(root_nodes)
    needed = None
    captured = None
    if capture is not None:
        targets = {n for n, _ in capture if n is not None}
        needed = _needed([n for n in root_nodes if n is not None], targets)
        captured = {}
        wanted = {}
        for i, (n, nr) in enumerate(capture):
            wanted.setdefault(n, []).append((nr, i))
    buffers = {}
    for (node, nr), g in zip(roots, root_grads):
        if node is None:
            continue
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * node._num_outputs
        _add_grad(buf, nr, g)
    ready = [(-n._seq, n) for n in buffers if deps.get(n, 0) == 0]
    heapq.heapify(ready)
    prev = STATE.enabled
    STATE.enabled = create_graph
    try:
        while ready:
            _, node = heapq.heappop(ready)
            grads = buffers.pop(node, None) or [None] * node._num_outputs
            run = needed is None or needed.get(node, False)
            want = wanted.get(node) if captured is not None else None
            outs = ()
            if run or want:
                try:
                    grads = _pre(node, grads)
                    if want:
                        for nr, i in want:
                            captured[i] = grads[nr]
                    if run:
                        if node._freed:
                            node._check_not_freed()
                        outs = _call_node(node, grads)
                        if ANOMALY.enabled and ANOMALY.check_nan:
                            anomaly_mode.check_nan(node, outs)
                        if not keep_graph:
                            node._release()
                except Exception:
                    if ANOMALY.enabled:  # show the forward code that made the failing node
                        anomaly_mode.report(node)
                    raise
            _deliver(node, outs, buffers, deps, ready)
            outs = grads = None  # the engine keeps no reference a node's gradients could be stolen from
    finally:
        STATE.enabled = prev
    if captured is not None:
        return [captured.get(i) for i in range(len(capture))]
    return None
