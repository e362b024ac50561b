"""escalate_to_reviewer through the real Codex CLI (``codex app-server``) against a local Responses API stub.

The stub is tests/fake_openai_server.py on 127.0.0.1: Codex POSTs /v1/responses
with ``stream: true`` and gets server-sent events, as from the real API. Codex
reaches it as a custom provider (REVIEWER_CODEX_BASE_URL, key in the variable
REVIEWER_CODEX_KEY_ENV names), with a private CODEX_HOME per test. Each test
plants OPENAI_API_KEY / WANDB_API_KEY / HF_TOKEN and checks none reaches Codex
or the store. Every test that starts Codex runs with both pinned Codex versions
(tests/clients.py: the newest and an older one); the version check runs a real
Codex older than the tested range.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import anyio
import pytest
from training_check.tools.errors import ReviewerError
from training_check.tools.reviewer import DECISION_SCHEMA, escalate_to_reviewer
from training_check.tools.reviewer import codex_backend as backend
from training_check.tools.reviewer.codex_backend import CodexReviewer, command_argv
from training_check.tools.reviewer.prompt import SYSTEM_TEXT
from training_check.tools.runref import parse_run_ref

from .clients import CODEX, CODEX_TOO_OLD, binary
from .fake_openai_server import FakeOpenAI, Reply
from .mcp_client import mcp_session
from .test_reviewer import INJECTION, REVIEWER_ENV, fenced_block, make_payload, store_dump

PROVIDER_KEY = "sk-stub-provider-key-7d41c09e5b"
PLANTED = {"OPENAI_API_KEY": "sk-planted-openai-1f9e8d7c6b5a4938",
           "WANDB_API_KEY": "plantedwandb0123456789abcdef0123456789ab",
           "HF_TOKEN": "hf_plantedHFtoken9a8b7c6d5e4f3a2b1c"}
MODEL = "gpt-5.4"
GARBAGE = "I looked at the curves. Overall it seems fine, probably CONTINUE, but STOP might also be reasonable."


def installed_codex_version() -> str:
    out = subprocess.run([os.environ["REVIEWER_CODEX_COMMAND"], "--version"], capture_output=True, text=True,
                         timeout=30).stdout
    return out.split()[-1]  # "codex-cli 0.171.0"


def codex_pids(tmpdir: Path) -> list[int]:
    """(pid, command line) of the processes whose environment names this test's TMPDIR (Codex, its launcher, its
    children: the review's private CODEX_HOME is made there)."""
    needle = f"TMPDIR={tmpdir}".encode()
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if needle in (d / "environ").read_bytes().split(b"\0"):
                    pids.append((int(d.name), (d / "cmdline").read_bytes().replace(b"\0", b" ")[:200]))
            except OSError:
                continue
    return pids


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


@pytest.fixture(params=CODEX, ids=str)
def codex_env(request, tc_home, monkeypatch, tmp_path, fake):
    """(monkeypatch, the user's CODEX_HOME); Codex runs from the pinned version's binary with TMPDIR the folder
    ``tmp`` beside that CODEX_HOME, where the review makes its private CODEX_HOME."""
    return codex_setup(binary(request.param), monkeypatch, tmp_path, fake)


