"""A template's plan belongs to the log it was made from. The engine plans each line template from a few of its lines
(its samples) and reuses the plan for the template's later lines; the reuse was once keyed by the template alone,
process-wide, so a long-lived server that had read one log lent its plans to the next log with the same template:
after a translation trainer's log, a log of bare ``step value`` rows read nothing. A log's plans are now made from
its own samples, kept in its cursor, and outlive the process."""

from __future__ import annotations

import json

from training_check.tools.parsers import engine
from training_check.tools.parsers.base import Emitter

from .test_engine_determinism_h50 import _data
from .test_read_misses import _live, whole_as_live

ROWS = "".join(f"{s} {1.0 / s:.4f}\n" for s in range(1, 40)).encode()


def test_a_log_read_after_another_reads_as_it_reads_alone(tmp_path):
    alone = _live(tmp_path, ROWS, [], name="alone")
    assert len(alone["loss"][0]) == 39, alone
    whole_as_live(tmp_path, _data(), "joey")  # another log, read whole and in pieces, in the same process
    assert _live(tmp_path, ROWS, [], name="after") == alone
    assert _live(tmp_path, ROWS, [len(ROWS) // 3, len(ROWS) // 2 + 3], name="after_pieces") == alone


def test_a_logs_plans_outlive_the_process(tmp_path, monkeypatch):
    """A server restarted between two reads of a log reads its later lines with the plans its first read made (they
    are kept in the log's cursor, not in the process)."""
    data = _data()
    cuts = [int(c * len(data)) for c in (0.2, 0.5, 0.8)]
    kept = _live(tmp_path, data, cuts, name="kept")

    real = engine._cached_plan

    def restarted(template, samples, header, st):  # every read in a fresh process: no plan made before
        engine._PLANS.clear()
        return real(template, samples, header, st)

    monkeypatch.setattr(engine, "_cached_plan", restarted)
    assert json.dumps(_live(tmp_path, data, cuts, name="restarted")) == json.dumps(kept)


def test_the_samples_kept_in_a_cursor_are_bounded(tmp_path):
    """A log of many templates keeps the samples of at most ``MAX_KEPT_SAMPLES`` of them, and at most
    ``MAX_KEPT_BYTES`` in all (the cursor is written at every check)."""
    names = [f"{a}{b}" for a in "abcdefghijklmnopqrst" for b in "abcdefghijklmnopqrst"]  # 400 templates
    lines = "".join(f"{n} step {s} {n}_loss {1.0 / (s + k):.5f}\n" for s in range(1, 6) for k, n in enumerate(names))
    em = Emitter()
    engine.read_block(lines.encode(), em)
    st = em.state["eng"]
    assert len(st["plan_samples"]) <= engine.MAX_KEPT_SAMPLES
    assert st["plan_bytes"] <= engine.MAX_KEPT_BYTES
    assert sum(len(s) for v in st["plan_samples"].values() for s in v) == st["plan_bytes"]
