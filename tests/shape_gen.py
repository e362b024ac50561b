"""Synthetic logs of the shapes the text engine claims to read (issue 32's list), each with random but plausible
variations, and the points a reader must get from it (its truth).

Every generator takes a ``random.Random`` and returns a ``Shape``: the log's bytes, the truth per metric (the name
normalised by ``norm``: ``Train Loss``, ``train_loss`` and ``train/loss`` are one name to a reader's user) and what
was drawn (for a failure's message). The truth values are the numbers as printed (``float`` of the printed text;
a percentage as its number, thousands separators dropped; a NaN or Inf spelling as the float it spells).

Shapes: records on lines (step names, ``name: v`` / ``name=v`` / ``name v``, field separators, metric-name styles,
number formats incl. ``1e-3`` and ``1.2E+02``, a time stamp before, NaN/Inf spellings); horizontal tables (multi-word
headers, rule rows, ASCII or box borders, ANSI colour per cell, the header printed again); counters at line start
(``12:\\tlearn: ...``); several processes behind launcher prefixes; ``[n/N]`` under an epoch, per epoch or global;
vertical tables (a block per iteration, stable-baselines3's); a progress bar's postfix value.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field

Points = list[tuple[int, float]]


@dataclass
class Shape:
    kind: str
    data: bytes
    truth: dict[str, Points]  # norm(name) -> [(step, value)]
    drawn: dict = field(default_factory=dict)


def norm(name: str) -> str:
    """A metric's name as a user reads it: case, separators and a ``train`` prefix or ``(train)`` qualifier aside
    (``Train Loss`` = ``train_loss`` = ``train/loss`` = ``loss(train)`` = ``loss``); ``valid`` = ``val``."""
    n = re.sub(r"[^a-z0-9]+", " ", name.lower()).split()
    n = ["val" if w in ("valid", "validation", "eval") else w for w in n if w not in ("train", "training")]
    return "_".join(n)


def _fmt(rng: random.Random) -> str:
    return rng.choice([".4f", ".5f", ".3e", ".2E", ".4g", ".6f"])


def _printed(value: float, fmt: str) -> tuple[str, float]:
    text = format(value, fmt)
    return text, float(text)


_NAN_SPELLINGS = ("nan", "NaN", "inf", "-inf", "Inf")


def _loss_curve(rng: random.Random, n: int) -> list[float]:
    a, b, c = rng.uniform(0.5, 8.0), rng.uniform(0.01, 0.3), rng.uniform(0.0, 0.5)
    return [c + a * math.exp(-b * i) * (1 + rng.uniform(-0.05, 0.05)) for i in range(n)]


def line_records(rng: random.Random) -> Shape:
    """``step 120 | train/loss: 0.4321 | lr: 1.0e-03`` and its variations."""
    n = rng.randint(12, 40)
    step_word = rng.choice(["step", "iter", "Step", "global_step", "Iteration", "it"])
    kv = rng.choice([": ", "=", " ", ":"])
    delim = rng.choice([" | ", ", ", "  ", "\t", " ", " - "])
    loss_name = rng.choice(["train/loss", "train_loss", "Train Loss", "loss(train)", "loss", "training_loss"])
    stride = rng.choice([1, 5, 10, 50, 100, 1000])
    start = rng.choice([0, 1, stride])
    commas = stride >= 1000 and rng.random() < 0.5
    stamp = rng.choice(["", "[2026-12-05 20:09:24,782] INFO ", "2026-12-05 20:09:24 | INFO | ", "INFO:root:"])
    fmt = _fmt(rng)
    with_lr, with_acc = rng.random() < 0.6, rng.random() < 0.4
    nan_at = rng.randint(n // 2, n - 1) if rng.random() < 0.3 else None
    nan_text = rng.choice(_NAN_SPELLINGS)
    losses = _loss_curve(rng, n)
    truth: dict[str, Points] = {norm(loss_name): []}
    if with_lr:
        truth["lr"] = []
    if with_acc:
        truth["acc"] = []
    out = []
    for i in range(n):
        step = start + i * stride
        step_text = f"{step:,}" if commas else str(step)
        if nan_at is not None and i >= nan_at:
            text, value = nan_text, float(nan_text)
        else:
            text, value = _printed(losses[i], fmt)
        fields = [f"{step_word}{kv}{step_text}", f"{loss_name}{kv}{text}"]
        truth[norm(loss_name)].append((step, value))
        if with_lr:
            lr_text, lr = _printed(1e-3 * (1 - i / (2 * n)), ".3e")
            fields.append(f"lr{kv}{lr_text}")
            truth["lr"].append((step, lr))
        if with_acc:
            acc_text, acc = _printed(0.3 + 0.5 * i / n, ".4f")
            fields.append(f"acc{kv}{acc_text}")
            truth["acc"].append((step, acc))
        out.append(stamp + delim.join(fields))
    drawn = dict(step_word=step_word, kv=kv, delim=delim, loss_name=loss_name, stride=stride, start=start,
                 commas=commas, stamp=stamp, fmt=fmt, nan_at=nan_at, nan_text=nan_text)
    return Shape("line_records", ("\n".join(out) + "\n").encode(), truth, drawn)


_BOX = {"none": ("", "  ", ""), "ascii": ("| ", " | ", " |"), "box": ("\u2502 ", " \u2502 ", " \u2502"),
        "heavy": ("\u2503 ", " \u2503 ", " \u2503")}
_RULE = {"none": None, "dash": "-", "heavy": "\u2501", "double": "\u2550"}


def horizontal_table(rng: random.Random, between_bars: bool = False) -> Shape:
    """A header of one- or several-word column names, an optional rule row, one row per epoch (or iteration);
    borders, ANSI colour per cell and the header printed again vary. ``between_bars``: each row printed after a
    progress bar redrawn with ``\r`` and cleared (fastprogress), its truth the row's own step column."""
    n = rng.randint(6, 30)
    step_col = rng.choice(["epoch", "Epoch", "iter", "step", "Iteration"])
    metric_cols = rng.sample(["train loss", "Train Loss", "val loss", "Valid Loss", "valid acc", "lr", "train_loss",
                              "val_loss", "accuracy"], rng.randint(1, 3))
    if not any("loss" in c.lower() for c in metric_cols):
        metric_cols[0] = "train loss"
    if len({norm(c) for c in metric_cols}) < len(metric_cols):
        metric_cols = list(dict.fromkeys(metric_cols[:1]))
    border = rng.choice(list(_BOX))
    rule = rng.choice(list(_RULE))
    ansi = rng.random() < 0.3
    again = rng.choice([0, 0, 5, 10])
    bars = between_bars
    start = rng.choice([0, 1])
    fmt = rng.choice([".4f", ".5f", ".3f"])
    widths = [max(len(step_col), 5)] + [max(len(c), 10) for c in metric_cols]
    left, mid, right = _BOX[border]
    header = left + mid.join(h.rjust(w) for h, w in zip([step_col, *metric_cols], widths, strict=True)) + right
    rule_line = None
    if _RULE[rule]:
        rule_line = left + mid.join(_RULE[rule] * w for w in widths) + right
    curves = {c: _loss_curve(rng, n) if "loss" in c.lower() else [0.3 + 0.6 * i / n for i in range(n)]
              for c in metric_cols}
    truth: dict[str, Points] = {norm(c): [] for c in metric_cols}
    out = ["Training started", header] + ([rule_line] if rule_line else [])
    for i in range(n):
        step = start + i
        if again and i and i % again == 0:
            out += [header] + ([rule_line] if rule_line else [])
        cells = [str(step).rjust(widths[0])]
        for c, w in zip(metric_cols, widths[1:], strict=True):
            text, value = _printed(curves[c][i], fmt)
            truth[norm(c)].append((step, value))
            cell = text.rjust(w)
            cells.append(f"\x1b[32m{cell}\x1b[0m" if ansi else cell)
        row = left + mid.join(cells) + right
        if bars:
            redraws = "\r".join(f" {100 * b // 8:3d}%|{'#' * b:<8}| {b}/8 [00:0{b}<00:01]" for b in range(9))
            row = f"{redraws}\r{' ' * 40}\r{row}"
        out.append(row)
    drawn = dict(step_col=step_col, metric_cols=metric_cols, border=border, rule=rule, ansi=ansi, again=again,
                 start=start, bars=bars)
    return Shape("horizontal_table", ("\n".join(out) + "\n").encode(), truth, drawn)


