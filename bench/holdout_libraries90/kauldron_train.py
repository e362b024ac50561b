"""kauldron: Google's JAX trainer started as its users start it, ``python -m kauldron.main --cfg=cfg.py
--cfg.workdir=...``, on a config file written here (``get_config()`` returning a ``kd.train.Trainer`` konfig: a tiny
Flax MLP as ``kd.nn.Sequential``, ``kd.data.InMemoryPipeline`` over synthetic data from a small module beside it,
``kd.losses.SoftmaxCrossEntropyWithIntLabels`` or ``kd.losses.L2``, optax optimizers and schedules, optionally
``kd.metrics`` and a ``kd.evals.Evaluator`` on held-out data). The trainer prints its config and context tables, tqdm
bars (``train: 18%|...| 11/61``) and, every ``log_metrics_every`` steps, clu's ``LoggingWriter`` line on stderr
(absl: ``I1207 ... logging_writer.py:48] [20] collection=train losses/total=0.9484937787055969, losses/xent=...``).
Truth: the TensorBoard event files its ``KDMetricWriter`` writes into the workdir (``losses/total`` of the ``train``
collection at kauldron's step, 0-based), read back with TensorFlow; the config file and event files are kept."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from h90_truth import keep, tol_sig, write_truth

DATA = '''"""Synthetic data for the kauldron config (loaders of kd.data.InMemoryPipeline)."""
import numpy as np

TASK, N = {task!r}, {n}


def _all():
    rng = np.random.default_rng(0)
    n = N + N // 4
    x = rng.normal(size=(n, 8)).astype("float32")
    if TASK == "cls":
        w = rng.normal(size=(8, 4))
        y = (x @ w + 0.5 * rng.normal(size=(n, 4))).argmax(1)[:, None].astype("int32")
    else:
        w = rng.normal(size=(8, 1))
        y = (np.sin(x @ w) * 2 + x[:, :1] ** 2 + 0.1 * rng.normal(size=(n, 1))).astype("float32")
    return x, y


def train_data():
    x, y = _all()
    return {{"x": x[:N], "y": y[:N]}}


def eval_data():
    x, y = _all()
    return {{"x": x[N:], "y": y[N:]}}
'''

CFG = '''from kauldron import konfig

with konfig.imports():
    from flax import linen as nn
    from kauldron import kd
    import optax
    import h90data


def get_config():
    cfg = kd.train.Trainer()
    cfg.seed = 0
    cfg.train_ds = kd.data.InMemoryPipeline(loader=h90data.train_data, batch_size={batch}, shuffle=True)
    cfg.model = kd.nn.Sequential(
        inputs="batch.x",
        layers=[nn.Dense({width}), nn.relu, nn.Dense({width}), nn.relu, nn.Dense({out})],
    )
    cfg.num_train_steps = {steps}
    cfg.log_metrics_every = {log_every}
    cfg.train_losses = {{"{loss_name}": {loss}}}
{metrics}    cfg.schedules = {{"learning_rate": {schedule}}}
    cfg.optimizer = optax.{optimizer}(learning_rate=cfg.ref.schedules["learning_rate"])
{evals}    return cfg
'''

LOSSES = {"cls": ('xent', 'kd.losses.SoftmaxCrossEntropyWithIntLabels(logits="preds", labels="batch.y")'),
          "reg": ('l2', 'kd.losses.L2(preds="preds", targets="batch.y")')}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--task", default="cls", choices=["cls", "reg"])
    ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adamw", "rmsprop"])
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--schedule", default="const", choices=["const", "cosine", "warmup_cosine", "growth"])
    ap.add_argument("--growth", type=float, default=1.0, help="growth: the rate multiplied by this every --every")
    ap.add_argument("--every", type=int, default=10, help="growth: steps between multiplications")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--log-every", type=int, default=20)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--metrics", action="store_true", help="train_metrics: accuracy / norms")
    ap.add_argument("--eval-every", type=int, default=0, help="a kd.evals.Evaluator every N steps (0: none)")
    ap.add_argument("--label", default="healthy")
    ap.add_argument("--should-stop", action="store_true")
    a = ap.parse_args()

    loss_name, loss = LOSSES[a.task]
    schedule = {"const": f"optax.constant_schedule({a.lr})",
                "cosine": f"optax.cosine_decay_schedule(init_value={a.lr}, decay_steps={a.steps})",
                "warmup_cosine": (f"optax.warmup_cosine_decay_schedule(init_value=0.0, peak_value={a.lr}, "
                                  f"warmup_steps={a.steps // 10}, decay_steps={a.steps})"),
                "growth": (f"optax.exponential_decay(init_value={a.lr}, transition_steps={a.every}, "
                           f"decay_rate={a.growth})")}[a.schedule]
    metrics = ""
    if a.metrics:
        m = ('"accuracy": kd.metrics.Accuracy(logits="preds", labels="batch.y"), ' if a.task == "cls" else "")
        metrics = ("    cfg.train_metrics = {" + m
                   + '"grad_norm": kd.metrics.TreeReduce(metric=kd.metrics.Norm(tensor="grads", axis=None))}\n')
    evals = ""
    if a.eval_every:
        evals = ('    cfg.evals = {\n        "eval": kd.evals.Evaluator(\n'
                 f'            run=kd.evals.EveryNSteps({a.eval_every}),\n'
                 '            num_batches=None,\n'
                 f'            ds=kd.data.InMemoryPipeline(loader=h90data.eval_data, batch_size={a.batch}, '
                 'num_epochs=1),\n'
                 f'            losses={{"{loss_name}": {loss}}},\n'
                 '            metrics={},\n        ),\n    }\n')
    here = Path.cwd()
    (here / "h90data.py").write_text(DATA.format(task=a.task, n=a.n))
    (here / "cfg.py").write_text(CFG.format(batch=a.batch, width=a.width, out=4 if a.task == "cls" else 1,
                                            steps=a.steps, log_every=a.log_every, loss_name=loss_name, loss=loss,
                                            metrics=metrics, schedule=schedule, optimizer=a.optimizer,
                                            evals=evals))
    workdir = Path(tempfile.mkdtemp(prefix="kd-"))
    sys.stdout.flush()
    # the trainer's own command line; its output goes where this one's goes
    rc = subprocess.run([sys.executable, "-m", "kauldron.main", "--cfg=cfg.py", f"--cfg.workdir={workdir}"],
                        cwd=here).returncode

    import tensorflow as tf
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    def series(folder: Path, tag: str) -> list[tuple[int, float]]:
        acc = EventAccumulator(str(folder), size_guidance={"tensors": 0, "scalars": 0})
        acc.Reload()
        if tag in acc.Tags().get("scalars", []):
            return [(e.step, e.value) for e in acc.Scalars(tag)]
        if tag in acc.Tags().get("tensors", []):
            return [(e.step, float(tf.make_ndarray(e.tensor_proto))) for e in acc.Tensors(tag)]
        return []

    train = series(workdir / "train", "losses/total")
    if not train:
        raise SystemExit(f"no train/losses/total in {workdir} (exit {rc})")
    ev = series(workdir / "eval", "losses/total") if a.eval_every and (workdir / "eval").is_dir() else []
    keep(here / "cfg.py")
    for f in sorted(workdir.glob("*/events.out.tfevents.*")):
        keep(f, f"{f.parent.name}.{f.name}")
    from importlib.metadata import version
    write_truth(framework=f"kauldron {version('kauldron')}", settings=vars(a), loss_name="losses/total",
                step_unit="step, 0-based (`[20] collection=train ...`)", tolerance=tol_sig(7),
                record="the TensorBoard event files its KDMetricWriter writes (`train/losses/total`)",
                train_loss=train, eval_loss=ev or None, eval_name="losses/total (eval)" if ev else None,
                exit_code=rc)
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
