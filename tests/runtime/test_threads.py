"""The thread budget: yaten.set_num_threads/get_num_threads as torch's, applied to BLAS and to Numba."""

import os
import subprocess
import sys

import numba
import numpy as np
import pytest
import threadpoolctl
import torch

import yaten
from yaten import _threads
from yaten.kernels.cpu import threads as cpu_threads


@pytest.fixture(autouse=True)
def restore_budget():
    before = yaten.get_num_threads()
    yield
    yaten.set_num_threads(before)


def _blas_threads() -> list:
    """The thread counts of the BLAS libraries loaded in this process."""
    return [lib["num_threads"] for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "blas"]


def _product_blas_threads() -> set:
    """The thread counts of the BLAS libraries yaten multiplies with (those loaded when it last looked:
    Numba may load SciPy's later, which yaten's products never call)."""
    used = {lib.filepath for lib in _threads._blas_libraries()}
    return {lib["num_threads"] for lib in threadpoolctl.threadpool_info() if lib["filepath"] in used}


def test_set_get_round_trip_as_torch():
    yaten.set_num_threads(3)
    assert yaten.get_num_threads() == 3
    yaten.set_num_threads(np.int64(1))  # anything with __index__, as torch
    assert yaten.get_num_threads() == 1


@pytest.mark.parametrize("setter", ["set_num_threads", "set_num_interop_threads"])
@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True, None])
def test_bad_arguments_raise_torchs_errors(setter, bad):
    with pytest.raises(RuntimeError) as t_err:
        getattr(torch, setter)(bad)
    with pytest.raises(RuntimeError) as y_err:
        getattr(yaten, setter)(bad)
    assert str(y_err.value) == str(t_err.value)


def test_the_budget_sets_blas_threads():
    yaten.set_num_threads(1)
    assert np.ones((2, 2)) @ np.ones((2, 2)) is not None and _blas_threads()  # NumPy's BLAS is loaded
    assert set(_blas_threads()) == {1}
    yaten.set_num_threads(3)
    assert set(_blas_threads()) == {3}


def test_small_products_run_on_one_blas_thread_large_ones_on_the_budget():
    yaten.set_num_threads(2)
    small, large = yaten.ones(64, 64), yaten.ones(256, 256)
    assert (small @ small).sum().item() == 64 * 64 * 64
    assert _product_blas_threads() == {1}
    assert (large @ large).sum().item() == 256**3
    assert _product_blas_threads() == {2}
    x, w = yaten.ones(1, 1, 4, 4), yaten.ones(1, 1, 3, 3)  # convolutions go through the same rule
    assert yaten.nn.functional.conv2d(x, w, padding=1).sum().item() == 100  # 4 corners x4, 8 edges x6, 4 x9
    assert _product_blas_threads() == {1}


def test_the_budget_sets_numbas_threads_for_large_inputs_only():
    most = min(2, numba.config.NUMBA_NUM_THREADS)
    yaten.set_num_threads(2)
    big = 1 << 20
    assert cpu_threads.kernel_threads(big) == most
    assert cpu_threads.kernel_threads(cpu_threads.PARALLEL_FROM - 1) == 1
    x = yaten.ones(4, 16, 128, 128)  # 2^20 elements: a parallel max-pool
    assert yaten.nn.functional.max_pool2d(x, 2).sum().item() == big / 4
    assert numba.get_num_threads() == most
    yaten.set_num_threads(1)
    assert cpu_threads.kernel_threads(big) == 1
    assert yaten.nn.functional.max_pool2d(x, 2).sum().item() == big / 4  # on the serial compile


def _default_in_a_fresh_process(**env) -> int:
    base = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    code = "import yaten; print(yaten.get_num_threads())"
    out = subprocess.run([sys.executable, "-c", code], env={**base, **env}, capture_output=True, text=True)
    return int(out.stdout)


def test_default_follows_omp_num_threads_as_torch():
    assert _default_in_a_fresh_process(OMP_NUM_THREADS="1") == 1
    # As torch's, never more threads than cores (torch caps OMP_NUM_THREADS too).
    cpus = len(os.sched_getaffinity(0))
    assert 1 <= _default_in_a_fresh_process(OMP_NUM_THREADS="64") <= cpus
    assert 1 <= _default_in_a_fresh_process() <= cpus


def test_blas_threads_threshold_is_per_matrix_pair():
    yaten.set_num_threads(2)
    stack = yaten.ones(64, 32, 32)  # 64 small products, 2^21 multiply-adds in all
    assert yaten.bmm(stack, stack).sum().item() == 64 * 32 * 32 * 32
    assert _product_blas_threads() == {1}
    assert _threads.BLAS_PARALLEL_FROM > 32**3


def test_interop_threads_are_set_once_as_torchs():
    code = """
import torch, yaten
for lib in (torch, yaten):
    lib.set_num_interop_threads(2)
    try:
        lib.set_num_interop_threads(2)
    except RuntimeError as e:
        print(e)
print(yaten.get_num_interop_threads())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    torch_message, yaten_message, interop = out.stdout.splitlines()
    assert yaten_message == torch_message
    assert interop == "1"  # yaten has no inter-op pool: every op runs on the calling thread


def test_parallel_kernels_from_several_python_threads_at_once():
    # The threading layer yaten picks must be thread-safe: Numba's workqueue aborts the process here.
    code = """
import threading, numba, yaten
yaten.set_num_threads(2)
x = yaten.ones(4, 16, 128, 128)
def work():
    for _ in range(20):
        assert yaten.nn.functional.max_pool2d(x, 2).sum().item() == 2**18
threads = [threading.Thread(target=work) for _ in range(3)]
[t.start() for t in threads]
[t.join() for t in threads]
print(numba.threading_layer() if numba.config.NUMBA_NUM_THREADS > 1 else "one CPU: no pool")
"""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_THREADING_LAYER")}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() in ("omp", "tbb", "one CPU: no pool")
