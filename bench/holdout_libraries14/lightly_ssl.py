"""Lightly: self-supervised training as its PyTorch examples run it (``examples/pytorch/simclr.py``, ``byol.py``,
``simsiam.py``, ``vicreg.py``, ``barlowtwins.py``): a backbone and lightly's projection / prediction heads
(``lightly.models.modules``), its two-view transforms (``lightly.transforms``) and its loss (``NTXentLoss``,
``NegativeCosineSimilarity``, ``VICRegLoss``, ``BarlowTwinsLoss``), BYOL's momentum encoder updated with
``update_momentum`` and ``cosine_schedule``; ``print("Starting Training")`` then once an epoch
``print(f"epoch: {epoch:>02}, loss: {avg_loss:.5f}")``. The images are synthetic (small PIL images of coloured shapes
on noise, no download) and the backbone a small convolutional net (the examples' ResNet-18 is too slow for seconds).
Truth: the loop's own record, ``total_loss / len(dataloader)`` (the value printed), at the epoch (0-based)."""

from __future__ import annotations

import argparse
import copy

import numpy as np
from h14_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--method", default="simclr", choices=["simclr", "byol", "simsiam", "vicreg", "barlowtwins"])
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--lr", type=float, default=0.06)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "lars"])
ap.add_argument("--gamma", type=float, default=0.0, help="torch ExponentialLR per epoch (a rate that grows if > 1)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import lightly  # noqa: E402
import torch  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402
from torch import nn  # noqa: E402

rng = np.random.default_rng(0)


class Shapes(torch.utils.data.Dataset):
    """Small RGB images: a coloured disc, square or triangle on noise, transformed by lightly's two-view transform."""

    def __init__(self, n, transform):
        self.images = []
        for _ in range(n):
            img = Image.fromarray(rng.integers(0, 80, (32, 32, 3), dtype=np.uint8))
            d = ImageDraw.Draw(img)
            c = tuple(int(v) for v in rng.integers(80, 256, 3))
            x, y, r = (int(v) for v in rng.integers(8, 24, 2)), int(rng.integers(5, 9))
            kind = rng.integers(0, 3)
            if kind == 0:
                d.ellipse([x - r, y - r, x + r, y + r], fill=c)
            elif kind == 1:
                d.rectangle([x - r, y - r, x + r, y + r], fill=c)
            else:
                d.polygon([(x, y - r), (x - r, y + r), (x + r, y + r)], fill=c)
            self.images.append(img)
        self.transform = transform

    def __getitem__(self, i):
        return self.transform(self.images[i]), 0

    def __len__(self):
        return len(self.images)


backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
FEAT = 64

if a.method == "simclr":
    from lightly.loss import NTXentLoss
    from lightly.models.modules import SimCLRProjectionHead
    from lightly.transforms.simclr_transform import SimCLRTransform

    class Model(nn.Module):
        def __init__(self, backbone):
            super().__init__()
            self.backbone = backbone
            self.projection_head = SimCLRProjectionHead(FEAT, FEAT, 32)

        def forward(self, x):
            return self.projection_head(self.backbone(x).flatten(start_dim=1))

    transform = SimCLRTransform(input_size=32, gaussian_blur=0.0)
    criterion = NTXentLoss()
elif a.method in ("byol", "simsiam"):
    from lightly.loss import NegativeCosineSimilarity
    from lightly.models.modules import (BYOLPredictionHead, BYOLProjectionHead, SimSiamPredictionHead,
                                        SimSiamProjectionHead)
    from lightly.models.utils import deactivate_requires_grad, update_momentum
    from lightly.transforms.byol_transform import BYOLTransform, BYOLView1Transform, BYOLView2Transform
    from lightly.transforms.simsiam_transform import SimSiamTransform
    from lightly.utils.scheduler import cosine_schedule

    class Model(nn.Module):
        def __init__(self, backbone):
            super().__init__()
            self.backbone = backbone
            if a.method == "byol":
                self.projection_head = BYOLProjectionHead(FEAT, 64, 32)
                self.prediction_head = BYOLPredictionHead(32, 64, 32)
                self.backbone_momentum = copy.deepcopy(self.backbone)
                self.projection_head_momentum = copy.deepcopy(self.projection_head)
                deactivate_requires_grad(self.backbone_momentum)
                deactivate_requires_grad(self.projection_head_momentum)
            else:
                self.projection_head = SimSiamProjectionHead(FEAT, 64, 32)
                self.prediction_head = SimSiamPredictionHead(32, 16, 32)

        def forward(self, x):
            z = self.projection_head(self.backbone(x).flatten(start_dim=1))
            return self.prediction_head(z) if a.method == "byol" else (z.detach(), self.prediction_head(z))

        def forward_momentum(self, x):
            return self.projection_head_momentum(self.backbone_momentum(x).flatten(start_dim=1)).detach()

    if a.method == "byol":
        transform = BYOLTransform(view_1_transform=BYOLView1Transform(input_size=32, gaussian_blur=0.0),
                                  view_2_transform=BYOLView2Transform(input_size=32, gaussian_blur=0.0))
    else:
        transform = SimSiamTransform(input_size=32, gaussian_blur=0.0)
    criterion = NegativeCosineSimilarity()
else:
    from lightly.loss import BarlowTwinsLoss, VICRegLoss
    from lightly.models.modules import BarlowTwinsProjectionHead
    from lightly.transforms.vicreg_transform import VICRegTransform

    class Model(nn.Module):
        def __init__(self, backbone):
            super().__init__()
            self.backbone = backbone
            self.projection_head = BarlowTwinsProjectionHead(FEAT, 64, 64)

        def forward(self, x):
            return self.projection_head(self.backbone(x).flatten(start_dim=1))

    transform = VICRegTransform(input_size=32, gaussian_blur=0.0)
    criterion = VICRegLoss() if a.method == "vicreg" else BarlowTwinsLoss()

model = Model(backbone)
dataset = Shapes(a.n, transform)
dataloader = torch.utils.data.DataLoader(dataset, batch_size=a.batch, shuffle=True, drop_last=True, num_workers=0,
                                         generator=torch.Generator().manual_seed(0))
if a.optimizer == "adam":
    optimizer = torch.optim.Adam(model.parameters(), lr=a.lr)
elif a.optimizer == "lars":
    from lightly.utils.lars import LARS
    optimizer = LARS(model.parameters(), lr=a.lr)
else:
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr)
scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=a.gamma) if a.gamma else None

