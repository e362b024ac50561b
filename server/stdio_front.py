"""The stdio transport with a fast first answer: ``initialize`` and the lists are answered before the SDK loads.

Importing the MCP SDK, pydantic and the domain takes a second or more, and
clients that connect asynchronously (Claude Code) start the conversation
without our tools if the server has not listed them by then. So ``serve``
(stdio) starts a small front made of the standard library only:

- it owns the real stdin/stdout (fd 0 is pointed at /dev/null and fd 1 at
  stderr, so nothing stray reaches the wire) and forwards every client message,
  unchanged and in order, to the SDK server through a pipe;
- it answers ``initialize``, ``ping`` and ``tools/list`` / ``prompts/list`` /
  ``resources/list`` / ``resources/templates/list`` itself, at once, from the
  SDK's own answers recorded on an earlier start (a cache keyed by a
  fingerprint of this package's files and the SDK's version, so a changed tool
  is never listed stale: the output schemas are built from the result
  definitions in tools/, whose files are part of the fingerprint); the SDK's
  later answer to the same request is dropped;
- everything else (tool calls, reads) is answered by the SDK when it is up.

On the first start after an install or a change nothing is cached yet and the
SDK answers everything (a slower start, never a wrong one); its answers are
recorded for the next start. SIGINT and SIGTERM end the server cleanly: the
SDK sees end of input, and the process exits within a second.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import queue
import signal
import sys
import threading
from pathlib import Path
from typing import Any

CACHED_METHODS = ("initialize", "tools/list", "prompts/list", "resources/list", "resources/templates/list")
EXIT_GRACE_S = 0.7
FIRST_ANSWER_WAIT_S = 0.5
PACKAGE = Path(__file__).resolve().parents[1]  # training_check (server/, tools/, prompts/)
CACHE_NAME = "first-answers-{}.json"


# -- the recorded answers ------------------------------------------------------------------------------------------
def fingerprint() -> str:
    """Changes whenever a file of this package or the MCP SDK's version changes."""
    h = hashlib.sha256()
    for sub in ("server", "tools", "prompts"):
        for root, dirs, files in os.walk(PACKAGE / sub):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".md")):
                    st = os.stat(os.path.join(root, name))
                    h.update(f"{root}/{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    for name in ("mcp", "mcp_types", "pydantic"):  # an upgraded SDK rewrites its files (cheaper than metadata)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            st = os.stat(spec.origin)
            h.update(f"{spec.origin}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    h.update(sys.version.encode())
    return h.hexdigest()[:16]


def cache_dirs() -> list[Path]:
    """Where the recorded answers live: beside the bytecode of this package, else the user's cache folder."""
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return [PACKAGE / "server" / "__pycache__", Path(xdg) / "training-check"]


class Answers:
    """The SDK's answers to the list requests, by (method, protocol version)."""

    def __init__(self, fp: str):
        self.fp = fp
        self.entries: dict[str, Any] = {}
        self.dirty = False
        for d in cache_dirs():
            try:
                data = json.loads((d / CACHE_NAME.format(fp)).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and data.get("fingerprint") == fp and isinstance(data.get("entries"), dict):
                self.entries = data["entries"]
                break

    def get(self, method: str, version: str | None) -> Any:
        return self.entries.get(f"{method} {version}")

    def record(self, method: str, version: str | None, result: Any) -> None:
        key = f"{method} {version}"
        if self.entries.get(key) != result:
            self.entries[key] = result
            self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        text = json.dumps({"fingerprint": self.fp, "entries": self.entries}, separators=(",", ":"))
        for d in cache_dirs():
            path = d / CACHE_NAME.format(self.fp)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            try:
                d.mkdir(parents=True, exist_ok=True)
                tmp.write_text(text, encoding="utf-8")
                os.replace(tmp, path)
            except OSError:
                try:
                    tmp.unlink()
                except OSError:
                    pass
                continue
            self.dirty = False
            return


# -- the front -----------------------------------------------------------------------------------------------------
class Front:
    """Forwards the wire to the SDK's pipes, answering the cached requests itself."""

    def __init__(self, wire_in, wire_out, answers: Answers):
        self.wire_in, self.wire_out, self.answers = wire_in, wire_out, answers
        self.lock = threading.Lock()
        self.pending: dict[Any, tuple[str, str | None, bool]] = {}  # id -> (method, version, answered here)
        self.version: str | None = None
        self.to_sdk: queue.Queue[bytes | None] = queue.Queue()
        self.sdk_in_r, self.sdk_in_w = os.pipe()
        self.sdk_out_r, self.sdk_out_w = os.pipe()
        self.closed = threading.Event()
        self.exit_code = 0  # 130 after SIGINT
        self.first_answered = threading.Event()  # the client has its lists (or asked for what only the SDK knows)
        self.threads = [threading.Thread(target=t, name=f"stdio-{t.__name__}", daemon=True)
                        for t in (self._read_wire, self._feed_sdk, self._copy_sdk)]

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def end_input(self) -> None:
        """The SDK sees end of input (the client left, or a signal asked us to stop)."""
        self.to_sdk.put(None)

    def emit(self, data: bytes) -> None:
        with self.lock:
            try:
                self.wire_out.write(data.rstrip(b"\n") + b"\n")
                self.wire_out.flush()
            except (OSError, ValueError):  # the client is gone
                self.end_input()

    def _local(self, msg: dict) -> Any:
        """The cached answer to this request, or None."""
        method, params = msg.get("method"), msg.get("params") or {}
        if method == "ping":
            return {}
        if method not in CACHED_METHODS or not isinstance(params, dict):
            return None
        if method == "initialize":
            return self.answers.get(method, params.get("protocolVersion"))
        if params.get("cursor") is not None:
            return None
        return self.answers.get(method, self.version)

    def _read_wire(self) -> None:
        try:
            for line in self.wire_in:
                if not line.strip():
                    continue
                try:
                    msg = json.loads(line)
                except ValueError:
                    msg = None
                if isinstance(msg, dict) and "method" in msg and msg.get("id") is not None:
                    method = msg["method"]
                    if method == "initialize" and isinstance(msg.get("params"), dict):
                        self.version = msg["params"].get("protocolVersion")
                    answer = self._local(msg)
                    with self.lock:
                        self.pending[msg["id"]] = (method, self.version, answer is not None)
                    if answer is not None:
                        self.emit(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": answer},
                                             separators=(",", ":")).encode())
                    if answer is None or method == "tools/list":
                        self.first_answered.set()
                self.to_sdk.put(line)
        except (OSError, ValueError):
            pass
        self.end_input()
        self.first_answered.set()

    def _feed_sdk(self) -> None:
        with os.fdopen(self.sdk_in_w, "wb", buffering=0) as pipe:
            while (line := self.to_sdk.get()) is not None:
                try:
                    pipe.write(line if line.endswith(b"\n") else line + b"\n")
                except OSError:
                    break

    def _copy_sdk(self) -> None:
        with os.fdopen(self.sdk_out_r, "rb") as pipe:
            for line in pipe:
                try:
                    msg = json.loads(line)
                except ValueError:
                    msg = None
                if isinstance(msg, dict) and "method" not in msg and msg.get("id") is not None:
                    with self.lock:
                        method, version, answered = self.pending.pop(msg["id"], (None, None, False))
                    if method in CACHED_METHODS and isinstance(msg.get("result"), dict) \
                            and not msg["result"].get("nextCursor"):
                        self.answers.record(method, version, msg["result"])
                        if method != "initialize":
                            self.answers.save()
                    if answered:
                        continue  # the client has this answer already
                self.emit(line)
        self.answers.save()
        self.closed.set()


def _claim_wire():
    """The real stdin/stdout for the front; fd 0 reads /dev/null and fd 1 writes to stderr from now on."""
    wire_in = os.fdopen(os.dup(0), "rb")
    wire_out = os.fdopen(os.dup(1), "wb", buffering=0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdout.flush()
    os.dup2(2, 1)
    return wire_in, wire_out


def serve_stdio() -> int:
    """Serve MCP over stdio with the fast front; returns the exit code."""
    wire_in, wire_out = _claim_wire()
    front = Front(wire_in, wire_out, Answers(fingerprint()))
    _stop_on_signals(front)
    front.start()
    if front.answers.entries:  # let the front answer first: the SDK's import would hold the interpreter meanwhile
        front.first_answered.wait(FIRST_ANSWER_WAIT_S)

    import anyio

    from .app import create_server

    server = create_server()
    sdk_in = open(front.sdk_in_r, encoding="utf-8", errors="replace")  # noqa: SIM115 - closed by _run_sdk
    sdk_out = open(front.sdk_out_w, "w", encoding="utf-8")  # noqa: SIM115 - closed by _run_sdk
    anyio.run(_run_sdk, server, anyio.wrap_file(sdk_in), anyio.wrap_file(sdk_out))
    front.closed.wait(EXIT_GRACE_S)
    # The session is over and every answer is written: leave now. Tearing the interpreter down (the SDK's and
    # the domain's modules, idle worker threads) takes longer than a client waits after a signal.
    sys.stderr.flush()
    os._exit(front.exit_code)


def _stop_on_signals(front: Front) -> None:
    """SIGINT/SIGTERM: end the SDK's input at once, exit within EXIT_GRACE_S whatever is still running.

    The signal may land on any thread while the main one waits in the event loop, where a Python handler would
    run late; the wakeup fd hears it at once, and a small thread acts on it."""
    stopping = threading.Event()

    def stop(signum: int) -> None:
        code = 130 if signum == signal.SIGINT else 0
        if stopping.is_set():
            return
        stopping.set()
        front.exit_code = code
        front.end_input()
        timer = threading.Timer(EXIT_GRACE_S, os._exit, (code,))
        timer.daemon = True
        timer.start()

    r, w = os.pipe()
    os.set_blocking(w, False)
    signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, lambda signum, _frame: stop(signum))

    def watch() -> None:
        while data := os.read(r, 16):
            for signum in data:
                if signum in (signal.SIGINT, signal.SIGTERM):
                    stop(signum)

    threading.Thread(target=watch, name="stdio-signals", daemon=True).start()


async def _run_sdk(server, sdk_in, sdk_out) -> None:
    from mcp.server.stdio import stdio_server

    try:
        async with stdio_server(stdin=sdk_in, stdout=sdk_out) as (read_stream, write_stream):
            low = server._lowlevel_server  # what MCPServer.run_stdio_async runs, over our pipes
            await low.run(read_stream, write_stream, low.create_initialization_options())
    finally:
        await sdk_out.aclose()
        await sdk_in.aclose()
