"""examples/unet.py trains the same in yaten as in PyTorch: from the same initial weights, on the same
batches, the losses agree step by step with either upsampling (bilinear or transposed convolution), and so
do the eval-mode predictions through BatchNorm's running statistics; the synthetic data is what it says;
and an unchanged ``import torch`` binary U-Net runs under ``python -m yaten.run``."""

import sys
import textwrap

import numpy as np
import pytest

import yaten
from tests.examples.shared import EXAMPLES, numpy_batches, run_example, run_unchanged, twin_models
from tests.tolerances import assert_close

torch = pytest.importorskip("torch")

sys.path.insert(0, str(EXAMPLES))
import unet

# 14 -> 7 -> 3 on the way down, so the way up pads 6 to 7: F.pad is exercised.
SIZE, BASE, BATCH, STEPS = 14, 4, 4, 12
# float32 through BatchNorm, GroupNorm, InstanceNorm and Adam: the two libraries differ by rounding only
# (observed: 1.2e-7 relative at the worst of 12 steps, bilinear or transposed), while a real difference
# moves the losses far more: align_corners=False in the upsampling moves them by 4e-3, InstanceNorm's eps
# at 1e-4 instead of 1e-5 by 1e-3. 1e-5 leaves 80x room for other BLAS builds and thread counts.
RTOL = 1e-5
# The weights and buffers after 12 steps, and the eval-mode logits (observed max |difference|: 3.1e-6 and
# 5.2e-6): Adam divides by sqrt(v), so a gradient that is ~0 in both libraries can still take steps in
# opposite directions.
WEIGHT_ATOL = 1e-4


def _twin_models(bilinear):
    return twin_models(lambda lib: unet.make_model(lib, base=BASE, bilinear=bilinear))


def test_the_shapes_are_discs_and_squares_apart():
    images, masks = unet.make_shapes(16, SIZE, seed=3)
    assert images.shape == (16, 1, SIZE, SIZE) and images.dtype == np.float32
    assert masks.shape == (16, SIZE, SIZE) and masks.dtype == np.int64
    assert set(np.unique(masks)) == {0, 1, 2}
    for image, mask in zip(images[:, 0], masks):
        assert mask.any()  # every image holds a shape, brighter than the background
        assert image[mask > 0].mean() > image[mask == 0].mean() + 0.4


@pytest.mark.parametrize("bilinear", [True, False], ids=["bilinear", "transpose"])
def test_the_losses_match_pytorch_step_by_step(bilinear):
    x, y = unet.make_shapes(32, SIZE)
    reference, model = _twin_models(bilinear)
    expected = unet.train(torch, reference, numpy_batches(torch, x, y, BATCH), STEPS)
    got = unet.train(yaten, model, numpy_batches(yaten, x, y, BATCH), STEPS)
    np.testing.assert_allclose(got, expected, rtol=RTOL)
    assert expected[-1] < expected[0] - 0.3  # it learns
    for name, p in reference.state_dict().items():
        assert_close(model.state_dict()[name], p, name, rtol=RTOL, atol=WEIGHT_ATOL)
    # Eval mode: the BatchNorm layers use the running statistics both libraries accumulated.
    reference.eval()
    model.eval()
    with torch.no_grad():
        want = reference(torch.from_numpy(x[:8]))
    with yaten.no_grad():
        got_logits = model(yaten.from_numpy(x[:8]))
    assert_close(got_logits, want, rtol=RTOL, atol=WEIGHT_ATOL)


def test_the_loss_is_cross_entropy_plus_soft_dice():
    rng = np.random.default_rng(1)
    logits = rng.standard_normal((2, 3, 5, 5)).astype(np.float32)
    target = rng.integers(0, 3, (2, 5, 5))
    got = unet.criterion(yaten, yaten.from_numpy(logits), yaten.from_numpy(target))
    want = unet.criterion(torch, torch.from_numpy(logits), torch.from_numpy(target))
    assert_close(got, want)
    perfect = np.where(np.eye(3, dtype=bool)[target].transpose(0, 3, 1, 2), 30.0, -30.0).astype(np.float32)
    assert unet.dice_loss(yaten, yaten.from_numpy(perfect), yaten.from_numpy(target)).item() < 1e-6


