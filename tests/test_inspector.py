"""The MCP Inspector CLI (a third-party MCP client, npm @modelcontextprotocol/inspector) against our stdio server,
with both pinned Inspector versions (tests/clients.py: 0.15.0 and 2.12.0, whose ``--strict`` checks tool schemas)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .clients import INSPECTOR, binary
from .conftest import require
from .fake_openai_server import FakeOpenAI, Reply
from .mcp_client import schema_errors, server_env
from .test_server import TOOLS, write_llmc_log

SERVER_CMD = [str(Path(sys.executable).parent / "training-check"), "serve"]
INSPECTOR_TIMEOUT_S = 90


def run_inspector(exe: str, tc_home: Path, cwd: Path, method: str, *extra: str,
                  env: dict | None = None) -> subprocess.CompletedProcess:
    """The server's own variables go as -e: Inspector 2.x passes the server only a default set of its own."""
    own = [a for k, v in {"TRAINING_CHECK_HOME": str(tc_home), **(env or {})}.items() for a in ("-e", f"{k}={v}")]
    return subprocess.run([exe, "--cli", *own, *SERVER_CMD, "--method", method, *extra],
                          capture_output=True, text=True, timeout=INSPECTOR_TIMEOUT_S, cwd=cwd,
                          env=server_env(tc_home, **(env or {})))


@pytest.fixture(params=INSPECTOR, ids=str)
def inspector(request) -> str:
    require(Path(SERVER_CMD[0]).exists(), "the training-check console script in the venv (pip install -e .)")
    return binary(request.param)


@pytest.fixture
def inspect(inspector, tc_home, tmp_path):
    def call(method: str, *extra: str, env: dict | None = None) -> dict:
        p = run_inspector(inspector, tc_home, tmp_path, method, *extra, env=env)
        assert p.returncode == 0, f"inspector {method} failed: {p.stdout[-2000:]} {p.stderr[-2000:]}"
        return json.loads(p.stdout)

    return call


def tool_call(inspect, name: str, args: dict, env: dict | None = None) -> dict:
    extra = ["--tool-name", name]
    for k, v in args.items():
        extra += ["--tool-arg", f"{k}={v if isinstance(v, str) else json.dumps(v)}"]
    out = inspect("tools/call", *extra, env=env)
    text = " ".join(c.get("text", "") for c in out.get("content", []))
    assert not out.get("isError"), f"{name} failed: {text}"
    assert out.get("structuredContent"), f"{name}: no structured content"
    return out["structuredContent"]


def test_inspector_lists_everything(inspect):
    tools = inspect("tools/list")["tools"]
    assert {t["name"] for t in tools} == TOOLS
    for t in tools:
        assert t["inputSchema"]["properties"] and t.get("outputSchema") and t.get("annotations"), t["name"]
    prompts = {p["name"] for p in inspect("prompts/list")["prompts"]}
    assert prompts == {"training-check", "reviewer"}
    templates = {t["uriTemplate"] for t in inspect("resources/templates/list")["resourceTemplates"]}
    assert "training-check://runs/{run}/evidence" in templates and len(templates) == 3
    assert any(r["uri"] == "training-check://runs" for r in inspect("resources/list")["resources"])


def test_inspector_calls_every_tool(inspect, tmp_path):
    # the run's process: it has the run's log open for writing (stop_run only plans for a process tied to the run)
    sleeper = subprocess.Popen([sys.executable, "-c", "import sys, time; f = open(sys.argv[1], 'a'); time.sleep(120)",
                                str(tmp_path / "bad.log")])
    try:
        _call_every_tool(inspect, tmp_path, sleeper.pid)
        assert sleeper.poll() is None  # the dry run touched nothing
    finally:
        sleeper.kill()
        sleeper.wait()


