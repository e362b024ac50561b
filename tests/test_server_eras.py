"""Both protocol eras on one install, in any order: the 2026-07-28 ``server/discover`` probe with the per-request
``_meta`` envelope, and the 2025-11-25 ``initialize`` handshake. One connection speaks one era; the first answer
comes fast in both; the front's own answers (lists, tool calls) are the SDK's. Driven by raw JSON-RPC over a real
pipe, by the SDK's own client in both modes, and by the newest Claude Code (CLAUDE_CODE_NEW_BIN)."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from training_check.server.stdio_front import CACHE_NAME, cache_dirs, fingerprint

from .anthropic_stub import MCP, AnthropicStub, Check, Player
from .conftest import require
from .mcp_client import SERVER_ARGV, server_env
from .test_server import write_llmc_log

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}}
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
DISCOVER = {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": ENVELOPE}}
SDK_ONLY = [sys.executable, "-c", "from training_check.server.app import create_server; create_server().run('stdio')"]
CLAUDE_NEW_DEFAULTS = ("/opt/claude-2.1.337/bin/claude",  # npm install -g --prefix /opt/claude-2.1.337 ...
                       "/opt/claude-2.1.337/node_modules/.bin/claude")  # npm install --prefix /opt/claude-2.1.337 ...


class Wire:
    """One server process spoken to in raw JSON-RPC lines."""

    def __init__(self, tc_home: Path, argv: list[str] | None = None):
        self.t0 = time.perf_counter()
        self.err = open(tc_home.parent / "server-stderr.log", "ab")  # noqa: SIM115 - closed in close()
        self.p = subprocess.Popen(argv or SERVER_ARGV, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=self.err, env=server_env(tc_home), cwd=tc_home.parent)
        self.seen: list[dict] = []

    def send(self, *msgs: dict) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write("".join(json.dumps(m) + "\n" for m in msgs).encode())
        self.p.stdin.flush()

    def answer(self, want_id) -> dict:
        assert self.p.stdout is not None
        while True:
            line = self.p.stdout.readline()
            assert line, "the server exited"
            msg = json.loads(line)
            self.seen.append(msg)
            if msg.get("id") == want_id and "method" not in msg:
                return msg

    def request(self, rid, method: str, params: dict | None = None, modern: bool = False) -> dict:
        params = dict(params or {})
        if modern:
            params["_meta"] = {**ENVELOPE, **params.get("_meta", {})}
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, **({"params": params} if params else {})})
        return self.answer(rid)

    def close(self) -> int:
        assert self.p.stdin is not None
        self.p.stdin.close()
        rc = self.p.wait(30)
        self.err.close()
        return rc


def _clear_cache() -> None:
    for d in cache_dirs():
        (d / CACHE_NAME.format(fingerprint())).unlink(missing_ok=True)


def _legacy_client_uses_the_install(tc_home: Path) -> None:
    """What any 2025-11-25 client (Claude Code 2.1.197, the MCP Inspector) does: initialize, list, leave."""
    w = Wire(tc_home)
    assert "result" in w.request(0, "initialize", INIT["params"])
    w.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert w.request(1, "tools/list")["result"]["tools"]
    assert w.close() == 0


def _stderr(tc_home: Path) -> str:
    path = tc_home.parent / "server-stderr.log"
    return path.read_text(errors="replace") if path.exists() else ""


# -- one connection, one era ---------------------------------------------------------------------------------------
def test_a_probe_then_a_fallback_initialize_keeps_the_connection_modern(tc_home, tmp_path):
    """Claude Code 2.1.332's sequence after a 2025-11-25 client used the install: the probe, then (its ~2.9 s bound
    passed) an initialize on the same connection. The initialize must not be answered from the recorded handshake
    (the SDK serves the probe's era): it is refused with -32022 naming 2026-07-28, and enveloped calls then work."""
    _clear_cache()
    _legacy_client_uses_the_install(tc_home)
    log = write_llmc_log(tmp_path / "train.log", 300)
    w = Wire(tc_home)
    w.send(DISCOVER, {**INIT, "id": 1})  # the fallback arrives before the probe's answer
    probe = w.answer(0)
    assert MODERN in probe["result"]["supportedVersions"], probe
    fallback = w.answer(1)
    assert "result" not in fallback, f"the handshake was answered on a 2026-07-28 connection: {fallback}"
    assert fallback["error"]["code"] == -32022 and MODERN in fallback["error"]["data"]["supported"], fallback
    tools = w.request(2, "tools/list", modern=True)["result"]["tools"]
    assert "assess_run" in {t["name"] for t in tools}
    res = w.request(3, "tools/call", {"name": "assess_run", "arguments": {"run": str(log)}}, modern=True)
    assert "error" not in res and res["result"]["isError"] is False, res
    assert res["result"]["structuredContent"]["verdict"] == "CONTINUE"
    assert w.close() == 0


def test_an_initialize_connection_refuses_enveloped_requests_and_stays_legacy(tc_home, tmp_path):
    log = write_llmc_log(tmp_path / "train.log", 300)
    for _ in range(2):  # the second time from the recorded answers
        w = Wire(tc_home)
        init = w.request(0, "initialize", INIT["params"])
        assert init["result"]["protocolVersion"] == LEGACY
        w.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        late = w.request(1, "server/discover", modern=True)
        assert "result" not in late and late["error"]["code"] == -32600, late
        res = w.request(2, "tools/call", {"name": "assess_run", "arguments": {"run": str(log)}})
        assert res["result"]["isError"] is False, res
        assert w.close() == 0


# -- the SDK's own client, both modes, any order -----------------------------------------------------------------
async def _sdk_check(tc_home: Path, mode: str, log: Path) -> tuple[str, str]:
    params = StdioServerParameters(command=SERVER_ARGV[0], args=SERVER_ARGV[1:], env=server_env(tc_home),
                                   cwd=str(tc_home.parent))
    async with Client(params, mode=mode, read_timeout_seconds=60) as client:  # type: ignore[arg-type]
        session = client.session
        era = "modern" if session.discover_result is not None else "legacy"
        names = {t.name for t in (await client.list_tools()).tools}
        assert {"assess_run", "reschedule", "stop_run"} <= names
        res = await client.call_tool("assess_run", {"run": str(log)})
        assert not res.is_error, res.content
        return era, res.structured_content["verdict"]


@pytest.mark.parametrize("order", [("legacy", "auto", "legacy", "auto"), ("auto", "legacy", "auto", "legacy")])
def test_the_sdk_client_in_either_era_in_any_order(tc_home, tmp_path, order):
    _clear_cache()
    log = write_llmc_log(tmp_path / "train.log", 300)
    for mode in order:
        era, verdict = anyio.run(_sdk_check, tc_home, mode, log)
        assert era == ("modern" if mode == "auto" else "legacy")
        assert verdict == "CONTINUE"
    assert "MCPDeprecationWarning" not in _stderr(tc_home)


def test_the_first_answer_is_fast_in_both_eras(tc_home):
    _clear_cache()
    for first in (INIT, DISCOVER):  # the SDK answers these once; the front records them
        w = Wire(tc_home)
        w.send(first)
        w.answer(0)
        if first is INIT:
            w.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        w.request(1, "tools/list", modern=first is DISCOVER)
        assert w.close() == 0
    for first in (INIT, DISCOVER):
        took = []
        for _ in range(3):
            w = Wire(tc_home)
            w.send(first)
            assert "result" in w.answer(0)
            took.append(time.perf_counter() - w.t0)
            assert w.close() == 0
        assert statistics.median(took) <= 0.3, (first["method"], took)


# -- the front's answers are the SDK's ---------------------------------------------------------------------------
def _session(tc_home: Path, argv: list[str], modern: bool, calls: list[tuple[str, dict]]) -> list[dict]:
    w = Wire(tc_home, argv)
    if modern:
        out = [w.request(0, "server/discover", modern=True)["result"]]
    else:
        out = [w.request(0, "initialize", INIT["params"])["result"]]
        w.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    out.append(w.request(1, "tools/list", modern=modern)["result"])
    for i, (tool, args) in enumerate(calls, start=2):
        out.append(w.request(i, "tools/call", {"name": tool, "arguments": args}, modern=modern)["result"])
    assert w.close() == 0
    return out


CLOCK = ("next_check_at", "cron", "cron_create", "renew_by", "elapsed_s")  # what the wall clock decides


def _without_ids(obj):
    if isinstance(obj, dict):
        return {k: _without_ids(v) for k, v in obj.items() if k not in ("assessment_id", "text", *CLOCK)}
    if isinstance(obj, list):
        return [_without_ids(v) for v in obj]
    return obj


@pytest.mark.parametrize("modern", [False, True], ids=["2025-11-25", "2026-07-28"])
def test_the_fronts_answers_equal_the_sdks(tc_home, tmp_path, modern):
    """The same session against `serve` (recorded answers, calls served by the front) and against the SDK server
    alone, each on its own copy of the same store: every answer equal (the ids aside), text block included."""
    log = write_llmc_log(tmp_path / "train.log", 300)
    nan = write_llmc_log(tmp_path / "nan.log", 300, diverge_at=200)
    calls = [("assess_run", {"run": str(log)}), ("assess_run", {"run": str(nan), "total_steps": 1000}),
             ("read_metrics", {"run": str(log), "max_points": 5}), ("read_metrics", {"run": str(log), "keys": ["trl"]}),
             ("reschedule", {"run": str(log), "jobs": []}), ("assess_run", {"run": str(tmp_path / "missing.log")}),
             ("read_metrics", {"run": str(log), "max_points": 1})]  # the last: refused by the SDK's validation
    _session(tc_home, SERVER_ARGV, modern, [])  # records the answers of this era
    twin = tmp_path / "twin" / "tc-home"
    shutil.copytree(tc_home, twin) if tc_home.exists() else twin.mkdir(parents=True)
    ours = _session(tc_home, SERVER_ARGV, modern, calls)
    sdk = _session(twin, SDK_ONLY, modern, calls)
    assert len(ours) == len(sdk)
    for mine, theirs in zip(ours, sdk, strict=True):
        assert _without_ids(mine) == _without_ids(theirs)
        if "structuredContent" in mine:
            assert json.loads(mine["content"][0]["text"]) == mine["structuredContent"]
            assert json.loads(theirs["content"][0]["text"]) == theirs["structuredContent"]
            assert list(mine["structuredContent"]) == list(theirs["structuredContent"])  # the same text, key order too
        elif "content" in mine:
            assert mine["content"] == theirs["content"]
    assert "MCPDeprecationWarning" not in _stderr(tc_home) + _stderr(twin)


# -- the newest Claude Code ------------------------------------------------------------------------------------------
def claude_new_bin() -> str:
    """The newest Claude Code (2.1.337): CLAUDE_CODE_NEW_BIN, else the CI pin's path; CI fails when it is missing."""
    given = os.environ.get("CLAUDE_CODE_NEW_BIN")
    exe = given or next((p for p in CLAUDE_NEW_DEFAULTS if os.access(p, os.X_OK)), CLAUDE_NEW_DEFAULTS[0])
    require(Path(exe).is_file() and os.access(exe, os.X_OK),
            f"Claude Code 2.1.337 at {exe} (npm install -g --prefix /opt/claude-2.1.337 "
            f"@anthropic-ai/claude-code@2.1.337, or set CLAUDE_CODE_NEW_BIN)")
    return exe


@pytest.mark.parametrize("before,then", [(INIT, DISCOVER), (DISCOVER, INIT)], ids=["legacy-then-modern",
                                                                                   "modern-then-legacy"])
def test_after_a_client_of_one_era_the_other_eras_first_answer_is_fast(tc_home, before, then):
    """One start of the SDK records both eras: a 2026-07-28 probe after only 2025-11-25 clients used the install
    (the case that lost Claude Code 2.1.332 its tools) is answered at once, and the other way round."""
    _clear_cache()
    w = Wire(tc_home)
    assert "result" in w.request(0, before["method"], before["params"])
    assert w.close() == 0
    took = []
    for _ in range(3):
        w = Wire(tc_home)
        w.send(then)
        assert "result" in w.answer(0)
        took.append(time.perf_counter() - w.t0)
        assert w.close() == 0
    assert statistics.median(took) <= 0.3, (then["method"], took)


class OneAssessment(Player):
    """Plays the model for one call: loads the tool through ToolSearch (2.1.332 defers MCP tools) and calls it."""

    def next(self, check: Check, tools: set[str]) -> tuple[str, dict] | str:
        done = [name for name, _, _ in check.steps]
        if MCP + "assess_run" in done:
            return "done"
        if MCP + "assess_run" in tools:
            return MCP + "assess_run", {"run": check.run}
        if "ToolSearch" in tools and "ToolSearch" not in done:
            return "ToolSearch", {"query": f"select:{MCP}assess_run", "max_results": 5}
        return "The training-check tools are not connected."


@pytest.mark.parametrize("history", ["after-a-2025-11-25-client", "fresh-install"])
def test_claude_code_2_1_332_keeps_its_tools(tc_home, tmp_path, history):
    """The lost-tools bug: a 2025-11-25 client records the handshake, then Claude Code 2.1.332 probes with
    server/discover; its assess_run must be answered (it was refused with -32602 '_meta is missing the required
    envelope key(s)' when the front answered the fallback initialize while the SDK served 2026-07-28). On a fresh
    install the SDK answers the probe (if that takes longer than Claude Code waits, its fallback initialize is
    refused with -32022 and it probes again): the tools work either way."""
    exe = claude_new_bin()
    _clear_cache()
    if history == "after-a-2025-11-25-client":
        _legacy_client_uses_the_install(tc_home)
    log = write_llmc_log(tmp_path / "train.log", 300)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE", "MCP_", "OPENAI_"))}
    env.update(HOME=str(home), TRAINING_CHECK_HOME=str(tc_home), DISABLE_AUTOUPDATER="1")
    script = Path(sys.prefix) / "bin" / "training-check"
    subprocess.run([exe, "mcp", "add", "-s", "user", "training-check", "--", str(script), "serve"], cwd=home,
                   env=env, check=True, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    for attempt in range(2):  # the second session starts from the answers the first one recorded
        with AnthropicStub(OneAssessment()) as stub:
            p = subprocess.run([exe, "-p", f"The arguments are: `{log}`", "--output-format", "stream-json",
                                "--verbose", "--allowedTools", f"{MCP}assess_run,ToolSearch"], cwd=home,
                               env={**env, "ANTHROPIC_BASE_URL": stub.base_url, "ANTHROPIC_API_KEY": "sk-ant-dummy"},
                               capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL, check=False)
            assert p.returncode == 0, p.stdout[-1500:] + p.stderr[-1500:]
            assert [c.name for c in stub.calls][-1:] == [MCP + "assess_run"], (attempt, stub.calls, p.stdout[-1500:])
            result = stub.checks_seen[-1].steps[-1][2]
            assert isinstance(result, dict) and result.get("verdict") == "CONTINUE", (attempt, result)


def test_the_front_serves_only_arguments_it_can_prove_and_dumps_as_pydantic_does():
    """What the front takes from the listed input schema: a value pydantic would coerce or refuse, an unknown
    argument or an unknown schema keyword goes to the SDK; answers are dumped as the output schema types them."""
    from training_check.server.front_calls import Unsure, call_arguments, conforms, dump

    schema = {"type": "object", "required": ["run"], "properties": {
        "run": {"type": "string"}, "max_points": {"type": "integer", "minimum": 2, "maximum": 2000, "default": 50},
        "keys": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}], "default": None}}}
    assert call_arguments("read_metrics", {"run": "r"}, schema) == (["r"], {"max_points": 50, "keys": None})
    assert call_arguments("read_metrics", {"run": "r", "keys": ["a"]}, schema)[1]["keys"] == ["a"]
    for bad in ({"run": "r", "max_points": "5"}, {"run": "r", "max_points": 5.0}, {"run": "r", "max_points": 1},
                {"run": "r", "keys": "a"}, {"run": "r", "extra": 1}, {}, {"run": 3}, {"run": "r", "max_points": True}):
        with pytest.raises(Unsure):
            call_arguments("read_metrics", bad, schema)
    with pytest.raises(Unsure):
        conforms("x", {"type": "string", "pattern": "^x$"}, {})
    out = {"type": "object", "properties": {
        "value": {"type": "number"}, "step": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "extra": {"type": "object", "additionalProperties": True},
        "items": {"type": "array", "items": {"$ref": "#/$defs/M"}}},
        "$defs": {"M": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "string"}}}}}
    got = dump({"value": 3, "step": None, "extra": {"k": None}, "items": [{"a": 1, "b": None}]}, out, out["$defs"])
    assert got == {"value": 3.0, "extra": {"k": None}, "items": [{"a": 1.0}]}
    assert isinstance(got["value"], float)
    with pytest.raises(Unsure):
        dump({"value": 1, "unknown": 2}, out, out["$defs"])
