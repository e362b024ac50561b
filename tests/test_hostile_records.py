"""Issue 32: bad input costs only its record, with one clear note. Every reader (CSV, TSV, JSONL, a text log's
line records, horizontal text tables, vertical tables, TensorBoard events, an MLflow sqlite store and file store,
DVCLive TSVs) is given good records around one hostile one: a truncated record, a 10 MB line, NUL bytes, invalid
UTF-8, a header or record of 10,000 columns, JSON nested 100,000 deep, a number of 10,000 digits. The read ends
(bounded memory: under 400 MB more than before, measured), the good records before and after it are read, and a note
names what was skipped (for the cases the reader drops a record).

Stores are the real ones the corpora hold (examples/libraries: mlflow.db and mlruns/ written by MLflow, dvclive/ by
DVCLive, a TensorBoard event file written by TensorBoard), copied, and spoiled the way a crash or a hostile writer
would."""

from __future__ import annotations

import os
import resource
import shutil
import sqlite3
from pathlib import Path

import pytest
from training_check.tools.errors import TrainingCheckError
from training_check.tools.reading import load_run

from tests.conftest import REPO

pytestmark = pytest.mark.timeout(600)

GOOD = 12  # good records before and after the hostile one
BIG = 10 << 20
PEAK_MB = 400  # the most the process' peak memory may grow by while one hostile file is read


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _line_records(kind: str) -> tuple[list[bytes], bytes, bytes]:
    """(good records, the header, how a record looks with a placeholder ``{v}`` and ``{s}``) of each text kind."""
    if kind == "csv":
        return [b"%d,%.4f,0.001\n" % (s, 2 - s / 100) for s in range(1, 2 * GOOD + 1)], b"step,loss,lr\n", b","
    if kind == "tsv":
        return [b"%d\t%.4f\t0.001\n" % (s, 2 - s / 100) for s in range(1, 2 * GOOD + 1)], b"step\tloss\tlr\n", b"\t"
    if kind == "jsonl":
        return [b'{"step": %d, "loss": %.4f}\n' % (s, 2 - s / 100) for s in range(1, 2 * GOOD + 1)], b"", b""
    if kind == "text":
        return [b"step %d | loss %.4f | lr 0.001\n" % (s, 2 - s / 100) for s in range(1, 2 * GOOD + 1)], b"", b""
    if kind == "table":  # a header row, then rows under it (spaCy, ultralytics ...)
        head = b"  Epoch    Step    Loss      LR\n"
        return [b"  %5d  %6d  %6.4f  0.0010\n" % (s // 5, s, 2 - s / 100) for s in range(1, 2 * GOOD + 1)], head, b""
    if kind == "blocks":  # a vertical table per iteration (stable-baselines3)
        rows = []
        for s in range(1, 2 * GOOD + 1):
            rows.append(b"-----------------------------\n| time/              |      |\n"
                        b"|    total_timesteps | %-4d |\n| train/             |      |\n"
                        b"|    loss            | %.2f |\n-----------------------------\n" % (s * 100, 2 - s / 100))
        return rows, b"", b""
    raise AssertionError(kind)


def _wide(kind: str) -> bytes:
    """A record of 10,000 columns, in the kind's own shape."""
    if kind in ("csv", "tsv"):
        return (b"," if kind == "csv" else b"\t").join(b"%d" % i for i in range(10000))
    if kind == "jsonl":
        return b"{" + b",".join(b'"k%d": %d' % (i, i) for i in range(10000)) + b"}"
    return b" ".join(b"c%d=%d" % (i, i) for i in range(10000))


HOSTILE = {
    "truncated": lambda kind: {"csv": b"13,1.8\n", "tsv": b"13\t1.8\n", "jsonl": b'{"step": 13, "loss": 1.\n',
                               "text": b"step 13 | loss\n", "table": b"  2  13\n",
                               "blocks": b"| time/              |      |\n"}[kind],
    "10MB line": lambda kind: b"x" * BIG + b"\n",
    "NUL bytes": lambda kind: b"\x00" * 4096 + b"\n",
    "invalid UTF-8": lambda kind: b"\xff\xfe\xc3\x28 loss \xe2\x82 step \xf0\x28\x8c\x28\n",
    "10,000 columns": lambda kind: _wide(kind) + b"\n",
    "nested JSON": lambda kind: b'{"a": ' * 100000 + b"1" + b"}" * 100000 + b"\n",
    "10,000 digits": lambda kind: {"csv": b"13," + b"9" * 10000 + b",0.001\n",
                                   "tsv": b"13\t" + b"9" * 10000 + b"\t0.001\n",
                                   "jsonl": b'{"step": 13, "loss": ' + b"9" * 10000 + b"}\n",
                                   "text": b"step 13 | loss " + b"9" * 10000 + b" | lr 0.001\n",
                                   "table": b"      2      13  " + b"9" * 10000 + b"  0.0010\n",
                                   "blocks": b"|    loss            | " + b"9" * 10000 + b" |\n"}[kind],
}
KINDS = ["csv", "tsv", "jsonl", "text", "table", "blocks"]
SUFFIX = {"csv": ".csv", "tsv": ".tsv", "jsonl": ".jsonl", "text": ".log", "table": ".log", "blocks": ".log"}


def _loss_steps(data) -> list[int]:
    name = data.frame.primary_loss or next(k for k in data.frame.series if "loss" in k)
    return data.frame.series[name].index.tolist()


@pytest.mark.parametrize("what", list(HOSTILE))
@pytest.mark.parametrize("kind", KINDS)
def test_a_hostile_record_costs_only_itself(kind, what, tmp_path, store, config):
    good, head, _sep = _line_records(kind)
    bad = HOSTILE[what](kind)
    p = tmp_path / f"train{SUFFIX[kind]}"
    p.write_bytes(head + b"".join(good[:GOOD]) + bad + b"".join(good[GOOD:]))
    os.utime(p, (1.0, 1.0))  # written in full (settled)
    before = _rss_mb()
    data = load_run(str(p), store=store, config=config)
    assert _rss_mb() - before < PEAK_MB
    steps = _loss_steps(data)
    want = [s * 100 for s in range(1, 2 * GOOD + 1)] if kind == "blocks" else list(range(1, 2 * GOOD + 1))
    missing = sorted(set(want) - set(steps))
    assert len(missing) <= 1 and missing in ([], [want[GOOD - 1]], [want[GOOD]]), (missing, data.notes)
    assert want[0] in steps and want[-1] in steps  # the good records before and after it
    if what in ("10MB line", "NUL bytes"):  # a record dropped: a note says so, in one line
        said = [n for n in data.notes if "skipped" in n or "cut" in n]
        assert said and all("\n" not in n and len(n) < 400 for n in said), data.notes


def _copy(src: Path, dst: Path) -> Path:
    if src.is_dir():
        shutil.copytree(src, dst)
    else:
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    return dst


def test_a_tensorboard_event_file_cut_mid_record_and_spoiled_reads_its_good_records(tmp_path, store, config):
    src = next((REPO / "examples").rglob("*tfevents*"), None)
    assert src is not None, "a TensorBoard event file in examples/"
    good = load_run(str(src), store=store, config=config)
    data = src.read_bytes()
    spoiled = tmp_path / "events.out.tfevents.1.host"
    # a record's length field saying 10 GB, then garbage, then the good records again cut mid-record
    spoiled.write_bytes(data + (10 << 30).to_bytes(8, "little") + b"\x00" * 4 + os.urandom(4096)
                        + data[:len(data) // 2])
    os.utime(spoiled, (1.0, 1.0))
    from training_check.tools.config import load_config
    from training_check.tools.store import Store

    cfg = load_config(cwd=str(tmp_path), env={"TRAINING_CHECK_HOME": str(tmp_path / "h")})
    before = _rss_mb()
    got = load_run(str(spoiled), store=Store(cfg.store_path), config=cfg)
    assert _rss_mb() - before < PEAK_MB
    for key, series in good.frame.series.items():  # every good record read
        assert set(series.index.tolist()) <= set(got.frame.series[key].index.tolist()), key


def _first(pattern: str) -> Path:
    found = sorted((REPO / "examples").rglob(pattern))
    assert found, f"{pattern} in examples/"
    return found[0]


def test_an_mlflow_store_with_hostile_rows_reads_its_good_ones(tmp_path, store, config):
    db = _copy(_first("mlflow.db"), tmp_path / "run" / "mlflow.db")
    good = load_run(str(db), store=store, config=config)
    key = good.frame.primary_loss
    con = sqlite3.connect(db)
    run_uuid, n_before = con.execute("select run_uuid, count(*) from metrics group by run_uuid").fetchone()
    last = con.execute("select max(step) from metrics where run_uuid=?", (run_uuid,)).fetchone()[0]
    rows = [(key, 0.0, 0, run_uuid, last + 1, 1), (key, 1e308 * 10, 0, run_uuid, last + 2, 0),
            ("x" * 100000, 1.0, 0, run_uuid, last + 3, 0), (key, 0.5, 0, run_uuid, last + 4, 0)]
    con.executemany("insert into metrics (key, value, timestamp, run_uuid, step, is_nan) values (?,?,?,?,?,?)", rows)
    con.execute("insert into metrics (key, value, timestamp, run_uuid, step, is_nan) values (?, ?, 0, ?, ?, 0)",
                (key, "not a number \x00\xff".encode("latin-1"), run_uuid, last + 5))
    con.commit()
    con.close()
    from training_check.tools.config import load_config
    from training_check.tools.store import Store

    cfg = load_config(cwd=str(tmp_path), env={"TRAINING_CHECK_HOME": str(tmp_path / "h")})
    try:
        got = load_run(str(db), store=Store(cfg.store_path), config=cfg)
    except TrainingCheckError as e:  # refused whole: a one-line message, never a crash
        pytest.fail(f"the store's good rows were not read: {e}")
    steps = got.frame.series[key].index.tolist()
    assert set(good.frame.series[key].index.tolist()) <= set(steps) and last + 4 in steps
    assert n_before > 0


def test_mlflow_file_store_and_dvclive_tsvs_with_hostile_lines_read_their_good_ones(tmp_path, store, config):
    mlruns = _copy(_first("mlruns"), tmp_path / "ml" / "mlruns")
    metric = next(p for p in mlruns.rglob("metrics/*") if p.is_file() and "loss" in p.name)
    good = load_run(str(mlruns), store=store, config=config)
    lines = metric.read_bytes().splitlines(keepends=True)
    last_step = int(lines[-1].split()[2])
    with open(metric, "ab") as f:
        f.write(b"0 " + b"9" * 10000 + b" %d\n" % (last_step + 1))
        f.write(b"\x00" * 1000 + b"\n\xff\xfe garbage\n" + b"x" * BIG + b"\n")
        f.write(b"0 0.25 %d\n" % (last_step + 2))
    dvc = _copy(_first("dvclive"), tmp_path / "dvc" / "dvclive")
    tsv = next(dvc.rglob("*loss*.tsv"))
    rows = tsv.read_bytes().splitlines(keepends=True)
    dvc_last = int(rows[-1].split(b"\t")[0])
    with open(tsv, "ab") as f:
        f.write(b"\t".join(b"%d" % i for i in range(10000)) + b"\n" + b"x" * BIG + b"\n\x00\x00\n")
        f.write(b"%d\t0.25\n" % (dvc_last + 1))
    from training_check.tools.config import load_config
    from training_check.tools.store import Store

    for ref, name in ((mlruns, None), (dvc, None)):
        cfg = load_config(cwd=str(tmp_path), env={"TRAINING_CHECK_HOME": str(tmp_path / f"h{ref.name}")})
        before = _rss_mb()
        got = load_run(str(ref), store=Store(cfg.store_path), config=cfg)
        assert _rss_mb() - before < PEAK_MB
        assert got.frame.series and name is None
        loss = [k for k in got.frame.series if "loss" in k]
        assert loss, got.notes
        if ref is mlruns:
            key = metric.name
            assert set(good.frame.series[key].index.tolist()) <= set(got.frame.series[key].index.tolist())
            assert last_step + 2 in got.frame.series[key].index.tolist()
        else:
            assert any(dvc_last + 1 in got.frame.series[k].index.tolist() for k in loss), got.notes
            assert any("skipped" in n for n in got.notes), got.notes
