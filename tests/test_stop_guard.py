"""The stop guard at its boundaries: a STOP verdict's age just inside / just outside the limit, and the tie rules.

Real store (sqlite); the record times are set in the database, the way an older check would have written them.
"""

from __future__ import annotations

import sqlite3
import time

import pytest
from training_check.tools.errors import StopRefused
from training_check.tools.runref import parse_run_ref
from training_check.tools.stop_run import check_authority

RUN = "/tmp/guard-run/train.log"
KEY = parse_run_ref(RUN).key


def _set_time(store, table: str, rid: str, created_at: float) -> None:
    with sqlite3.connect(store.path) as c:
        c.execute(f"UPDATE {table} SET created_at=? WHERE id=?", (created_at, rid))


def _assessment(store, verdict: str = "STOP", minutes_ago: float = 0.0) -> str:
    aid = store.add_assessment(KEY, verdict, 10, {"run": RUN, "verdict": verdict, "summary": "loss is NaN"})
    _set_time(store, "assessments", aid, time.time() - minutes_ago * 60)
    return aid


def _review(store, aid: str, decision: str, at: float) -> str:
    rid = store.add_review(KEY, aid, "gpt-test", "h", decision, "why", {})
    _set_time(store, "reviews", rid, at)
    return rid


def _created(store, table: str, rid: str) -> float:
    with sqlite3.connect(store.path) as c:
        return c.execute(f"SELECT created_at FROM {table} WHERE id=?", (rid,)).fetchone()[0]


def _authority(store, **kw):
    return check_authority(KEY, store, force=False, reason="r", **{"assessment_id": None, "review_id": None, **kw})


# -- age: twice the check interval (10 min until the run has a schedule), at most 2 h ---------------------------
def test_default_limit_just_inside(store):
    aid = _assessment(store, minutes_ago=19.9)
    assert _authority(store, assessment_id=aid)[0] == f"assessment {aid} (STOP, 20 min ago)"


def test_default_limit_just_outside(store):
    aid = _assessment(store, minutes_ago=20.1)
    with pytest.raises(StopRefused) as e:
        _authority(store, assessment_id=aid)
    assert str(e.value) == (f"assessment {aid} is 20 min ago (limit 20 min: twice the check interval): "
                            f"assess the run again before stopping it")


@pytest.mark.parametrize("interval, inside, outside, limit", [(30, 59.6, 60.4, 60), (90, 119.4, 120.6, 120),
                                                             (600, 119.4, 120.6, 120)])
def test_limit_follows_the_schedule_and_is_capped_at_two_hours(store, interval, inside, outside, limit):
    store.put_schedule(KEY, {"interval": interval})
    late = _assessment(store, minutes_ago=outside)
    with pytest.raises(StopRefused) as e:
        _authority(store, assessment_id=late)
    age = f"{outside:.0f} min ago" if outside < 120 else f"{outside / 60:.1f} h ago"
    assert str(e.value) == (f"assessment {late} is {age} (limit {limit} min: twice the check interval): "
                            f"assess the run again before stopping it")
    ok = _assessment(store, minutes_ago=inside)  # now the latest judgment
    assert _authority(store, assessment_id=ok)[0] == f"assessment {ok} (STOP, {inside:.0f} min ago)"


def test_review_age_boundary(store):
    aid = _assessment(store, minutes_ago=30)
    rid = _review(store, aid, "STOP", time.time() - 19.9 * 60)
    assert _authority(store, review_id=rid)[0] == f"review {rid} (STOP, 20 min ago)"
    _set_time(store, "reviews", rid, time.time() - 20.1 * 60)
    with pytest.raises(StopRefused) as e:
        _authority(store, review_id=rid)
    assert str(e.value) == (f"review {rid} is 20 min ago (limit 20 min: twice the check interval): "
                            f"check the run again before stopping it")


# -- ties: at the same instant a review counts over an assessment --------------------------------------------
def test_review_of_the_assessment_at_the_same_instant_overrides_it(store):
    aid = _assessment(store, minutes_ago=1)
    rid = _review(store, aid, "CONTINUE", _created(store, "assessments", aid))
    with pytest.raises(StopRefused) as e:
        _authority(store, assessment_id=aid)
    assert str(e.value) == (f"review {rid} decided CONTINUE, not STOP: nothing was stopped "
                            f"(a person can override: training-check stop --force)")


def test_review_of_another_assessment_at_the_same_instant_supersedes(store):
    first = _assessment(store, minutes_ago=2)
    aid = _assessment(store, minutes_ago=1)
    rid = _review(store, first, "STOP", _created(store, "assessments", aid))
    with pytest.raises(StopRefused) as e:
        _authority(store, assessment_id=aid)
    assert str(e.value) == (f"assessment {aid} is not the run's latest judgment: review {rid} (STOP, 1 min ago) "
                            f"came after it; nothing was stopped (assess the run again)")
    assert _authority(store, review_id=rid)[0] == f"review {rid} (STOP, 1 min ago)"


def test_an_assessment_one_second_newer_than_the_review_counts(store):
    aid = _assessment(store, minutes_ago=3)
    rid = _review(store, aid, "STOP", time.time() - 2 * 60)
    newer = _assessment(store, "CONTINUE", minutes_ago=2 - 1 / 60)
    with pytest.raises(StopRefused) as e:
        _authority(store, review_id=rid)
    assert str(e.value) == (f"review {rid} is not the run's latest judgment: assessment {newer} (CONTINUE, 2 min "
                            f"ago) came after it; nothing was stopped (assess the run again)")
