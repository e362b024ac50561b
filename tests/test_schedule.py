"""reschedule: the ladder, resets, WAIT, STOP and stops, one job per run, exact Cron arguments, 7-day renewal."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime, timedelta

import pytest
from training_check.tools.errors import BadInput
from training_check.tools.schedule import (
    CheckArguments,
    cron_every,
    cron_interval,
    job_run,
    reschedule,
    run_tag,
    split_arguments,
)

RUN = "/data/run/train.log"
KEY = "file:/data/run/train.log"
TAG = run_tag(KEY)
PROMPT = f"/training-check #{TAG} {RUN}"
T0 = datetime(2026, 12, 2, 17, 7, tzinfo=UTC)
CRON = re.compile(r"^(\d+(,\d+)*) \* \* \* \*$")


def _assess(store, verdict, findings=(), step=None):
    return store.add_assessment(KEY, verdict, step, {"verdict": verdict, "run": RUN, "findings": list(findings),
                                                     "progress": {"step": step}})


def _stopped(store, aid, ok=True):
    """What stop_run records: the plan, then the outcome."""
    plan = store.add_evidence(KEY, "/ev.md", {"kind": "stop_plan", "assessment_id": aid})
    store.add_evidence(KEY, "/ev.md", {"kind": "stop_outcome", "plan_evidence_id": plan, "stopped": ok})


class Claude:
    """Claude Code's cron jobs as CronCreate/CronDelete/CronList keep them (ids are 8 hex digits there)."""

    def __init__(self):
        self.jobs: dict[str, dict] = {}
        self.n = 0

    def listing(self) -> list[dict]:
        """What the agent passes from CronList's text: the id, the schedule, the prompt cut to 80 characters."""
        return [{"id": i, "schedule": j["cron"], "prompt": j["prompt"] if len(j["prompt"]) <= 80
                 else j["prompt"][:79] + "\u2026", "recurring": True, "session_only": not j["durable"]}
                for i, j in self.jobs.items()]

    def apply(self, s) -> None:
        for d in s.cron_delete:
            del self.jobs[d["id"]]
        if s.cron_create:
            self.n += 1
            self.jobs[f"{self.n:08x}"] = dict(s.cron_create)


def test_ladder_climbs_one_rung_per_healthy_check_and_caps_at_60(store, config):
    seen, t, claude = [], T0, Claude()
    for _ in range(6):
        s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"),
                       jobs=claude.listing(), now=t)
        seen.append(s.interval_minutes)
        assert CRON.match(s.cron), s.cron
        assert s.job_prompt == PROMPT
        if s.cron_create:
            assert s.cron_create == {"cron": s.cron, "prompt": PROMPT, "recurring": True, "durable": False}
        claude.apply(s)
        assert len(claude.jobs) == 1
        t += timedelta(minutes=s.interval_minutes)
    assert seen == [10, 20, 30, 60, 60, 60]
    assert s.cron_create is None and s.cron_delete == [] and s.keep_job_id == "00000004"  # at the cap: kept


def test_anomalies_reset_to_10_and_wait_checks_in_5(store, config):
    for _ in range(3):
        reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), now=T0)
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "ESCALATE"), now=T0)
    assert s.interval_minutes == 10 and s.reason == "the last check said ESCALATE: back to every 10 minutes"
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "WAIT"), now=T0)
    assert s.interval_minutes == 5
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), now=T0)
    assert s.interval_minutes == 10
    warn = [{"signal": "spikes", "status": "warn", "message": "x"}]
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE", warn), now=T0)
    assert s.interval_minutes == 10 and s.reason == "a spikes warning: back to every 10 minutes"


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


def test_stop_verdict_deletes_every_job_of_the_run_and_creates_none(store, config):
    claude = Claude()
    claude.apply(reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), now=T0))
    other = {"id": "ffff0001", "cron": "7 * * * *", "prompt": "/training-check /other/train.log", "recurring": True}
    other_marked = {"id": "ffff0002", "prompt": f"/training-check #{run_tag('file:/other/train.log')} /other/t…"}
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "STOP"),
                   jobs=claude.listing() + [other, other_marked], now=T0)
    assert s.stopped and s.cron_delete == [{"id": "00000001"}] and s.cron_create is None
    assert s.interval_minutes is None and s.keep_job_id is None
    assert s.summary == "STOP (the check said STOP): delete 1 check job of this run (00000001) and create none."


