"""A user's plain PyTorch loop (or the same loop under Accelerate), printing its loss in a format of its own.

Truth: the values the script logged, kept at full precision, at the global optimizer step (1-based).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from typing import Any

import torch
from holdout_truth import write_truth

p = argparse.ArgumentParser()
p.add_argument("--fmt", default="epoch_step")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--every", type=int, default=5)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--ramp", type=float, default=1.0)
p.add_argument("--opt", default="sgd")
p.add_argument("--loss", default="ce")  # ce | mse (regress the radius)
p.add_argument("--accelerate", action="store_true")
p.add_argument("--ga", type=int, default=1)
p.add_argument("--bs", type=int, default=32)
p.add_argument("--label", default="healthy")
p.add_argument("--should-stop", action="store_true")
args = p.parse_args()

torch.manual_seed(0)
g = torch.Generator().manual_seed(1)
# two interleaved spirals, 3 classes
n = 1200
t = torch.rand(n, generator=g) * 3 + 0.3
c = torch.randint(0, 3, (n,), generator=g)
ang = t * 2.5 + c * (2 * math.pi / 3)
X = torch.stack([t * torch.cos(ang), t * torch.sin(ang)], 1) + 0.08 * torch.randn(n, 2, generator=g)
ds = torch.utils.data.TensorDataset(X, c)
loader = torch.utils.data.DataLoader(ds, batch_size=args.bs, shuffle=True, generator=g)
model = torch.nn.Sequential(torch.nn.Linear(2, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64), torch.nn.ReLU(),
                            torch.nn.Linear(64, 3))


def objective(out, yb, xb):
    if args.loss == "mse":
        return torch.nn.functional.mse_loss(out[:, 0], xb.norm(dim=1) * 4.0)
    return torch.nn.functional.cross_entropy(out, yb)

opt = (torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9) if args.opt == "sgd"
       else torch.optim.Adam(model.parameters(), lr=args.lr))
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: args.ramp ** s)

acc = None
out = print
log = logging.getLogger("train")
if args.accelerate:
    from accelerate import Accelerator
    from accelerate.logging import get_logger

    acc = Accelerator(gradient_accumulation_steps=args.ga, cpu=True)
    model, opt, loader, sched = acc.prepare(model, opt, loader, sched)
    out = acc.print
    log = get_logger(__name__, log_level="INFO")
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
elif args.fmt == "logging":
    logging.basicConfig(format="%(asctime)s - %(name)s - %(levelname)s - %(message)s", level=logging.INFO)

steps_per_epoch = math.ceil(len(loader) / args.ga)
total = steps_per_epoch * args.epochs
pts: list = []
bar: Any = None
if args.fmt == "tqdm_write":
    from tqdm import tqdm
    bar = tqdm(total=total, desc="train", dynamic_ncols=False)
if args.fmt == "tsv":
    print("step\tnll\tgrad_norm\tlr")
if args.fmt == "pipe":
    print(f"model params: {sum(q.numel() for q in model.parameters())} | steps: {total} | bs: {args.bs}")

step = 0
t0 = time.time()
for epoch in range(1, args.epochs + 1):
    in_epoch = 0
    accum, seen = 0.0, 0
    for xb, yb in loader:
        if acc is not None:
            with acc.accumulate(model):
                loss = objective(model(xb), yb, xb)
                acc.backward(loss)
                gn = acc.clip_grad_norm_(model.parameters(), 1e9) if acc.sync_gradients else None
                opt.step()
                sched.step()
                opt.zero_grad()
            accum += loss.item()
            seen += 1
            if not acc.sync_gradients:
                continue
            lval = accum / seen
            accum, seen = 0.0, 0
        else:
            loss = objective(model(xb), yb, xb)
            opt.zero_grad()
            loss.backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)
            opt.step()
            sched.step()
            lval = loss.item()
        step += 1
        in_epoch += 1
        lr = opt.param_groups[0]["lr"]
        gnorm = float("nan") if gn is None else float(gn)
        if bar is not None:
            bar.update(1)
        if step % args.every:
            continue
        pts.append((step, lval))
        f = args.fmt
        if f == "epoch_step":
            print(f"epoch {epoch} step {in_epoch}/{steps_per_epoch} loss={lval:.4f}")
        elif f == "iter":
            print(f"Iter [{step}/{total}] Loss: {lval:.4f} LR: {lr:.0e}")
        elif f == "json":
            print(json.dumps({"step": step, "epoch": epoch, "loss": lval, "lr": lr, "grad_norm": gnorm}))
        elif f == "tsv":
            print(f"{step}\t{lval:.6f}\t{gnorm:.4f}\t{lr:.2e}")
        elif f == "tqdm_write":
            assert bar is not None
            bar.write(f"[{step:05d}] train_loss {lval:.5f}")
        elif f == "logging":
            log.info(f"Step: {step} | Epoch: {epoch} | Loss: {lval:.4f} | Grad: {gnorm:.3f}")
        elif f == "pipe":
            ela = time.time() - t0
            print(f"it {step:6d} | ce_loss {lval:.4f} | ppl {math.exp(min(lval, 50)):.2f} | "
                  f"{step * args.bs / max(ela, 1e-9):.0f} samples/s", flush=True)
        elif f == "cr_inline":  # one status line redrawn in place, a newline at the end of each epoch
            print(f"\rstep {step}/{total}  loss {lval:.4f}  lr {lr:.4f}", end="", flush=True)
        elif f == "acc_print":
            out(f"step {step} | loss {lval:.5f} | lr {lr:.3e}")
        elif f == "acc_logger":
            log.info(f"Epoch {epoch} - global step {step}: nll={lval:.5f} grad_norm={gnorm:.3f}")
    if args.fmt == "cr_inline":
        print(f"\nepoch {epoch}/{args.epochs} finished in {time.time() - t0:.1f}s")
    if args.fmt in ("epoch_step", "logging", "acc_logger"):
        # an end-of-epoch accuracy line, as users print one
        with torch.no_grad():
            a = (model(X).argmax(1) == c).float().mean().item()
        if args.fmt == "epoch_step":
            print(f"==> epoch {epoch} done, train acc {a:.3f}")
        else:
            log.info(f"epoch {epoch} finished: accuracy {a:.4f}")
if bar is not None:
    bar.close()
print("done.", file=sys.stderr)
names = {"tsv": "nll", "pipe": "ce_loss", "tqdm_write": "train_loss", "acc_logger": "nll"}
write_truth(framework="accelerate" if acc is not None else "torch",
            settings={k: v for k, v in vars(args).items() if k != "label"}, label=args.label,
            should_stop=args.should_stop, loss_name=names.get(args.fmt, "loss"),
            step_unit="global optimizer step (1-based)", tolerance={"rel": 1e-3, "abs": 5e-5},
            record="the values the script printed, at full precision", train_loss=pts,
            steps_per_epoch=steps_per_epoch)
