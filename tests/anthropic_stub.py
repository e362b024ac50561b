"""An Anthropic Messages API on 127.0.0.1 that plays the model for Claude Code by following /training-check.

Claude Code (``claude -p``, ``ANTHROPIC_BASE_URL`` pointed here) sends
``POST /v1/messages`` (streamed: the answer is SSE ``message_start`` /
``content_block_start`` / ``content_block_delta`` (``text_delta``,
``input_json_delta``) / ``content_block_stop`` / ``message_delta`` /
``message_stop``; a non-streamed request gets the same message as JSON) and
side requests (token counting, a title, a quick haiku call). A request whose
conversation holds the expanded slash command and whose tools include the
training-check tools is the check: the stub reads the arguments from the
command text, splits off ``target=``/``host=`` as the command says, reads the
tool results so far and emits the next tool call the command prescribes
(assess_run -> on ESCALATE escalate_to_reviewer -> on STOP stop_run ->
CronList -> reschedule -> CronDelete each / CronCreate exactly as answered ->
a final text), loading deferred tools with ToolSearch first as the command
says (Claude Code 2.1.332 defers MCP and Cron tools). A fired job whose prompt
Claude Code asks to run through the Skill tool (2.1.332) gets that Skill call.
Since 2.1.337 plan mode has an action that is not read-only (a CronCreate)
judged first by a "security monitor" request (no tools, answer
``<block>no</block>`` or ``<block>yes</block><category>...``): the stub
plays it too, allowing the check's own actions (training-check's tools, Cron
jobs whose prompt is a /training-check) and blocking anything else; each
judgement is logged (``monitored``).
Anything else gets a short plain reply. Every tool call it makes
is logged (``calls``) with its input, and every tool result it read
(``results``), for the test to assert on.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from .standins import sse_event

MCP = "mcp__training-check__"
NEEDED = [MCP + t for t in ("assess_run", "escalate_to_reviewer", "stop_run", "reschedule")] + [
    "CronList", "CronCreate", "CronDelete"]
SKILL_REMINDER = "call the Skill tool for \"training-check\""
LIFETIME = re.compile(r"auto-expire[sd]? after (\d+) days?", re.IGNORECASE)
ARGS_LINE = re.compile(r"The arguments are: `([^`\n]*)`")
SPLIT = re.compile(r"\s+(?=(?:target|host|durable)=)")


@dataclass
class Call:
    name: str
    input: dict
    at: float  # seconds since the stub started


@dataclass
class Check:
    """One /training-check conversation turn as the stub sees it."""

    arguments: str
    run: str
    target: str | None
    host: str | None
    durable: bool
    steps: list[tuple[str, dict, Any]] = field(default_factory=list)  # (tool, input, parsed result)


def split_arguments(arguments: str) -> tuple[str, str | None, str | None, bool]:
    """The command's rule: the run is what precedes the first target=/host=/durable=."""
    pieces = SPLIT.split(re.sub(r"^#[0-9a-f]{8}\s+", "", arguments.strip()))
    opts = dict(p.split("=", 1) for p in pieces[1:])
    return pieces[0], opts.get("target"), opts.get("host"), opts.get("durable", "").lower() == "true"


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text_of(c.get("text") if c.get("type") == "text" else c.get("content", ""))
                         for c in content if isinstance(c, dict))
    return ""


def _json_in(text: str) -> Any:
    """The JSON object a tool result carries (MCP tools answer compact JSON; CronList may add prose)."""
    text = text.strip()
    try:
        return json.loads(text)
    except ValueError:
        pass
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start >= 0:
        try:
            return json.JSONDecoder().raw_decode(text[start:])[0]
        except ValueError:
            pass
    return text


def read_check(body: dict) -> Check | None:
    """The check in progress in this request (the last user message with the command text), or None."""
    messages = body.get("messages") or []
    start = None
    for i, m in enumerate(messages):
        if m.get("role") == "user":
            found = ARGS_LINE.findall(_text_of(m.get("content")))
            if found:
                start, arguments = i, found[-1]
    if start is None:
        return None
    run, target, host, durable = split_arguments(arguments)
    check = Check(arguments, run, target, host, durable)
    uses: dict[str, tuple[str, dict]] = {}
    for m in messages[start + 1:]:
        for block in m.get("content") if isinstance(m.get("content"), list) else []:
            if block.get("type") == "tool_use":
                uses[block["id"]] = (block["name"], block.get("input") or {})
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in uses:
                name, inp = uses[block["tool_use_id"]]
                result = _text_of(block.get("content"))
                check.steps.append((name, inp, {"error": result} if block.get("is_error") else _json_in(result)))
    return check


def cron_jobs(result: Any) -> list[dict]:
    """The jobs of a CronList result as the command asks: each job line copied exactly, ``{"line": ...}``."""
    if isinstance(result, dict) and isinstance(result.get("jobs"), list):
        return result["jobs"]
    if isinstance(result, list):
        return result
    return [{"line": line} for line in str(result).splitlines() if re.match(r"^\S+ \u2014 ", line)]