def test_stop_without_a_job_list_still_deletes_the_job_that_started_the_check(store, config):
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "STOP"), current_job_id="abc", now=T0)
    assert s.stopped and s.cron_delete == [{"id": "abc"}] and s.cron_create is None


def test_a_successful_stop_after_an_escalate_and_a_stop_review_ends_the_checks(store, config):
    """The ESCALATE -> reviewer STOP -> stop_run flow: reschedule of the ESCALATE assessment says stop."""
    claude = Claude()
    claude.apply(reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE", step=100),
                            now=T0))
    aid = _assess(store, "ESCALATE", step=200)
    store.add_review(KEY, aid, "m", "h", "STOP", "diverged", {})
    _stopped(store, aid)
    s = reschedule(RUN, store=store, config=config, assessment_id=aid, jobs=claude.listing(), now=T0)
    assert s.stopped and s.cron_create is None and s.cron_delete == [{"id": "00000001"}]
    assert s.reason == "the reviewer said STOP: stop checking it"
    # the review alone (stop_run not done) also ends checking; a stop alone does too
    aid2 = _assess(store, "ESCALATE", step=200)
    s = reschedule(RUN, store=store, config=config, assessment_id=aid2, jobs=[], now=T0)
    assert s.stopped and s.reason.startswith("the run was stopped at ") and "no newer data since" in s.reason


def test_a_stop_is_over_when_newer_data_arrives(store, config):
    aid = _assess(store, "STOP", step=200)
    _stopped(store, aid)
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE", step=150), now=T0)
    assert s.stopped  # nothing newer than what was stopped
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE", step=400), now=T0)
    assert not s.stopped and s.interval_minutes == 10 and s.cron_create["prompt"] == PROMPT


def test_a_failed_stop_does_not_end_the_checks_by_itself(store, config):
    aid = _assess(store, "ESCALATE", step=200)
    _stopped(store, aid, ok=False)
    s = reschedule(RUN, store=store, config=config, assessment_id=aid, now=T0)
    assert not s.stopped and s.interval_minutes == 10


def test_eight_manual_checks_leave_one_job(store, config):
    claude = Claude()
    for _ in range(8):
        s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"),
                       jobs=claude.listing(), now=T0)
        claude.apply(s)
        assert [j["prompt"] for j in claude.jobs.values()] == [PROMPT]
    assert len(claude.jobs) == 1


def test_leaked_duplicates_are_all_deleted_but_the_one_kept(store, config):
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), now=T0)
    cron = s.cron
    leaked = [{"id": f"j{i}", "cron": cron, "prompt": PROMPT, "recurring": True, "durable": False} for i in range(3)]
    leaked.append({"id": "old", "cron": "3,13,23,33,43,53 * * * *", "prompt": f"{PROMPT} target=pid:42",
                   "recurring": True})
    leaked.append({"id": "unmarked", "prompt": f"/training-check {RUN}"})  # made by hand, or by an older version
    s = reschedule(RUN, store=store, config=config, assessment_id=s.assessment_id, jobs=leaked, current_job_id="j1",
                   now=T0)
    assert s.keep_job_id == "j1" and s.cron_create is None
    assert s.cron_delete == [{"id": "j0"}, {"id": "j2"}, {"id": "old"}, {"id": "unmarked"}]


def test_a_job_with_another_interval_is_replaced(store, config):
    claude = Claude()
    claude.apply(reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), now=T0))
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), jobs=claude.listing(),
                   current_job_id="00000001", now=T0 + timedelta(minutes=10))
    assert s.interval_minutes == 20 and s.cron_delete == [{"id": "00000001"}]
    assert cron_interval(s.cron_create["cron"]) == 20


def test_target_host_and_durable_go_into_the_job_prompt(store, config):
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), target="pid:42",
                   host="gpu1", durable=True, now=T0)
    assert s.job_prompt == f"{PROMPT} target=pid:42 host=gpu1 durable=true"
    assert split_arguments(s.job_prompt.removeprefix("/training-check ")) == CheckArguments(
        RUN, "pid:42", "gpu1", True, TAG)
    assert s.cron_create == {"cron": s.cron, "prompt": s.job_prompt, "recurring": True, "durable": True}


