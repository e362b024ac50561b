"""A many-run check with nothing new: a run whose judgement is a fixed point keeps it (tools/recheck.py), and the
answer is the one a full re-judgement gives; anything that could change it makes the check judge in full."""

from __future__ import annotations

from training_check.tools.assess import assess_run
from training_check.tools.assess_runs import _line, assess_runs

from .test_sweep_stop import write_logs

VOLATILE = ("assessment_id", "created_at")


def _last(store, run_key: str) -> dict:
    return {k: v for k, v in store.recent_assessments(run_key, 1)[0].items() if k not in VOLATILE}


def _keys(rep) -> dict[str, str]:
    from training_check.tools.runref import parse_run_ref

    return {ln.run: parse_run_ref(ln.run).key for ln in rep.runs}


def test_nothing_new_twice_keeps_the_judgement_a_full_rejudgement_gives(store, config, tmp_path):
    runs = write_logs(tmp_path, 20)
    first = assess_runs(runs, store=store, config=config, total_steps=800)
    assert not any(_last(store, k).get("recheck", {}).get("steady") for k in _keys(first).values())  # new data
    second = assess_runs(runs, store=store, config=config, total_steps=800)  # nothing new: judged in full, marked
    keys = _keys(second)
    marked = {r: _last(store, k) for r, k in keys.items()}
    assert all(m.get("recheck", {}).get("steady") for m in marked.values())
    third = assess_runs(runs, store=store, config=config, total_steps=800)  # nothing new again: kept
    assert [ln.to_dict() | {"assessment_id": None} for ln in third.runs] == \
        [ln.to_dict() | {"assessment_id": None} for ln in second.runs]
    assert {ln.assessment_id for ln in third.runs}.isdisjoint({ln.assessment_id for ln in second.runs})
    for run, key in keys.items():
        kept = _last(store, key)
        assert kept == marked[run]
        full = assess_run(run, store=store, config=config, total_steps=800)  # a run's own check: always in full
        assert {k: v for k, v in full.record().items() if k not in VOLATILE} == \
            {k: v for k, v in kept.items() if k not in ("recheck", "reviewed_concerns")}
    assert third.sweep == second.sweep


def test_new_points_other_arguments_or_a_review_mean_a_full_judgement(store, config, tmp_path):
    runs = write_logs(tmp_path, 20)
    for _ in range(2):
        assess_runs(runs, store=store, config=config, total_steps=800)
    key = _keys(assess_runs(runs, store=store, config=config, total_steps=800))[runs[0]]
    steady = store.recent_assessments(key, 1)[0]
    # another planned length: other inputs, judged in full (a fixed point of its own: the same points as before)
    other = assess_runs(runs, store=store, config=config, total_steps=1600)
    assert other.runs[0].assessment_id and _last(store, key)["progress"]["total_steps"] == 1600
    assert _last(store, key)["recheck"]["key"] != steady["recheck"]["key"]
    # a review since: judged in full
    assess_runs(runs, store=store, config=config, total_steps=800)
    assess_runs(runs, store=store, config=config, total_steps=800)
    before = store.recent_assessments(key, 1)[0]
    store.add_review(key, before["assessment_id"], "m", None, "CONTINUE", "fine", {})
    assess_runs(runs, store=store, config=config, total_steps=800)
    after = store.recent_assessments(key, 1)[0]
    assert after["recheck"]["key"] != before["recheck"]["key"]
    # new points: judged in full, and the first check on them is not steady
    write_logs(tmp_path, 25)
    assess_runs(runs, store=store, config=config, total_steps=800)
    newer = _last(store, key)
    assert newer["progress"]["step"] > steady["progress"]["step"] and not newer.get("recheck", {}).get("steady")


def test_a_run_without_a_loss_is_always_judged_in_full(store, config, tmp_path):
    runs = write_logs(tmp_path, 20)
    bare = tmp_path / "bare.jsonl"
    bare.write_text("".join(f'{{"step": {s}, "lr": 0.1}}\n' for s in range(1, 30)))
    runs.append(str(bare))
    summaries = []
    for _ in range(4):
        rep = assess_runs(runs, store=store, config=config, total_steps=800)
        line = next(ln for ln in rep.runs if ln.run == str(bare))
        summaries.append(line.line)
    assert "recheck" not in _last(store, _keys(rep)[str(bare)])
    assert summaries[-1] != summaries[0]  # the count of checks without a loss moves: WAIT, then ESCALATE


