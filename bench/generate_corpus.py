"""Generate examples/corpus: small models REALLY trained on the CPU, their logs, and a label per run.

Run once by hand (not in CI; needs ``torch==2.13.0``, a generator-only dependency)::

    .venv/bin/python bench/generate_corpus.py [--out examples/corpus] [--only NAME ...]

Every failure is produced by the training itself (a learning rate far too
high, float16 arithmetic, frozen weights, a tiny dataset, a buggy schedule,
no gradient clipping on a recurrent net, a corrupted batch), never by editing
logged numbers. Each run folder holds its log in one realistic format (see
``FORMATS``), a ``metrics.csv`` copy (``step`` + metric columns, for replaying
through real ``wandb`` offline runs) and ``label.json``, whose ``onset_step``
is computed from the logged data by the rules in ``onset_for`` (documented
there), not chosen by eye.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError as err:  # pragma: no cover - generator-only dependency
    raise SystemExit("bench/generate_corpus.py needs torch: .venv/bin/pip install torch==2.13.0") from err

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "examples" / "corpus"

# --------------------------------------------------------------------------------------
# Data: everything is generated here (no downloads)
# --------------------------------------------------------------------------------------


def teacher_classification(n: int, seed: int, d: int = 32, classes: int = 10, label_noise: float = 0.05):
    """Inputs ~ N(0, I); labels = argmax of a fixed random 2-layer teacher net, with some labels flipped."""
    g = torch.Generator().manual_seed(1234)  # the same teacher for every run: train/val share the task
    w1 = torch.randn(d, 64, generator=g) / math.sqrt(d)
    w2 = torch.randn(64, classes, generator=g) / 8.0
    gs = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=gs)
    y = torch.argmax(torch.tanh(x @ w1) @ w2, dim=1)
    flip = torch.rand(n, generator=gs) < label_noise
    y[flip] = torch.randint(0, classes, (int(flip.sum()),), generator=gs)
    return x, y


def teacher_regression(n: int, seed: int, d: int = 16):
    g = torch.Generator().manual_seed(99)
    w1 = torch.randn(d, 32, generator=g) / math.sqrt(d)
    w2 = torch.randn(32, 1, generator=g)
    gs = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=gs)
    y = torch.sin(x @ w1) @ w2 + 0.1 * torch.randn(n, 1, generator=gs)
    return x, y


def make_text(n_chars: int, seed: int) -> str:
    """Text from a small invented language: syllable words and a Zipfian word-bigram chain."""
    rng = random.Random(7)  # the same language for every run
    syll = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
    words = sorted({"".join(rng.choice(syll) for _ in range(rng.randint(1, 3))) for _ in range(300)})
    nexts = {w: rng.sample(words, 12) for w in words}
    zipf = [1.0 / (i + 1) for i in range(12)]
    r = random.Random(seed)
    out, w = [], r.choice(words)
    size = 0
    while size < n_chars:
        out.append(w)
        size += len(w) + 1
        w = r.choices(nexts[w], weights=zipf)[0]
        if r.random() < 0.08:
            out.append(".\n")
    return " ".join(out)[:n_chars]


class CharData:
    def __init__(self, train_chars: int, val_chars: int, seed: int):
        text = make_text(train_chars + val_chars, seed)
        self.vocab = sorted(set(make_text(20000, 1)) | set(text))
        idx = {c: i for i, c in enumerate(self.vocab)}
        ids = torch.tensor([idx[c] for c in text], dtype=torch.long)
        self.train, self.val = ids[:train_chars], ids[train_chars:]

    def batch(self, split: torch.Tensor, bs: int, seq: int, gen: torch.Generator):
        starts = torch.randint(0, len(split) - seq - 1, (bs,), generator=gen)
        x = torch.stack([split[s : s + seq] for s in starts.tolist()])
        y = torch.stack([split[s + 1 : s + seq + 1] for s in starts.tolist()])
        return x, y


# --------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------


class MLP(nn.Module):
    def __init__(self, d_in: int, hidden: int, d_out: int, depth: int = 2, bias_init: float | None = None):
        super().__init__()
        layers, d = [], d_in
        for _ in range(depth):
            lin = nn.Linear(d, hidden)
            if bias_init is not None:
                nn.init.constant_(lin.bias, bias_init)
            layers += [lin, nn.ReLU()]
            d = hidden
        layers.append(nn.Linear(d, d_out))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


class CharRNN(nn.Module):
    def __init__(self, vocab: int, hidden: int, cell: str = "lstm", emb: int = 32):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        if cell == "rnn_relu":
            self.rnn = nn.RNN(emb, hidden, batch_first=True, nonlinearity="relu")
        else:
            self.rnn = {"lstm": nn.LSTM, "gru": nn.GRU, "rnn": nn.RNN}[cell](emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.head(h)


class TinyGPT(nn.Module):
    def __init__(self, vocab: int, d: int = 64, layers: int = 2, heads: int = 4, seq: int = 64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(seq, d))
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(seq), persistent=False)

    def forward(self, x):
        t = x.shape[1]
        h = self.tok(x) + self.pos[:t]
        h = self.blocks(h, mask=self.mask[:t, :t], is_causal=True)
        return self.head(self.norm(h))


# --------------------------------------------------------------------------------------
# Run specifications
# --------------------------------------------------------------------------------------


@dataclass
class RunSpec:
    name: str
    label: str  # healthy|spike-recovered|diverged|nan|plateau|overfitting|lr-schedule|grad-explosion
    task: str  # cls | reg | char
    model: str  # mlp | lstm | gru | rnn | gpt
    fmt: str  # a key of FORMATS
    steps: int
    why: str
    seed: int = 0
    opt: str = "adam"  # adam | adamw | sgd | sgdm
    lr: float = 1e-3
    schedule: str = "constant"  # constant | cosine | step | warmup_forever | jump | early_zero
    warmup: int = 0
    batch: int = 64
    hidden: int = 64
    depth: int = 2
    seq: int = 32
    clip: float | None = None
    train_size: int = 20000
    log_every: int = 10
    eval_every: int = 100
    half: bool = False  # train in float16 without a loss scaler
    frozen: bool = False  # every weight frozen except the output bias
    bias_init: float | None = None  # e.g. a large negative bias: dead ReLUs
    corrupt_step: int | None = None  # one corrupted batch at this step
    corrupt: str = "scale"  # scale (inputs x1000) | noise (random tokens)
    jump_at: float = 0.5  # schedule "jump": the fraction of the run where lr jumps 100x
    extra: dict = field(default_factory=dict)


RUNS: list[RunSpec] = [
    # ---- healthy, of different shapes ----
    RunSpec("healthy_mlp_adam_fast", "healthy", "cls", "mlp", "kv", 1500,
        "MLP on a teacher task, Adam 3e-3: fast convergence",
        seed=1, lr=3e-3),
    RunSpec("healthy_mlp_sgd_slow", "healthy", "cls", "mlp", "jsonl", 2000,
        "MLP, plain SGD lr 0.02: slow steady convergence",
        seed=2, opt="sgd", lr=0.02),
    RunSpec("healthy_mlp_noisy_bs8", "healthy", "cls", "mlp", "llmc", 2000,
        "MLP, batch 8 logged every step: very noisy but improving",
        seed=3, lr=1e-3, batch=8, log_every=1, eval_every=100),
    RunSpec("healthy_lstm_cosine_warmup", "healthy", "char", "lstm", "hf", 1500,
        "char LSTM, Adam 4e-3, 100-step warmup then cosine decay",
        seed=4, lr=4e-3, schedule="cosine", warmup=100, batch=32, hidden=96),
    RunSpec("healthy_gpt_cosine", "healthy", "char", "gpt", "megatron", 1200,
        "tiny char transformer, AdamW 2e-3, warmup 60 + cosine, clip 1.0",
        seed=5, opt="adamw", lr=2e-3, schedule="cosine", warmup=60, batch=32, clip=1.0),
    RunSpec("healthy_mlp_step_decay", "healthy", "cls", "mlp", "csv", 2000,
        "MLP, SGD momentum 0.9 lr 0.05, x0.1 at 50% and 75%",
        seed=6, opt="sgdm", lr=0.05, schedule="step"),
    RunSpec("healthy_regression_adam", "healthy", "reg", "mlp", "nanogpt", 1500,
        "MLP regression, Adam 1e-3, log every 5",
        seed=7, lr=1e-3, log_every=5),
    RunSpec("healthy_gru_constant", "healthy", "char", "gru", "kv", 1000,
        "char GRU, Adam 3e-3 constant, clip 1.0",
        seed=8, lr=3e-3, batch=32, clip=1.0),
    # ---- spikes that recover ----
    RunSpec("spike_mlp_corrupt_batch", "spike-recovered", "cls", "mlp", "llmc", 1500,
        "one batch with inputs x1000 (corrupted) at step 700; Adam recovers",
        seed=11, lr=2e-3, log_every=5, corrupt_step=700),
    RunSpec("spike_lstm_noise_batch", "spike-recovered", "char", "lstm", "jsonl", 1200,
        "one batch of random characters at step 600; loss spikes on it and recovers",
        seed=12, lr=3e-3, batch=32, log_every=1, corrupt_step=600, corrupt="noise", clip=1.0),
    RunSpec("spike_gpt_corrupt_batch", "spike-recovered", "char", "gpt", "hf", 1000,
        "tiny transformer, one batch of random characters at step 500",
        seed=13, opt="adamw", lr=2e-3, schedule="cosine", warmup=50, batch=32, log_every=1, eval_every=50,
        corrupt_step=500, corrupt="noise", clip=1.0),
    # ---- divergence ----
    RunSpec("diverged_mlp_sgd_lr_too_high", "diverged", "cls", "mlp", "kv", 1200,
        "plain SGD warmed up over 600 steps to lr 5.0 (about 100x too high), clipped to norm 5: learns, then loss "
        "climbs back to chance and stays",
        seed=21, opt="sgd", lr=5.0, warmup=600, clip=5.0),
    RunSpec("diverged_mlp_momentum_drift", "diverged", "cls", "mlp", "hf", 1200,
        "SGD momentum 0.9 warmed up over 600 steps to lr 0.5 (10x too high), clip 1.0: loss drifts back up to chance",
        seed=24, opt="sgdm", lr=0.5, warmup=600, clip=1.0),
    RunSpec("diverged_gpt_adam_lr_too_high", "diverged", "char", "gpt", "megatron", 800,
        "tiny transformer, Adam warmed up over 250 steps to lr 0.5: loss explodes to ~80 and never returns to its "
        "best",
        seed=22, lr=0.5, warmup=250, batch=32),
    RunSpec("diverged_lstm_sgd_lr_too_high", "diverged", "char", "lstm", "csv", 1000,
        "char LSTM, SGD warmed up over 300 steps to lr 60 with clip 5: loss rises far above its best and stays",
        seed=23, opt="sgd", lr=60.0, warmup=300, batch=32, clip=5.0),
    # ---- non-finite ----
    RunSpec("nan_regression_sgd_no_clip", "nan", "reg", "mlp", "jsonl", 1000,
        "MLP regression, SGD warmed up over 800 steps to lr 1.0, no clipping: weights blow up to inf, loss NaN",
        seed=31, opt="sgd", lr=1.0, warmup=800, depth=1, log_every=5),
    RunSpec("nan_fp16_no_loss_scaler", "nan", "cls", "mlp", "megatron", 800,
        "MLP trained in pure float16 (no loss scaler, no master weights), Adam lr 0.5: eps 1e-8 underflows to 0 in "
        "float16, loss NaN at once",
        seed=32, lr=0.5, half=True, hidden=256),
    RunSpec("nan_regression_late_blowup", "nan", "reg", "mlp", "llmc", 800,
        "MLP regression, SGD warmed up over 600 steps to lr 0.5, no clipping: loss wanders up, overflows, NaN late in "
        "the run",
        seed=31, opt="sgd", lr=0.5, warmup=600, depth=2, log_every=5),
    # ---- plateau ----
    RunSpec("plateau_frozen_weights", "plateau", "cls", "mlp", "hf", 1200,
        "every weight frozen (requires_grad=False) except the output bias: loss flat from the start",
        seed=41, lr=1e-3, frozen=True),
    RunSpec("plateau_lr_zero", "plateau", "char", "lstm", "kv", 1000,
        "char LSTM with lr 0 (config bug): loss flat at its initial level",
        seed=42, lr=0.0, batch=32),
    RunSpec("plateau_dead_relu", "plateau", "cls", "mlp", "csv", 1200,
        "MLP with hidden biases initialised to -20: every ReLU dead, no gradient reaches the weights",
        seed=43, lr=1e-3, bias_init=-20.0),
    # ---- overfitting ----
    RunSpec("overfit_tiny_mlp", "overfitting", "cls", "mlp", "jsonl", 2000,
        "256-wide MLP on 64 training samples: train loss -> 0, val loss rises",
        seed=51, lr=3e-3, hidden=256, train_size=64, batch=32, eval_every=50),
    RunSpec("overfit_tiny_text_lstm", "overfitting", "char", "lstm", "hf", 1000,
        "char LSTM (160 hidden) on 1,500 characters of text: val loss turns up",
        seed=52, lr=5e-3, hidden=160, train_size=1500, batch=32, eval_every=50, clip=1.0),
    # ---- LR schedule bugs ----
    RunSpec("lrsched_warmup_never_ends", "lr-schedule", "char", "gpt", "megatron", 1200,
        "warmup lr = base*step/warmup without min(1, .): lr keeps rising to 12x its peak, loss turns up",
        seed=61, opt="adamw", lr=4e-3, schedule="warmup_forever", warmup=100, batch=32),
    RunSpec("lrsched_jump_100x", "lr-schedule", "cls", "mlp", "kv", 1600,
        "lr jumps 100x at mid-run (scheduler resumed in the wrong units): loss jumps up",
        seed=62, lr=2e-3, schedule="jump"),
    RunSpec("lrsched_decays_to_zero_early", "lr-schedule", "char", "lstm", "csv", 1500,
        "cosine with T_max = 10% of the run: lr is 0 from step 150 on, loss frozen at a high level",
        seed=63, lr=3e-3, schedule="early_zero", batch=32),
    # ---- gradient-norm explosion ----
    # ---- exploding gradients (no clipping): the grad norm jumps ~1000x one log before the loss goes NaN ----
    RunSpec("nan_deep_mlp_exploding_grads", "nan", "reg", "mlp", "kv", 800,
        "6-layer MLP without normalisation, SGD momentum warmed up to lr 0.05, no clipping: gradients explode (norm "
        "~1e4) and the loss goes NaN",
        seed=31, opt="sgdm", lr=0.05, warmup=400, depth=6, log_every=5),
    RunSpec("nan_deeper_mlp_exploding_grads", "nan", "reg", "mlp", "llmc", 800,
        "7-layer MLP without normalisation, SGD momentum warmed up to lr 0.04, no clipping: gradients explode (norm "
        "~1.5e4) and the loss goes NaN",
        seed=37, opt="sgdm", lr=0.04, warmup=400, depth=7, log_every=5),
]

CATEGORY = {"nan": "clear", "diverged": "clear", "plateau": "flag", "overfitting": "flag", "lr-schedule": "flag",
            "grad-explosion": "flag", "healthy": "healthy", "spike-recovered": "healthy"}


# --------------------------------------------------------------------------------------
# Training
# --------------------------------------------------------------------------------------


def lr_at(spec: RunSpec, step: int) -> float:
    """The learning rate the (possibly buggy) schedule gives at ``step`` (1-based)."""
    base, T, w = spec.lr, spec.steps, spec.warmup
    if spec.schedule == "constant":  # with an optional linear warmup
        return base * min(1.0, step / w) if w else base
    if spec.schedule == "cosine":
        if step <= w:
            return base * step / max(1, w)
        p = (step - w) / max(1, T - w)
        return base * 0.5 * (1 + math.cos(math.pi * p))
    if spec.schedule == "step":
        return base * (0.1 if step > T * 0.5 else 1.0) * (0.1 if step > T * 0.75 else 1.0)
    if spec.schedule == "warmup_forever":  # the bug: missing min(1, step / warmup)
        return base * step / max(1, w)
    if spec.schedule == "jump":  # the bug: after a resume, lr multiplied by 100
        return base * (100.0 if step > T * spec.jump_at else 1.0)
    if spec.schedule == "early_zero":  # cosine whose T_max is a tenth of the run, clamped at 0 afterwards
        tmax = T // 10
        return base * 0.5 * (1 + math.cos(math.pi * min(step, tmax) / tmax))
    raise ValueError(spec.schedule)


@dataclass
class Logged:
    train: list[dict] = field(default_factory=list)  # step, loss, lr, grad_norm, epoch
    evals: list[dict] = field(default_factory=list)  # step, val_loss[, val_acc]
    seconds: float = 0.0


def _grad_norm(params) -> float:
    norms = [p.grad.detach().float().norm() for p in params if p.grad is not None]
    if not norms:
        return 0.0
    return float(torch.norm(torch.stack(norms)))


def train(spec: RunSpec) -> Logged:
    torch.manual_seed(spec.seed)
    gen = torch.Generator().manual_seed(spec.seed + 1000)
    dtype = torch.float16 if spec.half else torch.float32
    model: Any  # MLP, TinyGPT or CharRNN (the frozen case reads MLP.net)
    opt: torch.optim.Optimizer
    if spec.task == "cls":
        x_tr, y_tr = teacher_classification(spec.train_size, spec.seed)
        x_va, y_va = teacher_classification(2000, spec.seed + 500)
        model = MLP(32, spec.hidden, 10, spec.depth, spec.bias_init)
    elif spec.task == "reg":
        x_tr, y_tr = teacher_regression(spec.train_size, spec.seed)
        x_va, y_va = teacher_regression(2000, spec.seed + 500)
        model = MLP(16, spec.hidden, 1, spec.depth)
    else:
        data = CharData(spec.train_size if spec.train_size != 20000 else 60000, 6000, spec.seed)
        V = len(data.vocab)
        model = TinyGPT(V, seq=spec.seq) if spec.model == "gpt" else CharRNN(V, spec.hidden, spec.model)
    model = model.to(dtype)
    if spec.frozen:
        for name, p in model.named_parameters():
            p.requires_grad = name.endswith(f"{len(model.net) - 1}.bias")
    params = [p for p in model.parameters() if p.requires_grad]
    if spec.opt == "adam":
        opt = torch.optim.Adam(params, lr=spec.lr)
    elif spec.opt == "adamw":
        opt = torch.optim.AdamW(params, lr=spec.lr, weight_decay=0.01)
    elif spec.opt == "sgd":
        opt = torch.optim.SGD(params, lr=spec.lr)
    else:
        opt = torch.optim.SGD(params, lr=spec.lr, momentum=0.9)

    def get_batch(split: str):
        if spec.task in ("cls", "reg"):
            xs, ys = (x_tr, y_tr) if split == "train" else (x_va, y_va)
            idx = torch.randint(0, len(xs), (min(spec.batch, len(xs)) if split == "train" else 512,), generator=gen)
            return xs[idx].to(dtype), ys[idx].to(dtype) if spec.task == "reg" else ys[idx]
        src = data.train if split == "train" else data.val
        return data.batch(src, spec.batch if split == "train" else 64, spec.seq, gen)

    def loss_of(out, y):
        if spec.task == "reg":
            return F.mse_loss(out, y)
        return F.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))

    def evaluate() -> dict:
        model.eval()
        with torch.no_grad():
            losses, accs = [], []
            for _ in range(4):
                x, y = get_batch("val")
                out = model(x)
                losses.append(float(loss_of(out, y)))
                if spec.task != "reg":
                    accs.append(float((out.argmax(-1) == y).float().mean()))
        model.train()
        rec = {"val_loss": float(np.mean(losses))}
        if accs:
            rec["val_acc"] = float(np.mean(accs))
        return rec

    logged = Logged()
    t0 = time.time()
    acc_loss, acc_n = 0.0, 0
    steps_per_epoch = max(1, (spec.train_size if spec.task != "char" else 60000 // spec.seq) // spec.batch)
    for step in range(1, spec.steps + 1):
        lr = lr_at(spec, step)
        for group in opt.param_groups:
            group["lr"] = lr
        x, y = get_batch("train")
        if spec.corrupt_step == step:
            if spec.corrupt == "scale":
                x = x * 1000.0
            else:
                x = torch.randint(0, len(data.vocab), x.shape, generator=gen)
                y = torch.randint(0, len(data.vocab), y.shape, generator=gen)
        out = model(x)
        loss = loss_of(out, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        gn = _grad_norm(params)
        if spec.clip is not None:
            torch.nn.utils.clip_grad_norm_(params, spec.clip)
        opt.step()
        acc_loss += float(loss.detach())
        acc_n += 1
        if step % spec.log_every == 0:
            logged.train.append({"step": step, "loss": acc_loss / acc_n, "lr": lr, "grad_norm": gn,
                                 "epoch": step / steps_per_epoch})
            acc_loss, acc_n = 0.0, 0
        if step % spec.eval_every == 0:
            logged.evals.append({"step": step, **evaluate()})
    logged.seconds = time.time() - t0
    return logged


# --------------------------------------------------------------------------------------
# Onset rules (computed from the logged data)
# --------------------------------------------------------------------------------------


def _rolling_median(v: np.ndarray, w: int) -> np.ndarray:
    out = np.empty(len(v))
    for i in range(len(v)):
        out[i] = np.median(v[max(0, i - w + 1) : i + 1])
    return out


def _diverged_onset(steps: np.ndarray, loss: np.ndarray) -> int | None:
    """The diverged rule (see ``onset_for``); non-finite losses count as above every threshold."""
    n = len(loss)
    fin = np.isfinite(loss)
    if not fin.any():
        return None
    w = max(5, n // 50)
    m = _rolling_median(np.where(fin, loss, np.max(np.abs(loss[fin])) * 10 + 1e6), w)
    l0 = float(np.median(loss[:5][fin[:5]])) if fin[:5].any() else float(m[0])
    best = np.minimum.accumulate(m)
    above = m > best + np.maximum(0.25 * (l0 - best), 0.1 * np.abs(best))
    if not above[-1]:
        return None
    i = n - 1
    while i > 0 and above[i - 1]:
        i -= 1
    return int(steps[i])


def onset_for(label: str, logged: Logged, spec: RunSpec) -> int | None:
    """The first logged step where the failure is visible in the data, by one rule per label.

    - healthy: None.
    - nan: the first step whose train loss or grad norm is NaN/Inf, or, when the loss was already
      diverging into the NaN, the start of that divergence (the diverged rule below, with non-finite
      values counted as above every threshold), whichever is earlier.
    - spike-recovered: the first step whose train loss exceeds 2x the median of the 20 values before it.
    - diverged: with ``m`` = the rolling median of the train loss (window max(5, 2% of the logs)),
      ``best`` = its running minimum and ``L0`` = the median of the first 5 losses, the first step of the
      final stretch in which ``m > best + max(0.25 * (L0 - best), 0.1 * |best|)`` holds to the end.
    - plateau: the step of the max(5, 5%-of-logs)-th logged loss (the first point where a lack of
      progress is measurable), when the rolling median there is within 5% of ``L0``; else the first
      step after which the rolling median never again falls by 2%.
    - overfitting: the first eval after the eval-loss minimum whose value exceeds the minimum by 5%.
    - lr-schedule: the earliest step where the logged lr (a) jumps more than 10x between two logs,
      (b) is still rising after 10% of the run, or (c) falls, after its peak, to <= 1% of its maximum before 50% of
      the run.
    - grad-explosion: the first step where the 5-log rolling median of the grad norm (non-finite counted
      as infinite) exceeds 100x the median of all earlier finite grad norms (two orders of magnitude
      above its running level; a 10-30x rise when a network starts learning does not count).
    """
    steps = np.array([r["step"] for r in logged.train], dtype=np.int64)
    loss = np.array([r["loss"] for r in logged.train], dtype=np.float64)
    gn = np.array([r["grad_norm"] for r in logged.train], dtype=np.float64)
    lr = np.array([r["lr"] for r in logged.train], dtype=np.float64)
    n = len(steps)
    if label == "healthy":
        return None
    if label == "nan":
        bad = ~np.isfinite(loss) | ~np.isfinite(gn)
        if not bad.any():
            return None
        first_bad = int(steps[np.argmax(bad)])
        rising = _diverged_onset(steps, loss)
        return min(first_bad, rising) if rising is not None else first_bad
    if label == "spike-recovered":
        for i in range(20, n):
            if loss[i] > 2 * np.median(loss[i - 20 : i]):
                return int(steps[i])
        return None
    if label in ("diverged", "plateau"):
        w = max(5, n // 50)
        m = _rolling_median(np.where(np.isfinite(loss), loss, np.nanmax(loss[np.isfinite(loss)]) * 10), w)
        l0 = float(np.median(loss[:5]))
        if label == "diverged":
            return _diverged_onset(steps, loss)
        k = max(5, n // 20) - 1
        if abs(m[k] - l0) <= 0.05 * abs(l0):
            return int(steps[k])
        for i in range(n):
            if np.all(m[i:] >= 0.98 * m[i]):
                return int(steps[i])
        return None
    if label == "overfitting":
        ev_steps = np.array([r["step"] for r in logged.evals])
        ev = np.array([r["val_loss"] for r in logged.evals])
        j = int(np.argmin(ev))
        for i in range(j + 1, len(ev)):
            if ev[i] > ev[j] * 1.05:
                return int(ev_steps[i])
        return None
    if label == "lr-schedule":
        cands = []
        ratio = lr[1:] / np.maximum(lr[:-1], 1e-300)
        jump = np.nonzero(ratio > 10)[0]
        if len(jump):
            cands.append(int(steps[jump[0] + 1]))
        rises = np.nonzero((lr[1:] > lr[:-1]) & (steps[1:] > 0.1 * spec.steps))[0]
        if len(rises):
            cands.append(int(steps[rises[0] + 1]))
        peak = int(np.argmax(lr))
        low = np.nonzero((lr <= 0.01 * lr.max()) & (np.arange(n) > peak) & (steps < 0.5 * spec.steps))[0]
        if len(low):
            cands.append(int(steps[low[0]]))
        return min(cands) if cands else None
    if label == "grad-explosion":
        rm = _rolling_median(np.where(np.isfinite(gn), gn, np.inf), 5)
        for i in range(5, n):
            earlier = gn[:i - 4][np.isfinite(gn[:i - 4])]
            if len(earlier) and rm[i] > 100 * np.median(earlier):
                return int(steps[i])
        return None
    raise ValueError(label)


# --------------------------------------------------------------------------------------
# Log formats
# --------------------------------------------------------------------------------------


def _f(v: float, spec: str = ".6f") -> str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return format(v, spec)


def _merged(logged: Logged) -> list[tuple[int, str, dict]]:
    rows = [(r["step"], "train", r) for r in logged.train] + [(r["step"], "eval", r) for r in logged.evals]
    return sorted(rows, key=lambda t: (t[0], t[1] != "train"))


def write_kv(path: Path, spec: RunSpec, logged: Logged) -> str:
    """Plain ``key=value`` lines, as many hand-written training loops print."""
    lines = [f"run {spec.name}: model={spec.model} opt={spec.opt} lr={spec.lr} steps={spec.steps} seed={spec.seed}"]
    for step, kind, r in _merged(logged):
        if kind == "train":
            lines.append(f"step={step} epoch={r['epoch']:.3f} loss={_f(r['loss'])} lr={_f(r['lr'], '.4e')} "
                         f"grad_norm={_f(r['grad_norm'], '.4f')}")
        else:
            acc = f" val_acc={_f(r['val_acc'], '.4f')}" if "val_acc" in r else ""
            lines.append(f"step={step} val_loss={_f(r['val_loss'])}{acc}")
    (path / "train.log").write_text("\n".join(lines) + "\n")
    return "train.log"


def write_jsonl(path: Path, spec: RunSpec, logged: Logged) -> str:
    """One JSON object per log call (``train/*`` and ``val/*`` keys); NaN as Python's json writes it."""
    lines = []
    for step, kind, r in _merged(logged):
        if kind == "train":
            rec = {"step": step, "train/loss": r["loss"], "train/lr": r["lr"], "train/grad_norm": r["grad_norm"],
                   "epoch": round(r["epoch"], 4)}
        else:
            rec = {"step": step, "val/loss": r["val_loss"], **({"val/acc": r["val_acc"]} if "val_acc" in r else {})}
        lines.append(json.dumps(rec))
    (path / "metrics.jsonl").write_text("\n".join(lines) + "\n")
    return "metrics.jsonl"


def write_llmc(path: Path, spec: RunSpec, logged: Logged) -> str:
    """llm.c's terse ``s:N trl:X lr:L norm:G`` (train) / ``s:N tel:X`` (val) lines."""
    lines = []
    for step, kind, r in _merged(logged):
        if kind == "train":
            lines.append(f"s:{step} trl:{_f(r['loss'])} lr:{_f(r['lr'], '.6f')} norm:{_f(r['grad_norm'], '.4f')}")
        else:
            lines.append(f"s:{step} tel:{_f(r['val_loss'])}")
    (path / "main.log").write_text("\n".join(lines) + "\n")
    return "main.log"


def write_hf(path: Path, spec: RunSpec, logged: Logged) -> str:
    """An HF Trainer ``trainer_state.json`` (log_history with loss/grad_norm/learning_rate and eval_* entries)."""
    hist = []
    for step, kind, r in _merged(logged):
        if kind == "train":
            hist.append({"epoch": round(r["epoch"], 4), "grad_norm": r["grad_norm"], "learning_rate": r["lr"],
                         "loss": round(r["loss"], 4) if math.isfinite(r["loss"]) else r["loss"], "step": step})
        else:
            e = {"epoch": round(step / max(1, spec.steps), 4), "eval_loss": r["val_loss"], "step": step}
            if "val_acc" in r:
                e["eval_accuracy"] = r["val_acc"]
            hist.append(e)
    state = {"best_metric": None, "epoch": round(logged.train[-1]["epoch"], 4), "eval_steps": spec.eval_every,
             "global_step": spec.steps, "is_world_process_zero": True, "log_history": hist,
             "logging_steps": spec.log_every, "max_steps": spec.steps, "num_train_epochs": 1,
             "train_batch_size": spec.batch}
    (path / "trainer_state.json").write_text(json.dumps(state, indent=2))
    return "trainer_state.json"


def write_csv_lightning(path: Path, spec: RunSpec, logged: Logged) -> str:
    """Lightning CSVLogger-style ``metrics.csv``: train rows and val rows with empty cells for the other keys."""
    cols = ["epoch", "step", "train_loss", "lr-SGD" if spec.opt.startswith("sgd") else "lr-Adam", "grad_norm",
            "val_loss", "val_acc"]
    with open(path / "metrics.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for step, kind, r in _merged(logged):
            ep = int(r.get("epoch", step / max(1, spec.steps)))
            if kind == "train":
                w.writerow([ep, step, _f(r["loss"]), _f(r["lr"], ".6e"), _f(r["grad_norm"], ".6f"), "", ""])
            else:
                w.writerow([ep, step, "", "", "", _f(r["val_loss"]),
                            _f(r.get("val_acc", float("nan")), ".4f") if "val_acc" in r else ""])
    return "metrics.csv"


def write_megatron(path: Path, spec: RunSpec, logged: Logged) -> str:
    """Megatron-LM-style ``iteration N/ M | ... | lm loss: | grad norm: |`` lines and validation blocks."""
    lines = [f"> building model {spec.model} ...", "> training ..."]
    per_iter = logged.seconds * 1000 / max(1, spec.steps)
    nan_iters = 0
    for step, kind, r in _merged(logged):
        if kind == "train":
            if not math.isfinite(r["loss"]):
                nan_iters += 1
            lines.append(
                f" iteration {step:>8d}/{spec.steps:>8d} | consumed samples: {step * spec.batch:>12d} | "
                f"elapsed time per iteration (ms): {per_iter:.1f} | learning rate: {_f(r['lr'], '.3E')} | "
                f"global batch size: {spec.batch:>5d} | lm loss: {_f(r['loss'], '.6E')} | loss scale: 1.0 | "
                f"grad norm: {_f(r['grad_norm'], '.3f')} | number of skipped iterations:   0 | "
                f"number of nan iterations: {nan_iters:>3d} |")
        else:
            v = r["val_loss"]
            ppl = math.exp(min(v, 700)) if math.isfinite(v) else v
            lines.append("-" * 100)
            lines.append(f" validation loss at iteration {step} | lm loss value: {_f(v, '.6E')} | "
                         f"lm loss PPL: {_f(ppl, '.6E')} | ")
            lines.append("-" * 100)
    (path / "train.log").write_text("\n".join(lines) + "\n")
    return "train.log"


def write_nanogpt(path: Path, spec: RunSpec, logged: Logged) -> str:
    """modded-nanogpt-style ``step:N/M train_loss:X train_time:Tms step_avg:Ams`` and ``val_loss`` lines."""
    per = logged.seconds * 1000 / max(1, spec.steps)
    lines = []
    for step, kind, r in _merged(logged):
        key, v = ("train_loss", r["loss"]) if kind == "train" else ("val_loss", r["val_loss"])
        lines.append(f"step:{step}/{spec.steps} {key}:{_f(v, '.4f')} train_time:{per * step:.0f}ms "
                     f"step_avg:{per:.2f}ms")
    (path / "train.log").write_text("\n".join(lines) + "\n")
    return "train.log"


FORMATS: dict[str, Callable[[Path, RunSpec, Logged], str]] = {
    "kv": write_kv, "jsonl": write_jsonl, "llmc": write_llmc, "hf": write_hf, "csv": write_csv_lightning,
    "megatron": write_megatron, "nanogpt": write_nanogpt,
}


def write_metrics_copy(path: Path, logged: Logged) -> None:
    """``metrics.csv`` with a ``step`` column and one column per metric (empty where not logged).

    For runs whose own log is already a Lightning ``metrics.csv`` the copy is ``metrics_copy.csv``.
    """
    rows: dict[int, dict] = {}
    for r in logged.train:
        rows.setdefault(r["step"], {}).update(train_loss=r["loss"], lr=r["lr"], grad_norm=r["grad_norm"])
    for r in logged.evals:
        rows.setdefault(r["step"], {}).update({k: v for k, v in r.items() if k != "step"})
    cols = ["train_loss", "lr", "grad_norm", "val_loss"] + (
        ["val_acc"] if any("val_acc" in r for r in logged.evals) else [])
    target = path / ("metrics_copy.csv" if (path / "metrics.csv").exists() else "metrics.csv")
    with open(target, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["step", *cols])
        for step in sorted(rows):
            w.writerow([step, *(_f(rows[step][c], ".7g") if c in rows[step] else "" for c in cols)])


def generate(spec: RunSpec, out: Path) -> dict:
    logged = train(spec)
    run_dir = out / spec.name
    run_dir.mkdir(parents=True, exist_ok=True)
    for old in run_dir.iterdir():
        old.unlink()
    source = FORMATS[spec.fmt](run_dir, spec, logged)
    write_metrics_copy(run_dir, logged)
    onset = onset_for(spec.label, logged, spec)
    label = {
        "label": spec.label, "onset_step": onset, "should_stop": CATEGORY[spec.label] != "healthy",
        "total_steps": spec.steps, "why": spec.why, "category": CATEGORY[spec.label], "source": source,
        "format": spec.fmt, "seed": spec.seed, "train_seconds": round(logged.seconds, 1),
        "generator": "bench/generate_corpus.py",
    }
    (run_dir / "label.json").write_text(json.dumps(label, indent=2) + "\n")
    return label


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--only", nargs="*", help="generate only these run names")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    t0 = time.time()
    for spec in RUNS:
        if args.only and spec.name not in args.only:
            continue
        lab = generate(spec, args.out)
        print(f"{spec.name:34s} {spec.label:16s} onset={lab['onset_step']!s:6s} {lab['train_seconds']:6.1f}s",
              flush=True)
    print(f"done in {time.time() - t0:.0f}s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
