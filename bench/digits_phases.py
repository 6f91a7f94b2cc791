"""Where a digits training epoch goes: data, forward, backward and optimizer step, in one library.

``python bench/digits_phases.py yaten mlp`` (or ``torch``, ``cnn``) prints milliseconds per phase of
an epoch of examples/train_digits.py's loop: each phase's least time over epochs 3 to 8 (the first ones
also compile; the least is the one a busy machine disturbs least). Run each library in its own process (yaten sets
OMP_WAIT_POLICY for itself; unset it for torch: ``env -u OMP_WAIT_POLICY``).
"""

import importlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import train_digits


def phases(lib, kind: str, epochs: int = 8, warmup: int = 2) -> dict:
    lib.manual_seed(0)
    train_set, _ = train_digits.load_digits(lib)
    loader = lib.utils.data.DataLoader(
        train_set, batch_size=64, shuffle=True, generator=lib.Generator().manual_seed(0)
    )
    model = train_digits.make_model(lib, kind)
    optimizer = lib.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = lib.nn.CrossEntropyLoss()
    best = dict.fromkeys(("data", "zero_grad", "forward", "backward", "step"), float("inf"))
    for epoch in range(epochs):
        spent = dict.fromkeys(best, 0.0)
        t = time.perf_counter()
        for x, y in loader:
            t1 = time.perf_counter()
            optimizer.zero_grad()
            t2 = time.perf_counter()
            loss = loss_fn(model(x), y)
            t3 = time.perf_counter()
            loss.backward()
            t4 = time.perf_counter()
            optimizer.step()
            loss.item()
            t5 = time.perf_counter()
            for name, d in zip(spent, (t1 - t, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
                spent[name] += d
            t = t5
        if epoch >= warmup:
            best = {name: min(best[name], spent[name]) for name in best}
    return best


if __name__ == "__main__":
    library, model_kind = sys.argv[1], sys.argv[2]
    spent = phases(importlib.import_module(library), model_kind)
    print(library, model_kind, "  ".join(f"{k} {1000 * v:.1f} ms" for k, v in spent.items()),
          f"  total {1000 * sum(spent.values()):.1f} ms")  # fmt: skip