def _call_every_tool(inspect, tmp_path, pid: int):
    log = write_llmc_log(tmp_path / "train.log", 300)
    bad = write_llmc_log(tmp_path / "bad.log", 300, diverge_at=150)
    m = tool_call(inspect, "read_metrics", {"run": str(log), "max_points": 10})
    assert m["last_step"] == 299
    a = tool_call(inspect, "assess_run", {"run": str(log)})
    assert a["verdict"] in ("CONTINUE", "WAIT", "ESCALATE")
    s = tool_call(inspect, "reschedule", {"run": str(log), "assessment_id": a["assessment_id"]})
    assert s["summary"]
    many = tool_call(inspect, "assess_runs", {"runs": [str(log), str(bad)]})
    worst = many["runs"][0]
    assert worst["verdict"] == "STOP" and worst["run"] == str(bad)
    stop = tool_call(inspect, "stop_run", {"run": str(bad), "reason": "NaN loss",
                                           "assessment_id": worst["assessment_id"], "dry_run": True,
                                           "target": f"pid:{pid}"})
    assert stop["summary"]
    with FakeOpenAI().script(Reply.decision("CONTINUE", "the plateau is normal warm-up noise")) as fake:
        r = tool_call(inspect, "escalate_to_reviewer", {"assessment_id": a["assessment_id"], "concern": "plateau"},
                      env={"OPENAI_API_KEY": "sk-test-inspector", "OPENAI_BASE_URL": fake.base_url,
                           "REVIEWER_API": "chat"})
    assert r["decision"] == "CONTINUE"
    # a third-party client's view of the answers: each one validates against the outputSchema it lists
    schemas = {t["name"]: t["outputSchema"] for t in inspect("tools/list")["tools"]}
    for name, answer in (("read_metrics", m), ("assess_run", a), ("reschedule", s), ("assess_runs", many),
                         ("stop_run", stop), ("escalate_to_reviewer", r)):
        assert not schema_errors(schemas[name], answer), (name, schema_errors(schemas[name], answer))
    assert "sk-test-inspector" not in json.dumps(r)


def test_inspector_strict_finds_no_schema_problem(tc_home, tmp_path):
    """Inspector 2.12's --strict reports every tool-schema portability problem (baseline's list items were an
    untyped ``{}`` that accepts anything)."""
    exe = binary(INSPECTOR[1])
    p = run_inspector(exe, tc_home, tmp_path, "tools/list", "--strict")
    assert p.returncode == 0 and "Warning" not in p.stderr and "Error" not in p.stderr, p.stderr[-3000:]
    tools = {t["name"]: t for t in json.loads(p.stdout)["tools"]}
    for name in ("assess_run", "escalate_to_reviewer"):
        forms = tools[name]["inputSchema"]["properties"]["baseline"]["anyOf"]
        (listed,) = [s for s in forms if s.get("type") == "array"]
        assert listed["items"]["type"] == "array" and listed["items"]["minItems"] == listed["items"]["maxItems"] == 2


@pytest.mark.parametrize("bad, why", [
    ([["x", 3.2]], "baseline.list[tuple[int, float]].0.0: Input should be a valid integer"),
    ([[1000, 3.2, 7]], "baseline.list[tuple[int, float]].0: Tuple should have at most 2 items"),
    ([{"step": 1000}], "baseline.list[tuple[int, float]].0: Input should be a valid tuple"),
])
def test_a_baseline_list_of_anything_but_step_value_pairs_is_refused(inspector, tc_home, tmp_path, bad, why):
    log = write_llmc_log(tmp_path / "train.log", 300)
    p = run_inspector(inspector, tc_home, tmp_path, "tools/call", "--tool-name", "assess_run",
                      "--tool-arg", f"run={log}", "--tool-arg", f"baseline={json.dumps(bad)}")
    assert p.returncode in (0, 5), p.stderr[-2000:]  # 2.12 exits 5 when the tool answered isError
    out = json.loads(p.stdout)
    text = " ".join(c.get("text", "") for c in out.get("content", []))
    # refused in one line: by the input schema (the SDK names the item), or by the domain when a server answers the
    # call before the SDK has loaded
    assert out.get("isError") and "\n" not in text, text
    assert (text.startswith("assess_run: invalid arguments: ") and why in text) or \
        text.endswith("must be [[step, value], ...] or {step: value}"), text
