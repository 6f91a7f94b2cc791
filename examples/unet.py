"""A small U-Net that segments circles and squares in synthetic noisy images.

Each image holds a few bright discs and squares of random sizes on a smooth, noisy background; the
target marks every pixel as background (0), disc (1) or square (2), so the net must tell the shapes
apart by their outline, not by their brightness. The U-Net is the usual one (as in milesial's
Pytorch-UNet): double 3x3 convolutions, max pooling on the way down, bilinear upsampling
(``nn.Upsample``, ``align_corners=True``) or ``ConvTranspose2d`` on the way up, ``F.pad`` to match the
skip connection when the size is odd, and ``torch.cat`` with the skip. The encoder normalizes with
BatchNorm2d, the bottleneck with GroupNorm and the decoder with InstanceNorm2d. It trains with
cross-entropy plus a soft Dice loss and Adam, reports the loss and the per-class IoU on held-out images,
and prints one prediction. The script is written against the torch API and takes the library as a
parameter (``--backend torch`` runs it in PyTorch).
"""

import argparse
import importlib
import sys
import time

import numpy as np

CLASSES = ("background", "disc", "square")


def make_shapes(n: int, size: int, seed: int = 0):
    """``n`` images (n, 1, size, size) float32 and their masks (n, size, size) int64 of class ids: one
    to three non-overlapping discs and squares per image."""
    rng = np.random.default_rng(seed)
    rows, cols = np.mgrid[0:size, 0:size]
    images = np.empty((n, 1, size, size), dtype=np.float32)
    masks = np.zeros((n, size, size), dtype=np.int64)
    for i in range(n):
        slope = rng.uniform(-0.5, 0.5, size=2) / size
        image = 0.2 + slope[0] * rows + slope[1] * cols + rng.normal(0.0, 0.15, (size, size))
        for _ in range(rng.integers(1, 4)):
            kind = rng.integers(1, 3)
            radius = rng.uniform(size / 10, size / 5)
            cy, cx = rng.uniform(radius, size - radius, size=2)
            if kind == 1:
                inside = (rows - cy) ** 2 + (cols - cx) ** 2 <= radius**2
            else:
                inside = (np.abs(rows - cy) <= radius * 0.85) & (np.abs(cols - cx) <= radius * 0.85)
            if (masks[i][inside] > 0).any():
                continue  # shapes don't overlap: each pixel belongs to one
            image[inside] += rng.uniform(0.6, 1.0)
            masks[i][inside] = kind
        images[i, 0] = image
    return images, masks


