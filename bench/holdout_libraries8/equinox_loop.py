"""equinox: an ``eqx.nn.MLP`` trained with optax the way equinox's own tutorials write the loop (the "Train a CNN"
example): a ``make_step`` under ``eqx.filter_jit`` with ``eqx.filter_value_and_grad``, an infinite loader, and every
``print_every`` steps (and the last) ``print(f"{step=}, train_loss={train_loss.item()}, ...")`` with the test loss
and accuracy when there is a test set. Steps are 0-based. Truth: the loss values ``make_step`` returned (the loop's
own record, kept in a list as the loop runs), at the printed steps; printed with ``.item()`` (Python's repr of the
float32 value, full precision)."""

from __future__ import annotations

import argparse

import numpy as np
from h8_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "adamw", "sgd", "momentum"])
ap.add_argument("--lr", type=float, default=3e-3)
ap.add_argument("--growth", type=float, default=0.0, help="multiply the rate by this every 50 steps")
ap.add_argument("--steps", type=int, default=300)
ap.add_argument("--print-every", type=int, default=30)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=1024)
ap.add_argument("--test", action="store_true", help="evaluate on a test set at each print")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n + 256, 8)).astype(np.float32)
W = rng.normal(size=(8, 3)).astype(np.float32)
if a.task == "cls":
    Y = (np.tanh(X @ W) + 0.3 * rng.normal(size=(len(X), 3))).argmax(1).astype(np.int32)
    out = 3
else:
    Y = (np.sin(X @ W[:, :1]) * 2 + X[:, 1:2] ** 2 + 0.2 * rng.normal(size=(len(X), 1))).astype(np.float32)
    out = 1
Xtr, Ytr, Xte, Yte = X[: a.n], Y[: a.n], X[a.n:], Y[a.n:]

key = jax.random.PRNGKey(0)
model = eqx.nn.MLP(in_size=8, out_size=out, width_size=32, depth=2, key=key)


def loss(model, x, y):
    pred = jax.vmap(model)(x)
    if a.task == "cls":
        return optax.softmax_cross_entropy_with_integer_labels(pred, y).mean()
    return jnp.mean((pred - y) ** 2)


@eqx.filter_jit
def compute_accuracy(model, x, y):
    pred = jax.vmap(model)(x)
    if a.task == "cls":
        return jnp.mean(jnp.argmax(pred, axis=1) == y)
    return jnp.mean(jnp.abs(pred - y) < 0.5)


def evaluate(model):
    return eqx.filter_jit(loss)(model, Xte, Yte), compute_accuracy(model, Xte, Yte)


def infinite_trainloader():
    r = np.random.default_rng(1)
    while True:
        perm = r.permutation(a.n)
        for i in range(0, a.n - a.batch + 1, a.batch):
            idx = perm[i: i + a.batch]
            yield Xtr[idx], Ytr[idx]


lr = optax.exponential_decay(a.lr, transition_steps=50, decay_rate=a.growth, staircase=True) if a.growth else a.lr
if a.optimizer == "adam":
    optim = optax.adam(lr)
elif a.optimizer == "adamw":
    optim = optax.adamw(lr, weight_decay=1e-4)
elif a.optimizer == "momentum":
    optim = optax.sgd(lr, momentum=0.9)
else:
    optim = optax.sgd(lr)

opt_state = optim.init(eqx.filter(model, eqx.is_array))


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    loss_value, grads = eqx.filter_value_and_grad(loss)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss_value


losses, test_losses = [], []
for step, (x, y) in zip(range(a.steps), infinite_trainloader(), strict=False):
    model, opt_state, train_loss = make_step(model, opt_state, x, y)
    losses.append(train_loss.item())
    if (step % a.print_every) == 0 or (step == a.steps - 1):
        if a.test:
            test_loss, test_accuracy = evaluate(model)
            test_losses.append((step, test_loss.item()))
            print(f"{step=}, train_loss={train_loss.item()}, test_loss={test_loss.item()}, "
                  f"test_accuracy={test_accuracy.item()}")
        else:
            print(f"{step=}, train_loss={train_loss.item()}")

printed = [s for s in range(a.steps) if s % a.print_every == 0 or s == a.steps - 1]
write_truth(framework=f"equinox {version('equinox')}", settings=vars(a), loss_name="train_loss",
            step_unit="step, 0-based (`step=N`)", tolerance=tol_sig(7),
            record="the loss values `make_step` returned (kept in a list by the loop), at the printed steps",
            train_loss=[(s, losses[s]) for s in printed],
            eval_loss=test_losses if a.test else None, eval_name="test_loss" if a.test else None)
