"""Issue 31: every credential in the environment, found by its variable's NAME, stays in (tools/redact.py).

The attack: eight credentials planted in the server's environment (the five the old list knew, AWS_SESSION_TOKEN and
MY_DB_PASSWORD it missed, and COMET_API_KEY), and an agent that pastes every one into ``concern``, ``baseline`` and a
stop ``reason``, through the CLI (``training-check review --concern ...`` in a subprocess) and over MCP stdio, with a
reviewer that echoes them back. None reaches the stand-in provider on 127.0.0.1 (the real ``openai`` client against
tests/fake_openai_server.py; the real Codex CLI against the same stub), the store (dump and raw DB/WAL bytes), the
evidence file, an answer, or stderr. And a normal check of the example corpus with ordinary variables whose names
look secret (KEYBOARD_LAYOUT=us, SESSION_MANAGER=local/host:@/tmp/.ICE-unix/1, PASS_COUNT=3 ...) answers the same
numbers and words as without them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import anyio
import pytest
from training_check.tools import redact as redact_mod
from training_check.tools.config import load_config
from training_check.tools.redact import Redactor, Secret, hide_secrets, hide_url_passwords, looks_secret, redact

from .cli_runner import tc
from .clients import CODEX, binary
from .fake_openai_server import FakeOpenAI, Reply
from .mcp_client import mcp_session
from .standins import holding_log
from .test_secrets import store_and_evidence_text, write_log

REPO = Path(__file__).resolve().parents[1]
PLANTED = {
    "OPENAI_API_KEY": "sk-planted-OPENAI-7c1e9a2b4d6f8035aa",
    "WANDB_API_KEY": "plantedWANDB" + "5a3c1e9b7d" * 2 + "abcdefgh",
    "HF_TOKEN": "hf_plantedHFtoken9a8b7c6d5e4f3a2b1c",
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCY9planted",
    "GITHUB_TOKEN": "ghp_planted0123456789abcdefghijklmnopqrs",
    "AWS_SESSION_TOKEN": "FwoGZXIvYXdzEJr//////////wEaDPlanted7Xq+b/cSession2",
    "MY_DB_PASSWORD": "hunter2-Pa55word-planted",
    "COMET_API_KEY": "c0met9f8e7d6c5b4a3planted",  # a name no list foresaw
}
PASTED = " ".join(PLANTED.values())
CONCERN = f"loss went NaN at step 150; the job's keys are {PASTED}"
ECHO = f"STOP: the run is NaN (and it printed {PASTED})"
# what the old list of names missed: these must be redacted by their names alone
BY_NAME_ONLY = ("AWS_SESSION_TOKEN", "MY_DB_PASSWORD", "COMET_API_KEY")


def assert_none_in(where: str, text: str) -> None:
    for name, value in PLANTED.items():
        assert value not in text, f"{name} reached {where}"


def wire_text(fake: FakeOpenAI, *, provider_key: str | None) -> str:
    """Every request's body and headers, the provider's own key (its Authorization header) left out."""
    parts = []
    for req in fake.requests:
        headers = {k: v for k, v in req.headers.items() if k.lower() != "authorization"}
        if provider_key is not None:
            assert req.headers.get("authorization") == f"Bearer {provider_key}"
        parts.append(req.raw.decode("utf-8", "replace") + json.dumps(headers))
    return "\n".join(parts)


def attack(fake: FakeOpenAI, tc_home: Path, tmp_path: Path, env: dict[str, str]) -> list[str]:
    """The agent's part, through the CLI and over MCP stdio; returns every answer and stderr it saw."""
    bad = write_log(tmp_path / "bad.log", 300, diverge_at=150)
    seen: list[str] = []
    out = tc(tc_home, "check", str(bad), "--json", **env)
    seen += [out.stdout, out.stderr]
    aid = json.loads(out.stdout)["assessment_id"]
    fake.script(Reply.decision("STOP", ECHO))
    baseline = json.dumps({"val_loss": [[100, 3.1]], "note": f"reference run used {PASTED}"})
    out = tc(tc_home, "review", "--assessment-id", aid, "--concern", CONCERN, "--baseline", baseline, "--json", **env)
    seen += [out.stdout, out.stderr]
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["decision"] == "STOP"

    sleeper = holding_log(bad, 120)  # the run's trainer: it holds its log open

    async def main():
        async with mcp_session(tc_home, **env) as s:
            async def call(tool, args):
                res = await s.client.call_tool(tool, args)
                seen.append(" ".join(getattr(c, "text", "") for c in res.content))
                seen.append(json.dumps(res.structured_content))
                return res.structured_content or {}

            fake.script(Reply.decision("STOP", ECHO))
            review = await call("escalate_to_reviewer", {"assessment_id": aid, "concern": CONCERN,
                                                         "baseline": f"GPT-2 reaches 3.28; creds {PASTED}"})
            assert review.get("decision") == "STOP", review
            stop = await call("stop_run", {"run": str(bad), "reason": f"NaN loss; {PASTED}",
                                           "review_id": review["review_id"], "target": f"pid:{sleeper.pid}"})
            assert stop.get("evidence_path"), seen[-2]
            res = await s.client.read_resource("training-check://runs")
            seen.append(res.contents[0].text)

    try:
        anyio.run(main)
    finally:
        sleeper.kill()
        sleeper.wait()
    seen.append((tc_home.parent / "server-stderr.log").read_text())
    return seen


