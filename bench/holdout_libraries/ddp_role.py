"""torch.distributed (DDP on gloo, CPU) under ``torchrun --role NAME --tee 3`` (every line a rank prints gets
the launcher's ``[NAME<local_rank>]:`` prefix) or as a Slurm job step under ``srun --label`` (``0: ``, ``1: ``;
see srun_launch.py).

``--print-all``: every rank prints its own loss (a common mistake: the ranks' values differ, each a shard's
loss); otherwise rank 0 only prints. The truth is rank 0's loss values (``loss.item()`` on rank 0, full
precision) at the 1-based optimizer step it printed.
"""

from __future__ import annotations

import argparse
import os

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=120)
ap.add_argument("--every", type=int, default=5)
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--ramp", type=float, default=1.0)
ap.add_argument("--print-all", action="store_true")
ap.add_argument("--fmt", default="step", choices=["step", "logging"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import logging  # noqa: E402

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: E402

if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:  # a Slurm job step (srun): its task ids
    os.environ.update(RANK=os.environ["SLURM_PROCID"], WORLD_SIZE=os.environ["SLURM_NTASKS"],
                      LOCAL_RANK=os.environ.get("SLURM_LOCALID", "0"))
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
g = torch.Generator().manual_seed(100 + rank)
model = DDP(torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.Tanh(), torch.nn.Linear(64, 4)))
opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: a.ramp ** s)
W = torch.randn(16, 4, generator=torch.Generator().manual_seed(7))
if a.fmt == "logging":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("train")
pts = []
for step in range(1, a.steps + 1):
    x = torch.randn(32, 16, generator=g)
    yy = (x @ W).argmax(1)
    loss = torch.nn.functional.cross_entropy(model(x), yy)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % a.every == 0 and (rank == 0 or a.print_all):
        if a.fmt == "step":
            print(f"step {step}/{a.steps} | loss {loss.item():.4f} | lr {sched.get_last_lr()[0]:.4g}", flush=False)
        else:
            log.info("rank %d step %d loss=%.5f", rank, step, loss.item())
        if rank == 0:
            pts.append((step, loss.item()))
dist.barrier()
dist.destroy_process_group()
if rank == 0:
    launcher = "srun --label" if "SLURM_PROCID" in os.environ else "torchrun --role --tee 3"
    write_truth(framework=f"torch.distributed ({launcher})", settings=vars(a) | {"world": world},
                label=a.label, should_stop=a.should_stop, loss_name="loss",
                step_unit="optimizer step, 1-based (rank 0's)",
                tolerance={"rel": 1e-9, "abs": 5.1e-5 if a.fmt == "step" else 5.1e-6},
                record="rank 0's loss.item() values at the steps it printed", train_loss=pts)
