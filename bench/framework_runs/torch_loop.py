"""A plain PyTorch training loop that logs the way users write it (print, logging, tqdm), on synthetic data.

Truth: the values the script logged, as it logged them (kept in memory at full precision), steps = global
optimizer step (1-based; for per-epoch counters ``[n/N]`` that is (epoch - 1) × N + n).
Settings: style (hydra / pipe / basic_logging / tutorial / tqdm_write / jsonl / kv), loss_name, epochs,
log_every, learning_rate, optimizer (sgd/adam), batch_size, header (config lines printed first: none / config /
namespace), precision (digits printed), lr_end (linear ramp), lr_growth (per step), clip (grad-norm clipping),
init_scale (weights scaled at start).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys

from _common import parse_args, seed_all, write_truth

out, st, work = parse_args()
seed_all(st.get("seed", 0))

import torch  # noqa: E402
from torch import nn  # noqa: E402

style = st.get("style", "pipe")
name = st.get("loss_name", "loss")
prec = st.get("precision", 4)
epochs, every = st.get("epochs", 3), st.get("log_every", 10)
lr, bs = st.get("learning_rate", 0.05), st.get("batch_size", 32)

g = torch.Generator().manual_seed(0)
centers = torch.randn(10, 32, generator=g) * st.get("separation", 0.35)
labels = torch.randint(0, 10, (st.get("n_train", 6400),), generator=g)
x = centers[labels] + torch.randn(len(labels), 32, generator=g)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, labels), batch_size=bs, shuffle=True,
                                     generator=g)
model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 10))
if st.get("init_scale"):
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(st["init_scale"])
opt = (torch.optim.Adam(model.parameters(), lr=lr) if st.get("optimizer", "sgd") == "adam"
       else torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9))
n_per_epoch = len(loader)
total = epochs * n_per_epoch

header = st.get("header", "none")
if header == "config":
    print(f"config: mode={st.get('mode', 'train')} steps={total} batch={bs} lr={lr} seed={st.get('seed', 0)}")
elif header == "namespace":
    print(argparse.Namespace(batch_size=bs, dropout=0.1, epochs=epochs, log_every=every, lr=lr, max_steps=total,
                             seed=st.get("seed", 0), warmup_steps=100))

log = logging.getLogger(st.get("logger_name", "train"))
if style == "hydra":
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format="[%(asctime)s][%(name)s][%(levelname)s] - %(message)s")
elif style == "basic_logging":
    logging.basicConfig(level=logging.INFO)  # stderr, 'INFO:name:message'
bar = None
if style == "tqdm_write":
    from tqdm import tqdm

    bar = tqdm(total=total, desc="train")
if style == "hydra":
    log.info(f"Instantiating model {model.__class__.__name__} with {sum(p.numel() for p in model.parameters())} "
             "params")

truth: list[tuple[int, float]] = []
step = 0
for epoch in range(1, epochs + 1):
    for n, (xb, yb) in enumerate(loader, start=1):
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        gn = float(nn.utils.clip_grad_norm_(model.parameters(), st.get("clip", 1e9)))
        if "lr_end" in st:  # a linear ramp from learning_rate to lr_end over the run (a warmup to too high a rate)
            for group in opt.param_groups:
                group["lr"] = lr + (st["lr_end"] - lr) * step / total
        if "lr_growth" in st:  # the rate multiplied by lr_growth every step (a schedule gone wrong)
            for group in opt.param_groups:
                group["lr"] = lr * st["lr_growth"] ** step
        opt.step()
        step += 1
        if bar is not None:
            bar.update(1)
        if step % every:
            continue
        v = loss.item()
        cur_lr = opt.param_groups[0]["lr"]
        truth.append((step, v))
        f = f"{v:.{prec}f}"
        if style == "hydra":
            log.info(f"Epoch {epoch} [{n:5d}/{n_per_epoch:5d}] {name}={f} lr={cur_lr:.2e} grad_norm={gn:.3f}")
        elif style == "pipe":
            print(f"step {step:5d} | {name} {f} | lr {cur_lr:.3e} | norm {gn:.4f}", flush=st.get("flush", False))
        elif style == "basic_logging":
            log.info(f"step={step} {name}={f} lr={cur_lr:g}")
        elif style == "tutorial":
            print(f"Epoch [{epoch}/{epochs}], Step [{n}/{n_per_epoch}], {name.capitalize()}: {f}")
        elif style == "tqdm_write":
            bar.set_postfix({name: f})  # type: ignore[union-attr]
            bar.write(f"step {step}: {name} = {f}")  # type: ignore[union-attr]
        elif style == "jsonl":
            print(json.dumps({"step": step, "epoch": epoch, name: round(v, prec) if math.isfinite(v) else str(v),
                              "lr": cur_lr}))
        elif style == "kv":
            print(f"epoch={epoch} iter={step} {name}={f} grad_norm={gn:.3f}")
        else:
            raise SystemExit(f"unknown style {style!r}")
    if style == "hydra":
        log.info(f"Epoch {epoch} done")
    elif style == "tutorial":
        print(f"Epoch [{epoch}/{epochs}] finished")
if bar is not None:
    bar.close()
print("Training finished.")
tol = {"rel": 1e-3, "abs": 0.5 * 10.0 ** -prec}
write_truth(out, framework="torch (plain loop)", settings=st, train_loss=truth, loss_name=name,
            step_unit="global optimizer step (1-based)", tolerance=tol, record="the values the script logged",
            steps_per_epoch=n_per_epoch)
