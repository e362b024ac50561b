"""The MCP server driven over stdio (and streamable HTTP) by the SDK's real client, against real logs."""

from __future__ import annotations

import json
import math
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from .mcp_client import SERVER_ARGV, mcp_session, server_env

TOOLS = {"read_metrics", "assess_run", "escalate_to_reviewer", "stop_run", "reschedule", "assess_runs"}
CONTRACT_ARGS = {
    "read_metrics": ["run", "fallback_log", "keys", "since_step", "max_points"],
    "assess_run": ["run", "fallback_log", "baseline", "total_steps", "as_of_step"],
    "escalate_to_reviewer": ["assessment_id", "run", "concern", "baseline"],
    "stop_run": ["run", "reason", "assessment_id", "review_id", "method", "target", "host", "dry_run"],
    "reschedule": ["run", "assessment_id", "jobs", "current_job_id", "target", "host", "durable"],
    "assess_runs": ["runs"],
}


def write_llmc_log(path: Path, steps: int = 400, *, diverge_at: int | None = None, eval_every: int = 50) -> Path:
    """An llm.c-style log (``s:N trl:X lr:L norm:G`` and ``s:N tel:X``) of a healthy (or diverging) run."""
    lines = []
    for s in range(steps):
        loss = 10.5 * math.exp(-s / 120) + 3.0 + 0.02 * math.sin(s)
        if diverge_at is not None and s >= diverge_at:
            loss = float("nan")
        lr = 6e-4 * min(1.0, (s + 1) / 50)
        lines.append(f"s:{s} trl:{loss:.6f} lr:{lr:.6e} norm:{1.0 + 0.1 * math.cos(s):.4f}")
        if s % eval_every == 0 and s:
            lines.append(f"s:{s} tel:{loss + 0.1:.6f}")
    path.write_text("\n".join(lines) + "\n")
    return path


def run(coro_fn, *args):
    return anyio.run(coro_fn, *args)


# -- listing -----------------------------------------------------------------------------------------------------
def test_lists_every_tool_prompt_and_resource_with_schemas(tc_home, tmp_path):
    async def main():
        async with mcp_session(tc_home) as s:
            assert "assess_run" in (s.init.instructions or "") and "reschedule" in s.init.instructions
            tools = {t.name: t for t in (await s.client.list_tools()).tools}
            assert set(tools) == TOOLS
            for name, tool in tools.items():
                props = tool.input_schema["properties"]
                for arg in CONTRACT_ARGS[name]:
                    assert arg in props, (name, arg)
                for arg, spec in props.items():
                    assert spec.get("description"), f"{name}.{arg} has no description"
                assert tool.output_schema and tool.output_schema.get("type") == "object", name
                assert "summary" in tool.output_schema["properties"], name
                assert tool.annotations is not None and tool.description
            assert tools["read_metrics"].annotations.read_only_hint is True
            assert tools["assess_run"].annotations.read_only_hint is True
            assert tools["stop_run"].annotations.destructive_hint is True
            assert tools["read_metrics"].annotations.idempotent_hint is True
            prompts = {p.name: p for p in (await s.client.list_prompts()).prompts}
            assert set(prompts) == {"training-check", "reviewer"}
            assert [a.name for a in prompts["training-check"].arguments] == ["run"]
            templates = {t.uri_template for t in (await s.client.list_resource_templates()).resource_templates}
            assert templates == {f"training-check://runs/{{run}}/{k}" for k in ("assessments", "reviews", "evidence")}
            resources = {str(r.uri) for r in (await s.client.list_resources()).resources}
            assert "training-check://runs" in resources

    run(main)


def test_prompts_carry_the_slash_command_and_the_reviewer_prompt(tc_home):
    async def main():
        async with mcp_session(tc_home) as s:
            p = await s.client.get_prompt("training-check", {"run": "team/llm/abc123"})
            text = p.messages[0].content.text
            assert "team/llm/abc123" in text and "$ARGUMENTS" not in text
            for step in ("assess_run", "escalate_to_reviewer", "stop_run", "reschedule", "CronCreate", "CronDelete"):
                assert step in text
            assert not text.startswith("---")  # front matter is for Claude Code, not the prompt
            r = await s.client.get_prompt("reviewer", {})
            assert "TRAINING HEALTH CHECK" in r.messages[0].content.text

    run(main)


