"""hmmlearn: an HMM (``GaussianHMM`` with each covariance type, ``GMMHMM``, ``CategoricalHMM``, ``PoissonHMM``,
``VariationalGaussianHMM``) fitted by EM on synthetic sequences drawn from a known HMM, with ``verbose=True`` as its
tutorial shows. Its ``ConvergenceMonitor`` prints to stderr one row per EM iteration:
``{iter:>10d} {log_prob:>16.8f} {delta:>+16.8f}`` (the first delta ``+nan``); the log-probability (the variational
lower bound for ``VariationalGaussianHMM``) is maximised. Truth: the monitor's own record ``model.monitor_.history``
(one value per iteration), at the iteration, 1-based, as its first column counts it."""

from __future__ import annotations

import argparse

import numpy as np
from h18_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="gaussian", choices=["gaussian", "gmm", "categorical", "poisson", "vgauss"])
ap.add_argument("--cov", default="diag", choices=["diag", "full", "spherical", "tied"])
ap.add_argument("--states", type=int, default=3)
ap.add_argument("--mix", type=int, default=2, help="GMMHMM mixture components")
ap.add_argument("--iters", type=int, default=30)
ap.add_argument("--tol", type=float, default=1e-2)
ap.add_argument("--n", type=int, default=300, help="samples per sequence")
ap.add_argument("--seqs", type=int, default=1)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import hmmlearn  # noqa: E402
from hmmlearn import hmm, vhmm  # noqa: E402

# the sequences come from a known 3-state HMM of the same family
gen_start = np.array([0.6, 0.3, 0.1])
gen_trans = np.array([[0.8, 0.15, 0.05], [0.1, 0.8, 0.1], [0.1, 0.2, 0.7]])
if a.model == "categorical":
    g = hmm.CategoricalHMM(n_components=3, random_state=a.seed)
    g.emissionprob_ = np.array([[0.6, 0.3, 0.05, 0.05], [0.1, 0.2, 0.6, 0.1], [0.05, 0.05, 0.2, 0.7]])
elif a.model == "poisson":
    g = hmm.PoissonHMM(n_components=3, random_state=a.seed)
    g.lambdas_ = np.array([[1.0, 6.0], [4.0, 2.0], [9.0, 9.0]])
else:
    g = hmm.GaussianHMM(n_components=3, covariance_type="diag", random_state=a.seed)
    g.means_ = np.array([[0.0, 0.0], [3.0, -2.0], [-2.0, 4.0]])
    g.covars_ = np.array([[1.0, 0.5], [0.7, 1.2], [1.5, 0.8]])
g.startprob_ = gen_start
g.transmat_ = gen_trans
parts = [g.sample(a.n, random_state=a.seed + i)[0] for i in range(a.seqs)]
X = np.concatenate(parts)
lengths = [len(p) for p in parts]

common = dict(n_components=a.states, n_iter=a.iters, tol=a.tol, verbose=True, random_state=a.seed)
if a.model == "gaussian":
    model = hmm.GaussianHMM(covariance_type=a.cov, **common)
elif a.model == "gmm":
    model = hmm.GMMHMM(n_mix=a.mix, covariance_type=a.cov, **common)
elif a.model == "categorical":
    model = hmm.CategoricalHMM(**common)
elif a.model == "poisson":
    model = hmm.PoissonHMM(**common)
else:
    model = vhmm.VariationalGaussianHMM(covariance_type=a.cov, **common)

model.fit(X, lengths)
print(f"converged: {model.monitor_.converged}, score: {model.score(X, lengths):.4f}")

hist = [float(v) for v in model.monitor_.history]
write_truth(framework=f"hmmlearn {hmmlearn.__version__}", settings=vars(a), loss_name="log_prob",
            step_unit="EM iteration, 1-based (the monitor row's first column)", tolerance=tol_decimals(8),
            record=f"the ConvergenceMonitor's `history` ({type(model).__name__}.fit(verbose=True))",
            train_loss=[(i + 1, v) for i, v in enumerate(hist)], higher_is_better=True)
