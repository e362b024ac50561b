"""pyrenn: a small feed-forward (or, with ``--recurrent``, output-feedback) network (``pyrenn.CreateNN``) trained on
a seeded synthetic regression with its Levenberg-Marquardt trainer ``pyrenn.train_LM(P, Y, net, verbose=True,
k_max, E_stop, dampfac)``, as its examples do. pyrenn prints on stdout, every iteration,
``Iteration:  3 \\t\\tError:  0.7985617418937145 \\tscale factor:  0.03`` (the error with ``str``: full precision),
from iteration 0 (the initial network), and a closing line (``Maximum number of iterations reached``). Truth: the
network's own ``ErrorHistory`` (one error an iteration: the sum of squared errors), at the iteration, 0-based."""

from __future__ import annotations

import argparse

import numpy as np
from h34_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--hidden", default="8", help="hidden layer sizes, comma-separated")
ap.add_argument("--k-max", type=int, default=30)
ap.add_argument("--dampfac", type=float, default=3.0)
ap.add_argument("--recurrent", action="store_true", help="feed the output back with a delay of 1 (dOut=[1])")
ap.add_argument("--n", type=int, default=60)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pyrenn  # noqa: E402

rng = np.random.default_rng(0)
P = rng.uniform(-1, 1, size=(2, a.n))
Y = (np.sin(2 * P[0]) + 0.5 * P[1] ** 2 + rng.normal(scale=0.05, size=a.n)).reshape(1, -1)
layers = [2, *[int(h) for h in a.hidden.split(",")], 1]
net = pyrenn.CreateNN(layers, dOut=[1]) if a.recurrent else pyrenn.CreateNN(layers)
net = pyrenn.train_LM(P, Y, net, verbose=True, k_max=a.k_max, E_stop=1e-10, dampfac=a.dampfac)

errs = [float(e) for e in net["ErrorHistory"]]
write_truth(framework="pyrenn 0.1", settings=vars(a), loss_name="Error",
            step_unit="iteration, 0-based (`Iteration:  N`)", tolerance=tol_sig(10),
            record="the network's `ErrorHistory` (pyrenn.train_LM)",
            train_loss=[(i, e) for i, e in enumerate(errs)])
