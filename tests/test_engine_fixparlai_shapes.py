"""A wide table printed wrapped to the terminal's width in chunks (pandas' ``DataFrame`` print, ParlAI's train and
eval reports): header rows ending in `` \\`` go on in the next chunk; the chunks are one record, placed at the step
of the line just before it (``tools/parsers/wrapped_tables.py``). Read whole and in pieces (any cut)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from training_check.tools.parsers.wrapped_tables import unwrap

from tests.test_read_misses import _live, points_at, whole_and_pieces, whole_as_live

REPO = Path(__file__).resolve().parent.parent
SET = REPO / "examples" / "libraries_holdout81"


def _fmt(v: float) -> str:
    s = f"{v:.4g}"
    return s[1:] if s.startswith("0.") else s  # ParlAI's numbers: the leading zero dropped


def _table(names: list[str], rows: list[list[str]], width: int, index: bool = False) -> list[str]:
    """``rows`` under ``names`` as pandas prints them wrapped at ``width`` (right-aligned columns; a header row
    but the last ending in `` \\``; ``index``: each row's label first, the header blank over it)."""
    widths = [max(len(n), *(len(r[k]) for r in rows)) for k, n in enumerate(names)]
    lab = max(len(str(k)) for k in range(len(rows))) if index else 0
    chunks: list[list[int]] = [[]]
    used = lab
    for k, w in enumerate(widths):
        if chunks[-1] and used + 2 + w > width:
            chunks.append([])
            used = lab
        chunks[-1].append(k)
        used += 2 + w
    out: list[str] = []
    for c, cols in enumerate(chunks):
        head = " " * lab + "".join("  " + names[k].rjust(widths[k]) for k in cols)
        out.append(head + ("  \\" if c < len(chunks) - 1 else "  "))
        for r, row in enumerate(rows):
            out.append((str(r).ljust(lab) if index else "") + "".join("  " + row[k].rjust(widths[k]) for k in cols)
                       + "   ")
    return out


def _parlai_log(seed: int, n: int, widths: list[int], head: str, extra: int = 3) -> tuple[bytes, list]:
    rng = random.Random(seed)
    names = ["clen", "clip", "exps", "gnorm", "loss", "lr", "ppl", "token_acc"] + [f"m{k}" for k in range(extra)]
    names += ["total_train_updates"] if "total_steps" in head else []
    lines = ["2026-12-07 13:58:27,583 INFO     |     learningrate: 0.01", "training..."]
    truth = []
    loss = rng.uniform(2, 5)
    for r in range(1, n + 1):
        step = r * 8
        loss *= rng.uniform(0.85, 0.99)
        vals = {"clen": "4", "clip": "1", "exps": f"{rng.uniform(500, 5000):.4g}", "gnorm": _fmt(rng.uniform(.3, 2)),
                "loss": _fmt(loss), "lr": ".0100", "ppl": f"{2.718 ** loss:.4g}", "token_acc": _fmt(rng.random())}
        vals.update({f"m{k}": _fmt(rng.random()) for k in range(extra)})
        if "total_steps" in head:  # ParlAI's: the updates done, a column of the report
            vals["total_train_updates"] = str(step)
        said = head.format(step=step, ex=16 * step, ep=f"{step / 31:.2f}")
        lines.append(f"2026-12-07 13:58:29,{r:03d} INFO     | {said}")
        lines.extend(_table(names, [[vals[k] for k in names]], widths[r % len(widths)]))
        lines.append("")
        truth.append((step, float(vals["loss"])))
    return ("\n".join(lines) + "\n").encode(), truth


HEADS = ("time:0s total_exs:{ex} total_steps:{step} epochs:{ep} time_left:1s", "step {step} | epoch 1",
         "Iteration {step} report:")


@pytest.mark.parametrize("seed", range(6))
def test_a_wrapped_one_row_table_is_one_record_at_the_step_of_the_line_before(tmp_path, seed):
    rng = random.Random(seed)
    widths = [rng.choice((40, 60, 80, 100)) for _ in range(rng.randint(1, 3))]
    data, truth = _parlai_log(seed, rng.randint(8, 14), widths, HEADS[seed % len(HEADS)], extra=rng.randint(1, 9))
    assert b" \\\n" in data
    pts = whole_and_pieces(tmp_path, data, f"g{seed}", seed=seed)
    assert points_at(pts, "loss") == truth


def test_a_table_in_one_chunk_under_a_line_that_headed_a_wrapped_one_is_read_alike(tmp_path):
    # the terminal wide enough for some reports: those are one chunk
    data, truth = _parlai_log(7, 10, [50, 10 ** 4, 10 ** 4], "step {step} | epoch 1")
    pts = whole_and_pieces(tmp_path, data, "mixed", trials=4)
    assert points_at(pts, "loss") == truth


def test_the_eval_report_after_a_split_banner_is_an_eval_record(tmp_path):
    names = ["accuracy", "bleu-4", "f1", "loss", "ppl", "total_train_updates"]
    lines = []
    for k in range(1, 7):
        lines.append(f"2026-12-07 13:58:38,{k:03d} INFO     | time:0s total_exs:{k * 128} total_steps:{k * 8} "
                     "epochs:0.26")
        lines.extend(_table(["exs", "loss", "lr", "ppl", "total_train_updates"],
                            [["128", _fmt(2.0 - k / 10), ".0100", "3.2", str(k * 8)]], 30))
        if k % 2 == 0:
            lines.append(f"2026-12-07 13:58:38,{k:03d} REPORT   | valid:")
            lines.extend(_table(names, [[".48", ".48", ".98", _fmt(1.5 - k / 20), "1.4", str(k * 8)]], 40))
        lines.append("")
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "eval")
    assert points_at(pts, "loss") == [(k * 8, float(_fmt(2.0 - k / 10))) for k in range(1, 7)]
    assert points_at(pts, "val_loss") == [(k * 8, float(_fmt(1.5 - k / 20))) for k in (2, 4, 6)]


