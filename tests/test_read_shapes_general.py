"""Issue 32, in general terms: a count is not a metric; a CSV/TSV's step column by name or as the monotone integer
column (one rule with text tables); a number-only log read at any age; a fact learned late (HF's run length in its
final summary) reads the file again, so its points do not depend on how the reads were cut. Real files from
examples/ where a library wrote them, read through the real LogFileSource."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from training_check.tools.parsers.step_column import monotone_cells
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

from tests.conftest import REPO

FS = LocalFileSystem()
EX = REPO / "examples"


def _read(path: Path, old: bool = True) -> tuple[dict[str, dict[int, float]], list[str]]:
    t = 1.0 if old else time.time()
    os.utime(path, (t, t))
    src, cur, pts, notes = LogFileSource(FS, str(path)), None, {}, []
    while True:
        res = src.read(cur)
        cur = res.cursor
        notes += [n for n in res.notes if n not in notes]
        for b in (res.batch, res.provisional.batch if res.provisional else None):
            for k, c in (b.columns.items() if b is not None else ()):
                pts.setdefault(k, {}).update(zip(c.steps.tolist(), c.values.tolist(), strict=True))
        if not res.more:
            return pts, notes


def _pieces(path: Path, data: bytes, cuts: list[int]) -> dict[str, dict[int, float]]:
    """``data`` appended to ``path`` piece by piece, a read after each (a later read's reset replaces all)."""
    path.write_bytes(b"")
    src, cur, pts = LogFileSource(FS, str(path)), None, {}
    prev = 0
    for c in [*cuts, len(data)]:
        with open(path, "ab") as f:
            f.write(data[prev:c])
        prev = c
        res = src.read(cur)
        cur = res.cursor
        if res.reset:
            pts = {}
        for k, col in res.batch.columns.items():
            pts.setdefault(k, {}).update(zip(col.steps.tolist(), col.values.tolist(), strict=True))
    return pts


# -- a count is not a metric ------------------------------------------------------------
@pytest.mark.parametrize("line", [
    b"val: Scanning /data/labels/val... 8 images, 0 backgrounds, 0 corrupt: 100% 8/8 683.0it/s 0.0s",
    b"Found 8 images belonging to 2 classes.",
    b"train: loaded 100 samples",
    b"val loss over 3 batches",
])
def test_a_number_followed_by_a_counted_noun_is_no_metric(tmp_path, line):
    p = tmp_path / "train.log"
    p.write_bytes(line + b"\n" + b"".join(b"step %d loss %.2f\n" % (s, 2 - s / 10) for s in range(1, 6)) + line
                  + b"\n")
    pts, _ = _read(p)
    assert sorted(pts) == ["loss"] and sorted(pts["loss"]) == [1, 2, 3, 4, 5], pts


def test_ultralytics_validation_counts_are_no_val_loss():
    log = EX / "libraries_holdout" / "yolo_v8n_sgd_batch16_12ep" / "train.log"
    text = log.read_bytes()
    assert b"8 images, 0 backgrounds" in text and b"Instances" in text
    pts, _ = _read(log)
    assert not {"val_loss", "train_loss", "corrupt", "val/Images", "val/Instances", "Instances"} & set(pts), sorted(pts)
    assert sorted(pts["box_loss"]) == list(range(1, 13)) and "val/mAP50-95" in pts


def test_a_counter_named_by_a_counted_noun_stays_a_counter(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(b"".join(b"epoch %d batch %d/64 loss %.3f\n" % (e, b, 2 - b / 100) for e in range(2)
                           for b in (9, 19, 29)))
    pts, _ = _read(p)
    assert sorted(pts["loss"]) == [9, 19, 29, 73, 83, 93]


# -- a table's step column ------------------------------------------------------------
@pytest.mark.parametrize("header, rows, step, name", [
    ("run,epoch_no,lr,loss", [(7, e, 0.1, 2 - e / 10) for e in range(5)], [0, 1, 2, 3, 4], "epoch_no"),
    ("seed,it,loss", [(9 - e, 10 * e, 2 - e / 10) for e in range(5)], [0, 10, 20, 30, 40], "it"),
    ("x,loss,num_env_steps_sampled", [(0.5, 2 - e / 10, 4000 * e) for e in range(5)], [0, 4000, 8000, 12000, 16000],
     "num_env_steps_sampled"),
    ("id,samples,loss", [(1, 64 * e, 2 - e / 10) for e in range(5)], [0, 64, 128, 192, 256], "samples"),
])
@pytest.mark.parametrize("sep", [",", "\t"])
def test_a_table_takes_its_step_column_by_name_or_as_the_monotone_integer_column(tmp_path, header, rows, step, name,
                                                                                  sep):
    p = tmp_path / ("m.csv" if sep == "," else "m.tsv")
    p.write_text(header.replace(",", sep) + "\n" + "".join(sep.join(str(c) for c in r) + "\n" for r in rows))
    pts, notes = _read(p)
    assert sorted(pts["loss"]) == step and name not in pts
    assert f"steps from the table's `{name}` column" in notes


def test_a_csv_column_that_stops_being_monotone_is_no_step_and_the_file_reads_the_same_in_pieces(tmp_path):
    rows = ["a,b,loss"] + [f"{i if i < 5 else 10 - i},{i * 10},{2 - i / 100}" for i in range(12)]
    data = ("\n".join(rows) + "\n").encode()
    p = tmp_path / "whole.csv"
    p.write_bytes(data)
    whole, notes = _read(p)
    assert sorted(whole["loss"]) == list(range(0, 120, 10)) and "steps from the table's `b` column" in notes
    for cuts in ([20, 40, 60], [30], [5, 90]):
        assert _pieces(tmp_path / "live.csv", data, cuts) == whole, cuts


def test_text_tables_and_csv_share_the_step_rule():
    rows = [["7", "0", "2.0"], ["7", "1", "1.9"], ["7", "2", "1.8"]]
    assert monotone_cells(rows, [0, 1]) == 1  # a constant column is no step; the one that goes up is
    assert monotone_cells([[b"3", b"5"], [b"4", b"4"]], [0, 1]) == 0
    assert monotone_cells([["0", "12"]], [0, 1]) == 0 and monotone_cells([["1.5", "3"]], [1]) is None


# -- age and read sizes ------------------------------------------------------------
def test_a_log_of_numbers_without_a_loss_reads_the_same_young_or_old(tmp_path):
    log = EX / "libraries" / "catboost_multiclass_verbose5_eval_early" / "learn_error.tsv"  # CatBoost's own TSV
    assert log.read_bytes().startswith(b"iter\tMultiClass")
    p = tmp_path / log.name
    p.write_bytes(log.read_bytes())
    old = _read(p, old=True)
    young = _read(p, old=False)
    assert old == young and old[0]


def test_hf_without_a_bar_reads_the_same_in_pieces_as_whole(tmp_path):
    """No bar, no header: the records' steps come from HF's final summary (its length over its epochs): a read that
    meets the summary after records it numbered by line order reads the file again, knowing it."""
    log = EX / "frameworks" / "hf_disable_tqdm" / "train.log"
    data = log.read_bytes()
    p = tmp_path / "whole.log"
    p.write_bytes(data)
    whole, _ = _read(p)
    assert sorted(whole["loss"])[:3] == [10, 20, 30]
    got = _pieces(tmp_path / "live.log", data, [9, 938, 1091, 1825])
    assert got == whole
