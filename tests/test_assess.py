"""assess_run end to end on log files: verdicts, the stored record, size, incremental reads, replays, baselines,
UNREACHABLE, fallback."""

from __future__ import annotations

import json

import numpy as np
import pytest
from training_check.tools.assess import assess_run
from training_check.tools.errors import BadInput


def write_llmc(path, losses, start=1, mode="w", evals=None):
    with open(path, mode) as f:
        for i, v in enumerate(losses, start=start):
            f.write(f"s:{i} trl:{v:.5f} lr:0.000300 norm:1.0{i % 7}\n")
            if evals and i in evals:
                f.write(f"s:{i} tel:{evals[i]:.5f}\n")


def curve(n, noise=0.03, seed=0):
    t = np.arange(1, n + 1)
    return 2.5 + 8 * t ** -0.5 + np.random.default_rng(seed).normal(0, noise, n)


def test_healthy_log_continues_and_the_assessment_is_stored_and_small(tmp_path, store, config):
    log = tmp_path / "train.log"
    write_llmc(log, curve(600))
    a = assess_run(str(log), store=store, config=config, total_steps=5000)
    assert a.verdict == "CONTINUE", a.summary
    d = a.to_dict()
    assert len(json.dumps(d)) < 2000
    assert d["progress"] == {"step": 600, "total_steps": 5000, "fraction": 0.12}
    stored = store.get_assessment(a.assessment_id)
    assert stored["verdict"] == "CONTINUE" and len(stored["loss_checkpoints"]) == 10
    assert stored["key_metrics"]["train_loss"]["name"] == "train_loss"


def test_nan_run_stops_with_evidence_in_the_finding(tmp_path, store, config):
    log = tmp_path / "train.log"
    y = curve(400)
    y[300:] = np.nan
    write_llmc(log, y)
    a = assess_run(str(log), store=store, config=config)
    assert a.verdict == "STOP"
    f = [f for f in a.findings if f.signal == "nonfinite" and f.status == "critical"][0]
    assert f.steps[0] == 301 and f.numbers["nonfinite_last"] == 100


def test_second_check_reads_only_new_data_and_reports_staleness(tmp_path, store, config):
    log = tmp_path / "train.log"
    write_llmc(log, curve(300))
    assess_run(str(log), store=store, config=config)
    a = assess_run(str(log), store=store, config=config)
    stale = [f for f in a.findings if f.signal == "staleness"][0]
    assert "no new steps" in stale.message
    write_llmc(log, curve(400)[300:], start=301, mode="a")
    from training_check.tools.reading import load_run

    data = load_run(str(log), store=store, config=config)
    assert data.new_points == 300  # only the 100 new steps (3 metrics each), not the 300 before them again
    assert data.last_step_before == 300 and data.frame.last_step == 400
    b = assess_run(str(log), store=store, config=config)
    assert b.progress["step"] == 400 and load_run(str(log), store=store, config=config).new_points == 0


def test_divergence_needs_persistence_across_checks_or_a_long_window(tmp_path, store, config):
    log = tmp_path / "train.log"
    y = curve(2000)
    y[1500:] += np.linspace(0, 4, 500)
    write_llmc(log, y)
    verdicts = [assess_run(str(log), store=store, config=config, as_of_step=s).verdict
                for s in (1400, 1500, 1520, 1600, 1700, 1800)]
    assert "STOP" not in verdicts[:2]
    assert verdicts[-1] == "STOP"


def test_as_of_step_judges_the_past_without_rereading(tmp_path, store, config):
    log = tmp_path / "train.log"
    y = curve(1000)
    y[800:] = np.nan
    write_llmc(log, y)
    assert assess_run(str(log), store=store, config=config, as_of_step=700).verdict == "CONTINUE"
    assert assess_run(str(log), store=store, config=config).verdict == "STOP"


def test_baseline_worse_than_expected_escalates(tmp_path, store, config):
    log = tmp_path / "train.log"
    y = curve(1000)
    evals = {s: float(y[s - 1] + 0.3) for s in range(100, 1001, 100)}
    write_llmc(log, y, evals=evals)
    base = {"val_loss": [[100, 2.0], [1000, 2.2]]}
    a = assess_run(str(log), store=store, config=config, baseline=base)
    f = [f for f in a.findings if f.signal == "baseline"][0]
    assert f.status == "warn" and a.verdict == "ESCALATE" and "baseline" in a.summary
    ok = assess_run(str(log), store=store, config=config, baseline={"val_loss": [[100, 4.0], [1000, 3.5]]})
    assert [f for f in ok.findings if f.signal == "baseline"][0].status == "ok"
    with pytest.raises(BadInput, match="not logged"):
        assess_run(str(log), store=store, config=config, baseline={"bleu": [[1, 2]]})


