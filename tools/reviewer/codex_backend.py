"""The Codex reviewer backend: a minimal MCP stdio client of ``codex mcp-server`` calling its ``codex`` tool.

tools/ never imports the ``mcp`` package, so this speaks the protocol itself:
newline-delimited JSON-RPC 2.0 over the child's stdin/stdout (initialize ->
notifications/initialized -> tools/call), with deadlines on every wait, and
the child (started from an argv list, never a shell) cleaned up on exit.
The tool's real arguments (openai/codex, codex-rs/mcp-server/src/codex_tool_config.rs):
``prompt``, ``model``, ``cwd``, ``approval-policy``, ``sandbox``, ``config``
(config.toml overrides, where ``model_reasoning_effort`` lives),
``developer-instructions``, ...; the reply's text is the agent's last message.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections import deque

from ..errors import ReviewerError

DEFAULT_COMMAND = "codex mcp-server"
PROTOCOL_VERSION = "2025-06-18"
CLIENT_INFO = {"name": "training-check", "version": "0.1.0"}
REASONING_EFFORT = "high"
STDERR_TAIL_LINES = 20
MAX_LINE_BYTES = 8 * 1024 * 1024
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSW", re.I)


def command_argv(command: str | list[str] | None) -> list[str]:
    """The argv of the codex MCP server command (a string is split like a shell would, but no shell runs it)."""
    if command is None or command == "":
        command = DEFAULT_COMMAND
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise ReviewerError(f"cannot read REVIEWER_CODEX_COMMAND {command!r}: {e}") from None
    else:
        argv = [str(a) for a in command]
    if not argv:
        raise ReviewerError("REVIEWER_CODEX_COMMAND is empty: set it to e.g. 'codex mcp-server'")
    return argv


class McpStdioClient:
    """One MCP server child process and the JSON-RPC exchange with it."""

    def __init__(self, argv: list[str], *, cwd: str | None = None, env: dict[str, str] | None = None,
                 startup_timeout_s: float = 30.0):
        self.argv = argv
        self.cwd = cwd
        self.env = env
        self.startup_timeout_s = startup_timeout_s
        self._proc: subprocess.Popen | None = None
        self._stderr_thread: threading.Thread | None = None
        self._inbox: queue.Queue = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        self._next_id = 1
        self._write_lock = threading.Lock()
        self.server_info: dict = {}

    # -- process ---------------------------------------------------------------------
    def start(self) -> None:
        exe = shutil.which(self.argv[0]) if not os.path.dirname(self.argv[0]) else self.argv[0]
        if not exe or not os.path.exists(exe):
            raise ReviewerError(f"cannot start the codex reviewer: {self.argv[0]!r} not found; install the Codex "
                                f"CLI (npm install -g @openai/codex) or set REVIEWER_CODEX_COMMAND")
        try:
            self._proc = subprocess.Popen(
                [exe, *self.argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self.cwd, env=self.env, start_new_session=True, close_fds=True)
        except OSError as e:
            raise ReviewerError(f"cannot start the codex reviewer {shlex.join(self.argv)!r}: {e.strerror}") from None
        threading.Thread(target=self._read_stdout, name="codex-mcp-stdout", daemon=True).start()
        self._stderr_thread = threading.Thread(target=self._read_stderr, name="codex-mcp-stderr", daemon=True)
        self._stderr_thread.start()

    def _read_stdout(self) -> None:
        assert self._proc and self._proc.stdout
        for raw in iter(lambda: self._proc.stdout.readline(MAX_LINE_BYTES), b""):
            line = raw.strip()
            if not line:
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                self._stderr.append("(non-JSON line on stdout) " + line[:200].decode("utf-8", "replace"))
                continue
            if isinstance(msg, dict):
                self._inbox.put(msg)
        self._inbox.put(None)  # EOF: the server exited

    def _read_stderr(self) -> None:
        assert self._proc and self._proc.stderr
        for raw in iter(self._proc.stderr.readline, b""):
            text = raw.decode("utf-8", "replace").strip()
            if text:
                self._stderr.append(text)

    def stderr_tail(self, n: int = 3) -> str:
        """The server's last ``n`` stderr lines, on one line, with every secret-looking env value blanked."""
        text = " | ".join(list(self._stderr)[-n:])
        env = self.env if self.env is not None else os.environ
        for name, value in env.items():
            if _SECRET_NAME.search(name) and value and len(value) >= 8:
                text = text.replace(value, "***")
        return text[:400]

    def close(self, grace_s: float = 2.0) -> None:
        """Close stdin, wait ``grace_s``, then SIGTERM and SIGKILL the server's process group."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        try:
            if proc.stdin:
                proc.stdin.close()
        except OSError:
            pass
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                try:
                    os.killpg(proc.pid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                proc.wait(timeout=grace_s)
                break
            except subprocess.TimeoutExpired:
                continue
        for stream in (proc.stdout, proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass

    def __enter__(self) -> "McpStdioClient":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- JSON-RPC --------------------------------------------------------------------
    def _send(self, msg: dict) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise ReviewerError("the codex reviewer is not running")
        data = (json.dumps(msg, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            with self._write_lock:
                proc.stdin.write(data)
                proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._exited(str(msg.get("method") or "a reply")) from None

    def _exited(self, during: str) -> ReviewerError:
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=1.0)  # let the server's last words arrive
        return ReviewerError(f"the codex reviewer exited during {during}: "
                             f"{self.stderr_tail() or 'no message on stderr'}")

    def notify(self, method: str, params: dict | None = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})})

    def request(self, method: str, params: dict, timeout_s: float) -> dict:
        """Send a request and wait up to ``timeout_s`` for its response (answering the server's own requests)."""
        rid = self._next_id
        self._next_id += 1
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.monotonic() + timeout_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._cancel(rid)
                raise ReviewerError(f"the codex reviewer did not answer {method} within {timeout_s:g}s: "
                                    f"try again later or raise REVIEWER_TIMEOUT_S")
            try:
                msg = self._inbox.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if msg is None:
                self._inbox.put(None)
                raise self._exited(method)
            if "method" in msg:
                if "id" in msg:  # a request from the server (ping, elicitation, sampling, roots): answer it
                    self._answer_server_request(msg)
                continue  # notifications (codex/event, progress, log messages) are not needed
            if msg.get("id") != rid:
                continue
            if "error" in msg:
                err = msg["error"] if isinstance(msg["error"], dict) else {"message": msg["error"]}
                raise ReviewerError(f"the codex reviewer refused {method}: "
                                    f"{' '.join(str(err.get('message', err)).split())[:300]}")
            result = msg.get("result")
            return result if isinstance(result, dict) else {}

    def _answer_server_request(self, msg: dict) -> None:
        if msg.get("method") == "ping":
            self._send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
        elif msg.get("method") == "elicitation/create":  # e.g. an approval request: always decline
            self._send({"jsonrpc": "2.0", "id": msg["id"], "result": {"action": "decline"}})
        else:
            self._send({"jsonrpc": "2.0", "id": msg["id"],
                        "error": {"code": -32601, "message": f"training-check does not support {msg.get('method')}"}})

    def _cancel(self, rid: int) -> None:
        try:
            self.notify("notifications/cancelled", {"requestId": rid, "reason": "timeout"})
        except ReviewerError:
            pass

    def initialize(self) -> dict:
        result = self.request("initialize", {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                                             "clientInfo": CLIENT_INFO}, self.startup_timeout_s)
        self.server_info = result.get("serverInfo") or {}
        self.notify("notifications/initialized")
        return result

    def call_tool(self, name: str, arguments: dict, timeout_s: float) -> dict:
        return self.request("tools/call", {"name": name, "arguments": arguments}, timeout_s)


def tool_result_text(result: dict) -> str:
    """The answer text of a ``codex`` tool result (structuredContent.content, else the text blocks)."""
    structured = result.get("structuredContent")
    if isinstance(structured, dict) and isinstance(structured.get("content"), str):
        return structured["content"]
    blocks = result.get("content")
    if isinstance(blocks, list):
        return "".join(b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text")
    return ""


class CodexReviewer:
    """Asks Codex (over MCP) for a decision; one ``codex`` tool call per ``ask``, one server per review."""

    name = "codex"

    def __init__(self, *, command: str | list[str] | None = DEFAULT_COMMAND, model: str | None = None,
                 timeout_s: float = 300.0, startup_timeout_s: float = 30.0, env: dict[str, str] | None = None):
        self.argv = command_argv(command)
        self.model = model
        self.timeout_s = timeout_s
        self._workdir = tempfile.mkdtemp(prefix="training-check-codex-")
        self._client = McpStdioClient(self.argv, cwd=self._workdir, env=env, startup_timeout_s=startup_timeout_s)
        self._started = False

    @property
    def display_model(self) -> str:
        return self.model or "codex default"

    def __enter__(self) -> "CodexReviewer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()
        shutil.rmtree(self._workdir, ignore_errors=True)

    def _ensure_started(self) -> None:
        if not self._started:
            self._client.start()
            self._started = True
            self._client.initialize()

    def arguments(self, system: str, text: str) -> dict:
        """The ``codex`` tool arguments: read-only sandbox, no approvals, reasoning effort high."""
        args: dict = {
            "prompt": text,
            "developer-instructions": system,
            "config": {"model_reasoning_effort": REASONING_EFFORT},
            "sandbox": "read-only",
            "approval-policy": "never",
            "cwd": self._workdir,
        }
        if self.model:
            args["model"] = self.model
        return args

    def ask(self, system: str, text: str) -> str:
        self._ensure_started()
        result = self._client.call_tool("codex", self.arguments(system, text), self.timeout_s)
        if result.get("isError") or ("error" in result and "content" not in result):
            detail = tool_result_text(result) or str(result.get("error", "no detail"))
            raise ReviewerError(f"codex reported an error: {' '.join(detail.split())[:300]}")
        return tool_result_text(result)