# -- a whole check over stdio -------------------------------------------------------------------------------------
def test_whole_check_over_stdio_and_the_resources(tc_home, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 400)
    bad = write_llmc_log(tmp_path / "bad.log", 400, diverge_at=200)
    # the run's training process: it holds its log open (stop_run stops only a process tied to the run)
    sleeper = subprocess.Popen([sys.executable, "-c", f"import time; f = open({str(bad)!r}, 'a'); time.sleep(60)"])

    async def main():
        async with mcp_session(tc_home) as s:
            progress: list = []
            m = await s.ok("read_metrics", {"run": str(log), "max_points": 20}, progress)
            names = {x["name"] for x in m["metrics"]}
            assert {"train_loss", "lr", "grad_norm", "val_loss"} <= names
            assert m["last_step"] == 399 and m["summary"]
            for x in m["metrics"]:
                assert len(x["series"]) <= 20
            assert len(json.dumps(m)) < 8192
            # the first read of the file sent progress notifications, ending at done == total
            assert progress and progress[-1][0] == progress[-1][1] and "reading" in (progress[-1][2] or "")

            a = await s.ok("assess_run", {"run": str(log), "total_steps": 1000})
            assert a["verdict"] in ("CONTINUE", "WAIT", "ESCALATE") and a["assessment_id"]
            sched = await s.ok("reschedule", {"run": str(log), "assessment_id": a["assessment_id"]})
            assert sched["summary"]

            b = await s.ok("assess_run", {"run": str(bad)})
            assert b["verdict"] == "STOP", b
            plan = await s.ok("stop_run", {"run": str(bad), "reason": "loss is NaN since step 200",
                                           "assessment_id": b["assessment_id"], "dry_run": True,
                                           "target": f"pid:{sleeper.pid}"})
            assert plan["summary"] and sleeper.poll() is None  # a dry run touches nothing

            many = await s.ok("assess_runs", {"runs": [str(log), str(bad), str(tmp_path / "gone.log")]})
            verdicts = [r["verdict"] for r in many["runs"]]
            assert verdicts[0] == "STOP" and len(verdicts) == 3
            assert any(r["run"].endswith("gone.log") and r["verdict"] in ("ERROR", "UNREACHABLE") for r in many["runs"])

            # resources: the run URL-encoded into one segment, by store key or as given
            key = "file:" + str(bad)
            for ident in (key, str(bad)):
                res = await s.client.read_resource(f"training-check://runs/{quote(ident, safe='')}/assessments")
                items = json.loads(res.contents[0].text)
                assert items and items[0]["verdict"] == "STOP"
            rv = await s.client.read_resource(f"training-check://runs/{quote(key, safe='')}/reviews")
            assert json.loads(rv.contents[0].text) == []
            ev = await s.client.read_resource(f"training-check://runs/{quote(key, safe='')}/evidence")
            assert isinstance(json.loads(ev.contents[0].text), list)
            runs = json.loads((await s.client.read_resource("training-check://runs")).contents[0].text)
            assert {r["run_key"] for r in runs} >= {key, "file:" + str(log)}

            # no deprecated MCP logging (SEP-2577): nothing reached the client as notifications/message
            assert s.logs == []

    try:
        run(main)
    finally:
        sleeper.kill()
        sleeper.wait()


