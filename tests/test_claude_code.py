"""Claude Code (npm @anthropic-ai/claude-code): it starts our server from a clone's .mcp.json, and, driven headless
against a local Messages API stub that plays the model (tests/anthropic_stub.py), runs /training-check end to end:
the tools called, the process stopped, the cron jobs left (.claude/scheduled_tasks.json for durable ones)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from training_check.tools.schedule import cron_interval, parse_cron_line, run_tag

from .anthropic_stub import AnthropicStub, _text_of
from .clients import CLAUDE_CODE, binary
from .conftest import REPO, require
from .fake_openai_server import FakeOpenAI, Reply
from .standins import holding_log
from .test_server import write_llmc_log

CLAUDE_TIMEOUT_S = 120


def test_slash_command_copy_is_identical_to_the_prompt():
    src = (REPO / "prompts" / "training-check.md").read_text(encoding="utf-8")
    copy = (REPO / ".claude" / "commands" / "training-check.md").read_text(encoding="utf-8")
    assert copy == src, "regenerate: training-check install-command --project ."
    front = src.split("---")[1]
    assert "description:" in front and "argument-hint:" in front and "allowed-tools:" in front
    for tool in ("assess_run", "escalate_to_reviewer", "stop_run", "reschedule"):
        assert f"mcp__training-check__{tool}" in front
    assert "CronCreate" in front and "CronDelete" in front and "ToolSearch" in front and "$ARGUMENTS" in src
    assert "WaitForMcpServers" not in src  # Claude Code 2.1.332 offers no such tool: the command names none
    assert "Skill(training-check)" in src  # the allow rule a fired job needs headless


def test_mcp_json_names_the_venv_console_script():
    cfg = json.loads((REPO / ".mcp.json").read_text())
    server = cfg["mcpServers"]["training-check"]
    assert server["command"] == ".venv/bin/training-check" and server["args"] == ["serve"]


@pytest.fixture(params=CLAUDE_CODE, ids=str)
def claude_version(request) -> str:
    """One pinned Claude Code version (the newest people install, and an older one)."""
    return request.param.version


@pytest.fixture
def claude(claude_version) -> str:
    """That version's binary."""
    return binary(next(p for p in CLAUDE_CODE if p.version == claude_version))


@pytest.fixture
def clone(tmp_path) -> Path:
    """A fresh clone of this repo whose .venv is the venv running the tests (the README's set-up, already done)."""
    require(shutil.which("git") is not None, "git")
    dest = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(dest)], check=True, timeout=60)
    # The committed .mcp.json and command are what we test; copy the working tree's in case they are not committed yet.
    shutil.copy(REPO / ".mcp.json", dest / ".mcp.json")
    (dest / ".venv").symlink_to(Path(sys.prefix))
    (dest / ".claude").mkdir(exist_ok=True)
    (dest / ".claude" / "settings.local.json").write_text(json.dumps({"enableAllProjectMcpServers": True}))
    return dest


# The allow rules the README gives for headless use (a fired job runs the command through the Skill tool; the MCP
# prompt carries no allowed tools). Claude Code takes them from the folder's .claude/settings.local.json or
# --allowedTools, not from a checked-in .claude/settings.json.
ALLOW_RULES = ["Skill(training-check)", "mcp__training-check__assess_run", "mcp__training-check__read_metrics",
               "mcp__training-check__escalate_to_reviewer", "mcp__training-check__reschedule", "CronList",
               "CronCreate", "CronDelete"]


def allow_readme_rules(clone: Path) -> None:
    path = clone / ".claude" / "settings.local.json"
    settings = json.loads(path.read_text()) if path.exists() else {}
    settings.setdefault("permissions", {}).setdefault("allow", []).extend(ALLOW_RULES)
    path.write_text(json.dumps(settings, indent=2))


def test_the_readme_gives_the_allow_rules():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index('"permissions"'):][:800]
    assert all(f'"{rule}"' in block for rule in ALLOW_RULES), block


