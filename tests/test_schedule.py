"""reschedule: the ladder, resets, WAIT, STOP, idempotence, exact Cron arguments, 7-day renewal."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest

from training_check.tools.errors import BadInput
from training_check.tools.schedule import cron_every, reschedule

RUN = "/data/run/train.log"
KEY = "file:/data/run/train.log"
T0 = datetime(2026, 12, 2, 17, 7, tzinfo=timezone.utc)
CRON = re.compile(r"^(\d+(,\d+)*) \* \* \* \*$")


def _assess(store, verdict, findings=()):
    return store.add_assessment(KEY, verdict, 1, {"verdict": verdict, "run": RUN, "findings": list(findings)})


def test_ladder_climbs_one_rung_per_healthy_check_and_caps_at_60(store, config):
    seen, t, job = [], T0, None
    for _ in range(6):
        s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), current_job_id=job, now=t)
        seen.append(s.interval_minutes)
        assert CRON.match(s.cron), s.cron
        if s.cron_create:
            assert s.cron_create == {"cron": s.cron, "prompt": f"/training-check {RUN}", "recurring": True, "durable": True}
            job = f"job-{len(seen)}"
        t += timedelta(minutes=s.interval_minutes)
    assert seen == [10, 20, 30, 60, 60, 60]


def test_anomalies_reset_to_10_and_wait_checks_in_5(store, config):
    for _ in range(3):
        reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), now=T0)
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "ESCALATE"), now=T0)
    assert s.interval_minutes == 10 and "ESCALATE" in s.reason
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "WAIT"), now=T0)
    assert s.interval_minutes == 5
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), now=T0)
    assert s.interval_minutes == 10
    warn = [{"signal": "spikes", "status": "warn", "message": "x"}]
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE", warn), now=T0)
    assert s.interval_minutes == 10 and "spikes" in s.reason


def test_reviewer_wait_resets_the_ladder(store, config):
    for _ in range(2):
        reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), now=T0)
    aid = _assess(store, "CONTINUE")
    store.add_review(KEY, aid, "m", "h", "WAIT", "unclear", {})
    assert reschedule(RUN, store=store, config=config, assessment_id=aid, now=T0).interval_minutes == 10


def test_same_assessment_twice_does_not_climb_twice(store, config):
    aid = _assess(store, "CONTINUE")
    a = reschedule(RUN, store=store, config=config, assessment_id=aid, now=T0)
    b = reschedule(RUN, store=store, config=config, assessment_id=aid, now=T0)
    assert a.interval_minutes == b.interval_minutes == 10


def test_stop_deletes_the_job_and_creates_none(store, config):
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "STOP"), current_job_id="abc", now=T0)
    assert s.stopped and s.cron_delete == {"id": "abc"} and s.cron_create is None and s.interval_minutes is None


def test_unchanged_job_is_kept_until_it_nears_its_7_day_expiry(store, config):
    for _ in range(4):
        s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), current_job_id="j1", now=T0)
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), current_job_id="j1",
                   now=T0 + timedelta(hours=2))
    assert s.cron_create is None and s.cron_delete is None and "keep job" in s.summary
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), current_job_id="j1",
                   now=T0 + timedelta(days=6, hours=1))
    assert s.cron_delete == {"id": "j1"} and s.cron_create is not None and "renew" in s.summary


def test_errors(store, config):
    with pytest.raises(BadInput, match="unknown assessment_id"):
        reschedule(RUN, store=store, config=config, assessment_id="asm_nope")
    other = store.add_assessment("file:/other.log", "CONTINUE", 1, {"verdict": "CONTINUE", "run": "/other.log"})
    with pytest.raises(BadInput, match="not"):
        reschedule(RUN, store=store, config=config, assessment_id=other)
    with pytest.raises(BadInput):
        reschedule(RUN, store=store, config=config, current_job_id="a\nb")


@pytest.mark.parametrize("minutes", [5, 10, 20, 30, 60])
def test_cron_expressions_are_valid_and_spaced(minutes):
    expr = cron_every(minutes, T0)
    assert CRON.match(expr)
    mins = [int(m) for m in expr.split()[0].split(",")]
    assert all(0 <= m < 60 for m in mins) and 7 in mins
    if minutes < 60:
        assert len(mins) == 60 // minutes and all(b - a == minutes for a, b in zip(mins, mins[1:]))
