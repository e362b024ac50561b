"""The stdio transport with a fast first answer: the handshake, the lists and plain tool calls before the SDK loads.

Importing the MCP SDK, pydantic and the domain takes a second or more, and
clients that connect asynchronously (Claude Code) start the conversation
without our tools if the server has not listed them by then; a cron check
starts a fresh server for one ``assess_run``. So ``serve`` (stdio) starts a
small front made of the standard library only:

- it owns the real stdin/stdout (fd 0 is pointed at /dev/null and fd 1 at
  stderr, so nothing stray reaches the wire), writes every message to the
  client redacted (``Front.emit``), and forwards client messages,
  unchanged and in order, to the SDK server through a pipe;
- one connection speaks one protocol era, decided by the client's first
  request exactly as the SDK decides it: a request carrying the 2026-07-28
  per-request ``_meta`` envelope (``server/discover`` first) opens a modern
  connection, anything else (``initialize``) a 2025 handshake one. The front
  answers only requests of the connection's era; a request of the other era
  goes to the SDK, which refuses it as the spec says (an ``initialize`` after
  the probe gets -32022 naming the served versions) -- the front never
  answers a handshake the SDK did not make;
- it answers ``initialize`` / ``server/discover``, ``ping`` and the lists
  itself, at once, from the SDK's own answers recorded on an earlier start,
  per protocol version (a cache keyed by a fingerprint of this package's files
  and the SDK's version, so a changed tool is never listed stale; read only
  when this user owns it and nobody else may write it, the rule of the user's
  config); the SDK's later answer to the same request is dropped;
- it serves the plain tool calls (``server/front_calls.py``: assess_run,
  read_metrics, reschedule with arguments the listed schema proves valid) on
  threads of its own, so a fresh server's first check costs the domain only
  and a long call never holds up another;
- everything else (other calls, reads, prompts, arguments to refuse) is
  answered by the SDK, which is loaded on the first such request.

On the first start after an install or a change nothing is cached yet and the
SDK answers everything (a slower start, never a wrong one); its answers are
recorded for the next start. SIGINT and SIGTERM keep their default action: the
kernel ends the process at once, whatever a worker thread is doing (a Python
handler would wait for a thread that holds the interpreter).
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

from ..tools.redact import redact_json

CACHED_METHODS = ("initialize", "server/discover", "tools/list", "prompts/list", "resources/list",
                  "resources/templates/list")
LIST_METHODS = CACHED_METHODS[2:]
ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"  # the 2026-07-28 per-request envelope's keys
ENVELOPE_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
EXIT_GRACE_S = 0.7
MAX_FRONT_CALLS = 8  # tool calls the front runs at once, each on its own thread
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
    """The SDK's answers to the cached requests, by (method, protocol version)."""

    def __init__(self, fp: str):
        self.fp = fp
        self.entries: dict[str, Any] = {}
        self.dirty = False
        self.lock = threading.Lock()  # the client's connection and the recorders record at once
        for d in cache_dirs():
            data = read_trusted(d / CACHE_NAME.format(fp))
            if isinstance(data, dict) and data.get("fingerprint") == fp and isinstance(data.get("entries"), dict):
                self.entries = data["entries"]
                break

    def get(self, method: str, version: str | None) -> Any:
        return self.entries.get(f"{method} {version}")

    def record(self, method: str, version: str | None, result: Any) -> None:
        key = f"{method} {version}"
        with self.lock:
            if self.entries.get(key) != result:
                self.entries[key] = result
                self.dirty = True

    def save(self) -> None:
        with self.lock:
            if not self.dirty:
                return
            text = json.dumps({"fingerprint": self.fp, "entries": self.entries}, separators=(",", ":")).encode()
            self.dirty = False
        for d in cache_dirs():
            path = d / CACHE_NAME.format(self.fp)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            try:
                d.mkdir(mode=0o700, parents=True, exist_ok=True)
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never group/other-writable
                with os.fdopen(fd, "wb") as f:
                    f.write(text)
                os.replace(tmp, path)
            except OSError:
                try:
                    tmp.unlink()
                except OSError:
                    pass
                continue
            _prune_leftovers(d)
            return


def _prune_leftovers(folder: Path, age_s: float = 3600.0) -> None:
    """Temporary files an ended server left (a signal ends it at once, even mid-write), once they are old."""
    import time

    for leftover in folder.glob(CACHE_NAME.format("*") + ".*.tmp"):
        try:
            if time.time() - leftover.stat().st_mtime > age_s:
                leftover.unlink()
        except OSError:
            pass


