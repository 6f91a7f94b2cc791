"""nn.Transformer, TransformerEncoder(Layer) and TransformerDecoder(Layer) side by side with torch:
the same weights (torch's state_dict loaded into yaten), outputs and gradients in train and eval mode,
masks, norm_first, batch_first, activations, state_dict keys, repr, warnings and errors."""

import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.nn._module_parity import same
from tests.tolerances import assert_matches

D, H, FF = 8, 2, 12  # d_model, nhead, dim_feedforward


def _arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _activation(m, name):
    F = m.nn.functional
    return {"gelu-fn": F.gelu, "silu-fn": F.silu, "relu-module": m.nn.ReLU()}.get(name, name)


def _build(m, kind, **kw):
    """A float64 module of ``kind`` with dropout 0, made in library ``m``."""
    kw = {"dropout": 0.0, "dtype": m.float64, **kw}
    if "activation" in kw:
        kw["activation"] = _activation(m, kw["activation"])
    if kind == "encoder_layer":
        return m.nn.TransformerEncoderLayer(D, H, FF, **kw)
    if kind == "decoder_layer":
        return m.nn.TransformerDecoderLayer(D, H, FF, **kw)
    if kind == "encoder":
        nested = kw.pop("enable_nested_tensor", False)
        layer = m.nn.TransformerEncoderLayer(D, H, FF, **kw)
        norm = m.nn.LayerNorm(D, dtype=m.float64)
        return m.nn.TransformerEncoder(layer, 2, norm=norm, enable_nested_tensor=nested)
    if kind == "decoder":
        return m.nn.TransformerDecoder(m.nn.TransformerDecoderLayer(D, H, FF, **kw), 2)
    return m.nn.Transformer(D, H, 2, 1, FF, **kw)


def _pair(kind, **kw):
    """torch's module (seeded) and yaten's with torch's weights."""
    torch.manual_seed(0)
    with warnings.catch_warnings():
        # enable_nested_tensor's warnings: compared in test_enable_nested_tensor_warns_as_torch
        warnings.simplefilter("ignore")
        t = _build(torch, kind, **kw)
        y = _build(yaten, kind, **kw)
    y.load_state_dict({k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in t.state_dict().items()})
    return y, t


def _inputs(kind, batch_first=False, unbatched=False):
    s_len, t_len, n = 5, 4, 3
    if unbatched:
        shapes = [(s_len, D), (t_len, D)]
    else:
        shapes = [(n, s_len, D), (n, t_len, D)] if batch_first else [(s_len, n, D), (t_len, n, D)]
    if kind in ("encoder_layer", "encoder"):
        return [_arr(*shapes[0], seed=1)]
    if kind in ("decoder_layer", "decoder"):
        return [_arr(*shapes[1], seed=2), _arr(*shapes[0], seed=1)]  # tgt, memory
    return [_arr(*shapes[0], seed=1), _arr(*shapes[1], seed=2)]  # src, tgt


_S, _T = 5, 4
_KPM_S = np.array([[0, 0, 0, 1, 1], [0, 0, 0, 0, 0], [0, 0, 1, 1, 1]], dtype=bool)
_KPM_T = np.array([[0, 0, 0, 1], [0, 0, 0, 0], [0, 1, 1, 1]], dtype=bool)


def _causal(n):
    return np.triu(np.full((n, n), -np.inf), 1)


