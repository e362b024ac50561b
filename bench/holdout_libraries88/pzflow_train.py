"""pzflow: a normalizing flow (its default bijector, ``ShiftBounds`` then ``RollingSplineCoupling``) trained by its
own ``Flow.train(..., verbose=True)`` on its bundled example data, as its tutorials do: the two moons (``x``, ``y``)
or the galaxy catalogue (a conditional flow of ``redshift`` given the ``u g r i z y`` magnitudes), a few thousand
rows. With ``verbose`` it prints ``Training 12 epochs`` and ``Loss:``, then ``(0) 2.3456`` (the loss before training)
and ``(3) 1.2345`` after each epoch (every epoch below 40 epochs; 4 decimals), the validation loss beside it when
there is a validation set (``(3) 1.2345  1.3456``), ``Early stopping criterion is met.`` with ``patience``, and
``Training stopping after epoch 7 because training loss diverged.`` on a NaN. Optional tqdm bar (``progress_bar``).
Truth: the list of training losses ``train`` returns (index 0 the loss before training, then one an epoch)."""

from __future__ import annotations

import argparse

from h88_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--data", default="moons", choices=["moons", "galaxy"])
ap.add_argument("--n", type=int, default=3000)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adamw"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--lr-growth", type=float, default=1.0, help="multiply the rate by this every epoch")
ap.add_argument("--epochs", type=int, default=12)
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--val", action="store_true", help="pass a validation set")
ap.add_argument("--patience", type=int, default=None)
ap.add_argument("--progress-bar", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import optax  # noqa: E402
import pzflow  # noqa: E402
from pzflow import Flow  # noqa: E402
from pzflow.examples import get_galaxy_data, get_twomoons_data  # noqa: E402

if a.data == "moons":
    data = get_twomoons_data().sample(n=a.n + a.n // 4, random_state=0)
    flow = Flow(["x", "y"])
else:
    data = get_galaxy_data().sample(n=a.n + a.n // 4, random_state=0)
    flow = Flow(["redshift"], conditional_columns=["u", "g", "r", "i", "z", "y"])
train, val = data.iloc[: a.n], data.iloc[a.n:]
steps_per_epoch = -(-a.n // a.batch)
lr = (a.lr if a.lr_growth == 1.0 else
      optax.exponential_decay(a.lr, transition_steps=steps_per_epoch, decay_rate=a.lr_growth, staircase=True))
opt = {"adam": optax.adam, "sgd": optax.sgd, "adamw": optax.adamw}[a.optimizer](lr)
out = flow.train(train, val_set=val if a.val else None, epochs=a.epochs, batch_size=a.batch, optimizer=opt,
                 patience=a.patience, verbose=True, progress_bar=a.progress_bar)
losses, val_losses = (out[0], out[1]) if a.val else (out, None)
write_truth(framework=f"pzflow {pzflow.__version__}", settings=vars(a), loss_name="loss (negative log-likelihood)",
            step_unit="epoch; 0 = before training (`(0) 2.3456`), then `(k)` after epoch k", tolerance=tol_decimals(4),
            record="the list of training losses `Flow.train` returns",
            train_loss=list(enumerate(losses)),
            eval_loss=list(enumerate(val_losses)) if val_losses is not None else None,
            eval_name="validation loss" if val_losses is not None else None)
