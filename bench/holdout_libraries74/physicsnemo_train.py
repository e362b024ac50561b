"""NVIDIA PhysicsNeMo: a tiny custom PhysicsNeMo model (a ``physicsnemo.Module`` with its ``ModelMetaData``: an
MLP, or a small 1D spectral-convolution net) trained as the PhysicsNeMo examples train: a ``StaticCaptureTraining``
step (AMP and CUDA graphs off on CPU), ``LaunchLogger`` contexts per epoch (``"train"`` with ``log_minibatch``,
``"valid"`` with ``log_epoch``) and a ``PythonLogger`` that also writes ``launch.log``. The console handler is the
user's ``logging.basicConfig`` (the examples get theirs from Hydra). The task is a synthetic operator: u -> a fixed
low-pass filter of u, on random Fourier inputs. LaunchLogger prints ``Epoch 3 Metrics: loss =  1.234e-01``
(``%10.3e``) after each epoch and, every ``mini_batch_log_freq`` batches, ``[50.00%] Mini-Batch Losses: loss =
1.234e-01``. Truth: the launch logger's own epoch record (``LaunchLogger.epoch_losses["loss"]``, the mean of the
epoch's mini-batch losses) at its ``epoch``."""

from __future__ import annotations

import argparse
import logging
import math

from h74_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="spectral", choices=["spectral", "mlp"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adamw"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--gamma", type=float, default=1.0, help="ExponentialLR factor per epoch")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=128)
ap.add_argument("--grid", type=int, default=32)
ap.add_argument("--mb-freq", type=int, default=100, help="LaunchLogger mini_batch_log_freq")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--fmt", default="hydra", choices=["hydra", "default", "plain"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402

torch.set_num_threads(1)
FORMATS = {"hydra": "[%(asctime)s][%(name)s][%(levelname)s] - %(message)s", "default": logging.BASIC_FORMAT,
           "plain": "%(message)s"}
logging.basicConfig(level=logging.INFO, format=FORMATS[a.fmt])

import physicsnemo  # noqa: E402
from physicsnemo.core import Module  # noqa: E402
from physicsnemo.core.meta import ModelMetaData  # noqa: E402
from physicsnemo.distributed import DistributedManager  # noqa: E402
from physicsnemo.utils.capture import StaticCaptureEvaluateNoGrad, StaticCaptureTraining  # noqa: E402
from physicsnemo.utils.logging import LaunchLogger, PythonLogger  # noqa: E402

DistributedManager.initialize()
dist = DistributedManager()
log = PythonLogger(name="main")
log.file_logging()
LaunchLogger.initialize()

g = torch.Generator().manual_seed(0)


def make(n: int) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.linspace(0, 1, a.grid)
    k = torch.arange(1, 9, dtype=torch.float32)
    coef = torch.randn(n, 8, generator=g) / k
    u = (coef[:, :, None] * torch.sin(math.pi * k[None, :, None] * x[None, None, :])).sum(1)
    v = (coef[:, :, None] / (1 + 0.5 * k[None, :, None] ** 2) * torch.sin(math.pi * k[None, :, None] * x)).sum(1)
    return u[:, None, :], v[:, None, :]


u_tr, v_tr = make(a.n)
u_va, v_va = make(max(16, a.n // 4))


class Spectral1D(Module):
    """A small 1D spectral-convolution net (lift, two Fourier layers on the lowest modes, project)."""

    def __init__(self, width: int = 8, modes: int = 6) -> None:
        super().__init__(meta=ModelMetaData())
        self.modes = modes
        self.lift = torch.nn.Conv1d(1, width, 1)
        self.w = torch.nn.ParameterList([torch.nn.Parameter(torch.randn(width, width, modes, 2) / width)
                                         for _ in range(2)])
        self.skip = torch.nn.ModuleList([torch.nn.Conv1d(width, width, 1) for _ in range(2)])
        self.proj = torch.nn.Sequential(torch.nn.Conv1d(width, 16, 1), torch.nn.GELU(), torch.nn.Conv1d(16, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.lift(x)
        for w, skip in zip(self.w, self.skip, strict=True):
            f = torch.fft.rfft(h)
            out = torch.zeros_like(f)
            out[..., : self.modes] = torch.einsum("bim,iom->bom", f[..., : self.modes], torch.view_as_complex(w))
            h = torch.nn.functional.gelu(torch.fft.irfft(out, n=h.shape[-1]) + skip(h))
        return self.proj(h)


class MLP(Module):
    """A small fully connected net on the whole grid."""

    def __init__(self, n: int) -> None:
        super().__init__(meta=ModelMetaData())
        self.net = torch.nn.Sequential(torch.nn.Linear(n, 32), torch.nn.SiLU(), torch.nn.Linear(32, 32),
                                       torch.nn.SiLU(), torch.nn.Linear(32, n))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


model: Module
if a.model == "spectral":
    model = Spectral1D()
else:
    model = MLP(a.grid)
    u_tr, v_tr, u_va, v_va = (t[:, 0, :] for t in (u_tr, v_tr, u_va, v_va))
model = model.to(dist.device)
opt_cls = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD, "adamw": torch.optim.AdamW}[a.optimizer]
optimizer = opt_cls(model.parameters(), lr=a.lr)
scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=a.gamma)
loss_fun = torch.nn.MSELoss(reduction="mean")


@StaticCaptureTraining(model=model, optim=optimizer, logger=log, use_amp=False, use_graphs=False)
def training_step(invar: torch.Tensor, outvar: torch.Tensor) -> torch.Tensor:
    return loss_fun(model(invar), outvar)


@StaticCaptureEvaluateNoGrad(model=model, logger=log, use_amp=False, use_graphs=False)
def forward_eval(invar: torch.Tensor) -> torch.Tensor:
    return model(invar)


n_batches = math.ceil(a.n / a.batch)
log.success("Training started...")
train_record: list[tuple[int, float]] = []
val_record: list[tuple[int, float]] = []
for epoch in range(1, a.epochs + 1):
    perm = torch.randperm(a.n, generator=g)
    with LaunchLogger("train", epoch=epoch, num_mini_batch=n_batches, mini_batch_log_freq=a.mb_freq,
                      epoch_alert_freq=1) as lg:
        for i in range(n_batches):
            idx = perm[i * a.batch:(i + 1) * a.batch]
            loss = training_step(u_tr[idx], v_tr[idx])
            lg.log_minibatch({"loss": loss.detach()})
        lg.log_epoch({"Learning Rate": optimizer.param_groups[0]["lr"]})
    train_record.append((epoch, float(lg.epoch_losses["loss"])))
    scheduler.step()
    if not a.no_val:
        with LaunchLogger("valid", epoch=epoch) as lv:
            err = loss_fun(forward_eval(u_va), v_va)
            lv.log_epoch({"Validation error": err.item()})
        val_record.append((epoch, float(lv.epoch_losses["Validation error"])))
log.success("Training completed *yay*")

keep("launch.log")
write_truth(framework=f"nvidia-physicsnemo {physicsnemo.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch 3 Metrics:`)", tolerance=tol_sig(4),
            record="the LaunchLogger's own epoch record (`epoch_losses['loss']`, the mean of the epoch's "
                   "mini-batch losses) at its `epoch`",
            train_loss=train_record, eval_loss=val_record or None,
            eval_name="Validation error" if val_record else None)
