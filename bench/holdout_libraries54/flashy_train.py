"""flashy: a tiny MLP trained by a ``flashy.BaseSolver`` the way flashy's own examples write one (``run_stage`` for
the ``train`` and ``valid`` stages, ``log_progress`` over the loader with ``flashy.averager()``, ``commit`` at each
epoch end), started through Dora's ``hydra_main`` (the config in ``flashy_conf/``, overrides on the command line,
as ``dora run`` passes them). flashy's own logging goes to stderr through ``flashy.setup_logging`` (colorlog: ANSI
colours, and ``flashy.bold`` around each stage summary): ``Train | Epoch 3 | 4/16 | 812.40 it/sec | loss 0.412``
``log_updates`` times an epoch, then ``Train Summary | Epoch 3 | loss=0.398 | duration=0.021`` (its ``Formatter``:
3 decimals by default, or the formats the solver gives). Truth: Dora's ``history.json`` in the XP folder (what
``commit`` stores: ``history[epoch - 1]['train']['loss']``, epoch 1-based), kept with ``solver.log.0`` (flashy's
own copy of the log)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from h54_truth import keep, seed_all, tol_decimals, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optim", default="adam", choices=["adam", "adamw", "sgd", "rmsprop"])
ap.add_argument("--gamma", type=float, default=1.0, help="ExponentialLR factor applied at each epoch end")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--updates", type=int, default=5, help="log_progress lines per epoch (0: none)")
ap.add_argument("--formats", default="default", choices=["default", "cifar", "sig4"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import flashy  # noqa: E402
import torch  # noqa: E402
from dora import hydra_main  # noqa: E402
from torch.nn import functional as F  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

OUT = Path.cwd() / "outputs"


def make_data(task: str, n: int) -> tuple[TensorDataset, TensorDataset]:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n + n // 4, 12, generator=g)
    if task == "cls":
        w = torch.randn(12, 4, generator=g)
        y = (x @ w + 0.5 * torch.randn(len(x), 4, generator=g)).argmax(1)
    else:
        w = torch.randn(12, 1, generator=g)
        y = torch.sin(x @ w) * 2 + x[:, :1] ** 2 + 0.1 * torch.randn(len(x), 1, generator=g)
    return TensorDataset(x[:n], y[:n]), TensorDataset(x[n:], y[n:])


class Solver(flashy.BaseSolver):
    def __init__(self, cfg: Any) -> None:
        super().__init__()
        self.cfg = cfg
        out = 4 if cfg.task == "cls" else 1
        self.model = torch.nn.Sequential(torch.nn.Linear(12, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64),
                                         torch.nn.ReLU(), torch.nn.Linear(64, out))
        opt = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW, "rmsprop": torch.optim.RMSprop}
        if cfg.optim == "sgd":
            self.optim: torch.optim.Optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg.lr, momentum=0.9)
        else:
            self.optim = opt[cfg.optim](self.model.parameters(), lr=cfg.lr)
        self.sched = torch.optim.lr_scheduler.ExponentialLR(self.optim, gamma=cfg.gamma)
        train, valid = make_data(cfg.task, cfg.n)
        self.loaders = {"train": DataLoader(train, batch_size=cfg.batch_size, shuffle=True,
                                            generator=torch.Generator().manual_seed(cfg.seed)),
                        "valid": DataLoader(valid, batch_size=cfg.batch_size)}
        self.register_stateful("model", "optim", "sched")

    def run(self) -> None:
        self.logger.info("Log dir: %s", self.folder)
        self.restore()
        for _ in range(self.epoch, self.cfg.epochs + 1):
            self.run_stage("train", self.do_train_valid, train=True)
            if self.cfg.valid:
                self.run_stage("valid", self.do_train_valid, train=False)
            self.sched.step()
            self.commit(save_checkpoint=False)

    def get_formatter(self, stage_name: str) -> flashy.Formatter:
        if self.cfg.formats == "cifar":
            return flashy.Formatter({"acc": ".1%", "loss": ".5f"})
        if self.cfg.formats == "sig4":
            return flashy.Formatter({"loss": ".4g"}, default_format=".3f")
        return flashy.Formatter()

    def do_train_valid(self, train: bool = True) -> dict:
        loader = self.loaders["train" if train else "valid"]
        self.model.train(train)
        lp = self.log_progress(self.current_stage, loader, total=len(loader), updates=self.cfg.log_updates)
        average = flashy.averager()
        metrics: dict = {}
        for x, y in lp:
            with torch.set_grad_enabled(train):
                est = self.model(x)
                if self.cfg.task == "cls":
                    loss = F.cross_entropy(est, y)
                    acc = (est.argmax(dim=-1) == y).float().mean()
                    batch = {"loss": loss, "acc": acc}
                else:
                    loss = F.mse_loss(est, y)
                    batch = {"loss": loss}
            if train:
                loss.backward()
                flashy.distrib.sync_model(self.model)
                self.optim.step()
                self.optim.zero_grad()
            metrics = average(batch)
            lp.update(**metrics)
        return flashy.distrib.average_metrics(metrics, len(loader))


@hydra_main(config_path="flashy_conf", config_name="config", version_base="1.1")
def main(cfg: Any) -> Solver:
    flashy.setup_logging()
    flashy.distrib.init()
    torch.set_num_threads(1)
    solver = Solver(cfg)
    solver.run()
    return solver


# the overrides a user passes to `dora run` (Hydra syntax)
sys.argv = [sys.argv[0], f"task={a.task}", f"epochs={a.epochs}", f"lr={a.lr}", f"optim={a.optim}",
            f"gamma={a.gamma}", f"batch_size={a.batch}", f"n={a.n}", f"valid={str(not a.no_val).lower()}",
            f"log_updates={a.updates}", f"formats={a.formats}", f"dora.dir={OUT}"]
os.environ.setdefault("USER", "holdout")
try:
    main()
finally:
    hist_files = sorted(OUT.glob("xps/*/history.json"))
    if hist_files:
        xp = hist_files[0].parent
        history = json.loads(hist_files[0].read_text())
        for own in ("history.json", "solver.log.0"):
            if (xp / own).is_file():
                keep(xp / own)
        tol = {"default": tol_decimals(3), "cifar": tol_decimals(5), "sig4": tol_sig(4)}[a.formats]
        write_truth(framework=f"flashy {flashy.__version__}", settings=vars(a), loss_name="loss",
                    step_unit="epoch, 1-based (`Train Summary | Epoch 3 | loss=...`)", tolerance=tol,
                    record="Dora's `history.json` written by the solver's `commit` (`history[epoch-1]['train']"
                           "['loss']`)",
                    train_loss=[(i, h["train"]["loss"]) for i, h in enumerate(history, 1)],
                    eval_loss=None if a.no_val else [(i, h["valid"]["loss"]) for i, h in enumerate(history, 1)],
                    eval_name=None if a.no_val else "valid loss")