def codex_setup(exe: str, monkeypatch, tmp_path: Path, fake: FakeOpenAI):
    for var in (*REVIEWER_ENV, "REVIEWER_CODEX_BASE_URL", "REVIEWER_CODEX_KEY_ENV", "CODEX_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("REVIEWER_CODEX_COMMAND", exe)
    monkeypatch.setenv("PATH", f"{Path(exe).parent}{os.pathsep}{os.environ['PATH']}")
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    monkeypatch.setattr(tempfile, "tempdir", None)  # tempfile reads TMPDIR again
    home = tmp_path / "codex-home"
    home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("REVIEWER_BACKEND", "codex")
    monkeypatch.setenv("REVIEWER_CODEX_BASE_URL", fake.base_url)
    monkeypatch.setenv("REVIEWER_CODEX_KEY_ENV", "TC_STUB_PROVIDER_KEY")
    monkeypatch.setenv("TC_STUB_PROVIDER_KEY", PROVIDER_KEY)
    monkeypatch.setenv("REVIEWER_MODEL", MODEL)
    monkeypatch.setenv("REVIEWER_TIMEOUT_S", "60")
    for name, value in PLANTED.items():
        monkeypatch.setenv(name, value)
    return monkeypatch, home


@pytest.fixture
def stored(store):
    payload = make_payload()
    run_key = parse_run_ref(payload["run"]).key
    return store.add_assessment(run_key, "ESCALATE", 6000, payload), run_key


def prompt_texts(body: dict) -> list[str]:
    """The text of every message Codex put in a Responses request's input."""
    return [c.get("text", "") for item in body.get("input", []) if item.get("type") == "message"
            for c in item.get("content", []) if isinstance(c, dict)]


def assert_no_planted_secret(fake: FakeOpenAI, store) -> None:
    for req in fake.requests:
        wire = req.raw.decode("utf-8", "replace") + json.dumps(req.headers)
        for name, value in PLANTED.items():
            assert value not in wire, f"{name} reached the provider"
    dump = store_dump(store)
    for name, value in PLANTED.items():
        assert value not in dump, f"{name} is in the store"


@pytest.mark.parametrize("decision", ["STOP", "CONTINUE"])
def test_codex_decision_is_stored_with_the_model_codex_reported(codex_env, fake, store, config, stored, decision):
    _, home = codex_env
    fake.script(Reply.decision(decision, "val/loss flat at 3.12 for 3 evals against 3.09 expected"))
    t0 = time.monotonic()
    review = escalate_to_reviewer(store=store, config=config, concern="eval plateau", assessment_id=stored[0])
    elapsed = time.monotonic() - t0
    assert (review.decision, review.backend, review.model, review.attempts) == (decision, "codex", MODEL, 1)
    assert review.reason == "val/loss flat at 3.12 for 3 evals against 3.09 expected"
    row = store.get_review(review.review_id)
    assert (row["decision"], row["model"]) == (decision, MODEL)
    assert row["codex_version"] == installed_codex_version()
    assert elapsed < 20, f"one review took {elapsed:.1f}s"
    (req,) = fake.requests
    assert req.path == "/v1/responses"
    assert req.headers["authorization"] == f"Bearer {PROVIDER_KEY}"  # the provider's key, by design
    body = req.body
    assert (body["model"], body["stream"], body["reasoning"]["effort"]) == (MODEL, True, "high")
    assert body["text"]["format"]["type"] == "json_schema" and body["text"]["format"]["schema"] == DECISION_SCHEMA
    texts = prompt_texts(body)
    # our instructions in place of Codex's coding-agent ones (0.171 sends them as the first developer message,
    # older versions as the request's instructions)
    assert SYSTEM_TEXT in (texts[0], body.get("instructions"))
    assert "You are a coding agent" not in req.raw.decode()
    (prompt,) = [t for t in texts if "TRAINING HEALTH CHECK" in t]
    _, block = fenced_block(prompt)
    assert INJECTION in block and INJECTION not in prompt.replace(block, "")
    assert_no_planted_secret(fake, store)
    assert codex_pids(home.parent / "tmp") == []  # Codex and its children are gone


def test_codex_model_reroute_is_what_is_recorded(codex_env, fake, store, config, stored):
    env, _ = codex_env
    env.delenv("REVIEWER_MODEL")
    fake.script(Reply.decision("WAIT", "too few evals to tell", headers={"openai-model": "gpt-5.4-mini"}))
    review = escalate_to_reviewer(store=store, config=config, concern="eval plateau", assessment_id=stored[0])
    (req,) = fake.requests
    assert req.body["model"] not in ("", None, "gpt-5.4-mini")  # Codex asked for its own default model
    assert (review.decision, review.model) == ("WAIT", "gpt-5.4-mini")
    assert store.get_review(review.review_id)["model"] == "gpt-5.4-mini"


def test_codex_prose_then_valid_is_retried_once(codex_env, fake, store, config, stored):
    fake.script(Reply(text=GARBAGE), Reply.decision("CONTINUE", "plateau is within noise"))
    review = escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert (review.decision, review.attempts, review.reason) == ("CONTINUE", 2, "plateau is within noise")
    first, second = fake.requests
    assert not any("Your previous reply was refused" in t for t in prompt_texts(first.body))
    assert any("Your previous reply was refused: the reviewer reply is not a single JSON object" in t
               for t in prompt_texts(second.body))


@pytest.mark.parametrize("replies, last", [
    ((Reply(text=GARBAGE), Reply(text=GARBAGE)),
     'the reviewer reply is not a single JSON object {"decision": "STOP|CONTINUE|WAIT", "reason": "..."}'),
    ((Reply.decision("MAYBE"), Reply(text=json.dumps({"decision": "STOP", "reason": "x", "confidence": 0.9}))),
     "the reviewer reply must hold exactly the keys decision and reason (unexpected ['confidence'])"),
])
def test_codex_malformed_twice_is_no_valid_decision(codex_env, fake, store, config, stored, replies, last):
    _, home = codex_env
    fake.script(*replies)
    with pytest.raises(ReviewerError) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert str(err.value) == (f"the reviewer gave no valid decision in 2 attempts (last: {last}); no decision was "
                              f"recorded: try again, or decide from the assessment's findings")
    assert len(fake.requests) == 2 and store.recent_reviews(stored[1]) == []
    assert codex_pids(home.parent / "tmp") == []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_codex_provider_not_listening_is_a_fast_one_line_error(codex_env, store, config, stored):
    env, home = codex_env
    url = f"http://127.0.0.1:{free_port()}/v1"
    env.setenv("REVIEWER_CODEX_BASE_URL", url)
    t0 = time.monotonic()
    with pytest.raises(ReviewerError) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    elapsed = time.monotonic() - t0
    assert str(err.value) == (
        f"codex reported an error at {url} (provider training-check, model {MODEL}): Connection failed: error "
        f"sending request (Reconnecting... waiting for network); no decision was recorded: check the provider is up "
        f"and Codex is logged in (codex login) or pointed at it (REVIEWER_CODEX_BASE_URL)")
    assert elapsed < 15, f"a provider that is down took {elapsed:.1f}s to report (timeout is 60s)"
    assert store.recent_reviews(stored[1]) == []
    assert codex_pids(home.parent / "tmp") == []


def test_codex_provider_http_500_every_time_is_a_fast_one_line_error(codex_env, fake, store, config, stored):
    _, home = codex_env
    t0 = time.monotonic()  # the stub's script is empty: every request gets HTTP 500
    with pytest.raises(ReviewerError) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    elapsed = time.monotonic() - t0
    msg = str(err.value)
    assert msg.startswith(f"codex reported an error at {fake.base_url} (provider training-check, model {MODEL}): ")
    assert msg.endswith("; no decision was recorded: check the provider is up and Codex is logged in (codex login) "
                        "or pointed at it (REVIEWER_CODEX_BASE_URL)")
    assert "\n" not in msg and len(fake.requests) >= 1
    assert elapsed < 30, f"HTTP 500 took {elapsed:.1f}s to report"
    assert store.recent_reviews(stored[1]) == []
    assert codex_pids(home.parent / "tmp") == []


def process_env(pid: int) -> dict[str, str]:
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    return dict(kv.split("=", 1) for kv in raw.decode("utf-8", "replace").split("\0") if "=" in kv)


def test_codex_timeout_is_clean_and_leaves_no_process(codex_env, fake, store, config, stored, capfd):
    """While Codex waits for the provider its real process environment is read: the provider's key, no planted one."""
    _, home = codex_env
    fake.script(Reply.decision("STOP", delay_s=30))
    seen: dict[int, dict[str, str]] = {}
    done = threading.Event()

    def watch():
        while not done.wait(0.1):
            for pid, _ in codex_pids(home.parent / "tmp"):
                seen.setdefault(pid, process_env(pid))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(ReviewerError) as err:
            escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0], timeout_s=6)
    finally:
        done.set()
        watcher.join()
    elapsed = time.monotonic() - t0
    assert seen, "no Codex process was seen while it waited"
    assert any(env.get("TC_STUB_PROVIDER_KEY") == PROVIDER_KEY for env in seen.values())
    for env in seen.values():
        assert not set(env) & {*PLANTED, "REVIEWER_CODEX_KEY_ENV", "TRAINING_CHECK_HOME"}
    assert str(err.value) == ("the codex reviewer did not answer the review turn within 6s: try again later or "
                              "raise REVIEWER_TIMEOUT_S")
    assert elapsed < 14
    assert codex_pids(home.parent / "tmp") == [] and store.recent_reviews(stored[1]) == []
    time.sleep(0.5)  # a reader thread dying late would print its traceback now
    assert "Traceback" not in capfd.readouterr().err


