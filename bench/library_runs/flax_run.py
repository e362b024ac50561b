"""A user's JAX training loop: a Flax (linen) MLP and optax, logging as the Flax examples do:

- ``epoch``: the Flax MNIST example's absl ``logging.info('epoch:% 3d, train_loss: %.4f, train_accuracy: %.2f,
  test_loss: %.4f, test_accuracy: %.2f', ...)`` (stderr, absl's ``I1205 12:00:00.000000 pid file.py:N]`` prefix);
- ``step``: the Flax NNX tutorial's ``print(f"[train] step: {step}, loss: {loss}, accuracy: {acc}")`` every
  ``--every`` steps (the mean of the steps since the previous print, full float repr; step 0-based).

Truth: the values the loop logged (kept at full precision), at the printed epoch (1-based) or step.
"""

from __future__ import annotations

import argparse

from _truth import common_args, settings_of, write_truth

p = argparse.ArgumentParser()
p.add_argument("--style", default="epoch")
p.add_argument("--epochs", type=int, default=8)
p.add_argument("--every", type=int, default=20)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--opt", default="sgd")
p.add_argument("--batch", type=int, default=32)
p.add_argument("--absl-handler", action="store_true", help="absl's own log format (as under app.run)")
common_args(p)
args = p.parse_args()

import flax.linen as nn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from absl import logging  # noqa: E402

logging.set_verbosity(logging.INFO)
if args.absl_handler:
    logging.use_absl_handler()
rng = np.random.default_rng(args.seed)
X = rng.normal(size=(1536, 20)).astype(np.float32)
W = rng.normal(size=(20, 4)).astype(np.float32)
Y = np.argmax(X @ W + 0.8 * rng.normal(size=(1536, 4)), axis=1)
Xtr, Ytr, Xte, Yte = X[:1280], Y[:1280], X[1280:], Y[1280:]


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(nn.relu(nn.Dense(64)(x)))


model = MLP()
params = model.init(jax.random.PRNGKey(args.seed), jnp.ones((1, 20)))
tx = optax.adam(args.lr) if args.opt == "adam" else optax.sgd(args.lr, momentum=0.9)
opt_state = tx.init(params)


def loss_fn(params, x, y):
    logits = model.apply(params, x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits


@jax.jit
def train_step(params, opt_state, x, y):
    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss, jnp.mean(jnp.argmax(logits, -1) == y)


record: list = []
step = 0
window: list = []
n_batches = len(Xtr) // args.batch
total_steps = args.epochs * n_batches
for epoch in range(1, args.epochs + 1):
    perm = rng.permutation(len(Xtr))
    losses, accs = [], []
    for b in range(n_batches):
        idx = perm[b * args.batch:(b + 1) * args.batch]
        params, opt_state, loss, acc = train_step(params, opt_state, Xtr[idx], Ytr[idx])
        losses.append(float(loss))
        accs.append(float(acc))
        window.append((float(loss), float(acc)))
        if args.style == "step" and ((step > 0 and step % args.every == 0) or step == total_steps - 1):
            lv = float(np.mean([w[0] for w in window]))
            av = float(np.mean([w[1] for w in window]))
            print(f"[train] step: {step}, loss: {lv}, accuracy: {av * 100}")
            record.append((step, lv))
            window = []
        step += 1
    if args.style == "epoch":
        tl, tlog = loss_fn(params, Xte, Yte)
        tacc = float(jnp.mean(jnp.argmax(tlog, -1) == Yte))
        train_loss, train_acc = float(np.mean(losses)), float(np.mean(accs))
        logging.info("epoch:% 3d, train_loss: %.4f, train_accuracy: %.2f, test_loss: %.4f, test_accuracy: %.2f",
                     epoch, train_loss, train_acc * 100, float(tl), tacc * 100)
        record.append((epoch, train_loss))
write_truth(framework="jax/flax+optax", settings=settings_of(args), label=args.label, should_stop=args.should_stop,
            loss_name="train_loss" if args.style == "epoch" else "loss",
            step_unit="epoch (1-based, as 'epoch:' prints it)" if args.style == "epoch" else
            "optimizer step (0-based, as 'step:' prints it)",
            tolerance={"rel": 1e-3, "abs": 5e-5}, record="the values the loop logged, at full precision",
            train_loss=record, steps_per_epoch=n_batches if args.style == "epoch" else None)
