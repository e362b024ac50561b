"""hiddenlayer: its ``History`` logging a plain PyTorch training loop as its README and demo notebook write it:
``history.log((epoch, batch_idx), loss=loss, accuracy=accuracy)`` then ``history.progress()`` every ``--every``
batches, which prints ``Step (1, 40): loss: 0.2914818525314331  accuracy: 0.90625  `` (the values as Python
``str`` gives them: full float precision; ``--int-step``: one global step, ``Step 140: loss: ...``); with ``--val``
the epoch's validation loss is logged at the epoch's last logged step too (``val_loss: ...``). A small MLP on a
synthetic table (classification or regression), SGD / Adam, an optional ``ExponentialLR`` stepped every epoch.
Truth: the ``History``'s own record (``history.history[step]["loss"]``) at each logged step; a tuple step
``(epoch, batch)`` (both 0-based) is counted as the global batch ``epoch * steps_per_epoch + batch``."""

from __future__ import annotations

import argparse

import numpy as np
from h11_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "momentum"])
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma, stepped every epoch (0: none)")
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--every", type=int, default=5)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--val", action="store_true")
ap.add_argument("--int-step", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import hiddenlayer as hl  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)
X = rng.normal(size=(a.n + 160, 8)).astype(np.float32)
w = rng.normal(size=(8,)).astype(np.float32)
s = X @ w + 0.5 * np.sin(3 * X[:, 0])
if a.task == "cls":
    Y = torch.tensor((s > 0).astype(np.int64))
    loss_fn = nn.CrossEntropyLoss()
    out = 2
else:
    Y = torch.tensor((3 * s + 2).astype(np.float32)).unsqueeze(1)
    loss_fn = nn.MSELoss()
    out = 1
X = torch.tensor(X)
train = torch.utils.data.TensorDataset(X[:a.n], Y[:a.n])
val = torch.utils.data.TensorDataset(X[a.n:], Y[a.n:])
train_loader = torch.utils.data.DataLoader(train, batch_size=a.batch, shuffle=True)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, out))
if a.optimizer == "adam":
    optimizer = torch.optim.Adam(model.parameters(), lr=a.lr)
else:
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9 if a.optimizer == "momentum" else 0.0)
scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, a.gamma) if a.gamma else None

history = hl.History()
steps_per_epoch = len(train_loader)
for epoch in range(a.epochs):
    model.train()
    step = None
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        output = model(data)
        loss = loss_fn(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % a.every == 0:
            step = epoch * steps_per_epoch + batch_idx if a.int_step else (epoch, batch_idx)
            if a.task == "cls":
                accuracy = (output.argmax(1) == target).float().mean()
                history.log(step, loss=loss, accuracy=accuracy)
            else:
                history.log(step, loss=loss)
            if not (a.val and batch_idx + a.every >= steps_per_epoch):
                history.progress()
    if a.val:
        model.eval()
        with torch.no_grad():
            vx, vy = val.tensors
            history.log(step, val_loss=loss_fn(model(vx), vy))
        history.progress()
    if scheduler is not None:
        scheduler.step()


def glob(step) -> int:
    return step if isinstance(step, int) else step[0] * steps_per_epoch + step[1]


steps = sorted(history.history, key=glob)
extra = {} if a.int_step else {"steps_per_epoch": steps_per_epoch}
write_truth(framework=f"hiddenlayer {hl.__version__ if hasattr(hl, '__version__') else '0.3'} + torch "
            f"{torch.__version__.split('+')[0]}", settings=vars(a), loss_name="loss",
            step_unit="global batch, 0-based (`Step N`)" if a.int_step else
            "global batch, 0-based (`Step (epoch, batch)`: epoch x steps_per_epoch + batch, both 0-based)",
            tolerance={"rel": 1e-6, "abs": 0.0}, record="the `hl.History`'s own record (`history.history[step]`)",
            train_loss=[(glob(s), history.history[s]["loss"]) for s in steps],
            eval_loss=[(glob(s), history.history[s]["val_loss"]) for s in steps if "val_loss" in history.history[s]]
            if a.val else None, eval_name="val_loss" if a.val else None, **extra)
