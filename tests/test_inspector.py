"""The MCP Inspector CLI (a third-party MCP client, npm @modelcontextprotocol/inspector) against our stdio server."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import require
from .fake_openai_server import FakeOpenAI, Reply
from .mcp_client import schema_errors, server_env
from .test_server import TOOLS, write_llmc_log

SERVER_CMD = [str(Path(sys.executable).parent / "training-check"), "serve"]
INSPECTOR_TIMEOUT_S = 90


def inspector_argv() -> list[str]:
    exe = shutil.which("mcp-inspector")
    if exe:
        return [exe, "--cli"]
    npx = shutil.which("npx")
    require(npx is not None, "npx (nodejs) for the MCP Inspector CLI")
    return [npx, "--no-install", "@modelcontextprotocol/inspector", "--cli"]


@pytest.fixture
def inspect(tc_home, tmp_path):
    require(shutil.which("mcp-inspector") is not None or shutil.which("npx") is not None,
            "the MCP Inspector CLI (npm install -g @modelcontextprotocol/inspector)")
    require(Path(SERVER_CMD[0]).exists(), "the training-check console script in the venv (pip install -e .)")
    base = inspector_argv()

    def call(method: str, *extra: str, env: dict | None = None) -> dict:
        argv = [*base, *SERVER_CMD, "--method", method, *extra]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=INSPECTOR_TIMEOUT_S, cwd=tmp_path,
                           env=server_env(tc_home, **(env or {})))
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
