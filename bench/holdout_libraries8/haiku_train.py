"""dm-haiku: an ``hk.nets.MLP`` under ``hk.transform`` trained with optax, written the way haiku's examples are
(``absl.app.run(main)``, a jitted ``update`` returning the new params, optimiser state and metrics, and every
``log_every`` steps ``logging.info({"step": step, "loss": float(loss), ...})`` with absl's logging, which ``app.run``
sends to stderr at INFO: ``I1206 03:30:12.345678 140... haiku_train.py:97] {'step': 100, 'loss': 0.53...}``; an
evaluation line ``{'step': 100, 'split': 'test', 'loss': ..., 'accuracy': ...}`` when there is a test set). Steps are
0-based. Truth: the metrics ``update`` returned (kept in a list as the loop runs), at the logged steps; printed as
Python's repr of the float (full precision)."""

from __future__ import annotations

import argparse
import sys

import numpy as np
from h8_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "rmsprop", "sgd", "momentum"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--growth", type=float, default=0.0, help="multiply the rate by this every 40 steps")
ap.add_argument("--steps", type=int, default=400)
ap.add_argument("--log-every", type=int, default=50)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--n", type=int, default=1024)
ap.add_argument("--test", action="store_true", help="log the test loss and accuracy at each log step")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import haiku as hk  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402
from absl import app, logging  # noqa: E402

rng = np.random.default_rng(2)
X = rng.normal(size=(a.n + 256, 10)).astype(np.float32)
W = rng.normal(size=(10, 4)).astype(np.float32)
if a.task == "cls":
    Y = (X @ W + 0.5 * rng.normal(size=(len(X), 4))).argmax(1).astype(np.int32)
    OUT = 4
else:
    Y = (np.cos(X @ W[:, :1]) + 0.5 * X[:, :1] * X[:, 2:3] + 0.1 * rng.normal(size=(len(X), 1))).astype(np.float32)
    OUT = 1


def net_fn(x):
    return hk.nets.MLP([64, 64, OUT])(x)


def batches():
    r = np.random.default_rng(3)
    while True:
        perm = r.permutation(a.n)
        for i in range(0, a.n - a.batch + 1, a.batch):
            idx = perm[i: i + a.batch]
            yield X[idx], Y[idx]


def main(_):
    net = hk.without_apply_rng(hk.transform(net_fn))

    def loss_fn(params, x, y):
        out = net.apply(params, x)
        if a.task == "cls":
            return optax.softmax_cross_entropy_with_integer_labels(out, y).mean()
        return jnp.mean((out - y) ** 2)

    lr = optax.exponential_decay(a.lr, transition_steps=40, decay_rate=a.growth, staircase=True) if a.growth else a.lr
    opt = {"adam": optax.adam, "rmsprop": optax.rmsprop, "sgd": optax.sgd}.get(a.optimizer, None)
    optimiser = opt(lr) if opt else optax.sgd(lr, momentum=0.9)

    @jax.jit
    def update(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimiser.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": loss}

    @jax.jit
    def evaluate(params):
        out = net.apply(params, X[a.n:])
        acc = jnp.mean(out.argmax(1) == Y[a.n:]) if a.task == "cls" else jnp.mean(jnp.abs(out - Y[a.n:]) < 0.3)
        return loss_fn(params, X[a.n:], Y[a.n:]), acc

    params = net.init(jax.random.PRNGKey(42), X[:1])
    opt_state = optimiser.init(params)
    logging.info("Initialised %d parameters.", sum(p.size for p in jax.tree_util.tree_leaves(params)))
    record, evals = [], []
    for step, (x, y) in zip(range(a.steps), batches(), strict=False):
        params, opt_state, metrics = update(params, opt_state, x, y)
        record.append(float(metrics["loss"]))
        if step % a.log_every == 0:
            logging.info({"step": step, "loss": float(metrics["loss"])})
            if a.test:
                test_loss, acc = evaluate(params)
                evals.append((step, float(test_loss)))
                logging.info({"step": step, "split": "test", "loss": float(test_loss), "accuracy": float(acc)})
    write_truth(framework=f"dm-haiku {version('dm-haiku')}", settings=vars(a), loss_name="loss",
                step_unit="step, 0-based (`'step': N`)", tolerance=tol_sig(7),
                record="the metrics `update` returned (kept in a list by the loop), at the logged steps",
                train_loss=[(s, record[s]) for s in range(0, a.steps, a.log_every)],
                eval_loss=evals if a.test else None, eval_name="test loss" if a.test else None)


if __name__ == "__main__":
    app.run(main, argv=sys.argv[:1])