def counter_at_line_start(rng: random.Random) -> Shape:
    """CatBoost's ``12:\\tlearn: 0.69\\ttest: 0.70\\tbest: 0.70 (12)\\ttotal: 1.2s\\tremaining: 3s``."""
    n = rng.randint(10, 60)
    every = rng.choice([1, 1, 10, 50])
    test = rng.random() < 0.6
    learn, held = _loss_curve(rng, n), _loss_curve(rng, n)
    truth: dict[str, Points] = {"loss": []}
    if test:
        truth["test_loss"] = []
    out = ["Learning rate set to 0.05"]
    best = math.inf
    for i in range(n):
        it = i * every
        lt, lv = _printed(learn[i], ".7f")
        line = f"{it}:\tlearn: {lt}"
        truth["loss"].append((it, lv))
        if test:
            tt, tv = _printed(held[i], ".7f")
            best = min(best, tv)
            line += f"\ttest: {tt}\tbest: {best:.7f} ({it})"
            truth["test_loss"].append((it, tv))
        line += f"\ttotal: {12 * (i + 1)}ms\tremaining: {12 * (n - i)}ms"
        out.append(line)
    return Shape("counter_at_line_start", ("\n".join(out) + "\n").encode(), truth, dict(every=every, test=test))


_PREFIXES = (lambda r: f"[default{r}]:", lambda r: f"[rank{r}]: ", lambda r: f"{r}: ", lambda r: f"[1,{r}]<stdout>:")