def assert_kept_in(fake: FakeOpenAI, tc_home: Path, seen: list[str], provider_key: str | None) -> None:
    wire = wire_text(fake, provider_key=provider_key)
    assert len(fake.requests) >= 2
    assert_none_in("the reviewer's provider", wire)
    for name in BY_NAME_ONLY:
        assert f"[redacted {name}]" in wire, f"{name} was not redacted by its name"
    assert "loss went NaN at step 150" in wire and "3.1" in wire  # the agent's own words and numbers still go
    kept = store_and_evidence_text(tc_home)
    assert_none_in("the store or the evidence", kept)
    evidence = list((tc_home / "evidence").glob("*.md"))
    assert evidence and "[redacted MY_DB_PASSWORD]" in evidence[0].read_text()
    for i, text in enumerate(seen):
        assert_none_in(f"answer or stderr {i}", text)
    assert any("[redacted AWS_SESSION_TOKEN]" in t for t in seen)  # the echo came back redacted


def test_planted_credentials_reach_neither_the_openai_provider_nor_the_store_nor_an_answer(tc_home, tmp_path):
    with FakeOpenAI() as fake:
        env = {**PLANTED, "OPENAI_BASE_URL": fake.base_url, "REVIEWER_MAX_RETRIES": "0", "REVIEWER_TIMEOUT_S": "20"}
        seen = attack(fake, tc_home, tmp_path, env)
        assert_kept_in(fake, tc_home, seen, provider_key=PLANTED["OPENAI_API_KEY"])


def test_planted_credentials_reach_neither_the_codex_provider_nor_the_store_nor_an_answer(tc_home, tmp_path):
    exe = binary(CODEX[-1])
    tmpdir = tmp_path / "tmp"
    (tmp_path / "codex-home").mkdir()
    tmpdir.mkdir()
    with FakeOpenAI() as fake:
        env = {**PLANTED, "REVIEWER_BACKEND": "codex", "REVIEWER_CODEX_COMMAND": exe,
               "PATH": f"{Path(exe).parent}{os.pathsep}{os.environ['PATH']}", "TMPDIR": str(tmpdir),
               "CODEX_HOME": str(tmp_path / "codex-home"), "REVIEWER_CODEX_BASE_URL": fake.base_url,
               "REVIEWER_CODEX_KEY_ENV": "TC_STUB_PROVIDER_KEY", "TC_STUB_PROVIDER_KEY": "sk-stub-provider-7d41c09e5b",
               "REVIEWER_MODEL": "gpt-5.4", "REVIEWER_TIMEOUT_S": "60"}
        seen = attack(fake, tc_home, tmp_path, env)
        assert_kept_in(fake, tc_home, seen, provider_key="sk-stub-provider-7d41c09e5b")


# -- no false redaction ------------------------------------------------------------------------------------------
ORDINARY = {
    "KEYBOARD_LAYOUT": "us", "SESSION_MANAGER": "local/host:@/tmp/.ICE-unix/1", "PASS_COUNT": "3",
    "XDG_SESSION_ID": "c2", "XDG_SESSION_TYPE": "wayland", "DESKTOP_SESSION": "ubuntu-wayland",
    "SSH_AUTH_SOCK": "/tmp/ssh-XXXXq1w2e3/agent.12345", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus",
    "GNOME_KEYRING_CONTROL": "/run/user/1000/keyring", "XAUTHORITY": "/run/user/1000/.mutter-Xwaylandauth.8V1",
    "TOKENIZERS_PARALLELISM": "false", "HF_TOKEN_PATH": "/home/me/.cache/huggingface/token", "KEY_COUNT": "12345678",
    "SESSION_LR": "0.0003", "MONKEYPATCH_SEED": "1234567890", "PASSES": "2 passes over 10 shards",
}
CORPUS_RUNS = ("nan_fp16_no_loss_scaler", "healthy_gpt_cosine", "spike_lstm_noise_batch", "lrsched_jump_100x")
VOLATILE = {"assessment_id", "created_at", "elapsed_s", "run_key", "read_s", "cached"}


