"""rlberry: an ExperimentManager fitting ``n_fit`` instances of a small agent (rlberry_agent.MCValueAgent: a linear
value function of gymnasium's CartPole-v1, fitted by gradient steps on its episodes' Monte Carlo returns) in threads or
worker processes, each agent writing ``loss`` and ``episode_rewards`` to its rlberry ``DefaultWriter`` at the episode
(its global step). The writer prints through rlberry's logger on stderr (``log_interval=0``: a line a scalar written;
``style_log`` ``multi_line``: a pandas table's header and row, ``[INFO] 09:32:    agent_name  worker  loss
episode_rewards  max_global_step`` / ``MCValue      0    48.715       17.0              3``, the values rounded to 3
decimals; or ``one_line``: ``[MCValue[worker: 0]] | max_global_step = 3 | loss = 48.71512 | ...``). The manager writes
its own ``data.csv`` (every writer's scalars), kept. Truth: the writers' data (``ExperimentManager.get_writer_data()``),
worker 0's ``loss`` at its global step; the other workers' in ``workers``."""

from __future__ import annotations

import argparse
import glob

from h21_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "momentum"])
ap.add_argument("--episodes", type=int, default=30)
ap.add_argument("--n-fit", type=int, default=1)
ap.add_argument("--parallel", default="thread", choices=["thread", "process"])
ap.add_argument("--style", default="multi_line", choices=["multi_line", "one_line"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()

if __name__ == "__main__":
    seed_all(0)
    import gymnasium as gym
    import rlberry
    from rlberry.manager import ExperimentManager
    from rlberry_agent import MCValueAgent

    manager = ExperimentManager(
        MCValueAgent, (gym.make, dict(id="CartPole-v1")), fit_budget=a.episodes,
        init_kwargs=dict(lr=a.lr, optimizer=a.optimizer), n_fit=a.n_fit, parallelization=a.parallel,
        max_workers=a.n_fit, seed=0, output_dir="rlberry_data",
        default_writer_kwargs=dict(log_interval=0, style_log=a.style))
    manager.fit()
    data = manager.get_writer_data()
    series = {}
    for idx, df in data.items():
        d = df[df["tag"] == "loss"]
        series[str(idx)] = [(int(s), float(v)) for s, v in zip(d["global_step"], d["value"], strict=True)]
    for f in glob.glob("rlberry_data/manager_data/*/data.csv"):
        keep(f)
    tol = tol_decimals(3) if a.style == "multi_line" else {"rel": 1e-09, "abs": 1e-09}
    tol = {"rel": 1e-6, "abs": tol["abs"]}
    write_truth(framework=f"rlberry {rlberry.__version__}", settings=vars(a), loss_name="loss",
                step_unit="episode, 1-based (`max_global_step`; the agent's global step)", tolerance=tol,
                record="ExperimentManager.get_writer_data(): worker 0's DefaultWriter `loss` scalars",
                train_loss=series["0"], workers={k: v for k, v in series.items() if k != "0"})