def launcher_prefixes(rng: random.Random) -> Shape:
    """Every line printed by each of two to four ranks, behind a launcher's prefix (torchrun --tee, srun --label,
    mpirun): each record is one point, at its own step."""
    n = rng.randint(10, 30)
    ranks = rng.randint(2, 4)
    pre = rng.choice(range(len(_PREFIXES)))
    stride = rng.choice([1, 10, 20])
    losses = _loss_curve(rng, n)
    truth: dict[str, Points] = {"loss": []}
    out = []
    for i in range(n):
        step = (i + 1) * stride
        text, value = _printed(losses[i], ".4f")
        truth["loss"].append((step, value))
        order = list(range(ranks))
        rng.shuffle(order)  # ranks print in any order
        for r in order:
            noise = 0.0 if r == 0 else 0.01 * r
            own = text if r == 0 else format(losses[i] + noise, ".4f")
            out.append(f"{_PREFIXES[pre](r)}step {step} | loss {own} | rank {r}")
    return Shape("launcher_prefixes", ("\n".join(out) + "\n").encode(), truth, dict(ranks=ranks, prefix=pre))


def epoch_counters(rng: random.Random) -> Shape:
    """``Epoch 3 [40/100] loss: 0.52``: a counter that restarts each epoch (step = (epoch - first) x N + n), or one
    that does not (the run's global step)."""
    epochs = rng.randint(2, 6)
    per = rng.choice([20, 50, 100])
    every = rng.choice([5, 10])
    e0 = rng.choice([0, 1])
    glob = rng.random() < 0.5
    total = epochs * per
    losses = _loss_curve(rng, epochs * per // every + 2)
    truth: dict[str, Points] = {"loss": []}
    out, k = [], 0
    for e in range(e0, e0 + epochs):
        for n in range(every, per + 1, every):
            step = (e - e0) * per + n
            shown, of = (step, total) if glob else (n, per)
            text, value = _printed(losses[k], ".4f")
            k += 1
            out.append(f"Epoch {e} [{shown}/{of}] loss: {text}")
            truth["loss"].append((step, value))
    return Shape("epoch_counters", ("\n".join(out) + "\n").encode(), truth, dict(glob=glob, per=per, e0=e0))


def vertical_blocks(rng: random.Random) -> Shape:
    """stable-baselines3's logger: a block of ``| name | value |`` rows between dashed borders per iteration, its
    step the ``time/total_timesteps`` row."""
    n = rng.randint(5, 15)
    batch = rng.choice([128, 512, 2048])
    losses = _loss_curve(rng, n)
    truth: dict[str, Points] = {"rollout_ep_rew_mean": [], "loss": []}
    out = []
    for i in range(1, n + 1):
        ts = batch * i
        lt, lv = _printed(losses[i - 1], ".4g")
        rew_t, rew = _printed(10.0 + 3.5 * i, ".3g")
        rows = [("rollout/", ""), ("   ep_len_mean", f"{20 + i}"), ("   ep_rew_mean", rew_t), ("time/", ""),
                ("   fps", f"{900 + i}"), ("   iterations", f"{i}"), ("   total_timesteps", f"{ts}"),
                ("train/", ""), ("   learning_rate", "0.0003"), ("   loss", lt)]
        width = max(len(a) for a, _ in rows)
        out.append("-" * (width + 16))
        out += [f"| {a.ljust(width)} | {b.ljust(10)} |" for a, b in rows]
        out.append("-" * (width + 16))
        truth["rollout_ep_rew_mean"].append((ts, rew))
        truth["loss"].append((ts, lv))
    return Shape("vertical_blocks", ("\n".join(out) + "\n").encode(), truth, dict(batch=batch))


def bar_postfix(rng: random.Random) -> Shape:
    """A tqdm bar per epoch redrawn with ``\r``, its postfix holding the loss last logged (``loss=0.523``), set every
    ``every`` batches: one point per logged value, at the step the bar shows when it changes (epoch x N + n)."""
    epochs = rng.randint(2, 4)
    per = rng.choice([20, 40, 60])
    every = rng.choice([1, 2, 5])
    desc = rng.choice(["Epoch {e}", "epoch {e}", "Training epoch {e}", "Train {e}"])
    fmt = rng.choice([".4f", ".5f", ".4e"])
    top = rng.uniform(2.0, 9.0)
    losses = [top - i * (top - 0.5) / (epochs * per) for i in range(epochs * per)]  # each logged value new
    truth: dict[str, Points] = {"loss": []}
    out: list[str] = []
    last = None
    for e in range(epochs):
        draws = [f"{desc.format(e=e)}:   0%|          | 0/{per} [00:00<?, ?it/s]"]
        for n in range(1, per + 1):
            step = e * per + n
            if (step - 1) % every == 0:
                last, value = _printed(losses[step - 1], fmt)
                truth["loss"].append((step, value))
            pct = 100 * n // per
            bar = ("#" * (pct // 10)).ljust(10)
            rate = f"[00:0{n % 10}<00:01, 9.{n % 10}it/s, loss={last}]"
            draws.append(f"{desc.format(e=e)}: {pct:3d}%|{bar}| {n}/{per} {rate}")
        out.append("\r".join(draws))
    return Shape("bar_postfix", ("\n".join(out) + "\n").encode(), truth, dict(every=every, desc=desc, per=per))


_NOISE = ("WARNING: something happened", "/venv/lib/python3.11/site-packages/torch/nn/modules.py:12: UserWarning: x",
          "  warnings.warn(", "Saving checkpoint to ./out/ckpt_{k}.pt", "Loaded 50000 samples from data/train",
          "GPU 0 memory: {k} MiB")


def noisy_records(rng: random.Random) -> Shape:
    """Records on lines with prose between them (warnings, checkpoints, counts) and an evaluation record every few
    steps: the noise is no metric, each record at its step."""
    n = rng.randint(15, 40)
    every = rng.choice([10, 25, 100])
    eval_every = rng.choice([3, 5])
    losses, vals = _loss_curve(rng, n), _loss_curve(rng, n)
    truth: dict[str, Points] = {"loss": [], "val_loss": []}
    out = ["Starting training", "Config: lr=0.001 batch_size=32 epochs=3"]
    for i in range(n):
        step = (i + 1) * every
        text, value = _printed(losses[i], ".4f")
        out.append(f"step {step}/{n * every} | loss {text} | grad_norm {0.5 + 0.01 * i:.3f}")
        truth["loss"].append((step, value))
        if rng.random() < 0.3:
            out.append(rng.choice(_NOISE).format(k=i))
        if (i + 1) % eval_every == 0:
            vt, vv = _printed(vals[i], ".4f")
            out.append(f"eval at step {step}: val_loss {vt}")
            truth["val_loss"].append((step, vv))
    return Shape("noisy_records", ("\n".join(out) + "\n").encode(), truth, dict(every=every, eval_every=eval_every))


def table_between_bars(rng: random.Random) -> Shape:
    """``horizontal_table`` with a bar's ``\r`` redraws before each row (not in ``SHAPES``: see the test's KNOWN)."""
    return horizontal_table(rng, between_bars=True)


SHAPES = (line_records, horizontal_table, counter_at_line_start, launcher_prefixes, epoch_counters, vertical_blocks,
          bar_postfix, noisy_records)


def matches(truth: dict[str, Points], read: dict[str, dict[int, float]]) -> list[str]:
    """What a reading got wrong against the truth (empty: all right). ``read``: metric -> {step: value}."""
    got = {}
    for k, pts in read.items():
        got.setdefault(norm(k), {}).update(pts)
    wrong = []
    for name, pts in truth.items():
        have = got.get(name)
        if have is None:
            wrong.append(f"{name}: not read (read: {sorted(got)})")
            continue
        want = dict(pts)
        if set(have) != set(want):
            wrong.append(f"{name}: {len(have)} steps read, {len(want)} printed; read only at "
                         f"{sorted(set(have) - set(want))[:8]}, missed {sorted(set(want) - set(have))[:8]}")
            continue
        bad = [(s, have[s], v) for s, v in want.items()
               if not (math.isnan(v) and math.isnan(have[s]) or not math.isnan(v) and math.isclose(
                   have[s], v, rel_tol=1e-9, abs_tol=1e-12))]
        if bad:
            wrong.append(f"{name}: values at {bad[:4]}")
    return wrong
