"""yaten's CUDA backend next to ``torch.cuda``, measured in one run on a machine with an NVIDIA GPU.

``python bench/gpu.py`` prints a table of yaten/torch.cuda ratios with the CUDA issue's targets:
elementwise add on 1e8 float32 (and its bandwidth against a device-to-device copy), sum of 1e8,
a 4096^2 float32 matmul, the launch overhead of an op on a tiny tensor, and one training step of
the digits MLP and CNN (examples/train_digits.py's models, batch 64). Every timing synchronizes the
device before reading the clock. A row whose op yaten cannot run on CUDA yet says so instead of a time.

``python bench/gpu.py --dry-run`` runs every row on tiny sizes with torch on the CPU as the reference,
so the script itself can be checked without a GPU (under ``NUMBA_ENABLE_CUDASIM=1``); its times mean
nothing. Nothing here is a test.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch

import yaten

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import train_digits


class Lib:
    """One library on one device: its module, device name and synchronize call; ``once`` (a dry run)
    times a single call, since the simulator runs every GPU thread in Python."""

    def __init__(self, module, device: str, once: bool = False):
        self.m, self.device, self.once = module, device, once
        cuda = module.cuda
        self.sync = cuda.synchronize if device == "cuda" else (lambda: None)

    def tensor(self, array: np.ndarray):
        return self.m.from_numpy(array).to(self.device)


def seconds(lib: Lib, fn, repeat: int, number: int) -> float:
    """Seconds per call of ``fn``: the least over ``repeat`` runs of ``number`` calls, synchronized."""
    fn()
    lib.sync()
    if lib.once:
        repeat = number = 1
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        lib.sync()
        times.append((time.perf_counter() - t) / number)
    return min(times)


def add(lib, n):
    a, b = lib.tensor(np.ones(n, np.float32)), lib.tensor(np.ones(n, np.float32))
    return seconds(lib, lambda: a + b, 5, 10)


def copy(lib, n):
    a, b = lib.tensor(np.ones(n, np.float32)), lib.tensor(np.zeros(n, np.float32))
    return seconds(lib, lambda: b.copy_(a), 5, 10)


def total(lib, n):
    a = lib.tensor(np.ones(n, np.float32))
    return seconds(lib, lambda: a.sum(), 5, 10)


def matmul(lib, n):
    rng = np.random.default_rng(0)
    a, b = (lib.tensor(rng.random((n, n), dtype=np.float32)) for _ in range(2))
    return seconds(lib, lambda: a @ b, 3, 5)


def launch(lib, _n):
    a, b = lib.tensor(np.ones(2, np.float32)), lib.tensor(np.ones(2, np.float32))
    return seconds(lib, lambda: a + b, 5, 1000)


def training_step(kind):
    def step(lib, batch):
        lib.m.manual_seed(0)
        model = train_digits.make_model(lib.m, kind).to(lib.device)
        optimizer = lib.m.optim.Adam(model.parameters(), lr=3e-3)
        loss_fn = lib.m.nn.CrossEntropyLoss()
        rng = np.random.default_rng(0)
        x = lib.tensor(rng.random((batch, 1, 8, 8), dtype=np.float32))
        y = lib.tensor(rng.integers(0, 10, batch))

        def one():
            optimizer.zero_grad()
            loss_fn(model(x), y).backward()
            optimizer.step()

        return seconds(lib, one, 5, 10)

    return step


# (name, timing function, full size, dry-run size, target on yaten/torch or None)
ROWS = [
    ("add, 1e8 float32", add, 10**8, 1000, None),  # its target, 80% of copy bandwidth, is the last row
    ("device-to-device copy, 1e8 float32", copy, 10**8, 1000, None),
    ("sum, 1e8 float32", total, 10**8, 1000, None),
    ("matmul 4096x4096 float32", matmul, 4096, 8, 1 / 0.7),
    ("launch overhead: add of 2 elements", launch, 2, 2, 2.0),
    ("digits MLP training step (batch 64)", training_step("mlp"), 64, 4, 1.5),
    ("digits CNN training step (batch 64)", training_step("cnn"), 64, 2, 1.5),
]


def _fmt(t: float) -> str:
    return f"{t * 1e6:.1f} us" if t < 1e-3 else f"{t * 1e3:.2f} ms"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dry-run", action="store_true", help="tiny sizes, torch on the cpu: checks the script"
    )
    args = parser.parse_args(argv)
    if not yaten.cuda.is_available() or not (args.dry_run or torch.cuda.is_available()):
        print("bench/gpu.py needs an NVIDIA GPU with both yaten.cuda and torch.cuda available (or --dry-run)")
        return 2
    ours = Lib(yaten, "cuda", args.dry_run)
    theirs = Lib(torch, "cpu" if args.dry_run else "cuda", args.dry_run)
    name = "dry run: tiny sizes, torch on the cpu" if args.dry_run else torch.cuda.get_device_name()
    print(f"GPU: {name}\n")
    print("| case | yaten | torch | yaten/torch | target | met |")
    print("|---|---|---|---|---|---|")
    results = {}
    for label, fn, full, small, target in ROWS:
        n = small if args.dry_run else full
        try:
            y = fn(ours, n)
        except NotImplementedError as e:
            print(f"| {label} | not on CUDA yet ({str(e).splitlines()[0]}) | - | - | - | no |")
            continue
        t = fn(theirs, n)
        results[fn.__name__] = (y, n)
        met = "-" if target is None else ("yes" if y / t <= target else "no")
        shown = "-" if target is None else f"<= {target:.2f}"
        print(f"| {label} | {_fmt(y)} | {_fmt(t)} | {y / t:.2f} | {shown} | {met} |")
    if "add" in results and "copy" in results:
        (ta, n), (tc, _) = results["add"], results["copy"]
        add_gbs, copy_gbs = 3 * 4 * n / ta / 1e9, 2 * 4 * n / tc / 1e9
        met = "yes" if add_gbs >= 0.8 * copy_gbs else "no"
        print(f"| add bandwidth (read 2, write 1) vs copy | {add_gbs:.0f} GB/s | copy {copy_gbs:.0f} GB/s | "
              f"{add_gbs / copy_gbs:.2f} | >= 0.80 of copy | {met} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
