"""A many-run check with nothing new: a run whose judgement is a fixed point keeps it (tools/recheck.py), and the
answer is the one a full re-judgement gives; anything that could change it makes the check judge in full."""

from __future__ import annotations

from training_check.tools.assess import assess_run
from training_check.tools.assess_runs import assess_runs

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
    assert all("recheck" not in _last(store, k) for k in _keys(first).values())  # new data: judged in full
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
    assert newer["progress"]["step"] > steady["progress"]["step"] and "recheck" not in newer


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