def test_baseline_as_another_run(tmp_path, store, config):
    ref, ours = tmp_path / "ref.log", tmp_path / "ours.log"
    y = curve(800)
    write_llmc(ref, y - 0.5, evals={s: float(y[s - 1] - 0.4) for s in range(100, 801, 100)})
    write_llmc(ours, y, evals={s: float(y[s - 1] + 0.1) for s in range(100, 801, 100)})
    a = assess_run(str(ours), store=store, config=config, baseline=str(ref))
    assert any(f.signal == "baseline" and f.status == "warn" for f in a.findings)


def test_unreachable_source_is_unreachable_never_a_training_verdict(store, config):
    a = assess_run("ssh://127.0.0.1:1/var/log/train.log", store=store, config=config)
    assert a.verdict == "UNREACHABLE" and a.findings == []
    assert store.get_assessment(a.assessment_id)["verdict"] == "UNREACHABLE"


def test_too_little_data_waits_and_no_loss_waits(tmp_path, store, config):
    log = tmp_path / "train.log"
    write_llmc(log, curve(3))
    assert assess_run(str(log), store=store, config=config).verdict == "WAIT"
    other = tmp_path / "tput.jsonl"
    other.write_text("".join(json.dumps({"step": i, "tokens_per_sec": 1000 + i}) + "\n" for i in range(50)))
    a = assess_run(str(other), store=store, config=config)
    assert a.verdict == "WAIT" and "no loss" in a.summary


@pytest.mark.parametrize("bad", [{"total_steps": -1}, {"as_of_step": "x"}, {"baseline": "{not json"}])
def test_bad_arguments_are_clear_errors(tmp_path, store, config, bad):
    log = tmp_path / "train.log"
    write_llmc(log, curve(50))
    with pytest.raises(BadInput):
        assess_run(str(log), store=store, config=config, **bad)


def test_a_reviewer_continue_is_not_asked_again_for_the_same_concern(tmp_path, store, config):
    from training_check.tools.schedule import reschedule

    log = tmp_path / "train.log"
    rng = np.random.default_rng(7)
    write_llmc(log, 5 + rng.normal(0, 0.05, 800))  # no learning at all: a plateau from the start
    a = assess_run(str(log), store=store, config=config, total_steps=2000)
    assert a.verdict == "ESCALATE" and "plateau" in a.summary
    store.add_review(a.run_key, a.assessment_id, "m", "h", "CONTINUE", "small model, expected", {})
    b = assess_run(str(log), store=store, config=config, total_steps=2000)
    assert b.verdict == "CONTINUE" and "reviewer judged it acceptable" in b.summary
    reschedule(str(log), store=store, config=config, assessment_id=a.assessment_id)
    s = reschedule(str(log), store=store, config=config, assessment_id=b.assessment_id)
    assert s.interval_minutes == 20  # a reviewed concern is no anomaly: the ladder climbs
    y = 5 + rng.normal(0, 0.05, 900)
    y[850:] = np.nan  # something new and worse: judged afresh
    write_llmc(log, y)
    assert assess_run(str(log), store=store, config=config).verdict == "STOP"


def test_baseline_named_differently_maps_to_the_metric_of_the_same_role(tmp_path, store, config):
    log = tmp_path / "train.log"
    y = curve(1000)
    write_llmc(log, y, evals={s: float(y[s - 1] + 0.3) for s in range(100, 1001, 100)})
    a = assess_run(str(log), store=store, config=config, baseline={"eval/loss": {"100": 2.0, "1000": 2.2}})
    f = [f for f in a.findings if f.signal == "baseline"][0]
    assert f.status == "warn" and "val_loss" in f.message


def test_the_readme_examples_give_the_verdicts_the_readme_promises(store, config):
    from tests.conftest import REPO

    ex = REPO / "examples" / "corpus"
    assert assess_run(str(ex / "healthy_gpt_cosine"), store=store, config=config).verdict == "CONTINUE"
    a = assess_run(str(ex / "diverged_gpt_adam_lr_too_high" / "train.log"), store=store, config=config)
    assert a.verdict == "STOP", a.summary  # exploded, came back down, and sits above its best: a fall that ended


# --- issue 9: verdicts on short excerpts, worse-than-chance losses, RL diagnostics ---------------------------------


def write_megatron(path, points):
    """Megatron-DeepSpeed iteration lines: ``points`` is [(iteration, lm loss, grad norm)]."""
    with open(path, "w") as f:
        for it, loss, gn in points:
            f.write(f" iteration {it:8d}/  200000 | consumed samples: {it * 96:12d} | learning rate: 6.000E-05 | "
                    f"global batch size:    96 | lm loss: {loss:.6E} | loss scale: 2048.0 | grad norm: {gn:.3f} | "
                    f"number of skipped iterations:   0 | number of nan iterations:   0 |\n")


