"""scaled_dot_product_attention and MultiheadAttention side by side with torch."""

import numpy as np
import pytest
import torch

import yaten
import yaten.nn.functional as YF
from tests.tolerances import assert_matches as _close

TF = torch.nn.functional


def _arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _both(a, requires_grad=False):
    y, t = yaten.from_numpy(a.copy()), torch.from_numpy(a.copy())
    if requires_grad:
        y.requires_grad_()
        t.requires_grad_()
    return y, t


# --- scaled_dot_product_attention --------------------------------------------------------------------
_CAUSAL_BOOL = np.tril(np.ones((3, 5), dtype=bool))
_ROW_MASKED = np.array([[1, 0, 1, 1, 0], [0, 0, 0, 0, 0], [1, 1, 1, 1, 1]], dtype=bool)

SDPA_CASES = {
    "plain": ((2, 3, 4), (2, 5, 4), (2, 5, 6), {}),
    "4-d": ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 3), {}),
    "float mask": ((2, 3, 4), (2, 5, 4), (2, 5, 6), {"attn_mask": _arr(3, 5, seed=7)}),
    "broadcast float mask": (
        (2, 2, 3, 4),
        (2, 2, 5, 4),
        (2, 2, 5, 3),
        {"attn_mask": _arr(2, 1, 3, 5, seed=7)},
    ),
    "bool mask": ((2, 3, 4), (2, 5, 4), (2, 5, 6), {"attn_mask": _CAUSAL_BOOL}),
    "fully masked row": ((2, 3, 4), (2, 5, 4), (2, 5, 6), {"attn_mask": _ROW_MASKED}),
    "float mask with -inf row": (
        (2, 3, 4),
        (2, 5, 4),
        (2, 5, 6),
        {"attn_mask": np.where(_ROW_MASKED, 0.0, -np.inf)},
    ),
    "causal square": ((1, 2, 4, 3), (1, 2, 4, 3), (1, 2, 4, 3), {"is_causal": True}),
    "causal L < S": ((2, 3, 4), (2, 5, 4), (2, 5, 6), {"is_causal": True}),
    "causal L > S": ((2, 5, 4), (2, 3, 4), (2, 3, 6), {"is_causal": True}),
    "scale": ((2, 3, 4), (2, 5, 4), (2, 5, 6), {"scale": 0.7}),
    "gqa": ((1, 4, 3, 2), (1, 2, 3, 2), (1, 2, 3, 5), {"enable_gqa": True}),
}


def _sdpa_inputs(case, requires_grad=False):
    qs, ks, vs, kwargs = SDPA_CASES[case]
    q, k, v = (_both(_arr(*s, seed=i), requires_grad) for i, s in enumerate((qs, ks, vs)))
    yk, tk = {}, {}
    for name, val in kwargs.items():
        if isinstance(val, np.ndarray):
            yk[name], tk[name] = _both(val)
        else:
            yk[name] = tk[name] = val
    return (q[0], k[0], v[0]), yk, (q[1], k[1], v[1]), tk


@pytest.mark.parametrize("case", list(SDPA_CASES))
def test_sdpa_forward_and_gradients_match_torch(case):
    ya, yk, ta, tk = _sdpa_inputs(case, requires_grad=True)
    y = YF.scaled_dot_product_attention(*ya, **yk)
    t = TF.scaled_dot_product_attention(*ta, **tk)
    _close(y, t)
    g = _arr(*t.shape, seed=11)
    (y * yaten.from_numpy(g)).sum().backward()
    (t * torch.from_numpy(g)).sum().backward()
    for a, b in zip(ya, ta):
        assert np.isfinite(a.grad.numpy()).all()
        _close(a.grad, b.grad, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("case", ["plain", "float mask", "fully masked row", "causal L < S", "gqa"])
def test_sdpa_gradcheck_and_gradgradcheck(case):
    ya, yk, _, _ = _sdpa_inputs(case, requires_grad=True)
    fn = lambda q, k, v: yaten.scaled_dot_product_attention(q, k, v, **yk)
    assert yaten.autograd.gradcheck(fn, ya)
    assert yaten.autograd.gradgradcheck(fn, ya)


def test_sdpa_float32_matches_torch():
    q, k, v = (_both(_arr(2, 4, 8, seed=i).astype(np.float32)) for i in range(3))
    y = YF.scaled_dot_product_attention(q[0], k[0], v[0], is_causal=True)
    _close(y, TF.scaled_dot_product_attention(q[1], k[1], v[1], is_causal=True), rtol=1e-5, atol=1e-6)


def test_sdpa_dropout_draws_from_yatens_generator():
    q = yaten.zeros(4, 64, 8, dtype=yaten.float64)  # uniform weights 1/64
    v = yaten.ones(4, 64, 1, dtype=yaten.float64)
    yaten.manual_seed(0)
    a = YF.scaled_dot_product_attention(q, q, v, dropout_p=0.25)
    yaten.manual_seed(0)
    b = YF.scaled_dot_product_attention(q, q, v, dropout_p=0.25)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    # Each output is (kept count / 64) / 0.75: mean 1 (inverted dropout), values on the 1/48 grid.
    out = a.numpy().ravel()
    assert abs(out.mean() - 1.0) < 0.02
    np.testing.assert_allclose(out * 48, np.round(out * 48), atol=1e-9)
    assert out.std() > 0
    assert (YF.scaled_dot_product_attention(q, q, v, dropout_p=1.0).numpy() == 0).all()


def test_sdpa_dropout_gradient_uses_the_same_mask():
    q = yaten.randn(2, 5, 4, dtype=yaten.float64, requires_grad=True)
    v = yaten.randn(2, 5, 3, dtype=yaten.float64, requires_grad=True)
    yaten.manual_seed(5)
    fn = lambda q, v: YF.scaled_dot_product_attention(q, q, v, dropout_p=0.3)
    out = fn(q, v)
    out.sum().backward()
    yaten.manual_seed(5)
    assert np.allclose(fn(q, v).detach().numpy(), out.detach().numpy())


def _message(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value), str(info.value)


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.nn.functional.scaled_dot_product_attention(
            m.zeros(2, 3, 4), m.zeros(2, 5, 4), m.zeros(2, 5, 4), m.ones(3, 5, dtype=m.bool), is_causal=True
        ),
        lambda m: m.nn.functional.scaled_dot_product_attention(
            m.zeros(2, 3, 4, dtype=m.float64), m.zeros(2, 5, 4, dtype=m.float64), m.zeros(2, 5, 4)
        ),
    ],
)
def test_sdpa_errors_match_torch(case):
    t_type, t_msg = _message(lambda: case(torch))
    y_type, y_msg = _message(lambda: case(yaten))
    assert y_type is t_type and y_msg == t_msg


