"""The main job (``make demo``): train an MLP and a small CNN on scikit-learn's 8x8 digits with yaten.

Each model trains for a few epochs with a progress bar, reports its test accuracy, is saved to a
checkpoint and reloaded (the reloaded model must score the same), and the loss and accuracy curves go
to a PNG. The script is written against the torch API and takes the library as a parameter, so
``bench/`` can time the very same code in PyTorch (``--backend torch``).
"""

import argparse
import importlib
import os
import sys
import time

import numpy as np

TARGETS = {"mlp": 0.97, "cnn": 0.98}


def load_digits(lib, seed: int = 0):
    """(train, test) TensorDatasets: 1,437 and 360 images, pixels scaled to [0, 1]."""
    from sklearn.datasets import load_digits as sklearn_digits

    digits = sklearn_digits()
    x = (digits.data / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(x))
    train, test = order[:-360], order[-360:]
    dataset = lib.utils.data.TensorDataset
    return (
        dataset(lib.from_numpy(x[train].copy()), lib.from_numpy(y[train].copy())),
        dataset(lib.from_numpy(x[test].copy()), lib.from_numpy(y[test].copy())),
    )


def make_model(lib, kind: str):
    nn = lib.nn
    if kind == "mlp":
        return nn.Sequential(
            nn.Flatten(), nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10),
        )  # fmt: skip
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 2 * 2, 64), nn.ReLU(), nn.Linear(64, 10),
    )  # fmt: skip


def progress(label: str, done: int, total: int, loss: float, width: int = 24) -> None:
    filled = width * done // total
    bar = "#" * filled + "." * (width - filled)
    end = "\n" if done == total else ""
    print(f"\r{label} [{bar}] {done:3d}/{total} loss {loss:.4f}", end=end, flush=True)


def accuracy(lib, model, loader) -> float:
    model.eval()
    right = total = 0
    with lib.no_grad():
        for x, y in loader:
            right += int((model(x).argmax(1) == y).sum().item())
            total += len(y)
    model.train()
    return right / total


def train(lib, kind: str, epochs: int, quiet: bool = False, seed: int = 0):
    """Train one model; returns (model, per-epoch losses, per-epoch test accuracies, seconds per epoch)."""
    lib.manual_seed(seed)
    train_set, test_set = load_digits(lib)
    loader = lib.utils.data.DataLoader(
        train_set, batch_size=64, shuffle=True, generator=lib.Generator().manual_seed(seed)
    )
    test_loader = lib.utils.data.DataLoader(test_set, batch_size=256)
    model = make_model(lib, kind)
    optimizer = lib.optim.Adam(model.parameters(), lr=3e-3)
    scheduler = lib.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    loss_fn = lib.nn.CrossEntropyLoss()
    losses, accs, seconds = [], [], []
    for epoch in range(epochs):
        start = time.perf_counter()
        total = 0.0
        for i, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            total += loss.item()
            if not quiet:
                progress(f"{kind} epoch {epoch + 1:2d}/{epochs}", i + 1, len(loader), total / (i + 1))
        scheduler.step()
        seconds.append(time.perf_counter() - start)
        losses.append(total / len(loader))
        accs.append(accuracy(lib, model, test_loader))
    return model, losses, accs, seconds


def checkpoint_round_trip(lib, kind: str, model, path: str) -> float:
    """Save the model, load it into a fresh one, and return the reloaded model's test accuracy."""
    lib.save({"kind": kind, "model": model.state_dict()}, path)
    state = lib.load(path)
    fresh = make_model(lib, state["kind"])
    fresh.load_state_dict(state["model"])
    _, test_set = load_digits(lib)
    return accuracy(lib, fresh, lib.utils.data.DataLoader(test_set, batch_size=256))


def plot(curves: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for kind, (losses, accs) in curves.items():
        epochs = range(1, len(losses) + 1)
        left.plot(epochs, losses, marker="o", label=kind.upper())
        right.plot(epochs, [100 * a for a in accs], marker="o", label=kind.upper())
    left.set(title="training loss", xlabel="epoch", yscale="log")
    right.set(title="test accuracy (%)", xlabel="epoch")
    for ax in (left, right):
        ax.grid(alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="yaten", choices=("yaten", "torch"))
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--out", default="digits_out", help="folder for the checkpoints and the PNG")
    args = parser.parse_args(argv)
    lib = importlib.import_module(args.backend)
    os.makedirs(args.out, exist_ok=True)
    curves, failed = {}, []
    for kind in ("mlp", "cnn"):
        model, losses, accs, seconds = train(lib, kind, args.epochs)
        curves[kind] = (losses, accs)
        path = os.path.join(args.out, f"{kind}.pt")
        reloaded = checkpoint_round_trip(lib, kind, model, path)
        print(
            f"{kind.upper()}: test accuracy {100 * accs[-1]:.2f}% (target {100 * TARGETS[kind]:.0f}%), "
            f"{1000 * np.median(seconds):.0f} ms per epoch; checkpoint {path} reloads at {100 * reloaded:.2f}%"
        )
        if accs[-1] < TARGETS[kind] or reloaded != accs[-1]:
            failed.append(kind)
    png = os.path.join(args.out, "curves.png")
    plot(curves, png)
    print(f"curves: {png}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
