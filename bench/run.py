"""yaten's speed next to PyTorch and NumPy, measured in one run (``make bench``).

Each row times the same work in yaten, torch (CPU) and NumPy, takes the best of several repeats,
and prints the ratios with the target from the foundation issue. Nothing here is a test.
"""

import os
import subprocess
import sys
import time
import timeit
from pathlib import Path

import numpy as np
import torch

# Read before yaten sets it for its own process: each library's epochs run in a subprocess with the
# environment the user had.
USER_ENV = dict(os.environ)

import under_load

import yaten


def best(fn, number: int, repeat: int = 5) -> float:
    """Seconds per call: the minimum over ``repeat`` runs of ``number`` calls."""
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def tiny_add():
    a, b = yaten.ones(2), yaten.ones(2)
    ta, tb = torch.ones(2), torch.ones(2)
    na, nb = np.ones(2, np.float32), np.ones(2, np.float32)
    return best(lambda: a + b, 20000), best(lambda: ta + tb, 20000), best(lambda: na + nb, 20000)


def tiny_fwd_bwd():
    a, b = yaten.ones(2, requires_grad=True), yaten.ones(2, requires_grad=True)
    ta, tb = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    return best(lambda: (a * b).sum().backward(), 2000), best(lambda: (ta * tb).sum().backward(), 2000), None


def big_add():
    n = 10**7
    na, nb = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
    a, b = yaten.from_numpy(na), yaten.from_numpy(nb)
    ta, tb = torch.from_numpy(na), torch.from_numpy(nb)
    return best(lambda: a + b, 10), best(lambda: ta + tb, 10), best(lambda: na + nb, 10)


def big_tanh():
    n = 6_300_000  # the size
    na = np.random.rand(n).astype(np.float32)
    a, ta = yaten.from_numpy(na), torch.from_numpy(na)
    return best(lambda: a.tanh(), 10), best(lambda: ta.tanh(), 10), best(lambda: np.tanh(na), 10)


def big_sum():
    n = 10**7
    na = np.random.rand(n).astype(np.float32)
    a, ta = yaten.from_numpy(na), torch.from_numpy(na)
    return best(lambda: a.sum(), 20), best(lambda: ta.sum(), 20), best(lambda: na.sum(), 20)


def matmul():
    n = 1024
    na, nb = np.random.rand(n, n).astype(np.float32), np.random.rand(n, n).astype(np.float32)
    a, b = yaten.from_numpy(na), yaten.from_numpy(nb)
    ta, tb = torch.from_numpy(na), torch.from_numpy(nb)
    return best(lambda: a @ b, 10), best(lambda: ta @ tb, 10), best(lambda: na @ nb, 10)


def cold_import():
    def once(module):
        code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        return float(out.stdout)

    once("yaten")  # warm the kernel cache and the OS file cache
    return (
        min(once("yaten") for _ in range(3)),
        min(once("torch") for _ in range(3)),
        min(once("numpy") for _ in range(3)),
    )


def digits_epoch(kind: str):
    """Seconds per training epoch of examples/train_digits.py (median of 5 epochs after the first, which
    also compiles), yaten and torch each in a fresh process with the user's environment: yaten sets
    OMP_WAIT_POLICY for itself, which would slow torch's threads if it inherited it."""
    examples = str(Path(__file__).resolve().parents[1] / "examples")
    code = (
        f"import sys; sys.path.insert(0, {examples!r}); import importlib, numpy, train_digits; "
        "lib = importlib.import_module(sys.argv[1]); "
        f"print(numpy.median(train_digits.train(lib, {kind!r}, epochs=6, quiet=True)[3][1:]))"
    )
    per_epoch = [
        float(
            subprocess.run(
                [sys.executable, "-c", code, lib], capture_output=True, text=True, check=True, env=USER_ENV
            ).stdout
        )
        for lib in ("yaten", "torch")
    ]
    return per_epoch[0], per_epoch[1], None


ROWS = [
    ("add, 2 elements (no grad)", tiny_add, "yaten/torch <= 1.0"),
    ("(a*b).sum().backward(), 2 elements", tiny_fwd_bwd, "yaten/torch <= 1.0"),
    ("a + b, 1e7 float32", big_add, "yaten/torch <= 1.0"),
    ("tanh, 6.3e6 float32", big_tanh, "yaten/torch <= 1.2"),
    ("sum, 1e7 float32", big_sum, "yaten/torch <= 1.2"),
    ("matmul 1024x1024 float32", matmul, "yaten >= 0.9x NumPy throughput"),
    ("cold import (s)", cold_import, "yaten <= 0.5 s"),
    ("digits MLP, one epoch (23 batches of 64)", lambda: digits_epoch("mlp"), "yaten/torch <= 1.0"),
    ("digits CNN, one epoch (23 batches of 64)", lambda: digits_epoch("cnn"), "yaten/torch <= 2.0"),
    ("digits MLP step, slowdown next to a CPU-hungry process", lambda: under_load.slowdowns("mlp"),
     "yaten/torch <= 1.0"),
]  # fmt: skip


def _fmt(t: float) -> str:
    return f"{t * 1e6:.1f} us" if t < 1e-3 else f"{t * 1e3:.2f} ms" if t < 1 else f"{t:.2f} s"


def main() -> None:
    print("| case | yaten | torch | NumPy | yaten/torch | yaten/NumPy | target | met |")
    print("|---|---|---|---|---|---|---|---|")
    for name, fn, target in ROWS:
        y, t, n = fn()
        rt = y / t
        rn = y / n if n else None
        if "import" in name:
            met = y <= 0.5
        elif "NumPy throughput" in target:
            met = n / y >= 0.9
        else:
            met = rt <= float(target.split("<=")[1])
        fmt = (lambda v: f"{v:.2f}x") if "slowdown" in name else _fmt
        print(
            f"| {name} | {fmt(y)} | {fmt(t)} | {fmt(n) if n else '-'} | {rt:.2f} | "
            f"{f'{rn:.2f}' if rn else '-'} | {target} | {'yes' if met else 'no'} |"
        )
        sys.stdout.flush()


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"\n(measured in {time.time() - t0:.0f} s on {np.__version__=}, {torch.__version__=})")