def _claude(exe: str, clone: Path, tmp_path: Path, *args: str) -> str:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update(HOME=str(home), TRAINING_CHECK_HOME=str(tmp_path / "tc-home"), DISABLE_AUTOUPDATER="1")
    p = subprocess.run([exe, *args], cwd=clone, env=env, capture_output=True, text=True, timeout=CLAUDE_TIMEOUT_S,
                       check=False, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, f"claude {' '.join(args)}: {p.stdout[-1500:]} {p.stderr[-1500:]}"
    return p.stdout


def opened_once(clone: Path, tmp_path: Path) -> None:
    """What opening `claude` in the folder and accepting its trust dialog records (2.1.332 applies the folder's
    enableAllProjectMcpServers only then)."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / ".claude.json").write_text(json.dumps({"projects": {str(clone): {"hasTrustDialogAccepted": True}}}))


def test_claude_code_connects_to_the_project_server(claude, clone, tmp_path):
    opened_once(clone, tmp_path)
    out = _claude(claude, clone, tmp_path, "mcp", "list")
    line = next((ln for ln in out.splitlines() if ln.startswith("training-check")), "")
    assert "Connected" in line, out
    got = _claude(claude, clone, tmp_path, "mcp", "get", "training-check")
    assert "training-check" in got and "Connected" in got and ".venv/bin/training-check" in got, got


def test_a_never_opened_clone_connects_with_a_local_scope_add(claude, clone, tmp_path):
    """The README's way for a folder never opened in Claude Code (scripts, CI): the project's .mcp.json stays
    "Pending approval" there on 2.1.332, a local-scope add connects at once."""
    (clone / ".claude" / "settings.local.json").unlink()
    _claude(claude, clone, tmp_path, "mcp", "add", "-s", "local", "training-check", "--",
            str(clone / ".venv" / "bin" / "training-check"), "serve")
    out = _claude(claude, clone, tmp_path, "mcp", "list")
    line = next((ln for ln in out.splitlines() if ln.startswith("training-check")), "")
    assert "Connected" in line, out


def test_claude_code_user_scope_install(claude, tmp_path):
    """The README's user-scope command: `claude mcp add -s user training-check -- <venv>/bin/training-check serve`."""
    script = Path(sys.prefix) / "bin" / "training-check"
    require(script.exists(), "the training-check console script in the venv (pip install -e .)")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    opened_once(elsewhere, tmp_path)  # 2.1.337 checks no server in an untrusted folder ("Not checked ...")
    _claude(claude, elsewhere, tmp_path, "mcp", "add", "-s", "user", "training-check", "--", str(script), "serve")
    out = _claude(claude, elsewhere, tmp_path, "mcp", "list")
    line = next((ln for ln in out.splitlines() if ln.startswith("training-check")), "")
    assert "Connected" in line, out


# -- CronList as each version prints it (lines seen from the real 2.1.197 and 2.1.332) ----------------------------
CRON_LINES = {
    "2.1.197": "ad66725b \u2014 7,17,27,37,47,57 * * * * (recurring) [session-only]: /training-check #{mark} {run}",
    "2.1.332": "c7703551 \u2014 7,17,27,37,47,57 * * * * (recurring) [session-only], next run Dec 5 1:31am: "
               "/training-check #{mark} {run}",
    "2.1.332 durable": "d6bca295 \u2014 7,17,27,37,47,57 * * * * (recurring), next run Dec 5 12:24am: "
                       "/training-check #{mark} {run}",
}


@pytest.mark.parametrize("version", list(CRON_LINES))
def test_cron_list_lines_of_both_formats_are_read(version):
    line = CRON_LINES[version].format(mark="94978618", run="/runs/a/train.log")
    job = parse_cron_line(line)
    assert job == {"id": line.split()[0], "cron": "7,17,27,37,47,57 * * * *", "recurring": True,
                   "session_only": "[session-only]" in line, "prompt": "/training-check #94978618 /runs/a/train.log"}


@pytest.mark.parametrize("version", list(CRON_LINES))
def test_each_check_keeps_the_one_job_whatever_the_list_format(version, store, config, tmp_path):
    """The issue's 3 jobs after 3 checks: a listing that was not read made every check create another job."""
    from training_check.tools.schedule import reschedule

    log = write_llmc_log(tmp_path / "train.log", 400)
    durable = "durable" in version
    first = reschedule(str(log), store=store, config=config, durable=durable)
    assert first.cron_create is not None
    line = CRON_LINES[version].format(mark=run_tag(f"file:{log}"), run=log) + (" durable=true" if durable else "")
    line = line.replace("7,17,27,37,47,57 * * * *", first.cron)
    again = reschedule(str(log), store=store, config=config, durable=durable, jobs=[{"line": line}])
    assert again.cron_create is None and again.cron_delete == [] and again.keep_job_id == line.split()[0], again


def test_a_job_line_split_into_fields_the_new_way_is_still_read(store, config, tmp_path):
    """An agent that copies 2.1.332's line into the old fields puts ', next run ...' into the schedule."""
    from training_check.tools.schedule import reschedule

    log = write_llmc_log(tmp_path / "train.log", 400)
    first = reschedule(str(log), store=store, config=config)
    job = {"id": "c7703551", "schedule": f"{first.cron} (recurring) [session-only], next run Dec 5 1:31am",
           "prompt": first.job_prompt, "session_only": True}
    again = reschedule(str(log), store=store, config=config, jobs=[job])
    assert again.keep_job_id == "c7703551" and again.cron_create is None


@pytest.mark.parametrize("stated, renewed", [(None, True), (7, True), (30, False)])
def test_renewal_is_timed_from_the_lifetime_the_client_states(store, config, tmp_path, stated, renewed):
    """A job 8 days old: past 2.1.197's 7-day life (renew), well inside 2.1.332's 30 days (keep)."""
    from training_check.tools.schedule import reschedule

    log = write_llmc_log(tmp_path / "train.log", 400)
    t0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    first = reschedule(str(log), store=store, config=config, job_lifetime_days=stated, now=t0)
    line = f"c7703551 \u2014 {first.cron} (recurring) [session-only], next run Dec 5 1:31am: {first.job_prompt}"
    kept = reschedule(str(log), store=store, config=config, jobs=[{"line": line}], job_lifetime_days=stated,
                      now=t0 + timedelta(minutes=10))
    assert kept.keep_job_id == "c7703551"
    assert kept.renew_by == (t0 + timedelta(days=(stated or 7) - 1)).isoformat().replace("+00:00", "Z")
    later = reschedule(str(log), store=store, config=config, jobs=[{"line": line}], job_lifetime_days=stated,
                       now=t0 + timedelta(days=8))
    assert (later.cron_create is not None) is renewed
    if renewed:
        assert later.cron_delete == [{"id": "c7703551"}] and f"expire after {stated or 7} days" in later.summary


def test_a_line_that_is_not_a_job_is_refused_in_one_line(store, config, tmp_path):
    from training_check.tools.errors import BadInput
    from training_check.tools.schedule import reschedule

    with pytest.raises(BadInput) as err:
        reschedule(str(tmp_path / "x.log"), store=store, config=config, jobs=[{"line": "No scheduled jobs."}])
    assert str(err.value) == ("jobs: 'No scheduled jobs.' is not a CronList line (<id> — <cron> (recurring) ...: "
                              "<prompt>): pass each job line CronList printed, as it reads")


# -- end to end: the real Claude Code, headless, against a local Messages API stub that plays the model ------------
MCP = "mcp__training-check__"


def warm_first_answers(tc_home: Path) -> None:
    """One start of the server records its first answers, so Claude Code's starts below get them at once."""
    script = Path(sys.prefix) / "bin" / "training-check"
    p = subprocess.Popen([str(script), "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env={**os.environ, "TRAINING_CHECK_HOME": str(tc_home)})
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "warm", "version": "1"}}}
    msgs = [init, {"jsonrpc": "2.0", "method": "notifications/initialized"}] + [
        {"jsonrpc": "2.0", "id": i, "method": m} for i, m in enumerate(
            ("tools/list", "prompts/list", "resources/list", "resources/templates/list"), start=1)]
    p.stdin.write("".join(json.dumps(m) + "\n" for m in msgs).encode())
    p.stdin.flush()
    answered = set()
    while len(answered) < 5:
        line = p.stdout.readline()
        assert line, f"the server exited after answering {sorted(answered)}"
        answered.add(json.loads(line).get("id"))
    p.stdin.close()
    assert p.wait(30) == 0


