"""torch-training-loop: a tiny torch MLP trained by its Keras-inspired ``TrainingLoop`` with a ``SimpleTrainingStep``
(an optimizer function, a per-sample loss, torcheval metrics), as its README does. The loop reports its own progress
(``verbose=1``: a tqdm bar per epoch, its postfix ``loss=0.6931; val_loss=0.6811``; ``verbose=2``: one printed line
an epoch, ``Epoch 3/10 - Finished: loss=0.6931; ...``; ``verbose=N``: that line every N epochs, and the first and
last), values as ``.4f`` (``.4e`` outside 1e-3..1e3). Truth: the train history ``fit`` returns (a DataFrame; its rows
with ``batch == -1`` hold each epoch's ``loss``, 1-based)."""

from __future__ import annotations

import argparse
import math

from h77_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop", "adamw"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--hidden", type=int, default=32, help="0: a linear model")
ap.add_argument("--verbose", type=int, default=1)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--no-metrics", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402
from torcheval.metrics import MeanSquaredError, MulticlassAccuracy  # noqa: E402
from training_loop import SimpleTrainingStep, TrainingLoop  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 8, generator=g)
if a.task == "reg":
    w = torch.randn(8, 1, generator=g)
    y = torch.sin(X @ w) * 2 + 0.5 * X[:, :1] ** 2 + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    out = 1
    loss_fn = nn.MSELoss(reduction="none")
    metrics = [] if a.no_metrics else [("mse", MeanSquaredError())]
else:
    W = torch.randn(8, 4, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 4, generator=g)).argmax(1)
    out = 4
    loss_fn = nn.CrossEntropyLoss(reduction="none")
    metrics = [] if a.no_metrics else [("acc", MulticlassAccuracy())]
model: nn.Module = nn.Linear(8, out) if a.hidden == 0 else nn.Sequential(
    nn.Linear(8, a.hidden), nn.ReLU(), nn.Linear(a.hidden, a.hidden), nn.ReLU(), nn.Linear(a.hidden, out))
opt = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "rmsprop": torch.optim.RMSprop,
       "adamw": torch.optim.AdamW}[a.optimizer]
train = DataLoader(TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch, shuffle=True, generator=g)
val: DataLoader | list = [] if a.no_val else DataLoader(TensorDataset(X[a.n:], y[a.n:]), batch_size=a.batch)

loop = TrainingLoop(model, step=SimpleTrainingStep(optimizer_fn=lambda params: opt(params, lr=a.lr), loss=loss_fn,
                                                     metrics=metrics))
train_history, val_history = loop.fit(train, val, epochs=a.epochs, verbose=a.verbose)

import training_loop  # noqa: E402

# the epochs whose values the loop prints (all with verbose 1 or 2; with verbose N > 2 the first, the last and every
# N-th, as its ProgressReporter does)
shown = [e for e in range(1, a.epochs + 1) if a.verbose in (1, 2) or e in (1, a.epochs) or e % a.verbose == 0]
epochs = train_history[(train_history["batch"] == -1) & train_history["epoch"].isin(shown)]
vals = val_history[(val_history["val_batch"] == -1) & val_history["val_epoch"].isin(shown)]


def num(v: float) -> float | str:
    return v if math.isfinite(v) else "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")


write_truth(framework=f"torch-training-loop {training_loop.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch 3/10`)", tolerance={"rel": 0.51e-4, "abs": 0.51e-4},
            record="the train history `TrainingLoop.fit` returns (rows with `batch == -1`: the epoch's `loss`; "
                   "only the epochs it prints)",
            train_loss=[(int(e), num(float(v))) for e, v in zip(epochs["epoch"], epochs["loss"], strict=True)],
            eval_loss=None if a.no_val else [(int(e), num(float(v))) for e, v in
                                             zip(vals["val_epoch"], vals["val_loss"], strict=True)],
            eval_name=None if a.no_val else "val_loss")
