"""coqui-tts-trainer (the ``trainer`` package of Coqui TTS): a small MLP as a ``TrainerModel`` (``train_step``,
``eval_step``, ``get_criterion``, ``get_data_loader``, as its MNIST example), trained by ``Trainer(...).fit()`` with
a ``TrainerConfig`` (optimizer, lr, optional ``lr_scheduler``, ``print_step``, ``run_eval``) and its default
TensorBoard dashboard logger. Its console logger writes to stderr (the ``trainer`` logger's StreamHandler) and to
its own file ``trainer_0_log.txt`` in the run folder: `` > EPOCH: 0/9``, ``   --> TIME: ... -- STEP: 4/24 --
GLOBAL_STEP: 4`` then ``     | > loss: 0.6931471824645996  (0.70...)`` (the step's loss, then the epoch's running
mean, ``str(float)``), and ``--> EVAL PERFORMANCE`` / ``| > avg_loss: ...`` after each epoch with
``run_eval``.
Truth: the ``TrainIterStats/loss`` scalars of its TensorBoard logger (``plot_step`` = ``print_step``, so the steps
the console prints), read back with TensorBoard's ``EventAccumulator``, at ``GLOBAL_STEP``; eval:
``EvalStats/avg_loss``.
"""

from __future__ import annotations

import argparse
import glob
import os
from dataclasses import dataclass, field

import numpy as np
import torch
from h41_truth import keep, seed_all, tol_sig, write_truth
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="Adam")
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--momentum", type=float, default=0.0)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma (stepped after each epoch); 0: none")
ap.add_argument("--gamma-step", type=float, default=0.0, help="ExponentialLR gamma (stepped after each batch)")
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--print-step", type=int, default=5)
ap.add_argument("--val", action="store_true")
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import trainer  # noqa: E402
from trainer import Trainer, TrainerArgs, TrainerConfig, TrainerModel  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 8)).astype(np.float32)
w = rng.normal(size=8).astype(np.float32)
if a.task == "cls":
    y = torch.tensor((X @ w + 0.5 * rng.normal(size=a.n) > 0).astype(np.int64))
else:
    y = torch.tensor((X @ w + 2.0 + 0.3 * rng.normal(size=a.n)).astype(np.float32))
X = torch.tensor(X)
n_tr = int(a.n * 0.8)


@dataclass
class MLPConfig(TrainerConfig):
    batch_size: int = 32
    eval_batch_size: int = 64
    epochs: int = 6
    print_step: int = 5
    plot_step: int = 5
    save_step: int = 100000
    save_checkpoints: bool = False
    run_eval: bool = False
    optimizer: str = "Adam"
    lr: float = 1e-3
    optimizer_params: dict = field(default_factory=dict)


class MLP(TrainerModel):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2 if a.task == "cls" else 1))

    def forward(self, x):
        out = self.net(x)
        return out if a.task == "cls" else out.squeeze(-1)

    def format_batch(self, batch):
        return {"x": batch[0], "y": batch[1]}

    def train_step(self, batch, criterion):
        x, t = batch["x"], batch["y"]
        out = self(x)
        return {"model_outputs": out}, {"loss": criterion(out, t)}

    def eval_step(self, batch, criterion):
        return self.train_step(batch, criterion)

    @staticmethod
    def get_criterion():
        return nn.CrossEntropyLoss() if a.task == "cls" else nn.MSELoss()

    def get_data_loader(self, config, *, is_eval=False, samples=None, verbose=True):
        sl = slice(n_tr, None) if is_eval else slice(0, n_tr)
        ds = TensorDataset(X[sl], y[sl])
        return DataLoader(ds, batch_size=config.eval_batch_size if is_eval else config.batch_size,
                          shuffle=not is_eval, drop_last=False)


params = {"momentum": a.momentum} if a.optimizer == "SGD" and a.momentum else {}
config = MLPConfig(batch_size=a.batch, epochs=a.epochs, print_step=a.print_step, plot_step=a.print_step,
                   run_eval=a.val, optimizer=a.optimizer, lr=a.lr, optimizer_params=params,
                   run_name="mlp", dashboard_logger="tensorboard")
if a.gamma:
    config.lr_scheduler = "ExponentialLR"
    config.lr_scheduler_params = {"gamma": a.gamma}
if a.gamma_step:
    config.lr_scheduler = "ExponentialLR"
    config.lr_scheduler_params = {"gamma": a.gamma_step}
    config.scheduler_after_epoch = False
model = MLP()
tr = Trainer(TrainerArgs(), config, output_path=os.getcwd(), model=model, parse_command_line_args=False)
tr.fit()

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

run_dir = tr.output_path
ev = EventAccumulator(str(run_dir), size_guidance={"scalars": 0})
ev.Reload()
train = [(s.step, s.value) for s in ev.Scalars("TrainIterStats/loss")]
evl = [(s.step, s.value) for s in ev.Scalars("EvalStats/avg_loss")] if a.val else None
spe = (n_tr + a.batch - 1) // a.batch
common = dict(framework=f"coqui-tts-trainer {trainer.__version__}", settings=vars(a),
              loss_name="loss (CrossEntropyLoss)" if a.task == "cls" else "loss (MSELoss)",
              step_unit="global step, 0-based (`GLOBAL_STEP: N`; `STEP: s/{spe - 1}` counts within the epoch)",
              tolerance=tol_sig(7), steps_per_epoch=spe,
              record="the `TrainIterStats/loss` scalars of its TensorBoard dashboard logger (plot_step = print_step),"
                     " read with EventAccumulator",
              train_loss=train, eval_loss=evl, eval_name="EvalStats/avg_loss" if a.val else None)
write_truth(**common)
log_file = glob.glob(str(run_dir / "trainer_0_log.txt"))[0]
keep(log_file)
write_truth(name="truth_store.json", file="trainer_0_log.txt", **common)
