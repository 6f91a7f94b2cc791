"""yaten.special against torch.special: every name yaten has, on the same inputs."""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

X = np.array([[0.3, 1.7, 2.5], [4.0, 0.9, 7.25]])
ARGS = {"xlogy": (1.5,), "softmax": (1,), "log_softmax": (1,), "logsumexp": (1,), "multigammaln": (1,)}


@pytest.mark.parametrize("name", yaten.special.__all__)
def test_special_function_matches_torch(name):
    outs = []
    for lib in (torch, yaten):
        x = lib.from_numpy(X.copy()).requires_grad_()
        fn = getattr(lib.special, name)
        if name == "polygamma":
            y = fn(2, x)
        elif name in ("gammainc", "gammaincc"):  # torch differentiates these in their second argument only
            y = fn(lib.full_like(x.detach(), 1.5), x)
        else:
            y = fn(x, *ARGS.get(name, ()))
        y.sum().backward()
        outs.append((y, x.grad))
    assert_close(outs[1][0], outs[0][0], name)
    assert_close(outs[1][1], outs[0][1], f"{name} gradient")


def test_special_names_are_not_top_level_or_methods():
    assert not hasattr(yaten, "special_expit") or "special_expit" not in yaten.__all__
    assert not hasattr(yaten.Tensor, "special_expit")
    assert yaten.special.__all__ == sorted(yaten.special.__all__)