def stable(value):
    """An answer without its ids and timings."""
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


def test_ordinary_variables_change_no_metric_value_or_word_of_the_answers(tmp_path):
    for name in ORDINARY:
        assert redact_mod.secret_name(name), name  # every one has a secret-looking name
    answers: dict[str, list[str]] = {}
    for label, extra in (("plain", {}), ("ordinary", ORDINARY)):
        home = tmp_path / label / "tc-home"
        home.parent.mkdir()
        got = []
        for run in CORPUS_RUNS:
            for cmd in (["check", str(REPO / "examples" / "corpus" / run), "--json"],
                        ["read", str(REPO / "examples" / "corpus" / run), "--json", "--max-points", "20"]):
                out = tc(home, *cmd, **extra)
                assert out.stdout.strip(), out.stderr
                got.append(json.dumps(stable(json.loads(out.stdout)), sort_keys=True))
        answers[label] = got
    assert len(answers["plain"]) == 2 * len(CORPUS_RUNS)
    for plain, ordinary in zip(answers["plain"], answers["ordinary"], strict=True):
        assert "[redacted" not in ordinary
        assert ordinary == plain
    assert any("0.0003" in a for a in answers["ordinary"])  # the value of SESSION_LR is still shown as a number


# -- the rules ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, secret", [
    ("hunter2-Pa55word", True), ("FwoGZXIvYXdzEJr//////////wEaDH", True), ("c0met9f8e7d6", True),
    ("sk-proj-abcdefghijklmnop", True), ("xoxb-abcdefghijklmnop", True), ("AKIAIOSFODNN7EXAMPLE", True),
    ("postgres://u:pw1@db/x", True),
    ("true", False), ("1", False), ("us", False), ("abc123", False), ("12345678", False), ("1.2345e-05", False),
    ("ubuntu-wayland", False), ("/home/me/.cache/token1", False), ("~/keys/id_ed25519", False),
    ("local/host:@/tmp/.ICE-unix/1", False), ("unix:path=/run/user/1000/bus", False), ("C:\\Users\\me1", False),
    ("2 passes over 10 shards", False), ("disabled", False),
])
def test_which_values_a_secret_looking_name_redacts(value, secret):
    assert looks_secret(value) is secret


def test_redaction_takes_the_longest_value_at_a_place_and_json_escaped_forms():
    r = Redactor([Secret("abc123def456", "SHORT_KEY"), Secret("abc123def456ghi789", "LONG_KEY"),
                  Secret('q"uote\\9xyz', "QUOTED_TOKEN")])
    assert r("x abc123def456ghi789 y abc123def456 z") == "x [redacted LONG_KEY] y [redacted SHORT_KEY] z"
    doc = json.dumps({"note": 'pw q"uote\\9xyz here'})
    assert json.loads(r(doc)) == {"note": "pw [redacted QUOTED_TOKEN] here"}
    assert hide_url_passwords("see postgres://me:s3cr@t@db:5432/x and ssh://me@host:22/p") == (
        "see postgres://me:[redacted]@db:5432/x and ssh://me@host:22/p")


def test_redaction_is_linear_on_hostile_text(monkeypatch):
    monkeypatch.setenv("MY_DB_PASSWORD", "hunter2-Pa55word")
    monkeypatch.setenv("COMET_API_KEY", "hunter2-Pa55word-longer1")
    for text in ("hunter2-Pa55wor" * 400_000, "hunter2-Pa55word " * 200_000, "a://" * 1_000_000,
                 "a://b:" + "c" * 4_000_000, "x" * 4_000_000):
        t = time.perf_counter()
        out = redact(text)
        assert time.perf_counter() - t < 3.0, text[:20]
        if text.startswith("hunter2-Pa55word "):
            assert out == "[redacted MY_DB_PASSWORD] " * 200_000
    # (a private key's body is looked for within 8,000 characters of its BEGIN line: linear, with that window as its
    # constant, so that case is 62 KB: about what one answer may hold)
    for text in ("eyJ" * 200_000, "sk-" * 200_000, "-----BEGIN RSA PRIVATE KEY-----" * 2_000):
        t = time.perf_counter()
        hide_secrets(text)  # the credential shapes on an agent's words: no shape retried at each repeat
        assert time.perf_counter() - t < 3.0, text[:20]
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpM"
    assert jwt not in hide_secrets(f"Bearer {jwt} and token={jwt}")


