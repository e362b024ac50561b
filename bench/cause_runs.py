"""Generate examples/causes: tiny models REALLY trained on the CPU, each failing for one known cause.

Run once by hand (not in CI). Needs torch, a generator-only dependency (the CPU build:
``.venv/bin/pip install 'torch==2.13.0+cpu'``)::

    .venv/bin/python bench/cause_runs.py [--out examples/causes] [--only NAME ...]

Every failure is produced by the training itself, never by editing logged numbers:

- ``lr_too_high``: a peak learning rate far above what the model takes (reached after a proper warmup);
- ``lr_too_low``: a learning rate so small the loss does not move;
- ``lr_schedule``: a warmup without ``min(1, step / warmup)`` (the LR keeps rising), a decay whose length is a
  fraction of the run (the LR reaches 0 and stays there), a per-epoch step schedule stepped per iteration;
- ``loss_scale_overflow``: float16 arithmetic with a dynamic loss scale (the loop of apex / DeepSpeed / GradScaler:
  skip the step and halve the scale on an overflow, double it after a run of good steps) and a softmax written
  as ``exp(x) / sum(exp(x))`` in float16, which overflows once the logits pass ~11;
- ``numerical``: a hand-written loss taking ``log(0)`` (``log(1 - sigmoid(z))`` once ``sigmoid(z)`` rounds to 1;
  ``0 * log(0)`` in a one-hot cross-entropy once a probability underflows);
- ``bad_batch``: one corrupted batch (inputs scaled by 1e4, as from a unit bug in one shard);
- ``no_learning``: the optimizer built over a copy of the model, or the gradients zeroed before the step;
- ``overfitting``: a large model on a tiny training set;
- ``exploding_gradients``: a deep MLP without normalisation under SGD momentum and no clipping.

Each run folder holds ``train.jsonl`` (one JSON object per line: train lines with ``step``, ``loss``, ``lr``,
``grad_norm`` and, in float16 runs, ``loss_scale``; eval lines with ``step`` and ``val_loss``; checkpoint lines with
``step`` and ``checkpoint_step``) and ``label.json`` naming the cause (``cause``), the planned length
(``total_steps``), the settings, the seed and the training time. Several runs per cause, with different models,
optimizers, seeds and settings.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError as err:  # pragma: no cover - generator-only dependency
    raise SystemExit("bench/cause_runs.py needs torch: .venv/bin/pip install 'torch==2.13.0+cpu'") from err

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_corpus import MLP, CharData, CharRNN, teacher_classification, teacher_regression  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "examples" / "causes"
MIN_SCALE = 2.0 ** -8  # the dynamic loss scale's floor: below it the run exits


@dataclass
class Spec:
    name: str
    cause: str
    why: str
    task: str = "cls"  # cls | reg | bin | char
    model: str = "mlp"  # mlp | lstm (char task)
    hidden: int = 64
    depth: int = 2
    opt: str = "adam"  # adam | sgd | momentum
    lr: float = 1e-3
    steps: int = 600
    warmup: int = 0
    schedule: str = "constant"  # constant | cosine | nomin_warmup | nomin_cosine | step_per_iter
    decay_steps: int | None = None  # cosine length (a bug when shorter than the run)
    seed: int = 0
    batch: int = 64
    train_size: int = 4000
    seq: int = 32
    clip: float | None = 1.0
    eval_every: int = 25
    ckpt_every: int = 100
    fp16_softmax: bool = False  # float16 forward with exp/sum softmax under a dynamic loss scale
    manual_loss: str | None = None  # "bce_log1m" | "onehot_ce"
    corrupt_step: int | None = None
    opt_on_copy: bool = False  # the optimizer steps a deepcopy of the model
    zero_before_step: bool = False  # gradients zeroed between backward and step
    extra: dict = field(default_factory=dict)


def lr_at(s: Spec, step: int) -> float:
    w = max(1, s.warmup)
    warm = min(1.0, step / w) if s.warmup else 1.0
    if s.schedule == "constant":
        return s.lr * warm
    if s.schedule == "cosine":
        t = min(1.0, max(0, step - s.warmup) / max(1, (s.decay_steps or s.steps) - s.warmup))
        return s.lr * warm * 0.5 * (1 + math.cos(math.pi * t))
    if s.schedule == "nomin_warmup":  # the bug: step / warmup, never capped at 1
        return s.lr * step / w
    if s.schedule == "nomin_cosine":
        t = min(1.0, step / s.steps)
        return s.lr * (step / w) * 0.5 * (1 + math.cos(math.pi * t))
    if s.schedule == "step_per_iter":  # StepLR(step_size=10 "epochs", gamma=0.5) stepped every iteration
        return s.lr * warm * 0.5 ** (step // 10)
    raise ValueError(s.schedule)


def binary_data(n: int, seed: int, d: int = 16):
    g = torch.Generator().manual_seed(5)
    w = torch.randn(d, generator=g)
    gs = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=gs)
    return x, (x @ w > 0).float()


class Fp16Softmax(nn.Module):
    """An MLP classifier computing in float16, with its softmax written out as exp / sum (no max subtraction)."""

    def __init__(self, d_in: int, hidden: int, classes: int):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_in, hidden), nn.Linear(hidden, classes)

    def forward(self, x):
        h = F.relu(F.linear(x.half(), self.l1.weight.half(), self.l1.bias.half()))
        z = F.linear(h, self.l2.weight.half(), self.l2.bias.half())
        e = torch.exp(z)
        return e / e.sum(-1, keepdim=True)  # float16 probabilities


def _grad_norm(params) -> float:
    norms = [p.grad.detach().float().norm() for p in params if p.grad is not None]
    return float(torch.norm(torch.stack(norms))) if norms else 0.0


def _g(v: float) -> float | str:
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    return float(f"{v:.6g}")


def build(s: Spec):
    """(model, get_batch(split, gen), loss_of(out, y))."""
    if s.task == "cls":
        x_tr, y_tr = teacher_classification(s.train_size, s.seed, label_noise=s.extra.get("label_noise", 0.05))
        x_va, y_va = teacher_classification(1000, s.seed + 500, label_noise=s.extra.get("label_noise", 0.05))
        model: nn.Module = Fp16Softmax(32, s.hidden, 10) if s.fp16_softmax else MLP(32, s.hidden, 10, s.depth)
    elif s.task == "reg":
        x_tr, y_tr = teacher_regression(s.train_size, s.seed)
        x_va, y_va = teacher_regression(1000, s.seed + 500)
        model = MLP(16, s.hidden, 1, s.depth)
    elif s.task == "bin":
        x_tr, y_tr = binary_data(s.train_size, s.seed)
        x_va, y_va = binary_data(1000, s.seed + 500)
        model = MLP(16, s.hidden, 1, s.depth)
    else:
        data = CharData(s.train_size, 4000, s.seed)
        V = len(data.vocab)
        model = CharRNN(V, s.hidden, s.model)

    def get_batch(split: str, gen: torch.Generator):
        if s.task == "char":
            return data.batch(data.train if split == "train" else data.val, s.batch if split == "train" else 64,
                              s.seq, gen)
        xs, ys = (x_tr, y_tr) if split == "train" else (x_va, y_va)
        idx = torch.randint(0, len(xs), (min(s.batch, len(xs)) if split == "train" else 500,), generator=gen)
        return xs[idx], ys[idx]

    def loss_of(out, y):
        if s.fp16_softmax:  # probabilities in float16; the loss in float32 from them
            p = out.float().gather(1, y[:, None]).squeeze(1)
            return -torch.log(p).mean()
        if s.task == "reg":
            return F.mse_loss(out, y)
        if s.task == "bin":
            z = out.squeeze(-1)
            if s.manual_loss == "bce_log1m":
                p = torch.sigmoid(z)
                return -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()
            return F.binary_cross_entropy_with_logits(z, y)
        logits = out.reshape(-1, out.shape[-1])
        yy = y.reshape(-1)
        if s.manual_loss == "onehot_ce":
            p = torch.softmax(logits, -1)
            onehot = F.one_hot(yy, logits.shape[-1]).float()
            return -(onehot * torch.log(p)).sum(-1).mean()
        return F.cross_entropy(logits, yy)

    return model, get_batch, loss_of


def train(s: Spec) -> tuple[list[dict], float]:
    torch.manual_seed(s.seed)
    gen = torch.Generator().manual_seed(s.seed + 1000)
    model, get_batch, loss_of = build(s)
    stepped = copy.deepcopy(model) if s.opt_on_copy else model  # the bug: the optimizer holds another model's weights
    params = [p for p in stepped.parameters() if p.requires_grad]
    grads_of = [p for p in model.parameters() if p.requires_grad]
    opt: torch.optim.Optimizer
    if s.opt == "adam":
        opt = torch.optim.Adam(params, lr=s.lr)
    elif s.opt == "sgd":
        opt = torch.optim.SGD(params, lr=s.lr)
    else:
        opt = torch.optim.SGD(params, lr=s.lr, momentum=0.9)
    scale, good, growth = 2.0 ** 16, 0, 200  # the dynamic loss scale (fp16 runs)
    lines: list[dict] = []
    t0 = time.time()
    for step in range(1, s.steps + 1):
        lr = lr_at(s, step)
        for group in opt.param_groups:
            group["lr"] = lr
        x, y = get_batch("train", gen)
        if s.corrupt_step == step:
            x = x * 1e4  # one corrupted batch
        model.train()
        opt.zero_grad(set_to_none=True)
        model.zero_grad(set_to_none=True)
        out = model(x)
        loss = loss_of(out, y)
        rec: dict = {"step": step}
        if s.fp16_softmax:
            (loss * scale).backward()
            gn = _grad_norm(grads_of) / scale
            if not math.isfinite(gn) or not math.isfinite(float(loss.detach())):
                scale /= 2  # overflow: skip the step, halve the scale
                good = 0
                if scale < MIN_SCALE:  # as DeepSpeed: the scale is at its minimum, the run exits
                    lines.append({"step": step, "loss": _g(float(loss.detach())), "lr": _g(lr),
                                  "grad_norm": _g(gn), "loss_scale": _g(scale)})
                    break
            else:
                for p in grads_of:
                    if p.grad is not None:
                        p.grad.div_(scale)
                if s.clip is not None:
                    torch.nn.utils.clip_grad_norm_(grads_of, s.clip)
                opt.step()
                good += 1
                if good % growth == 0:
                    scale *= 2
            rec.update(loss=_g(float(loss.detach())), lr=_g(lr), grad_norm=_g(gn), loss_scale=_g(scale))
        else:
            loss.backward()
            if s.zero_before_step:
                opt.zero_grad(set_to_none=False)  # the bug: gradients cleared between backward and step
            gn = _grad_norm(grads_of)
            if s.clip is not None:
                torch.nn.utils.clip_grad_norm_(grads_of, s.clip)
            if s.opt_on_copy:
                for p, q in zip(params, grads_of, strict=True):
                    p.grad = None if q.grad is None else q.grad.clone()
            opt.step()
            rec.update(loss=_g(float(loss.detach())), lr=_g(lr), grad_norm=_g(gn))
        lines.append(rec)
        if step % s.eval_every == 0:
            model.eval()
            with torch.no_grad():
                vals: list[float] = []
                for _ in range(3):
                    xv, yv = get_batch("val", torch.Generator().manual_seed(s.seed + 7 + len(vals)))
                    vals.append(float(loss_of(model(xv), yv)))
            lines.append({"step": step, "val_loss": _g(sum(vals) / len(vals))})
        if s.ckpt_every and step % s.ckpt_every == 0:
            lines.append({"step": step, "checkpoint_step": step})
        if not math.isfinite(float(loss.detach())) and s.extra.get("stop_after_nan"):
            if sum(1 for r in lines[-40:] if r.get("loss") == "NaN") >= int(s.extra["stop_after_nan"]):
                break
    return lines, time.time() - t0


def specs() -> list[Spec]:
    out: list[Spec] = []
    add = out.append
    # lr_too_high: a proper warmup to a peak far above what the model takes
    for i, (task, model, opt, lr, warm, seed) in enumerate([
            ("cls", "mlp", "adam", 0.08, 150, 1), ("cls", "mlp", "momentum", 2.0, 200, 2),
            ("char", "lstm", "sgd", 80.0, 150, 3), ("reg", "mlp", "adam", 0.3, 100, 4)]):
        add(Spec(f"lr_too_high_{i + 1}", "lr_too_high",
                 f"{model} {opt} warmed up over {warm} steps to lr {lr}, far above what it takes", task, model,
                 opt=opt, lr=lr, warmup=warm, seed=seed, clip=None, steps=700))
    # lr_too_low
    for i, (task, model, opt, lr, seed) in enumerate([
            ("cls", "mlp", "adam", 1e-6, 11), ("cls", "mlp", "sgd", 1e-4, 12), ("char", "lstm", "adam", 1e-6, 13)]):
        add(Spec(f"lr_too_low_{i + 1}", "lr_too_low", f"{model} {opt} at lr {lr}: far too small to learn", task,
                 model, opt=opt, lr=lr, seed=seed, steps=600))
    # lr_schedule
    add(Spec("lr_schedule_1", "lr_schedule", "warmup lr * step / 60 without min(1, .): the LR rises all run",
             "cls", opt="adam", lr=5e-3, warmup=60, schedule="nomin_warmup", seed=21, clip=None, steps=700))
    add(Spec("lr_schedule_2", "lr_schedule", "warmup lr * step / 60 without min(1, .) on an LSTM LM",
             "char", "lstm", opt="adam", lr=3e-3, warmup=60, schedule="nomin_warmup", seed=22, clip=None, steps=700))
    add(Spec("lr_schedule_3", "lr_schedule", "cosine decay over 120 steps in a 700-step run: the LR is 0 from 120",
             "cls", opt="adam", lr=1e-3, warmup=20, schedule="cosine", decay_steps=120, seed=23, steps=700))
    add(Spec("lr_schedule_4", "lr_schedule", "StepLR(step_size=10, gamma=0.5) meant per epoch, stepped per iteration",
             "char", "lstm", opt="adam", lr=3e-3, schedule="step_per_iter", seed=24, steps=600))
    add(Spec("lr_schedule_5", "lr_schedule", "warmup lr * step / 80 without min(1, .), SGD momentum",
             "reg", opt="momentum", lr=0.01, warmup=80, schedule="nomin_warmup", seed=25, clip=None, steps=600))
    # loss_scale_overflow: float16 softmax under a dynamic loss scale
    for i, (lr, hidden, seed, noise) in enumerate([(3e-3, 128, 31, 0.0), (5e-3, 64, 32, 0.0), (2e-3, 256, 33, 0.0)]):
        add(Spec(f"loss_scale_overflow_{i + 1}", "loss_scale_overflow",
                 f"float16 MLP ({hidden} hidden, adam {lr}) with exp/sum softmax under a dynamic loss scale: "
                 "the logits pass fp16 range", "cls", hidden=hidden, opt="adam", lr=lr, seed=seed, clip=None,
                 fp16_softmax=True, steps=1500, eval_every=50, extra={"label_noise": noise}))
    # numerical: log(0)
    for i, (task, loss_kind, lr, seed) in enumerate([("bin", "bce_log1m", 1e-3, 41), ("bin", "bce_log1m", 2e-3, 42),
                                                       ("bin", "bce_log1m", 5e-4, 43)]):
        add(Spec(f"numerical_{i + 1}", "numerical", f"hand-written {loss_kind} takes log(0) once the model is sure",
                 task, opt="adam", lr=lr, seed=seed, clip=None, manual_loss=loss_kind, steps=1500, eval_every=50,
                 depth=2 + i % 2, extra={"stop_after_nan": 30}))
    # bad_batch: one corrupted batch
    for i, (task, opt, lr, step, seed) in enumerate([("cls", "sgd", 0.2, 300, 51), ("cls", "momentum", 0.05, 350, 52),
                                                      ("reg", "momentum", 0.01, 250, 53)]):
        add(Spec(f"bad_batch_{i + 1}", "bad_batch", f"the batch at step {step} has its inputs scaled by 1e4 (no clip)",
                 task, opt=opt, lr=lr, seed=seed, clip=None, corrupt_step=step, steps=600))
    # no_learning
    add(Spec("no_learning_1", "no_learning", "optimizer built over a deepcopy of the model: weights never change",
             "cls", opt="adam", lr=1e-3, seed=61, opt_on_copy=True, steps=600))
    add(Spec("no_learning_2", "no_learning", "optimizer over a deepcopy of an LSTM LM", "char", "lstm", opt="adam",
             lr=2e-3, seed=62, opt_on_copy=True, steps=500))
    add(Spec("no_learning_3", "no_learning", "gradients zeroed between backward and step", "reg", opt="momentum",
             lr=0.01, seed=63, zero_before_step=True, steps=600))
    # overfitting: a large model on a tiny training set
    for i, (task, model, size, hidden, seed) in enumerate([("cls", "mlp", 96, 256, 71), ("cls", "mlp", 64, 512, 72),
                                                           ("char", "lstm", 1500, 256, 73)]):
        add(Spec(f"overfitting_{i + 1}", "overfitting", f"{model} with {hidden} hidden units on {size} examples",
                 task, model, hidden=hidden, opt="adam", lr=3e-3 if task == "char" else 1e-3, seed=seed,
                 train_size=size, batch=32, steps=1200, eval_every=40, ckpt_every=200,
                 extra={"label_noise": 0.2}))
    # exploding_gradients: a deep MLP without normalisation under SGD momentum, no clipping
    for i, (depth, lr, hidden, seed) in enumerate([(6, 0.03, 64, 91), (7, 0.04, 64, 98), (6, 0.03, 128, 99)]):
        add(Spec(f"exploding_gradients_{i + 1}", "exploding_gradients",
                 f"{depth}-layer MLP ({hidden} wide) without normalisation, SGD momentum {lr}, no clipping",
                 "reg", depth=depth, hidden=hidden, opt="momentum", lr=lr, seed=seed, clip=None, steps=800,
                 extra={"stop_after_nan": 30}))
    return out


def write(s: Spec, out: Path) -> dict:
    lines, secs = train(s)
    d = out / s.name
    d.mkdir(parents=True, exist_ok=True)
    (d / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    label = {"cause": s.cause, "why": s.why, "source": "train.jsonl", "total_steps": s.steps, "seed": s.seed,
             "settings": {k: v for k, v in vars(s).items() if k not in ("name", "cause", "why")},
             "train_seconds": round(secs, 1), "generator": "bench/cause_runs.py"}
    (d / "label.json").write_text(json.dumps(label, indent=1) + "\n")
    return label


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--only", nargs="*", help="only runs whose name contains one of these")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    out = Path(args.out)
    for s in specs():
        if args.only and not any(o in s.name for o in args.only):
            continue
        t0 = time.time()
        write(s, out)
        print(f"{s.name}: {time.time() - t0:.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