def test_the_program_runs_on_both_backends():
    for backend, up in (("yaten", "transpose"), ("torch", "bilinear")):
        out = run_example(
            "unet.py", "--backend", backend, "--up", up, "--epochs", "1", "--size", "13",
            "--train-images", "16", "--test-images", "2", "--every", "1",
        )  # fmt: skip
        assert "step    1: loss" in out and "held-out IoU: background" in out
        assert len([line for line in out.splitlines() if " | " in line]) == 13 + 1


# A binary U-Net as its users write it: torch imports, masks built with torch ops, InstanceNorm2d and
# GroupNorm, F.interpolate (bilinear), F.pad to the skip's size, BCE-with-logits plus Dice, Adam.
UNCHANGED = textwrap.dedent(
    """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    torch.manual_seed(0)
    N, S = 24, 15
    yy, xx = torch.meshgrid(torch.arange(S), torch.arange(S), indexing="ij")
    centres = torch.rand(N, 2) * (S - 6) + 3
    radii = torch.rand(N) * 2 + 2
    dist2 = (yy - centres[:, 0, None, None]) ** 2 + (xx - centres[:, 1, None, None]) ** 2
    masks = (dist2 <= radii[:, None, None] ** 2).float().unsqueeze(1)
    images = masks + 0.3 * torch.randn(N, 1, S, S)

    def block(cin, cout, norm):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), norm(cout), nn.LeakyReLU(0.1),
                             nn.Conv2d(cout, cout, 3, padding=1), norm(cout), nn.LeakyReLU(0.1))

    class UNet(nn.Module):
        def __init__(self, c=6):
            super().__init__()
            self.enc1 = block(1, c, lambda ch: nn.InstanceNorm2d(ch, affine=True))
            self.enc2 = block(c, 2 * c, lambda ch: nn.GroupNorm(2, ch))
            self.pool = nn.MaxPool2d(2)
            self.dec1 = block(3 * c, c, nn.InstanceNorm2d)
            self.head = nn.Conv2d(c, 1, 1)

        def forward(self, x):
            e1 = self.enc1(x)
            e2 = self.enc2(self.pool(e1))
            up = F.interpolate(e2, scale_factor=2, mode="bilinear", align_corners=False)
            dy, dx = e1.shape[-2] - up.shape[-2], e1.shape[-1] - up.shape[-1]
            up = F.pad(up, (dx // 2, dx - dx // 2, dy // 2, dy - dy // 2), mode="replicate")
            return self.head(self.dec1(torch.cat([e1, up], dim=1)))

    def dice_loss(logits, target, eps=1.0):
        p = torch.sigmoid(logits).flatten(1)
        t = target.flatten(1)
        return 1 - ((2 * (p * t).sum(1) + eps) / (p.sum(1) + t.sum(1) + eps)).mean()

    model = UNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    bce = nn.BCEWithLogitsLoss()
    losses = []
    for epoch in range(12):
        for i in range(0, N, 8):
            x, y = images[i:i + 8], masks[i:i + 8]
            logits = model(x)
            loss = bce(logits, y) + dice_loss(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        pred = (model(images) > 0).float()
    iou = (pred * masks).sum() / ((pred + masks) > 0).float().sum()
    lib = type(torch.tensor(0)).__module__.split(".")[0]
    print(lib, losses[0], losses[-1], iou.item(), tuple(pred.shape))
    """
)


def test_an_unchanged_import_torch_unet_runs_under_the_runner(tmp_path):
    lib, first, last, iou, *shape = run_unchanged(tmp_path, "tiny_unet.py", UNCHANGED).split()
    assert lib == "yaten" and float(last) < float(first) - 0.3
    assert float(iou) > 0.5 and " ".join(shape) == "(24, 1, 15, 15)"
