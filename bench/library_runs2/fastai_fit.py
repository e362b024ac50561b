"""fastai: a Learner on plain PyTorch DataLoaders, trained with ``fit_one_cycle`` or ``fit``.

fastai prints its progress with fastprogress: with no TTY and no notebook, a table (``epoch  train_loss
valid_loss  accuracy  time``) whose header is printed once and a row per epoch, between the bars' redraws.
``--csv`` adds a ``CSVLogger`` (``history.csv``, kept as a second entry). The truth is ``learn.recorder.values``
(the smoothed train loss at each epoch's end, as printed), at the 0-based epoch the table prints.
"""

from __future__ import annotations

import argparse

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="one_cycle", choices=["one_cycle", "fit"])
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--lr", type=float, default=1e-2)
ap.add_argument("--bs", type=int, default=32)
ap.add_argument("--csv", action="store_true")
ap.add_argument("--no-metrics", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from _data import loaders, mlp  # noqa: E402
from fastai.basics import CrossEntropyLossFlat, DataLoaders, Learner, accuracy  # noqa: E402
from fastai.callback.progress import CSVLogger  # noqa: E402
from fastai.callback.schedule import fit_one_cycle  # noqa: E402, F401 (patches Learner.fit_one_cycle)

tr, va = loaders(a.bs)
dls = DataLoaders(tr, va)
cbs = [CSVLogger()] if a.csv else []
learn = Learner(dls, mlp(), loss_func=CrossEntropyLossFlat(), metrics=[] if a.no_metrics else [accuracy], cbs=cbs)
if a.mode == "one_cycle":
    learn.fit_one_cycle(a.epochs, a.lr)
else:
    learn.fit(a.epochs, a.lr)

vals = [(i, v[0]) for i, v in enumerate(learn.recorder.values)]
ev = [(i, v[1]) for i, v in enumerate(learn.recorder.values) if len(v) > 1]
doc = dict(framework="fastai", settings=vars(a), label=a.label, should_stop=a.should_stop, loss_name="train_loss",
           step_unit="epoch, 0-based (the table's 'epoch' column)", tolerance={"rel": 1e-9, "abs": 5.1e-7},
           record="learn.recorder.values (train_loss, valid_loss, metrics per epoch)", train_loss=vals,
           eval_loss=ev, steps_per_epoch=len(tr))
write_truth(**doc)
if a.csv:
    keep("history.csv")
    store_entry("history.csv", "truth.json")