def test_config_names_only_add_and_a_project_cannot_blank_out_paths(tmp_path, monkeypatch):
    """The user's own [security] redact_env redacts a variable whatever its value; a project file (a cloned repo)
    may add names too, but they get the value test (so naming HOME blanks nothing), and nothing removes a name."""
    home = tmp_path / "tc"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("TRAINING_CHECK_HOME", str(home))
    (home / "config.toml").write_text('[security]\nredact_env = ["MYLAB_CLUSTER_PW"]\n'
                                      '[reviewer]\napi_key = "cfgkey-0a1b2c3d4e"\nkey_file = "/home/me/.keys/k1"\n')
    (home / "config.toml").chmod(0o600)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".training-check.toml").write_text('[security]\nredact_env = ["HOME", "LAB_RUN_SIGNATURE"]\n')
    (repo / ".training-check.toml").chmod(0o600)
    monkeypatch.setenv("MYLAB_CLUSTER_PW", "correcthorse")  # letters only: redacted because the user named it
    monkeypatch.setenv("LAB_RUN_SIGNATURE", "sig0a9b8c7d6e5f")
    config = load_config(cwd=repo)
    assert set(config.redact_env) == {"MYLAB_CLUSTER_PW", "HOME", "LAB_RUN_SIGNATURE"}
    assert not config.warnings
    text = f"pw correcthorse sig sig0a9b8c7d6e5f home {os.environ['HOME']} cfg cfgkey-0a1b2c3d4e /home/me/.keys/k1"
    assert redact(text) == (f"pw [redacted MYLAB_CLUSTER_PW] sig [redacted LAB_RUN_SIGNATURE] home "
                            f"{os.environ['HOME']} cfg [redacted config:reviewer.api_key] /home/me/.keys/k1")


def test_the_wandb_netrc_entry_is_redacted(tmp_path, monkeypatch):
    netrc = tmp_path / "netrc"
    netrc.write_text("machine api.wandb.ai\n  login user\n  password nEtRc0key1wandb2\n"
                     "machine example.com\n  login u\n  password notOursToKnow9\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    monkeypatch.delenv("WANDB_BASE_URL", raising=False)
    assert redact("key nEtRc0key1wandb2 other notOursToKnow9") == "key [redacted netrc:wandb] other notOursToKnow9"


def test_the_clis_stderr_is_redacted(tc_home, tmp_path):
    """A credential quoted back by the CLI (an error naming a path that holds one; argparse echoing an unknown
    argument, text no error class of ours made) never reaches stderr."""
    for argv in (["check", str(tmp_path / f"runs-{PLANTED['MY_DB_PASSWORD']}" / "train.log")],
                 ["check", "run.log", "--no-such-option", PLANTED["COMET_API_KEY"]]):
        out = tc(tc_home, *argv, **PLANTED)
        assert out.returncode != 0 and "[redacted " in out.stderr, out.stderr
        assert_none_in("stderr", out.stderr + out.stdout)


def test_log_records_are_redacted_where_they_are_made(monkeypatch, caplog):
    import logging

    monkeypatch.setenv("AWS_SESSION_TOKEN", PLANTED["AWS_SESSION_TOKEN"])
    previous = logging.getLogRecordFactory()
    try:
        redact_mod.redact_log_records()
        log = logging.getLogger("training_check.test")
        with caplog.at_level(logging.INFO):
            log.warning("token %s refused", PLANTED["AWS_SESSION_TOKEN"])
            try:
                raise RuntimeError(f"boom {PLANTED['AWS_SESSION_TOKEN']}")
            except RuntimeError:
                log.exception("failed")
        text = "\n".join(caplog.text.splitlines())
        assert "token [redacted AWS_SESSION_TOKEN] refused" in text and "boom [redacted AWS_SESSION_TOKEN]" in text
        assert PLANTED["AWS_SESSION_TOKEN"] not in text
    finally:
        logging.setLogRecordFactory(previous)
