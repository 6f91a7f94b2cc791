"""DataLoader: batches compared with torch's (no shuffle), determinism (shuffle), worker processes."""

import gc
import math
import multiprocessing
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import yaten
from yaten.utils import data as yd

td = torch.utils.data


def _pair(n=10):
    x = np.arange(n * 2, dtype=np.float32).reshape(n, 2)
    y = np.arange(n)
    return (
        yd.TensorDataset(yaten.tensor(x), yaten.tensor(y)),
        td.TensorDataset(torch.tensor(x), torch.tensor(y)),
    )


class Squares(yd.Dataset):
    """A map-style dataset of dicts, picklable (module level) for worker processes."""

    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return {"i": i, "sq": yaten.tensor([float(i * i)]), "name": f"s{i}"}

    def __len__(self):
        return self.n


class Stream(yd.IterableDataset):
    """0..n-1, split between workers by get_worker_info() as PyTorch's docs show."""

    def __init__(self, n, has_len=True):
        self.n, self.has_len = n, has_len

    def __iter__(self):
        info = yd.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))

    def __len__(self):
        if not self.has_len:
            raise TypeError("no length")
        return self.n


class Whole(yd.IterableDataset):
    def __iter__(self):
        return iter(range(3))


class Failing(yd.Dataset):
    def __getitem__(self, i):
        if i == 3:
            raise KeyError("item 3 is broken")
        return i

    def __len__(self):
        return 6


class WorkerIds(yd.Dataset):
    def __getitem__(self, i):
        info = yd.get_worker_info()
        return (info.id, info.num_workers, info.seed, os.getpid(), int(yaten.randint(0, 2**30, ()).item()))

    def __len__(self):
        return 8


class Slow(yd.Dataset):
    def __getitem__(self, i):
        import time

        time.sleep(1)
        return i

    def __len__(self):
        return 2


@pytest.mark.parametrize(
    ("batch_size", "drop_last"),
    [(1, False), (3, False), (4, False), (None, False), (1, True), (3, True), (4, True)],
)
def test_batches_as_torch(batch_size, drop_last, plain):
    y, t = _pair()
    yl = yd.DataLoader(y, batch_size=batch_size, drop_last=drop_last)
    tl = td.DataLoader(t, batch_size=batch_size, drop_last=drop_last)
    assert [plain(b) for b in yl] == [plain(b) for b in tl]
    assert len(yl) == len(tl)


def test_dict_samples_and_collate_fn_as_torch(plain):
    ys = Squares(5)
    ts = [{"i": i, "sq": torch.tensor([float(i * i)]), "name": f"s{i}"} for i in range(5)]
    assert [plain(b) for b in yd.DataLoader(ys, batch_size=2)] == [
        plain(b) for b in td.DataLoader(ts, batch_size=2)
    ]
    got = list(yd.DataLoader(range(5), batch_size=2, collate_fn=lambda b: sum(b)))
    assert got == list(td.DataLoader(range(5), batch_size=2, collate_fn=lambda b: sum(b))) == [1, 5, 4]


def test_sampler_and_batch_sampler_arguments():
    y, _ = _pair()
    batches = list(yd.DataLoader(y, batch_sampler=[[0, 9], [4]]))
    assert [b[1].tolist() for b in batches] == [[0, 9], [4]]
    batches = list(yd.DataLoader(y, sampler=[9, 8, 7], batch_size=2))
    assert [b[1].tolist() for b in batches] == [[9, 8], [7]]


def test_shuffle_is_a_permutation_and_deterministic_for_a_generator():
    y, _ = _pair(20)

    def epoch(loader):
        return [v for _, b in loader for v in b.tolist()]

    a = epoch(yd.DataLoader(y, batch_size=3, shuffle=True, generator=yaten.Generator().manual_seed(7)))
    b = epoch(yd.DataLoader(y, batch_size=3, shuffle=True, generator=yaten.Generator().manual_seed(7)))
    assert a == b and sorted(a) == list(range(20)) and a != list(range(20))
    loader = yd.DataLoader(y, batch_size=3, shuffle=True, generator=yaten.Generator().manual_seed(7))
    assert epoch(loader) != epoch(loader)  # each epoch a new order
    yaten.manual_seed(11)
    c = epoch(yd.DataLoader(y, batch_size=3, shuffle=True))
    yaten.manual_seed(11)
    assert c == epoch(yd.DataLoader(y, batch_size=3, shuffle=True))