record = []
print("Starting Training")
for epoch in range(a.epochs):
    total_loss = 0
    if a.method == "byol":
        momentum_val = cosine_schedule(epoch, a.epochs, 0.996, 1)
    for batch in dataloader:
        x0, x1 = batch[0]
        if a.method == "byol":
            update_momentum(model.backbone, model.backbone_momentum, m=momentum_val)
            update_momentum(model.projection_head, model.projection_head_momentum, m=momentum_val)
            p0, z0 = model(x0), model.forward_momentum(x0)
            p1, z1 = model(x1), model.forward_momentum(x1)
            loss = 0.5 * (criterion(p0, z1) + criterion(p1, z0))
        elif a.method == "simsiam":
            z0, p0 = model(x0)
            z1, p1 = model(x1)
            loss = 0.5 * (criterion(z0, p1) + criterion(z1, p0))
        else:
            loss = criterion(model(x0), model(x1))
        total_loss += loss.detach()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    avg_loss = total_loss / len(dataloader)
    print(f"epoch: {epoch:>02}, loss: {avg_loss:.5f}")
    record.append((epoch, float(avg_loss)))
    if scheduler is not None:
        scheduler.step()

write_truth(framework=f"lightly {lightly.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 0-based (`epoch: 00`)", tolerance=tol_decimals(5),
            record="the loop's own record: total_loss / len(dataloader), the value printed", train_loss=record)