def read_trusted(path: Path) -> Any:
    """The JSON in ``path`` when this user owns it and nobody else may write it (``tools.config``'s rule for the
    user's config, checked on the open file); else None. A planted answer would change what the tools say."""
    from ..tools.ownership import untrusted_stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            st = os.fstat(fd)
            import stat

            why = "is not a regular file" if not stat.S_ISREG(st.st_mode) else untrusted_stat(st)
            if why:
                print(f"training-check: not using the recorded answers {path}: it {why}", file=sys.stderr)
                return None
            return json.loads(f.read())
        except (OSError, ValueError):
            return None


# -- the front -----------------------------------------------------------------------------------------------------
def envelope(params: Any) -> dict | None:
    """The 2026-07-28 per-request ``_meta`` envelope of a request's params, when it carries one (the SDK's test: the
    protocol version key is there)."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta if isinstance(meta, dict) and ENVELOPE_VERSION in meta else None


class Front:
    """Forwards the wire to the SDK's pipes, answering the cached requests and the plain tool calls itself."""

    def __init__(self, wire_in, wire_out, answers: Answers):
        self.wire_in, self.wire_out, self.answers = wire_in, wire_out, answers
        self.lock = threading.Lock()
        self.pending: dict[Any, tuple[str, str | None, bool]] = {}  # id -> (method, version, answered here)
        self.era: str | None = None  # "legacy" (initialize handshake) or "modern" (2026-07-28 envelope), once
        self.version: str | None = None  # the legacy connection's protocol version
        self.opening_version: str | None = None  # the modern connection's first request's version and envelope
        self.opening_meta: dict | None = None
        self.to_sdk: queue.Queue[bytes | None] = queue.Queue()
        self.sdk_in_r, self.sdk_in_w = os.pipe()
        self.sdk_out_r, self.sdk_out_w = os.pipe()
        self.closed = threading.Event()  # the SDK's output ended (set at once when the SDK never started)
        self.need_sdk = threading.Event()  # a request only the SDK answers arrived, or the client left
        self.sdk_wanted = False
        self.input_ended = threading.Event()
        self.calls: set[threading.Thread] = set()  # tool calls the front is serving
        self.preloading = False
        self.threads = [threading.Thread(target=t, name=f"stdio-{t.__name__}", daemon=True)
                        for t in (self._read_wire, self._feed_sdk, self._copy_sdk)]

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def end_input(self) -> None:
        """The SDK sees end of input (the client left)."""
        self.to_sdk.put(None)
        self.input_ended.set()
        self.need_sdk.set()

    def emit(self, data: bytes) -> None:
        """Write one message to the client: every answer, error, notification and resource the client gets over
        stdio passes here, redacted (``tools/redact.py`` finds a secret in JSON-escaped text too)."""
        data = redact_json(data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
        with self.lock:
            try:
                self.wire_out.write(data.rstrip(b"\n") + b"\n")
                self.wire_out.flush()
            except (OSError, ValueError):  # the client is gone
                pass

    def send(self, msg: dict) -> None:
        self.emit(json.dumps(msg, separators=(",", ":"), ensure_ascii=False).encode())

    # -- which era, which version ----------------------------------------------------------------------------
    def _era_of(self, method: str, params: Any) -> None:
        """The first request decides the era, as the SDK's ``serve_dual_era_loop`` does."""
        if self.era is None:
            self.era = "modern" if method != "initialize" and envelope(params) is not None else "legacy"
            if self.era == "modern":
                self.opening_meta = {k: v for k, v in (envelope(params) or {}).items()
                                     if k.startswith("io.modelcontextprotocol/")}
                self.opening_version = self._version_for(method, params)
        if self.era == "legacy" and method == "initialize" and isinstance(params, dict) and self.version is None:
            self.version = params.get("protocolVersion")

    def _version_for(self, method: str, params: Any) -> str | None:
        """The protocol version this request is served at by the front, or None when only the SDK may answer it."""
        meta = envelope(params)
        if self.era == "legacy":
            if meta is not None or self.version is None:
                return None  # an enveloped request on a handshake connection: the SDK refuses it
            return self.version
        if self.era == "modern" and method != "initialize" and meta is not None \
                and isinstance(meta.get(ENVELOPE_VERSION), str) and isinstance(meta.get(ENVELOPE_CAPABILITIES), dict):
            return meta[ENVELOPE_VERSION]
        return None

    def _local(self, msg: dict, opening: bool) -> Any:
        """The recorded answer to this request, or None."""
        method, params = str(msg.get("method")), msg.get("params")
        if params is not None and not isinstance(params, dict):
            return None
        version = self._version_for(method, params)
        if version is None:
            return None
        if method == "ping" and self.era == "legacy":
            return {}
        if method == "initialize":  # the handshake that opened this connection, never a second one
            return self.answers.get(method, version) if opening else None
        if method in LIST_METHODS or method == "server/discover":
            if (params or {}).get("cursor") is not None:
                return None
            return self.answers.get(method, version)
        return None

    # -- tool calls the front serves ---------------------------------------------------------------------------
    def _serve_call(self, msg: dict) -> bool:
        """Start serving a tools/call here when front_calls can; False leaves it to the SDK."""
        from . import front_calls

        params = msg.get("params")
        if not isinstance(params, dict) or params.get("name") not in front_calls.TOOLS:
            return False
        with self.lock:
            if len(self.calls) >= MAX_FRONT_CALLS:  # more at once: the SDK's bounded worker pool takes them
                return False
        version = self._version_for("tools/call", params)
        listed = self.answers.get("tools/list", version) if version else None
        tool = next((t for t in (listed or {}).get("tools", []) if t.get("name") == params["name"]), None)
        stamp: dict | None = {}
        if self.era == "modern":
            stamp = (self.answers.get("server/discover", version) or {}).get("_meta")
        if tool is None or not isinstance(tool.get("outputSchema"), dict) or stamp is None:
            return False
        try:
            positional, kwargs = front_calls.call_arguments(params["name"], params.get("arguments") or {},
                                                            tool.get("inputSchema"))
        except front_calls.Unsure:
            return False
        token = (params.get("_meta") or {}).get("progressToken") if isinstance(params.get("_meta"), dict) else None
        progress = front_calls.progress_sender(token, self.send)

        def serve() -> None:
            result = front_calls.run_call(params["name"], positional, kwargs, tool["outputSchema"], progress)
            if self.era == "modern":
                result = {**result, "resultType": "complete", "_meta": stamp}
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            with self.lock:
                self.calls.discard(threading.current_thread())

        t = threading.Thread(target=serve, name=f"stdio-call-{msg['id']}", daemon=True)
        with self.lock:
            self.calls.add(t)
        t.start()
        return True

    def _preload(self) -> None:
        """Once the client has its tools: import the domain of the calls served here while the client (a model's
        turn) thinks, so its first call does not wait for pandas."""
        if self.preloading:
            return
        self.preloading = True
        from . import front_calls

        threading.Thread(target=front_calls.preload, name="stdio-preload", daemon=True).start()

    def wait_calls(self) -> None:
        while True:
            with self.lock:
                running = list(self.calls)
            if not running:
                return
            for t in running:
                t.join()

    # -- the three pumps ---------------------------------------------------------------------------------------
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
                    method = str(msg["method"])
                    opening = self.era is None
                    self._era_of(method, msg.get("params"))
                    if method == "tools/call" and self._serve_call(msg):
                        continue  # served here; the SDK never runs it
                    answer = self._local(msg, opening)
                    version = self._version_for(method, msg.get("params")) if method != "initialize" \
                        else self.version
                    with self.lock:
                        self.pending[msg["id"]] = (method, version, answer is not None)
                    if answer is not None:
                        self.send({"jsonrpc": "2.0", "id": msg["id"], "result": answer})
                        if method == "tools/list":
                            self._preload()
                    else:
                        self.sdk_wanted = True
                        self.need_sdk.set()
                self.to_sdk.put(line)
        except (OSError, ValueError):
            pass
        self.end_input()

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
                    if method in CACHED_METHODS and version is not None and isinstance(msg.get("result"), dict) \
                            and not msg["result"].get("nextCursor"):
                        self.answers.record(method, version, msg["result"])
                        if method not in ("initialize", "server/discover"):
                            self.answers.save()
                    if answered:
                        continue  # the client has this answer already
                self.emit(line)
        self.answers.save()
        self.closed.set()


# -- recording both eras -------------------------------------------------------------------------------------------
RECORDING_TIMEOUT_S = 20.0  # a private connection ends by then whatever the SDK did
RECORDED_VERSIONS = ("2025-11-25", "2026-07-28")  # recorded whenever the SDK runs, whichever era the client speaks


def _opening(version: str) -> list[dict]:
    """A private connection's requests that get every cached answer at ``version`` (its era's handshake first)."""
    if version in RECORDED_VERSIONS[1:] or version.startswith("2026"):
        meta = {ENVELOPE_VERSION: version, ENVELOPE_CAPABILITIES: {},
                "io.modelcontextprotocol/clientInfo": {"name": "training-check-front", "version": "1"}}
        first = [{"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": meta}}]
        params: dict[str, Any] = {"_meta": meta}
    else:
        first = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
                  "params": {"protocolVersion": version, "capabilities": {},
                             "clientInfo": {"name": "training-check-front", "version": "1"}}},
                 {"jsonrpc": "2.0", "method": "notifications/initialized"}]
        params = {}
    return first + [{"jsonrpc": "2.0", "id": i, "method": m, **({"params": params} if params else {})}
                    for i, m in enumerate(LIST_METHODS, start=1)]


