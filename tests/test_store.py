"""The state store: schema migrations from every earlier version, atomic cursors, two processes at once."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap

import numpy as np
from training_check.tools.points import BatchBuilder, PointBatch
from training_check.tools.store import MIGRATIONS, SCHEMA_VERSION, Store


def _batch(start: int, n: int) -> PointBatch:
    b = BatchBuilder()
    for s in range(start, start + n):
        b.add(s, "loss", 1.0 / (s + 1))
    b.add(start, "eval_loss", float("nan"))
    return b.build()


def test_fresh_store_is_at_the_current_schema(tmp_path):
    st = Store(tmp_path / "s.sqlite3")
    assert st.schema_version() == SCHEMA_VERSION
    mode = sqlite3.connect(tmp_path / "s.sqlite3").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_migrates_from_every_earlier_version_keeping_data(tmp_path):
    for version in range(0, SCHEMA_VERSION):
        path = tmp_path / f"v{version}.sqlite3"
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        for i in range(version):
            conn.executescript(MIGRATIONS[i])
        conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(version),))
        if version >= 1:
            conn.execute("INSERT INTO assessments VALUES ('asm_old', 'file:/x', 1.0, 5, 'CONTINUE', ?)",
                         (json.dumps({"verdict": "CONTINUE", "run_key": "file:/x"}),))
        conn.commit()
        conn.close()
        st = Store(path)
        assert st.schema_version() == SCHEMA_VERSION
        if version >= 1:
            assert st.get_assessment("asm_old")["verdict"] == "CONTINUE"
        rid = st.add_review("file:/x", None, "m", "h", "WAIT", "why", {})
        assert st.get_review(rid)["decision"] == "WAIT"


def test_cursor_moves_only_with_its_points_and_compare_and_swap_refuses_a_stale_cursor(tmp_path):
    st = Store(tmp_path / "s.sqlite3")
    assert st.save_read("src", "run", None, {"offset": 10}, _batch(0, 10))
    # A second reader that started from the same (old) cursor must not append its copy.
    assert not st.save_read("src", "run", None, {"offset": 10}, _batch(0, 10))
    assert st.save_read("src", "run", {"offset": 10}, {"offset": 20}, _batch(10, 10))
    cached = st.load_source("src")
    assert cached.cursor == {"offset": 20}
    assert list(cached.batch.columns["loss"].steps) == list(range(20))
    assert np.isnan(cached.batch.columns["eval_loss"].values).all()


def test_reset_replaces_the_cache_and_many_chunks_compact(tmp_path):
    st = Store(tmp_path / "s.sqlite3")
    cur = None
    for i in range(40):
        new = {"offset": i + 1}
        assert st.save_read("src", "run", cur, new, _batch(i * 5, 5))
        cur = new
    with sqlite3.connect(tmp_path / "s.sqlite3") as c:
        assert c.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] < 40
    assert len(st.load_source("src").batch.columns["loss"]) == 200
    assert st.save_read("src", "run", cur, {"offset": 1}, _batch(0, 3), reset=True)
    assert len(st.load_source("src").batch.columns["loss"]) == 3


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = tmp_path / "s.sqlite3"
    Store(path)
    code = textwrap.dedent(f"""
        import sys
        from training_check.tools.store import Store
        st = Store({str(path)!r})
        tag = sys.argv[1]
        for i in range(150):
            st.add_assessment("run-" + tag, "CONTINUE", i, {{"i": i}})
            if i % 10 == 0:
                st.put_schedule("run-" + tag, {{"rung": i}})
        st.add_evidence("run-" + tag, None, {{"done": True}})
    """)
    procs = [subprocess.Popen([sys.executable, "-c", code, t]) for t in ("a", "b")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    st = Store(path)
    for tag in ("a", "b"):
        assert len(st.recent_assessments(f"run-{tag}", 1000)) == 150
        assert st.get_schedule(f"run-{tag}") == {"rung": 140}
        assert st.evidence_for(f"run-{tag}")[0]["done"] is True
    with sqlite3.connect(path) as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_point_cache_round_trips_nan_and_inf_bit_for_bit():
    b = BatchBuilder()
    for s, v in enumerate([1.0, float("nan"), float("inf"), float("-inf"), -0.0, 1e308]):
        b.add(s, "x", v)
    out = PointBatch.from_bytes(b.build().to_bytes())
    assert np.array_equal(out.columns["x"].values, b.build().columns["x"].values, equal_nan=True)