def cron_step(check: Check, sched: dict) -> tuple[str, dict] | None:
    """The cron call a reschedule answer asks for next: each of its ``cron_delete`` jobs not deleted yet, then its
    ``cron_create`` once; None when all are made."""
    deleted = [inp.get("id") for name, inp, _ in check.steps if name == "CronDelete"]
    for d in sched.get("cron_delete") or []:
        if d.get("id") not in deleted:
            return "CronDelete", dict(d)
    if sched.get("cron_create") and all(s[0] != "CronCreate" for s in check.steps):
        return "CronCreate", dict(sched["cron_create"])
    return None


def fired_job(body: dict) -> str | None:
    """The arguments of a fired job's prompt Claude Code asks to run through the Skill tool (2.1.332), or None."""
    messages = body.get("messages") or []
    last = messages[-1] if messages else {}
    if last.get("role") != "user" or SKILL_REMINDER not in _text_of(last.get("content")):
        return None
    for line in _text_of(last.get("content")).splitlines():
        if line.startswith("/training-check "):
            return line.removeprefix("/training-check ").strip()
    return None


def monitored_action(body: dict) -> str | None:
    """The action a security-monitor request (Claude Code's auto-mode check, 2.1.337 plan mode) asks about: the
    transcript's last entry, a one-key JSON object ``{tool: summary}``; None for any other request."""
    system = body.get("system")
    text = _text_of(system) if isinstance(system, list) else str(system or "")
    if "security monitor" not in text or "<block>" not in text:
        return None
    shown = _text_of((body.get("messages") or [{}])[-1].get("content"))
    transcript = shown.rpartition("<transcript>")[2].partition("</transcript>")[0]
    lines = [ln for ln in transcript.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def allowed(action: str) -> bool:
    """The check's own actions: training-check's tools, and Cron jobs that run /training-check."""
    entry = _json_in(action)
    if not isinstance(entry, dict) or len(entry) != 1:
        return False
    (tool, summary), = entry.items()
    if tool.startswith(MCP) or tool in ("CronList", "CronDelete"):
        return True
    return tool == "CronCreate" and ": /training-check " in str(summary)


def loaded_tools(body: dict) -> set[str]:
    """The tools the model can call: the request's, and those a ToolSearch result loaded."""
    names = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
    for m in body.get("messages") or []:
        for block in m.get("content") if isinstance(m.get("content"), list) else []:
            for ref in block.get("content") if isinstance(block.get("content"), list) else []:
                if isinstance(ref, dict) and ref.get("type") == "tool_reference":
                    names.add(ref.get("tool_name"))
    return names


def stated_lifetime(body: dict) -> int | None:
    """The N of "auto-expire after N days" in CronCreate's description (what the command asks to pass)."""
    for t in body.get("tools") or []:
        if isinstance(t, dict) and t.get("name") == "CronCreate":
            m = LIFETIME.search(str(t.get("description") or ""))
            if m:
                return int(m.group(1))
    return None


class Player:
    """Decides the next step of the check from the command text's rules."""

    lifetime: int | None = None  # CronCreate's stated lifetime of recurring jobs, read from the request

    def next(self, check: Check, tools: set[str]) -> tuple[str, dict] | str:
        """A (tool, input) to call, or the final text."""
        done = [s[0] for s in check.steps]
        if not {MCP + "assess_run", MCP + "reschedule", "CronList"} <= tools:
            if "ToolSearch" in tools and done.count("ToolSearch") < 2:
                return "ToolSearch", {"query": "select:" + ",".join(NEEDED)}
            waiting = sorted(t for t in tools if t.startswith("WaitForMcp"))  # the client's tool to wait for servers
            if waiting and waiting[0] not in done:
                return waiting[0], {"servers": ["training-check"]}
            return "The training-check tools are not connected; no check was made."
        last = {name: result for name, _, result in check.steps}
        assess = last.get(MCP + "assess_run")
        if assess is None:
            return MCP + "assess_run", {"run": check.run}
        aid = assess.get("assessment_id") if isinstance(assess, dict) else None
        verdict = assess.get("verdict") if isinstance(assess, dict) else None
        review = last.get(MCP + "escalate_to_reviewer")
        if verdict == "ESCALATE" and review is None:
            concern = assess.get("concern") or assess.get("summary") or "ambiguous findings"
            return MCP + "escalate_to_reviewer", {"assessment_id": aid, "concern": str(concern)[:400]}
        review_stop = isinstance(review, dict) and review.get("decision") == "STOP"
        if (verdict == "STOP" or review_stop) and MCP + "stop_run" not in done:
            args = {"run": check.run, "reason": f"{assess.get('summary')}"[:400]}
            args.update({"review_id": review["review_id"]} if review_stop else {"assessment_id": aid})
            args.update({k: v for k, v in (("target", check.target), ("host", check.host)) if v})
            return MCP + "stop_run", args
        if "CronList" not in done:
            return "CronList", {}
        sched = last.get(MCP + "reschedule")
        if sched is None:
            args = {"run": check.run, "assessment_id": aid, "jobs": cron_jobs(last["CronList"])}
            if self.lifetime:
                args["job_lifetime_days"] = self.lifetime
            args.update({k: v for k, v in (("target", check.target), ("host", check.host)) if v})
            if check.durable:
                args["durable"] = True
            return MCP + "reschedule", args
        cron = cron_step(check, sched)
        if cron is not None:
            return cron
        stop = last.get(MCP + "stop_run")
        parts = [f"Verdict {verdict}."]
        if review is not None:
            parts.append(f"Reviewer: {review.get('decision') if isinstance(review, dict) else review}.")
        if stop is not None:
            parts.append(f"Stopped: {stop.get('summary') if isinstance(stop, dict) else stop} "
                         f"Evidence: {stop.get('evidence_path') if isinstance(stop, dict) else '-'}.")
        parts.append(sched.get("summary", ""))
        return " ".join(parts)


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:  # a client that hangs up early is no news
        pass


class AnthropicStub:
    """The server; use as a context manager. ``base_url`` goes into ANTHROPIC_BASE_URL."""

    def __init__(self, player: Player | None = None):
        self.player = player or Player()
        self.calls: list[Call] = []
        self.requests: list[dict] = []  # {path, kind, tools}
        self.monitored: list[tuple[str, bool]] = []  # (action, allowed) of each security-monitor request
        self.checks_seen: list[Check] = []
        self.t0 = time.monotonic()
        self._lock = threading.Lock()
        self._n = 0
        self._httpd = _QuietServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def tool_calls(self) -> list[str]:
        return [c.name.removeprefix(MCP) for c in self.calls]

    # -- the model -------------------------------------------------------------------------------------------
    def answer(self, body: dict) -> tuple[list[dict], str]:
        """Content blocks and the stop reason for one /v1/messages request."""
        action = monitored_action(body)
        if action is not None:
            verdict = allowed(action)
            with self._lock:
                self.monitored.append((action, verdict))
            if verdict:
                return [{"type": "text", "text": "<block>no"}], "stop_sequence"
            return [{"type": "text", "text": "<block>yes</block><category>Unverified Action</category><reason>"
                                             "[Unverified Action] not one of the check's own actions"}], "end_turn"
        tools = loaded_tools(body)
        check = read_check(body) if tools else None
        fired = fired_job(body) if tools and "Skill" in tools else None
        with self._lock:
            self.requests.append({"kind": "check" if check else "fired" if fired else "side", "tools": sorted(tools)})
            self._n += 1
            n = self._n
        if fired is not None:
            with self._lock:
                self.calls.append(Call("Skill", {"skill": "training-check", "args": fired},
                                       round(time.monotonic() - self.t0, 3)))
            return [{"type": "tool_use", "id": f"toolu_{n:06d}", "name": "Skill",
                     "input": {"skill": "training-check", "args": fired}}], "tool_use"
        if check is None:
            return [{"type": "text", "text": "Training check"}], "end_turn"
        self.player.lifetime = stated_lifetime(body) or self.player.lifetime
        step = self.player.next(check, tools)
        with self._lock:
            self.checks_seen.append(check)
        if isinstance(step, str):
            return [{"type": "text", "text": step}], "end_turn"
        name, inp = step
        with self._lock:
            self.calls.append(Call(name, inp, round(time.monotonic() - self.t0, 3)))
        return [{"type": "tool_use", "id": f"toolu_{n:06d}", "name": name, "input": inp}], "tool_use"

    def _handler(self):
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a) -> None:
                pass

            def _json(self, status: int, obj: dict) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "not here"}})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                if path.endswith("/count_tokens"):
                    return self._json(200, {"input_tokens": 100})
                if not path.endswith("/v1/messages"):
                    return self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": path}})
                content, stop = stub.answer(body)
                ended_by = "</block>" if stop == "stop_sequence" else None
                model = body.get("model") or "claude-stub"
                if not body.get("stream"):
                    return self._json(200, {"id": "msg_stub", "type": "message", "role": "assistant", "model": model,
                                            "content": content, "stop_reason": stop, "stop_sequence": ended_by,
                                            "usage": {"input_tokens": 100, "output_tokens": 20}})
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                self.close_connection = True

                def event(kind: str, data: dict) -> None:
                    self.wfile.write(sse_event(kind, {"type": kind, **data}))

                event("message_start", {"message": {"id": "msg_stub", "type": "message", "role": "assistant",
                                                    "model": model, "content": [], "stop_reason": None,
                                                    "stop_sequence": None,
                                                    "usage": {"input_tokens": 100, "output_tokens": 1}}})
                for i, block in enumerate(content):
                    if block["type"] == "text":
                        event("content_block_start", {"index": i, "content_block": {"type": "text", "text": ""}})
                        event("content_block_delta", {"index": i, "delta": {"type": "text_delta",
                                                                            "text": block["text"]}})
                    else:
                        event("content_block_start", {"index": i, "content_block": {
                            "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}})
                        event("content_block_delta", {"index": i, "delta": {
                            "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})
                    event("content_block_stop", {"index": i})
                event("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": ended_by},
                                        "usage": {"output_tokens": 20}})
                event("message_stop", {})
                self.wfile.flush()

        return Handler
