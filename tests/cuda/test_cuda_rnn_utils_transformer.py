"""nn.utils.rnn and the transformer layers on the CUDA device: packing, padding and a transformer give
the CPU's values and gradients (under NUMBA_ENABLE_CUDASIM=1 without a GPU; tiny inputs)."""

import copy

import numpy as np
import pytest

import yaten
from tests.tolerances import assert_close
from yaten import nn
from yaten.nn.utils import rnn

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


def _floats(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _pack_round_trip(device):
    x = yaten.from_numpy(_floats(3, 3, 2)).to(device).requires_grad_()
    packed = rnn.pack_padded_sequence(x, [2, 3, 1], enforce_sorted=False)
    padded, lengths = rnn.pad_packed_sequence(packed, batch_first=True, padding_value=-1.0)
    (padded * yaten.from_numpy(_floats(*padded.shape, seed=1)).to(device)).sum().backward()
    return packed, padded, lengths, x.grad


def test_pack_and_pad_on_cuda_match_cpu():
    p_cuda, padded_cuda, len_cuda, grad_cuda = _pack_round_trip("cuda")
    p_cpu, padded_cpu, len_cpu, grad_cpu = _pack_round_trip("cpu")
    assert p_cuda.is_cuda and p_cuda.sorted_indices.is_cuda and p_cuda.batch_sizes.device.type == "cpu"
    assert_close(p_cuda.data.cpu(), p_cpu.data)
    assert_close(padded_cuda.cpu(), padded_cpu)
    assert len_cuda.tolist() == len_cpu.tolist()
    assert_close(grad_cuda.cpu(), grad_cpu)


def test_packed_sequence_moves_between_devices():
    p = rnn.pack_sequence([yaten.tensor([1.0, 2.0]), yaten.tensor([3.0, 4.0, 5.0])], enforce_sorted=False)
    on_gpu = p.cuda()
    assert on_gpu.is_cuda and on_gpu.unsorted_indices.is_cuda and not on_gpu.batch_sizes.is_cuda
    back = on_gpu.cpu()
    assert not back.is_cuda and back.data.tolist() == p.data.tolist()
    assert rnn.pad_sequence([yaten.ones(2, device="cuda"), yaten.ones(1, device="cuda")]).is_cuda


def test_transformer_encoder_layer_on_cuda_matches_cpu():
    layer = nn.TransformerEncoderLayer(4, 2, 4, dropout=0.0, batch_first=True)
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    results = {}
    for device in ("cpu", "cuda"):
        module = copy.deepcopy(layer).to(device)
        x = yaten.from_numpy(_floats(1, 3, 4)).to(device).requires_grad_()
        out = module(x, src_mask=mask.to(device), is_causal=True)
        out.sum().backward()
        results[device] = [out, x.grad, *(p.grad for p in module.parameters())]
    for got, want in zip(results["cuda"], results["cpu"]):
        assert_close(got.cpu(), want, rtol=1e-4, atol=1e-5)