def write_wordlm(path, losses, batches=1000, every=100):
    """PyTorch word_language_model stdout: ``| epoch E | b/B batches | lr | ms/batch | loss X | ppl P``."""
    per = batches // every
    with open(path, "w") as f:
        for i, v in enumerate(losses):
            e, b = i // per + 1, (i % per + 1) * every
            f.write(f"| epoch {e:3d} | {b:5d}/{batches:5d} batches | lr 20.00 | ms/batch 11.40 | loss {v:5.2f} | "
                    f"ppl {np.exp(v):8.2f}\n")


def test_a_short_excerpt_whose_loss_jumped_and_came_back_only_part_way_escalates(tmp_path, store, config):
    log = tmp_path / "excerpt.log"
    write_megatron(log, [(8000, 3.2, 1.1), (8010, 5.6, 9.5), (8200, 3.6, 2.0)])
    a = assess_run(str(log), store=store, config=config)
    assert a.verdict == "ESCALATE"
    assert a.summary == ("ESCALATE (divergence): lm loss jumped to 5.6 at step 8010 from 3.2 at step 8000 (1.7x) and "
                         "is still 3.6 at step 8200 (12% above its level before the jump), with only 3 points logged: "
                         "too few to judge the trend, worth a look")


def test_a_short_excerpt_whose_loss_jumped_and_came_back_waits(tmp_path, store, config):
    log = tmp_path / "excerpt.log"
    write_megatron(log, [(8000, 3.2, 1.1), (8010, 5.6, 9.5), (8200, 3.3, 2.0)])
    a = assess_run(str(log), store=store, config=config)
    assert a.verdict == "WAIT"
    assert a.summary == "WAIT: only 3 finite lm loss points so far; need 8 to judge"


def test_a_cross_entropy_worse_than_uniform_guessing_escalates_then_stops(tmp_path, store, config):
    log = tmp_path / "wordlm.log"
    rng = np.random.default_rng(4)
    write_wordlm(log, 18.5 + rng.normal(0, 0.2, 30))
    a = assess_run(str(log), store=store, config=config, as_of_step=1200)
    assert a.verdict == "ESCALATE" and a.concern is not None
    f = next(f for f in a.findings if f.signal == "chance_level")
    assert (f.status, f.concern, f.sustained, f.steps) == ("warn", "divergence", True, [100, 1200])
    assert f.message.endswith("worse than guessing (12.48 nats, uniform guessing over 262,144 tokens), so the weights "
                              "or the objective are broken")
    b = assess_run(str(log), store=store, config=config)
    assert b.verdict == "STOP" and b.summary.endswith(", on two checks in a row")


def test_a_run_that_sat_above_chance_and_came_down_still_escalates(tmp_path, store, config):
    log = tmp_path / "wordlm.log"
    rng = np.random.default_rng(5)
    write_wordlm(log, np.concatenate([18.5 + rng.normal(0, 0.2, 20), 7.5 + rng.normal(0, 0.05, 30)]))
    a = assess_run(str(log), store=store, config=config)
    f = next(f for f in a.findings if f.signal == "chance_level")
    assert (a.verdict, f.status, f.sustained, f.steps) == ("ESCALATE", "warn", False, [100, 2000])
    assert "came back from a broken state" in f.message


def test_a_cross_entropy_that_starts_above_chance_and_falls_is_healthy(tmp_path, store, config):
    log = tmp_path / "wordlm.log"
    t = np.arange(60)
    write_wordlm(log, 4.0 + 14.0 * (t + 1) ** -0.5 + np.random.default_rng(6).normal(0, 0.03, 60))
    a = assess_run(str(log), store=store, config=config)
    f = next(f for f in a.findings if f.signal == "chance_level")
    assert f.status == "ok" and a.verdict == "CONTINUE", a.summary


def test_a_loss_of_eighteen_with_no_sign_of_cross_entropy_is_not_judged_against_chance(tmp_path, store, config):
    log = tmp_path / "train.log"
    write_llmc(log, 18.5 + np.random.default_rng(7).normal(0, 0.2, 60))
    a = assess_run(str(log), store=store, config=config)
    f = next(f for f in a.findings if f.signal == "chance_level")
    assert (f.status, f.message) == ("ok", "train_loss is not known to be a per-token cross-entropy")


