"""EasyTorch (``easy-torch``): a tiny MLP trained by its own ``Runner`` started with ``launch_training(CFG)``, as its
README does: a ``Runner`` subclass defines the model, the data sets and ``train_iters``, registers an epoch meter
``train_loss`` (and ``val_loss`` with validation) and EasyTorch runs the loop: its loggers print ``Epoch 3 / 12``,
tqdm's bar over the batches (stderr, no TTY: one line an epoch ending ``8/8 [00:00<00:00, 310.12it/s]``) and
``Result <train>: [train_time: 0.03 (s), lr: 1.00e-02, train_loss: 0.4031]`` (the meter's format, here 4 or 6
decimals), ``Result <val>: [...]`` with validation. Data: a synthetic regression (MSE) or 3-class problem (cross
entropy), no download. Truth: the TensorBoard events EasyTorch writes (``tensorboard/``: the scalar ``train_loss`` at
each epoch, 1-based)."""

from __future__ import annotations

import argparse
import glob
import os
from typing import Any

from h82_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--optimizer", default="Adam")
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--momentum", type=float, default=0.0, help="SGD's momentum")
ap.add_argument("--scheduler", default="none", choices=["none", "step", "exp"])
ap.add_argument("--gamma", type=float, default=0.5)
ap.add_argument("--fmt", default="{:.4f}", help="the train_loss meter's format")
ap.add_argument("--clip", type=float, default=0.0, help="TRAIN.CLIP_GRAD_PARAM max_norm (0: none)")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import easytorch  # noqa: E402
import torch  # noqa: E402
from easytorch import Runner, launch_training  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import TensorDataset  # noqa: E402

torch.set_num_threads(1)
g = torch.Generator().manual_seed(0)
N_VAL = 64
X = torch.randn(a.n + N_VAL, 8, generator=g)
if a.task == "reg":
    w = torch.randn(8, 1, generator=g)
    Y: torch.Tensor = torch.sin(X @ w) * 2 + X[:, :1] ** 2 + 0.1 * torch.randn(a.n + N_VAL, 1, generator=g)
else:
    W = torch.randn(8, 3, generator=g)
    Y = (X @ W + 0.5 * torch.randn(a.n + N_VAL, 3, generator=g)).argmax(1)


class TinyRunner(Runner):
    """The user's part: model, data, one training step and one validation step."""

    def __init__(self, cfg: Any):
        super().__init__(cfg)
        self.loss_fn = nn.MSELoss() if a.task == "reg" else nn.CrossEntropyLoss()

    def init_training(self, cfg: Any) -> None:
        super().init_training(cfg)
        self.register_epoch_meter("train_loss", "train", a.fmt)

    def init_validation(self, cfg: Any) -> None:
        super().init_validation(cfg)
        self.register_epoch_meter("val_loss", "val", a.fmt)

    @staticmethod
    def define_model(cfg: Any) -> nn.Module:
        return nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1 if a.task == "reg" else 3))

    @staticmethod
    def build_train_dataset(cfg: Any) -> TensorDataset:
        return TensorDataset(X[: a.n], Y[: a.n])

    @staticmethod
    def build_val_dataset(cfg: Any) -> TensorDataset:
        return TensorDataset(X[a.n:], Y[a.n:])

    def train_iters(self, epoch: int, iter_index: int, data: Any) -> torch.Tensor:
        x, y = data
        loss = self.loss_fn(self.model(x), y)
        self.update_epoch_meter("train_loss", loss.item())
        return loss

    def val_iters(self, iter_index: int, data: Any) -> None:
        x, y = data
        with torch.no_grad():
            self.update_epoch_meter("val_loss", self.loss_fn(self.model(x), y).item())


optim_param: dict[str, Any] = {"lr": a.lr}
if a.optimizer == "SGD":
    optim_param["momentum"] = a.momentum
train: dict[str, Any] = {"NUM_EPOCHS": a.epochs, "CKPT_SAVE_DIR": "checkpoints",
                         "OPTIM": {"TYPE": a.optimizer, "PARAM": optim_param},
                         "DATA": {"BATCH_SIZE": a.batch, "SHUFFLE": True}}
if a.scheduler == "step":
    train["LR_SCHEDULER"] = {"TYPE": "StepLR", "PARAM": {"step_size": max(1, a.epochs // 3), "gamma": a.gamma}}
elif a.scheduler == "exp":
    train["LR_SCHEDULER"] = {"TYPE": "ExponentialLR", "PARAM": {"gamma": a.gamma}}
if a.clip:
    train["CLIP_GRAD_PARAM"] = {"max_norm": a.clip}
cfg: dict[str, Any] = {"DESC": "tiny mlp", "RUNNER": TinyRunner, "DEVICE": "cpu", "MODEL": {"NAME": "tiny_mlp"},
                       "TRAIN": train}
if not a.no_val:
    cfg["VAL"] = {"INTERVAL": 1, "DATA": {"BATCH_SIZE": 64}}

launch_training(cfg)

run_dir = glob.glob("checkpoints/*")[0]
events = EventAccumulator(os.path.join(run_dir, "tensorboard"))
events.Reload()
tags = events.Tags()["scalars"]
train_loss = [(e.step, e.value) for e in events.Scalars("train_loss")]
val_loss = [(e.step, e.value) for e in events.Scalars("val_loss")] if "val_loss" in tags else None
keep(os.path.join(run_dir, "tensorboard"))
for log in glob.glob(os.path.join(run_dir, "training_log*")):
    keep(log)
decimals = int(a.fmt.strip("{}:.f"))
write_truth(framework=f"easy-torch {easytorch.__version__}", settings=vars(a), loss_name="train_loss",
            step_unit="epoch, 1-based (`Epoch 3 / 12`)", tolerance={"rel": 1e-06, "abs": 0.51 * 10.0 ** -decimals},
            record="the TensorBoard events EasyTorch writes (`tensorboard/`, scalar `train_loss` at each epoch)",
            train_loss=train_loss, eval_loss=val_loss, eval_name="val_loss" if val_loss else None,
            steps_per_epoch=-(-a.n // a.batch))  # the train bar's total (`8/8`): no drop_last
