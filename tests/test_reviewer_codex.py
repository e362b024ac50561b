"""escalate_to_reviewer through Codex over MCP: our minimal stdio client against tests/fake_codex_server.py.

The fake server is a real MCP server (the SDK's MCPServer) publishing the real
``codex`` tool's arguments, started as a child process exactly as
``codex mcp-server`` would be (REVIEWER_CODEX_COMMAND).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from training_check.tools.errors import ReviewerError
from training_check.tools.reviewer import escalate_to_reviewer
from training_check.tools.reviewer.codex_backend import CodexReviewer, McpStdioClient
from training_check.tools.runref import parse_run_ref

from .test_reviewer import INJECTION, REVIEWER_ENV, fenced_block, make_payload

FAKE = Path(__file__).with_name("fake_codex_server.py")


@pytest.fixture
def codex_env(tc_home, monkeypatch, tmp_path):
    for var in REVIEWER_ENV:
        monkeypatch.delenv(var, raising=False)
    log = tmp_path / "codex-calls.jsonl"
    monkeypatch.setenv("REVIEWER_BACKEND", "codex")
    monkeypatch.setenv("REVIEWER_CODEX_COMMAND", f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE))}")
    monkeypatch.setenv("FAKE_CODEX_LOG", str(log))
    monkeypatch.setenv("REVIEWER_TIMEOUT_S", "20")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-must-not-reach-codex-args-0123456789")
    return monkeypatch, log


@pytest.fixture
def stored(store):
    payload = make_payload()
    run_key = parse_run_ref(payload["run"]).key
    return store.add_assessment(run_key, "ESCALATE", 6000, payload), run_key


def calls(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_codex_valid_decision_with_the_real_tool_arguments(codex_env, store, config, stored):
    env, log = codex_env
    env.setenv("FAKE_CODEX_DECISION", "WAIT")
    env.setenv("REVIEWER_MODEL", "gpt-5.4-codex")
    review = escalate_to_reviewer(store=store, config=config, concern="eval plateau", assessment_id=stored[0])
    assert (review.decision, review.backend, review.model, review.attempts) == ("WAIT", "codex", "gpt-5.4-codex", 1)
    assert store.get_review(review.review_id)["decision"] == "WAIT"
    (call,) = calls(log)
    args = call["arguments"]
    assert args["config"] == {"model_reasoning_effort": "high"}
    assert args["sandbox"] == "read-only" and args["approval-policy"] == "never"
    assert args["model"] == "gpt-5.4-codex"
    assert "UNTRUSTED" in args["developer-instructions"]
    _, block = fenced_block(args["prompt"])
    assert INJECTION in block and INJECTION not in args["prompt"].replace(block, "")
    assert "sk-must-not-reach" not in json.dumps(call)
    assert gone(call["pid"])  # the server process was cleaned up
    assert not Path(args["cwd"]).exists()  # and its scratch folder


def test_codex_fenced_json_answer_is_accepted_and_default_model_omitted(codex_env, store, config, stored):
    env, log = codex_env
    env.setenv("FAKE_CODEX_SCENARIO", "fenced")
    review = escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert review.decision == "CONTINUE" and review.model == "codex default"
    assert "model" not in calls(log)[0]["arguments"]


def test_codex_garbage_then_valid_retries_once_in_the_same_server(codex_env, store, config, stored):
    env, log = codex_env
    env.setenv("FAKE_CODEX_SCENARIO", "garbage_then_valid")
    review = escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert (review.decision, review.attempts) == ("CONTINUE", 2)
    first, second = calls(log)
    assert first["pid"] == second["pid"]
    assert "Your previous reply was refused" in second["arguments"]["prompt"]


def test_codex_garbage_twice_is_an_error(codex_env, store, config, stored):
    env, log = codex_env
    env.setenv("FAKE_CODEX_SCENARIO", "garbage_twice")
    with pytest.raises(ReviewerError, match="no valid decision in 2 attempts"):
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert len(calls(log)) == 2 and store.recent_reviews(stored[1]) == []
    assert gone(calls(log)[0]["pid"])


def test_codex_timeout_kills_the_server(codex_env, store, config, stored):
    env, log = codex_env
    env.setenv("FAKE_CODEX_SCENARIO", "slow")
    t0 = time.monotonic()
    with pytest.raises(ReviewerError, match=r"did not answer tools/call within 1.5s"):
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0], timeout_s=1.5)
    assert time.monotonic() - t0 < 15
    assert gone(calls(log)[0]["pid"]) and store.recent_reviews(stored[1]) == []


@pytest.mark.parametrize("scenario, match", [
    ("error", "codex reported an error: Codex runtime error"),
    ("crash", "codex reviewer exited during tools/call"),
])
def test_codex_errors_are_clear(codex_env, store, config, stored, scenario, match):
    env, _ = codex_env
    env.setenv("FAKE_CODEX_SCENARIO", scenario)
    with pytest.raises(ReviewerError, match=match) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert "\n" not in str(err.value)
    assert store.recent_reviews(stored[1]) == []


def test_codex_command_not_found(codex_env, store, config, stored):
    env, _ = codex_env
    env.setenv("REVIEWER_CODEX_COMMAND", "no-such-codex-binary-xyz mcp-server")
    with pytest.raises(ReviewerError, match="'no-such-codex-binary-xyz' not found.*REVIEWER_CODEX_COMMAND"):
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])


def test_command_metacharacters_reach_no_shell(tmp_path):
    marker = tmp_path / "pwned"
    # A shell would run the touch; an argv list hands it to Python as a file name, which does not exist.
    client = McpStdioClient([sys.executable, f"{FAKE}; touch {marker}"], startup_timeout_s=5)
    with pytest.raises(ReviewerError, match="exited during initialize"):
        with client:
            client.initialize()
    assert not marker.exists()


def test_server_requests_are_answered_and_notifications_skipped(codex_env):
    """The fake logs (notifications/message) while it works; the client must skip them and still get its answer."""
    with CodexReviewer(command=[sys.executable, str(FAKE)], timeout_s=20) as reviewer:
        reply = reviewer.ask("system text", "prompt text")
    assert json.loads(reply)["decision"] == "CONTINUE"


def test_server_stderr_quoted_in_errors_has_secrets_blanked(codex_env, tmp_path):
    env, _ = codex_env
    script = tmp_path / "leaky_server.py"
    script.write_text("import os, sys\nsys.stderr.write('auth with ' + os.environ['OPENAI_API_KEY'] + '\\n')\n"
                      "sys.stderr.flush()\nsys.exit(1)\n")
    with pytest.raises(ReviewerError, match=r"exited during initialize: auth with \*\*\*") as err:
        with CodexReviewer(command=[sys.executable, str(script)], timeout_s=5) as reviewer:
            reviewer.ask("s", "t")
    assert "sk-must-not-reach" not in str(err.value)