def _settled(paths: list[str], ago: float = 120.0) -> None:
    """The logs as last written ``ago`` seconds back (a live run that paused; a later write moves the time)."""
    import os
    import time

    for p in paths:
        os.utime(p, (time.time() - ago, time.time() - ago))


def _read_at(store, key: str) -> float:
    """When the run's source was last read (every read stores its cursor, even one that finds nothing)."""
    import sqlite3

    with sqlite3.connect(store.path) as c:
        return c.execute("SELECT updated_at FROM sources WHERE run_key=?", (key,)).fetchone()[0]


def test_an_unchanged_log_keeps_its_judgement_without_a_read_and_the_answer_is_a_full_rejudgements(
        store, config, tmp_path):
    import sqlite3

    runs = write_logs(tmp_path, 20)
    _settled(runs)
    assess_runs(runs, store=store, config=config, total_steps=800)
    second = assess_runs(runs, store=store, config=config, total_steps=800)  # nothing new: judged in full, marked
    keys = _keys(second)
    assert all(_last(store, k)["recheck"]["quick"]["path"] == r for r, k in keys.items())
    read = {k: _read_at(store, k) for k in keys.values()}
    third = assess_runs(runs, store=store, config=config, total_steps=800)  # stands without a read
    assert {k: _read_at(store, k) for k in keys.values()} == read  # no run was read
    assert [ln.to_dict() | {"assessment_id": None} for ln in third.runs] == \
        [ln.to_dict() | {"assessment_id": None} for ln in second.runs]
    assert third.sweep == second.sweep and third.summary == second.summary
    assert {ln.assessment_id for ln in third.runs}.isdisjoint({ln.assessment_id for ln in second.runs})
    assert all(store.recent_assessments(k, 1)[0]["assessment_id"] == ln.assessment_id
               for ln in third.runs for k in [keys[ln.run]])
    # the curves gone: the runs are read and judged again, with the same answer
    with sqlite3.connect(store.path) as c:
        c.execute("DELETE FROM steady_curves")
    fourth = assess_runs(runs, store=store, config=config, total_steps=800)
    assert all(_read_at(store, k) > read[k] for k in keys.values())
    assert [ln.to_dict() | {"assessment_id": None} for ln in fourth.runs] == \
        [ln.to_dict() | {"assessment_id": None} for ln in second.runs] and fourth.sweep == second.sweep
    for run, key in keys.items():  # what stands is what a run's own full check says
        kept = _last(store, key)
        full = assess_run(run, store=store, config=config, total_steps=800)
        assert {k: v for k, v in full.record().items() if k not in VOLATILE} == \
            {k: v for k, v in kept.items() if k not in ("recheck", "reviewed_concerns")}


def test_a_write_a_touch_or_other_arguments_mean_a_read(store, config, tmp_path):
    runs = write_logs(tmp_path, 20)
    _settled(runs)
    for _ in range(3):
        rep = assess_runs(runs, store=store, config=config, total_steps=800)
    keys = _keys(rep)
    read = {k: _read_at(store, k) for k in keys.values()}
    grown, touched = runs[0], runs[1]
    with open(grown, "a") as f:  # a new record: read and judged in full
        f.write(open(grown).read().splitlines()[-1].replace('"step": 200', '"step": 210') + "\n")
    _settled([grown])
    _settled([touched], ago=60.0)  # the same bytes, another time: read (nothing new), the judgement stands
    rep = assess_runs(runs, store=store, config=config, total_steps=800)
    after = {k: _read_at(store, k) for k in keys.values()}
    assert after[keys[grown]] > read[keys[grown]] and after[keys[touched]] > read[keys[touched]]
    assert all(after[k] == read[k] for r, k in keys.items() if r not in (grown, touched))
    assert _last(store, keys[grown])["recheck"]["steady"] is False  # judged in full on new data
    assert _last(store, keys[touched])["recheck"]["quick"]["path"] == touched  # found again quickly next time
    other = assess_runs(runs, store=store, config=config, total_steps=1600)  # another planned length: read
    assert all(_read_at(store, k) > after[k] for k in keys.values())
    assert all(ln.to_dict().get("total_steps") in (1600, None) for ln in other.runs)