@pytest.mark.parametrize(("kwargs", "exc"), [
    ({"sampler": [0, 1], "shuffle": True}, ValueError),
    ({"batch_sampler": [[0]], "batch_size": 2}, ValueError),
    ({"batch_sampler": [[0]], "shuffle": True}, ValueError),
    ({"batch_sampler": [[0]], "sampler": [0]}, ValueError),
    ({"batch_sampler": [[0]], "drop_last": True}, ValueError),
    ({"batch_size": None, "drop_last": True}, ValueError),
    ({"num_workers": -1}, ValueError),
    ({"timeout": -1}, ValueError),
    ({"prefetch_factor": 2}, ValueError),
    ({"num_workers": 1, "prefetch_factor": -1}, ValueError),
    ({"persistent_workers": True}, ValueError),
])  # fmt: skip
def test_argument_errors_as_torch(kwargs, exc):
    with pytest.raises(exc) as t_err:
        td.DataLoader(list(range(4)), **kwargs)
    with pytest.raises(exc) as y_err:
        yd.DataLoader(list(range(4)), **kwargs)
    assert str(y_err.value) == str(t_err.value)


@pytest.mark.parametrize("kwargs", [{"shuffle": True}, {"sampler": [0]}, {"batch_sampler": [[0]]}])
def test_iterable_dataset_refuses_sampling_options_as_torch(kwargs):
    class TStream(td.IterableDataset):
        def __iter__(self):
            return iter(range(3))

    with pytest.raises(ValueError) as t_err:
        td.DataLoader(TStream(), **kwargs)
    with pytest.raises(ValueError) as y_err:
        yd.DataLoader(Stream(3), **kwargs)
    assert str(y_err.value).split(", but got")[0] == str(t_err.value).split(", but got")[0]


def test_attributes_are_frozen_after_init():
    loader = yd.DataLoader(range(3))
    with pytest.raises(
        ValueError, match="batch_size attribute should not be set after DataLoader is initialized"
    ):
        loader.batch_size = 2
    loader.num_workers = 0  # not frozen in torch either


