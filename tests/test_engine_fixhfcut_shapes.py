"""The bar the run's records are written under (examples/libraries_holdout65's happytransformer driving the Hugging
Face Trainer; fixhfcut).

The shape: bars of another total run to their end before training (a dataset's map, a tokenizer, a download:
``Tokenizing data: 100%|##########| 144/144 [00:00<00:00, 22647.26 examples/s]``), then the training bar on stderr,
``\\r``-joined (``  6%|6         | 5/90 [00:00<00:00, 195.87it/s]``), cleared by tqdm's write at each logging step (a
line of blanks, then the bar drawn again), and the Trainer's log dicts with no step of their own (``{'loss': 0.4368,
'grad_norm': ..., 'learning_rate': ..., 'epoch': 3.61}``) coming on a buffered stdout, later, between bar states or at
the end. Each dict is at the count of the write it was printed at: the training bar's, even when an earlier bar's
total is larger (the largest total was the run's bar: read whole, the final summary's run length put the dicts back
at their steps; in pieces, before it, every dict landed at the map's 144). The bar drawn right after a clear (the line
before the clear not another bar's) is the one written under; a larger bar that ran to its end is not the run's; a
clear at a read's end is kept for the next read's first redraw. Whole and in pieces at any cut alike.
"""

from __future__ import annotations

import json
import random

import pytest

from .conftest import REPO
from .test_read_misses import _live, whole_as_live

_FULL = "█"


def _bar(desc: str, n: int, total: int, unit: str = "it") -> str:
    frac = n / total
    bar = _FULL * int(frac * 10)
    if n == 0:
        return f"{desc}{0:3d}%|{'':10}| 0/{total} [00:00<?, ? {unit}/s]" if unit != "it" else \
            f"{desc}  0%|{'':10}| 0/{total} [00:00<?, ?it/s]"
    return f"{desc}{int(100 * frac):3d}%|{bar:<10}| {n}/{total} [00:00<00:00, {123.45 + n:.2f}{unit}/s]"


