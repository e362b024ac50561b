"""pfl (Apple's pfl-research simulator): a tiny torch MLP trained by federated learning in simulation, as its
tutorials do: a ``FederatedDataset`` of synthetic users (each with its own small dataset), ``PyTorchModel`` with a
local optimizer and a central optimizer (optionally a central learning-rate scheduler), ``FederatedAveraging`` or
``FedProx`` run over a ``SimulatedBackend``, with callbacks: ``AggregateMetricsToDisk`` (its CSV of every central
iteration's metrics), ``StopwatchCallback`` and optionally ``CentralEvaluationCallback``. pfl's generic platform
prints every central iteration's metrics to stdout (``Metrics at iteration 3 ():`` then one line a metric, ``    Train
population | loss before local training   : 0.6931...``, the full float). Truth: the CSV ``AggregateMetricsToDisk``
writes (``Train population | loss before local training`` at ``central_iteration``, 0-based, rounded by pfl to 6
decimals)."""

from __future__ import annotations

import argparse
import csv

from h79_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--algo", default="fedavg", choices=["fedavg", "fedprox"])
ap.add_argument("--iters", type=int, default=12)
ap.add_argument("--users", type=int, default=20)
ap.add_argument("--cohort", type=int, default=5)
ap.add_argument("--local-epochs", type=int, default=1)
ap.add_argument("--local-batch", type=int, default=8)
ap.add_argument("--local-lr", type=float, default=0.1)
ap.add_argument("--central-opt", default="sgd", choices=["sgd", "adam"])
ap.add_argument("--central-lr", type=float, default=1.0)
ap.add_argument("--central-gamma", type=float, default=0.0, help="ExponentialLR on the central optimizer (0: none)")
ap.add_argument("--eval-every", type=int, default=1)
ap.add_argument("--central-eval", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from pfl.aggregate.simulate import SimulatedBackend  # noqa: E402
from pfl.algorithm import FederatedAveraging, FedProx, FedProxParams, NNAlgorithmParams  # noqa: E402
from pfl.callback.aggregate_metrics_to_disk import AggregateMetricsToDisk  # noqa: E402
from pfl.callback.central_evaluation import CentralEvaluationCallback  # noqa: E402
from pfl.callback.stopwatch import StopwatchCallback  # noqa: E402
from pfl.data.dataset import Dataset  # noqa: E402
from pfl.data.federated_dataset import FederatedDataset  # noqa: E402
from pfl.data.sampling import get_user_sampler  # noqa: E402
from pfl.hyperparam import NNEvalHyperParams, NNTrainHyperParams  # noqa: E402
from pfl.metrics import Weighted  # noqa: E402
from pfl.model.pytorch import PyTorchModel  # noqa: E402

rng = np.random.default_rng(0)
D = 8
W = rng.normal(size=(D, 3))
w = rng.normal(size=(D, 1))


def user_data(n: int) -> tuple[np.ndarray, np.ndarray]:
    x = rng.normal(size=(n, D)).astype("float32")
    if a.task == "cls":
        y = (x @ W + 0.5 * rng.normal(size=(n, 3))).argmax(1).astype("int64")
    else:
        y = (np.sin(x @ w) * 2 + 0.1 * rng.normal(size=(n, 1))).astype("float32")
    return x, y


users = {uid: user_data(int(rng.integers(16, 48))) for uid in range(a.users)}


class Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Linear(D, 32), torch.nn.ReLU(),
                                        torch.nn.Linear(32, 3 if a.task == "cls" else 1))
        self.crit = torch.nn.CrossEntropyLoss() if a.task == "cls" else torch.nn.MSELoss()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)

    def loss(self, x: torch.Tensor, y: torch.Tensor, eval: bool = False) -> torch.Tensor:
        self.eval() if eval else self.train()
        return self.crit(self(x), y)

    @torch.no_grad()
    def metrics(self, x: torch.Tensor, y: torch.Tensor, eval: bool = True) -> dict:
        self.eval()
        out = self(x)
        loss = self.crit(out, y).item() * len(x)
        m = {"loss": Weighted(loss, len(x))}
        if a.task == "cls":
            m["accuracy"] = Weighted(float((out.argmax(1) == y).sum()), len(x))
        return m


def make(uid: int) -> Dataset:
    x, y = users[uid]
    return Dataset(raw_data=[torch.from_numpy(x), torch.from_numpy(y)], user_id=str(uid))


train_ids = list(range(a.users))
train_fed = FederatedDataset(make, get_user_sampler("random", train_ids))
val_users = {uid: user_data(32) for uid in range(a.users, a.users + 4)}
users.update(val_users)
val_fed = FederatedDataset(make, get_user_sampler("random", list(val_users)))
vx = np.concatenate([v[0] for v in val_users.values()])
vy = np.concatenate([v[1] for v in val_users.values()])
central_val = Dataset(raw_data=[torch.from_numpy(vx), torch.from_numpy(vy)])

net = Net()
copt: torch.optim.Optimizer
if a.central_opt == "sgd":
    copt = torch.optim.SGD(net.parameters(), lr=a.central_lr)
else:
    copt = torch.optim.Adam(net.parameters(), lr=a.central_lr)
sched = torch.optim.lr_scheduler.ExponentialLR(copt, gamma=a.central_gamma) if a.central_gamma else None
model = PyTorchModel(model=net, local_optimizer_create=torch.optim.SGD, central_optimizer=copt,
                     central_learning_rate_scheduler=sched)
backend = SimulatedBackend(training_data=train_fed, val_data=val_fed)
train_params = NNTrainHyperParams(local_learning_rate=a.local_lr, local_num_epochs=a.local_epochs,
                                  local_batch_size=a.local_batch)
eval_params = NNEvalHyperParams(local_batch_size=64)
callbacks: list = [AggregateMetricsToDisk("metrics.csv"), StopwatchCallback()]
if a.central_eval:
    callbacks.append(CentralEvaluationCallback(central_val, model_eval_params=eval_params, frequency=a.eval_every))
algo: FederatedAveraging
if a.algo == "fedavg":
    algo_params = NNAlgorithmParams(central_num_iterations=a.iters, evaluation_frequency=a.eval_every,
                                    train_cohort_size=a.cohort, val_cohort_size=2)
    algo = FederatedAveraging()
else:
    algo_params = FedProxParams(central_num_iterations=a.iters, evaluation_frequency=a.eval_every,
                                train_cohort_size=a.cohort, val_cohort_size=2, mu=0.1)
    algo = FedProx()
algo.run(algorithm_params=algo_params, backend=backend, model=model, model_train_params=train_params,
         model_eval_params=eval_params, callbacks=callbacks)

import pfl  # noqa: E402

with open("metrics.csv") as f:
    rows = list(csv.DictReader(f))
keep("metrics.csv")
TRAIN = "Train population | loss before local training"
VAL = "Central val | loss"
write_truth(framework=f"pfl {pfl.__version__}", settings=vars(a), loss_name=TRAIN,
            step_unit="central iteration, 0-based (`Metrics at iteration 3 ()`)", tolerance=tol_decimals(6),
            record="the CSV pfl's `AggregateMetricsToDisk` callback writes (`Train population | loss before local "
                   "training` at `central_iteration`)",
            train_loss=[(int(r["central_iteration"]), r[TRAIN]) for r in rows if r.get(TRAIN)],
            eval_loss=[(int(r["central_iteration"]), r[VAL]) for r in rows if r.get(VAL)] if a.central_eval else None,
            eval_name=VAL if a.central_eval else None)