def test_unchanged_job_is_kept_until_it_nears_its_7_day_expiry(store, config):
    claude = Claude()
    for i in range(4):
        claude.apply(reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"),
                                jobs=claude.listing(), now=T0 + timedelta(minutes=i)))
    (job,) = claude.jobs
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), jobs=claude.listing(),
                   now=T0 + timedelta(hours=2))
    assert s.cron_create is None and s.cron_delete == [] and s.keep_job_id == job
    assert s.summary.endswith(f"keep job {job}.")
    s = reschedule(RUN, store=store, config=config, assessment_id=_assess(store, "CONTINUE"), jobs=claude.listing(),
                   now=T0 + timedelta(days=6, hours=1))
    assert s.cron_delete == [{"id": job}] and s.cron_create is not None and "renew" in s.summary


def test_errors(store, config):
    with pytest.raises(BadInput, match="unknown assessment_id"):
        reschedule(RUN, store=store, config=config, assessment_id="asm_nope")
    other = store.add_assessment("file:/other.log", "CONTINUE", 1, {"verdict": "CONTINUE", "run": "/other.log"})
    with pytest.raises(BadInput, match="not"):
        reschedule(RUN, store=store, config=config, assessment_id=other)
    with pytest.raises(BadInput, match="current_job_id must be the id CronCreate returned"):
        reschedule(RUN, store=store, config=config, current_job_id="a\nb")
    with pytest.raises(BadInput, match="each entry of jobs needs the id CronList showed"):
        reschedule(RUN, store=store, config=config, jobs=[{"cron": "7 * * * *"}])


def test_arguments_split_into_run_target_host():
    assert split_arguments("team/proj/abc") == CheckArguments("team/proj/abc")
    assert split_arguments("/x/train.log target=pid:42 host=gpu1") == CheckArguments("/x/train.log", "pid:42", "gpu1")
    got = split_arguments("/x/train.log target=cmd:python train.py --lr 3e-4 host=me@gpu:2222")
    assert got == CheckArguments("/x/train.log", "cmd:python train.py --lr 3e-4", "me@gpu:2222")
    assert split_arguments("/x/t.log durable=true").prompt() == "/training-check /x/t.log durable=true"
    assert split_arguments("#0e7b208f /x/t.log") == CheckArguments("/x/t.log", tag="0e7b208f")
    assert job_run("/training-check /x/train.log target=pid:1") == "/x/train.log"
    assert job_run("/training-check #0e7b208f /x/train.log") == "/x/train.log"
    assert job_run("/loop check the deploy") is None


@pytest.mark.parametrize("minutes", [5, 10, 20, 30, 60])
@pytest.mark.parametrize("minute", [0, 7, 30, 50])
def test_cron_expressions_are_spaced_and_avoid_the_hour_and_half_hour(minutes, minute):
    expr = cron_every(minutes, T0.replace(minute=minute))
    assert CRON.match(expr)
    mins = [int(m) for m in expr.split()[0].split(",")]
    assert all(0 <= m < 60 for m in mins) and not {0, 30} & set(mins)
    assert cron_interval(expr) == minutes
    if minutes < 60:
        assert len(mins) == 60 // minutes and all(b - a == minutes for a, b in itertools.pairwise(mins))
    assert cron_every(10, T0) == "7,17,27,37,47,57 * * * *"


def test_a_long_run_is_matched_by_its_mark_though_cronlist_cuts_the_prompt(store, config):
    run = "/data/" + "very-long-experiment-folder-name/" * 4 + "train.log"
    key = f"file:{run}"
    sib = run.replace("train.log", "train2.log")  # the same first 80 characters, another run
    claude = Claude()
    for r in (run, sib):
        k = f"file:{r}"
        aid = store.add_assessment(k, "CONTINUE", 1, {"verdict": "CONTINUE", "run": r, "findings": []})
        claude.apply(reschedule(r, store=store, config=config, assessment_id=aid, jobs=claude.listing(), now=T0))
    assert all(j["prompt"].endswith("\u2026") for j in claude.listing())
    aid = store.add_assessment(key, "STOP", 2, {"verdict": "STOP", "run": run, "findings": []})
    s = reschedule(run, store=store, config=config, assessment_id=aid, jobs=claude.listing(), now=T0)
    assert s.cron_delete == [{"id": "00000001"}]  # only this run's job, not the sibling's
