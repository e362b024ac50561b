"""stop_run end to end: the guard, evidence first, dry runs, real processes here and over a real sshd."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from training_check.tools.errors import BadInput, StopRefused
from training_check.tools.runref import parse_run_ref
from training_check.tools.sources.ssh import POOL
from training_check.tools.stop_run import StopReport, stop_run

from tests.sshd_fixture import sshd  # noqa: F401  (fixture)
from tests.standins import Trainers


@pytest.fixture
def run_log(tmp_path) -> Path:
    p = tmp_path / "train.log"
    p.write_text("step 1 loss nan\n")
    return p


@pytest.fixture
def child(tmp_path, run_log):
    """A stand-in training process that writes (holds open) the run's log, as a real one does."""
    trainers = Trainers(tmp_path)

    def start(mode: str = "trap", log: Path | None = run_log) -> subprocess.Popen:
        return trainers.start(mode, *(["--log", str(log)] if log else []))

    yield start
    trainers.close()


def _assessment(store, run: str, verdict: str = "STOP", **extra) -> str:
    key = parse_run_ref(run).key
    payload = {"run": run, "verdict": verdict, "summary": "loss is NaN for 50 steps",
               "findings": [{"signal": "nonfinite", "status": "critical", "message": "loss NaN since step 1200",
                             "steps": [1200, 1250], "numbers": {"nan_count": 50}}],
               "progress": {"step": 1250, "total_steps": 10000},
               "key_metrics": {"last_loss": float("nan"), "best_loss": 2.31, "eval_loss": 2.5}, "url": None, **extra}
    return store.add_assessment(key, verdict, 1250, payload)


def test_no_verdict_refused_and_nothing_touched(store, config, run_log, child):
    p = child()
    with pytest.raises(StopRefused, match="needs a recent STOP"):
        stop_run(str(run_log), "looks bad", store=store, config=config, target=f"pid:{p.pid}")
    assert p.poll() is None
    assert store.evidence_for(parse_run_ref(str(run_log)).key) == []


def test_continue_assessment_refused(store, config, run_log, child):
    p = child()
    aid = _assessment(store, str(run_log), "CONTINUE")
    with pytest.raises(StopRefused, match="says CONTINUE, not STOP"):
        stop_run(str(run_log), "x", store=store, config=config, assessment_id=aid, target=f"pid:{p.pid}")
    assert p.poll() is None


def test_stop_assessment_of_another_run_refused(store, config, run_log, tmp_path, child):
    p = child()
    other = tmp_path / "other.log"
    other.write_text("")
    aid = _assessment(store, str(other))
    with pytest.raises(StopRefused, match="is of run .*other.log, not .*: pass an assessment of that run; "
                                          "nothing was stopped$"):
        stop_run(str(run_log), "x", store=store, config=config, assessment_id=aid, target=f"pid:{p.pid}")
    assert p.poll() is None


def test_unknown_ids_and_review_rules(store, config, run_log, child):
    p = child()
    with pytest.raises(BadInput, match="unknown assessment_id 'asm_nope'"):
        stop_run(str(run_log), "x", store=store, config=config, assessment_id="asm_nope", target=f"pid:{p.pid}")
    with pytest.raises(BadInput, match="no review"):
        stop_run(str(run_log), "x", store=store, config=config, review_id="rev_nope", target=f"pid:{p.pid}")
    with pytest.raises(BadInput, match="bad assessment_id"):
        stop_run(str(run_log), "x", store=store, config=config, assessment_id="a; rm -rf /", target=f"pid:{p.pid}")
    key = parse_run_ref(str(run_log)).key
    aid = _assessment(store, str(run_log), "STOP")
    rid = store.add_review(key, aid, "gpt-test", "h", "CONTINUE", "noise", {})
    with pytest.raises(StopRefused, match="decided CONTINUE"):
        stop_run(str(run_log), "x", store=store, config=config, assessment_id=aid, review_id=rid,
                 target=f"pid:{p.pid}")
    old = _assessment(store, str(run_log), "STOP")
    with pytest.raises(StopRefused, match="limit 0.0001 h"):
        time.sleep(0.5)
        stop_run(str(run_log), "x", store=store, config=config, assessment_id=old, target=f"pid:{p.pid}",
                 max_age_h=0.0001)
    assert p.poll() is None


def test_force_needs_a_reason(store, config, run_log, child):
    p = child()
    with pytest.raises(StopRefused, match="needs a reason"):
        stop_run(str(run_log), "   ", store=store, config=config, force=True, target=f"pid:{p.pid}")
    r = stop_run(str(run_log), "user asked to stop", store=store, config=config, force=True, target=f"pid:{p.pid}",
                 grace_s=5)
    assert r.stopped and r.allowed_by.startswith("force") and p.wait(timeout=5) == 0


