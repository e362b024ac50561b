"""cellpose 3: a fresh Cellpose network (``models.CellposeModel(pretrained_model=False)``, no weights downloaded)
trained with ``train.train_seg`` on small synthetic fluorescence images (bright noisy disks on a dark background,
their label masks), after ``io.logger_setup()`` as cellpose's notebooks do. cellpose's own logger prints
``>>> n_epochs=..``, the optimizer line and, at epochs 0, 5, 10, 20, ..., ``10, train_loss=0.4310, test_loss=0.5021,
LR=0.005000, time 3.21s`` (4 decimals): the mean per-image loss since the previous such line. Truth: the per-epoch
``train_losses`` that ``train_seg`` returns, averaged over the epochs each printed line covers (what cellpose
averages), at its 0-based epoch."""

from __future__ import annotations

import argparse
from pathlib import Path

from h76_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=41)
ap.add_argument("--lr", type=float, default=0.005)
ap.add_argument("--sgd", action="store_true")
ap.add_argument("--weight-decay", type=float, default=1e-5)
ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--n", type=int, default=6, help="training images")
ap.add_argument("--per-epoch", type=int, default=None, help="nimg_per_epoch")
ap.add_argument("--bsize", type=int, default=64)
ap.add_argument("--no-test", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import cellpose  # noqa: E402
import numpy as np  # noqa: E402
from cellpose import io, models, train  # noqa: E402

rng = np.random.default_rng(0)


def image(size: int = 96, cells: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """A noisy image of bright disks and its label mask (0 background, 1..k cells)."""
    yy, xx = np.mgrid[:size, :size]
    img = np.zeros((size, size), np.float32)
    lab = np.zeros((size, size), np.int32)
    k = 0
    for _ in range(cells * 4):
        if k == cells:
            break
        r = rng.uniform(6, 10)
        cy, cx = rng.uniform(r, size - r, 2)
        disk = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
        if (lab[disk] > 0).any():
            continue
        k += 1
        lab[disk] = k
        img[disk] = rng.uniform(0.5, 1.0)
    img += rng.normal(0, 0.15, img.shape).astype(np.float32)
    return img, lab


train_set = [image() for _ in range(a.n)]
test = [image() for _ in range(3)]
cp_dir = Path.cwd() / ".cellpose"
logger, log_file = io.logger_setup(cp_path=str(cp_dir))
model = models.CellposeModel(gpu=False, pretrained_model=False, nchan=2)
_, losses, test_losses = train.train_seg(
    model.net, train_data=[t[0] for t in train_set], train_labels=[t[1] for t in train_set],
    test_data=None if a.no_test else [t[0] for t in test], test_labels=None if a.no_test else [t[1] for t in test],
    channels=[0, 0], batch_size=a.batch, learning_rate=a.lr, n_epochs=a.epochs, weight_decay=a.weight_decay,
    SGD=a.sgd, nimg_per_epoch=a.per_epoch, bsize=a.bsize, save_path=str(Path.cwd()), min_train_masks=1,
    model_name="tiny")
# the epochs cellpose prints (0, 5, 10, 20, ...) and the mean of the per-epoch losses each line covers
printed = [e for e in range(a.epochs) if e == 5 or e % 10 == 0]
train_loss, eval_loss, start = [], [], 0
for e in printed:
    train_loss.append((e, float(np.mean(losses[start:e + 1]))))
    eval_loss.append((e, float(test_losses[e])))
    start = e + 1
keep(log_file)
write_truth(framework=f"cellpose {cellpose.version}", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 0-based (`10, train_loss=...`; printed at 0, 5 and every 10th)",
            tolerance=tol_decimals(4),
            record="the per-epoch `train_losses` `train.train_seg` returns, averaged over the epochs since the "
                   "previous printed line (as cellpose averages them)",
            train_loss=train_loss, eval_loss=None if a.no_test else eval_loss,
            eval_name=None if a.no_test else "test_loss")
