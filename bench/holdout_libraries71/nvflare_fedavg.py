"""NVIDIA FLARE (nvflare): federated averaging of a tiny torch MLP over 1 or 2 simulated sites, made with its PyTorch
``FedAvgRecipe`` and run by its simulator (``SimEnv``, all on this machine), the client side a hello-pt style script
(bench/holdout_libraries71/nvflare_client.py: the Client API, ``SummaryWriter`` and a ``print`` of the running loss
every few iterations); ``add_experiment_tracking(recipe, "tensorboard")`` streams each site's scalars to the server,
whose TensorBoard receiver writes them. The simulator logs its server's and clients' own lines (rounds, tasks,
aggregation) with the clients' prints among them. Truth: the server's TensorBoard events of site-1 (``train_loss`` at
its global step: round x steps per round + the iteration)."""

from __future__ import annotations

import argparse
import glob
import os
import shutil
from pathlib import Path

from h71_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--rounds", type=int, default=4)
ap.add_argument("--clients", type=int, default=2)
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--lr-growth", type=float, default=1.0)
ap.add_argument("--local-epochs", type=int, default=1)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=128)
ap.add_argument("--print-every", type=int, default=4)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import nvflare  # noqa: E402
from nvflare.app_opt.pt.recipes.fedavg import FedAvgRecipe  # noqa: E402
from nvflare.recipe import SimEnv, add_experiment_tracking  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

here = Path(__file__).resolve().parent
shutil.copy(here / "nvflare_client.py", "client.py")
import sys  # noqa: E402

sys.path.insert(0, os.getcwd())
from client import TinyClassifier, TinyRegressor  # noqa: E402

train_args = (f"--task {a.task} --optimizer {a.optimizer} --lr {a.lr} --lr-growth {a.lr_growth} "
              f"--local-epochs {a.local_epochs} --batch {a.batch} --n {a.n} --print-every {a.print_every}")
model = TinyClassifier() if a.task == "cls" else TinyRegressor()
recipe = FedAvgRecipe(name="hello-pt", model=model, min_clients=a.clients, num_rounds=a.rounds,
                      train_script="client.py", train_args=train_args, key_metric="loss", key_metric_mode="min")
add_experiment_tracking(recipe, tracking_type="tensorboard")
env = SimEnv(num_clients=a.clients, num_threads=1, workspace_root=os.path.abspath("workspace"))
run = recipe.execute(env)
print("Job Status is:", run.get_status())
print("Result can be found in :", run.get_result())

events = sorted(glob.glob("workspace/**/tb_events/site-1/**/events.out.tfevents.*", recursive=True))
if not events:
    events = sorted(glob.glob("workspace/**/site-1/**/events.out.tfevents.*", recursive=True))
acc = EventAccumulator(os.path.dirname(events[0]))
acc.Reload()
tag = next(t for t in acc.Tags()["scalars"] if t.endswith("train_loss"))
job = Path("workspace/hello-pt")
keep(job / "site-1" / "log.txt", "site-1_log.txt")
keep(os.path.dirname(events[0]), "tb_events_site-1")
if (job / "server/simulate_job/metrics").is_dir():
    keep(job / "server/simulate_job/metrics", "server_metrics")
steps_per_round = a.local_epochs * -(-a.n // a.batch)
write_truth(framework=f"nvflare {nvflare.__version__}", settings=vars(a), loss_name="Loss (train_loss)",
            step_unit="global iteration of site-1, 0-based: round x steps per round + epoch x steps per epoch + the "
                      "printed `Iteration`",
            tolerance={"rel": 1e-6},
            record=f"the server's TensorBoard events of site-1 (`{tag}`, float32; sorted by step: they may arrive "
                   "out of order)",
            train_loss=sorted((e.step, e.value) for e in acc.Scalars(tag)), steps_per_round=steps_per_round,
            series_of="site-1 (the log prints every site's loss)")