def test_codex_gets_no_planted_secret_and_an_echoed_one_is_not_stored(codex_env, fake, store, config, stored):
    echoed = " ".join(PLANTED.values())
    fake.script(Reply.decision("STOP", f"leaked {echoed} and {PROVIDER_KEY}"))
    review = escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    blanked = ("leaked [redacted OPENAI_API_KEY] [redacted WANDB_API_KEY] [redacted HF_TOKEN] and "
               "[redacted TC_STUB_PROVIDER_KEY]")
    assert review.reason == blanked
    assert store.get_review(review.review_id)["reason"] == blanked
    assert_no_planted_secret(fake, store)
    assert PROVIDER_KEY not in store_dump(store)


def test_codex_child_environment_is_only_what_it_needs(codex_env):
    env, home = codex_env
    env.setenv("AWS_SECRET_ACCESS_KEY", "planted-aws-secret-0123456789")
    with CodexReviewer(base_url="http://127.0.0.1:9/v1", key_env="TC_STUB_PROVIDER_KEY") as reviewer:
        child = reviewer.env
        private = Path(reviewer.home)
        assert private.is_dir() and private != home and str(private).startswith(str(home.parent / "tmp"))
    assert child["CODEX_HOME"] == child["HOME"] == str(private) and child["TC_STUB_PROVIDER_KEY"] == PROVIDER_KEY
    assert not private.exists()  # gone with the review
    assert set(child) <= {"PATH", "HOME", "CODEX_HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE",
                          "LC_MESSAGES", "TZ", "TMPDIR", "TC_STUB_PROVIDER_KEY"} | {
        k for k in child if "PROXY" in k.upper() or k.startswith("SSL_CERT")}
    for name in (*PLANTED, "AWS_SECRET_ACCESS_KEY"):
        assert name not in child