@pytest.mark.parametrize(("n", "batch_size", "drop_last"), [(10, 3, False), (10, 3, True), (9, None, False)])
def test_iterable_dataset_batches_and_len_as_torch(n, batch_size, drop_last):
    loader = yd.DataLoader(Stream(n), batch_size=batch_size, drop_last=drop_last)
    got = [b.tolist() if batch_size else b for b in loader]
    want = list(range(n))
    if batch_size:
        want = [want[i : i + batch_size] for i in range(0, n, batch_size)]
        if drop_last and len(want[-1]) < batch_size:
            want.pop()
        assert len(loader) == (n // batch_size if drop_last else math.ceil(n / batch_size))
    assert got == want
    with pytest.raises(TypeError, match="no length"):
        len(yd.DataLoader(Stream(n, has_len=False), batch_size=2))


# --- worker processes -------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:This DataLoader will create")  # 3 workers on a 2-CPU machine
@pytest.mark.parametrize("num_workers", [1, 3])
def test_workers_give_the_batches_of_the_main_process(num_workers, plain):
    ds = Squares(11)
    want = [plain(b) for b in yd.DataLoader(ds, batch_size=2)]
    got = [plain(b) for b in yd.DataLoader(ds, batch_size=2, num_workers=num_workers, prefetch_factor=1)]
    assert got == want
    g = lambda: yaten.Generator().manual_seed(3)
    want = [plain(b) for b in yd.DataLoader(ds, batch_size=4, shuffle=True, generator=g())]
    got = [plain(b) for b in yd.DataLoader(ds, batch_size=4, shuffle=True, generator=g(), num_workers=2)]
    assert got == want


def test_worker_info_seeds_and_init_fn():
    def rows(**kwargs):
        return list(yd.DataLoader(WorkerIds(), batch_size=None, num_workers=2, **kwargs))

    got = rows(generator=yaten.Generator().manual_seed(4))
    assert {r[0] for r in got} == {0, 1} and {r[1] for r in got} == {2}
    seeds = {r[0]: r[2] for r in got}
    assert seeds[1] == seeds[0] + 1  # base seed + worker id, as PyTorch
    assert os.getpid() not in {r[3] for r in got}
    again = rows(generator=yaten.Generator().manual_seed(4))
    assert [(r[0], r[2], r[4]) for r in again] == [(r[0], r[2], r[4]) for r in got]
    # worker_init_fn runs in the worker before any sample: here it reseeds the worker's generator.
    draws = [r[4] for r in rows(worker_init_fn=_init_fn) if r[0] == 1]
    yaten.manual_seed(1001)
    assert draws == [int(yaten.randint(0, 2**30, ()).item()) for _ in draws]
    assert yd.get_worker_info() is None


def _init_fn(worker_id):
    assert yd.get_worker_info().id == worker_id
    yaten.manual_seed(1000 + worker_id)


def test_iterable_dataset_split_between_workers():
    loader = yd.DataLoader(Stream(10), batch_size=2, num_workers=2)
    got = sorted(v for b in loader for v in b.tolist())
    assert got == list(range(10))

    # Without splitting, each worker yields the whole stream (PyTorch's documented duplicate).
    assert sorted(yd.DataLoader(Whole(), batch_size=None, num_workers=2)) == [0, 0, 1, 1, 2, 2]


def test_worker_exception_is_raised_in_main_with_its_type():
    with pytest.raises(KeyError, match="Caught KeyError in DataLoader worker process 0"):
        list(yd.DataLoader(Failing(), batch_size=None, num_workers=1))


def test_persistent_workers_keep_their_processes_across_epochs(plain):
    ds = Squares(7)
    loader = yd.DataLoader(ds, batch_size=3, num_workers=2, persistent_workers=True)
    first = [plain(b) for b in loader]
    pids = [w.pid for w in loader._iterator._workers]
    second = [plain(b) for b in loader]
    assert first == second == [plain(b) for b in yd.DataLoader(ds, batch_size=3)]
    assert [w.pid for w in loader._iterator._workers] == pids
    # A partly consumed epoch, then a new one: the stale results are dropped.
    it = iter(loader)
    next(it)
    assert [plain(b) for b in loader] == first
    loader._iterator._shutdown_workers()


def test_timeout_raises_runtime_error():
    with pytest.raises(RuntimeError, match=r"DataLoader timed out after 0.5 seconds"):
        list(yd.DataLoader(Slow(), num_workers=1, timeout=0.5))


def test_pin_memory_and_context_are_accepted():
    loader = yd.DataLoader(
        range(4), batch_size=2, num_workers=1, pin_memory=True, multiprocessing_context="fork"
    )
    assert [b.tolist() for b in loader] == [[0, 1], [2, 3]]


class Dies(yd.Dataset):
    def __getitem__(self, i):
        os._exit(1)

    def __len__(self):
        return 2


def test_a_dead_worker_raises_runtime_error():
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid\(s\) \d+\) exited unexpectedly"):
        list(yd.DataLoader(Dies(), num_workers=1))


def test_abandoned_iterator_stops_its_workers():
    it = iter(yd.DataLoader(Squares(50), batch_size=2, num_workers=2))
    next(it)
    workers = it._workers
    del it
    gc.collect()
    assert not any(w.is_alive() for w in workers)


