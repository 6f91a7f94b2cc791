"""torch.cuda's device, stream, event and memory names, torch.accelerator, nn.DataParallel/data_parallel
and random.fork_rng on the CUDA device (under NUMBA_ENABLE_CUDASIM=1 without a GPU; unchanged on one)."""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

SIMULATOR = yaten.cuda._simulator()


def test_set_device_and_device_contexts():
    yaten.cuda.set_device(0)
    yaten.cuda.set_device("cuda:0")
    yaten.cuda.set_device(yaten.device("cuda", 0))
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        yaten.cuda.set_device(1)
    with yaten.cuda.device(0):
        assert yaten.cuda.current_device() == 0
    with yaten.cuda.device_of(yaten.ones(1, device="cuda")):
        assert yaten.cuda.current_device() == 0
    with pytest.raises(ValueError, match="Expected a cuda device"):
        yaten.cuda.set_device("cpu")
    yaten.cuda.init()
    assert yaten.cuda.is_initialized() is True


def test_device_properties():
    props = yaten.cuda.get_device_properties(0)
    assert (props.major, props.minor) == yaten.cuda.get_device_capability()
    assert props.major >= 1 and props.multi_processor_count >= 1
    assert repr(props).startswith(f"_CudaDeviceProperties(name='{props.name}', major={props.major}")
    free, total = yaten.cuda.mem_get_info()
    if SIMULATOR:
        assert props.name == "Numba CUDA simulator" and (free, total) == (0, 0)
    else:
        assert props.total_memory == total and 0 < free <= total
    assert yaten.cuda.get_arch_list() == [f"sm_{props.major}{props.minor}"]
    assert yaten.cuda.is_bf16_supported() is False


def test_streams_order_and_synchronize():
    s = yaten.cuda.Stream()
    default = yaten.cuda.default_stream()
    assert default.cuda_stream == 0 and yaten.cuda.current_stream() == default
    x = yaten.arange(8.0, device="cuda")
    with yaten.cuda.stream(s):
        assert yaten.cuda.current_stream() is s
        y = x * 2
        s.wait_stream(default)
    assert yaten.cuda.current_stream() == default
    s.synchronize()
    assert s.query() is True
    assert y.cpu().tolist() == [2.0 * i for i in range(8)]
    yaten.cuda.set_stream(s)
    assert yaten.cuda.current_stream() is s
    yaten.cuda.set_stream(default)


def test_events_time_and_order():
    start, end = yaten.cuda.Event(enable_timing=True), yaten.cuda.Event(enable_timing=True)
    start.record()
    z = yaten.ones(64, device="cuda").sum()
    end.record()
    end.synchronize()
    assert end.query() is True and start.elapsed_time(end) >= 0.0
    assert z.item() == 64.0
    untimed = yaten.cuda.Event()
    untimed.record()
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        untimed.elapsed_time(end)
    event = yaten.cuda.current_stream().record_event()
    yaten.cuda.Stream().wait_event(event)


def test_memory_summary_reports_the_allocator():
    keep = yaten.ones(1 << 18, device="cuda")
    summary = yaten.cuda.memory_summary()
    assert "PyTorch CUDA memory summary, device ID 0" in summary and "Allocated memory" in summary
    if not SIMULATOR:  # the simulator's allocator counts nothing
        assert yaten.cuda.memory_allocated() >= keep.numel() * 4


def test_legacy_cuda_constructors_make_cuda_tensors():
    t = yaten.cuda.FloatTensor(2, 3)
    assert t.is_cuda and t.dtype == yaten.float32 and t.shape == (2, 3)
    assert isinstance(t, yaten.cuda.FloatTensor) and not isinstance(t, yaten.FloatTensor)
    assert yaten.cuda.LongTensor([1, 2]).cpu().tolist() == [1, 2]


def test_accelerator_is_cuda():
    assert yaten.accelerator.current_accelerator() == yaten.device("cuda")
    assert yaten.accelerator.is_available() and yaten.accelerator.device_count() == 1
    assert yaten.accelerator.current_device_index() == 0
    yaten.accelerator.set_device_index(0)
    with yaten.accelerator.device_index(0):
        yaten.accelerator.synchronize()
    assert yaten.accelerator.memory_stats() == yaten.cuda.memory_stats()
    assert yaten.float32 in yaten.accelerator.get_device_capability()["supported_dtypes"]


def _pair():
    t, y = torch.nn.Linear(3, 2), yaten.nn.Linear(3, 2)
    y.load_state_dict({k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in t.state_dict().items()})
    return t, y


def test_data_parallel_on_the_device():
    t, y = _pair()
    dp = yaten.nn.DataParallel(y)
    assert dp.device_ids == [0] and dp.output_device == 0 and y.weight.is_cuda
    assert list(dp.state_dict()) == ["module.weight", "module.bias"]
    x = np.random.default_rng(3).standard_normal((4, 3)).astype(np.float32)
    out = dp(yaten.from_numpy(x))  # a cpu batch is copied to the device, as torch's scatter does
    assert out.is_cuda
    assert_close(out.cpu(), t(torch.from_numpy(x)))
    out.sum().backward()
    assert y.weight.grad.is_cuda
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        yaten.nn.DataParallel(yaten.nn.Linear(1, 1), device_ids=[0, 1])
    moved = yaten.nn.DataParallel(yaten.nn.Linear(1, 1))
    moved.module.cpu()
    with pytest.raises(RuntimeError, match=r"module must have its parameters and buffers on device cuda:0"):
        moved(yaten.ones(1, 1))


def test_data_parallel_function_scatter_gather():
    t, y = _pair()
    y.cuda()
    x = np.ones((2, 3), np.float32)
    out = yaten.nn.parallel.data_parallel(y, yaten.from_numpy(x))
    assert_close(out.cpu(), t(torch.from_numpy(x)))
    chunks = yaten.nn.parallel.scatter((yaten.arange(4.0), {"k": yaten.ones(2)}), [0])
    assert len(chunks) == 1 and chunks[0][0].is_cuda and chunks[0][1]["k"].is_cuda
    gathered = yaten.nn.parallel.gather([yaten.ones(2, device="cuda"), yaten.zeros(1, device="cuda")], -1)
    assert gathered.device.type == "cpu" and gathered.tolist() == [1.0, 1.0, 0.0]


def test_fork_rng_restores_the_cuda_generator():
    yaten.cuda.manual_seed(5)
    before = yaten.cuda.get_rng_state()
    with yaten.random.fork_rng():
        first = yaten.rand(4, device="cuda")
    assert yaten.equal(yaten.cuda.get_rng_state(), before)
    assert yaten.equal(yaten.rand(4, device="cuda"), first)
    with yaten.random.fork_rng(devices=[]):
        yaten.rand(4, device="cuda")
    assert not yaten.equal(yaten.cuda.get_rng_state(), before)