def make_model(
    lib, in_channels: int = 1, num_classes: int = len(CLASSES), base: int = 8, bilinear: bool = True
):
    """A three-level U-Net from ``lib.nn``: ``model(x)`` returns (N, num_classes, H, W) logits."""
    nn = lib.nn
    F = nn.functional

    def norm(kind, channels):
        if kind == "batch":
            return nn.BatchNorm2d(channels)
        if kind == "group":
            return nn.GroupNorm(min(4, channels), channels)
        return nn.InstanceNorm2d(channels, affine=True)

    class DoubleConv(nn.Module):
        """(3x3 convolution => norm => ReLU) twice."""

        def __init__(self, in_ch, out_ch, kind, mid_ch=None):
            super().__init__()
            mid_ch = mid_ch or out_ch
            self.double_conv = nn.Sequential(
                nn.Conv2d(in_ch, mid_ch, kernel_size=3, padding=1, bias=False),
                norm(kind, mid_ch),
                nn.ReLU(inplace=True),
                nn.Conv2d(mid_ch, out_ch, kernel_size=3, padding=1, bias=False),
                norm(kind, out_ch),
                nn.ReLU(inplace=True),
            )

        def forward(self, x):
            return self.double_conv(x)

    class Down(nn.Module):
        """Halve the size with max pooling, then a double convolution."""

        def __init__(self, in_ch, out_ch, kind):
            super().__init__()
            self.maxpool_conv = nn.Sequential(nn.MaxPool2d(2), DoubleConv(in_ch, out_ch, kind))

        def forward(self, x):
            return self.maxpool_conv(x)

    class Up(nn.Module):
        """Double the size, pad to the skip connection's size, concatenate it, then a double convolution."""

        def __init__(self, in_ch, out_ch):
            super().__init__()
            if bilinear:
                self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
                self.conv = DoubleConv(in_ch, out_ch, "instance", in_ch // 2)
            else:
                self.up = nn.ConvTranspose2d(in_ch, in_ch // 2, kernel_size=2, stride=2)
                self.conv = DoubleConv(in_ch, out_ch, "instance")

        def forward(self, x1, x2):
            x1 = self.up(x1)
            diff_y = x2.size()[2] - x1.size()[2]
            diff_x = x2.size()[3] - x1.size()[3]
            x1 = F.pad(x1, [diff_x // 2, diff_x - diff_x // 2, diff_y // 2, diff_y - diff_y // 2])
            return self.conv(lib.cat([x2, x1], dim=1))

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            factor = 2 if bilinear else 1
            self.inc = DoubleConv(in_channels, base, "batch")
            self.down1 = Down(base, 2 * base, "batch")
            self.down2 = Down(2 * base, 4 * base // factor, "group")
            self.up1 = Up(4 * base, 2 * base // factor)
            self.up2 = Up(2 * base, base)
            self.outc = nn.Conv2d(base, num_classes, kernel_size=1)

        def forward(self, x):
            x1 = self.inc(x)
            x2 = self.down1(x1)
            x3 = self.down2(x2)
            return self.outc(self.up2(self.up1(x3, x2), x1))

    return UNet()


def dice_loss(lib, logits, target, eps: float = 1e-6):
    """1 - the soft Dice coefficient of the softmax probabilities, averaged over the classes."""
    F = lib.nn.functional
    num_classes = logits.size(1)
    probs = F.softmax(logits, dim=1)
    one_hot = F.one_hot(target, num_classes).permute(0, 3, 1, 2).float()
    dims = (0, 2, 3)
    intersection = (probs * one_hot).sum(dim=dims)
    cardinality = probs.sum(dim=dims) + one_hot.sum(dim=dims)
    return 1 - ((2 * intersection + eps) / (cardinality + eps)).mean()


def criterion(lib, logits, target):
    """Cross-entropy plus the soft Dice loss."""
    return lib.nn.functional.cross_entropy(logits, target) + dice_loss(lib, logits, target)


def train(lib, model, batches, steps: int, lr: float = 1e-2, every: int = 0):
    """Train with Adam for ``steps`` steps on ``batches()`` (a callable returning (x, y)); returns losses."""
    optimizer = lib.optim.Adam(model.parameters(), lr=lr)
    model.train()
    losses = []
    for step in range(steps):
        x, y = batches()
        loss = criterion(lib, model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if every and (step % every == 0 or step == steps - 1):
            print(f"step {step:4d}: loss {losses[-1]:.4f}", flush=True)
    return losses


def iou_per_class(lib, model, images, masks):
    """The intersection over union of each class on (images, masks), in eval mode."""
    model.eval()
    with lib.no_grad():
        pred = model(images).argmax(dim=1)
    model.train()
    ious = []
    for c in range(len(CLASSES)):
        inter = ((pred == c) & (masks == c)).sum().item()
        union = ((pred == c) | (masks == c)).sum().item()
        ious.append(inter / union if union else 1.0)
    return ious


def main(argv=None) -> int:
    """Train on synthetic shapes, print the losses and the held-out IoU, then one predicted mask."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="yaten", choices=("yaten", "torch"))
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--size", type=int, default=22, help="image side (odd sizes exercise the padding)")
    parser.add_argument("--train-images", type=int, default=96)
    parser.add_argument("--test-images", type=int, default=32)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--base", type=int, default=8, help="channels of the first level")
    parser.add_argument("--up", default="bilinear", choices=("bilinear", "transpose"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=10, help="print the loss every N steps")
    args = parser.parse_args(argv)
    lib = importlib.import_module(args.backend)

    lib.manual_seed(args.seed)
    x, y = make_shapes(args.train_images + args.test_images, args.size, seed=args.seed)
    x_train, y_train = lib.from_numpy(x[: args.train_images]), lib.from_numpy(y[: args.train_images])
    x_test, y_test = lib.from_numpy(x[args.train_images :]), lib.from_numpy(y[args.train_images :])
    loader = lib.utils.data.DataLoader(
        lib.utils.data.TensorDataset(x_train, y_train),
        batch_size=args.batch_size,
        shuffle=True,
        drop_last=True,
    )
    model = make_model(lib, base=args.base, bilinear=args.up == "bilinear")
    n_params = sum(p.numel() for p in model.parameters())
    print(f"{args.backend}: {len(x)} images of {args.size}x{args.size}, {n_params / 1e3:.1f}k parameters")

    batches = iter(())

    def next_batch():
        nonlocal batches
        batch = next(batches, None)
        if batch is None:
            batches = iter(loader)
            batch = next(batches)
        return batch

    steps = args.epochs * len(loader)
    start = time.perf_counter()
    losses = train(lib, model, next_batch, steps, every=args.every)
    seconds = time.perf_counter() - start
    print(f"trained {steps} steps in {seconds:.1f} s: loss {losses[0]:.4f} -> {losses[-1]:.4f}")
    ious = iou_per_class(lib, model, x_test, y_test)
    print("held-out IoU: " + ", ".join(f"{name} {iou:.3f}" for name, iou in zip(CLASSES, ious)))
    model.eval()
    with lib.no_grad():
        pred = model(x_test[:1]).argmax(dim=1)[0]
    print("target | prediction (. background, o disc, # square):")
    for target_row, pred_row in zip(y_test[0].tolist(), pred.tolist()):
        print("".join(".o#"[c] for c in target_row) + " | " + "".join(".o#"[c] for c in pred_row))
    return 0 if np.isfinite(losses[-1]) else 1


if __name__ == "__main__":
    sys.exit(main())