def _masks(kind, name):
    """Forward keyword arguments (NumPy arrays, turned into each library's tensors) per mask case."""
    enc = kind in ("encoder_layer", "encoder")
    src_mask_key = {"encoder_layer": "src_mask", "encoder": "mask"}.get(kind, "src_mask")
    if name == "none":
        return {}
    if name == "bool attn mask":
        mask = np.triu(np.ones((_S, _S) if enc else (_T, _T), dtype=bool), 1)
        return {src_mask_key: mask} if enc else {"tgt_mask": mask}
    if name == "float attn mask":
        mask = _arr(_S, _S, seed=7) if enc else _arr(_T, _T, seed=7)
        return {src_mask_key: mask} if enc else {"tgt_mask": mask}
    if name == "causal":
        if enc:
            causal = {"is_causal": True} if kind != "transformer" else {}
            return {src_mask_key: _causal(_S), **causal}
        return {"tgt_mask": _causal(_T), "tgt_is_causal": True}
    if name == "key padding":
        if kind in ("encoder_layer", "encoder"):
            return {"src_key_padding_mask": _KPM_S}
        if kind in ("decoder_layer", "decoder"):
            return {"tgt_key_padding_mask": _KPM_T, "memory_key_padding_mask": _KPM_S}
        return {
            "src_key_padding_mask": _KPM_S,
            "tgt_key_padding_mask": _KPM_T,
            "memory_key_padding_mask": _KPM_S,
        }
    if name == "padding first":  # not left-aligned: torch keeps the dense path
        return {"src_key_padding_mask": _KPM_S[:, ::-1].copy()}
    if name == "memory mask":
        return {"memory_mask": _arr(_T, _S, seed=8)}
    return {"tgt_mask": _causal(_T), "tgt_key_padding_mask": _KPM_T, "memory_key_padding_mask": _KPM_S}


