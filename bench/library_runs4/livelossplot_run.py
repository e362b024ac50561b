"""livelossplot 0.6: a plain torch loop reporting to ``PlotLosses`` with the text outputs a script uses outside a
notebook (``ExtremaPrinter``: per metric group a block ``Loss`` / ``\\ttraining  \\t (min: ..., max: ..., cur: ...)``
after each ``send()``), optionally ``TensorboardLogger`` (an event file) as well.

Truth: ``PlotLosses.logger.log_history['loss']`` (the library's own record), at its steps (the update's
``current_step``, or the count of ``update`` calls when none is given).
"""

from __future__ import annotations

import argparse
import glob

from lib_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--every", type=int, default=1, help="send() every N epochs")
ap.add_argument("--per-batch", action="store_true", help="update() per batch at the global batch step")
ap.add_argument("--tensorboard", action="store_true")
ap.add_argument("--optim", default="sgd")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from livelossplot import PlotLosses  # noqa: E402
from livelossplot.outputs import ExtremaPrinter  # noqa: E402

torch.set_num_threads(1)
g = torch.Generator().manual_seed(0)
X = torch.randn(1200, 16, generator=g)
w = torch.randn(16, 1, generator=g)
y = ((X @ w).squeeze(1) + 0.3 * torch.randn(1200, generator=g) > 0).long()
Xtr, ytr, Xva, yva = X[:1000], y[:1000], X[1000:], y[1000:]
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2))
opt = (torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9) if a.optim == "sgd"
       else torch.optim.Adam(model.parameters(), lr=a.lr))
lossf = torch.nn.CrossEntropyLoss()
outputs: list = [ExtremaPrinter()]
if a.tensorboard:
    from livelossplot.outputs import TensorboardLogger

    outputs.append(TensorboardLogger(logdir="tb"))
liveloss = PlotLosses(outputs=outputs)
step = 0
sent_at: list[int] = []


def send() -> None:
    liveloss.send()
    sent_at.append(len(liveloss.logger.log_history["loss"]))


for epoch in range(a.epochs):
    model.train()
    perm = torch.randperm(1000, generator=g)
    tot, n = 0.0, 0
    for i in range(0, 1000, 100):
        idx = perm[i:i + 100]
        opt.zero_grad()
        out = model(Xtr[idx])
        loss = lossf(out, ytr[idx])
        loss.backward()
        opt.step()
        step += 1
        tot += loss.item() * len(idx)
        n += len(idx)
        if a.per_batch:
            liveloss.update({"loss": loss.item()}, current_step=step)
            if step % a.every == 0:
                send()
    model.eval()
    with torch.no_grad():
        vo = model(Xva)
        vl = float(lossf(vo, yva))
        acc = float((vo.argmax(1) == yva).float().mean())
    if not a.per_batch:
        liveloss.update({"loss": tot / n, "val_loss": vl, "val_accuracy": acc})
        if (epoch + 1) % a.every == 0:
            send()
    else:
        liveloss.update({"val_loss": vl, "val_accuracy": acc}, current_step=step)
if not sent_at or sent_at[-1] != len(liveloss.logger.log_history["loss"]):
    send()
hist = liveloss.logger.log_history
# the points the log shows: the loss's 'cur' at each send()
pts = [(hist["loss"][k - 1].step, hist["loss"][k - 1].value) for k in sorted(set(sent_at)) if k]
common = dict(framework="livelossplot", settings=vars(a), label=a.label, should_stop=a.should_stop,
              loss_name="loss", tolerance={"rel": 1e-6, "abs": 5.1e-4})
sent = "every send() prints the extrema of all updates so far; the log shows the 'cur' of each send"
write_truth(**common, step_unit=("global batch step (update's current_step)" if a.per_batch else
                                 "update count, 1-based (PlotLosses' own step)"),
            record=f"PlotLosses.logger.log_history['loss'] ({sent})",
            train_loss=pts, val_loss=[(it.step, it.value) for it in hist["val_loss"]])
if a.tensorboard:
    ev = glob.glob("tb/events.out.tfevents.*")[0]
    keep(ev, "events.out.tfevents.livelossplot")
