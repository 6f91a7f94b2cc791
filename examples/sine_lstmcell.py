"""Time-sequence prediction of sine waves with two ``nn.LSTMCell``s, trained by ``optim.LBFGS``, as
pytorch/examples' time_sequence_prediction does it.

Each sequence is a sine wave of period 2*pi*20 sampled at integer times from a random phase; the model
reads it one value at a time (an ``LSTMCell`` of 51 units, a second one on top, a ``Linear`` to one
output) and predicts the next value at every step; at test time it keeps going on its own predictions
for ``--future`` more steps. Everything is in double precision. LBFGS takes a closure that recomputes
the loss and its gradient (``--line-search strong_wolfe`` adds the strong-Wolfe line search). A plain
``import torch`` program: ``python sine_lstmcell.py`` runs it in PyTorch, ``python -m yaten.run
sine_lstmcell.py`` on yaten.
"""

import argparse
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim


def sine_waves(n: int, length: int, period: float = 20.0, seed: int = 2):
    """``n`` sine waves of ``length`` samples, each from a random shift of up to 4 periods (an (n,
    length) float64 array, as generate_sine_wave.py writes to traindata.pt)."""
    rng = np.random.RandomState(seed)
    x = np.empty((n, length), "int64")
    x[:] = np.array(range(length)) + rng.randint(-4 * int(period), 4 * int(period), n).reshape(n, 1)
    return np.sin(x / 1.0 / period).astype("float64")


class Sequence(nn.Module):
    def __init__(self, hidden=51):
        super().__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        c_t = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), self.hidden, dtype=torch.double)

        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for _ in range(future):  # if we should predict the future
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


def train_step(seq, optimizer, criterion, input, target, verbose=True):
    """One LBFGS step (several evaluations of the closure); returns the losses the closure computed."""
    losses = []

    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        losses.append(loss.item())
        if verbose:
            print("loss:", loss.item())
        loss.backward()
        return loss

    optimizer.step(closure)
    return losses


def predict(seq, criterion, test_input, test_target, future):
    """The loss on the test waves and the predictions, continued ``future`` steps past their end."""
    with torch.no_grad():
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future] if future else pred, test_target)
    return loss.item(), pred.detach().numpy()


def make_optimizer(seq, line_search=None):
    return optim.LBFGS(seq.parameters(), lr=0.8, line_search_fn=line_search)


def main(argv=None):
    parser = argparse.ArgumentParser(description="PyTorch time-sequence prediction with LSTMCells and LBFGS")
    parser.add_argument("--steps", type=int, default=15, help="steps to run")
    parser.add_argument("--waves", type=int, default=100, help="number of sine waves (3 are held out)")
    parser.add_argument("--length", type=int, default=1000, help="samples per wave")
    parser.add_argument("--future", type=int, default=1000, help="steps predicted past the test waves")
    parser.add_argument("--hidden", type=int, default=51, help="units per LSTMCell")
    parser.add_argument("--line-search", default=None, choices=("strong_wolfe",), help="LBFGS line search")
    opt = parser.parse_args(argv)
    # set random seed to 0
    np.random.seed(0)
    torch.manual_seed(0)
    # load data and make training set
    data = sine_waves(opt.waves, opt.length)
    input = torch.from_numpy(data[3:, :-1])
    target = torch.from_numpy(data[3:, 1:])
    test_input = torch.from_numpy(data[:3, :-1])
    test_target = torch.from_numpy(data[:3, 1:])
    # build the model
    seq = Sequence(opt.hidden)
    seq.double()
    criterion = nn.MSELoss()
    # use LBFGS as optimizer since we can load the whole data to train
    optimizer = make_optimizer(seq, opt.line_search)
    # begin to train
    loss = float("nan")
    for i in range(opt.steps):
        print("STEP: ", i)
        start = time.perf_counter()
        evaluations = len(train_step(seq, optimizer, criterion, input, target))
        seconds = time.perf_counter() - start
        # begin to predict, no need to track gradient here
        loss, y = predict(seq, criterion, test_input, test_target, opt.future)
        print("test loss:", loss)
        print(f"{evaluations} evaluations in {seconds:.2f} s; predicted:", np.round(y[0, -5:], 4).tolist())
    return 0 if np.isfinite(loss) else 1


if __name__ == "__main__":
    sys.exit(main())
