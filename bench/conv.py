"""Convolution and pooling, yaten next to PyTorch in one process (``python bench/conv.py``).

conv2d forward + backward (grads of input, weight and bias) for N=64, C 16 -> 32, 28x28, k=3,
padding=1, float32, and the same for max_pool2d / avg_pool2d; best of several repeats. Not a test.
"""

import timeit

import numpy as np
import torch

import yaten


def best(fn, number: int = 5, repeat: int = 7) -> float:
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def _pair(shape_x, make):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape_x).astype(np.float32)
    return (yaten.from_numpy(x).requires_grad_(), torch.from_numpy(x.copy()).requires_grad_()), make(rng)


def conv2d_case():
    (x, tx), (w, b) = _pair((64, 16, 28, 28), lambda r: (r.standard_normal((32, 16, 3, 3)).astype(np.float32),
                                                         r.standard_normal(32).astype(np.float32)))  # fmt: skip
    yw, yb = yaten.from_numpy(w).requires_grad_(), yaten.from_numpy(b).requires_grad_()
    tw, tb = torch.from_numpy(w.copy()).requires_grad_(), torch.from_numpy(b.copy()).requires_grad_()
    g = np.random.default_rng(1).standard_normal((64, 32, 28, 28)).astype(np.float32)
    yg, tg = yaten.from_numpy(g), torch.from_numpy(g)

    def run_yaten():
        yaten.conv2d(x, yw, yb, 1, 1).backward(yg)

    def run_torch():
        torch.conv2d(tx, tw, tb, 1, 1).backward(tg)

    fwd = (best(lambda: yaten.conv2d(x.detach(), yw.detach(), yb.detach(), 1, 1)),
           best(lambda: torch.conv2d(tx.detach(), tw.detach(), tb.detach(), 1, 1)))  # fmt: skip
    return {"conv2d forward": fwd, "conv2d forward+backward": (best(run_yaten), best(run_torch))}


def pool_cases():
    (x, tx), _ = _pair((64, 32, 28, 28), lambda r: None)
    g = np.random.default_rng(1).standard_normal((64, 32, 14, 14)).astype(np.float32)
    yg, tg = yaten.from_numpy(g), torch.from_numpy(g)
    return {
        "max_pool2d(2) forward+backward": (
            best(lambda: yaten.nn.functional.max_pool2d(x, 2).backward(yg)),
            best(lambda: torch.nn.functional.max_pool2d(tx, 2).backward(tg)),
        ),
        "avg_pool2d(2) forward+backward": (
            best(lambda: yaten.nn.functional.avg_pool2d(x, 2).backward(yg)),
            best(lambda: torch.nn.functional.avg_pool2d(tx, 2).backward(tg)),
        ),
    }


def main():
    rows = {**conv2d_case(), **pool_cases()}
    print("| case | yaten | torch | yaten/torch |\n|---|---|---|---|")
    for name, (y, t) in rows.items():
        print(f"| {name} | {y * 1e3:.2f} ms | {t * 1e3:.2f} ms | {y / t:.2f} |")


if __name__ == "__main__":
    main()