class Recorder:
    """A private connection to the SDK server that records its answers at one protocol version (never sent)."""

    def __init__(self, answers: Answers, version: str):
        self.answers, self.version = answers, version
        self.lock = threading.Lock()
        self.in_r, self.in_w = os.pipe()
        self.out_r, self.out_w = os.pipe()

    def run(self) -> None:
        requests = _opening(self.version)
        methods = {m["id"]: m["method"] for m in requests if "id" in m}
        to_sdk = os.fdopen(self.in_w, "wb")
        give_up = threading.Timer(RECORDING_TIMEOUT_S, self.end_input, (to_sdk,))  # the connection always ends
        give_up.daemon = True
        give_up.start()
        with os.fdopen(self.out_r, "rb") as from_sdk:
            to_sdk.write("".join(json.dumps(m) + "\n" for m in requests).encode())
            to_sdk.flush()
            for line in from_sdk:  # read to the end: the connection closes when its input ends, below
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                method = methods.pop(msg.get("id"), None) if isinstance(msg, dict) and "method" not in msg else None
                if method is not None and isinstance(msg.get("result"), dict):
                    self.answers.record(method, self.version, msg["result"])
                if not methods:
                    self.end_input(to_sdk)
        give_up.cancel()
        self.end_input(to_sdk)
        self.answers.save()

    def end_input(self, to_sdk) -> None:
        with self.lock:
            if not to_sdk.closed:
                to_sdk.close()


