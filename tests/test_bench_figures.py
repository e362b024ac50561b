"""The speed benches measure what they say: bench/log_parse.py's per-format rows read real files of the format they
name (repeated; a JSON document grown by its own structure) through a whole first check (small
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


def test_a_json_document_is_grown_by_its_own_structure(tmp_path):
    """A JSON document repeated is no document (one line of JSON again and again reads as a text log): its row is the
    document grown as a longer run writes it -- a trainer_state.json's log_history repeated, each copy's steps after
    the last, written as HF's Trainer writes it -- read as that format."""
    doc = tmp_path / "run" / "trainer_state.json"
    doc.parent.mkdir()
    doc.write_text(json.dumps({"global_step": 300, "max_steps": 300, "log_history": [
        {"step": s, "loss": 4.0 / (s + 1) ** 0.5, "learning_rate": 1e-4} for s in range(1, 301)]}))
    found, _ = log_parse.seeds([doc.parent])
    (fmt, seed), = found.items()
    (tmp_path / "work").mkdir()
    row = log_parse.bench_real(seed, str(tmp_path / "work"), 0.2, 1)
    copies = int(0.2 * 2**20 // doc.stat().st_size)
    assert row["grown"] and row["as_is"] == "" and row["copies"] == copies > 1
    assert row["read_as"] == fmt == "hf_trainer_state" and row["points"] == 600 * copies  # loss and learning_rate
    grown = json.loads(log_parse.grow_document(doc.read_bytes(), 3) or b"")
    assert [e["step"] for e in grown["log_history"]] == list(range(1, 301)) + list(range(302, 602)) + list(
        range(603, 903))
    assert grown["max_steps"] == grown["global_step"] == 902


def test_golden_values_grow_by_their_values_and_anything_else_is_measured_as_it_is(tmp_path):
    golden = {"lm loss": {"start_step": 1, "end_step": 10, "step_interval": 5, "values": {"1": 9.5, "5": 8.0,
                                                                                          "10": "nan"}}}
    grown = json.loads(log_parse.grow_document(json.dumps(golden).encode(), 2) or b"")
    assert grown["lm loss"]["values"] == {"1": 9.5, "5": 8.0, "10": "nan", "12": 9.5, "16": 8.0, "21": "nan"}
    assert grown["lm loss"]["end_step"] == 21
    assert log_parse.grow_document(b"[1, 2]", 2) is None and log_parse.grow_document(b"not json", 2) is None
