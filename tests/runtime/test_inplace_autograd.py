"""In-place ops under autograd: history rewriting, views (CopySlices), leaves; side by side with PyTorch."""

import pytest
import torch

import yaten
from tests.runtime.parity import same


def _leaf(m, shape=(3, 4)):
    n = 1
    for s in shape:
        n *= s
    return m.arange(1.0, n + 1, dtype=m.float64).reshape(shape).clone().requires_grad_()


def _node(fn):
    return None if fn is None else fn.name().replace("torch::", "yaten::")


def _grads(m, make, *leaves_shapes):
    leaves = [_leaf(m, s) for s in leaves_shapes]
    out = make(m, *leaves)
    out.backward(m.ones_like(out) if out.ndim else None)
    return [x.grad for x in leaves], out


VIEW_CASES = {
    "select_mul_": lambda m, a: (lambda x: (x[0].mul_(2), x)[1])(a * 1),
    "slice_add_tensor": lambda m, a: (lambda x: (x[:, 1:3].add_(a[0:3, 0:2] ** 2), x)[1])(a.clone()),
    "setitem_column": lambda m, a: (lambda x: (x.__setitem__((slice(None), 1), a[:, 2] * 3), x)[1])(a * 2),
    "setitem_into_plain_tensor": lambda m, a: (lambda z: (z.__setitem__((slice(None), 1), a[:, 0]), z)[1])(
        m.zeros(3, 4, dtype=m.float64)
    ),
    "view_of_view": lambda m, a: (lambda x: (x.view(12)[2:5].mul_(x.view(12)[6:9].detach()), x)[1])(
        a.clone()
    ),
    "transposed_view": lambda m, a: (lambda x: (x.t()[1].mul_(3), x.exp())[1])(a.clone()),
    "two_writes_same_view": lambda m, a: (lambda x: (x[1].mul_(2), x[1].add_(a[2]), x)[2])(a * 1),
    "stale_view_after_base_write": lambda m, a: (lambda x: (lambda v: (x.mul_(3), v.sin())[1])(x[0]))(a * 1),
    "view_then_base_read": lambda m, a: (lambda x: (x[2].sin_(), (x * x).sum())[1])(a + 0),
    "sibling_view_used_after": lambda m, a: (lambda x: (lambda v2: (x[0].mul_(5), v2 * x)[1])(x[1]))(a * 1),
    "copy_into_view": lambda m, a: (lambda x: (x[1:].copy_(a[:2].exp()), x)[1])(a * 1),
    "fill_view": lambda m, a: (lambda x: (x[0].fill_(7.0), x * a)[1])(a * 1),
}


@pytest.mark.parametrize("make", VIEW_CASES.values(), ids=VIEW_CASES.keys())
def test_inplace_on_views_gradients_as_torch(make):
    def case(m):
        grads, out = _grads(m, make, (3, 4))
        return grads, out.detach(), _node(out.grad_fn)

    same(case)


def test_graph_after_inplace_on_view_as_torch():
    def case(m):
        x = _leaf(m).clone()
        v = x[0]
        v.mul_(x[1].detach())
        return (
            _node(x.grad_fn),
            [_node(n) for n, _ in x.grad_fn.next_functions],
            _node(v.grad_fn),
            v.grad_fn.next_functions[0][0] is x.grad_fn,
            x._version,
            v._version,
        )

    same(case)


def test_setitem_makes_a_plain_tensor_require_grad_as_torch():
    def case(m):
        y = _leaf(m, (4,))
        z = m.zeros(3, 4, dtype=m.float64)
        z[1] = y * 2
        z.sum().backward()
        return z.requires_grad, z.is_leaf, _node(z.grad_fn), y.grad

    same(case)


def test_inplace_on_non_leaf_rewrites_its_history_as_torch():
    def case(m):
        a = _leaf(m, (3,))
        y = a.sin()
        before = y.grad_fn.name()
        y.exp_()
        y.sum().backward()
        return before, _node(y.grad_fn), _node(y.grad_fn.next_functions[0][0]), a.grad

    same(case)


