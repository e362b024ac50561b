"""A young file's format chosen on numbers but no loss (a table of the model's parameters printed before the first
record, ``| Name | Shape | Size |``) is chosen again as the file grows while no loss was read
(``LogFileSource._redetected``): read in pieces, the log reads as one read of the whole file reads it.
examples/libraries_holdout90's kauldron logs read no point at all in pieces before (their first read ended in that
table and kept its format for good)."""

from __future__ import annotations

import random

import pytest

from .conftest import REPO
from .test_read_misses import whole_as_live


def _log(steps: int, rows: int, seed: int) -> bytes:
    rng = random.Random(seed)
    head = ["I1207 17:20:55.9 1400 logging_writer.py:64] Writing texts:", "parameters:",
            "| Name            | Shape    | Dtype   | Size  | Mean      | Std   |",
            "|-----------------|----------|---------|-------|-----------|-------|"]
    head += [f"| layer_{i}/kernel | ({rng.randint(2, 64)}, {rng.randint(2, 64)}) | float32 | {rng.randint(4, 4096)} | "
             f"{rng.uniform(-0.1, 0.1):.4f} | {rng.uniform(0.01, 1):.3f} |" for i in range(rows)]
    body = [f"I1207 17:21:{10 + s % 40:02d}.1 1400 logging_writer.py:48] [{s * 5}] collection=train "
            f"losses/total={3.5 / (1 + 0.2 * s) + rng.uniform(0, 0.01):.6f}, schedules/learning_rate=0.001"
            for s in range(steps)]
    return ("\n".join(head + body) + "\n").encode()


def _total(pts: dict) -> dict:
    return next(v for k, v in pts.items() if k.endswith("losses/total"))[0]  # (steps; ``train losses/total``)


@pytest.mark.parametrize("seed", range(4))
def test_a_table_first_then_records(tmp_path, seed):
    data = _log(12 + 3 * seed, 6 + 4 * seed, seed)
    table_end = data.index(b"logging_writer.py:48]")
    cut = table_end // 2 / len(data)  # the first read ends inside the table
    pts = whole_as_live(tmp_path, data, f"kd{seed}", cuts=(cut, 0.6, 0.9))
    assert len(_total(pts)) == 12 + 3 * seed


def test_a_log_of_tables_only_keeps_its_format(tmp_path):
    """A file of tables and no loss stays read as such at every read (no loop of detections)."""
    data = b"".join(_log(0, 40, 9) for _ in range(3))
    pts = whole_as_live(tmp_path, data, "tables")
    assert not any(k.endswith("losses/total") for k in pts)


@pytest.mark.parametrize("run", ["kauldron_reg_rmsprop_log5_60st", "kauldron_cls_adam_200st"])
def test_the_kauldron_logs_read_alike_in_pieces(tmp_path, run):
    data = (REPO / "examples" / "libraries_holdout90" / run / "train.log").read_bytes()
    pts = whole_as_live(tmp_path, data, run, cuts=(0.29, 0.5, 0.97))
    assert len(_total(pts)) >= 11
