"""aim: a small numpy training loop (a one-hidden-layer MLP, regression or 3-class classification, hand-written
SGD / momentum / Adam) logged the way aim's quick start shows: ``run = aim.Run()`` then
``run.track(loss, name="loss", step=..., epoch=..., context={"subset": "train"})`` every step, and the loop's own
``print`` every ``--print-every`` steps (``epoch 1 step 20 loss 0.8123``, 4 decimals) and at each epoch's end with the
validation loss (``--val``). The aim store (``.aim``, RocksDB files) stays in the working directory and is not kept.
Truth: aim's own record, the run's ``loss`` metric in context ``{"subset": "train"}`` read back from the run
(``Metric.data.items_list()``), at the steps the loop prints; step = the global step, 1-based, across epochs."""

from __future__ import annotations

import argparse

import numpy as np
from h49_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "momentum", "adam"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--gamma", type=float, default=1.0, help="multiply the learning rate by this every epoch")
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=640)
ap.add_argument("--print-every", type=int, default=10)
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import aim  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 6))
w_true = rng.normal(size=(6, 3))
if a.task == "reg":
    y = np.tanh(X @ w_true[:, 0]) * 2 + X[:, 1] * 0.5 + rng.normal(scale=0.2, size=a.n)
    out_dim = 1
else:
    y = (X @ w_true + rng.normal(scale=0.5, size=(a.n, 3))).argmax(1)
    out_dim = 3
n_val = a.n // 5 if a.val else 0
Xv, yv, Xt, yt = X[:n_val], y[:n_val], X[n_val:], y[n_val:]

params = {"W1": rng.normal(scale=0.4, size=(6, 32)), "b1": np.zeros(32),
          "W2": rng.normal(scale=0.2, size=(32, out_dim)), "b2": np.zeros(out_dim)}
state = {k: [np.zeros_like(v), np.zeros_like(v)] for k, v in params.items()}


def forward(xb, yb):
    h = np.tanh(xb @ params["W1"] + params["b1"])
    o = h @ params["W2"] + params["b2"]
    if a.task == "reg":
        d = o[:, 0] - yb
        loss = float(np.mean(d ** 2))
        go = (2 * d / len(yb))[:, None]
    else:
        z = o - o.max(1, keepdims=True)
        p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
        loss = float(-np.mean(np.log(p[np.arange(len(yb)), yb] + 1e-12)))
        go = p.copy()
        go[np.arange(len(yb)), yb] -= 1
        go /= len(yb)
    gW2 = h.T @ go
    gh = go @ params["W2"].T * (1 - h ** 2)
    grads = {"W1": xb.T @ gh, "b1": gh.sum(0), "W2": gW2, "b2": go.sum(0)}
    return loss, grads


run = aim.Run(experiment="numpy-mlp")
run["hparams"] = {k: v for k, v in vars(a).items() if k not in ("label", "should_stop")}
lr = a.lr
step = 0
t = 0
printed = []
for epoch in range(1, a.epochs + 1):
    order = rng.permutation(len(Xt))
    for i in range(0, len(Xt), a.batch):
        idx = order[i:i + a.batch]
        loss, grads = forward(Xt[idx], yt[idx])
        step += 1
        t += 1
        for k, g in grads.items():
            if a.optimizer == "sgd":
                params[k] -= lr * g
            elif a.optimizer == "momentum":
                state[k][0] = 0.9 * state[k][0] + g
                params[k] -= lr * state[k][0]
            else:
                state[k][0] = 0.9 * state[k][0] + 0.1 * g
                state[k][1] = 0.999 * state[k][1] + 0.001 * g * g
                mh = state[k][0] / (1 - 0.9 ** t)
                vh = state[k][1] / (1 - 0.999 ** t)
                params[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        run.track(loss, name="loss", step=step, epoch=epoch, context={"subset": "train"})
        run.track(lr, name="lr", step=step, epoch=epoch)
        if step % a.print_every == 0:
            print(f"epoch {epoch} step {step} loss {loss:.4f}")
            printed.append(step)
    if a.val:
        vloss, _ = forward(Xv, yv)
        run.track(vloss, name="loss", step=step, epoch=epoch, context={"subset": "val"})
        print(f"epoch {epoch} done: val loss {vloss:.4f} lr {lr:g}")
    lr *= a.gamma

train = val = None
for m in run.metrics():
    steps, (vals, _epochs, _ts) = m.data.items_list()
    if m.name == "loss" and m.context.to_dict() == {"subset": "train"}:
        train = dict(zip(steps, vals, strict=True))
    if m.name == "loss" and m.context.to_dict() == {"subset": "val"}:
        val = list(zip(steps, vals, strict=True))
run.close()
if train is None:
    raise SystemExit("aim's store holds no train loss for this run")

write_truth(framework=f"aim {version('aim')}", settings=vars(a), loss_name="loss",
            step_unit="step, 1-based, across epochs",
            tolerance=tol_decimals(4), record="aim's own record: the run's `loss` metric, context {'subset': 'train'}",
            train_loss=[(s, train[s]) for s in printed], eval_loss=val, eval_name="loss (subset val)" if val else None)
