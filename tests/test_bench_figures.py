"""The speed benches measure what they say: bench/log_parse.py's per-format rows read real files of the format they
name (repeated, or as they are when a repeated copy would be another format) through a whole first check (small
files: these are not timed tests)."""

from __future__ import annotations

import json
import sys

from .conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import log_parse  # noqa: E402

EXAMPLES = REPO / "examples" / "corpus"


def test_a_format_row_repeats_a_real_file_and_reads_it_as_that_format(tmp_path):
    found, unread = log_parse.seeds([EXAMPLES / "healthy_gpt_cosine", EXAMPLES / "nan_regression_sgd_no_clip"])
    assert unread == []
    seed = found["jsonl"]
    assert seed.path == EXAMPLES / "nan_regression_sgd_no_clip" / "metrics.jsonl"
    row = log_parse.bench_real(seed, str(tmp_path), 0.2, 1)
    size = len(seed.path.read_bytes().rstrip(b"\n") + b"\n")
    assert row["copies"] == int(0.2 * 2**20 // size) > 1 and row["as_is"] == ""
    assert row["size_mb"] * 2**20 == row["copies"] * size and row["read_as"] == "jsonl"
    assert row["verdict"] == "STOP"  # the first check judged the repeated NaN run: it really ran, end to end
    assert row["check_s"] > 0 and row["reader_s"] > 0 and row["points"] > seed.points


def test_a_json_document_is_measured_as_it_is_and_says_why(tmp_path):
    doc = tmp_path / "run" / "trainer_state.json"
    doc.parent.mkdir()
    doc.write_text(json.dumps({"global_step": 300, "max_steps": 300, "log_history": [
        {"step": s, "loss": 4.0 / (s + 1) ** 0.5, "learning_rate": 1e-4} for s in range(1, 301)]}))
    found, _ = log_parse.seeds([doc.parent])
    (fmt, seed), = found.items()
    (tmp_path / "work").mkdir()
    row = log_parse.bench_real(seed, str(tmp_path / "work"), 0.2, 1)
    # one line of JSON repeated reads as a plain text log: measured as it is, with the reason (the reader's name)
    assert row["copies"] == 1 and row["as_is"].startswith("repeated, it reads as ") and fmt not in row["as_is"]
    assert row["read_as"] == fmt == "hf_trainer_state" and row["size_mb"] * 2**20 == doc.stat().st_size