ERRORS = {
    "leaf": lambda m: _leaf(m).add_(1),
    "view_of_leaf": lambda m: _leaf(m)[0].mul_(2),
    "setitem_on_leaf": lambda m: _leaf(m).__setitem__(0, 5.0),
    "view_made_in_no_grad": lambda m: (lambda a: (lambda v: v.mul_(2))(_no_grad_view(m, a)))(_leaf(m) * 1),
}


def _no_grad_view(m, a):
    with m.no_grad():
        return a[0]


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_inplace_errors_as_torch(case):
    same(case)


def test_inplace_allowed_under_no_grad_and_on_detached_as_torch():
    def case(m):
        a = _leaf(m)
        with m.no_grad():
            a[0].mul_(2)
            v = a[1]
            v.add_(1)
        a.detach()[2].zero_()
        (a * 1).sum().backward()
        return a.detach(), a._version, a.grad

    same(case)


def test_detach_shares_storage_and_version_as_torch():
    def case(m):
        a = _leaf(m, (3,)) * 1
        d = a.detach()
        d.add_(1)
        return d.data_ptr() == a.data_ptr(), d._version, a._version, d.requires_grad

    same(case)


def test_retain_grad_follows_inplace_as_torch():
    def case(m):
        a = _leaf(m, (3,))
        y = a * 2
        y.retain_grad()
        y.mul_(3)
        (y * y).sum().backward()
        return y.grad, a.grad

    same(case)


def test_tensor_hook_before_inplace_sees_the_old_gradient_as_torch():
    def case(m):
        a = _leaf(m, (3,))
        y = a * 2
        seen = []
        y.register_hook(lambda g: seen.append(g.clone()))
        y.mul_(3)
        y.sum().backward()
        return seen, a.grad

    same(case)


def test_double_backward_through_copy_slices_as_torch():
    def case(m):
        a = _leaf(m, (2, 3))
        x = a * 1
        x[0].mul_(a[1])
        (g,) = m.autograd.grad((x**2).sum(), a, create_graph=True)
        g.sum().backward()
        return g.detach(), a.grad

    same(case)


def test_version_error_names_copy_slices_as_torch():
    def case(m):
        a = _leaf(m, (2, 3))
        x = a * 1
        x[0].mul_(2)
        y = x.sin()
        x[1].add_(1)
        try:
            y.sum().backward()
        except RuntimeError as e:
            return str(e).partition(" Hint:")[0].replace("torch", "yaten")

    same(case)


def test_copy_slices_gradcheck():
    def f(a, b):
        x = a * 1
        x[:, 1].mul_(b)
        x[0, 1:].add_(b[:2].exp())
        return x

    a = yaten.randn(3, 3, dtype=yaten.float64, requires_grad=True)
    b = yaten.randn(3, dtype=yaten.float64, requires_grad=True)
    assert yaten.autograd.gradcheck(f, (a, b))
    assert yaten.autograd.gradgradcheck(f, (a, b))


def test_inplace_view_records_for_torch_named_nodes():
    x = yaten.zeros(2, 3, dtype=yaten.float64)
    y = yaten.ones(3, dtype=yaten.float64, requires_grad=True)
    x[0] = y
    assert type(x.grad_fn).__name__ == "CopySlices"
    t = torch.zeros(2, 3, dtype=torch.float64)
    t[0] = torch.ones(3, dtype=torch.float64, requires_grad=True)
    assert type(t.grad_fn).__name__ == "CopySlices"


def test_stale_views_report_their_new_history_as_torch():
    def case(m):
        a = _leaf(m)
        x = a * 1
        v, v2 = x[0], x[1]
        v.mul_(2)
        z = m.zeros(3, 4, dtype=m.float64)
        w = z[2]
        z[:, 1] = a[:, 0]
        return (
            _node(v2.grad_fn),
            v2.grad_fn.next_functions[0][0] is x.grad_fn,
            (w.requires_grad, _node(w.grad_fn), w.is_leaf),
        )

    same(case)


def test_view_made_under_no_grad_stays_out_of_the_graph_as_torch():
    def case(m):
        w = _leaf(m)
        with m.no_grad():
            v = w[0]
        x = _leaf(m, (4,))
        y = (v * x).sum()
        y.backward()
        return v.grad_fn, v.is_leaf, w.grad, x.grad

    same(case)
