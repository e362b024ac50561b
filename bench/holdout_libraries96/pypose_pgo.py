"""PyPose: a synthetic SE(3) pose graph (a chain of noisy odometry edges and loop closures) solved by PyPose's own
second-order optimizers (``pp.optim.LM`` with a damping strategy, or ``pp.optim.GN``) stepped under its
``StopOnPlateau`` scheduler with ``verbose=True``, the loop of PyPose's pose-graph example: each step prints
`StopOnPlateau on step 3 Loss 2.750000e-02 --> Loss 2.749250e-02 (reduction/loss: 2.7267e-04).` and the reason it
stops. Truth: the loss each ``optimizer.step`` returns (PyPose's ``optimizer.loss``, the model's loss after the
step), at the scheduler's step number (0-based)."""

from __future__ import annotations

import argparse

from h96_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--optimizer", default="lm", choices=["lm", "gn"])
ap.add_argument("--strategy", default="trustregion", choices=["trustregion", "adaptive", "constant"])
ap.add_argument("--damping", type=float, default=1e-4)
ap.add_argument("--solver", default="cholesky", choices=["cholesky", "lstsq", "pinv"])
ap.add_argument("--kernel", default="none", choices=["none", "huber", "cauchy"])
ap.add_argument("--nodes", type=int, default=20)
ap.add_argument("--init-noise", type=float, default=0.3)
ap.add_argument("--steps", type=int, default=30)
ap.add_argument("--patience", type=int, default=3)
ap.add_argument("--decreasing", type=float, default=1e-9)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pypose as pp  # noqa: E402
import torch  # noqa: E402

n = a.nodes
true = pp.randn_SE3(n, sigma=0.5).double()
true = pp.SE3(torch.cat([pp.identity_SE3(1).double().tensor(), true.tensor()[1:]]))
pairs = [(i, i + 1) for i in range(n - 1)] + [(i, j) for i in range(0, n, 3) for j in range(i + 4, n, 5)]
edges = torch.tensor(pairs)
poses = (true[edges[:, 0]].Inv() @ true[edges[:, 1]]) @ pp.randn_SE3(len(pairs), sigma=0.02).double()
init = true @ pp.randn_SE3(n, sigma=a.init_noise).double()


class PoseGraph(torch.nn.Module):
    def __init__(self, nodes: pp.LieTensor) -> None:
        super().__init__()
        self.nodes = pp.Parameter(nodes)

    def forward(self, edges: torch.Tensor, poses: pp.LieTensor) -> torch.Tensor:
        node1, node2 = self.nodes[edges[..., 0]], self.nodes[edges[..., 1]]
        return (poses.Inv() @ node1.Inv() @ node2).Log().tensor()


graph = PoseGraph(init)
solver = {"cholesky": pp.optim.solver.Cholesky, "lstsq": pp.optim.solver.LSTSQ, "pinv": pp.optim.solver.PINV}
kernel = {"none": None, "huber": pp.optim.kernel.Huber(delta=0.5), "cauchy": pp.optim.kernel.Cauchy(delta=0.5)}
if a.optimizer == "lm":
    strategy = {"trustregion": lambda: pp.optim.strategy.TrustRegion(radius=1e3),
                "adaptive": lambda: pp.optim.strategy.Adaptive(damping=a.damping),
                "constant": lambda: pp.optim.strategy.Constant(damping=a.damping)}[a.strategy]()
    optimizer = pp.optim.LM(graph, solver=solver[a.solver](), strategy=strategy, kernel=kernel[a.kernel])
else:
    optimizer = pp.optim.GN(graph, solver=solver[a.solver]() if a.solver != "cholesky" else None,
                            kernel=kernel[a.kernel])
scheduler = pp.optim.scheduler.StopOnPlateau(optimizer, steps=a.steps, patience=a.patience,
                                             decreasing=a.decreasing, verbose=True)
losses = []
while scheduler.continual():
    loss = optimizer.step(input=(edges, poses))
    losses.append((scheduler.steps, float(loss)))
    scheduler.step(loss)

write_truth(framework=f"pypose {pp.__version__}", settings=vars(a), loss_name="Loss",
            step_unit="scheduler step, 0-based (`StopOnPlateau on step 3`)", tolerance=tol_sig(7),
            record="the loss each `optimizer.step` returns (`optimizer.loss`, printed after `-->`)",
            train_loss=losses)
