"""MosaicML Composer: a ``Trainer`` on a ``ComposerClassifier`` with its progress bar (``--bar``) and/or its
console logger (``log_to_console``, ``console_log_interval``), both on stderr by default, and optionally a
``FileLogger`` (``composer.log``, a second entry). The truth is an
``InMemoryLogger``'s ``loss/train/total`` at the global batch of its timestamp."""

from __future__ import annotations

import argparse

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=4)
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--opt", default="sgd")
ap.add_argument("--bs", type=int, default=32)
ap.add_argument("--bar", action="store_true")
ap.add_argument("--console", default="", help="console_log_interval, e.g. 5ba; empty: no console logger")
ap.add_argument("--eval", action="store_true")
ap.add_argument("--file", action="store_true", help="also a FileLogger (composer.log, a second entry)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from _data import loaders, mlp  # noqa: E402
from composer import Trainer  # noqa: E402
from composer.loggers import FileLogger, InMemoryLogger  # noqa: E402
from composer.models import ComposerClassifier  # noqa: E402

tr, va = loaders(a.bs)
model = ComposerClassifier(module=mlp(), num_classes=3)
opt = (torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9) if a.opt == "sgd"
       else torch.optim.Adam(model.parameters(), lr=a.lr))
mem = InMemoryLogger()
kw = {"log_to_console": True, "console_log_interval": a.console} if a.console else {}
loggers = [mem, *([FileLogger(filename="composer.log", flush_interval=1)] if a.file else [])]
trainer = Trainer(model=model, train_dataloader=tr, eval_dataloader=va if a.eval else None,
                  max_duration=f"{a.epochs}ep", optimizers=opt, loggers=loggers, progress_bar=a.bar, device="cpu",
                  seed=0, **kw)
trainer.fit()
pts = [(ts.batch.value, v) for ts, v in mem.data["loss/train/total"]]
if a.console and not a.bar:  # the console logger prints the first batch and every k-th after it: those points
    k = int(a.console.removesuffix("ba"))
    pts = [(b, v) for b, v in pts if b == 0 or (b + 1) % k == 0]
write_truth(framework="composer", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="loss/train/total", step_unit="global batch (the InMemoryLogger timestamp's batch)",
            tolerance={"rel": 1e-9, "abs": 5.1e-5}, record="InMemoryLogger.data['loss/train/total']", train_loss=pts)
if a.file:
    keep("composer.log")
    store_entry("composer.log", "truth.json")
