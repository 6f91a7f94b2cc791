"""bfloat16 on cuda: numba.cuda has no bfloat16 type, so every way a bfloat16 tensor would get device
memory raises torch's NotImplementedError for a missing backend, and nothing is left half-made."""

import pytest

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

MESSAGE = r"Could not run 'aten::empty_strided' with arguments from the 'CUDA' backend: .*BFloat16"


@pytest.mark.parametrize(
    "make",
    [
        lambda: yaten.tensor([1.5, 2.0], dtype=yaten.bfloat16).cuda(),
        lambda: yaten.tensor([1.5, 2.0], dtype=yaten.bfloat16).to("cuda"),
        lambda: yaten.zeros(2, dtype=yaten.bfloat16, device="cuda"),
        lambda: yaten.tensor([1.5], dtype=yaten.bfloat16, device="cuda"),
        lambda: yaten.ones(2, device="cuda").bfloat16(),
        lambda: yaten.ones(2, device="cuda").to(yaten.bfloat16),
        lambda: yaten.nn.Linear(2, 2).bfloat16().cuda(),
    ],
)
def test_bfloat16_on_cuda_raises_a_missing_backend(make):
    with pytest.raises(NotImplementedError, match=MESSAGE):
        make()


def test_a_module_that_failed_to_move_stays_usable_on_the_cpu():
    model = yaten.nn.Linear(2, 2).bfloat16()
    with pytest.raises(NotImplementedError):
        model.cuda()
    assert model.weight.device.type == "cpu" and model.weight.dtype is yaten.bfloat16
    assert model(yaten.ones(1, 2, dtype=yaten.bfloat16)).shape == (1, 2)


def test_other_dtypes_still_move():
    x = yaten.tensor([1.5, 2.0], dtype=yaten.bfloat16)
    assert x.float().cuda().sum().item() == 3.5
    assert x.half().cuda().cpu().bfloat16().tolist() == x.tolist()
