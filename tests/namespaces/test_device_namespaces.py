"""torch.cuda's newer names, torch.accelerator, nn.DataParallel and torch.distributed in a process without
NUMBA_ENABLE_CUDASIM: on a machine without CUDA (this one's cpu path: torch's answers and errors for a
build with CUDA support and no GPU), and with a GPU the same checks of what the device reports.
tests/cuda/test_cuda_namespaces.py runs the device paths under the simulator."""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

HAS_CUDA = yaten.cuda.is_available()
no_cuda = pytest.mark.skipif(HAS_CUDA, reason="the cpu-only paths")


def test_answers_without_a_device_to_ask():
    assert yaten.cuda.is_bf16_supported() is False  # numba.cuda has no bfloat16 type
    assert yaten.cuda.set_device(-1) is None
    with yaten.cuda.device(None), yaten.cuda.device(-1), yaten.cuda.device_of(yaten.ones(1)):
        pass
    with yaten.cuda.stream(None), yaten.cuda.StreamContext(None):
        pass
    assert yaten.cuda.set_stream(None) is None
    assert "PyTorch CUDA memory summary, device ID 0" in yaten.cuda.memory_summary()


@no_cuda
@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.set_device(0),
        lambda c: c.get_device_properties(0),
        lambda c: c.get_device_capability(),
        lambda c: c.mem_get_info(),
        lambda c: c.Stream(),
        lambda c: c.Event(),
        lambda c: c.current_stream(),
        lambda c: c.default_stream(),
        lambda c: c.init(),
        lambda c: c.ipc_collect(),
        lambda c: c.device(0).__enter__(),
        lambda c: c.FloatTensor(2),
        lambda c: c.LongTensor([1]),
    ],
)
def test_cpu_only_calls_raise_no_gpus(call):
    with pytest.raises(RuntimeError, match="No CUDA GPUs are available"):
        call(yaten.cuda)


@no_cuda
def test_cpu_only_capabilities():
    assert yaten.cuda.is_initialized() is torch.cuda.is_initialized() is False
    assert yaten.cuda.get_arch_list() == torch.cuda.get_arch_list() == []
    assert yaten.cuda.is_tf32_supported() is torch.cuda.is_tf32_supported() is False


def test_legacy_cuda_types():
    for name in ("FloatTensor", "DoubleTensor", "LongTensor", "HalfTensor", "BoolTensor"):
        y, t = getattr(yaten.cuda, name), getattr(torch.cuda, name)
        assert (
            y.__name__ == t.__name__
            and y.is_cuda is t.is_cuda is True
            and y.dtype == getattr(yaten, str(t.dtype)[6:])
        )
        assert y is getattr(yaten.cuda, name)
        assert not isinstance(yaten.ones(1, dtype=y.dtype), y)
        assert not isinstance(torch.ones(1, dtype=t.dtype), t)
    assert isinstance(yaten.ones(1), yaten.FloatTensor) and not isinstance(
        yaten.ones(1), yaten.cuda.FloatTensor
    )
    with pytest.raises(
        RuntimeError, match="legacy constructor expects device type: cuda but device type: cpu"
    ):
        yaten.cuda.FloatTensor(2, device="cpu")


def test_deprecated_memory_names_warn_as_torchs():
    pairs = [("memory_cached", "memory_reserved"), ("max_memory_cached", "max_memory_reserved")]
    for old, new in pairs:
        with pytest.warns(FutureWarning, match=f"`torch.cuda.{old}` has been renamed to `torch.cuda.{new}`"):
            assert getattr(yaten.cuda, old)() == getattr(yaten.cuda, new)()
    for old in ("reset_max_memory_allocated", "reset_max_memory_cached"):
        with pytest.warns(
            FutureWarning, match=f"torch.cuda.{old} now calls torch.cuda.reset_peak_memory_stats"
        ):
            getattr(yaten.cuda, old)()


@no_cuda
def test_accelerator_without_one_as_torchs():
    assert yaten.accelerator.current_accelerator() is torch.accelerator.current_accelerator() is None
    assert yaten.accelerator.is_available() is torch.accelerator.is_available() is False
    assert yaten.accelerator.device_count() == torch.accelerator.device_count() == 0
    for name, args in [("current_device_index", ()), ("set_device_index", (0,)), ("synchronize", ()),
                       ("current_stream", ()), ("get_device_capability", ()), ("memory_allocated", ()),
                       ("empty_cache", ()), ("memory_stats", ()), ("get_memory_info", ())]:  # fmt: skip
        with pytest.raises(RuntimeError) as want:
            getattr(torch.accelerator, name)(*args)
        with pytest.raises(RuntimeError) as got:
            getattr(yaten.accelerator, name)(*args)
        assert str(got.value) == str(want.value), name
    with yaten.accelerator.device_index(None):
        pass


def _copy_weights(t, y):
    y.load_state_dict({k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in t.state_dict().items()})


@no_cuda
def test_data_parallel_without_cuda_runs_the_module_as_torchs():
    t_inner, y_inner = torch.nn.Linear(3, 2), yaten.nn.Linear(3, 2)
    _copy_weights(t_inner, y_inner)
    t, y = torch.nn.DataParallel(t_inner), yaten.nn.DataParallel(y_inner)
    assert list(y.state_dict()) == list(t.state_dict()) == ["module.weight", "module.bias"]
    assert y.device_ids == t.device_ids == [] and y.module is y_inner
    assert repr(y) == repr(t)
    x = np.random.default_rng(2).standard_normal((4, 3)).astype(np.float32)
    assert_close(y(yaten.from_numpy(x)), t(torch.from_numpy(x)))
    y_given = yaten.nn.DataParallel(yaten.nn.Linear(1, 1), device_ids=[0])
    assert y_given.device_ids == torch.nn.DataParallel(torch.nn.Linear(1, 1), device_ids=[0]).device_ids
    with pytest.raises(RuntimeError) as want:
        torch.nn.parallel.data_parallel(t_inner, torch.ones(1, 3))
    with pytest.raises(RuntimeError) as got:
        yaten.nn.parallel.data_parallel(y_inner, yaten.ones(1, 3))
    assert str(got.value) == str(want.value)
    assert type(y).__module__ == "yaten.nn.parallel.data_parallel"


def test_gather_refuses_cpu_tensors_as_torchs():
    with pytest.raises(AssertionError) as want:
        torch.nn.parallel.gather([torch.ones(2)], 0)
    with pytest.raises(AssertionError) as got:
        yaten.nn.parallel.gather([yaten.ones(2)], 0)
    assert str(got.value) == str(want.value)


def test_parallel_apply_runs_each_module():
    relu, neg = yaten.nn.ReLU(), yaten.nn.Identity()
    outs = yaten.nn.parallel.parallel_apply([relu, neg], [yaten.tensor([-1.0]), (yaten.tensor([-2.0]),)])
    assert [o.tolist() for o in outs] == [[0.0], [-2.0]]
    with pytest.raises(
        AssertionError, match="The number of modules 2 is not equal to the number of inputs 1"
    ):
        yaten.nn.parallel.parallel_apply([relu, neg], [yaten.ones(1)])


def test_distributed_shell():
    import yaten.distributed as dist

    assert dist.is_available() is False and dist.is_initialized() is False
    assert dist.is_nccl_available() is False  # a CUDA build of torch has NCCL; yaten never uses it
    assert dist.is_mpi_available() is False and dist.is_gloo_available() is False
    assert dist.is_torchelastic_launched() is torch.distributed.is_torchelastic_launched()
    assert not hasattr(dist, "init_process_group") and not hasattr(dist, "all_reduce")
