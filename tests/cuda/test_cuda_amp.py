"""autocast("cuda") and GradScaler("cuda") on the CUDA device (Numba's simulator without a GPU): the
casts of torch's CUDA autocast lists (float16 products, float32 transcendentals and losses, float32
reductions through their dtype argument, promotion to the widest type), and a scaled training step
that skips the step whose gradients hold an inf."""

import pytest

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


def test_cuda_region_casts_per_torchs_cuda_lists():
    a = yaten.ones(2, 3, device="cuda")
    b = yaten.ones(3, 2, device="cuda")
    with yaten.autocast("cuda"):
        h = a @ b
        assert h.dtype == yaten.float16 and h.device.type == "cuda"
        assert yaten.exp(h).dtype == yaten.float32  # fp32 list
        assert h.sum().dtype == yaten.float32  # fp32_set_opt_dtype: sum(dtype=float32)
        assert h.sum(dtype=yaten.float16).dtype == yaten.float16  # a given dtype is kept
        assert h.softmax(-1).dtype == yaten.float32
        assert yaten.addcmul(h, a[:, :2], h).dtype == yaten.float32  # promote: the widest type
        assert yaten.addcmul(h, h, h).dtype == yaten.float16
        assert (
            yaten.ones(2, 3) @ yaten.ones(3, 2)
        ).dtype == yaten.float32  # cpu tensors: cpu autocast is off
    assert (a @ b).dtype == yaten.float32


def test_binary_cross_entropy_is_banned_from_cuda_autocast_as_in_torch():
    p = yaten.full((2,), 0.5, device="cuda")
    with yaten.autocast("cuda"):
        with pytest.raises(
            RuntimeError, match="binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast"
        ):
            yaten.nn.functional.binary_cross_entropy(p, p)
        assert yaten.nn.functional.binary_cross_entropy_with_logits(p, p).dtype == yaten.float32
    with yaten.autocast("cpu"):
        assert yaten.nn.functional.binary_cross_entropy(p.cpu(), p.cpu()).dtype == yaten.float32


def test_cuda_scaler_skips_the_step_with_an_inf_and_backs_off():
    w = yaten.nn.Parameter(yaten.ones(2, device="cuda"))
    opt = yaten.optim.SGD([w], lr=0.5)
    scaler = yaten.amp.GradScaler("cuda", init_scale=8.0, growth_interval=1)
    scales, weights = [], []
    for factor in (1.0, float("inf"), 1.0):
        opt.zero_grad()
        with yaten.autocast("cuda"):
            loss = (w * factor).sum()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        scales.append(scaler.get_scale())
        weights.append(w.detach().cpu().tolist())
    assert scales == [16.0, 8.0, 16.0]
    assert weights == [[0.5, 0.5], [0.5, 0.5], [0.0, 0.0]]


def test_a_bfloat16_cuda_region_raises_where_the_device_has_no_bfloat16():
    assert not yaten.cuda.is_bf16_supported()  # numba.cuda has no bfloat16 type
    with pytest.raises(
        RuntimeError, match="Current CUDA Device does not support bfloat16. Please switch dtype to float16."
    ):
        yaten.autocast("cuda", dtype=yaten.bfloat16)