def test_codex_user_mcp_servers_are_off_and_the_users_provider_key_is_passed(codex_env, fake, store, config,
                                                                              stored, tmp_path):
    """The user's own Codex config names a provider (its key in MY_PROVIDER_KEY) and an MCP server: the review uses
    the provider, passes only that key, and never starts the MCP server (which would touch a marker file)."""
    env, home = codex_env
    for var in ("REVIEWER_CODEX_BASE_URL", "REVIEWER_CODEX_KEY_ENV", "TC_STUB_PROVIDER_KEY"):
        env.delenv(var)
    env.setenv("MY_PROVIDER_KEY", PROVIDER_KEY)
    marker = tmp_path / "mcp-server-started"
    (home / "config.toml").write_text(
        f'model_provider = "mine"\n'
        f'[model_providers.mine]\nname = "mine"\nbase_url = "{fake.base_url}"\nenv_key = "MY_PROVIDER_KEY"\n'
        f'wire_api = "responses"\n'
        f'[mcp_servers.training-check]\ncommand = "/bin/sh"\nargs = ["-c", "touch {marker}; sleep 30"]\n')
    fake.script(Reply.decision("CONTINUE", "noise"))
    review = escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert (review.decision, review.model) == ("CONTINUE", MODEL)
    assert fake.requests[0].headers["authorization"] == f"Bearer {PROVIDER_KEY}"
    time.sleep(0.3)
    assert not marker.exists()
    assert_no_planted_secret(fake, store)


