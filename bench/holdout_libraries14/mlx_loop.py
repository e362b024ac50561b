"""MLX (its CPU build, ``mlx[cpu]``): a small ``mlx.nn`` model trained in the loop its examples write
(mlx-examples' ``transformer_lm/main.py``): ``loss_and_grad_fn = nn.value_and_grad(model, loss_fn)``,
``optimizer.update(model, grads)``, ``mx.eval(model.parameters(), optimizer.state)``, the losses gathered and every
``--steps-per-report`` iterations ``print(f"Iter {it + 1}: Train loss {train_loss:.3f}, It/sec {...:.3f}")``, every
``--steps-per-eval`` iterations ``Iter N: Val loss ..., Val ppl ..., Val took ...s, `` (the example's own line), a
``Test loss`` at the end. Models: an MLP classifier on synthetic clusters, or a tiny causal transformer language
model (``nn.TransformerEncoder``) on a synthetic token stream; optimizers ``mlx.optimizers`` SGD / Adam / AdamW, with
an ``exponential_decay`` schedule (a rate that grows when its rate is > 1). Truth: the loop's own record, the mean of
the loss values ``loss_and_grad_fn`` returned over each report interval (``np.mean(losses)``, as printed), at
``it + 1``."""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from h14_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="mlp", choices=["mlp", "lm"])
ap.add_argument("--iters", type=int, default=200)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "adamw"])
ap.add_argument("--momentum", type=float, default=0.0)
ap.add_argument("--decay", type=float, default=0.0, help="exponential_decay rate per iteration (> 1 grows)")
ap.add_argument("--steps-per-report", type=int, default=10)
ap.add_argument("--steps-per-eval", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import mlx.core as mx  # noqa: E402
import mlx.nn as nn  # noqa: E402
import mlx.optimizers as optim  # noqa: E402

mx.random.seed(0)
rng = np.random.default_rng(0)
VOCAB, CTX = 32, 16

if a.model == "mlp":
    centers = rng.standard_normal((5, 16)) * 2
    def make(n):
        y = rng.integers(0, 5, n)
        return (centers[y] + rng.standard_normal((n, 16)) * 1.5).astype(np.float32), y.astype(np.int32)
    train, valid, test = make(2000), make(400), make(400)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = [nn.Linear(16, 64), nn.Linear(64, 64), nn.Linear(64, 5)]

        def __call__(self, x):
            for layer in self.layers[:-1]:
                x = nn.relu(layer(x))
            return self.layers[-1](x)
else:
    # a token stream from a fixed random bigram table: predictable in part
    table = rng.dirichlet(np.full(VOCAB, 0.2), VOCAB)
    def make(n):
        s = [0]
        for _ in range(n - 1):
            s.append(rng.choice(VOCAB, p=table[s[-1]]))
        return np.array(s, dtype=np.int32)
    train, valid, test = make(20000), make(2000), make(2000)

    class Model(nn.Module):  # type: ignore[no-redef]  # the language model, in its own branch
        def __init__(self, dims=32, heads=4, layers=2):
            super().__init__()
            self.embedding = nn.Embedding(VOCAB, dims)
            self.pe = nn.SinusoidalPositionalEncoding(dims)
            self.transformer = nn.TransformerEncoder(layers, dims, heads, norm_first=True, checkpoint=False)
            self.out_proj = nn.Linear(dims, VOCAB)

        def __call__(self, x):
            L = x.shape[1]
            mask = nn.MultiHeadAttention.create_additive_causal_mask(L)
            x = self.embedding(x)
            x = x + self.pe(mx.arange(L))
            x = self.transformer(x, mask)
            return self.out_proj(x)


def batches(data):
    """As the examples iterate: random windows (the LM) or shuffled minibatches, over and over."""
    while True:
        if a.model == "lm":
            idx = rng.integers(0, len(data) - CTX - 1, a.batch)
            x = np.stack([data[i:i + CTX] for i in idx])
            y = np.stack([data[i + 1:i + CTX + 1] for i in idx])
            yield mx.array(x), mx.array(y)
        else:
            perm = rng.permutation(len(data[1]))
            for s in range(0, len(perm) - a.batch + 1, a.batch):
                ids = perm[s:s + a.batch]
                yield mx.array(data[0][ids]), mx.array(data[1][ids])


def loss_fn(model, x, y, reduce=True):
    logits = model(x)
    losses = nn.losses.cross_entropy(logits, y)
    return mx.mean(losses) if reduce else mx.mean(losses, axis=-1 if a.model == "lm" else None)


def eval_fn(data):
    if a.model == "lm":
        n = (len(data) - 1) // CTX
        x = mx.array(data[: n * CTX].reshape(n, CTX))
        y = mx.array(data[1: n * CTX + 1].reshape(n, CTX))
    else:
        x, y = mx.array(data[0]), mx.array(data[1])
    return loss_fn(model, x, y).item()


model = Model()
mx.eval(model.parameters())
nparams = sum(v.size for _, v in __import__("mlx.utils", fromlist=["tree_flatten"]).tree_flatten(
    model.trainable_parameters()))
print(f"Training a {a.model} with {nparams / 1024**2:.3f} M parameters")

lr = optim.exponential_decay(a.lr, a.decay) if a.decay else a.lr
if a.optimizer == "adam":
    optimizer = optim.Adam(learning_rate=lr)
elif a.optimizer == "adamw":
    optimizer = optim.AdamW(learning_rate=lr, weight_decay=0.01)
else:
    optimizer = optim.SGD(learning_rate=lr, momentum=a.momentum)
loss_and_grad_fn = nn.value_and_grad(model, loss_fn)

record = []
evals = []
losses = []
tic = time.perf_counter()
for it, (inputs, targets) in zip(range(a.iters), batches(train), strict=False):
    loss, grads = loss_and_grad_fn(model, inputs, targets)
    optimizer.update(model, grads)
    mx.eval(model.parameters(), optimizer.state)
    losses.append(loss.item())
    if (it + 1) % a.steps_per_report == 0:
        train_loss = np.mean(losses)
        toc = time.perf_counter()
        print(f"Iter {it + 1}: Train loss {train_loss:.3f}, It/sec {a.steps_per_report / (toc - tic):.3f}")
        record.append((it + 1, float(train_loss)))
        losses = []
        tic = time.perf_counter()
    if a.steps_per_eval and (it + 1) % a.steps_per_eval == 0:
        val_loss = eval_fn(valid)
        toc = time.perf_counter()
        ppl = math.exp(val_loss) if val_loss < 700 else float("inf")
        print(f"Iter {it + 1}: Val loss {val_loss:.3f}, Val ppl {ppl:.3f}, Val took {(toc - tic):.3f}s, ")
        evals.append((it + 1, val_loss))
        tic = time.perf_counter()

test_loss = eval_fn(test)
test_ppl = math.exp(test_loss) if test_loss < 700 else float("inf")
print(f"Test loss {test_loss:.3f}, Test ppl {test_ppl:.3f}.")

write_truth(framework=f"mlx {mx.__version__}", settings=vars(a), loss_name="Train loss",
            step_unit="iteration, 1-based (`Iter N`)", tolerance=tol_decimals(3),
            record="the loop's own record: np.mean of the losses loss_and_grad_fn returned over each report interval",
            train_loss=record, eval_loss=evals if a.steps_per_eval else None,
            eval_name="Val loss" if a.steps_per_eval else None)
