"""Sacred 0.8: an ``Experiment`` with a ``FileStorageObserver`` (``runs/1/``: ``metrics.json``, ``cout.txt``,
``run.json``, ``config.json``), a torch regression trained in its main function, each epoch's (or step's) loss given
to ``_run.log_scalar`` and reported the way the script chooses: ``print``, the experiment's logger (``_log.info``:
``INFO - name - ...``), a table, or nothing (the metrics only in ``metrics.json``). ``cout.txt`` (the captured
output) holds the logger's lines but not ``print``'s: stdout to a file is block-buffered, flushed after the capture
ends; it is scored only where it holds the loss.

Truth: ``metrics.json`` (the observer's own record: per metric ``steps``, ``values``, ``timestamps``), its
``training.loss`` at its steps.
"""

from __future__ import annotations

import argparse
import json
import sys

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=30)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--report", default="print", choices=["print", "log", "none", "table"])
ap.add_argument("--per-step", action="store_true", help="log_scalar every step (no step given: sacred counts)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
sys.argv = sys.argv[:1]

import torch  # noqa: E402
from sacred import Experiment  # noqa: E402
from sacred.observers import FileStorageObserver  # noqa: E402

torch.set_num_threads(1)
ex = Experiment("tiny_regression")
ex.observers.append(FileStorageObserver("runs"))


@ex.config
def cfg():
    lr = a.lr  # noqa: F841
    epochs = a.epochs  # noqa: F841
    hidden = 32  # noqa: F841


@ex.main
def main(_run, _log, lr, epochs, hidden):
    g = torch.Generator().manual_seed(0)
    X = torch.randn(800, 8, generator=g)
    y = torch.sin(X[:, :1]) + 0.5 * X[:, 1:2] ** 2 + 0.1 * torch.randn(800, 1, generator=g)
    model = torch.nn.Sequential(torch.nn.Linear(8, hidden), torch.nn.Tanh(), torch.nn.Linear(hidden, 1))
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    if a.report == "table":
        print(f"{'epoch':>6} {'train_loss':>12} {'val_loss':>12}")
    step = 0
    for epoch in range(1, epochs + 1):
        tot = 0.0
        for i in range(0, 640, 64):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(X[i:i + 64]), y[i:i + 64])
            loss.backward()
            opt.step()
            step += 1
            tot += loss.item()
            if a.per_step:
                _run.log_scalar("training.loss", loss.item())
                if a.report == "log" and step % 5 == 0:
                    _log.info("step %d loss %.6f", step, loss.item())
        with torch.no_grad():
            vl = float(torch.nn.functional.mse_loss(model(X[640:]), y[640:]))
        if not a.per_step:
            _run.log_scalar("training.loss", tot / 10, epoch)
        _run.log_scalar("validation.loss", vl, epoch)
        if a.report == "print":
            print(f"Epoch {epoch}/{epochs}: train loss {tot / 10:.6f}, validation loss {vl:.6f}")
        elif a.report == "log" and not a.per_step:
            _log.info("epoch %d: loss=%.6f val_loss=%.6f", epoch, tot / 10, vl)
        elif a.report == "table":
            print(f"{epoch:>6} {tot / 10:>12.6f} {vl:>12.6f}")
    return vl


ex.run()
m = json.load(open("runs/1/metrics.json"))
tl = m["training.loss"]
pts = list(zip(tl["steps"], tl["values"], strict=True))
keep("runs/1/metrics.json")
keep("runs/1/cout.txt")
keep("runs/1/run.json")
common = dict(framework="sacred", settings=vars(a), label=a.label, should_stop=a.should_stop,
              loss_name="training.loss", tolerance={"rel": 1e-6, "sig": 6, "abs": 5e-7},
              step_unit=("sacred's own counter of log_scalar calls without a step, 0-based" if a.per_step
                         else "epoch, 1-based (the step given to log_scalar)"),
              record="the FileStorageObserver's metrics.json, training.loss (steps, values)")
val = list(zip(m["validation.loss"]["steps"], m["validation.loss"]["values"], strict=True))
if a.report != "none":
    if a.per_step and a.report == "log":
        printed = [p for p in pts if (p[0] + 1) % 5 == 0]
        write_truth(**{**common, "step_unit": "global step, 1-based (the logged 'step N'; metrics.json counts "
                                              "from 0)"}, train_loss=[(s + 1, v) for s, v in printed], val_loss=val)
    else:
        write_truth(**common, train_loss=pts, val_loss=val)
    if a.report == "log":  # the logger's lines (stderr, unbuffered) are captured; print()'s stay in stdout's
        store_entry("cout.txt", "truth.json")  # buffer (a file: block-buffered) until the run ends, after the capture
    store_entry("metrics.json", "truth_store.json")
    write_truth(name="truth_store.json", **common, train_loss=pts, val_loss=val)
else:
    write_truth(**common, train_loss=pts, val_loss=val, log_scored=False)
    store_entry("metrics.json", "truth.json")
