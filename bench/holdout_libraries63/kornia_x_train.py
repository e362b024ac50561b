"""kornia.x (kornia 0.7.4): its ``ImageClassifierTrainer`` / ``SemanticSegmentationTrainer`` (over Hugging Face
accelerate) training a tiny CNN on generated 12x12 images, as kornia's training tutorials do: ``Configuration``,
an optimizer, a torch scheduler stepped each epoch, optional kornia augmentations and ``EarlyStopping`` as callbacks,
and ``logging.basicConfig(level=logging.INFO)`` (the tutorials' setting; ``--fmt time`` adds a time stamp) so that
its logger ``train`` prints ``Train: 3/10  Sample: 51/60 Loss: 0.712 0.698`` (the batch's loss and the epoch's running
mean, 3 decimals) every 50 batches and ``Test: 0/4 LOSSES: ...`` on validation. Truth: the loss each batch's criterion
returned (the tensor the Trainer logs as ``losses.val``), taken by a forward hook on the criterion module, at the
batches the Trainer logs; step = global batch, 1-based ((epoch - 1) * batches per epoch + ``Sample``)."""

from __future__ import annotations

import argparse
import logging
import math

from h63_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "seg"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "adamw", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.003)
ap.add_argument("--sched", default="cosine", choices=["cosine", "step", "exp", "const"])
ap.add_argument("--gamma", type=float, default=0.5)
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--n", type=int, default=240)
ap.add_argument("--augment", action="store_true")
ap.add_argument("--early-stop", type=int, default=0, help="EarlyStopping patience (0: none)")
ap.add_argument("--fmt", default="plain", choices=["plain", "time"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

if a.fmt == "time":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
else:
    logging.basicConfig(level=logging.INFO)

import kornia  # noqa: E402
import kornia.augmentation as K  # noqa: E402
import torch  # noqa: E402
from kornia.x import Configuration, EarlyStopping, ImageClassifierTrainer, SemanticSegmentationTrainer  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

torch.set_num_threads(1)
g = torch.Generator().manual_seed(0)
n_cls = 6 if a.task == "cls" else 3


def data(n: int) -> TensorDataset:
    """Images whose class is a bright square's place (cls) or pixels labelled by brightness bands (seg)."""
    x = 0.8 * torch.randn(n, 3, 12, 12, generator=g)
    if a.task == "cls":
        y = torch.randint(0, n_cls, (n,), generator=g)
        for i in range(n):
            r, c = divmod(int(y[i]), 3)
            x[i, int(y[i]) % 3, r * 6:r * 6 + 6, c * 4:c * 4 + 4] += 1.0
        return TensorDataset(x, y)
    base = torch.rand(n, 1, 12, 12, generator=g)
    ys = (base.squeeze(1) * n_cls).long().clamp(max=n_cls - 1)
    return TensorDataset(x + base, ys)


train_ds, valid_ds = data(a.n), data(max(32, a.n // 5))
train_dl = DataLoader(train_ds, batch_size=a.batch, shuffle=True, generator=torch.Generator().manual_seed(1))
valid_dl = DataLoader(valid_ds, batch_size=16)
if a.task == "cls":
    model: nn.Module = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                     nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
                                     nn.Flatten(), nn.Linear(64, n_cls))
else:
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                          nn.Conv2d(8, n_cls, 1))
criterion = nn.CrossEntropyLoss()
opt = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW, "sgd": torch.optim.SGD,
       "rmsprop": torch.optim.RMSprop}[a.optimizer](model.parameters(), lr=a.lr)
sched: torch.optim.lr_scheduler.LRScheduler
if a.sched == "cosine":
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, a.epochs)
elif a.sched == "step":
    sched = torch.optim.lr_scheduler.StepLR(opt, 2, a.gamma)
elif a.sched == "exp":
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, a.gamma)
else:
    sched = torch.optim.lr_scheduler.ConstantLR(opt, 1.0)

# the criterion's training outputs, in order (evaluation runs without grad)
batch_losses: list[float] = []


def record(_m: nn.Module, _inp: object, out: torch.Tensor) -> None:
    if torch.is_grad_enabled():
        batch_losses.append(out.item())


criterion.register_forward_hook(record)

config = Configuration(num_epochs=a.epochs, batch_size=a.batch, lr=a.lr)
callbacks: dict = {}
if a.augment:
    aug = K.AugmentationSequential(K.RandomHorizontalFlip(), K.RandomAffine(degrees=10, p=0.5),
                                   data_keys=["input"] if a.task == "cls" else ["input", "mask"])

    def augmentations(self: object, sample: dict) -> dict:
        if a.task == "cls":
            return {"input": aug(sample["input"]), "target": sample["target"]}
        x, m = aug(sample["input"], sample["target"][:, None].float())
        return {"input": x, "target": m[:, 0].long()}

    callbacks["augmentations"] = augmentations
if a.early_stop:
    callbacks["on_checkpoint"] = EarlyStopping(monitor="losses", patience=a.early_stop)
cls = ImageClassifierTrainer if a.task == "cls" else SemanticSegmentationTrainer
trainer = cls(model, train_dl, valid_dl, criterion, opt, sched, config, callbacks=callbacks)
trainer.fit()

per_epoch = len(train_dl)
logged = [(i + 1, v) for i, v in enumerate(batch_losses) if i % per_epoch % 50 == 0]
write_truth(framework=f"kornia {kornia.__version__}", settings=vars(a), loss_name="Loss",
            step_unit="global batch, 1-based: (epoch - 1) * steps_per_epoch + Sample (`Train: E/N  Sample: S/M`)",
            tolerance=tol_decimals(3),
            record="the criterion's training outputs (forward hook), the values kornia.x's Trainer logs as "
                   "`losses.val` at the batches it logs",
            train_loss=[(s, v if math.isfinite(v) else float("nan")) for s, v in logged],
            steps_per_epoch=per_epoch)
