"""gcastle: its GOLEM learner (``castle.algorithms.GOLEM``, torch backend) on a small linear-Gaussian data set simulated
with gcastle's own ``DAG.erdos_renyi`` and ``IIDSimulation``, as its examples show. gcastle configures the root logger
at import (``%(asctime)s - %(pathname)s[line:%(lineno)d] - %(levelname)s: %(message)s``, on stderr); GOLEM logs
``[Iter 200] score=12.345, likelihood=11.234, h=1.2e-02`` every ``checkpoint_iter`` iterations (``{:.3f}``), iteration 0
being an evaluation before any step. Truth: the ``score`` GOLEM's model computes at each iteration (the objective it
minimises, read from the model after each forward pass through a torch forward hook), at the iterations logged."""

from __future__ import annotations

import argparse

from h45_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--nodes", type=int, default=6)
ap.add_argument("--edges", type=int, default=8)
ap.add_argument("--n", type=int, default=300)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--iters", type=int, default=2000)
ap.add_argument("--every", type=int, default=100)
ap.add_argument("--ev", action="store_true", help="GOLEM-EV (equal variances) settings instead of GOLEM-NV")
ap.add_argument("--noise", default="gauss")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import castle  # noqa: E402
import torch  # noqa: E402
from castle.algorithms import GOLEM  # noqa: E402
from castle.datasets import DAG, IIDSimulation  # noqa: E402

torch.set_num_threads(1)
W = DAG.erdos_renyi(n_nodes=a.nodes, n_edges=a.edges, weight_range=(0.5, 2.0), seed=1)
data = IIDSimulation(W=W, n=a.n, method="linear", sem_type=a.noise)
X = data.X

scores: list[float] = []


def _record(module, inputs, output):
    if type(module).__name__ == "GolemModel":
        scores.append(float(module.score.detach()))


torch.nn.modules.module.register_module_forward_hook(_record)
kw = dict(equal_variances=True, lambda_1=2e-2, lambda_2=5.0) if a.ev else \
    dict(equal_variances=False, lambda_1=2e-3, lambda_2=5.0)
model = GOLEM(num_iter=a.iters, learning_rate=a.lr, checkpoint_iter=a.every, seed=1, **kw)
model.learn(X)
print(model.causal_matrix)

series = [(i, s) for i, s in enumerate(scores) if i % a.every == 0]
write_truth(framework=f"gcastle {castle.__version__}", settings=vars(a), loss_name="score",
            step_unit="iteration, 0-based (`[Iter N]`; iteration 0 is an evaluation before any step)",
            tolerance=tol_decimals(3), record="GOLEM's model `score` after each forward pass (torch forward hook)",
            train_loss=series)
