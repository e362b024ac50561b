"""PyTorch Tabular 1.2: a ``TabularModel`` (CategoryEmbedding or GANDALF) fitted on a synthetic table (numeric and
categorical columns), configured as its tutorials do (``DataConfig``, ``TrainerConfig``, ``OptimizerConfig``, a
model config, an ``ExperimentConfig`` with ``log_target="tensorboard"``).

It trains with PyTorch Lightning underneath and prints its own ``rich`` logging (``INFO  Preparing the DataLoaders``
...), the model summary table, and a progress bar: ``progress_bar="simple"`` (Lightning's tqdm bar, whose postfix
holds ``train_loss`` logged every step) or ``"rich"``; ``"none"`` prints no bar. Truth: the TensorBoard event file
Lightning's logger writes (``train_loss`` at its global step, every ``log_every_n_steps``); the store entry is that
event file, the run's only entry: rich draws no frame to a file until the end (one bar line, the last step's
values), so ``train.log`` is kept beside, unscored.
"""

from __future__ import annotations

import argparse
import glob
import os

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="category", choices=["category", "gandalf"])
ap.add_argument("--task", default="regression", choices=["regression", "classification"])
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--step-gamma", type=float, default=None, help="a StepLR every epoch with this gamma")
ap.add_argument("--bar", default="simple", choices=["simple", "rich", "none"])
ap.add_argument("--every", type=int, default=10, help="log_every_n_steps")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
from pytorch_tabular import TabularModel  # noqa: E402
from pytorch_tabular.config import DataConfig, ExperimentConfig, OptimizerConfig, TrainerConfig  # noqa: E402
from pytorch_tabular.models import CategoryEmbeddingModelConfig, GANDALFConfig  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
n = 4000
num = rng.normal(size=(n, 6))
cat = rng.integers(0, 5, size=(n, 2))
y = num @ rng.normal(size=6) + 0.8 * (cat[:, 0] == 2) - 0.5 * cat[:, 1] + 0.3 * rng.normal(size=n)
df = pd.DataFrame(num, columns=[f"x{i}" for i in range(6)])
df["c0"], df["c1"] = cat[:, 0].astype(str), cat[:, 1].astype(str)
df["target"] = y if a.task == "regression" else (y > np.median(y)).astype(int)
train, val = df.iloc[:3200], df.iloc[3200:]

data_config = DataConfig(target=["target"], continuous_cols=[f"x{i}" for i in range(6)], categorical_cols=["c0", "c1"])
trainer_config = TrainerConfig(batch_size=64, max_epochs=a.epochs, accelerator="cpu", progress_bar=a.bar,
                               early_stopping=None, checkpoints=None, load_best=False, seed=0,
                               trainer_kwargs={"log_every_n_steps": a.every})
optimizer_config = (OptimizerConfig() if a.step_gamma is None else  # a schedule bug: gamma > 1, the rate grows
                    OptimizerConfig(lr_scheduler="StepLR", lr_scheduler_params={"step_size": 1, "gamma": a.step_gamma}))
if a.model == "category":
    model_config = CategoryEmbeddingModelConfig(task=a.task, layers="64-32", learning_rate=a.lr, seed=0)
else:
    model_config = GANDALFConfig(task=a.task, gflu_stages=3, learning_rate=a.lr, seed=0)
experiment_config = ExperimentConfig(project_name="tb_logs", run_name="run", log_target="tensorboard", exp_watch=None)
model = TabularModel(data_config=data_config, model_config=model_config, optimizer_config=optimizer_config,
                     trainer_config=trainer_config, experiment_config=experiment_config, verbose=True)
model.fit(train=train, validation=val)

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

event = sorted(glob.glob("tb_logs/**/events.out.tfevents.*", recursive=True))[-1]
acc = EventAccumulator(event, size_guidance={"scalars": 0})
acc.Reload()
train_loss = [[e.step, e.value] for e in acc.Scalars("train_loss")]
keep(event, "events.out.tfevents.tabular")
store_entry("events.out.tfevents.tabular", "truth.json")  # the run's only series: the bar's non-TTY output is its
# last frame only (Lightning's rich bar: one line an epoch... drawn once at the end), so train.log is kept beside
write_truth(framework=f"pytorch-tabular {a.model}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="train_loss", step_unit="global step (Lightning's TensorBoard logger, every log_every_n_steps)",
            tolerance={"rel": 5e-3, "sig": 3}, record=f"TensorBoard event file ({os.path.basename(event)}): train_loss",
            train_loss=train_loss, log_series=False)
