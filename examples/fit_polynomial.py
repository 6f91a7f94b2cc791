"""The main job until nn lands: fit a cubic to sin(x) with yaten autograd and plain gradient descent.

Run with ``make demo``. It prints the loss as it falls and the fitted coefficients.
"""

import math

import yaten as torch


def main() -> None:
    torch.manual_seed(0)
    x = torch.linspace(-math.pi, math.pi, 2000)
    y = torch.sin(x)
    coeffs = [torch.randn((), requires_grad=True) for _ in range(4)]
    lr = 1e-6
    for step in range(2000):
        a, b, c, d = coeffs
        pred = a + b * x + c * x**2 + d * x**3
        loss = (pred - y).pow(2).sum()
        if step % 200 == 199:
            print(f"step {step + 1:5d}  loss {loss.item():10.4f}")
        loss.backward()
        with torch.no_grad():
            for p in coeffs:
                p -= lr * p.grad
                p.grad = None
    a, b, c, d = (p.item() for p in coeffs)
    print(f"fit: y = {a:.4f} + {b:.4f} x + {c:.4f} x^2 + {d:.4f} x^3")
    assert loss.item() < 20, "the fit did not converge"


if __name__ == "__main__":
    main()