@dataclass
class Invocation:
    prompt: str
    seconds: float
    calls: list  # (tool, input) the stub's model made, in order
    results: dict  # tool -> parsed result (the last of each)
    tool_results: list  # the raw tool_result texts Claude Code sent back
    final: str


class ClaudeE2E:
    def __init__(self, exe: str, clone: Path, tmp_path: Path, stub: AnthropicStub):
        self.exe, self.clone, self.tmp, self.stub = exe, clone, tmp_path, stub
        self.home = tmp_path / "home"
        self.home.mkdir(exist_ok=True)
        self.tc_home = tmp_path / "tc-home"
        self.env_extra: dict[str, str] = {}
        self.log: list[Invocation] = []

    def run(self, prompt: str, *, nonblocking: str | None = "0", args: tuple[str, ...] = ()) -> Invocation:
        exe = self.exe
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANTHROPIC_", "CLAUDE", "OPENAI_", "MCP_", "REVIEWER_", "WANDB_"))}
        env.update(HOME=str(self.home), TRAINING_CHECK_HOME=str(self.tc_home), DISABLE_AUTOUPDATER="1",
                   ANTHROPIC_BASE_URL=self.stub.base_url, ANTHROPIC_API_KEY="sk-ant-test-dummy", **self.env_extra)
        if nonblocking is not None:
            env["MCP_CONNECTION_NONBLOCKING"] = nonblocking
        n0 = len(self.stub.calls)
        t = time.monotonic()
        p = subprocess.run([exe, "-p", prompt, "--output-format", "stream-json", "--verbose", *args], cwd=self.clone,
                           env=env, capture_output=True, text=True, timeout=CLAUDE_TIMEOUT_S, stdin=subprocess.DEVNULL,
                           check=False)
        took = time.monotonic() - t
        assert p.returncode == 0, f"claude -p {prompt!r}: {p.stdout[-1500:]} {p.stderr[-1500:]}"
        events = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
        final = next(e for e in events if e.get("type") == "result")
        assert final.get("subtype") == "success" and not final.get("is_error"), final
        tool_results = [_text_of(b.get("content")) for e in events if e.get("type") == "user"
                        for b in e["message"]["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
        calls = [(c.name.removeprefix(MCP), c.input) for c in self.stub.calls[n0:]]
        results = {}
        for check in self.stub.checks_seen:
            for name, _inp, res in check.steps:
                results[name.removeprefix(MCP)] = res
        inv = Invocation(prompt, round(took, 2), calls, results, tool_results, final.get("result") or "")
        self.log.append(inv)
        print(f"[e2e] {took:5.1f}s  {prompt}\n       calls: {[c[0] for c in calls]}\n"
              f"       results: {[r[:300] for r in tool_results]}")
        return inv

    def env(self, nonblocking: str | None = "0") -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANTHROPIC_", "CLAUDE", "OPENAI_", "MCP_", "REVIEWER_", "WANDB_"))}
        env.update(HOME=str(self.home), TRAINING_CHECK_HOME=str(self.tc_home), DISABLE_AUTOUPDATER="1",
                   ANTHROPIC_BASE_URL=self.stub.base_url, ANTHROPIC_API_KEY="sk-ant-test-dummy", **self.env_extra)
        if nonblocking is not None:
            env["MCP_CONNECTION_NONBLOCKING"] = nonblocking
        return env

    def session_until(self, done, timeout_s: float) -> list[dict]:
        """A headless session kept open (stream-json input, as a long-running `claude -p` is): one short user turn,
        then wait until ``done()`` (e.g. a scheduled job fired and its check ended) or ``timeout_s``. Its events."""
        p = subprocess.Popen([self.exe, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
                              "--verbose"], cwd=self.clone, env=self.env(), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(p.stdout), daemon=True)
        reader.start()
        try:
            p.stdin.write(json.dumps({"type": "user", "message": {"role": "user", "content": "hello"}}) + "\n")
            p.stdin.flush()
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline and not done():
                time.sleep(0.5)
            time.sleep(2)  # the turn's last answer
        finally:
            p.stdin.close()
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        reader.join(5)
        return [json.loads(line) for line in lines if line.startswith("{")]

    def jobs(self) -> list[dict]:
        """The durable jobs as Claude Code keeps them (.claude/scheduled_tasks.json of the project)."""
        path = self.clone / ".claude" / "scheduled_tasks.json"
        return json.loads(path.read_text())["tasks"] if path.exists() else []

    def seed_job(self, job_id: str, cron: str, prompt: str) -> None:
        """A durable job left by an earlier session, written as Claude Code writes them."""
        tasks = self.jobs() + [{"id": job_id, "cron": cron, "prompt": prompt, "createdAt": int(time.time() * 1000),
                                "recurring": True}]
        (self.clone / ".claude" / "scheduled_tasks.json").write_text(json.dumps({"tasks": tasks}, indent=2))


@pytest.fixture
def e2e(claude, clone, tmp_path):
    shutil.copy(REPO / ".claude" / "commands" / "training-check.md", clone / ".claude" / "commands")
    warm_first_answers(tmp_path / "tc-warm")
    with AnthropicStub() as stub:
        yield ClaudeE2E(claude, clone, tmp_path, stub)


def _mark(log: Path) -> str:
    return "#" + run_tag(f"file:{log}")


def _names(inv: Invocation) -> list[str]:
    """The calls the check made (loading deferred tools with ToolSearch aside)."""
    return [c[0] for c in inv.calls if c[0] != "ToolSearch"]


# what each version's CronCreate says recurring jobs live
STATED_LIFETIME_DAYS = {"2.1.197": 7, "2.1.332": 30, "2.1.337": 30}


def _input(inv: Invocation, tool: str) -> dict:
    return next(inp for name, inp in inv.calls if name == tool)


def test_e2e_healthy_check_creates_the_job_reschedule_returned(e2e, claude_version, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 400)
    inv = e2e.run(f"/training-check {log}", nonblocking=None)  # Claude Code's default: connect asynchronously
    assert _names(inv) == ["assess_run", "CronList", "reschedule", "CronCreate"]
    if claude_version != "2.1.197":  # MCP and Cron tools are deferred: loaded as the command says
        assert inv.calls[0][0] == "ToolSearch" and "mcp__training-check__reschedule" in inv.calls[0][1]["query"]
    assert _input(inv, "assess_run") == {"run": str(log)}
    assert inv.results["assess_run"]["verdict"] == "CONTINUE"
    sched = inv.results["reschedule"]
    days = STATED_LIFETIME_DAYS[claude_version]
    assert _input(inv, "reschedule") == {"run": str(log), "assessment_id": inv.results["assess_run"]["assessment_id"],
                                         "jobs": [], "job_lifetime_days": days}
    assert f"Auto-expires after {days} days" in inv.tool_results[-1]  # what the client states, renewal times from it
    renew_by = datetime.fromisoformat(sched["renew_by"].replace("Z", "+00:00"))
    assert abs(renew_by - datetime.now(UTC) - timedelta(days=days - 1)) < timedelta(minutes=5)
    assert _input(inv, "CronCreate") == sched["cron_create"] == {
        "cron": sched["cron"], "prompt": f"/training-check {_mark(log)} {log}", "recurring": True, "durable": False}
    minutes = [int(m) for m in sched["cron"].split()[0].split(",")]
    assert len(minutes) == 6 and not {0, 30} & set(minutes)
    created = inv.tool_results[-1]
    assert created.startswith("Scheduled recurring job ") and "Session-only" in created, created
    assert e2e.jobs() == []  # session-only: nothing written to disk


def test_e2e_stop_with_a_target_stops_the_process_names_the_evidence_and_leaves_no_job(e2e, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 400, diverge_at=200)
    trainer = holding_log(log, 300, stderr=subprocess.DEVNULL)  # holds its log open, as a real one does
    try:
        e2e.seed_job("aaaa0001", "7,17,27,37,47,57 * * * *", f"/training-check {_mark(log)} {log} durable=true")
        other = tmp_path / "other.log"
        e2e.seed_job("bbbb0002", "9 * * * *", f"/training-check {_mark(other)} {other} durable=true")
        inv = e2e.run(f"/training-check {log} target=pid:{trainer.pid}")
        assert _names(inv) == ["assess_run", "stop_run", "CronList", "reschedule", "CronDelete"]
        assert _input(inv, "assess_run") == {"run": str(log)}  # the run part only
        a = inv.results["assess_run"]
        assert a["verdict"] == "STOP"
        stop = _input(inv, "stop_run")
        assert stop["run"] == str(log) and stop["target"] == f"pid:{trainer.pid}"
        assert stop["assessment_id"] == a["assessment_id"]
        assert trainer.wait(15) is not None  # the real process is gone
        report = inv.results["stop_run"]
        assert report["stopped"] is True and Path(report["evidence_path"]).is_file()
        assert report["evidence_path"] in inv.final
        sched = inv.results["reschedule"]
        assert sched["stopped"] is True and sched.get("cron_create") is None
        assert sched["cron_delete"] == [{"id": "aaaa0001"}] and _input(inv, "CronDelete") == {"id": "aaaa0001"}
        assert [j["id"] for j in e2e.jobs()] == ["bbbb0002"]  # the other run's job is untouched
    finally:
        trainer.kill()


def test_e2e_escalate_reviewer_stop_stops_and_leaves_no_job(e2e, tmp_path):
    import numpy as np

    log = tmp_path / "plateau.log"
    y = 5 + np.random.default_rng(7).normal(0, 0.05, 800)  # no learning at all: ambiguous, the reviewer decides
    log.write_text("".join(f"s:{i} trl:{v:.5f} lr:0.000300 norm:1.0{i % 7}\n" for i, v in enumerate(y, start=1)))
    trainer = holding_log(log, 300, stderr=subprocess.DEVNULL)  # holds its log open, as a real one does
    try:
        with FakeOpenAI() as fake:
            fake.script(Reply.decision("STOP", "loss flat at 5.0 for 800 steps: the run is not learning"))
            e2e.env_extra.update(OPENAI_API_KEY="sk-test-dummy", OPENAI_BASE_URL=fake.base_url)
            e2e.seed_job("cccc0003", "3,13,23,33,43,53 * * * *",
                         f"/training-check {_mark(log)} {log} target=pid:{trainer.pid}")
            inv = e2e.run(f"/training-check {log} target=pid:{trainer.pid}")
            assert len(fake.requests) == 1
        assert _names(inv) == ["assess_run", "escalate_to_reviewer", "stop_run", "CronList", "reschedule",
                               "CronDelete"]
        a, review = inv.results["assess_run"], inv.results["escalate_to_reviewer"]
        assert a["verdict"] == "ESCALATE" and review["decision"] == "STOP"
        assert _input(inv, "escalate_to_reviewer")["assessment_id"] == a["assessment_id"]
        stop = _input(inv, "stop_run")
        assert stop["review_id"] == review["review_id"] and stop["target"] == f"pid:{trainer.pid}"
        assert trainer.wait(15) is not None
        sched = inv.results["reschedule"]
        assert sched["stopped"] is True and sched.get("cron_create") is None
        assert sched["reason"] == "the reviewer said STOP: stop checking it"
        assert _input(inv, "CronDelete") == {"id": "cccc0003"} and e2e.jobs() == []
    finally:
        trainer.kill()


def test_e2e_a_check_started_by_a_job_replaces_it(e2e, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 400)
    first = e2e.run(f"/training-check {log} durable=true")
    assert _names(first) == ["assess_run", "CronList", "reschedule", "CronCreate"]
    (job,) = e2e.jobs()
    assert job["prompt"] == f"/training-check {_mark(log)} {log} durable=true" \
        == first.results["reschedule"]["job_prompt"]
    assert job["cron"] == first.results["reschedule"]["cron"]
    second = e2e.run(job["prompt"])  # what the job enqueues when it fires
    assert _names(second) == ["assess_run", "CronList", "reschedule", "CronDelete", "CronCreate"]
    sched = second.results["reschedule"]
    assert sched["interval_minutes"] == 20 and sched["cron_delete"] == [{"id": job["id"]}]
    assert _input(second, "reschedule")["jobs"][0]["line"].startswith(f"{job['id']} \u2014 ")
    assert _input(second, "CronCreate") == sched["cron_create"]
    (new,) = e2e.jobs()
    assert new["id"] != job["id"] and new["cron"] == sched["cron"] and new["prompt"] == job["prompt"]


def test_e2e_repeated_manual_checks_leave_one_job_per_run(e2e, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 400)
    other = write_llmc_log(tmp_path / "other.log", 300)
    intervals = []
    for i in range(5):
        inv = e2e.run(f"/training-check {log} durable=true")
        intervals.append(inv.results["reschedule"]["interval_minutes"])
        if i in (1, 3):
            e2e.run(f"/training-check {other} durable=true")
        prompts = sorted(j["prompt"] for j in e2e.jobs())
        assert prompts.count(f"/training-check {_mark(log)} {log} durable=true") == 1, prompts
        assert len(prompts) == (1 if i < 1 else 2), prompts
    assert intervals == [10, 20, 30, 60, 60]
    assert _names(inv) == ["assess_run", "CronList", "reschedule"]  # at the cap the job is kept as it is
    assert inv.results["reschedule"]["keep_job_id"] in {j["id"] for j in e2e.jobs()}


def test_e2e_a_server_still_connecting_is_waited_for(e2e, tmp_path):
    """Claude Code connects without waiting; a server slow to start (here: 4 s) is waited for, as the command says:
    ToolSearch waits for it on 2.1.332, the client's own waiting tool on 2.1.197."""
    cfg = json.loads((e2e.clone / ".mcp.json").read_text())
    cfg["mcpServers"]["training-check"] = {"command": "bash", "args": [
        "-c", "sleep 4; exec .venv/bin/training-check serve"]}
    (e2e.clone / ".mcp.json").write_text(json.dumps(cfg))
    log = write_llmc_log(tmp_path / "train.log", 400)
    inv = e2e.run(f"/training-check {log}", nonblocking=None)
    first = next(r for r in e2e.stub.requests if r["kind"] == "check")
    assert MCP + "assess_run" not in first["tools"]  # the first turn had no training-check tools yet
    assert inv.calls[0][0] in ("ToolSearch", "WaitForMcpServers")
    assert _names(inv)[-4:] == ["assess_run", "CronList", "reschedule", "CronCreate"]
    assert inv.results["assess_run"]["verdict"] == "CONTINUE"


def test_e2e_plan_mode_still_checks_and_paces(e2e, claude_version, tmp_path):
    """Plan mode refuses tools that are not read-only: reschedule (which keeps only its own records; the jobs are the
    agent's Cron calls) says it is read-only, so 2.1.332 runs it. 2.1.337 has CronCreate judged first by its auto-mode
    security monitor (a model request the stub answers: the check's own job is allowed)."""
    log = write_llmc_log(tmp_path / "train.log", 400)
    inv = e2e.run(f"/training-check {log}", args=("--permission-mode", "plan"))
    assert _names(inv) == ["assess_run", "CronList", "reschedule", "CronCreate"]
    assert not any("plan mode" in r for r in inv.tool_results), inv.tool_results
    assert inv.results["reschedule"]["interval_minutes"] == 10 and inv.results["reschedule"]["cron_create"]
    if tuple(map(int, claude_version.split("."))) >= (2, 1, 337):
        judged = [action for action, ok in e2e.stub.monitored if ok]
        assert any(a.startswith('{"CronCreate"') and "/training-check #" in a for a in judged), e2e.stub.monitored
        assert all(ok for _, ok in e2e.stub.monitored), e2e.stub.monitored


def test_e2e_a_fired_job_runs_its_check_headless(e2e, claude_version, tmp_path):
    """A job firing in a headless session: 2.1.332 asks the model to run its prompt through the Skill tool, which
    only the allow rule Skill(training-check) (the README's rules) lets run; then the check replaces
    the job with the one reschedule asks for."""
    allow_readme_rules(e2e.clone)
    log = write_llmc_log(tmp_path / "train.log", 400)
    prompt = f"/training-check {_mark(log)} {log} durable=true"
    e2e.seed_job("eeee0005", "* * * * *", prompt)  # fires within the minute

    def checked() -> bool:
        return any(c.name == "CronCreate" for c in e2e.stub.calls)

    events = e2e.session_until(checked, timeout_s=100)
    names = [c.name.removeprefix(MCP) for c in e2e.stub.calls]
    for call in e2e.stub.calls:  # 2.1.332 without the rule asks for the Skill tool (and refuses it) at every fire
        if call.name == "Skill":
            assert call.input == {"skill": "training-check", "args": prompt.removeprefix("/training-check ")}
    assert [n for n in names if n not in ("Skill", "ToolSearch")] == [
        "assess_run", "CronList", "reschedule", "CronDelete", "CronCreate"], names
    results = [_text_of(b.get("content")) for e in events if e.get("type") == "user"
               for b in e["message"]["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
    assert not any("permission" in r.lower() or "refused" in r.lower() for r in results), results
    (job,) = e2e.jobs()
    assert job["id"] != "eeee0005" and job["prompt"] == prompt and cron_interval(job["cron"]) == 10


def test_e2e_the_mcp_prompt_runs_headless_with_the_documented_allow_rules(e2e, tmp_path):
    """/mcp__training-check__training-check carries no allowed tools: headless, the project's allow rules (README)
    let its calls run; Claude Code offers the prompt once the server is connected (MCP_CONNECTION_NONBLOCKING=0)."""
    allow_readme_rules(e2e.clone)
    log = write_llmc_log(tmp_path / "train.log", 400)
    inv = e2e.run(f"/mcp__training-check__training-check {log}", nonblocking="0")
    assert _names(inv) == ["assess_run", "CronList", "reschedule", "CronCreate"], (inv.final, e2e.stub.requests[:3])
    assert not any("permission" in r.lower() for r in inv.tool_results), inv.tool_results
    assert inv.results["assess_run"]["verdict"] == "CONTINUE" and inv.results["reschedule"]["cron_create"]


# -- a sweep check: several runs, one clearly losing (tests/sweep_player.py plays the command's sweep section) -----
@pytest.fixture
def e2e_sweep(claude, clone, tmp_path):
    from .sweep_player import SweepPlayer

    shutil.copy(REPO / ".claude" / "commands" / "training-check.md", clone / ".claude" / "commands")
    warm_first_answers(tmp_path / "tc-warm")
    with AnthropicStub(SweepPlayer()) as stub:
        yield ClaudeE2E(claude, clone, tmp_path, stub)


def _sweep_checked_once(e2e: ClaudeE2E, folder: Path) -> tuple[list[str], str]:
    """Six real runs of a committed sweep (tests/test_sweep_stop.py), their first check made at step 150 in the same
    store; the logs then grown to step 200, where the check through Claude Code finds the loser (two checks in a
    row)."""
    from training_check.tools.assess_runs import assess_runs
    from training_check.tools.config import load_config
    from training_check.tools.store import Store

    from .test_sweep_stop import LOSER, RUNS, write_logs

    folder.mkdir()
    old = os.environ.get("TRAINING_CHECK_HOME")
    os.environ["TRAINING_CHECK_HOME"] = str(e2e.tc_home)
    try:
        config = load_config(cwd=folder)
        assess_runs(write_logs(folder, 15), store=Store(config.store_path), config=config)
    finally:
        if old is None:
            os.environ.pop("TRAINING_CHECK_HOME")
        else:
            os.environ["TRAINING_CHECK_HOME"] = old
    runs = write_logs(folder, 20)
    return runs, runs[RUNS.index(LOSER)]


def test_e2e_sweep_names_the_losing_run_prune_and_stops_it_with_prune_true(e2e_sweep, tmp_path):
    runs, loser = _sweep_checked_once(e2e_sweep, tmp_path / "sweep")
    trainer = holding_log(Path(loser), 300, stderr=subprocess.DEVNULL)  # the loser's own process
    bystander = holding_log(Path(runs[0]), 300, stderr=subprocess.DEVNULL)
    try:
        inv = e2e_sweep.run(f"/training-check {' '.join(runs)} prune=true")
        assert _names(inv) == ["assess_runs", "stop_run", "CronList", "reschedule", "CronCreate"]
        report = inv.results["assess_runs"]
        assert report["sweep"]["prune"] == [loser]
        rel = next(r for r in report["runs"] if r["run"] == loser)["relative"]
        assert rel["recommend"] == "prune" and "6th of 6" in rel["reason"] and "at step 200" in rel["reason"]
        assert _input(inv, "stop_run") == {"run": loser, "prune": True, "reason": rel["reason"][:400]}
        stop = inv.results["stop_run"]
        assert stop["stopped"] is True and "pruning enabled by prune=true" in stop["allowed_by"]
        assert "## Sweep comparison" in Path(stop["evidence_path"]).read_text()
        assert trainer.wait(15) is not None and bystander.poll() is None
        sched = inv.results["reschedule"]
        assert _input(inv, "reschedule")["sweep"] is True and sched["cron_create"]["prompt"].endswith("prune=true")
        assert f"Prune {loser}: prune: eval_loss" in inv.final and stop["evidence_path"] in inv.final
    finally:
        trainer.kill()
        bystander.kill()


def test_e2e_sweep_without_prune_names_the_loser_and_stops_nothing(e2e_sweep, tmp_path):
    runs, loser = _sweep_checked_once(e2e_sweep, tmp_path / "sweep")
    trainer = holding_log(Path(loser), 300, stderr=subprocess.DEVNULL)
    try:
        inv = e2e_sweep.run(f"/training-check {' '.join(runs)}")
        assert _names(inv) == ["assess_runs", "CronList", "reschedule", "CronCreate"]
        assert inv.results["assess_runs"]["sweep"]["prune"] == [loser]
        assert f"Prune {loser}: prune: eval_loss" in inv.final and "not stopped" in inv.final
        assert trainer.poll() is None  # nothing was stopped
        assert "prune" not in _input(inv, "reschedule")
    finally:
        trainer.kill()
