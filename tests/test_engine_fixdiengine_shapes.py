"""Transposed tables (fixdiengine, examples/libraries_holdout80's LightZero runs on DI-engine): a ``Name`` row of
column names over a ``Value`` row, several tables under one rich-handler message, rows wrapped by the terminal's
width, the record at the iteration its message names (``tools/parsers/transposed.py``)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from tests.test_read_misses import _live, points_at, primary_names, whole_and_pieces, whole_as_live
from tools.parsers.transposed import _message, _row

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "examples" / "libraries_holdout80"
PAD = 26  # rich's column of the message


def _table(names: list[str], values: list[str], width: int) -> list[str]:
    """A DI-engine table (``tabulate``'s grid) printed by rich at ``width`` columns: rows wider wrapped."""
    ws = [max(len(n), len(v)) for n, v in zip(["Name", *names], ["Value", *values], strict=True)]
    rule = "+" + "+".join("-" * (w + 2) for w in ws) + "+"

    def row(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, ws, strict=True)) + " |"

    out = []
    for text in (rule, row(["Name", *names]), rule, row(["Value", *values]), rule):
        room = width - PAD
        while text:  # rich wraps at a blank (a rule, a word longer than the room: where the room ends)
            cut = room if len(text) <= room or " " not in text[:room + 1] else text[:room + 1].rindex(" ")
            cut = cut or room
            out.append(" " * PAD + text[:cut].rstrip(" ").ljust(room))
            text = text[cut:].lstrip(" ")
    return out


def _line(stamp: int, msg: str, where: str, width: int) -> str:
    head = f"[12-07 14:{stamp // 60 % 60:02d}:{stamp % 60:02d}] INFO     {msg}"
    return head + " " * max(2, width - len(head) - len(where)) + where


def _log(rng: random.Random, iters: int, every: int, width: int, n_extra: int, nan_from: int | None = None
         ) -> tuple[bytes, list[tuple[int, float]], list[tuple[int, float]]]:
    lines = [_line(0, "[RANK0]: DI-engine DRL Policy", "base_learner.py:360", width), " " * PAD + "Model("]
    truth, evals = [], []
    loss = 40.0 + rng.random() * 10
    for it in range(0, iters, every):
        if it % (3 * every) == 0:
            ret = round(rng.uniform(5, 50), 1)
            lines.append(_line(it, f"[EVALUATOR]env 0 finish episode, final reward: {ret}, current episode: 1",
                               "muzero_evaluator.py:367", width))
            lines.append(_line(it, "", "muzero_evaluator.py:444", width))
            lines += _table(["train_iter", "ckpt_name", "episode_count"], [f"{it:.6f}", f"iteration_{it}.pth.tar",
                                                                            "1.000000"], width)
            lines += _table(["reward_mean", "eval_episode_return"], [f"{ret:.6f}", f"[{ret}]"], width)
            evals.append((it, ret))
        lines.append(_line(it, f"[RANK0]: === Training Iteration {it} Result ===", "base_learner.py:360", width))
        lines.append(_line(it, "", "learner_hook.py:228", width))
        extra = [f"analysis/some_long_statistic_number_{k}_avg" for k in range(n_extra)]
        lines += _table(extra, [f"{rng.random():.6f}" for _ in extra], width)
        loss *= 0.9
        shown = "nan" if nan_from is not None and it >= nan_from else f"{loss:.6f}"
        lines += _table(["cur_lr_avg", "weighted_total_loss_avg", "total_loss_avg", "policy_loss_avg"],
                        ["0.003000", shown, shown, f"{rng.random():.6f}"], width)
        truth.append((it, float(shown)))
        lines.append(" " * width)
    return ("\n".join(lines) + "\n").encode(), truth, evals


def _same(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> None:
    assert [s for s, _ in got] == [s for s, _ in want]
    for (_, a), (_, b) in zip(got, want, strict=True):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-6)


def test_message_drops_stamp_level_and_source_location():
    line = _line(5, "[RANK0]: === Training Iteration 15 Result ===", "base_learner.py:360", 170).encode()
    assert _message(line, __import__("tools.parsers.dialect", fromlist=["DIALECT"]).DIALECT) == (
        b"[RANK0]: === Training Iteration 15 Result ===")
    empty = _line(5, "", "learner_hook.py:228", 170).encode()
    assert _message(empty, __import__("tools.parsers.dialect", fromlist=["DIALECT"]).DIALECT) == b""


def test_wrapped_row_is_joined():
    lines = [b"  | Name | aaa | bbb |", b"  ccc |", b"  +----+", b"  | Value | 1 | 2", b"  |", b"  +---"]
    assert _row(lines, 0, len(lines)) == (b"| Name | aaa | bbb | ccc |", 2)
    assert _row(lines, 3, len(lines)) == (b"| Value | 1 | 2 |", 5)
    assert _row(lines, 0, 1) is None  # the lines end before the row is known whole


@pytest.mark.parametrize("seed", range(6))
def test_generated_variants_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    width = rng.choice([120, 150, 170, 220])
    every = rng.choice([1, 5, 15])
    iters = every * rng.randint(4, 12)
    nan_from = rng.choice([None, 2 * every])
    data, truth, evals = _log(rng, iters, every, width, rng.randint(1, 5), nan_from)
    pts = whole_and_pieces(tmp_path, data, f"gen{seed}", seed=seed)
    _same(points_at(pts, "total_loss_avg"), truth)
    assert "total_loss_avg" in primary_names(pts)
    _same(points_at(pts, "val_reward_mean"), evals)  # the evaluator's record: an eval, at its train_iter
    assert all(not k.startswith("analysis") or "number" in k for k in pts)


def test_read_cut_in_every_line(tmp_path):
    rng = random.Random(7)
    data, truth, _ = _log(rng, 12, 3, 140, 3)
    starts = [i + 1 for i, b in enumerate(data) if b == 10][:-1]
    live = _live(tmp_path, data, starts, name="every_line.log")
    _same(points_at(live, "total_loss_avg"), truth)


CORPUS = sorted(p for p in SET.glob("lightzero_*") if (p / "train.log").exists())


@pytest.mark.parametrize("run", CORPUS, ids=lambda p: p.name)
def test_corpus_files_read_at_truth_steps(tmp_path, run):
    truth = json.loads((run / "truth.json").read_text())
    pts = whole_as_live(tmp_path, (run / "train.log").read_bytes(), run.name)
    got = dict(points_at(pts, truth["loss_name"]))
    for step, value in truth["train_loss"]:
        assert step in got, (run.name, step)
        v = float(value)
        assert (math.isnan(v) and math.isnan(got[step])) or got[step] == pytest.approx(v, rel=1e-5, abs=1e-5)