def test_spawned_workers():
    ds = yd.TensorDataset(yaten.arange(6), yaten.arange(6) * 2.0)
    loader = yd.DataLoader(ds, batch_size=4, num_workers=1, multiprocessing_context="spawn")
    assert [[v.tolist() for v in b] for b in loader] == [
        [[0, 1, 2, 3], [0.0, 2.0, 4.0, 6.0]],
        [[4, 5], [8.0, 10.0]],
    ]


def test_iterable_dataset_longer_than_reported_warns_as_torch():
    class Liar(yd.IterableDataset):
        def __iter__(self):
            return iter(range(5))

        def __len__(self):
            return 2

    loader = yd.DataLoader(Liar(), batch_size=None)
    assert len(loader) == 2
    with pytest.warns(
        UserWarning, match=r"was reported to be 2\(when accessing len\(dataloader\)\)"
    ) as record:
        assert list(loader) == [0, 1, 2, 3, 4]
    assert [str(w.message).split("but ")[1][0] for w in record] == ["3", "4", "5"]  # one per extra batch


def test_more_workers_than_cpus_warns_as_torch(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    with pytest.warns(UserWarning) as y_rec:
        yd.DataLoader(range(4), num_workers=2)
    with pytest.warns(UserWarning) as t_rec:
        td.DataLoader(range(4), num_workers=2)
    assert [str(w.message) for w in y_rec] == [str(w.message) for w in t_rec]


def test_workers_start_safely_once_the_parallel_runtime_runs():
    # A big reduction starts Numba's thread pool; the workers are still forked, as torch's, and
    # compute on the serial compile of the parallel kernels (GNU OpenMP's pool does not survive fork).
    x = yaten.ones(4_000_000)
    assert x.sum().item() == 4_000_000
    loader = yd.DataLoader(Squares(4), batch_size=2, num_workers=2)
    assert [b["i"].tolist() for b in loader] == [[0, 1], [2, 3]]


# A user's script without ``if __name__ == "__main__":``: a parallel kernel (a max-pool over 2^20
# elements), then two epochs of a two-worker DataLoader whose dataset runs parallel kernels too.
UNGUARDED = """
import multiprocessing
import yaten
from yaten.utils.data import DataLoader, Dataset

print("top level", flush=True)


class Pooled(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        x = yaten.full((4, 16, 128, 128), float(i))
        return yaten.nn.functional.max_pool2d(x, 2).sum() + yaten.ones(1 << 20).sum()


pooled = yaten.nn.functional.max_pool2d(yaten.ones(4, 16, 128, 128), 2)
for epoch in range(2):
    batches = [b.tolist() for b in DataLoader(Pooled(), batch_size=2, num_workers=2)]
    print(epoch, batches, yaten.get_num_threads() >= 1, flush=True)
print(multiprocessing.get_start_method())
"""


def test_an_unguarded_script_runs_every_epoch_and_its_top_level_once(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(UNGUARDED)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    batch = [[2.0**20 + i * 2**18 for i in (0, 1)], [2.0**20 + i * 2**18 for i in (2, 3)]]
    start = multiprocessing.get_start_method()
    assert run.stdout.splitlines() == ["top level", f"0 {batch} True", f"1 {batch} True", start]


def test_persistent_workers_restart_after_a_timeout():
    loader = yd.DataLoader(Slow(), num_workers=1, timeout=0.5, persistent_workers=True)
    with pytest.raises(RuntimeError, match="timed out"):
        list(loader)
    loader.timeout = 30
    assert [b.tolist() for b in loader] == [[0], [1]]


def _bad_init(worker_id):
    raise ValueError(f"init of worker {worker_id} failed")


def test_worker_init_fn_error_is_raised_in_main():
    with pytest.raises(
        ValueError, match=r"(?s)Caught ValueError in DataLoader worker process 0.*init of worker 0 failed"
    ):
        list(yd.DataLoader(range(4), num_workers=1, worker_init_fn=_bad_init))
    with pytest.raises(KeyError) as err:
        list(yd.DataLoader(Failing(), batch_size=None, num_workers=1))
    assert str(err.value).startswith("Caught KeyError in DataLoader worker process 0.\nOriginal Traceback")
