"""A user's DistributedDataParallel script launched by ``torchrun --nproc-per-node 2 --tee 3`` on CPU (gloo):
every line of both ranks reaches the log with the launcher's prefix (``[default0]:``, ``[default1]:``).

Printing styles: ``local`` (each rank prints its own batch loss: the ranks' values differ), ``reduced`` (each
rank prints the all-reduced mean: the same value twice), ``rank0`` (rank 0 prints, rank 1 only its setup lines).
Truth: the values rank 0 printed, kept at full precision, at the global optimizer step (1-based).
"""

from __future__ import annotations

import argparse
import math

from _truth import common_args, settings_of, write_truth

p = argparse.ArgumentParser()
p.add_argument("--style", default="local")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--every", type=int, default=5)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--raise-on-nan", action="store_true", help="each rank raises once its loss is not finite")
common_args(p)
args = p.parse_args()

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: E402
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset  # noqa: E402

torch.set_num_threads(1)
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(args.seed)
X = torch.randn(1200, 10)
y = (X @ torch.randn(10, 1) + 0.3 * torch.sin(3 * X[:, :1]) + 0.1 * torch.randn(1200, 1))
ds = TensorDataset(X, y)
sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=args.seed)
dl = DataLoader(ds, batch_size=32, sampler=sampler)
model = DDP(torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1)))
opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)


def truth_args(printed: list) -> dict:
    return dict(framework="torch DDP (torchrun --tee 3)", settings=settings_of(args), label=args.label,
                should_stop=args.should_stop, loss_name="loss", step_unit="global optimizer step (1-based)",
                tolerance={"abs": 5e-6, "rel": 1e-5}, record="the values rank 0 printed, at full precision",
                train_loss=printed)


print(f"rank {rank}/{world} ready, {len(dl)} batches per epoch", flush=True)
step, printed = 0, []
for epoch in range(args.epochs):
    sampler.set_epoch(epoch)
    for xb, yb in dl:
        loss = torch.nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % args.every:
            continue
        value = loss.detach().clone()
        if args.style == "reduced":
            dist.all_reduce(value)
            value /= world
        v = float(value)
        if args.style != "rank0" or rank == 0:
            print(f"epoch {epoch} step {step} loss {v:.5f}")
        if rank == 0:
            printed.append((step, v))
            if args.raise_on_nan and not math.isfinite(v):
                write_truth(**truth_args(printed))
        if args.raise_on_nan and not math.isfinite(v):
            raise FloatingPointError(f"rank {rank}: loss is {v} at step {step}")
    if rank == 0 or args.style == "local":
        print(f"epoch {epoch} done")
dist.barrier()
dist.destroy_process_group()
if rank == 0:
    write_truth(**truth_args(printed))