def test_sdpa_shape_errors_are_runtime_errors_as_torch():
    for m in (torch, yaten):
        with pytest.raises(RuntimeError):
            m.nn.functional.scaled_dot_product_attention(m.zeros(2, 3, 4), m.zeros(2, 5, 3), m.zeros(2, 5, 3))


# --- MultiheadAttention --------------------------------------------------------------------------------
def _mha_pair(*args, **kwargs):
    """A torch and a yaten MultiheadAttention with the same (torch's random) weights, in float64."""
    tm = torch.nn.MultiheadAttention(*args, **kwargs).double()
    with torch.no_grad():
        for p in tm.parameters():
            p.normal_(0, 0.5)
    ym = yaten.nn.MultiheadAttention(*args, **kwargs, dtype=yaten.float64)
    missing = ym.load_state_dict({k: yaten.from_numpy(v.numpy().copy()) for k, v in tm.state_dict().items()})
    assert not missing.missing_keys and not missing.unexpected_keys
    return ym, tm


MHA_MODULES = {
    "default": ((8, 2), {}),
    "batch_first": ((8, 4), {"batch_first": True}),
    "kdim vdim": ((8, 2), {"kdim": 6, "vdim": 3}),
    "no bias": ((8, 2), {"bias": False}),
    "bias_kv zero_attn": ((8, 2), {"add_bias_kv": True, "add_zero_attn": True}),
}

_KPM = np.array([[False, False, True, False, True], [False] * 5, [True, False, False, False, False]])


def _mha_inputs(kind, batch_first, kdim=8, vdim=8):
    L, S, N, E = 4, 5, 3, 8
    shapes = [(L, N, E), (S, N, kdim), (S, N, vdim)]
    if batch_first:
        shapes = [(s[1], s[0], s[2]) for s in shapes]
    arrays = [_arr(*s, seed=i) for i, s in enumerate(shapes)]
    kwargs = {}
    if kind in ("key_padding_mask", "both masks"):
        kwargs["key_padding_mask"] = _KPM
    if kind in ("float attn_mask", "both masks"):
        kwargs["attn_mask"] = _arr(L, S, seed=9)
    if kind == "bool attn_mask":
        kwargs["attn_mask"] = np.triu(np.ones((L, S), dtype=bool), 1)
    return arrays, kwargs


@pytest.mark.parametrize("module", list(MHA_MODULES))
@pytest.mark.parametrize(
    "kind", ["none", "key_padding_mask", "float attn_mask", "bool attn_mask", "both masks"]
)
@pytest.mark.parametrize(
    "call",
    [{}, {"need_weights": False}, {"average_attn_weights": False}],
    ids=["weights", "no weights", "per head"],
)
def test_mha_matches_torch(module, kind, call):
    args, kw = MHA_MODULES[module]
    ym, tm = _mha_pair(*args, **kw)
    arrays, masks = _mha_inputs(kind, kw.get("batch_first", False), kw.get("kdim", 8), kw.get("vdim", 8))
    pairs = [_both(a, requires_grad=True) for a in arrays]
    ymasks = {k: yaten.from_numpy(v.copy()) for k, v in masks.items()}
    tmasks = {k: torch.from_numpy(v.copy()) for k, v in masks.items()}
    yo, yw = ym(*(p[0] for p in pairs), **ymasks, **call)
    to, tw = tm(*(p[1] for p in pairs), **tmasks, **call)
    _close(yo, to, rtol=1e-9, atol=1e-10)
    if tw is None:
        assert yw is None
    else:
        _close(yw, tw, rtol=1e-9, atol=1e-10)
    g = _arr(*to.shape, seed=21)
    (yo * yaten.from_numpy(g)).sum().backward()
    (to * torch.from_numpy(g)).sum().backward()
    for y, t in pairs:
        _close(y.grad, t.grad, rtol=1e-8, atol=1e-10)
    tparams = dict(tm.named_parameters())
    for name, p in ym.named_parameters():
        _close(p.grad, tparams[name].grad, rtol=1e-8, atol=1e-10)


