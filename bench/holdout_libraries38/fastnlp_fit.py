"""fastNLP: a small torch MLP (``train_step`` returning ``{"loss": ...}``, ``evaluate_step`` returning
``{"pred": ..., "target": ...}``, as its tutorials show) trained by ``fastNLP.Trainer(driver="torch", device="cpu")``
on a synthetic table, with or without evaluation (``Accuracy``, ``evaluate_every``). With no terminal, its default
progress (``progress_bar="auto"``) is its ``RawTextCallback``, logged by its logger:
``Epoch:0/5, Batch:3, loss:1.10245, finished 6.25%.`` every ``print_every`` batches (the mean of those batches'
losses, rounded to 6 decimals), ``**********Epoch:1 starts**********`` and the evaluation's
``----------Eval. results on Epoch:1, Batch:0----------`` / ``{"acc#acc": 0.6}``. Truth: a callback of the run's own
(the ``Callback`` hooks the RawTextCallback uses: the loss of each batch before backward, averaged over the same
``print_every`` batches) at the trainer's ``global_forward_batches`` (1-based, across epochs)."""

from __future__ import annotations

import argparse

import numpy as np
from h38_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "momentum", "adagrad"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma each epoch (0: none)")
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=384)
ap.add_argument("--every", type=int, default=0, help="RawTextCallback print_every (0: the default progress)")
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import fastNLP  # noqa: E402
import torch  # noqa: E402
from fastNLP import Accuracy, Callback, Trainer  # noqa: E402
from fastNLP.core.callbacks import RawTextCallback  # noqa: E402
from torch import nn  # noqa: E402

rng = np.random.default_rng(0)
n_all = a.n + (a.n // 4 if a.val else 0)
X = rng.normal(size=(n_all, 8)).astype(np.float32)
w = rng.normal(size=(8,)).astype(np.float32)
if a.task == "reg":
    Y = ((X @ w + rng.normal(scale=0.3, size=n_all)) * 3 + 2).astype(np.float32)
else:
    Y = ((X @ w + rng.normal(scale=0.5, size=n_all)) > 0).astype(np.int64) + (X[:, 1] > 1).astype(np.int64)


class Table(torch.utils.data.Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": torch.tensor(self.x[i]), "y": torch.tensor(self.y[i])}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        out = 1 if a.task == "reg" else 3
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, out))

    def train_step(self, x, y):
        out = self.net(x)
        if a.task == "reg":
            return {"loss": nn.functional.mse_loss(out.squeeze(-1), y)}
        return {"loss": nn.functional.cross_entropy(out, y)}

    def evaluate_step(self, x, y):
        return {"pred": self.net(x).argmax(-1), "target": y}


class Record(Callback):
    """The losses the RawTextCallback prints, kept as numbers (same hooks, same averaging)."""

    def __init__(self, every):
        self.every, self.acc, self.points = every, 0.0, []

    def on_before_backward(self, trainer, outputs):
        loss = trainer.extract_loss_from_outputs(outputs)
        self.acc += trainer.driver.tensor_to_numeric(loss, reduce="sum")

    def on_train_batch_end(self, trainer):
        if trainer.global_forward_batches % self.every == 0:
            self.points.append((trainer.global_forward_batches, self.acc / self.every))
            self.acc = 0.0


class Decay(Callback):
    def __init__(self, sched):
        self.sched = sched

    def on_train_epoch_end(self, trainer):
        self.sched.step()


model = Net()
if a.optimizer == "adam":
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
elif a.optimizer == "sgd":
    opt = torch.optim.SGD(model.parameters(), lr=a.lr)
elif a.optimizer == "momentum":
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
else:
    opt = torch.optim.Adagrad(model.parameters(), lr=a.lr)
rec = Record(a.every or 1)
callbacks = [rec]
if a.gamma:
    callbacks.append(Decay(torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.gamma)))
train_dl = torch.utils.data.DataLoader(Table(X[:a.n], Y[:a.n]), batch_size=a.batch, shuffle=True)
kw = {}
if a.val:
    kw = {"evaluate_dataloaders": torch.utils.data.DataLoader(Table(X[a.n:], Y[a.n:]), batch_size=64),
          "metrics": {"acc": Accuracy()}}
if a.every:
    kw["progress_bar"] = RawTextCallback(print_every=a.every)
trainer = Trainer(model=model, driver="torch", device="cpu", train_dataloader=train_dl, optimizers=opt,
                  n_epochs=a.epochs, callbacks=callbacks, **kw)
trainer.run()

write_truth(framework=f"fastNLP {fastNLP.__version__}", settings=vars(a), loss_name="loss",
            step_unit="global batch, 1-based, across epochs (the trainer's `global_forward_batches`; the log prints "
                      "`Epoch:E/N, Batch:B`, B counting the batches of the epoch)",
            tolerance=tol_decimals(6),
            record="a Callback of the run's own on the hooks RawTextCallback uses (loss before backward, averaged "
                   "over print_every batches)",
            train_loss=rec.points, steps_per_epoch=len(train_dl))
