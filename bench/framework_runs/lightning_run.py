"""Lightning: a small MLP regression LightningModule on synthetic data, logged with ``self.log``.

Truth: the CSVLogger's ``metrics.csv`` rows with ``train_loss`` (steps = the CSV's ``step`` column).
Settings: max_epochs, log_every_n_steps, bar (tqdm / rich / none), learning_rate, batch_size, val (bool),
loss_name (the logged key), print_every (the module also prints ``self.print`` lines when the bar is off),
crash_at / ckpt_every / phase (a run that dies at crash_at, then resumes from its last checkpoint, saved every
epoch or every ckpt_every steps), on_epoch (log the loss on_step and on_epoch: CSV keys ``<name>_step`` /
``<name>_epoch``).
"""

from __future__ import annotations

import csv

from _common import parse_args, seed_all, write_truth

out, st, work = parse_args()
seed_all(st.get("seed", 0))

import lightning as L  # noqa: E402
import torch  # noqa: E402
from lightning.pytorch.callbacks import Callback, ModelCheckpoint, TQDMProgressBar  # noqa: E402
from lightning.pytorch.loggers import CSVLogger  # noqa: E402
from torch import nn  # noqa: E402

NAME = st.get("loss_name", "train_loss")
ON_EPOCH = st.get("on_epoch", False)
PRINT_EVERY = st.get("print_every", 0)


class Net(L.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.Tanh(), nn.Linear(64, 1))

    def training_step(self, batch, idx):
        x, y = batch
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log(NAME, loss, on_step=True, on_epoch=ON_EPOCH, prog_bar=True)
        if PRINT_EVERY and (self.global_step + 1) % PRINT_EVERY == 0:
            self.print(f"epoch {self.current_epoch} step {self.global_step} {NAME} {loss.item():.5f}")
        return loss

    def validation_step(self, batch, idx):
        x, y = batch
        self.log("val_loss", nn.functional.mse_loss(self.net(x), y), prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=st.get("learning_rate", 0.05), momentum=0.9)


g = torch.Generator().manual_seed(0)
w = torch.randn(16, 1, generator=g)
x = torch.randn(st.get("n_train", 1024), 16, generator=g)
y = torch.tanh(0.25 * (x @ w)) + 0.05 * torch.randn(len(x), 1, generator=g)
ds = torch.utils.data.TensorDataset(x, y)
dl = torch.utils.data.DataLoader(ds, batch_size=st.get("batch_size", 16), shuffle=True, generator=g)
vx = torch.randn(128, 16, generator=g)
vdl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(vx, torch.tanh(0.25 * (vx @ w))), batch_size=64)
logger = CSVLogger(str(work), name="csv")
bar = st.get("bar", "tqdm")  # tqdm (TQDMProgressBar), rich (Lightning's default when rich is installed), none
callbacks: list[Callback] = [TQDMProgressBar(refresh_rate=st.get("refresh_rate", 1))] if bar == "tqdm" else []
phase, ckpt_dir = st.get("phase", 1), work / "ckpt"


class Crash(Callback):
    def on_train_batch_end(self, trainer, *args):
        if trainer.global_step >= st["crash_at"]:
            raise RuntimeError(f"simulated node failure at step {trainer.global_step}")


if "crash_at" in st:  # checkpoints every epoch (or ckpt_every steps); phase 1 dies at crash_at, phase 2 resumes
    every = ({"every_n_train_steps": st["ckpt_every"]} if "ckpt_every" in st else {"every_n_epochs": 1})
    callbacks.append(ModelCheckpoint(dirpath=str(ckpt_dir), save_last=True, save_top_k=-1, **every))
    if phase == 1:
        callbacks.append(Crash())
trainer = L.Trainer(max_epochs=st.get("max_epochs", 3), log_every_n_steps=st.get("log_every_n_steps", 50),
                    enable_progress_bar=bar != "none", logger=logger, callbacks=callbacks, accelerator="cpu",
                    devices=1, enable_checkpointing="crash_at" in st,
                    enable_model_summary=st.get("model_summary", True), detect_anomaly=False)
ckpt = str(ckpt_dir / "last.ckpt") if phase == 2 else None
resumed_at = int(torch.load(ckpt, map_location="cpu", weights_only=False)["global_step"]) if ckpt else 0
trainer.fit(Net(), dl, vdl if st.get("val", True) else None, ckpt_path=ckpt)
key = f"{NAME}_step" if ON_EPOCH else NAME


def csv_rows(log_dir: str) -> list[dict]:
    with open(f"{log_dir}/metrics.csv") as f:
        return list(csv.DictReader(f))


rows = csv_rows(logger.log_dir)
record = "CSVLogger metrics.csv"
if ckpt is not None:  # the resumed run's CSV, after the first run's rows from before the checkpoint it resumed
    first = csv_rows(str(work / "csv" / "version_0"))
    rows = [r for r in first if int(r["step"]) < resumed_at] + rows
    record = (f"CSVLogger metrics.csv: version_0 (the run that died) below step {resumed_at}, then version_1 (the "
              "run resumed from that checkpoint)")
loss = [(int(r["step"]), float(r[key])) for r in rows if r.get(key) not in (None, "")]
write_truth(out, framework="lightning", settings=st, train_loss=loss, loss_name=key,
            step_unit="CSVLogger step column (optimizer steps done, 0-based)",
            tolerance={"rel": 1e-3, "sig": 3}, record=record, steps_per_epoch=len(dl),
            extra={"val_loss": [[int(r["step"]), float(r["val_loss"])] for r in rows if r.get("val_loss")]})
