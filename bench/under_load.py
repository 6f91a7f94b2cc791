"""A training step alone and next to a CPU-hungry process, in yaten and torch (``python bench/under_load.py``).

Each library times one step of examples/train_digits.py's MLP and CNN (a batch of 64, Adam) in a fresh
process with the user's environment: the median of 200 steps (or of those that fit in 5 s, at least 10)
after 20 warm-up steps, once on an idle machine and once while other processes spin on every core. The slowdown under load is the ratio of
the two; the goal is yaten's slowdown no worse than torch's. The spinning process is bounded in time
and killed at the end. Nothing here is a test.
"""

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

EXAMPLES = str(Path(__file__).resolve().parents[1] / "examples")

# The environment each library's steps run with: the user's, read before yaten (imported by bench/run.py)
# sets variables for its own process that would change torch's threads.
USER_ENV = dict(os.environ)

STEP = """
import importlib, statistics, sys, time
sys.path.insert(0, {examples!r})
import train_digits
lib = importlib.import_module(sys.argv[1])
lib.manual_seed(0)
model = train_digits.make_model(lib, sys.argv[2])
optimizer = lib.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = lib.nn.CrossEntropyLoss()
x, y = lib.rand(64, 1, 8, 8), lib.randint(0, 10, (64,))
def step():
    t = time.perf_counter()
    optimizer.zero_grad()
    loss_fn(model(x), y).backward()
    optimizer.step()
    return time.perf_counter() - t
for _ in range(20):
    step()
times, end = [], time.perf_counter() + 5
while len(times) < 200 and (len(times) < 10 or time.perf_counter() < end):
    times.append(step())
print(statistics.median(times))
"""

# One spinning process per core, each stopping by itself after ``limit`` seconds.
SPIN = "import time\nend = time.time() + {limit}\nwhile time.time() < end:\n    pass\n"


def step_seconds(lib: str, kind: str) -> float:
    """Median seconds per training step of ``kind`` in ``lib``, measured in a fresh process."""
    code = STEP.format(examples=EXAMPLES)
    out = subprocess.run(
        [sys.executable, "-c", code, lib, kind], capture_output=True, text=True, check=True, env=USER_ENV
    )
    return float(out.stdout)


def under_load(fn, *args, limit: float = 120.0):
    """``fn(*args)`` while every core runs a spinning process."""
    hogs = [
        subprocess.Popen([sys.executable, "-c", SPIN.format(limit=limit)]) for _ in range(os.cpu_count() or 1)
    ]
    try:
        time.sleep(0.5)  # let them take the cores
        return fn(*args)
    finally:
        for p in hogs:
            p.kill()
            p.wait()


def alone_and_loaded(lib: str, kind: str, repeats: int = 3) -> tuple[float, float]:
    """Seconds per step of ``kind`` in ``lib`` alone and under load, each the median of ``repeats``."""
    alone = statistics.median(step_seconds(lib, kind) for _ in range(repeats))
    loaded = statistics.median(under_load(step_seconds, lib, kind) for _ in range(repeats))
    return alone, loaded


def slowdowns(kind: str) -> tuple[float, float, None]:
    """(yaten's, torch's) slowdown under load of a ``kind`` step, as a bench/run.py row."""
    (ya, yl), (ta, tl) = (alone_and_loaded(lib, kind) for lib in ("yaten", "torch"))
    return yl / ya, tl / ta, None


def main() -> None:
    print("| step | library | alone | under load | slowdown |")
    print("|---|---|---|---|---|")
    slowdown = {}
    for kind in ("mlp", "cnn"):
        for lib in ("yaten", "torch"):
            alone, loaded = alone_and_loaded(lib, kind)
            slowdown[kind, lib] = loaded / alone
            print(
                f"| {kind} | {lib} | {alone * 1e3:.2f} ms | {loaded * 1e3:.2f} ms | {slowdown[kind, lib]:.2f}x |"
            )
            sys.stdout.flush()
    for kind in ("mlp", "cnn"):
        ratio = slowdown[kind, "yaten"] / slowdown[kind, "torch"]
        verdict = "met" if ratio <= 1.0 else "not met"
        print(f"{kind}: yaten's slowdown / torch's = {ratio:.2f} (goal <= 1.0: {verdict})")


if __name__ == "__main__":
    main()
