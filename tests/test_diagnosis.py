"""The diagnosis on STOP / ESCALATE: one real run per cause (examples/causes, made by bench/cause_runs.py: tiny
models trained on the CPU, each failure produced by the training itself) gives that cause, its events in the order
they happened and its actions; the answer stays within 2 KB; the reviewer prompt and the stop evidence carry it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from training_check.tools.assess import RESPONSE_BUDGET, assess_run
from training_check.tools.diagnosis import CAUSES, CONFIDENCE, confidence
from training_check.tools.findings import OK
from training_check.tools.judge import ESCALATE, STOP
from training_check.tools.reviewer.prompt import build_prompt
from training_check.tools.stop_run import stop_run

from tests.standins import Trainers

CAUSE_RUNS = Path(__file__).resolve().parents[1] / "examples" / "causes"

# (run, cause, an action it must name, events that must appear in this order)
CASES = [
    ("lr_too_high_3", "lr_too_high", "lower the peak LR to 17.6",
     ["loss at its best level", "loss rose above its best level"]),
    ("lr_too_low_1", "lr_too_low", "raise the peak LR to 1e-05", ["loss flat under an LR of 1e-06"]),
    ("lr_schedule_1", "lr_schedule", "min(1, step / warmup_steps)", ["loss at its best level", "LR still rising"]),
    ("lr_schedule_3", "lr_schedule", "to the run's 700 steps", ["LR reached ~0", "val_loss identical"]),
    ("loss_scale_overflow_2", "loss_scale_overflow", "bf16 instead of fp16",
     ["loss scale halved", "first non-finite loss"]),
    ("numerical_1", "numerical", "log_softmax", ["loss at its best level", "first non-finite loss"]),
    ("bad_batch_1", "bad_batch", "skip or inspect the batch at step 300",
     ["loss at its best level", "one-step grad norm spike", "loss rose above its best level"]),
    ("no_learning_1", "no_learning", "the optimizer's parameter list", ["val_loss identical"]),
    ("overfitting_1", "overfitting", "step 40", ["val_loss at its best level", "while the train loss kept falling"]),
    ("exploding_gradients_1", "exploding_gradients", "clip the grad norm at",
     ["grad norm rose", "first non-finite loss"]),
]


def _assess(name: str, store, config, **kw):
    return assess_run(str(CAUSE_RUNS / name / "train.jsonl"), store=store, config=config, **kw)


def test_every_cause_has_runs_labelled_with_it():
    labels = [json.loads(p.read_text())["cause"] for p in CAUSE_RUNS.glob("*/label.json")]
    for cause in CAUSES[:-1]:
        assert labels.count(cause) >= 3, cause  # several runs per cause: the bench is not fitted to one shape
    assert set(labels) <= set(CAUSES)


@pytest.mark.parametrize(("run", "cause", "action", "events"), CASES, ids=[c[0] for c in CASES])
def test_a_real_run_gets_its_cause_events_and_actions(store, config, run, cause, action, events):
    assert json.loads((CAUSE_RUNS / run / "label.json").read_text())["cause"] == cause
    a = _assess(run, store, config)
    assert a.verdict in (STOP, ESCALATE)
    d = a.diagnosis
    assert d is not None and d.cause == cause, (d.cause if d else None, d.lines() if d else None)
    assert 0 < d.confidence <= 1
    steps = [e.step for e in d.events]
    assert steps == sorted(steps)  # in the order they happened
    texts = [e.what for e in d.events]
    at = [next(i for i, t in enumerate(texts) if want in t) for want in events]
    assert at == sorted(at), texts
    assert any(action in str(x) for x in d.actions), [str(x) for x in d.actions]
    assert all(x.answers for x in d.actions)  # each action says which evidence it answers
    answer = a.to_dict()
    assert len(json.dumps(answer)) <= RESPONSE_BUDGET
    assert answer["diagnosis"]["cause"] == cause and answer["diagnosis"]["actions"]


def test_no_diagnosis_on_continue(store, config):
    a = assess_run(str(CAUSE_RUNS / "overfitting_1" / "train.jsonl"), store=store, config=config, as_of_step=20)
    assert a.verdict not in (STOP, ESCALATE) and a.diagnosis is None and "diagnosis" not in a.to_dict()


def test_resume_from_the_last_checkpoint_before_the_onset(store, config):
    d = _assess("bad_batch_1", store, config).diagnosis
    assert d is not None and any("resume from the checkpoint at step 200" in str(x) for x in d.actions)
    d2 = _assess("numerical_2", store, config).diagnosis  # NaN at step 57: no checkpoint before it, no resume
    assert d2 is not None and not any("resume" in str(x) for x in d2.actions)


def test_the_clip_value_comes_from_the_pre_onset_grad_norms(store, config):
    d = _assess("bad_batch_1", store, config).diagnosis
    assert d is not None
    clip = next(str(x) for x in d.actions if "clip the grad norm at" in str(x))
    value = float(re.search(r"clip the grad norm at ([0-9.e+-]+)", clip).group(1))
    grads = [r["grad_norm"] for r in map(json.loads, (CAUSE_RUNS / "bad_batch_1" / "train.jsonl").open())
             if "grad_norm" in r and r["step"] < 300]
    assert min(grads) < value < max(grads) and value < 10  # a quantile of what the healthy steps logged


def test_the_reviewer_prompt_carries_the_diagnosis(store, config):
    a = _assess("bad_batch_1", store, config)
    p = build_prompt(a.record(), "is this a bad batch?")
    assert "probable cause: bad_batch" in p.text and "skip or inspect the batch at step 300" in p.text
    # inside the untrusted-data fence, like every other piece of run data
    begin, end = f"\n<<<BEGIN UNTRUSTED DATA {p.fence}>>>\n", f"\n<<<END UNTRUSTED DATA {p.fence}>>>"
    inside = p.text.split(begin)[1].split(end)[0]
    assert "probable cause: bad_batch" in inside


def test_ok_findings_never_overlap_the_event(store, config):
    """A STOP's answer prints no ok finding whose window reaches the onset: those are measured again before it."""
    for run in ("lr_too_high_3", "bad_batch_1", "exploding_gradients_1"):
        a = _assess(run, store, config)
        onset = a.diagnosis.onset_step if a.diagnosis else None
        assert onset is not None
        for f in a.findings:
            if f.status == OK and f.steps:
                assert f.steps[-1] < onset, (run, f)
        assert not any(f.status == OK and f.signal == "projection" and f.steps for f in a.findings)