def _compare(kind, module_kw, masks="none", train=True, unbatched=False, grad=True):
    y, t = _pair(kind, **module_kw)
    batch_first = module_kw.get("batch_first", False)
    arrays = _inputs(kind, batch_first, unbatched)
    mask_arrays = _masks(kind, masks)
    outs, grads = {}, {}
    for m, mod in ((yaten, y), (torch, t)):
        mod.train(train)
        xs = [m.from_numpy(a.copy()).requires_grad_(grad) for a in arrays]
        kw = {k: m.from_numpy(v.copy()) if isinstance(v, np.ndarray) else v for k, v in mask_arrays.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = mod(*xs, **kw)
        outs[m] = out
        if grad:
            (out * m.from_numpy(_arr(*out.shape, seed=9))).sum().backward()
            grads[m] = [x.grad for x in xs] + [p.grad for _, p in mod.named_parameters()]
    assert_matches(outs[yaten], outs[torch], rtol=1e-9, atol=1e-10)
    for got, want in zip(grads.get(yaten, []), grads.get(torch, [])):
        if want is None:
            assert got is None
        else:
            assert_matches(got, want, rtol=1e-8, atol=1e-10)
    return outs[yaten]


KINDS = ["encoder_layer", "decoder_layer", "encoder", "decoder", "transformer"]
MODULE_CASES = {
    "default": {},
    "batch_first": {"batch_first": True},
    "norm_first": {"norm_first": True},
    "gelu": {"activation": "gelu"},
    "gelu function": {"activation": "gelu-fn", "batch_first": True},
    "callable": {"activation": "silu-fn"},
    "relu module": {"activation": "relu-module"},
    "no bias": {"bias": False, "norm_first": True},
    "layer_norm_eps": {"layer_norm_eps": 1e-3},
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", list(MODULE_CASES))
def test_outputs_and_gradients_match_torch(kind, case):
    _compare(kind, MODULE_CASES[case])


def _kinds_and_masks(masks, decoder_only=(), encoder_only=()):
    """(kind, mask case) pairs: the decoder-only cases (memory and target masks) only for kinds with a
    decoder, the encoder-only ones (a source padding mask) only for kinds with an encoder."""
    return [
        (kind, mask)
        for kind in KINDS
        for mask in masks
        if not (kind.startswith("encoder") and mask in decoder_only)
        and not (kind.startswith("decoder") and mask in encoder_only)
    ]


@pytest.mark.parametrize(
    "kind, masks",
    _kinds_and_masks(
        ["bool attn mask", "float attn mask", "causal", "key padding", "memory mask", "decoder masks"],
        decoder_only=("memory mask", "decoder masks"),
    ),
)
@pytest.mark.parametrize("batch_first", [False, True])
def test_masks_match_torch(kind, masks, batch_first):
    _compare(kind, {"batch_first": batch_first}, masks)


@pytest.mark.parametrize("kind", KINDS)
def test_unbatched_inputs_match_torch(kind):
    _compare(kind, {}, unbatched=True)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("masks", ["none", "key padding", "causal"])
def test_eval_mode_matches_torch(kind, masks):
    _compare(kind, {"batch_first": True}, masks, train=False)


@pytest.mark.parametrize(
    "kind, masks",
    _kinds_and_masks(["key padding", "padding first", "causal", "none"], encoder_only=("padding first",)),
)
def test_inference_matches_torchs_fast_paths(kind, masks):
    # torch's encoder runs inference with a key-padding mask on nested tensors: zeros at the padding;
    # its layers and attention take fused kernels.
    module_kw = {"batch_first": True, **({"enable_nested_tensor": True} if kind == "encoder" else {})}
    with torch.no_grad(), yaten.no_grad():
        out = _compare(kind, module_kw, masks, train=False, grad=False)
    if kind == "encoder" and masks == "key padding":
        bias = out[0, 4].numpy()  # the final norm of a zero vector: its bias
        assert np.allclose(bias, out[2, 2].numpy())


def test_custom_encoder_and_decoder_are_used():
    def run(m):
        class Encoder(m.nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = m.nn.Linear(D, D, dtype=m.float64)

            def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
                return self.proj(src)

        class Decoder(m.nn.Module):
            def forward(self, tgt, memory, **masks):
                return tgt + memory.mean(0) + len(masks)

        encoder = Encoder()
        model = m.nn.Transformer(D, H, custom_encoder=encoder, custom_decoder=Decoder(), dtype=m.float64)
        with m.no_grad():
            encoder.proj.weight.fill_(0.5)
            encoder.proj.bias.fill_(0.25)
        out = model(m.ones(5, 2, D, dtype=m.float64), m.zeros(4, 2, D, dtype=m.float64))
        return out, list(model.state_dict()), model.encoder is encoder

    got = same(run)
    assert got[0] == "tuple" and got[1][2] is True, got  # values, not an exception


def test_dropout_in_train_mode_changes_the_output_and_eval_removes_it():
    layer = yaten.nn.TransformerEncoderLayer(D, H, FF, dropout=0.5)
    x = yaten.randn(5, 3, D)
    assert not yaten.allclose(layer(x), layer(x))
    layer.eval()
    assert yaten.allclose(layer(x), layer(x))


# --- structure ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("kw", [{}, {"bias": False}, {"norm_first": True, "activation": "gelu"}])
def test_state_dict_keys_shapes_and_repr_match_torch(kind, kw):
    def run(m):
        mod = _build(m, kind, **kw)
        sd = mod.state_dict()
        return list(sd), [tuple(v.shape) for v in sd.values()], repr(mod).replace("torch", "yaten")

    same(run)


def test_class_paths_are_torchs():
    for name in ("Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
                 "TransformerDecoderLayer"):  # fmt: skip
        cls = getattr(yaten.nn, name)
        assert cls.__module__ == "yaten.nn.modules.transformer"
        assert cls is getattr(yaten.nn.modules.transformer, name)


def test_a_torch_checkpoint_loads_strictly():
    y, t = _pair("transformer", batch_first=True, norm_first=True)
    assert sorted(y.state_dict()) == sorted(t.state_dict())


def test_transformer_initializes_matrices_with_xavier_uniform():
    model = yaten.nn.Transformer(D, H, 1, 1, FF, batch_first=True)
    w = model.encoder.layers[0].linear1.weight
    bound = (6 / (w.shape[0] + w.shape[1])) ** 0.5
    assert float(w.abs().max()) <= bound and float(w.std()) > bound / 4
    assert float(model.encoder.layers[0].norm1.weight.min()) == 1.0  # vectors keep their init


@pytest.mark.parametrize("dtype", [None, "float64"])
def test_generate_square_subsequent_mask_matches_torch(dtype):
    def run(m):
        kw = {} if dtype is None else {"dtype": getattr(m, dtype), "device": "cpu"}
        return m.nn.Transformer.generate_square_subsequent_mask(4, **kw)

    same(run)


def test_a_causal_float_mask_is_detected_as_causal():
    from yaten.nn.modules.transformer import _detect_is_causal_mask

    mask = yaten.nn.Transformer.generate_square_subsequent_mask(4)
    assert _detect_is_causal_mask(mask) and _detect_is_causal_mask(mask, size=4)
    assert not _detect_is_causal_mask(mask, size=3)
    assert not _detect_is_causal_mask(yaten.zeros(4, 4))
    assert _detect_is_causal_mask(None, is_causal=True) and not _detect_is_causal_mask(mask, is_causal=False)


NESTED_WARNINGS = {
    "not batch_first": {},
    "norm_first": {"batch_first": True, "norm_first": True},
    "odd heads": {"batch_first": True, "nhead": 1},
    "callable activation": {"batch_first": True, "activation": "silu-fn"},
    "no bias": {"batch_first": True, "bias": False},
    "usable": {"batch_first": True},
}


@pytest.mark.parametrize("case", list(NESTED_WARNINGS))
def test_enable_nested_tensor_warns_as_torch(case):
    def run(m):
        kw = dict(NESTED_WARNINGS[case])
        nhead = kw.pop("nhead", H)
        if "activation" in kw:
            kw["activation"] = _activation(m, kw["activation"])
        layer = m.nn.TransformerEncoderLayer(D, nhead, FF, **kw)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            enc = m.nn.TransformerEncoder(layer, 2)
        return [str(w.message) for w in caught], enc.use_nested_tensor, enc.enable_nested_tensor

    same(run)


ERRORS = {
    "activation": lambda m: m.nn.TransformerEncoderLayer(D, H, activation="tanh"),
    "decoder activation": lambda m: m.nn.TransformerDecoderLayer(D, H, activation="swish"),
    "heads": lambda m: m.nn.TransformerEncoderLayer(D, 3),
    "batch mismatch": lambda m: m.nn.Transformer(D, H, 1, 1, FF)(m.zeros(5, 2, D), m.zeros(4, 3, D)),
    "batch_first mismatch": lambda m: m.nn.Transformer(D, H, 1, 1, FF, batch_first=True)(m.zeros(2, 5, D),
                                                                                         m.zeros(3, 5, D)),
    "d_model": lambda m: m.nn.Transformer(D, H, 1, 1, FF)(m.zeros(5, 2, D), m.zeros(4, 2, D + 1)),
    "mask shape": lambda m: m.nn.TransformerEncoderLayer(D, H, FF)(m.zeros(5, 2, D), src_mask=m.zeros(4, 4)),
    "int mask": lambda m: m.nn.TransformerEncoderLayer(D, H, FF)(m.zeros(5, 2, D),
                                                                src_mask=m.zeros(5, 5, dtype=m.int64)),
    "is_causal without mask": lambda m: m.nn.TransformerDecoderLayer(D, H, FF)(m.zeros(4, 2, D), m.zeros(5, 2, D),
                                                                              tgt_is_causal=True),
}  # fmt: skip


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_match_torch(case):
    got = same(ERRORS[case])
    assert isinstance(got, tuple) and isinstance(got[0], type) and issubclass(got[0], Exception), got


def test_mismatched_mask_types_warn_as_torch():
    def run(m):
        layer = m.nn.TransformerEncoderLayer(D, H, FF)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            layer(m.zeros(5, 2, D), src_mask=m.zeros(5, 5), src_key_padding_mask=m.zeros(2, 5, dtype=m.bool))
        return sorted({str(w.message) for w in caught})

    same(run)


def test_modules_pickle_and_deepcopy_with_their_activation():
    import copy
    import pickle

    layer = yaten.nn.TransformerDecoderLayer(D, H, FF, activation="gelu")
    for clone in (copy.deepcopy(layer), pickle.loads(pickle.dumps(layer))):
        assert clone.activation is yaten.nn.functional.gelu
        assert sorted(clone.state_dict()) == sorted(layer.state_dict())
