"""JENN (Jacobian-Enhanced Neural Networks): a tiny numpy MLP ``jenn.NeuralNet`` fitted with its own ``fit`` (ADAM,
optional backtracking line search, mini-batches and epochs, Jacobian enhancement ``gamma``, L2 ``lambd``) on its own
synthetic test functions (``jenn.synthetic_data``: sinusoid, Rosenbrock) sampled with ``jenn.utilities.sample``, as
its docs do. With ``is_verbose=True`` JENN prints one line per optimizer iteration on stdout, ``epoch = 0, batch = 0,
iter = 7, cost = 1.258948`` (6 decimals; ``iter`` restarts at 0 for each batch of each epoch), and ``Absolute
stopping criterion satisfied`` / ``Relative stopping criterion satisfied`` when it stops early. Truth: the
``history`` the model keeps (``history['epoch_E']['batch_B']`` = the cost after each iteration), in its order, at a
running count of optimizer iterations from 0 (``iter`` itself when there is one epoch of one batch)."""

from __future__ import annotations

import argparse

from h97_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--func", default="sinusoid", choices=["sinusoid", "rosenbrock"])
ap.add_argument("--act", default="tanh", choices=["tanh", "relu"])
ap.add_argument("--alpha", type=float, default=0.05)
ap.add_argument("--iters", type=int, default=40)
ap.add_argument("--epochs", type=int, default=1)
ap.add_argument("--batch", type=int, default=0, help="0: one batch of all the data")
ap.add_argument("--gamma", type=float, default=1.0)
ap.add_argument("--lambd", type=float, default=0.0)
ap.add_argument("--hidden", type=int, default=12)
ap.add_argument("--normalize", action="store_true")
ap.add_argument("--backtracking", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import jenn  # noqa: E402
import numpy as np  # noqa: E402
from jenn.synthetic_data import rosenbrock, sinusoid  # noqa: E402
from jenn.utilities import sample  # noqa: E402

if a.func == "sinusoid":
    x, y, dydx = sample(sinusoid.compute, m_random=0, m_levels=20, lb=-np.pi, ub=np.pi,
                        f_prime=sinusoid.compute_partials, random_state=0)
else:
    x, y, dydx = sample(rosenbrock.compute, m_random=0, m_levels=6, lb=[-2, -2], ub=[2, 2],
                        f_prime=rosenbrock.compute_partials, random_state=0)
model = jenn.NeuralNet(layer_sizes=[x.shape[0], a.hidden, a.hidden, 1], hidden_activation=a.act)
model.fit(x, y, dydx, is_normalize=a.normalize, alpha=a.alpha, gamma=a.gamma, lambd=a.lambd, epochs=a.epochs,
          batch_size=a.batch or None, max_iter=a.iters, is_backtracking=a.backtracking, random_state=0,
          is_verbose=True)
hist = model.history or {}
costs = [float(c) for e in hist.values() for b in e.values() for c in (b or [])]
write_truth(framework=f"jenn {jenn.__version__}", settings=vars(a), loss_name="cost",
            step_unit="optimizer iteration, 0-based, counted on across batches and epochs (`iter = 7`, which "
                      "restarts at 0 each batch)",
            tolerance=tol_decimals(6),
            record="the model's `history` (`history['epoch_E']['batch_B']`: the cost after each ADAM iteration), "
                   "flattened in order",
            train_loss=list(enumerate(costs)))
