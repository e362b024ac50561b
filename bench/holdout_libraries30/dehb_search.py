"""DEHB: a search over a small training's learning rate (and momentum), the number of epochs as the fidelity,
``DEHB(f, cs, min_fidelity, max_fidelity, n_workers=1, output_path="dehb_out", log_level="INFO").run(fevals=N)``, as
its README shows. Its loguru logger writes on stderr, per function evaluation, ``K/N function evaluation(s) done``,
``Evaluating configuration C with fidelity F under bracket ID B`` and ``Best score seen/Incumbent score: X`` (Python's
``str`` of the float, all digits; ``inf`` before any finite score), and ``Saving state to disk...`` now and then; at
the end ``End of optimisation! ...`` and ``Incumbent score: X``. Its own files: ``dehb_out/dehb.log`` (the same
messages), ``incumbent.json``, ``dehb_state.json``. Truth: the trajectory ``run`` returns (the incumbent score after
each evaluation), at the evaluations done, as ``K/N`` counts them (the score logged under ``K/N`` is the incumbent
after K evaluations; K = 1 .. N-1: the N-th is only in the closing ``Incumbent score``)."""

from __future__ import annotations

import argparse
import os

from h30_truth import keep, seed_all, tol_sig, write_truth
from tiny_train import train

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--lr-min", type=float, default=1e-4)
ap.add_argument("--lr-max", type=float, default=0.1)
ap.add_argument("--momentum", action="store_true", help="search the momentum too")
ap.add_argument("--min-fidelity", type=float, default=3)
ap.add_argument("--max-fidelity", type=float, default=27)
ap.add_argument("--eta", type=int, default=3)
ap.add_argument("--fevals", type=int, default=30)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import ConfigSpace as CS  # noqa: E402
from dehb import DEHB  # noqa: E402

cs = CS.ConfigurationSpace(seed=0)
cs.add(CS.UniformFloatHyperparameter("lr", a.lr_min, a.lr_max, log=True))
if a.momentum:
    cs.add(CS.UniformFloatHyperparameter("momentum", 0.0, 0.95))


def objective(config, fidelity, **kwargs):
    loss = train(float(config["lr"]), int(round(fidelity)), float(config.get("momentum", 0.0)), a.task)
    return {"fitness": loss, "cost": float(fidelity)}


opt = DEHB(f=objective, cs=cs, dimensions=len(list(cs.values())), min_fidelity=a.min_fidelity,
           max_fidelity=a.max_fidelity, eta=a.eta, n_workers=1, output_path="dehb_out", seed=0, log_level="INFO")
traj, runtime, history = opt.run(fevals=a.fevals)

steps = [(k, float(traj[k - 1])) for k in range(1, len(traj))]
for f in ("dehb.log", "incumbent.json", "dehb_state.json"):
    if os.path.exists(os.path.join("dehb_out", f)):
        keep(os.path.join("dehb_out", f), f)
common = dict(framework=f"dehb {version('dehb')}", settings=vars(a), loss_name="Best score seen/Incumbent score",
              step_unit="function evaluation, 1-based (`K/N function evaluation(s) done`)", tolerance=tol_sig(15),
              record="the trajectory `DEHB.run` returns (the incumbent score after each evaluation)",
              train_loss=steps)
write_truth(**common)
if os.path.exists(os.path.join("dehb_out", "dehb.log")):
    write_truth(**common, name="truth_store.json", file="dehb.log")
