"""Mixed-precision training on the CPU: an MLP classifier of scikit-learn's 8x8 digits, its forward pass
and loss under ``torch.autocast("cpu", dtype=torch.bfloat16)``.

Inside the region the linear layers run in bfloat16 and the cross-entropy in float32 (torch's autocast
op lists); the weights, their gradients and AdamW's state stay float32. ``--dtype float16`` autocasts
to float16 instead and then scales the loss with ``torch.amp.GradScaler``, whose underflow protection
float16 needs (bfloat16 has float32's range; its scaler is ``enabled=False``, a pass-through).

Written as a PyTorch program: ``python examples/amp_bf16.py`` runs it in PyTorch and
``python -m yaten.run examples/amp_bf16.py`` in yaten. The functions take the library as their first
argument, so the tests drive both from the same initial weights.
"""

import argparse

import numpy as np


def load_digits(seed: int = 0):
    """scikit-learn's digits as float32 rows in [0, 1] and int64 labels, shuffled, split 1500 / rest."""
    from sklearn.datasets import load_digits as sklearn_digits

    digits = sklearn_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(x))
    x, y = x[order], y[order]
    return (x[:1500], y[:1500]), (x[1500:], y[1500:])


def make_model(torch, hidden: int = 128):
    """The MLP: Linear, LayerNorm, GELU, Linear, GELU, Linear (10 classes)."""
    nn = torch.nn
    return nn.Sequential(
        nn.Linear(64, hidden),
        nn.LayerNorm(hidden),
        nn.GELU(),
        nn.Linear(hidden, hidden),
        nn.GELU(),
        nn.Linear(hidden, 10),
    )


def train(torch, model, batches, steps: int, dtype: str = "bfloat16", lr: float = 3e-3, every: int = 0):
    """``steps`` AdamW steps on ``batches()`` (a callable returning (x, y)) with the forward pass under
    autocast to ``dtype``; returns the losses (float32 values computed from the low-precision logits)."""
    amp_dtype = getattr(torch, dtype)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    scaler = torch.amp.GradScaler("cpu", enabled=amp_dtype == torch.float16)
    model.train()
    losses = []
    for step in range(steps):
        x, y = batches()
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cpu", dtype=amp_dtype):
            logits = model(x)
            loss = torch.nn.functional.cross_entropy(logits, y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        losses.append(loss.item())
        if every and step % every == 0:
            print(f"step {step:4d}: loss {loss.item():.4f}  logits {str(logits.dtype).rpartition('.')[2]}  "
                  f"loss {str(loss.dtype).rpartition('.')[2]}")  # fmt: skip
    return losses


def accuracy(torch, model, x, y, dtype: str = "bfloat16") -> float:
    """Share of ``x``'s rows classified as ``y`` says, the forward pass under autocast."""
    model.eval()
    with torch.no_grad(), torch.autocast("cpu", dtype=getattr(torch, dtype)):
        predicted = model(x).argmax(dim=1)
    return (predicted == y).float().mean().item()


def main(argv=None) -> None:
    import torch  # PyTorch, or yaten under ``python -m yaten.run``

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--dtype", choices=["bfloat16", "float16"], default="bfloat16")
    parser.add_argument("--every", type=int, default=50)
    args = parser.parse_args(argv)

    (x, y), (x_test, y_test) = load_digits()
    torch.manual_seed(0)
    model = make_model(torch)
    rng = np.random.default_rng(0)

    def batches():
        ix = rng.integers(0, len(x), size=args.batch_size)
        return torch.from_numpy(x[ix]), torch.from_numpy(y[ix])

    library = type(torch.zeros(1)).__module__.split(".")[0]
    print(f"{library}: autocast cpu {args.dtype}, {args.steps} steps")
    losses = train(torch, model, batches, args.steps, args.dtype, every=args.every)
    acc = accuracy(torch, model, torch.from_numpy(x_test), torch.from_numpy(y_test), args.dtype)
    print(f"final loss {losses[-1]:.4f}, test accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
