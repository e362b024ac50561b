"""tslearn: ``LearningShapelets`` (its Keras-built shapelet network) fitted on synthetic time series with
``verbose=1``, as its docs fit it: Keras' own per-epoch progress on stdout (``Epoch 3/50`` then the bar with
``binary_crossentropy: 0.6772 - loss: 0.6772``, or ``categorical_crossentropy`` for more than two classes), the
``optimizer`` as a string or a Keras optimizer (a learning-rate schedule in it where asked). Truth: the estimator's
``history_`` (``loss`` per epoch, 1-based)."""

from __future__ import annotations

import argparse

import numpy as np
from h12_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=30)
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--n", type=int, default=90)
ap.add_argument("--length", type=int, default=40)
ap.add_argument("--classes", type=int, default=2)
ap.add_argument("--shapelets", default="6:3", help="size:count,... (n_shapelets_per_size)")
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.0, help="0: the optimizer given as a string (Keras' default rate)")
ap.add_argument("--lr-growth", type=float, default=0.0, help="ExponentialDecay with this rate > 1, per epoch")
ap.add_argument("--reg", type=float, default=0.0, help="weight_regularizer")
ap.add_argument("--scale", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import keras  # noqa: E402
import tslearn  # noqa: E402
from tslearn.shapelets import LearningShapelets  # noqa: E402

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
y = rng.integers(0, a.classes, a.n)
X = 0.5 * rng.normal(size=(a.n, a.length))
pos = rng.integers(0, a.length - 8, a.n)
for i in range(a.n):
    bump = np.sin(np.linspace(0, np.pi * (1 + y[i]), 8)) * (1.5 + y[i])
    X[i, pos[i]:pos[i] + 8] += bump
X = X[:, :, None]

if a.lr:
    cls = {"sgd": keras.optimizers.SGD, "adam": keras.optimizers.Adam, "rmsprop": keras.optimizers.RMSprop}
    rate = a.lr
    if a.lr_growth:
        steps = -(-a.n // a.batch)
        rate = keras.optimizers.schedules.ExponentialDecay(a.lr, decay_steps=steps, decay_rate=a.lr_growth)
    opt = cls[a.optimizer](learning_rate=rate)
else:
    opt = a.optimizer
sizes = {int(s): int(c) for s, c in (p.split(":") for p in a.shapelets.split(","))}
model = LearningShapelets(n_shapelets_per_size=sizes, max_iter=a.epochs, batch_size=a.batch, optimizer=opt,
                          weight_regularizer=a.reg, verbose=1, random_state=0, scale=a.scale)
model.fit(X, y)
write_truth(framework=f"tslearn {tslearn.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (Keras' `Epoch N/M`)", tolerance=tol_decimals(4),
            record="the estimator's `history_` (`loss`, one value an epoch)",
            train_loss=[(i + 1, v) for i, v in enumerate(model.history_["loss"])])
