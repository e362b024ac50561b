"""Flower (flwr): a federated linear regression simulated with ``flwr.simulation.run_simulation`` (its Ray backend,
one CPU a client): a ``ServerApp`` with a strategy (FedAvg, FedAvgM, FedAdam, FedProx), a ``ClientApp`` whose
``NumPyClient`` takes local gradient steps on its own synthetic shard and evaluates the global model on it (mean
squared error). Flower logs on stderr as it does by default: ``INFO :      [ROUND 3]``, ``configure_fit: strategy
sampled 4 clients (out of 4)``, ``aggregate_evaluate: received 4 results and 0 failures`` per round, then the run's
summary ``[SUMMARY]`` / ``Run finished 10 round(s) in 8.12s`` / ``History (loss, distributed):`` / ``round 1:
1.2345678`` (the value's repr). Truth: the server's ``History`` (``losses_distributed``: the strategy's weighted mean
of the clients' evaluation losses), at the round, 1-based."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from h21_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--strategy", default="fedavg", choices=["fedavg", "fedavgm", "fedadam", "fedprox"])
ap.add_argument("--rounds", type=int, default=8)
ap.add_argument("--clients", type=int, default=4)
ap.add_argument("--fraction-fit", type=float, default=1.0)
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--local-epochs", type=int, default=1)
ap.add_argument("--server-lr", type=float, default=0.1)
ap.add_argument("--n", type=int, default=60)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()

DIM = 6
W_TRUE = np.linspace(-2.0, 2.0, DIM)
HISTORY: dict[str, Any] = {}


def shard(cid: int):
    rng = np.random.default_rng(100 + cid)
    x = rng.normal(loc=0.3 * cid, scale=1.0 + 0.2 * cid, size=(a.n, DIM))
    y = x @ W_TRUE + 1.0 + rng.normal(scale=0.5, size=a.n)
    return x, y


def mse(w, b, x, y):
    with np.errstate(all="ignore"):
        return float(np.mean((x @ w + b - y) ** 2))


def main() -> None:
    import flwr
    from flwr.client import ClientApp, NumPyClient
    from flwr.common import Context, ndarrays_to_parameters
    from flwr.server import Server, ServerApp, ServerAppComponents, ServerConfig
    from flwr.server.client_manager import SimpleClientManager
    from flwr.server.strategy import FedAdam, FedAvg, FedAvgM, FedProx
    from flwr.simulation import run_simulation

    class LinRegClient(NumPyClient):
        def __init__(self, cid: int):
            self.x, self.y = shard(cid)

        def fit(self, parameters, config):
            w, b = parameters[0].copy(), float(parameters[1][0])
            with np.errstate(all="ignore"):
                for _ in range(a.local_epochs):
                    for i in range(0, len(self.y), 10):
                        xb, yb = self.x[i:i + 10], self.y[i:i + 10]
                        err = xb @ w + b - yb
                        w = w - a.lr * 2 * xb.T @ err / len(yb)
                        b = b - a.lr * 2 * float(err.mean())
            return [w, np.array([b])], len(self.y), {}

        def evaluate(self, parameters, config):
            loss = mse(parameters[0], float(parameters[1][0]), self.x, self.y)
            return loss, len(self.y), {}

    def client_fn(context: Context):
        return LinRegClient(int(context.node_config["partition-id"])).to_client()

    class RecordingServer(Server):
        def fit(self, num_rounds, timeout):
            history, elapsed = super().fit(num_rounds, timeout)
            HISTORY["h"] = history
            return history, elapsed

    def server_fn(context: Context):
        init = ndarrays_to_parameters([np.zeros(DIM), np.zeros(1)])
        common = dict(fraction_fit=a.fraction_fit, fraction_evaluate=1.0, min_fit_clients=1,
                      min_evaluate_clients=a.clients, min_available_clients=a.clients, initial_parameters=init)
        if a.strategy == "fedavgm":
            strategy = FedAvgM(server_learning_rate=1.0, server_momentum=0.5, **common)
        elif a.strategy == "fedadam":
            strategy = FedAdam(eta=a.server_lr, **common)
        elif a.strategy == "fedprox":
            strategy = FedProx(proximal_mu=0.1, **common)
        else:
            strategy = FedAvg(**common)
        server = RecordingServer(client_manager=SimpleClientManager(), strategy=strategy)
        return ServerAppComponents(server=server, config=ServerConfig(num_rounds=a.rounds))

    run_simulation(server_app=ServerApp(server_fn=server_fn), client_app=ClientApp(client_fn=client_fn),
                   num_supernodes=a.clients, backend_config={"client_resources": {"num_cpus": 1, "num_gpus": 0.0},
                                                             "init_args": {"num_cpus": 1}})
    h = HISTORY["h"]
    write_truth(framework=f"flwr {flwr.__version__}", settings=vars(a), loss_name="loss, distributed",
                step_unit="round, 1-based (`round N:` of the `History (loss, distributed)` summary)",
                tolerance={"rel": 1e-9, "abs": 1e-12},
                record="the server's History (`losses_distributed`, returned by Server.fit)",
                train_loss=[(r, v) for r, v in h.losses_distributed])


if __name__ == "__main__":
    seed_all(0)
    main()
