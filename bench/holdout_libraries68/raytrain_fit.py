"""Ray Train: a tiny torch MLP trained by ``ray.train.torch.TorchTrainer`` with one CPU worker on a local Ray
instance (no cluster, no GPU), on synthetic regression or classification data. The training function reports each
epoch's metrics with ``ray.train.report``; Ray prints its own start-up lines, the worker group's messages and each
report, and writes the run's folder under ``storage_path``. Truth: the ``Result`` the fit returns
(``result.metrics_dataframe``: each report's metrics, kept with its checkpoint, ``loss`` at ``epoch``,
1-based; the checkpoints stay in a temporary folder, not kept)."""

from __future__ import annotations

import argparse
import os
import tempfile

from h68_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="reg", choices=["reg", "cls"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop"])
ap.add_argument("--gamma", type=float, default=1.0)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import ray  # noqa: E402
import ray.train  # noqa: E402
from ray.train import CheckpointConfig, RunConfig, ScalingConfig  # noqa: E402
from ray.train.torch import TorchTrainer  # noqa: E402


def train_func(cfg: dict) -> None:
    import os
    import tempfile

    import ray.train.torch as rtt
    import torch
    from torch import nn

    torch.manual_seed(0)
    torch.set_num_threads(1)
    g = torch.Generator().manual_seed(0)
    n, d = cfg["n"], 8
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, 1, generator=g)
    if cfg["task"] == "reg":
        y = x @ w + 0.1 * torch.randn(n, 1, generator=g)
        out, loss_fn = 1, nn.MSELoss()
    else:
        y = (x @ w).squeeze(1).gt(0).long()
        out, loss_fn = 2, nn.CrossEntropyLoss()
    cut = n * 4 // 5
    train_ds = torch.utils.data.TensorDataset(x[:cut], y[:cut])
    val_ds = torch.utils.data.TensorDataset(x[cut:], y[cut:])
    train_dl = rtt.prepare_data_loader(torch.utils.data.DataLoader(train_ds, batch_size=cfg["batch"], shuffle=True))
    val_dl = rtt.prepare_data_loader(torch.utils.data.DataLoader(val_ds, batch_size=cfg["batch"]))
    model = rtt.prepare_model(nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, out)))
    opt_cls = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "rmsprop": torch.optim.RMSprop}[cfg["optimizer"]]
    opt = opt_cls(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=cfg["gamma"])
    for epoch in range(1, cfg["epochs"] + 1):
        model.train()
        total, count = 0.0, 0
        for xb, yb in train_dl:
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
            count += len(xb)
        sched.step()
        metrics = {"epoch": epoch, "loss": total / count, "lr": sched.get_last_lr()[0]}
        if not cfg["no_val"]:
            model.eval()
            vt, vc = 0.0, 0
            with torch.no_grad():
                for xb, yb in val_dl:
                    vt += loss_fn(model(xb), yb).item() * len(xb)
                    vc += len(xb)
            metrics["val_loss"] = vt / vc
        with tempfile.TemporaryDirectory() as ckpt:
            torch.save(model.state_dict(), os.path.join(ckpt, "model.pt"))
            ray.train.report(metrics, checkpoint=ray.train.Checkpoint.from_directory(ckpt))


ray.init(num_cpus=1, include_dashboard=False)
storage = tempfile.mkdtemp(prefix="ray_results_")
trainer = TorchTrainer(train_func, train_loop_config=vars(a),
                       scaling_config=ScalingConfig(num_workers=1, use_gpu=False),
                       run_config=RunConfig(name="tiny_mlp", storage_path=storage,
                                            checkpoint_config=CheckpointConfig(num_to_keep=None)))
result = trainer.fit()
rows = result.metrics_dataframe.to_dict("records")
run_dir = os.path.join(storage, "tiny_mlp")
for root, _, files in os.walk(run_dir):
    for f in files:
        if f.endswith((".json", ".csv")) and os.path.getsize(os.path.join(root, f)) < 200_000:
            keep(os.path.join(root, f))
write_truth(framework=f"ray[train] {ray.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (the reported `epoch`)", tolerance={"rel": 1e-09, "abs": 0.0},
            record="the `Result` `TorchTrainer.fit()` returns (`metrics_dataframe`: `loss` at `epoch`)",
            train_loss=[(int(r["epoch"]), r["loss"]) for r in rows],
            eval_loss=None if a.no_val else [(int(r["epoch"]), r["val_loss"]) for r in rows],
            eval_name=None if a.no_val else "val_loss")
ray.shutdown()
