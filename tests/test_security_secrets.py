"""Issue 20: secrets the agent passes in ``concern`` or ``baseline`` never reach the reviewer (the real ``openai``
client against tests/fake_openai_server.py), nor the stored review, whatever field they come in."""

from __future__ import annotations

import json
import sqlite3

import pytest
from training_check.tools.reviewer.escalate import escalate_to_reviewer
from training_check.tools.runref import parse_run_ref

from .fake_openai_server import FakeOpenAI, Reply

SECRETS = {
    "wandb": "0123456789abcdef0123456789abcdef01234567",
    "aws_id": "AKIAIOSFODNN7EXAMPLE",
    "aws_secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "github": "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "github_pat": "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv",
    "db_password": "hunter2-Pa55word",
    "openai": "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
    "hf": "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH",
}
CONCERN = (f"loss went NaN at step 6000; the run logged WANDB_API_KEY={SECRETS['wandb']} and the job has "
           f"{SECRETS['aws_id']} / aws_secret_access_key={SECRETS['aws_secret']}; pushes with {SECRETS['github']}; "
           f"metrics go to postgres://trainer:{SECRETS['db_password']}@db.internal:5432/metrics")
BASELINE = {"val/loss": 3.09, "notes": f"token: {SECRETS['github_pat']}",
            "env": {"OPENAI": SECRETS["openai"], "hub": f"hf token {SECRETS['hf']}", "raw": SECRETS["wandb"]}}


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def reviewer(tc_home, fake, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-reviewer-key-0123456789")
    monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
    monkeypatch.setenv("REVIEWER_MAX_RETRIES", "0")
    monkeypatch.setenv("REVIEWER_TIMEOUT_S", "5")
    for var in ("REVIEWER_BACKEND", "REVIEWER_MODEL", "REVIEWER_API", "REVIEWER_CODEX_COMMAND"):
        monkeypatch.delenv(var, raising=False)
    return fake


def test_concern_and_baseline_secrets_never_reach_the_reviewer(reviewer, store, config):
    run = "/data/runs/gpt/train.log"
    aid = store.add_assessment(parse_run_ref(run).key, "ESCALATE", 6000,
                               {"run": run, "verdict": "ESCALATE", "summary": "loss NaN", "findings": [],
                                "progress": {"step": 6000}})
    reviewer.script(Reply.decision("STOP", "the loss is NaN"))
    review = escalate_to_reviewer(store=store, config=config, concern=CONCERN, baseline=BASELINE, assessment_id=aid)
    assert review.decision == "STOP"
    (req,) = reviewer.requests
    sent = req.raw.decode()
    with sqlite3.connect(store.path) as c:
        kept = "\n".join(c.iterdump())
    for name, secret in SECRETS.items():
        assert secret not in sent, f"{name} reached the reviewer"
        assert secret not in kept, f"{name} was stored"
        assert secret not in json.dumps(review.to_dict())
    assert "loss went NaN at step 6000" in sent and "postgres://trainer:[redacted]@db.internal" in sent
    assert "3.09" in sent  # the baseline's numbers still go


@pytest.mark.parametrize("text, kept", [
    ("eval loss 3.12 vs 3.09 at step 6000, lr 3e-4", "eval loss 3.12 vs 3.09 at step 6000, lr 3e-4"),
    ("see https://wandb.ai/team/proj/runs/abc123", "see https://wandb.ai/team/proj/runs/abc123"),
    ("mysql://u:p4ss@h/db", "mysql://u:[redacted]@h/db"),
    ("password = 'a b c'", "password = [redacted]"),
])
def test_hide_secrets_keeps_ordinary_text(text, kept):
    from training_check.tools.redact import hide_secrets

    assert hide_secrets(text) == kept


def test_hide_secrets_is_linear_on_hostile_text():
    import time

    from training_check.tools.redact import hide_secrets

    for text in ("a://" + "b" * 200_000, "password=" * 50_000, "-----BEGIN PRIVATE KEY-----" + "x" * 200_000,
                 "eyJ" + "a" * 200_000 + ".", "sk-" + "-" * 200_000):
        t = time.monotonic()
        hide_secrets(text)
        assert time.monotonic() - t < 2.0, text[:30]
