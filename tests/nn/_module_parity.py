"""What the nn parity tests share: the small modules they build in either library, and ``same``/``run``
(tests/runtime/parity.py: a case run with ``m = torch`` and ``m = yaten``, results compared).
"""

import numpy as np
import pytest
import torch

import yaten
from tests.runtime.parity import run, same  # noqa: F401 (re-exported for the nn tests)


def pair(*shape, seed=0):
    """The same float64 standard-normal values as a yaten and a torch tensor."""
    a = np.random.default_rng(seed).standard_normal(shape)
    return yaten.from_numpy(a.copy()), torch.from_numpy(a.copy())


def errors_alike(call_y, call_t):
    """``call_y`` (yaten) raises what ``call_t`` (torch) raises: the type and the message."""
    with pytest.raises(Exception) as expected:
        call_t()
    with pytest.raises(type(expected.value)) as got:
        call_y()
    assert str(got.value).replace("yaten.", "torch.") == str(expected.value)


def affine_class(m):
    """A tiny linear layer built only from ops both libraries have."""

    class Affine(m.nn.Module):
        def __init__(self, i=3, o=2):
            super().__init__()
            self.weight = m.nn.Parameter(m.arange(float(i * o)).reshape(o, i) / 10)
            self.bias = m.nn.Parameter(m.zeros(o))
            self.i, self.o = i, o

        def forward(self, x):
            return x @ self.weight.t() + self.bias

        def extra_repr(self):
            return f"in_features={self.i}, out_features={self.o}"

    return Affine


def net_class(m):
    """Two Affine layers and buffers (one not persistent), in a nested module."""
    Affine = affine_class(m)

    class Net(m.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = Affine(3, 4)
            self.fc2 = Affine(4, 2)
            self.register_buffer("steps", m.tensor(0))
            self.register_buffer("cache", m.ones(2), persistent=False)

        def forward(self, x):
            return self.fc2(self.fc1(x).tanh())

    return Net