def test_a_wrapped_table_of_several_rows_is_one_table_its_step_column_the_step(tmp_path):
    rng = random.Random(3)
    names = ["step", "loss", "accuracy", "grad_norm", "learning_rate", "throughput", "memory"]
    rows = [[str(10 * (r + 1)), f"{3 - r / 10:.4f}", f"{rng.random():.4f}", f"{rng.random():.4f}", "0.001",
             f"{rng.uniform(100, 900):.1f}", "1024"] for r in range(12)]
    data = ("\n".join(["run report", *_table(names, rows, 40, index=True)]) + "\n").encode()
    assert data.count(b" \\\n") >= 1
    pts = whole_as_live(tmp_path, data, "rows")
    assert points_at(pts, "loss") == [(10 * (r + 1), 3 - r / 10) for r in range(12)]


def test_the_joined_text_and_what_is_held_at_a_cut():
    data, _ = _parlai_log(1, 2, [40], "step {step} | epoch 1")
    st: dict = {}
    body, held = unwrap(data, st, shown=False)
    assert b"step 8 | epoch 1  clen: 4  clip: 1" in body and b"\\" not in body and not held
    # a read that ends between two chunks holds the table and the line before it
    cut = data.index(b" \\\n", data.index(b"step 16")) + 3
    st = {}
    body, held = unwrap(data[:cut], st, shown=False)
    assert held.startswith(b"2026-12-07 13:58:29,002 INFO     | step 16") and b"step 16" not in body
    # a read that ends on a line known to head a table holds it
    cut = data.index(b"\n", data.index(b"step 16")) + 1
    body, held = unwrap(data[:cut], {"wt_heads": st["wt_heads"]}, shown=False)
    assert held.startswith(b"2026-12-07") and b"step 16" in held


def test_a_model_summary_or_config_table_is_no_wrapped_record():
    text = (b"Layer (type)   Output Shape   Param #\n"
            b"Linear-1        [-1, 128]      100480\n"
            b"config: a \\\n"
            b"   lr  batch\n"
            b" 0.01     32\n")
    assert unwrap(text, {}, shown=False)[0] == text


def test_hostile_chunks_read_in_linear_time():
    import time
    line = b"  a  b  \\\n  1  2   \n"
    data = line * 20000 + b"x\n"
    t0 = time.perf_counter()
    unwrap(data, {}, shown=True)
    assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize("run", sorted(p.name for p in SET.glob("parlai_*")))
def test_the_parlai_runs_read_at_the_truths_steps(tmp_path, run):
    data = (SET / run / "train.log").read_bytes()
    truth = json.loads((SET / run / "truth.json").read_text())
    pts = whole_as_live(tmp_path, data, run)
    got = dict(points_at(pts, "loss"))
    for step, value in truth["train_loss"]:
        assert step in got and got[step] == pytest.approx(value, rel=truth["tolerance"]["rel"]), (run, step)
    live = _live(tmp_path, data, [len(data) // 3, len(data) // 2], name=f"l_{run}")
    assert live["loss"] == pts["loss"]
