"""pocomc: its normalizing flow (``pocomc.Flow``, the preconditioner its sampler trains; a zuko MAF or NSF) fitted
as a density estimator to synthetic samples with the flow's own ``fit`` (AdamW, gradient clipping, early stopping on
the monitored loss, optional validation split, learning-rate annealing, sample weights, Gaussian regularization), as
its docstring's example does (``history = flow.fit(x)``), with ``verbose=2``: one line an epoch on stdout,
``Epoch   3/ 60, train loss:  2.87, val loss:  2.91`` (``%5.2f``), then ``Finished early after ...`` and the timing
summary. Truth: the ``history`` dict the fit returns (``history['loss']``, the mean negative log-likelihood of an
epoch; ``history['val_loss']`` with a validation split), epochs 1-based."""

from __future__ import annotations

import argparse

from h99_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--data", default="banana", choices=["banana", "mixture", "gauss3", "ring"])
ap.add_argument("--n", type=int, default=1000)
ap.add_argument("--flow", default="nsf3", choices=["maf3", "maf6", "maf12", "nsf3", "nsf6", "nsf12"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--epochs", type=int, default=60)
ap.add_argument("--batch", type=int, default=100)
ap.add_argument("--val", type=float, default=0.0, help="validation_split (the first fraction is the train part)")
ap.add_argument("--patience", type=int, default=20)
ap.add_argument("--annealing", action="store_true")
ap.add_argument("--weights", action="store_true", help="importance weights for the samples")
ap.add_argument("--gaussian-scale", type=float, default=None)
ap.add_argument("--weight-decay", type=float, default=0.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pocomc  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
z = rng.normal(size=(a.n, 3))
if a.data == "banana":
    x = np.stack([z[:, 0], z[:, 1] + 0.5 * z[:, 0] ** 2], 1)
elif a.data == "mixture":
    c = rng.integers(0, 3, a.n)
    centres = np.array([[-2.0, 0.0], [2.0, 1.0], [0.0, -2.5]])
    x = centres[c] + 0.5 * z[:, :2]
elif a.data == "gauss3":
    cov = np.array([[1.0, 0.8, 0.2], [0.8, 1.0, 0.5], [0.2, 0.5, 1.0]])
    x = z @ np.linalg.cholesky(cov).T * np.array([1.0, 2.0, 0.5])
else:
    ang = rng.uniform(0, 2 * np.pi, a.n)
    r = 2.0 + 0.2 * z[:, 0]
    x = np.stack([r * np.cos(ang), r * np.sin(ang)], 1)
w = None
if a.weights:
    w = torch.tensor(np.exp(-0.5 * (x[:, 0] / 2.0) ** 2), dtype=torch.float32)

flow = pocomc.Flow(x.shape[1], a.flow)
history = flow.fit(torch.tensor(x, dtype=torch.float32), weights=w, validation_split=a.val, epochs=a.epochs,
                   batch_size=a.batch, patience=a.patience, learning_rate=a.lr, annealing=a.annealing,
                   gaussian_scale=a.gaussian_scale, weight_decay=a.weight_decay, verbose=2)
val = history["val_loss"] if history["val_loss"] else None
write_truth(framework=f"pocomc {pocomc.__version__}", settings=vars(a), loss_name="train loss",
            step_unit="epoch, 1-based (`Epoch   3/ 60`)", tolerance=tol_decimals(2),
            record="the `history` dict returned by `pocomc.Flow.fit` (`history['loss']`)",
            train_loss=list(enumerate(history["loss"], 1)),
            eval_loss=list(enumerate(val, 1)) if val else None, eval_name="val loss" if val else None)
