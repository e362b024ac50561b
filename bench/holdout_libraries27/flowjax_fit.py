"""flowjax: a normalizing flow (``masked_autoregressive_flow``, ``coupling_flow`` or
``block_neural_autoregressive_flow`` over a standard normal) fitted as its docs show, either to samples with
``fit_to_data`` (maximum likelihood, a validation split, early stopping on its patience) or to an unnormalised target
density with ``fit_to_key_based_loss`` (``ElboLoss``, no validation). Its tqdm bar goes to stderr; with no terminal
each redraw a ``\\r``: `` 80%|████████  | 16/20 [00:04<00:00,  7.42it/s, train=2.14, val=2.05]`` (``loss=1.82``
for ``fit_to_key_based_loss``; the postfix by tqdm's ``format_num``: 3 significant digits). ``set_postfix`` redraws
the bar once after each epoch (step), but the count it shows lags: tqdm syncs it only on its own 0.1 s redraws.
Truth: the returned losses (``losses["train"]`` / ``losses["val"]``, one mean an epoch; or the list, one loss a
step), at the epoch (step), 1-based."""

from __future__ import annotations

import argparse
import os

from h27_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="data", choices=["data", "elbo"])
ap.add_argument("--flow", default="maf", choices=["maf", "coupling", "bnaf"])
ap.add_argument("--lr", type=float, default=5e-4)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop"])
ap.add_argument("--epochs", type=int, default=50, help="max_epochs (data) or steps (elbo)")
ap.add_argument("--patience", type=int, default=5)
ap.add_argument("--batch", type=int, default=100)
ap.add_argument("--val-prop", type=float, default=0.1)
ap.add_argument("--n", type=int, default=2000)
ap.add_argument("--scale", type=float, default=1.0, help="multiplies the data (unstandardised data when large)")
ap.add_argument("--lr-growth", type=float, default=1.0, help="exponential lr growth per optimizer step")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import flowjax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax.random as jr  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from flowjax.distributions import Normal, StandardNormal  # noqa: E402
from flowjax.flows import block_neural_autoregressive_flow, coupling_flow, masked_autoregressive_flow  # noqa: E402
from flowjax.train import fit_to_data, fit_to_key_based_loss  # noqa: E402
from flowjax.train.losses import ElboLoss  # noqa: E402

key = jr.key(0)
key, fkey, tkey = jr.split(key, 3)
dim = 2
base = StandardNormal((dim,))
if a.flow == "maf":
    flow = masked_autoregressive_flow(fkey, base_dist=base, nn_width=16, nn_depth=1, flow_layers=3)
elif a.flow == "coupling":
    flow = coupling_flow(fkey, base_dist=base, nn_width=16, nn_depth=1, flow_layers=3)
else:
    flow = block_neural_autoregressive_flow(fkey, base_dist=base, nn_block_dim=4, flow_layers=1)

lr = optax.exponential_decay(a.lr, 1, a.lr_growth) if a.lr_growth != 1.0 else a.lr
opt = {"adam": optax.adam, "sgd": optax.sgd, "rmsprop": optax.rmsprop}[a.optimizer](lr)

if a.mode == "data":
    rng = np.random.default_rng(0)
    # two moons-ish: a curved banana with noise
    x1 = rng.normal(size=a.n)
    x2 = 0.5 * x1 ** 2 + rng.normal(scale=0.4, size=a.n) - 1.0
    x = jnp.asarray(np.stack([x1, x2], 1) * a.scale)
    flow, losses = fit_to_data(tkey, flow, x, optimizer=opt, max_epochs=a.epochs, max_patience=a.patience,
                               batch_size=a.batch, val_prop=a.val_prop)
    train, val = losses["train"], losses["val"]
    write_truth(framework=f"flowjax {flowjax.__version__}", settings=vars(a), loss_name="train",
                step_unit="epoch, 1-based (one postfix redraw an epoch; the bar's count lags)",
                tolerance=tol_sig(3), record="the `losses` dict `fit_to_data` returns (`train`, `val`: one mean an "
                "epoch)", train_loss=[(i + 1, v) for i, v in enumerate(train)],
                eval_loss=[(i + 1, v) for i, v in enumerate(val)], eval_name="val")
else:
    target = Normal(jnp.array([1.0, -2.0]) * a.scale, jnp.array([0.5, 2.0]) * a.scale)
    loss_fn = ElboLoss(target.log_prob, num_samples=32)
    flow, losses = fit_to_key_based_loss(tkey, flow, loss_fn=loss_fn, steps=a.epochs, optimizer=opt)
    write_truth(framework=f"flowjax {flowjax.__version__}", settings=vars(a), loss_name="loss",
                step_unit="step, 1-based (one postfix redraw a step; the bar's count lags)",
                tolerance=tol_sig(3), record="the `losses` list `fit_to_key_based_loss` returns (one loss a step)",
                train_loss=[(i + 1, v) for i, v in enumerate(losses)])
