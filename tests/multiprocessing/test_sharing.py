"""yaten.multiprocessing: tensors shared between processes (not copied), spawn's errors, torch's names."""

import multiprocessing
import pickle

import pytest
import torch
import torch.multiprocessing as tmp

import yaten
import yaten.multiprocessing as mp
from tests.multiprocessing import _workers
from tests.tolerances import assert_close

TIMEOUT = 120  # seconds a child may take (a spawned child imports yaten)


def _run(ctx, target, *args):
    p = ctx.Process(target=target, args=args)
    p.start()
    p.join(TIMEOUT)
    assert p.exitcode == 0, f"child exit code {p.exitcode}"


def test_every_name_of_torch_multiprocessing_is_here():
    missing = [n for n in tmp.__all__ if not hasattr(mp, n)]
    assert missing == []
    for name in ("spawn", "start_processes", "ProcessContext", "ProcessRaisedException", "ProcessExitedException",
                 "get_context", "set_start_method", "get_all_start_methods", "reductions", "init_reductions"):  # fmt: skip
        assert hasattr(mp, name), name
    assert mp.get_sharing_strategy() == tmp.get_sharing_strategy() == "file_descriptor"
    assert mp.get_all_sharing_strategies() == tmp.get_all_sharing_strategies()


def test_invalid_sharing_strategy_is_torchs_error():
    with pytest.raises(AssertionError) as theirs:
        tmp.set_sharing_strategy("bogus")
    with pytest.raises(AssertionError) as ours:
        mp.set_sharing_strategy("bogus")
    # torch prints the set of strategies, in the set's (hash-seeded) order
    assert sorted(str(ours.value)) == sorted(str(theirs.value))
    assert str(ours.value).startswith("invalid sharing strategy 'bogus', expected one of {")


def test_share_memory_moves_the_storage_and_keeps_values():
    x = yaten.arange(6.0).reshape(2, 3)
    assert not x.is_shared() and not x.untyped_storage().is_shared()
    assert x.share_memory_() is x and x.is_shared()
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    v = x[1]  # a view made after sharing shares the memory
    v.add_(10)
    assert x[1].tolist() == [13.0, 14.0, 15.0] and v.is_shared()
    m = yaten.nn.Linear(3, 2)
    before = m.weight.detach().clone()
    w = m.weight
    assert m.share_memory() is m and m.weight is w and m.weight.is_shared() and m.bias.is_shared()
    assert_close(m.weight.detach(), before)
    t = torch.zeros(2)
    assert t.share_memory_().is_shared()  # the reference behaviour


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_child_updates_a_shared_tensor_in_place(method):
    x = yaten.zeros(4)
    x.share_memory_()
    _run(mp.get_context(method), _workers.add_one, x)
    assert x.tolist() == [1.0, 1.0, 1.0, 1.0]


def test_spawn_arguments_go_by_shared_memory_even_unshared():
    # As torch: pickling a tensor for another process moves it into shared memory first.
    x = yaten.zeros(3)
    _run(mp.get_context("spawn"), _workers.add_one, x)
    assert x.is_shared() and x.tolist() == [1.0, 1.0, 1.0]


def test_hogwild_training_updates_the_parents_model():
    yaten.manual_seed(0)
    model = yaten.nn.Linear(2, 1)
    model.share_memory()
    start = model.weight.detach().clone()
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=_workers.hogwild_step, args=(model, 3)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(TIMEOUT)
        assert p.exitcode == 0
    # d(sum(w x + b))/dw = x = 1: each of the 6 SGD steps subtracts 0.1 from every weight.
    assert_close(model.weight.detach(), start - 0.6)


@pytest.mark.parametrize("strategy", ["file_descriptor", "file_system"])
def test_tensors_through_queues_share_storage_both_ways(strategy):
    mp.set_sharing_strategy(strategy)
    try:
        ctx = mp.get_context("spawn")
        inbox, outbox, received = ctx.Queue(), ctx.Queue(), ctx.Event()
        x = yaten.arange(4.0)
        p = ctx.Process(target=_workers.double_from_queue, args=(inbox, outbox, received))
        p.start()
        inbox.put(x)
        back, tail, pid = outbox.get(timeout=TIMEOUT)
        received.set()
        p.join(TIMEOUT)
        assert p.exitcode == 0 and pid == p.pid
    finally:
        mp.set_sharing_strategy("file_descriptor")
    assert x.tolist() == [0.0, 2.0, 4.0, 6.0]  # the child's in-place update is ours
    # Sent back, it is our own storage again, and the view shares it.
    assert back.untyped_storage() is x.untyped_storage() and tail.untyped_storage() is x.untyped_storage()
    assert tail.storage_offset() == 1
    back.add_(1)
    assert x.tolist() == [1.0, 3.0, 5.0, 7.0]


def test_parameters_keep_their_kind_and_requires_grad_across_a_pipe():
    a, b = mp.get_context("fork").Pipe()
    p = yaten.nn.Parameter(yaten.ones(2))
    a.send([p, yaten.zeros(1, dtype=yaten.int64)])
    q, i = b.recv()
    assert type(q) is yaten.nn.Parameter and q.requires_grad and i.dtype is yaten.int64
    q.data.add_(1)
    assert p.tolist() == [2.0, 2.0]


def test_a_non_leaf_that_requires_grad_is_refused_as_torch():
    from multiprocessing.reduction import ForkingPickler

    for lib in (torch, yaten):
        y = lib.ones(2, requires_grad=True) * 2
        with pytest.raises(
            RuntimeError, match="Cowardly refusing to serialize non-leaf tensor which requires_grad"
        ):
            ForkingPickler.dumps(y)


def test_plain_pickle_still_copies():
    x = yaten.ones(2)
    y = pickle.loads(pickle.dumps(x))
    y.add_(1)
    assert x.tolist() == [1.0, 1.0] and not x.is_shared()


def test_spawn_runs_every_process():
    x = yaten.zeros(3).share_memory_()
    assert mp.spawn(_workers.spawn_add, args=(x,), nprocs=3) is None
    assert x.tolist() == [1.0, 2.0, 3.0]


def test_spawn_raises_a_childs_exception_with_its_traceback():
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.spawn(_workers.spawn_raise, nprocs=2)
    assert info.value.error_index == 1
    assert "-- Process 1 terminated with the following error:" in str(info.value)
    assert "ValueError: child 1 failed on purpose" in str(info.value)


def test_spawn_raises_a_childs_exit_code_and_join_false_gives_the_context():
    ctx = mp.start_processes(_workers.spawn_exit, args=(3,), nprocs=1, join=False, start_method="fork")
    assert isinstance(ctx, mp.ProcessContext) and len(ctx.pids()) == 1
    with pytest.raises(mp.ProcessExitedException, match="process 0 terminated with exit code 3") as info:
        while not ctx.join():
            pass
    assert info.value.exit_code == 3 and info.value.error_index == 0


def test_start_methods_are_pythons():
    assert mp.get_all_start_methods() == multiprocessing.get_all_start_methods()
    assert mp.get_context("spawn").get_start_method() == "spawn"
