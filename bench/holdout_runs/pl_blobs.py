"""A user's Lightning script: an MLP classifying Gaussian blobs, on CPU.

Truth: the run's ``CSVLogger`` ``metrics.csv`` (train loss column at the CSV's ``step``).
"""

from __future__ import annotations

import argparse
import csv
import glob
import logging
import math

import lightning as L
import torch
from holdout_truth import write_truth
from lightning.pytorch.callbacks import RichProgressBar, TQDMProgressBar
from lightning.pytorch.loggers import CSVLogger

p = argparse.ArgumentParser()
p.add_argument("--name", default="loss")
p.add_argument("--prog-bar", default="true")
p.add_argument("--on-epoch", action="store_true")
p.add_argument("--bar", default="tqdm")  # tqdm | tqdm5 | rich | default | none
p.add_argument("--log-every", type=int, default=50)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--val-check", type=float, default=1.0)  # >= 2: every that many batches
p.add_argument("--limit-train", type=float, default=1.0)
p.add_argument("--accum", type=int, default=1)
p.add_argument("--lr", type=float, default=0.01)
p.add_argument("--opt", default="adam")
p.add_argument("--lr-growth", type=float, default=1.0)
p.add_argument("--echo", default="none")  # none | print | logging
p.add_argument("--echo-every", type=int, default=10)
p.add_argument("--label", default="healthy")
p.add_argument("--should-stop", action="store_true")
args = p.parse_args()

L.seed_everything(7)
log = logging.getLogger("trainer")
if args.echo == "logging":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s | %(levelname)s | %(name)s | %(message)s")

g = torch.Generator().manual_seed(3)
centers = torch.randn(5, 10, generator=g) * 2.0
y = torch.randint(0, 5, (1280,), generator=g)
x = centers[y] + torch.randn(1280, 10, generator=g) * 1.5
train = torch.utils.data.TensorDataset(x[:1024], y[:1024])
val = torch.utils.data.TensorDataset(x[1024:], y[1024:])


class Blobs(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.ReLU(), torch.nn.Linear(32, 5))

    def training_step(self, batch, i):
        xb, yb = batch
        loss = torch.nn.functional.cross_entropy(self.net(xb), yb)
        kw = {"on_step": True, "on_epoch": True} if args.on_epoch else {}
        self.log(args.name, loss, prog_bar=args.prog_bar == "true", **kw)
        if args.echo != "none" and (self.global_step + 1) % args.echo_every == 0 or (
                args.echo != "none" and not math.isfinite(loss.item())):
            n = self.trainer.num_training_batches
            if args.echo == "print":
                print(f"epoch {self.current_epoch} batch {i}/{n} loss {loss.item():.5f}")
            else:
                log.info("global_step=%d loss=%.6f lr=%.3g", self.global_step, loss.item(),
                         self.optimizers().param_groups[0]["lr"])
        return loss

    def validation_step(self, batch, i):
        xb, yb = batch
        self.log("val_loss", torch.nn.functional.cross_entropy(self.net(xb), yb), prog_bar=True)

    def configure_optimizers(self):
        if args.opt == "sgd":
            opt = torch.optim.SGD(self.parameters(), lr=args.lr, momentum=0.9)
        else:
            opt = torch.optim.Adam(self.parameters(), lr=args.lr)
        if args.lr_growth == 1.0:
            return opt
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: args.lr_growth ** s)
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}


val_check = int(args.val_check) if args.val_check >= 2 else args.val_check
callbacks: list = []  # "default": Lightning's own choice (rich when installed)
if args.bar == "rich":
    callbacks.append(RichProgressBar(leave=True))
elif args.bar == "tqdm":
    callbacks.append(TQDMProgressBar())
elif args.bar == "tqdm5":
    callbacks.append(TQDMProgressBar(refresh_rate=5))
trainer = L.Trainer(max_epochs=args.epochs, accelerator="cpu", devices=1, log_every_n_steps=args.log_every,
                    logger=CSVLogger("logs", name="blobs"), enable_progress_bar=args.bar != "none",
                    callbacks=callbacks, val_check_interval=val_check, limit_train_batches=args.limit_train,
                    accumulate_grad_batches=args.accum, enable_model_summary=args.bar != "tqdm5")
trainer.fit(Blobs(), torch.utils.data.DataLoader(train, batch_size=16, shuffle=True),
            torch.utils.data.DataLoader(val, batch_size=64))

rows = list(csv.DictReader(open(sorted(glob.glob("logs/blobs/version_*/metrics.csv"))[-1])))
col = f"{args.name}_step" if args.on_epoch else args.name
pts = [(int(r["step"]), float(r[col])) for r in rows if r.get(col) not in (None, "")]
vals = [(int(r["step"]), float(r["val_loss"])) for r in rows if r.get("val_loss") not in (None, "")]
write_truth(framework="lightning", settings={k: v for k, v in vars(args).items() if k != "label"},
            label=args.label, should_stop=args.should_stop, loss_name=col,
            step_unit="CSVLogger step column (optimizer steps done, 0-based)", tolerance={"rel": 1e-3, "sig": 3},
            record="CSVLogger metrics.csv", train_loss=pts,
            steps_per_epoch=trainer.num_training_batches // args.accum, val_loss=vals or None)