def _hf(rng: random.Random, steps: int, every: int, pre: list[tuple[str, int]], evals: bool = False,
        flush: int = 8192, first_flushed: bool = True) -> tuple[bytes, list[tuple[int, float]]]:
    """A Trainer run as it lands in one file (stdout buffered, stderr not): logger lines, bars of their own that run
    to their end (``pre``: description and total), the training bar cleared and drawn again at each logging step
    (and an eval's nested bar under it, ``evals``), the log dicts (no step; a fractional epoch) flushed once
    ``flush`` bytes wait, or at the end; the truth: (step, loss) where each dict was logged."""
    out = ["12/07/2026 05:17:05 - INFO - happytransformer.happy_transformer -   Using device: cpu\n"]
    for desc, total in pre:
        out.append(f"{_bar(desc, 0, total, ' examples')}\r{_bar(desc, total, total, ' examples')}\n")
    out.append("12/07/2026 05:17:05 - INFO - happytransformer.happy_transformer -   Moving model to cpu\n")
    spe = rng.choice((steps // 3, steps // 4, steps // 5)) or 1
    width = 40 + len(str(steps)) * 2
    truth: list[tuple[int, float]] = []
    buf: list[str] = []
    out.append("\r" + _bar("", 0, steps))
    loss = rng.uniform(0.6, 4.0)
    logged = [1, *range(every, steps + 1, every)]
    if logged[-1] != steps:
        logged.append(steps)
    for k in range(1, steps + 1):
        if k not in logged:
            if rng.random() < 0.3:
                out.append("\r" + _bar("", k, steps))
            continue
        loss *= rng.uniform(0.85, 1.02)
        truth.append((k, round(loss, 4)))
        out.append("\r" + " " * width + "\r\r" + _bar("", k, steps))  # tqdm.write: clear, print, draw again
        d = (f"{{'loss': {loss:.4f}, 'grad_norm': {rng.uniform(0.1, 3):.6f}, 'learning_rate': "
             f"{0.005 * (1 - k / steps):.6g}, 'epoch': {round(k / spe, 2)}}}\n")
        if first_flushed and k == 1:
            out.append(d)
        else:
            buf.append(d)
        if evals:
            e = rng.randint(2, 4)
            out.append("\n\n\r" + _bar("", 0, e) + "\x1b[A\r" + " " * (width + 7) + "\r\n\r" + " " * width
                       + "\r\x1b[A\r" + _bar("", k, steps) + "\n\r" + _bar("", e, e) + "\x1b[A\n\r" + " " * (width + 7)
                       + "\x1b[A\r" + " " * (width + 6) + "\r\r" + _bar("", k, steps))
            buf.append(f"{{'eval_loss': {loss * 1.1:.6f}, 'eval_runtime': 0.0031, 'epoch': {round(k / spe, 2)}}}\n")
        if sum(map(len, buf)) >= flush:
            out.append("".join(buf))
            buf = []
    out.append("\r" + _bar("", steps, steps) + "\n")
    buf.append(f"{{'train_runtime': 0.3081, 'train_steps_per_second': {steps / 0.3081:.3f}, 'train_loss': "
               f"{truth[-1][1]:.4f}, 'epoch': {round(steps / spe, 2)}}}\n")
    out.append("".join(buf))
    return "".join(out).encode(), truth


def _loss(pts: dict) -> list[tuple[int, float]]:
    steps, values = pts["loss"]
    return list(zip(steps, values, strict=True))


def _at_every_break(tmp_path, data: bytes, name: str) -> None:
    """Read in two pieces cut at every record break (``\\r``, ``\\n``) and the byte after it: the same points."""
    whole = json.dumps(_live(tmp_path, data, [], name=f"w_{name}"))
    cuts = sorted({c for i, b in enumerate(data) if b in (10, 13) for c in (i, i + 1) if 0 < c < len(data)})
    for c in cuts:
        got = json.dumps(_live(tmp_path, data, [c], name=f"c{c}_{name}"))
        assert got == whole, (name, c)


@pytest.mark.parametrize("seed", range(6))
def test_records_are_at_the_written_bars_count_past_a_larger_bar_that_ran_before(tmp_path, seed):
    rng = random.Random(seed)
    steps = rng.choice((20, 33, 48, 90))
    every = rng.choice((2, 4, 5, steps // 10 or 1))
    desc = rng.choice(("Tokenizing data: ", "Map: ", "Map (num_proc=2): "))  # (the train set's, the eval set's)
    pre = [(desc, rng.randint(steps + 1, 4 * steps)), (desc, rng.randint(2, 4 * steps))]
    if rng.random() < 0.5:
        pre.insert(rng.randint(0, 2), ("Running tokenizer on dataset: ", rng.randint(2, 4 * steps)))
    data, truth = _hf(rng, steps, every, pre, evals=seed % 2 == 1, flush=rng.choice((400, 1500, 8192)),
                      first_flushed=seed % 3 != 0)
    whole = whole_as_live(tmp_path, data, f"hf{seed}.log")
    assert _loss(whole) == truth
    # the run still training (its final summary, which tells the run's length, not printed yet): the dicts so far
    # at their steps too
    head = data[:data.rindex(b"{'train_runtime'")]
    so_far = _loss(_live(tmp_path, head, [], name=f"head{seed}.log"))
    assert so_far and so_far == truth[:len(so_far)], (so_far, truth)
    cuts = tuple(sorted(rng.uniform(0.02, 0.98) for _ in range(5)))
    whole_as_live(tmp_path, data, f"hfr{seed}.log", cuts=cuts)  # (asserts: as read whole)


def test_every_cut_of_a_small_log_reads_the_same(tmp_path):
    rng = random.Random(7)
    data, truth = _hf(rng, 12, 3, [("Tokenizing data: ", 144), ("Tokenizing data: ", 16)], evals=True, flush=300)
    assert _loss(_live(tmp_path, data, [], name="small.log")) == truth
    _at_every_break(tmp_path, data, "small.log")


def test_without_a_bar_before_or_with_a_smaller_one_the_reading_is_as_before(tmp_path):
    for seed, pre in enumerate(([], [("Map: ", 10)])):
        rng = random.Random(100 + seed)
        data, truth = _hf(rng, 40, 5, pre, evals=True, flush=1000)
        assert _loss(whole_as_live(tmp_path, data, f"plain{seed}.log")) == truth


def test_a_larger_bar_still_counting_stays_the_runs(tmp_path):
    """A bar that has not reached its total (the run's own, counting) is not set aside for a smaller bar written
    under: a training bar of 200 whose records have their own steps, an evaluation's bar of 8 cleared for a write."""
    lines = []
    for k in range(1, 201):
        lines.append("\r" + _bar("", k, 200))
        if k % 50 == 0:
            lines.append(f"\nstep {k} loss {1 / k:.5f}\n")
            lines.append("\r" + _bar("", 0, 8) + "\r" + " " * 50 + "\r\r" + _bar("", 8, 8))
    data = "".join(lines).encode()
    pts = whole_as_live(tmp_path, data, "counting.log")
    assert pts["loss"][0] == [50, 100, 150, 200]


HOLDOUT = REPO / "examples" / "libraries_holdout65"


@pytest.mark.parametrize("run", sorted(p.name for p in HOLDOUT.iterdir() if (p / "truth.json").is_file()))
def test_holdout65_reads_at_the_truths_steps_whole_and_in_pieces(tmp_path, run):
    data = (HOLDOUT / run / "train.log").read_bytes()
    truth = json.loads((HOLDOUT / run / "truth.json").read_text())["train_loss"]
    pts = whole_as_live(tmp_path, data, f"{run}.log")
    got = dict(_loss(pts))
    at = [s for s, v in truth if s in got and abs(got[s] - v) <= 5.1e-5 + 1e-9 * abs(v)]
    assert len(at) == len(truth), (run, truth, got)
    for cuts in ((0.09, 0.31, 0.62, 0.97), (0.5,), (0.95, 0.99)):
        whole_as_live(tmp_path, data, f"{run}_{len(cuts)}_{cuts[0]}.log", cuts=cuts)  # (asserts: as read whole)
