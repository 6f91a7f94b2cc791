"""Recurrent layers, yaten next to PyTorch in one process (``python bench/rnn.py [THREADS]``; a thread
count sets both libraries', which makes the comparison fair on a busy machine).

nn.LSTM(64, 128, num_layers=2) and nn.GRU of the same sizes, forward and forward + backward on a
(seq 50, batch 32, 64) float32 input, the same weights in both libraries; best of several repeats.
Not a test.
"""

import sys
import timeit

import numpy as np
import torch

import yaten


def best(fn, number: int = 3, repeat: int = 5) -> float:
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def _case(kind):
    t_mod = getattr(torch.nn, kind)(64, 128, num_layers=2)
    y_mod = getattr(yaten.nn, kind)(64, 128, num_layers=2)
    y_mod.load_state_dict(
        {k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in t_mod.state_dict().items()}
    )
    x = np.random.default_rng(0).standard_normal((50, 32, 64)).astype(np.float32)
    tx, yx = torch.from_numpy(x).requires_grad_(), yaten.from_numpy(x.copy()).requires_grad_()

    def step(mod, inp):
        out, _ = mod(inp)
        out.sum().backward()

    fwd = (best(lambda: y_mod(yx.detach())), best(lambda: t_mod(tx.detach())))
    both = (best(lambda: step(y_mod, yx)), best(lambda: step(t_mod, tx)))
    return {f"{kind}(64, 128, 2 layers) forward": fwd, f"{kind}(64, 128, 2 layers) forward+backward": both}


def main():
    if len(sys.argv) > 1:
        torch.set_num_threads(int(sys.argv[1]))
        yaten.set_num_threads(int(sys.argv[1]))
    rows = {**_case("LSTM"), **_case("GRU")}
    print("| case (seq 50, batch 32) | yaten | torch | yaten/torch |\n|---|---|---|---|")
    for name, (y, t) in rows.items():
        print(f"| {name} | {y * 1e3:.2f} ms | {t * 1e3:.2f} ms | {y / t:.2f} |")


if __name__ == "__main__":
    main()
