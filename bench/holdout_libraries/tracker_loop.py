"""A plain PyTorch loop logging to a tracker's local store: tensorboardX event files or MLflow's file store.

``--tracker tbx``: ``tensorboardX.SummaryWriter()`` with its default log dir (``runs/<date>_<host>``), one
``add_scalar`` per optimizer step; the script prints one line per epoch (the epoch's mean loss), so the event
file is the run's natural source and ``train.log`` a coarse echo. ``--tracker mlflow``: ``mlflow.set_tracking_uri(
"file:./mlruns")`` (the file store of older setups; MLflow 3.x needs ``MLFLOW_ALLOW_FILE_STORE=true``),
``mlflow.log_metrics`` every ``--every`` steps and one
``print`` per epoch.

Two truths: ``truth.json`` for ``train.log`` (the epoch means the script prints, at the 1-based epoch) and
``truth_store.json`` for the store (what the store itself holds, read back with the library's own reader:
tensorboard's ``EventAccumulator`` / ``MlflowClient.get_metric_history``, at the logged global step).
"""

from __future__ import annotations

import argparse
import glob
import os

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--tracker", default="tbx", choices=["tbx", "mlflow"])
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--ramp", type=float, default=1.0, help="lr multiplied by this every step (a schedule bug)")
ap.add_argument("--every", type=int, default=1)
ap.add_argument("--bs", type=int, default=64)
ap.add_argument("--tag", default="Loss/train")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402

g = torch.Generator().manual_seed(0)
X = torch.randn(1024, 10, generator=g)
y = (X[:, :3].sum(1, keepdim=True) + torch.sin(X[:, 3:4]) + 0.1 * torch.randn(1024, 1, generator=g))
model = torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: a.ramp ** s)
bs = a.bs
steps_per_epoch = len(X) // bs

if a.tracker == "tbx":
    from tensorboardX import SummaryWriter

    writer = SummaryWriter()
else:
    os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"  # MLflow 3.x refuses the file store unless a user opts in
    import mlflow

    mlflow.set_tracking_uri("file:./mlruns")
    mlflow.set_experiment("holdout-loop")
    run = mlflow.start_run(run_name="mlp-regression")
    mlflow.log_params({"lr": a.lr, "ramp": a.ramp, "epochs": a.epochs, "batch_size": bs})

step = 0
logged, epoch_means = [], []
for epoch in range(1, a.epochs + 1):
    perm = torch.randperm(len(X), generator=g)
    tot = 0.0
    for i in range(steps_per_epoch):
        idx = perm[i * bs:(i + 1) * bs]
        loss = torch.nn.functional.mse_loss(model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        step += 1
        v = loss.item()
        tot += v
        if step % a.every == 0:
            if a.tracker == "tbx":
                writer.add_scalar(a.tag, v, step)
                writer.add_scalar("lr", sched.get_last_lr()[0], step)
            else:
                mlflow.log_metrics({"train_loss": v, "lr": sched.get_last_lr()[0]}, step=step)
            logged.append((step, v))
    epoch_means.append((epoch, tot / steps_per_epoch))
    print(f"epoch {epoch}/{a.epochs}: train loss {tot / steps_per_epoch:.5f}")

common = dict(settings=vars(a), label=a.label, should_stop=a.should_stop)
write_truth(framework="tensorboardX" if a.tracker == "tbx" else "mlflow (file store)", loss_name="train loss",
            step_unit="epoch, 1-based (the script's print)", tolerance={"rel": 1e-9, "abs": 5.1e-6},
            record="the epoch means the script printed (full precision)", train_loss=epoch_means, **common)
if a.tracker == "tbx":
    writer.close()
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    d = glob.glob("runs/*")[0]
    ev = EventAccumulator(d)
    ev.Reload()
    pts = [(e.step, e.value) for e in ev.Scalars(a.tag)]
    keep(d, "runs/" + os.path.basename(d))
    f = glob.glob(d + "/events.out.tfevents*")[0]
    write_truth(framework="tensorboardX", loss_name=a.tag, step_unit="global step (add_scalar's global_step)",
                tolerance={"rel": 1e-6}, record="EventAccumulator.Scalars of the event file (float32)",
                train_loss=pts, name="truth_store.json", **common)
    store_entry(f"runs/{os.path.basename(d)}/{os.path.basename(f)}", "truth_store.json")
else:
    mlflow.end_run()
    from mlflow.tracking import MlflowClient

    hist = MlflowClient().get_metric_history(run.info.run_id, "train_loss")
    pts = sorted((m.step, m.value) for m in hist)
    keep("mlruns")
    write_truth(framework="mlflow (file store)", loss_name="train_loss", step_unit="the step logged with the metric",
                tolerance={"rel": 1e-9}, record="MlflowClient.get_metric_history(run_id, 'train_loss')",
                train_loss=pts, name="truth_store.json", run_id=run.info.run_id, **common)
    store_entry("mlruns", "truth_store.json")