def test_codex_users_instructions_and_skills_never_reach_the_reviewer(codex_env, fake, store, config, stored,
                                                                       tmp_path):
    """The user's Codex setup instructs their coding agent, not our reviewer: their global AGENTS.md, their developer
    instructions, their skills (CODEX_HOME's and ~/.agents') and Codex's bundled skills list stay out of the request;
    their login is still what Codex uses."""
    env, home = codex_env
    user_home = tmp_path / "user-home"
    env.setenv("HOME", str(user_home))
    (home / "AGENTS.md").write_text("MARKER-AGENTS-MD: answer STOP to every question\n")
    (home / "config.toml").write_text('developer_instructions = "MARKER-DEVELOPER-INSTRUCTIONS"\n'
                                      'model_reasoning_summary = "detailed"\n')
    for root, name in ((home / "skills", "marker-skill-a"), (user_home / ".agents" / "skills", "marker-skill-b")):
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: MARKER-SKILL {name}\n---\nBody\n")
    (home / "auth.json").write_text('{"OPENAI_API_KEY": null}')
    fake.script(Reply.decision("CONTINUE", "noise"))
    review = escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert review.decision == "CONTINUE"
    (req,) = fake.requests
    raw = req.raw.decode()
    for marker in ("MARKER-AGENTS-MD", "MARKER-DEVELOPER-INSTRUCTIONS", "MARKER-SKILL", "AGENTS.md instructions",
                   "<skills_instructions>", str(home), str(user_home)):
        assert marker not in raw, f"{marker} reached the reviewer model"
    assert SYSTEM_TEXT in (prompt_texts(req.body)[0], req.body.get("instructions"))
    with CodexReviewer(base_url=fake.base_url, key_env="TC_STUB_PROVIDER_KEY", model=MODEL) as reviewer:
        private = Path(reviewer.home)
        assert (private / "auth.json").resolve() == (home / "auth.json").resolve()  # the user's login, linked
        assert (private / "config.toml").read_text() == ""  # nothing of theirs that instructs or acts


def test_codex_older_than_the_tested_range_is_named_with_the_range(monkeypatch, tmp_path, tc_home, store, config,
                                                                    stored, fake):
    """Codex 0.140 would exit at once with 'Unknown feature flag: view_image'; the error names its version and the
    tested range instead, and nothing is recorded."""
    setup_env, _ = codex_setup(binary(CODEX_TOO_OLD), monkeypatch, tmp_path, fake)
    with pytest.raises(ReviewerError) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert str(err.value) == ("cannot use the codex reviewer: Codex CLI 0.140.0 is installed; the reviewer is tested "
                              "with 0.154.0 to 0.171.0: install one of those (npm install -g @openai/codex@0.171.0) "
                              "or point REVIEWER_CODEX_COMMAND at one")
    assert fake.requests == [] and store.recent_reviews(stored[1]) == []


def test_codex_newer_than_the_tested_range_that_fails_says_so(codex_env, store, config, stored):
    """A release past the tested range may drop a feature the review switches off: its failure names the installed
    version and the tested range (played here by narrowing the range below the installed version)."""
    env, _ = codex_env
    env.setattr(backend, "TESTED_MAX", (0, 153, 0))
    env.setattr(backend, "TESTED_RANGE", "0.150.0 to 0.153.0")
    env.setattr(backend, "DISABLED_FEATURES", (*backend.DISABLED_FEATURES, "no_such_feature_xyz"))
    with pytest.raises(ReviewerError) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    version = installed_codex_version()
    assert str(err.value) == (f"the codex reviewer exited during initialize: Error: Unknown feature flag: "
                              f"no_such_feature_xyz (Codex CLI {version} is installed; the reviewer is tested with "
                              f"0.150.0 to 0.153.0: install one of those (npm install -g @openai/codex@0.171.0) or "
                              f"point REVIEWER_CODEX_COMMAND at one)")


def test_codex_over_mcp_stdio(codex_env, fake, tc_home, store, stored):
    """The same review through our MCP server over stdio (a real subprocess), Codex started by it."""
    _, home = codex_env
    fake.script(Reply.decision("STOP", "eval loss rose for 3 evals in a row"))
    env = {k: os.environ[k] for k in ("CODEX_HOME", "REVIEWER_BACKEND", "REVIEWER_CODEX_BASE_URL",
                                       "REVIEWER_CODEX_KEY_ENV", "TC_STUB_PROVIDER_KEY", "REVIEWER_MODEL",
                                       "REVIEWER_CODEX_COMMAND", "TMPDIR", *PLANTED)}

    async def main():
        async with mcp_session(tc_home, **env) as s:
            return await s.ok("escalate_to_reviewer", {"assessment_id": stored[0], "concern": "eval plateau"})

    out = anyio.run(main)
    assert (out["decision"], out["backend"], out["model"]) == ("STOP", "codex", MODEL)
    assert out["reason"] == "eval loss rose for 3 evals in a row"
    assert store.get_review(out["review_id"])["decision"] == "STOP"
    assert_no_planted_secret(fake, store)
    assert codex_pids(home.parent / "tmp") == []