def recorders(front: Front) -> list[Recorder]:
    """One private connection per protocol version whose answers are not all recorded yet."""
    versions = dict.fromkeys([*RECORDED_VERSIONS, front.version or RECORDED_VERSIONS[0],
                              front.opening_version or RECORDED_VERSIONS[1]])
    wanted = [v for v in versions if any(front.answers.get(m, v) is None for m in
                                         ("server/discover" if v.startswith("2026") else "initialize",
                                          *LIST_METHODS))]
    return [Recorder(front.answers, v) for v in wanted]


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
    for s in (signal.SIGINT, signal.SIGTERM):  # the kernel's action: immediate, whatever holds the interpreter
        signal.signal(s, signal.SIG_DFL)
    wire_in, wire_out = _claim_wire()
    front = Front(wire_in, wire_out, Answers(fingerprint()))
    front.start()
    front.need_sdk.wait()
    if front.sdk_wanted:
        from .front_calls import IMPORTS

        with IMPORTS:  # not beside the front's own imports (a preload, a call)
            import anyio

            from .app import create_server

            server = create_server()
        pipes = [(front.sdk_in_r, front.sdk_out_w)]
        for rec in recorders(front):  # both eras recorded now: the next start answers either at once
            pipes.append((rec.in_r, rec.out_w))
            threading.Thread(target=rec.run, name="stdio-recorder", daemon=True).start()
        anyio.run(_run_sdk, server, pipes)
        front.closed.wait(EXIT_GRACE_S)
    front.wait_calls()  # the client closed its input; the answers still in progress are written first
    front.answers.save()
    # The session is over and every answer is written: leave now. Tearing the interpreter down (the SDK's and
    # the domain's modules, idle worker threads) takes longer than a client waits.
    sys.stderr.flush()
    os._exit(0)


async def _run_sdk(server, pipes: list[tuple[int, int]]) -> None:
    """Serve each (input fd, output fd) pair as one connection of the SDK server; the first is the client's."""
    import anyio

    async with anyio.create_task_group() as tg:
        for fd_in, fd_out in pipes[1:]:
            tg.start_soon(_serve_connection, server, fd_in, fd_out, True)
        await _serve_connection(server, *pipes[0], False)


async def _serve_connection(server, fd_in: int, fd_out: int, private: bool) -> None:
    """One connection; a private (recording) one that fails is only logged: it never ends the client's."""
    try:
        await _serve_pipes(server, fd_in, fd_out)
    except Exception:
        if not private:
            raise
        import logging

        logging.getLogger("training_check.server").warning("recording the first answers failed", exc_info=True)


async def _serve_pipes(server, fd_in: int, fd_out: int) -> None:
    import anyio
    from mcp.server.stdio import stdio_server

    sdk_in = anyio.wrap_file(open(fd_in, encoding="utf-8", errors="replace"))  # noqa: SIM115 - closed below
    sdk_out = anyio.wrap_file(open(fd_out, "w", encoding="utf-8"))  # noqa: SIM115 - closed below
    try:
        async with stdio_server(stdin=sdk_in, stdout=sdk_out) as (read_stream, write_stream):
            low = server._lowlevel_server  # what MCPServer.run_stdio_async runs, over our pipes
            await low.run(read_stream, write_stream, low.create_initialization_options())
    finally:
        await sdk_out.aclose()
        await sdk_in.aclose()