def test_an_rl_run_is_not_judged_by_its_kl_to_the_reference(tmp_path, store, config):
    log = tmp_path / "ppo.log"
    rng = np.random.default_rng(8)
    with open(log, "w") as f:
        for s in range(1, 81):
            f.write(f"Step: {s} | Loss: {rng.normal(0.01, 0.02):.5f} | KL: {0.0006 * s + rng.normal(0, 0.002):.5f}\n")
    a = assess_run(str(log), store=store, config=config)
    assert a.verdict == "CONTINUE", a.summary
    assert not [f for f in a.findings if f.status != "ok"]


@pytest.mark.parametrize(("at", "verdict", "spikes_status"), [
    ([400, 401, 402, 403], "CONTINUE", "ok"),  # one bad batch and the logs it takes to absorb it: one episode
    ([420, 480, 540], "ESCALATE", "warn"),  # three separate spikes: instability
])
def test_spikes_count_episodes_not_points(tmp_path, store, config, at, verdict, spikes_status):
    log = tmp_path / "train.log"
    y = curve(600, noise=0.01)
    y[at] += 2.0
    write_llmc(log, y)
    a = assess_run(str(log), store=store, config=config, total_steps=5000)
    f = next(f for f in a.findings if f.signal == "spikes")
    assert (a.verdict, f.status) == (verdict, spikes_status), a.summary
    if spikes_status == "warn":
        assert f.message == "3 repeated spikes (3 separate episodes) in train_loss over the last 200 logs"


def test_an_eval_coming_back_from_a_sudden_drop_is_a_note_once_it_has_fallen_four_times(tmp_path, store, config):
    log = tmp_path / "train.log"
    evals = dict(zip(range(50, 651, 50), [3.0, 2.8, 2.6, 2.5, 2.45, 2.42, 2.41, 4.5, 4.2, 3.9, 3.6, 3.3, 3.0],
                     strict=True))
    write_llmc(log, curve(650), evals=evals)
    a = assess_run(str(log), store=store, config=config, total_steps=5000, as_of_step=550)
    f = next(f for f in a.findings if f.signal == "eval")
    assert (a.verdict, f.status, f.concern) == ("ESCALATE", "warn", "overfitting"), a.summary
    b = assess_run(str(log), store=store, config=config, total_steps=5000)
    f = next(f for f in b.findings if f.signal == "eval")
    assert f.status == "ok" and b.verdict == "CONTINUE", b.summary
    assert f.message == ("val_loss worsened to 4.5 at step 400 from its best level 2.42 and has been recovering since "
                         "(3 now)")


def test_a_length_the_log_gave_that_the_run_already_passed_is_not_its_planned_length(tmp_path, store, config):
    """A counter total the run outgrew (``step 3/4`` early on, then steps past 4) is dropped from progress; a
    total the caller gives is always kept."""
    log = tmp_path / "train.log"
    with open(log, "w") as f:
        for i, v in enumerate(curve(300), start=1):
            f.write(f"step {i}/{4 if i <= 4 else 0} | loss {v:.5f} | lr 3e-4\n")
    a = assess_run(str(log), store=store, config=config)
    assert a.to_dict()["progress"] == {"step": 300, "total_steps": None, "fraction": None}
    b = assess_run(str(log), store=store, config=config, total_steps=200)
    assert b.to_dict()["progress"] == {"step": 300, "total_steps": 200, "fraction": 1}


def test_one_check_enters_assess_py_once_and_builds_the_view_once(tmp_path, store, config):
    """read -> RunView (built once, the primary eval chosen once, the baseline parsed against it) -> signals -> judge
    -> answer: assess.py only orchestrates."""
    import sys
    from pathlib import Path

    from training_check.tools import assess as assess_module
    from training_check.tools.signals import view as view_module

    log = tmp_path / "train.log"
    write_llmc(log, curve(300), evals={i: 3.0 - i / 1000 for i in range(50, 301, 50)})
    assess_file = Path(assess_module.__file__).resolve()
    calls: dict[str, int] = {}

    def profile(frame, event, arg):
        if event == "call":
            code = frame.f_code
            if Path(code.co_filename).resolve() == assess_file:
                calls[f"assess.{code.co_name}"] = calls.get(f"assess.{code.co_name}", 0) + 1
            elif code.co_filename == view_module.__file__ and code.co_name in ("build_view", "choose_primary_eval"):
                calls[code.co_name] = calls.get(code.co_name, 0) + 1

    sys.setprofile(profile)
    try:
        a = assess_run(str(log), store=store, config=config, total_steps=1000, baseline=[[100, 3.0], [200, 2.9]])
    finally:
        sys.setprofile(None)
    assert a.verdict in ("CONTINUE", "ESCALATE", "WAIT"), a.summary
    # assess_run reads, judge_read judges what was read (a many-run check calls it with its own read)
    assert calls == {"assess.assess_run": 1, "assess.judge_read": 1, "build_view": 1, "choose_primary_eval": 1}, calls