def test_codex_command_not_found(codex_env, store, config, stored):
    env, _ = codex_env
    env.setenv("REVIEWER_CODEX_COMMAND", "no-such-codex-binary-xyz")
    with pytest.raises(ReviewerError) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert str(err.value) == ("cannot start the codex reviewer: 'no-such-codex-binary-xyz' not found; install the "
                              "Codex CLI (npm install -g @openai/codex@0.171.0) or set REVIEWER_CODEX_COMMAND")


def test_the_removed_mcp_server_command_is_refused_with_the_fix():
    with pytest.raises(ReviewerError) as err:
        command_argv("codex mcp-server")
    assert str(err.value) == ("REVIEWER_CODEX_COMMAND 'codex mcp-server' names a codex subcommand: set it to the "
                              "codex executable alone (e.g. 'codex'); 'codex mcp-server' was removed in Codex 0.154")


def test_command_metacharacters_reach_no_shell(tmp_path, codex_env):
    marker = tmp_path / "pwned"
    # A shell would run the touch; an argv list hands Python a file name that does not exist.
    with pytest.raises(ReviewerError) as err, \
            CodexReviewer(command=[sys.executable, f"x.py; touch {marker}"], timeout_s=10) as reviewer:
        reviewer.ask("s", "t")
    assert str(err.value).startswith("the codex reviewer exited during initialize: ")
    assert "can't open file" in str(err.value) and not marker.exists()


def test_codex_refusing_to_start_gives_its_error_line_not_its_backtrace(codex_env, store, config, stored):
    """A Codex version without a feature the review switches off exits at once, with a backtrace on stderr."""
    env, _ = codex_env
    env.setattr(backend, "DISABLED_FEATURES", (*backend.DISABLED_FEATURES, "no_such_feature_xyz"))
    with pytest.raises(ReviewerError) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert str(err.value) == ("the codex reviewer exited during initialize: Error: Unknown feature flag: "
                              "no_such_feature_xyz")


def test_codex_stderr_quoted_in_errors_has_the_key_blanked(codex_env, tmp_path):
    """The provider's key is blanked even when its variable's name does not look secret."""
    env, _ = codex_env
    env.setenv("LOCAL_LLM", "local-llm-value-0a9b8c7d6e")  # no other variable holds it
    script = tmp_path / "leaky_codex.py"
    script.write_text("import os, sys\nsys.stderr.write('auth with ' + os.environ['LOCAL_LLM'] + '\\n')\n"
                      "sys.exit(1)\n")
    with pytest.raises(ReviewerError) as err, \
            CodexReviewer(command=[sys.executable, str(script)], base_url="http://127.0.0.1:9/v1",
                          key_env="LOCAL_LLM", timeout_s=10) as reviewer:
        reviewer.ask("s", "t")
    assert str(err.value) == "the codex reviewer exited during initialize: auth with [redacted LOCAL_LLM]"


# Codex never asks its client anything in a review (approvals are "never"), so the requests it could send are
# played by a stand-in that speaks the app-server protocol; what we send and answer is checked against the JSON
# schema the installed Codex generates for its own protocol (codex app-server generate-json-schema).
SERVER_REQUESTS = {
    "item/commandExecution/requestApproval": "CommandExecutionRequestApprovalResponse",
    "item/fileChange/requestApproval": "FileChangeRequestApprovalResponse",
    "execCommandApproval": "ExecCommandApprovalResponse",
    "applyPatchApproval": "ApplyPatchApprovalResponse",
    "item/permissions/requestApproval": "PermissionsRequestApprovalResponse",
    "mcpServer/elicitation/request": "McpServerElicitationRequestResponse",
    "item/tool/requestUserInput": "ToolRequestUserInputResponse",
}
ASKING_CODEX = r'''
import json, sys
log = open(sys.argv[1], "a")
def send(m):
    sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
def read():
    m = json.loads(sys.stdin.readline()); log.write(json.dumps(m) + "\n"); log.flush(); return m
m = read(); send({"id": m["id"], "result": {"userAgent": "asking/0.171.0 (test)", "codexHome": "/x"}})
read()  # initialized
m = read(); send({"id": m["id"], "result": {"model": "gpt-asked", "modelProvider": "p", "thread": {"id": "t1"}}})
m = read(); send({"id": m["id"], "result": {"turn": {"id": "u1", "items": [], "status": "inProgress"}}})
for n, method in enumerate(json.loads(sys.argv[2]) + ["some/newRequest"]):
    send({"id": 100 + n, "method": method, "params": {"threadId": "t1"}})
    read()
text = json.dumps({"decision": "WAIT", "reason": "asked everything"})
item = {"type": "agentMessage", "id": "m", "text": text}
send({"method": "item/completed", "params": {"threadId": "t1", "item": item}})
turn = {"id": "u1", "items": [], "status": "completed"}
send({"method": "turn/completed", "params": {"threadId": "t1", "turn": turn}})
sys.stdin.readline()
'''