def test_stop_with_assessment_writes_evidence_first(store, config, run_log, child, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-SECRET-abcdef123456")
    p = child()
    aid = _assessment(store, str(run_log))
    t0 = time.monotonic()
    r = stop_run(str(run_log), "NaN loss persists (key sk-test-SECRET-abcdef123456 leaked in text)", store=store,
                 config=config, assessment_id=aid, target=f"pid:{p.pid}", grace_s=5)
    assert isinstance(r, StopReport) and r.stopped and r.final_state == "gone" and p.wait(timeout=5) == 0
    assert time.monotonic() - t0 < 5
    md = Path(r.evidence_path).read_text()
    for needle in ("verdict: **STOP**", "best_loss: 2.31", "nonfinite", "loss NaN since step 1200", "1250 / 10000",
                   "## Plan", "SIGINT to PID", "## Outcome", "stopped: True"):
        assert needle in md, needle
    assert Path(r.evidence_path).parent == config.evidence_dir
    rows = store.evidence_for(r.run_key)
    assert {row["kind"] for row in rows} == {"stop_plan", "stop_outcome"}
    dumped = json.dumps(rows) + md + json.dumps(r.to_dict())
    assert "sk-test-SECRET-abcdef123456" not in dumped
    assert r.summary.startswith("pid ") and "stopped" in r.summary and r.evidence_path in r.summary


def test_evidence_saved_before_the_signal(store, config, run_log, tmp_path):
    """The child records, when SIGINT arrives, whether the evidence row already existed."""
    marker = tmp_path / "seen.txt"
    script = tmp_path / "probe.py"
    script.write_text(f"""
import signal, sys, time, sqlite3
log = open({str(run_log)!r}, "a")
def bye(s, f):
    n = sqlite3.connect({str(config.store_path)!r}).execute("SELECT COUNT(*) FROM evidence").fetchone()[0]
    open({str(marker)!r}, "w").write(str(n))
    sys.exit(0)
signal.signal(signal.SIGINT, bye)
print("ready", flush=True)
while True: time.sleep(0.05)
""")
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        aid = _assessment(store, str(run_log))
        r = stop_run(str(run_log), "nan", store=store, config=config, assessment_id=aid, target=str(p.pid), grace_s=5)
        assert r.stopped and marker.read_text() == "1"
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()


def test_stop_review_allows_and_forced_kill(store, config, run_log, child):
    p = child("ignore")
    key = parse_run_ref(str(run_log)).key
    aid = _assessment(store, str(run_log), "ESCALATE")
    rid = store.add_review(key, aid, "gpt-test", "h", "STOP", "diverging", {})
    t0 = time.monotonic()
    r = stop_run(str(run_log), "", store=store, config=config, review_id=rid, target=f"pid:{p.pid}", grace_s=0.6)
    assert r.stopped and p.wait(timeout=5) == -9 and "review" in r.allowed_by
    assert any("SIGKILL" in a for a in r.actions) and time.monotonic() - t0 < 5
    assert "Reviewer" in Path(r.evidence_path).read_text()


def test_dry_run_touches_nothing(store, config, run_log, child):
    p = child()
    aid = _assessment(store, str(run_log))
    r = stop_run(str(run_log), "nan", store=store, config=config, assessment_id=aid, target=f"pid:{p.pid}",
                 dry_run=True)
    assert r.dry_run and not r.stopped and r.evidence_path is None and "SIGINT" in r.plan[0]
    assert "Dry run" in r.summary and "nothing was touched" in r.summary
    time.sleep(0.2)
    assert p.poll() is None
    assert store.evidence_for(r.run_key) == [] and not config.evidence_dir.exists()


@pytest.mark.parametrize("target", [
    "pid:1; touch {canary}", "pid:$(touch {canary})", "tmux:`touch {canary}`", "slurm:1 && touch {canary}",
    "tmux:-rf", "slurm:--help", "tmux:a\ntouch {canary}", "pid:-1", "tmux:a:b", "pidfile:relative/x",
    "bogus:thing", "cmd:", "pid:",
])
def test_hostile_targets_rejected(store, config, run_log, tmp_path, target):
    canary = tmp_path / "pwned"
    t = target.format(canary=canary)
    with pytest.raises((BadInput, StopRefused)):
        stop_run(str(run_log), "x", store=store, config=config, force=True, target=t)
    assert not canary.exists()
    assert store.evidence_for(parse_run_ref(str(run_log)).key) == []


@pytest.mark.parametrize("host", ["-oProxyCommand=touch {canary}", "h;touch {canary}", "$(touch {canary})", "--help"])
def test_hostile_hosts_rejected(store, config, run_log, tmp_path, host):
    canary = tmp_path / "pwned"
    with pytest.raises(BadInput):
        stop_run(str(run_log), "x", store=store, config=config, force=True, target="pid:12345",
                 host=host.format(canary=canary))
    assert not canary.exists()


def test_target_required_and_method_consistency(store, config, run_log):
    with pytest.raises(BadInput, match="say what to stop"):
        stop_run(str(run_log), "x", store=store, config=config, force=True)
    with pytest.raises(BadInput, match="does not fit"):
        stop_run(str(run_log), "x", store=store, config=config, force=True, method="tmux", target="pid:3")
    with pytest.raises(BadInput, match="not a W&B run"):
        stop_run(str(run_log), "x", store=store, config=config, force=True, target="wandb")


def test_ssh_run_needs_host_for_a_process(store, config):
    with pytest.raises(BadInput, match="pass host='gpu1'"):
        stop_run("ssh://gpu1/abs/train.log", "x", store=store, config=config, force=True, target="pid:123")


def test_stop_over_ssh(store, config, run_log, child, sshd, monkeypatch):  # noqa: F811
    for k, v in sshd.env().items():
        monkeypatch.setenv(k, v)
    POOL.close_all()
    run = sshd.url(str(run_log))
    p = child()
    aid = _assessment(store, run)
    r = stop_run(run, "nan", store=store, config=config, assessment_id=aid, target=f"pid:{p.pid}",
                 host=sshd.host_spec, grace_s=5)
    assert r.stopped and r.host and p.wait(timeout=5) == 0
    q = child("ignore")
    r2 = stop_run(run, "nan", store=store, config=config, assessment_id=aid, target=f"pid:{q.pid}",
                  host="tc-test", grace_s=0.6)
    assert r2.stopped and q.wait(timeout=5) == -9
    POOL.close_all()


