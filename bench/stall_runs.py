"""Generate examples/stalls: tiny models REALLY trained on the CPU that stop learning long before their planned end,
and healthy controls of the same models (issue 29, item 2).

Run once by hand (not in CI). Needs torch (the ``bench`` extra's CPU build, in a separate venv)::

    ~/venvs/judgement/bin/python bench/stall_runs.py [--out examples/stalls] [--only NAME ...]

The four kinds, each produced by the training itself (never by editing logged numbers):

- ``exp_per_iter``: ``ExponentialLR(gamma=0.98)`` meant per epoch but stepped per iteration: the LR falls from
  4e-3 to ~5e-11 by a fifth of the run and the loss freezes high;
- ``bias_only``: the optimizer re-created at 8 % of the run over the output layer's bias alone (a fine-tuning
  "freeze" gone wrong): the loss sits where it was for the rest of the run;
- ``lr_typo``: a peak LR of 3e-7 (a typo for 3e-3) with a warmup and a cosine decay: the loss never moves;
- ``ddp_per_iter``: two processes under ``torchrun --tee 3`` (CPU, gloo, DistributedDataParallel) whose per-epoch
  ``StepLR``/``ExponentialLR`` is stepped per iteration; the log is torchrun's console, each line ``[default0]:``...

Healthy controls: the same models with the schedule stepped per epoch, the whole model in the optimizer, the
intended 3e-3, the DDP run with its schedule per epoch, and a run whose cosine LR decays to 0 at its very end
and converges. Every log states its planned length (``[n/N]``, ``total_steps=``, or epochs of ``n/N`` batches).
Each run folder holds ``train.log`` and ``label.json`` (``label``, ``category``, ``cause``, ``onset_step``,
``why``, ``source``; no ``total_steps``: the bench takes the length the log states, as a cron check does).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

try:
    import torch
    import torch.nn.functional as F
except ImportError as err:  # pragma: no cover - generator-only dependency
    raise SystemExit("bench/stall_runs.py needs torch (pip install torch==2.13.0, CPU wheel)") from err

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_corpus import MLP, CharData, CharRNN, teacher_classification, teacher_regression  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "examples" / "stalls"


@dataclass
class Spec:
    name: str
    kind: str  # exp_per_iter | bias_only | lr_typo | ddp_per_iter | healthy
    label: str  # lr-schedule | plateau | healthy
    cause: str | None
    why: str
    task: str = "cls"  # cls | reg | char
    steps: int = 3000  # planned optimizer steps
    per_epoch: int = 150  # batches per epoch
    lr: float = 4e-3
    schedule: str = "constant"  # constant | exp_iter | exp_epoch | step_iter | step_epoch | cosine
    warmup: int = 0
    bias_only_at: float | None = None  # share of the run where the optimizer is re-created over the output bias
    log_every: int = 10
    style: str = "bracket"  # bracket: [n/N] ... | total: total_steps=N header | epoch: Epoch e/E [b/B]
    hidden: int = 64
    seed: int = 0
    ranks: int = 1


def build(s: Spec):
    torch.manual_seed(s.seed)
    if s.task == "cls":
        x, y = teacher_classification(4000, s.seed)
        model: torch.nn.Module = MLP(32, s.hidden, 10, 2)
    elif s.task == "reg":
        x, y = teacher_regression(4000, s.seed)
        model = MLP(16, s.hidden, 1, 2)
    else:
        data = CharData(20000, 2000, s.seed)
        model = CharRNN(len(data.vocab), s.hidden, "gru")

    def batch(gen: torch.Generator):
        if s.task == "char":
            return data.batch(data.train, 32, 24, gen)
        idx = torch.randint(0, len(x), (64,), generator=gen)
        return x[idx], y[idx]

    def loss_of(out, yy):
        if s.task == "reg":
            return F.mse_loss(out, yy)
        return F.cross_entropy(out.reshape(-1, out.shape[-1]), yy.reshape(-1))

    return model, batch, loss_of


def scheduler(s: Spec, opt):
    if s.schedule.startswith("exp"):
        return torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.98)
    if s.schedule.startswith("step"):
        return torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    if s.schedule == "cosine":
        def f(i: int) -> float:
            if i < s.warmup:
                return (i + 1) / s.warmup
            return 0.5 * (1 + math.cos(math.pi * min(1.0, (i - s.warmup) / max(1, s.steps - s.warmup))))
        return torch.optim.lr_scheduler.LambdaLR(opt, f)
    return None


def line(s: Spec, step: int, loss: float, lr: float, gn: float) -> str:
    if s.style == "bracket":
        return f"[{step}/{s.steps}] loss: {loss:.4f} | lr: {lr:.3e} | grad_norm: {gn:.4f}"
    if s.style == "total":
        return f"step {step} loss={loss:.4f} lr={lr:.3e} grad_norm={gn:.4f}"
    epochs = s.steps // s.per_epoch
    e, b = (step - 1) // s.per_epoch + 1, (step - 1) % s.per_epoch + 1
    return f"Epoch {e}/{epochs} [{b}/{s.per_epoch}] loss {loss:.4f} lr {lr:.3e} grad_norm {gn:.4f}"


def train(s: Spec, rank: int = 0, world: int = 1, emit=print) -> None:
    model, batch, loss_of = build(s)
    if world > 1:
        model = torch.nn.parallel.DistributedDataParallel(model)
    gen = torch.Generator().manual_seed(s.seed + 1000 + rank)
    opt = torch.optim.Adam(model.parameters(), lr=s.lr)
    sched = scheduler(s, opt)
    if s.style == "total":
        emit(f"training config: lr={s.lr} total_steps={s.steps} schedule={s.schedule} seed={s.seed}")
    else:
        emit(f"training: {s.steps} steps ({s.steps // s.per_epoch} epochs of {s.per_epoch} batches), lr {s.lr}")
    for step in range(1, s.steps + 1):
        if s.bias_only_at is not None and step == int(s.bias_only_at * s.steps):
            out_bias = list(model.parameters())[-1]
            opt = torch.optim.Adam([out_bias], lr=s.lr)  # the bug: only the output bias is optimised from here
            sched = scheduler(s, opt)
        xb, yb = batch(gen)
        opt.zero_grad(set_to_none=True)
        loss = loss_of(model(xb), yb)
        loss.backward()
        norms = [p.grad.norm() for p in model.parameters() if p.grad is not None]
        gn = float(torch.norm(torch.stack(norms))) if norms else 0.0
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        lr = opt.param_groups[0]["lr"]
        opt.step()
        if sched is not None and (s.schedule.endswith("iter") or s.schedule == "cosine" or step % s.per_epoch == 0):
            sched.step()  # the bug in *_iter: a per-epoch schedule stepped every iteration
        if step % s.log_every == 0 and rank == 0:
            emit(line(s, step, float(loss.detach()), lr, gn))
    if rank == 0:
        emit("training finished")


def specs() -> list[Spec]:
    out: list[Spec] = []
    add = out.append
    # ExponentialLR(0.98) stepped per iteration: 4e-3 * 0.98**900 ~ 5e-11 at a fifth of a 4500-step run
    for i, (task, style, seed) in enumerate([("cls", "bracket", 1), ("reg", "total", 2), ("char", "epoch", 3)]):
        add(Spec(f"exp_per_iter_{i + 1}", "exp_per_iter", "lr-schedule", "lr_schedule",
                 "ExponentialLR(gamma=0.98) meant per epoch, stepped per iteration: the LR is ~0 by a fifth of "
                 "the run", task, steps=4500, schedule="exp_iter", style=style, seed=seed))
    for i, (task, style, seed) in enumerate([("cls", "bracket", 1), ("reg", "total", 2)]):
        add(Spec(f"healthy_exp_per_epoch_{i + 1}", "healthy", "healthy", None,
                 "ExponentialLR(gamma=0.98) stepped per epoch (150 batches), as meant", task, steps=4500,
                 schedule="exp_epoch", style=style, seed=seed))
    # the optimizer re-created over the output bias alone at 8 % of the run
    for i, (task, style, seed) in enumerate([("cls", "bracket", 11), ("char", "total", 12), ("reg", "epoch", 13)]):
        add(Spec(f"bias_only_{i + 1}", "bias_only", "plateau", "no_learning",
                 "the optimizer re-created at 8% of the run over the output layer's bias only", task, steps=3000,
                 lr=3e-3, bias_only_at=0.08, style=style, seed=seed))
    for i, (task, style, seed) in enumerate([("cls", "bracket", 11), ("char", "total", 12)]):
        add(Spec(f"healthy_full_optimizer_{i + 1}", "healthy", "healthy", None,
                 "the same model with the whole model in the optimizer all run", task, steps=3000, lr=3e-3,
                 style=style, seed=seed))
    # a peak LR of 3e-7 (a typo for 3e-3), warmup + cosine
    for i, (task, style, seed) in enumerate([("cls", "total", 21), ("char", "bracket", 22), ("reg", "epoch", 23)]):
        add(Spec(f"lr_typo_{i + 1}", "lr_typo", "plateau", "lr_too_low",
                 "peak LR 3e-7 (a typo for 3e-3) with a 100-step warmup and a cosine decay: nothing moves", task,
                 steps=3000, lr=3e-7, schedule="cosine", warmup=100, style=style, seed=seed))
    for i, (task, style, seed) in enumerate([("cls", "total", 21), ("char", "bracket", 22)]):
        add(Spec(f"healthy_cosine_to_zero_{i + 1}", "healthy", "healthy", None,
                 "peak LR 3e-3, 100-step warmup, cosine decay to 0 at the run's last step: converges", task,
                 steps=3000, lr=3e-3, schedule="cosine", warmup=100, style=style, seed=seed))
    # two processes under torchrun --tee 3, a per-epoch schedule stepped per iteration
    add(Spec("ddp_per_iter_1", "ddp_per_iter", "lr-schedule", "lr_schedule",
             "torchrun 2 ranks (gloo): StepLR(step_size=2 epochs, gamma=0.5) stepped per iteration", "cls",
             steps=2400, lr=3e-3, schedule="step_iter", style="epoch", per_epoch=120, seed=31, ranks=2))
    add(Spec("ddp_per_iter_2", "ddp_per_iter", "lr-schedule", "lr_schedule",
             "torchrun 2 ranks (gloo): ExponentialLR(0.98) per epoch stepped per iteration", "reg",
             steps=3000, lr=4e-3, schedule="exp_iter", style="bracket", seed=32, ranks=2))
    add(Spec("healthy_ddp_1", "healthy", "healthy", None,
             "torchrun 2 ranks (gloo): StepLR(step_size=2 epochs, gamma=0.5) stepped per epoch", "cls",
             steps=2400, lr=3e-3, schedule="step_epoch", style="epoch", per_epoch=120, seed=31, ranks=2))
    return out


ONSET = {  # where the run stops learning (the labelled onset), from its spec
    "exp_per_iter": lambda s: int(math.log(1e-2) / math.log(0.98)),  # the LR below 1 % of its peak
    "ddp_per_iter": lambda s: (int(math.log(1e-2) / math.log(0.98)) if s.schedule.startswith("exp") else 14),
    "bias_only": lambda s: int(s.bias_only_at * s.steps),
    "lr_typo": lambda s: s.warmup,
}


def worker(name: str) -> None:
    """One rank of a torchrun run: the process group over gloo, the spec by name."""
    import torch.distributed as dist

    dist.init_process_group("gloo")
    torch.set_num_threads(1)
    s = next(x for x in specs() if x.name == name)
    train(s, dist.get_rank(), dist.get_world_size(), emit=lambda t: print(t, flush=True))
    dist.destroy_process_group()


def write(s: Spec, out: Path) -> float:
    d = out / s.name
    d.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if s.ranks > 1:
        torchrun = Path(sys.executable).parent / "torchrun"
        cmd = [str(torchrun), "--standalone", f"--nproc-per-node={s.ranks}", "--tee", "3", __file__, "--worker", s.name]
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
        if r.returncode:
            raise SystemExit(f"{s.name}: torchrun failed: {r.stderr[-2000:]}")
        text = r.stdout
    else:
        lines: list[str] = []
        train(s, emit=lines.append)
        text = "\n".join(lines) + "\n"
    (d / "train.log").write_text(text)
    onset = ONSET[s.kind](s) if s.kind in ONSET else None
    category = "healthy" if s.label == "healthy" else "flag"
    label = {"label": s.label, "category": category, "kind": s.kind if s.label != "healthy" else "healthy",
             "cause": s.cause, "onset_step": onset, "should_stop": category == "flag", "why": s.why,
             "source": "train.log", "planned_steps": s.steps, "settings": asdict(s),
             "train_seconds": round(time.time() - t0, 1), "generator": "bench/stall_runs.py"}
    (d / "label.json").write_text(json.dumps(label, indent=1) + "\n")
    return time.time() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--only", nargs="*", help="only runs whose name contains one of these")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return 0
    torch.set_num_threads(1)
    for s in specs():
        if args.only and not any(o in s.name for o in args.only):
            continue
        print(f"{s.name}: {write(s, Path(args.out)):.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