def test_the_first_check_on_nothing_new_gives_what_judging_again_gives(tmp_path):
    """A CONTINUE or WAIT on new data is taken by the next check on the same data with the staleness finding of a
    check on nothing new (recheck.derived_record): its records and answers are those of a full judgement (each run's
    own assess_run, on a store of its own that saw the same checks), at several ages of the sweep (young runs WAIT,
    older ones CONTINUE, a few ESCALATE or STOP: judged in full)."""
    import os

    from training_check.tools.config import load_config
    from training_check.tools.store import Store

    derived_somewhere = False
    for lines in (5, 20, 40):
        folder = tmp_path / f"logs{lines}"
        folder.mkdir()
        runs = write_logs(folder, lines)
        stores = []
        for name in ("sweep", "alone"):
            os.environ["TRAINING_CHECK_HOME"] = str(tmp_path / f"{name}{lines}")
            config = load_config(cwd=tmp_path)
            stores.append((Store(config.store_path), config))
        (sweep_store, config), (alone_store, _) = stores
        first = assess_runs(runs, store=sweep_store, config=config, total_steps=800)
        assess_runs(runs, store=alone_store, config=config, total_steps=800)
        keys = _keys(first)
        before = {k: _last(sweep_store, k) for k in keys.values()}
        second = assess_runs(runs, store=sweep_store, config=config, total_steps=800)
        for ln in second.runs:
            key = keys[ln.run]
            full = assess_run(ln.run, store=alone_store, config=config, total_steps=800)
            got = _last(sweep_store, key)
            assert {k: v for k, v in full.record().items() if k not in VOLATILE} == \
                {k: v for k, v in got.items() if k not in ("recheck", "reviewed_concerns")}
            assert ln.line == _line(full.verdict, ln.run, full.progress["step"], full.summary)
            assert got["recheck"]["steady"] == _last(alone_store, key).get("recheck", {}).get("steady", False)
            derived_somewhere |= before[key].get("recheck", {}).get("steady") is False
    assert derived_somewhere


def test_the_first_check_on_an_unchanged_log_takes_the_judgement_unread_as_judging_again_would(tmp_path):
    """Logs that stopped growing: the check after the one on new data reads none of them (a CONTINUE or WAIT is
    taken with a check on nothing new's staleness finding, recheck.steady_quick) and its records and answers are
    those of a full judgement on a store of its own."""
    import os

    from training_check.tools.config import load_config
    from training_check.tools.store import Store

    runs = write_logs(tmp_path, 20)
    _settled(runs)
    stores = []
    for name in ("sweep", "alone"):
        os.environ["TRAINING_CHECK_HOME"] = str(tmp_path / name)
        config = load_config(cwd=tmp_path)
        stores.append((Store(config.store_path), config))
    (sweep_store, config), (alone_store, _) = stores
    first = assess_runs(runs, store=sweep_store, config=config, total_steps=800)
    assess_runs(runs, store=alone_store, config=config, total_steps=800)
    keys = _keys(first)
    read = {k: _read_at(sweep_store, k) for k in keys.values()}
    taken = {k for k in keys.values() if _last(sweep_store, k)["recheck"].get("steady") is False}
    assert taken  # CONTINUE and WAIT judgements on new data, marked to be taken
    second = assess_runs(runs, store=sweep_store, config=config, total_steps=800)
    assert all(_read_at(sweep_store, k) == read[k] for k in taken)  # not read
    for ln in second.runs:
        key = keys[ln.run]
        full = assess_run(ln.run, store=alone_store, config=config, total_steps=800)
        got = _last(sweep_store, key)
        assert {k: v for k, v in full.record().items() if k not in VOLATILE} == \
            {k: v for k, v in got.items() if k not in ("recheck", "reviewed_concerns")}
        assert ln.line == _line(full.verdict, ln.run, full.progress["step"], full.summary)
        assert got["recheck"]["steady"]
    third = assess_runs(runs, store=sweep_store, config=config, total_steps=800)
    assert [ln.to_dict() | {"assessment_id": None} for ln in third.runs] == \
        [ln.to_dict() | {"assessment_id": None} for ln in second.runs] and third.sweep == second.sweep
