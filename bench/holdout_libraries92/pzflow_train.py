"""pzflow: a small normalizing flow (its default bijector, ShiftBounds -> RollingSplineCoupling, or one chained here
from its bijectors) fitted with ``Flow.train(..., verbose=True)`` on a subsample of the data it ships
(``pzflow.examples``: two moons, the galaxy photometry; no download), as its tutorials do, with optax optimizers
and schedules the user passes. pzflow prints ``Training 30 epochs`` / ``Loss:`` then ``(epoch) loss`` (4 decimals,
and the validation loss beside it when there is a validation set) every 5 % of the epochs, from epoch 0 (the loss
before training), and ``Training stopping after epoch N because training loss diverged.`` when the loss goes
non-finite. Truth: the list of losses ``train`` returns (the negative log-likelihood on the whole training set at
each epoch's end, index 0 before training), at the epochs it printed."""

from __future__ import annotations

import argparse

from h92_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--data", default="twomoons", choices=["twomoons", "galaxy"])
ap.add_argument("--n", type=int, default=2000)
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--batch", type=int, default=512)
ap.add_argument("--optimizer", default="default", choices=["default", "adam", "adamw", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--schedule", default="const", choices=["const", "cosine", "exp"])
ap.add_argument("--decay", type=float, default=1.0, help="exp schedule: the rate's factor every `--every` steps")
ap.add_argument("--every", type=int, default=4)
ap.add_argument("--bijector", default="default", choices=["default", "chain"])
ap.add_argument("--layers", type=int, default=2)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--val", action="store_true")
ap.add_argument("--patience", type=int, default=None)
ap.add_argument("--no-initial", action="store_true", help="initial_loss=False")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import optax  # noqa: E402
import pzflow  # noqa: E402
from pzflow import Flow  # noqa: E402
from pzflow.bijectors import Chain, RollingSplineCoupling, ShiftBounds, StandardScaler  # noqa: E402
from pzflow.examples import get_galaxy_data, get_twomoons_data  # noqa: E402

df = get_twomoons_data() if a.data == "twomoons" else get_galaxy_data()
if a.data == "galaxy":
    df = df[["redshift", "u", "g", "r"]]
df = df.sample(n=a.n + (a.n // 4 if a.val else 0), random_state=0)
train, val = df.iloc[: a.n], (df.iloc[a.n:] if a.val else None)
cols = list(df.columns)

flow: Flow
if a.bijector == "chain":
    mins, maxs = train.min().to_numpy() - 1e-3, train.max().to_numpy() + 1e-3
    means, stds = train.mean().to_numpy(), train.std().to_numpy()
    bij = Chain(StandardScaler(means, stds), ShiftBounds((mins - means) / stds, (maxs - means) / stds, B=4),
                RollingSplineCoupling(len(cols), hidden_dim=a.hidden, K=8, B=4))
    flow = Flow(cols, bij)
else:
    flow = Flow(cols)

steps = (a.n + a.batch - 1) // a.batch
lr: float | optax.Schedule = a.lr
if a.schedule == "cosine":
    lr = optax.cosine_decay_schedule(a.lr, decay_steps=a.epochs * steps)
elif a.schedule == "exp":
    lr = optax.exponential_decay(a.lr, transition_steps=a.every, decay_rate=a.decay, staircase=True)
opt = {"default": None, "adam": optax.adam(lr) if a.optimizer == "adam" else None,
       "adamw": optax.adamw(lr, weight_decay=1e-4), "sgd": optax.sgd(lr, momentum=0.9),
       "rmsprop": optax.rmsprop(lr)}[a.optimizer]

out = flow.train(train, val_set=val, epochs=a.epochs, batch_size=a.batch, optimizer=opt, patience=a.patience,
                 verbose=True, initial_loss=not a.no_initial, seed=0)
losses, val_losses = (out[0], out[1]) if a.val else (out, None)

# the epochs train() printed: the loss before training (index 0) unless initial_loss=False, then every 5 % of the
# epochs and the last one (as Flow.train's own condition), up to where it stopped
first = 0 if not a.no_initial else 1
every = max(int(0.05 * a.epochs), 1)
printed = [0] if first == 0 else []
for i in range(1, len(losses) + first):  # i: the epoch number printed, `(i)`
    if (i - 1) % every == 0 or i == a.epochs:
        printed.append(i)


def at(series: list, i: int) -> float:
    return series[i - first]


write_truth(framework=f"pzflow {pzflow.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 0 = before training (`(3) 1.2345`)", tolerance=tol_decimals(4),
            record="the list of losses `Flow.train` returns (negative log-likelihood on the training set at each "
                   "epoch's end), at the epochs it printed",
            train_loss=[(i, at(losses, i)) for i in printed],
            eval_loss=[(i, at(val_losses, i)) for i in printed] if val_losses is not None else None,
            eval_name="validation loss (second column)" if val_losses is not None else None)
