"""torch_ecg: a small 1-D CNN classifying synthetic 2-lead "ECG" windows (sine rhythms of three rates with noise,
no download), trained by a subclass of torch_ecg's own ``BaseTrainer`` (``torch_ecg.components.trainer``) as its
benchmarks do: the subclass gives the data loaders, one step and the evaluation; the trainer's ``train()`` runs the
epochs, its optimizer / scheduler / criterion from the train config, its tqdm bar (``loss (batch)=...``) and its
``LoggerManager`` (a text logger printing to stdout and to a ``.txt`` file, a CSV logger). Truth: the CSV logger's
file (``loss`` of the ``train`` rows at ``step``: the global step, 1-based, every ``log_step`` steps)."""

from __future__ import annotations

import argparse
from pathlib import Path

from h78_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--lr", type=float, default=0.003)
ap.add_argument("--optimizer", default="adam")
ap.add_argument("--scheduler", default="none")
ap.add_argument("--gamma", type=float, default=0.5)
ap.add_argument("--step-size", type=int, default=2)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=192)
ap.add_argument("--log-step", type=int, default=4)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--no-monitor", action="store_true")
ap.add_argument("--momentum", type=float, default=0.9)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader, Dataset  # noqa: E402
from torch_ecg.cfg import CFG  # noqa: E402
from torch_ecg.components.trainer import BaseTrainer  # noqa: E402

torch.set_num_threads(1)
CLASSES = ["brady", "normal", "tachy"]
FS, SECONDS = 100, 4


class SynthECG(Dataset):
    """Windows of 2 leads, a spiky rhythm at a class' rate with baseline wander and noise."""

    def __init__(self, config: CFG, training: bool = True, lazy: bool = False) -> None:
        rng = np.random.default_rng(0 if training else 1)
        n = config.n_train if training else config.n_val
        t = np.arange(FS * SECONDS) / FS
        self.y = rng.integers(0, 3, size=n)
        rate = np.array([0.8, 1.2, 2.0])[self.y] * rng.uniform(0.9, 1.1, size=n)
        phase = rng.uniform(0, 2 * np.pi, size=n)
        beat = np.sin(2 * np.pi * rate[:, None] * t[None] + phase[:, None]) ** 15
        wander = 0.3 * np.sin(2 * np.pi * rng.uniform(0.1, 0.3, size=(n, 1)) * t[None])
        lead1 = beat + wander + 0.25 * rng.normal(size=beat.shape)
        lead2 = 0.6 * beat - wander + 0.25 * rng.normal(size=beat.shape)
        self.x = np.stack([lead1, lead2], 1).astype("float32")

    def __len__(self) -> int:
        return len(self.y)

    def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        return self.x[i], np.eye(3, dtype="float32")[self.y[i]]


class SmallCNN(nn.Module):
    __name__ = "SmallCNN"

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(2, 8, 9, padding=4), nn.BatchNorm1d(8), nn.ReLU(), nn.MaxPool1d(4),
                                 nn.Conv1d(8, 16, 9, padding=4), nn.BatchNorm1d(16), nn.ReLU(),
                                 nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(16, 3))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class SynthTrainer(BaseTrainer):
    """The trainer subclass torch_ecg asks for: loaders, one step, the evaluation."""

    __name__ = "SynthTrainer"

    def _setup_dataloaders(self, train_dataset: Dataset | None = None, val_dataset: Dataset | None = None) -> None:
        train_dataset = train_dataset or self.dataset_cls(config=self.train_config, training=True)
        self.train_loader = DataLoader(train_dataset, batch_size=self.batch_size, shuffle=True,
                                       generator=torch.Generator().manual_seed(0))
        if self.train_config.debug:
            self.val_train_loader = DataLoader(train_dataset, batch_size=64, shuffle=False)
        if not self.train_config.no_val:
            val_dataset = val_dataset or self.dataset_cls(config=self.train_config, training=False)
            self.val_loader = DataLoader(val_dataset, batch_size=64, shuffle=False)

    def run_one_step(self, *data: torch.Tensor) -> tuple[torch.Tensor, ...]:
        signals, labels = data[0].to(self.device), data[1].to(self.device)
        return self.model(signals), labels

    @torch.no_grad()
    def evaluate(self, data_loader: DataLoader) -> dict[str, float]:
        self.model.eval()
        right = total = 0
        for x, y in data_loader:
            right += int((self.model(x).argmax(1) == y.argmax(1)).sum())
            total += len(y)
        self.model.train()
        return {"accuracy": right / total}

    @property
    def batch_dim(self) -> int:
        return 0

    @property
    def extra_required_train_config_fields(self) -> list[str]:
        return []


cfg = CFG(classes=CLASSES, n_epochs=a.epochs, batch_size=a.batch, log_step=a.log_step, optimizer=a.optimizer,
          learning_rate=a.lr, lr=a.lr, momentum=a.momentum, lr_scheduler=a.scheduler, lr_step_size=a.step_size,
          lr_gamma=a.gamma, max_lr=a.lr, loss="BCEWithLogitsLoss",
          monitor=None if a.no_monitor else "accuracy", log_dir=Path("log"), checkpoints=Path("checkpoints"),
          model_dir=Path("saved_models"), keep_checkpoint_max=0, debug=True, n_train=a.n, n_val=a.n // 4,
          no_val=a.no_val)
trainer = SynthTrainer(model=SmallCNN(), dataset_cls=SynthECG, model_config={"name": "SmallCNN"}, train_config=cfg,
                       device=torch.device("cpu"))
trainer.train()

csvs = sorted(Path("log").glob("*.csv"))
txts = sorted(Path("log").glob("*.txt"))
df = pd.read_csv(csvs[0])
rows = df[(df["part"] == "train") & df["loss"].notna()]
for own in csvs + txts:
    keep(own)
import torch_ecg  # noqa: E402

write_truth(framework=f"torch-ecg {torch_ecg.__version__}", settings=vars(a), loss_name="train/loss",
            step_unit="global step, 1-based, across epochs (`Epoch 2 / Step 40: train/loss : 0.4567`)",
            tolerance=tol_decimals(4),
            record=f"torch_ecg's CSVLogger file `{csvs[0].name}` (`loss` of the `train` rows at `step`)",
            train_loss=[(int(s), float(v)) for s, v in zip(rows["step"], rows["loss"], strict=True)],
            steps_per_epoch=-(-a.n // a.batch))
