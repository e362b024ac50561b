"""opacus: DP-SGD training of a small torch MLP with its ``PrivacyEngine.make_private`` (per-sample gradients
clipped to ``max_grad_norm``, Gaussian noise, Poisson sampling), logged as opacus' own examples log: the MNIST
example's ``tqdm`` bar over the batches (stderr) and, after each epoch, ``Train Epoch: 1 \\t Loss: 1.234567
(ε = 0.53, δ = 1e-05)`` (``print``, stdout, the epoch's mean batch loss, ``:.6f``); with ``--print-freq`` the
CIFAR-10 example's lines every N batches instead (``\\tTrain Epoch: 1 \\t Loss: 1.234567 Acc@1: 45.312500
(ε = 0.53, δ = 1e-05)``, the running mean of the epoch's batch losses; no step printed); with ``--val`` its
``\\tTest set: Loss: 1.234567 Acc: 51.250000`` after each epoch. Truth: the loop's own ``losses`` list (the
examples' record), at the epoch (the MNIST style) or the global batch (the CIFAR-10 style)."""

from __future__ import annotations

import argparse

import numpy as np
import torch
from h26_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--n", type=int, default=1024)
ap.add_argument("--lr", type=float, default=0.5)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "momentum", "rmsprop"])
ap.add_argument("--sigma", type=float, default=1.0, help="noise multiplier")
ap.add_argument("--clip", type=float, default=1.0, help="max_grad_norm")
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR gamma, stepped each epoch")
ap.add_argument("--print-freq", type=int, default=0, help="CIFAR-10 example style: a line every N batches")
ap.add_argument("--val", action="store_true")
ap.add_argument("--delta", type=float, default=1e-5)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import opacus  # noqa: E402
from opacus import PrivacyEngine  # noqa: E402
from tqdm import tqdm  # noqa: E402

g = torch.Generator().manual_seed(0)
n_val = a.n // 4
X = torch.randn(a.n + n_val, 16, generator=g)
if a.task == "cls":
    W = torch.randn(16, 5, generator=g)
    y = (X @ W + 0.5 * torch.randn(a.n + n_val, 5, generator=g)).argmax(1)
    criterion = torch.nn.CrossEntropyLoss()
    out_dim = 5
else:
    w = torch.randn(16, 1, generator=g)
    y = torch.tanh(X @ w) * 2 + 0.5 * X[:, :1] + 0.1 * torch.randn(a.n + n_val, 1, generator=g)
    criterion = torch.nn.MSELoss()
    out_dim = 1
train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[: a.n], y[: a.n]), batch_size=a.batch)
test_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[a.n:], y[a.n:]), batch_size=256)

model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.ReLU(), torch.nn.Linear(64, out_dim))
if a.optimizer == "adam":
    optimizer = torch.optim.Adam(model.parameters(), lr=a.lr)
elif a.optimizer == "rmsprop":
    optimizer = torch.optim.RMSprop(model.parameters(), lr=a.lr)
else:
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9 if a.optimizer == "momentum" else 0.0)

privacy_engine = PrivacyEngine()
model, optimizer, train_loader = privacy_engine.make_private(
    module=model, optimizer=optimizer, data_loader=train_loader, noise_multiplier=a.sigma, max_grad_norm=a.clip)
scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=a.gamma) if a.gamma else None
steps_per_epoch = len(train_loader)


def accuracy(out, target):
    return (out.argmax(1) == target).float().mean().item() if a.task == "cls" else 0.0


truth = []
evals = []
for epoch in range(1, a.epochs + 1):
    model.train()
    losses = []
    top1 = []
    batches = train_loader if a.print_freq else tqdm(train_loader)
    for i, (data, target) in enumerate(batches):
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        top1.append(accuracy(output, target))
        if a.print_freq and (i + 1) % a.print_freq == 0:
            epsilon = privacy_engine.get_epsilon(a.delta)
            print(f"\tTrain Epoch: {epoch} \t"
                  f"Loss: {np.mean(losses):.6f} "
                  f"Acc@1: {np.mean(top1) * 100:.6f} "
                  f"(ε = {epsilon:.2f}, δ = {a.delta})")
            truth.append(((epoch - 1) * steps_per_epoch + i + 1, float(np.mean(losses))))
    if not a.print_freq:
        epsilon = privacy_engine.get_epsilon(a.delta)
        print(f"Train Epoch: {epoch} \t"
              f"Loss: {np.mean(losses):.6f} "
              f"(ε = {epsilon:.2f}, δ = {a.delta})")
        truth.append((epoch, float(np.mean(losses))))
    if scheduler is not None:
        scheduler.step()
    if a.val:
        model.eval()
        vl, va = [], []
        with torch.no_grad():
            for data, target in test_loader:
                output = model(data)
                vl.append(criterion(output, target).item())
                va.append(accuracy(output, target))
        print(f"\tTest set: Loss: {np.mean(vl):.6f} Acc: {np.mean(va) * 100:.6f} ")
        evals.append((epoch * steps_per_epoch if a.print_freq else epoch, float(np.mean(vl))))

per_batch = bool(a.print_freq)
write_truth(framework=f"opacus {opacus.__version__}", settings=vars(a), loss_name="Loss",
            step_unit=("global batch, 1-based, across epochs (the lines print no step: every print_freq batches of"
                       " each epoch)") if per_batch else "epoch, 1-based (`Train Epoch: N`)",
            tolerance=tol_decimals(6),
            record="the loop's own `losses` list (opacus' examples' record: np.mean(losses) at each printed line)",
            train_loss=truth, eval_loss=evals if a.val else None, eval_name="Test set Loss" if a.val else None,
            **({"steps_per_epoch": steps_per_epoch} if per_batch else {}))
