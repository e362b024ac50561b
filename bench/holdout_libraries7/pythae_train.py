"""pythae: a ``VAE`` / ``AE`` / ``BetaVAE`` / ``IWAE`` of its default MLP encoder and decoder on small synthetic
8x8 images, trained by its ``TrainingPipeline`` with a ``BaseTrainerConfig`` (optimizer, learning rate, optional
``ExponentialLR`` scheduler, epochs, batch size, with or without eval data), as its README's quick start does. Its
logger prints on stderr the config, the optimizer, then per epoch tqdm bars, on stderr too (``Training of epoch 3/10:
100%|...| 5/5``, ``Eval of epoch 3/10``) and a block ``Train loss: 2.7132`` / ``Eval loss: 2.7134`` between dashed
lines (``np.round(loss, 4)``). Truth: the ``logs`` dict its trainer hands every callback's ``on_log`` at each epoch's
end (``train_epoch_loss``, ``eval_epoch_loss``), at the epoch, 1-based (``Training of epoch N/M``)."""

from __future__ import annotations

import argparse
from typing import Any

import torch
from h7_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="VAE", choices=["VAE", "AE", "BetaVAE", "IWAE"])
ap.add_argument("--optimizer", default="Adam", choices=["Adam", "AdamW", "SGD", "RMSprop"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma (stepped every epoch)")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=320)
ap.add_argument("--latent", type=int, default=2)
ap.add_argument("--no-eval", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

from pythae.models import AE, IWAE, VAE, AEConfig, BetaVAE, BetaVAEConfig, IWAEConfig, VAEConfig  # noqa: E402
from pythae.pipelines import TrainingPipeline  # noqa: E402
from pythae.trainers import BaseTrainerConfig  # noqa: E402
from pythae.trainers.training_callbacks import TrainingCallback  # noqa: E402

# synthetic images: blurred blobs at random places, values in [0, 1]
g = torch.Generator().manual_seed(0)
yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
centres = torch.rand(a.n + 80, 2, generator=g) * 7
X = torch.exp(-((yy - centres[:, 0, None, None]) ** 2 + (xx - centres[:, 1, None, None]) ** 2) / 4.0)
X = (X + 0.05 * torch.rand(X.shape, generator=g)).clamp(0, 1).unsqueeze(1)


class Record(TrainingCallback):
    """The trainer's per-epoch logs, as every callback's ``on_log`` receives them."""

    def __init__(self):
        self.logs: list[dict] = []

    def on_log(self, training_config, logs, **kwargs):
        self.logs.append(dict(logs))


models: dict[str, tuple[Any, Any, dict[str, Any]]] = {
    "VAE": (VAE, VAEConfig, {}), "AE": (AE, AEConfig, {}), "BetaVAE": (BetaVAE, BetaVAEConfig, {"beta": 2.0}),
    "IWAE": (IWAE, IWAEConfig, {"number_samples": 3})}
cls, cfg_cls, extra = models[a.model]
model = cls(cfg_cls(input_dim=(1, 8, 8), latent_dim=a.latent, **extra))
sched = {"scheduler_cls": "ExponentialLR", "scheduler_params": {"gamma": a.gamma}} if a.gamma else {}
opt = {"optimizer_params": {"momentum": 0.9}} if a.optimizer == "SGD" else {}
config = BaseTrainerConfig(output_dir="runs", num_epochs=a.epochs, learning_rate=a.lr, optimizer_cls=a.optimizer,
                           per_device_train_batch_size=a.batch, per_device_eval_batch_size=a.batch, no_cuda=True,
                           **opt, **sched)
rec = Record()
try:  # its trainer raises ``ArithmeticError("NaN detected in train loss")`` when an epoch's loss is NaN: the epochs
    # logged before are the record (and the run ends with that traceback, as a user's does)
    TrainingPipeline(training_config=config, model=model)(
        train_data=X[: a.n], eval_data=None if a.no_eval else X[a.n:], callbacks=[rec])
finally:
    train = [(i + 1, lg["train_epoch_loss"]) for i, lg in enumerate(rec.logs)]
    evals = [(i + 1, lg["eval_epoch_loss"]) for i, lg in enumerate(rec.logs)
             if lg.get("eval_epoch_loss") is not None]
    write_truth(framework=f"pythae {version('pythae')}", settings=vars(a), loss_name="Train loss",
                step_unit="epoch, 1-based (`Training of epoch N/M`)", tolerance=tol_decimals(4),
                steps_per_epoch=-(-a.n // a.batch),  # the epoch bar's total (`10/10`): a reader numbering batches
                record="the `logs` its trainer hands each callback's `on_log` at an epoch's end (`train_epoch_loss`)",
                train_loss=train, eval_loss=evals or None, eval_name="Eval loss" if evals else None)