def test_mha_3d_attn_mask_self_attention_and_unbatched_match_torch():
    ym, tm = _mha_pair(8, 2)
    q = _arr(4, 3, 8)
    mask = _arr(6, 4, 4, seed=3)
    yo, yw = ym(*[yaten.from_numpy(q)] * 3, attn_mask=yaten.from_numpy(mask))
    to, tw = tm(*[torch.from_numpy(q)] * 3, attn_mask=torch.from_numpy(mask))
    _close(yo, to, rtol=1e-9, atol=1e-10)
    _close(yw, tw, rtol=1e-9, atol=1e-10)
    x = _arr(4, 8, seed=4)
    kpm = np.array([False, True, False, False])
    yo, yw = ym(*[yaten.from_numpy(x)] * 3, key_padding_mask=yaten.from_numpy(kpm))
    to, tw = tm(*[torch.from_numpy(x)] * 3, key_padding_mask=torch.from_numpy(kpm))
    _close(yo, to, rtol=1e-9, atol=1e-10)
    _close(yw, tw, rtol=1e-9, atol=1e-10)


def test_mha_eval_mode_matches_torch():
    ym, tm = _mha_pair(8, 2, dropout=0.5, batch_first=True)
    ym.eval()
    tm.eval()
    x = _arr(3, 4, 8)
    with torch.no_grad():
        to, _ = tm(*[torch.from_numpy(x)] * 3, need_weights=False)
    yo, yw = ym(*[yaten.from_numpy(x)] * 3, need_weights=False)
    assert yw is None
    _close(yo, to, rtol=1e-9, atol=1e-10)


def test_mha_dropout_in_training_is_random_and_seeded():
    ym = yaten.nn.MultiheadAttention(8, 2, dropout=0.5)
    x = yaten.randn(4, 2, 8)
    yaten.manual_seed(1)
    a, wa = ym(x, x, x)
    yaten.manual_seed(1)
    b, _ = ym(x, x, x)
    np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    assert (wa.detach().numpy() == 0).any()


@pytest.mark.parametrize(
    "make",
    [
        lambda nn: nn.MultiheadAttention(8, 2),
        lambda nn: nn.MultiheadAttention(8, 4, bias=False, batch_first=True),
        lambda nn: nn.MultiheadAttention(8, 2, kdim=6, vdim=3),
        lambda nn: nn.MultiheadAttention(8, 2, add_bias_kv=True),
    ],
)
def test_mha_repr_parameters_and_state_dict_keys_match_torch(make):
    ym, tm = make(yaten.nn), make(torch.nn)
    assert repr(ym) == repr(tm)
    assert list(ym.state_dict()) == list(tm.state_dict())
    assert [(n, tuple(p.shape)) for n, p in ym.named_parameters()] == [
        (n, tuple(p.shape)) for n, p in tm.named_parameters()
    ]
    assert ym.head_dim == tm.head_dim and ym._qkv_same_embed_dim == tm._qkv_same_embed_dim
    if ym.in_proj_bias is not None:
        assert not ym.in_proj_bias.detach().numpy().any() and not ym.out_proj.bias.detach().numpy().any()


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.nn.MultiheadAttention(8, 3),
        lambda m: m.nn.MultiheadAttention(0, 2),
        lambda m: m.nn.MultiheadAttention(8, 2)(
            m.zeros(4, 2, 8), m.zeros(5, 2, 8), m.zeros(5, 2, 8), attn_mask=m.zeros(4, 4)
        ),
        lambda m: m.nn.MultiheadAttention(8, 2)(
            m.zeros(4, 2, 8), m.zeros(4, 2, 8), m.zeros(4, 2, 8), is_causal=True
        ),
    ],
)
def test_mha_errors_match_torch(case):
    t_type, t_msg = _message(lambda: case(torch))
    y_type, y_msg = _message(lambda: case(yaten))
    assert y_type is t_type and y_msg == t_msg.replace("torch.", "yaten.")


def test_mha_warns_as_torch_on_mismatched_mask_types():
    for m in (torch, yaten):
        mha = m.nn.MultiheadAttention(4, 2)
        x = m.zeros(3, 1, 4)
        with pytest.warns(
            UserWarning, match="Support for mismatched key_padding_mask and attn_mask is deprecated"
        ):
            mha(x, x, x, key_padding_mask=m.zeros(1, 3, dtype=m.bool), attn_mask=m.zeros(3, 3))