def test_readme_diverged_example_has_no_contradicting_ok(store, config):
    run = Path(__file__).resolve().parents[1] / "examples" / "corpus" / "diverged_gpt_adam_lr_too_high" / "train.log"
    a = assess_run(str(run), store=store, config=config)
    assert a.verdict == STOP and a.diagnosis is not None and a.diagnosis.cause == "lr_too_high"
    onset = a.diagnosis.onset_step
    assert onset is not None and onset >= 70  # the loss was at its best at step 70: trouble starts after it
    for f in a.findings:
        assert not (f.status == OK and f.steps and f.steps[-1] >= onset), f
    trend = next(f for f in a.findings if f.signal == "loss_trend")
    assert trend.message.startswith(f"before step {onset}")


def test_the_stop_evidence_carries_the_diagnosis(store, config, tmp_path):
    log = tmp_path / "train.jsonl"
    log.write_bytes((CAUSE_RUNS / "bad_batch_1" / "train.jsonl").read_bytes())
    a = assess_run(str(log), store=store, config=config)
    assert a.verdict == STOP and a.diagnosis is not None
    trainers = Trainers(tmp_path)
    try:
        p = trainers.start("trap", "--log", str(log))  # a real process holding the run's log open
        r = stop_run(str(log), "the loss diverged after a bad batch", store=store, config=config,
                     assessment_id=a.assessment_id, target=f"pid:{p.pid}", grace_s=5)
        assert r.stopped and p.wait(timeout=5) == 0
    finally:
        trainers.close()
    md = Path(r.evidence_path or "").read_text()
    assert "## Diagnosis" in md and "probable cause: bad_batch" in md
    assert "action: skip or inspect the batch at step 300" in md and "event: step 300:" in md
    assert md.index("## Diagnosis") < md.index("## Outcome")  # written with the evidence, before the signal


EXAMPLES = CAUSE_RUNS.parent
# Unseen shapes (issue 29): (run, its cause, the least confidence it must be given with)
UNSEEN = [
    ("frameworks/hf_lr_huge_nan/train.log", "lr_too_high", 0.7),  # NaN from the first log under an LR of ~1e20
    ("frameworks/torch_tutorial_lr_huge_nan/train.log", "lr_too_high", 0.0),  # NaN from the first log, no LR logged
    ("holdout/torch_json_lr_huge_nan/train.log", "lr_too_high", 0.0),  # wild finite logs, then NaN: a blow-up
    ("corpus/nan_fp16_no_loss_scaler/train.log", "numerical", 0.0),  # NaN at once with an fp16 loss scale logged
    ("stalls/exp_per_iter_1/train.log", "lr_schedule", 0.7),  # ExponentialLR stepped per iteration
    ("stalls/lr_typo_2/train.log", "lr_too_low", 0.7),  # a peak LR of 3e-7
]