def test_stop_of_a_real_process_leaves_evidence(tc_home, tmp_path):
    """The run's latest check says STOP and the training process (it holds the log open) is stopped over MCP."""
    log = write_llmc_log(tmp_path / "train.log", 400, diverge_at=300)
    proc = subprocess.Popen([sys.executable, "-c", f"import time; f = open({str(log)!r}, 'a'); time.sleep(60)"])

    async def main():
        async with mcp_session(tc_home) as s:
            a = await s.ok("assess_run", {"run": str(log)})
            assert a["verdict"] == "STOP"
            e = await s.error("stop_run", {"run": str(log), "reason": "operator asked", "force": True,
                                           "target": f"pid:{proc.pid}"})
            assert "unknown argument 'force'" in e
            rep = await s.ok("stop_run", {"run": str(log), "reason": "NaN loss", "assessment_id": a["assessment_id"],
                                          "target": f"pid:{proc.pid}"})
            assert rep["summary"] and rep["stopped"] is True
            assert f"writes the run's file {log}" in rep["allowed_by"]
            ev = await s.client.read_resource(f"training-check://runs/{quote('file:' + str(log), safe='')}/evidence")
            assert json.loads(ev.contents[0].text)

    try:
        run(main)
        assert proc.wait(timeout=40) is not None
    finally:
        if proc.poll() is None:
            proc.kill()


# -- bad input ----------------------------------------------------------------------------------------------------
def test_bad_input_is_one_clear_line_and_the_server_stays_up(tc_home, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 50)

    async def main():
        async with mcp_session(tc_home) as s:
            e = await s.error("read_metrics", {"run": str(log), "max_points": "lots"})
            assert "max_points" in e and "\n" not in e
            e = await s.error("read_metrics", {"run": str(log), "bogus": 1, "other": 2})
            assert "'bogus'" in e and "'other'" in e and "accepted" in e and "\n" not in e
            e = await s.error("assess_run", {"run": 12})
            assert "run" in e and "\n" not in e
            e = await s.error("assess_run", {})
            assert "run" in e and "required" in e.lower()
            e = await s.error("read_metrics", {"run": str(tmp_path / "missing.log")})
            assert "missing.log" in e and "\n" not in e and "Error executing tool" not in e
            e = await s.error("stop_run", {"run": str(log), "reason": "x"})  # no STOP verdict, no force
            assert "\n" not in e and "Error executing tool" not in e
            e = await s.error("escalate_to_reviewer", {"concern": "plateau"})
            assert "assessment_id" in e
            e = await s.error("escalate_to_reviewer", {"run": str(log), "concern": "plateau"})
            assert "reviewer" in e.lower() and "\n" not in e
            e = await s.error("assess_runs", {})
            assert "runs" in e
            e = await s.error("assess_runs", {"runs": [1, 2]})
            assert "runs.0" in e and "\n" not in e
            e = await s.error("no_such_tool", {})
            assert "no_such_tool" in e
            e = await s.error("stop_run", {"run": str(log), "reason": "x", "method": "rm -rf"})
            assert "method" in e
            m = await s.ok("read_metrics", {"run": str(log)})  # still up
            assert m["last_step"] == 49

    run(main)


# -- streamable HTTP ----------------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_http_answers_initialize_and_tools_list(tc_home, tmp_path):
    port = _free_port()
    proc = subprocess.Popen([*SERVER_ARGV, "--http", "--host", "127.0.0.1", "--port", str(port)],
                            env=server_env(tc_home), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()
                time.sleep(0.2)
        else:
            pytest.fail("the HTTP server did not start in 30 s")

        token = (tc_home / "http-token").read_text().strip()  # serve --http requires the bearer token

        async def main():
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
            async with http, streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http) as (read, write):
                async with ClientSession(read, write) as client:
                    init = await client.initialize()
                    assert init.server_info.name == "training-check"
                    names = {t.name for t in (await client.list_tools()).tools}
                    assert names == TOOLS

        run(main)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_a_broken_config_file_is_reported_by_tools_and_resources(tc_home, tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".training-check.toml").write_text("[wandb\nentity = ")
    log = write_llmc_log(tmp_path / "train.log", 20)

    async def main():
        async with mcp_session(tc_home, cwd=proj) as s:
            e = await s.error("read_metrics", {"run": str(log)})
            assert ".training-check.toml" in e and "\n" not in e
            with pytest.raises(Exception) as err:
                await s.client.read_resource("training-check://runs")
            assert ".training-check.toml" in str(err.value)

    run(main)