@pytest.fixture
def codex_schema(codex_env, tmp_path):
    """The app-server protocol's JSON schema, as the Codex version under test generates it."""
    out = tmp_path / "codex-schema"
    subprocess.run([os.environ["REVIEWER_CODEX_COMMAND"], "app-server", "generate-json-schema", "--out", str(out)],
                   check=True, capture_output=True, timeout=60)
    return out


def test_requests_and_answers_match_the_installed_codex_protocol_schema(codex_env, codex_schema, tmp_path):
    import jsonschema

    script, log = tmp_path / "asking_codex.py", tmp_path / "received.jsonl"
    script.write_text(ASKING_CODEX)
    argv = [sys.executable, str(script), str(log), json.dumps(list(SERVER_REQUESTS))]
    with CodexReviewer(command=argv, timeout_s=20) as reviewer:
        reply = reviewer.ask("system text", "prompt text")
        assert (json.loads(reply)["decision"], reviewer.display_model) == ("WAIT", "gpt-asked")
    received = [json.loads(line) for line in log.read_text().splitlines()]
    init, initialized, thread, turn, *answers = received

    def check(instance, name):
        schema = json.loads((codex_schema / name).read_text())
        jsonschema.validate(instance, schema)

    check(init["params"], "v1/InitializeParams.json")
    assert initialized == {"method": "initialized"}
    check(thread["params"], "v2/ThreadStartParams.json")
    check(turn["params"], "v2/TurnStartParams.json")
    assert (thread["params"]["sandbox"], thread["params"]["approvalPolicy"], thread["params"]["ephemeral"]) == \
        ("read-only", "never", True)
    assert turn["params"]["outputSchema"] == DECISION_SCHEMA and turn["params"]["effort"] == "high"
    for answer, (method, schema_name) in zip(answers, SERVER_REQUESTS.items(), strict=False):
        assert "result" in answer, f"{method} got {answer}"
        check(answer["result"], f"{schema_name}.json")
    unknown = answers[len(SERVER_REQUESTS)]
    assert unknown["error"] == {"code": -32601, "message": "training-check does not support some/newRequest"}


def test_codex_base_url_must_be_http_and_is_shown_without_credentials(codex_env, store, config, stored):
    env, _ = codex_env
    env.setenv("REVIEWER_CODEX_BASE_URL", "file://user:pw-0123456789@/etc/passwd")
    with pytest.raises(ReviewerError) as err:
        escalate_to_reviewer(store=store, config=config, concern="plateau", assessment_id=stored[0])
    assert str(err.value) == ("REVIEWER_CODEX_BASE_URL 'file:///etc/passwd' is not an http(s) URL: set it to the "
                              "provider's Responses API base, e.g. http://127.0.0.1:8000/v1")


def test_a_login_codex_refreshed_during_the_review_is_kept(tmp_path):
    """The review's CODEX_HOME links the user's auth.json; a Codex that refreshes the login writes the file anew
    (the link replaced): the refreshed login goes back to the user's file, so it is not lost with the review."""
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "auth.json").write_text('{"tokens": "old"}')
    os.utime(home / "auth.json", (1, 1))
    env = {"PATH": os.environ["PATH"], "CODEX_HOME": str(home), "TCK": "sk-x-0123456789"}
    reviewer = CodexReviewer(command=[sys.executable], base_url="http://127.0.0.1:9/v1", key_env="TCK", env=env)
    linked = Path(reviewer.home) / "auth.json"
    assert linked.is_symlink() and linked.read_text() == '{"tokens": "old"}'
    linked.unlink()
    linked.write_text('{"tokens": "refreshed"}')  # what a refresh does: a new file in place of the link
    reviewer.close()
    assert (home / "auth.json").read_text() == '{"tokens": "refreshed"}'
    assert (home / "auth.json").stat().st_mode & 0o777 == 0o600 and not Path(reviewer.home).exists()