@pytest.mark.parametrize(("run", "cause", "confidence"), UNSEEN, ids=[u[0].split("/")[1] for u in UNSEEN])
def test_causes_on_runs_the_rules_were_not_made_on(store, config, run, cause, confidence):
    """Non-finite from the first logs is not called numerical without evidence (nothing finite came before it);
    an LR schedule that ended at a tenth of the run, or a peak LR typed 1e4 too small, is named as such."""
    a = assess_run(str(EXAMPLES / run), store=store, config=config)
    assert a.verdict in (STOP, ESCALATE), a.summary
    assert a.diagnosis is not None and a.diagnosis.cause == cause, a.diagnosis.lines() if a.diagnosis else None
    assert a.diagnosis.confidence >= confidence


def test_a_burst_of_steps_skipped_on_overflow_before_the_nan_is_a_loss_scale_overflow(tmp_path, store, config):
    """DeepSpeed prints each step its fp16 scaler skipped; a burst of them right before the first NaN (no loss
    blow-up first) is the loss scale failing, not log(0)."""
    lines = []
    for s in range(1, 81):
        if 50 <= s <= 55:
            lines.append(f"[Rank 0] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: {2 ** (21 - s + 50)}, "
                         f"reducing to {2 ** (20 - s + 50)}")
        loss = "nan" if s > 55 else f"{2.3 - 0.01 * s:.4f}"
        lines.append(f"step {s} loss={loss} lr=1.000e-04 grad_norm=0.5")
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    a = assess_run(str(path), store=store, config=config)
    assert a.verdict == STOP and a.diagnosis is not None
    assert a.diagnosis.cause == "loss_scale_overflow", a.diagnosis.lines()
    assert any("skipped on overflow" in str(e) for e in a.diagnosis.events)


# The confidence says which evidence was there (issue 29): >= 0.7 only when the evidence that tells the cause from its
# nearest rival was logged; (run, cause, the confidence at least, or below)
EVIDENCE = [
    ("libraries_holdout/ray_tune_v2_lr_ramp_nan/train.log", "lr_schedule", 0.7, None),  # LR x1.5 per log into the NaN
    ("libraries/keras_tf_v2_sgd_lr_growth_nan/train.log", "lr_schedule", 0.7, None),  # LR x3 per epoch into the NaN
    ("frameworks/hf_warmup_to_lr3_diverged/train.log", "lr_too_high", 0.0, 0.7),  # a linear warmup still rising
    ("libraries_holdout/tabnet_reg_lr_ramp_diverged/train.log", "lr_schedule", 0.0, 0.7),  # no LR logged, best late
    ("libraries/sb3_dqn_lr_huge_diverged/train.log", "lr_too_high", 0.7, None),  # reward collapsed under an LR of 1000
]


@pytest.mark.parametrize(("run", "cause", "least", "below"), EVIDENCE, ids=[e[0].split("/")[1] for e in EVIDENCE])
def test_the_confidence_follows_the_evidence_logged(store, config, run, cause, least, below):
    a = assess_run(str(EXAMPLES / run), store=store, config=config)
    assert a.verdict == STOP, a.summary
    d = a.diagnosis
    assert d is not None and d.cause == cause, d.lines() if d else None
    assert d.confidence >= least and (below is None or d.confidence < below), d.lines()


def test_one_table_says_how_sure_each_cause_is():
    """Every cause but unknown has a row; where the evidence that separates a cause from its rival is missing, the
    confidence is below 0.7; rows are found by the evidence present, the first match winning."""
    assert {c for c, _, _ in CONFIDENCE} == set(CAUSES) - {"unknown"}
    assert all(0 < v <= 1 for _, _, v in CONFIDENCE)
    assert confidence("unknown", set()) == 0.0
    for missing in ({"lr_absent"}, {"lr_rising"}, {"lr_steady"}, {"nan_at_once"}):
        assert confidence("lr_too_high", missing) < 0.7, missing
    assert confidence("lr_too_high", {"lr_rising", "lr_absurd"}) >= 0.7  # an LR of 100+ is the cause whatever rose
    assert confidence("numerical", {"nan_from_level", "lr_rising"}) < 0.7 <= confidence("numerical", {"nan_from_level"})
    assert confidence("numerical", {"nan_from_level", "grad_absent"}) < 0.7  # the loss alone: a blow-up within a log
    assert confidence("lr_schedule", {"lr_multiplied"}) >= 0.7
