"""The Codex reviewer backend: ``codex app-server`` (JSON-RPC over stdio) asked for one structured answer per ``ask``.

Tested with Codex CLI 0.154.0 to 0.171.0 (``codex mcp-server`` was removed in 0.154.0; CI runs 0.154.0 and 0.171.0).
A version older than the tested range is refused before it starts, and a failure to start names the installed
version and the tested range.
The exchange, from the installed CLI's own schema
(``codex app-server generate-json-schema``): ``initialize`` -> ``initialized``
-> ``thread/start`` (read-only sandbox, approvals never, ephemeral, our
reviewer instructions in place of Codex's coding-agent ones; the answer names
the model Codex chose) -> ``turn/start`` (the prompt, reasoning effort high,
the decision JSON schema as ``outputSchema``) -> notifications until
``turn/completed``. Codex's own ``error`` notifications (provider down,
retrying) end the call at once; ``model/rerouted`` updates the model recorded.

The child starts from an argv list (no shell), in an empty temporary folder,
with only the environment it needs (PATH, locale, proxy and CA settings, and
the one key variable its provider reads) and a private, temporary CODEX_HOME
(also its HOME): it holds only the user's login (``auth.json``, linked) and the
user's model and provider settings, so nothing else of the user's Codex setup
(``AGENTS.md`` instructions, skills, MCP servers, hooks, plugins, memories)
reaches the reviewer model; the skills list and bundled skills are switched off
too. The reviewer reads text and answers, it acts on nothing.
Every secret (``tools/redact.py``, and the provider's key whatever its variable is called) is redacted from what
it returns and from its errors.
Why this client is written here rather than taken from a library: ARCHITECTURE.md ("Decisions worth knowing").
"""

from __future__ import annotations

import contextlib
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
import tomllib
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import ReviewerError
from ..redact import env_secrets, redact, remember_secret
from .decision import DECISION_SCHEMA
from .openai_backend import display_url

DEFAULT_COMMAND = "codex"
TESTED_MIN, TESTED_MAX = (0, 154, 0), (0, 171, 0)  # the Codex CLI versions this client is tested with
TESTED_VERSIONS = "0.171.0"  # the one to install
TESTED_RANGE = "0.154.0 to 0.171.0"
VERSION_PROBE_TIMEOUT_S = 15.0
# What the private CODEX_HOME keeps of the user's config.toml: how to reach the model, nothing that acts or instructs.
CARRIED_CONFIG = ("model", "model_provider", "model_providers", "openai_base_url", "chatgpt_base_url",
                  "forced_login_method", "preferred_auth_method")
LOGIN_FILES = ("auth.json",)
PROVIDER_ID = "training-check"
CLIENT_INFO = {"name": "training-check", "title": "training-check reviewer", "version": "0.1.0"}
REASONING_EFFORT = "high"
STARTUP_TIMEOUT_S = 30.0
STDERR_TAIL_LINES = 20
MAX_LINE_BYTES = 16 * 1024 * 1024
# The environment Codex gets: these names (when set), the provider's key variable, nothing else.
PASS_ENV = ("PATH", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE",
            "LC_MESSAGES", "TZ", "TMPDIR", "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY",
            "all_proxy", "NO_PROXY", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "CODEX_CA_CERTIFICATE",
            "CODEX_API_KEY")
# The reviewer reads text and answers: no shell, sub-agents, goals, images, web search, hooks, plugins or apps
# (and no login shell started to snapshot its environment). Every name is a feature of the tested Codex versions.
DISABLED_FEATURES = ("shell_tool", "unified_exec", "shell_snapshot", "multi_agent", "goals", "view_image", "hooks",
                     "plugins", "apps")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Answers to the requests Codex may send its client: always the refusing one, in the shape its schema asks for.
REFUSALS: dict[str, dict] = {
    "item/commandExecution/requestApproval": {"decision": "decline"},
    "item/fileChange/requestApproval": {"decision": "decline"},
    # the legacy (v1) approvals: "denied" changed shape between versions, "abort" is the same string in all
    "execCommandApproval": {"decision": "abort"},
    "applyPatchApproval": {"decision": "abort"},
    "item/permissions/requestApproval": {"permissions": {}},
    "mcpServer/elicitation/request": {"action": "decline"},
    "item/tool/requestUserInput": {"answers": {}},
}


def command_argv(command: str | list[str] | None) -> list[str]:
    """The argv of the codex executable (a string is split like a shell would, but no shell runs it)."""
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
        raise ReviewerError("REVIEWER_CODEX_COMMAND is empty: set it to the codex executable, e.g. 'codex'")
    if argv[-1] in ("mcp-server", "app-server", "exec"):
        raise ReviewerError(f"REVIEWER_CODEX_COMMAND {shlex.join(argv)!r} names a codex subcommand: set it to the "
                            f"codex executable alone (e.g. 'codex'); 'codex mcp-server' was removed in Codex 0.154")
    return argv


def one_line(text: object, limit: int = 300) -> str:
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def codex_home(env: Mapping[str, str]) -> Path:
    root = env.get("CODEX_HOME")
    return Path(root).expanduser() if root else Path(env.get("HOME") or Path.home()) / ".codex"


def user_codex_config(env: Mapping[str, str]) -> dict:
    """The user's own ``$CODEX_HOME/config.toml`` ({} when absent or unreadable: Codex then reports its own error)."""
    try:
        return tomllib.loads((codex_home(env) / "config.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def http_status(info: object) -> int | None:
    """The ``httpStatusCode`` somewhere in Codex's ``codexErrorInfo`` (e.g. {"responseStreamFailed": {...}})."""
    if isinstance(info, dict):
        code = info.get("httpStatusCode")
        if isinstance(code, int):
            return code
        for value in info.values():
            found = http_status(value)
            if found:
                return found
    return None


def toml_string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def toml_value(value: object) -> str:
    """A TOML value (inline tables for mappings) for what ``tomllib`` reads back: str, bool, number, list, dict."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_string(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"cannot write {type(value).__name__} as TOML")


def parse_version(text: str) -> tuple[int, int, int] | None:
    """``codex-cli 0.171.0`` (or a user agent ``.../0.171.0``) -> (0, 171, 0)."""
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", text)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def version_text(version: tuple[int, int, int]) -> str:
    return ".".join(map(str, version))


class CodexAppServer:
    """One ``codex app-server`` child and the JSON-RPC exchange with it (newline-delimited JSON on stdio)."""

    def __init__(self, argv: list[str], *, cwd: str, env: dict[str, str], secrets_: Mapping[str, str]):
        self.argv = argv
        self.cwd = cwd
        self.env = env
        self.secrets = secrets_
        self._proc: subprocess.Popen | None = None
        self._inbox: queue.Queue = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        self._stderr_done = threading.Event()
        self._next_id = 1

    # -- process ---------------------------------------------------------------------
    def start(self) -> None:
        exe = shutil.which(self.argv[0], path=self.env.get("PATH")) if not os.path.dirname(self.argv[0]) \
            else self.argv[0]
        if not exe or not os.path.exists(exe):
            raise ReviewerError(f"cannot start the codex reviewer: {self.argv[0]!r} not found; install the Codex "
                                f"CLI (npm install -g @openai/codex@{TESTED_VERSIONS}) or set REVIEWER_CODEX_COMMAND")
        try:
            proc = subprocess.Popen([exe, *self.argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, cwd=self.cwd, env=self.env, start_new_session=True,
                                    close_fds=True)
        except OSError as e:
            raise ReviewerError(f"cannot start the codex reviewer {self.argv[0]!r}: {e.strerror}") from None
        self._proc = proc
        # The readers hold their own stream objects: closing the client never pulls one from under them.
        threading.Thread(target=self._read_stdout, args=(proc.stdout,), name="codex-stdout", daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(proc.stderr,), name="codex-stderr", daemon=True).start()

    def _read_stdout(self, stream) -> None:
        try:
            for raw in iter(lambda: stream.readline(MAX_LINE_BYTES), b""):
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
        except (OSError, ValueError):  # the stream was closed under us: the process is being shut down
            pass
        self._inbox.put(None)  # EOF: the server exited

    def _read_stderr(self, stream) -> None:
        in_backtrace = False  # a Rust backtrace's frames would push the error line itself out of the tail
        try:
            for raw in iter(stream.readline, b""):
                text = re.sub(r"\x1b\[[0-9;]*m", "", raw.decode("utf-8", "replace")).strip()
                if text.startswith("Stack backtrace:"):
                    in_backtrace = True
                elif text and not in_backtrace:
                    self._stderr.append(text)
        except (OSError, ValueError):
            pass
        self._stderr_done.set()

    def stderr_tail(self, n: int = 2) -> str:
        """Codex's error on one line: from its last ``Error:`` line on (with the causes), else its last ``n`` lines
        of stderr; never a backtrace, colours stripped, secrets blanked."""
        lines = list(self._stderr)
        starts = [i for i, line in enumerate(lines) if line.startswith("Error:")]
        shown = lines[starts[-1]:] if starts else lines[-n:]
        return one_line(redact(" | ".join(shown), self.secrets), 400)

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def close(self, grace_s: float = 2.0) -> None:
        """Close stdin, wait ``grace_s``, then SIGTERM and SIGKILL Codex's whole process group."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
        except OSError:
            pass
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, sig)
            try:
                proc.wait(timeout=grace_s)
                break
            except subprocess.TimeoutExpired:
                continue
        # the app-server's own children (the node launcher's native binary, tools) share its group
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)

    # -- JSON-RPC --------------------------------------------------------------------
    def _send(self, msg: dict) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise ReviewerError("the codex reviewer is not running")
        try:
            proc.stdin.write((json.dumps(msg, separators=(",", ":")) + "\n").encode("utf-8"))
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self.exited(str(msg.get("method") or "a reply")) from None

    def exited(self, during: str) -> ReviewerError:
        self._stderr_done.wait(timeout=1.0)  # let its last words arrive
        return ReviewerError(f"the codex reviewer exited during {during}: "
                             f"{self.stderr_tail() or 'no message on stderr'}")

    def notify(self, method: str, params: dict | None = None) -> None:
        self._send({"method": method, **({"params": params} if params is not None else {})})

    def request(self, method: str, params: dict) -> int:
        rid = self._next_id
        self._next_id += 1
        self._send({"id": rid, "method": method, "params": params})
        return rid

    def next_message(self, deadline: float, waiting_for: str, timeout_s: float) -> dict:
        """The next message from Codex; requests from Codex are answered (refused) here and not returned."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ReviewerError(f"the codex reviewer did not answer {waiting_for} within {timeout_s:g}s: "
                                    f"try again later or raise REVIEWER_TIMEOUT_S")
            try:
                msg = self._inbox.get(timeout=min(left, 0.25))
            except queue.Empty:
                continue
            if msg is None:
                self._inbox.put(None)
                raise self.exited(waiting_for)
            if "method" in msg and "id" in msg:  # a request from Codex (an approval, user input ...): refuse it
                refusal = REFUSALS.get(str(msg["method"]))
                if refusal is not None:
                    self._send({"id": msg["id"], "result": refusal})
                else:
                    self._send({"id": msg["id"], "error": {"code": -32601, "message":
                                                           f"training-check does not support {msg['method']}"}})
                continue
            return msg

    def call(self, method: str, params: dict, deadline: float, timeout_s: float,
             on_notification=None) -> dict:
        """Send a request and return its result, passing notifications that arrive meanwhile to ``on_notification``."""
        rid = self.request(method, params)
        while True:
            msg = self.next_message(deadline, method, timeout_s)
            if "method" in msg:
                if on_notification is not None:
                    on_notification(msg)
                continue
            if msg.get("id") != rid:
                continue
            if "error" in msg:
                err = msg["error"] if isinstance(msg["error"], dict) else {"message": msg["error"]}
                raise ReviewerError(f"the codex reviewer refused {method}: "
                                    f"{one_line(redact(str(err.get('message', err)), self.secrets))}")
            result = msg.get("result")
            return result if isinstance(result, dict) else {}


class CodexReviewer:
    """Asks Codex for a decision: one app-server per review, one ephemeral thread and turn per ``ask``."""

    name = "codex"

    def __init__(self, *, command: str | list[str] | None = DEFAULT_COMMAND, model: str | None = None,
                 timeout_s: float = 300.0, base_url: str | None = None, key_env: str | None = None,
                 env: Mapping[str, str] | None = None):
        self.argv = command_argv(command)
        self.model = model
        self.timeout_s = timeout_s
        self.base_url = base_url
        self.key_env = key_env
        source_env = dict(os.environ if env is None else env)
        if base_url is not None and urlsplit(base_url).scheme not in ("http", "https"):
            raise ReviewerError(f"REVIEWER_CODEX_BASE_URL {display_url(base_url)[:100]!r} is not an http(s) URL: "
                                f"set it to the provider's Responses API base, e.g. http://127.0.0.1:8000/v1")
        if key_env is not None and not _ENV_NAME.match(key_env):
            raise ReviewerError(f"REVIEWER_CODEX_KEY_ENV {key_env[:60]!r} is not an environment variable name")
        self._user_config = user_codex_config(source_env)
        self.env = self.child_env(source_env)
        key = self.provider_key_env()
        # the provider's key is a secret whatever its variable is called (redacted everywhere from now on), and so is
        # every secret of the environment Codex is started from ({name: value}, for ``redact``)
        self.secrets = {s.name: s.value for s in env_secrets(source_env)}
        if key:
            remember_secret(self.env[key], key)
            self.secrets[key] = self.env[key]
        self.reported_model: str | None = None  # the model Codex said it uses (thread/start, model/rerouted)
        self.provider: str | None = None
        self.codex_version: str | None = None
        self._workdir = tempfile.mkdtemp(prefix="training-check-codex-")
        self.home = os.path.join(self._workdir, "home")  # Codex's private CODEX_HOME and HOME for this review
        self.cwd = os.path.join(self._workdir, "work")
        try:
            self._user_home = codex_home(source_env)
            self._prepare_home(self._user_home)
        except BaseException:
            shutil.rmtree(self._workdir, ignore_errors=True)
            raise
        self.env.update(CODEX_HOME=self.home, HOME=self.home)
        self._server = CodexAppServer(self.server_argv(), cwd=self.cwd, env=self.env, secrets_=self.secrets)
        self._started = False
        self._deadline = 0.0

    # -- what Codex gets ---------------------------------------------------------------
    def _prepare_home(self, user_home: Path) -> None:
        """The review's CODEX_HOME: the user's login linked, their model and provider settings, nothing else."""
        os.makedirs(self.home, mode=0o700)
        os.makedirs(self.cwd, mode=0o700)
        carried = {k: self._user_config[k] for k in CARRIED_CONFIG if k in self._user_config}
        try:
            text = "".join(f"{toml_string(k)} = {toml_value(v)}\n" for k, v in carried.items())
        except ValueError as e:
            raise ReviewerError(f"cannot carry your Codex model settings into the review ({e}): check "
                                f"{user_home / 'config.toml'}") from None
        Path(self.home, "config.toml").write_text(text, encoding="utf-8")
        for name in LOGIN_FILES:
            if (user_home / name).is_file():
                os.symlink(user_home / name, os.path.join(self.home, name))

    def provider_key_env(self) -> str | None:
        """The variable holding the provider's key: REVIEWER_CODEX_KEY_ENV, else the user's provider's ``env_key``."""
        if self.base_url or self.key_env:
            return self.key_env
        conf = self._user_config
        provider = conf.get("model_provider")
        providers = conf.get("model_providers")
        if not isinstance(providers, dict):
            providers = {}
        entry = providers.get(provider) if isinstance(provider, str) else None
        key = entry.get("env_key") if isinstance(entry, dict) else None
        return key if isinstance(key, str) and _ENV_NAME.match(key) else None

    def child_env(self, source: Mapping[str, str]) -> dict[str, str]:
        env = {k: source[k] for k in PASS_ENV if source.get(k)}  # CODEX_HOME and HOME: the review's own
        key = self.provider_key_env()
        if key:
            if not source.get(key):
                raise ReviewerError(f"the codex reviewer's provider reads its key from {key}, which is not set: "
                                    f"export {key} (or set REVIEWER_CODEX_KEY_ENV to the variable that holds it)")
            env[key] = source[key]
        return env

    def server_argv(self) -> list[str]:
        """``codex app-server`` with the review's config overrides (no secret in them: a key is read from env)."""
        overrides: list[str] = ["check_for_update_on_startup=false", "project_doc_max_bytes=0",
                                'web_search="disabled"', "skills.include_instructions=false",
                                "skills.bundled.enabled=false"]
        if self.base_url:
            prefix = f"model_providers.{PROVIDER_ID}"
            overrides += [f"{prefix}.name={toml_string('training-check reviewer')}",
                          f"{prefix}.base_url={toml_string(self.base_url)}",
                          f'{prefix}.wire_api="responses"',
                          f"model_provider={toml_string(PROVIDER_ID)}"]
            if self.key_env:
                overrides.append(f"{prefix}.env_key={toml_string(self.key_env)}")
        argv = [*self.argv, "app-server"]
        for o in overrides:
            argv += ["-c", o]
        for feature in DISABLED_FEATURES:
            argv += ["--disable", feature]
        return argv

    @property
    def display_model(self) -> str | None:
        return self.reported_model or self.model

    # -- lifecycle ---------------------------------------------------------------------
    def __enter__(self) -> CodexReviewer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._server.close()
        self._keep_refreshed_login()
        shutil.rmtree(self._workdir, ignore_errors=True)

    def _keep_refreshed_login(self) -> None:
        """Codex may refresh the login during the review and write ``auth.json`` anew (replacing the link): the user's
        own file then gets the refreshed one, so their next login still works."""
        for name in LOGIN_FILES:
            private, user = Path(self.home, name), self._user_home / name
            try:
                if private.is_symlink() or not private.is_file() or not user.is_file() \
                        or private.stat().st_mtime <= user.stat().st_mtime:
                    continue
                tmp = user.with_name(f".{name}.training-check")
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "wb") as out:
                    out.write(private.read_bytes())
                os.replace(tmp, user)
            except OSError:
                continue

    @property
    def pid(self) -> int | None:
        return self._server.pid

    def installed_version(self) -> tuple[int, int, int] | None:
        """What ``codex --version`` says (None when it says no version: not a Codex CLI, or it failed)."""
        exe = shutil.which(self.argv[0], path=self.env.get("PATH")) if not os.path.dirname(self.argv[0]) \
            else self.argv[0]
        if not exe:
            return None
        try:
            p = subprocess.run([exe, *self.argv[1:], "--version"], stdin=subprocess.DEVNULL, capture_output=True,
                               cwd=self.cwd, env=self.env, timeout=VERSION_PROBE_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        out = p.stdout.decode("utf-8", "replace").strip()
        return parse_version(out) if p.returncode == 0 and out.startswith("codex") else None

    def _version_problem(self, version: tuple[int, int, int] | None) -> str | None:
        if version is None or TESTED_MIN <= version <= TESTED_MAX:
            return None
        return (f"Codex CLI {version_text(version)} is installed; the reviewer is tested with {TESTED_RANGE}: "
                f"install one of those (npm install -g @openai/codex@{TESTED_VERSIONS}) or point "
                f"REVIEWER_CODEX_COMMAND at one")

    def _start(self) -> None:
        version = self.installed_version()
        problem = self._version_problem(version)
        if problem and version is not None and version < TESTED_MIN:
            raise ReviewerError(f"cannot use the codex reviewer: {problem}")
        self.codex_version = version_text(version) if version else None
        self._server.start()
        self._started = True
        deadline = min(self._deadline, time.monotonic() + STARTUP_TIMEOUT_S)
        try:
            result = self._server.call("initialize", {"clientInfo": CLIENT_INFO}, deadline,
                                       min(self.timeout_s, STARTUP_TIMEOUT_S))
        except ReviewerError as e:
            raise ReviewerError(f"{e} ({problem})") if problem else e from None
        agent = str(result.get("userAgent") or "")
        m = re.search(r"/(\d+\.\d+\.\d+\S*)", agent)
        self.codex_version = m.group(1) if m else self.codex_version
        self._server.notify("initialized")

    def _fail(self, what: str, detail: object) -> ReviewerError:
        where = f" at {display_url(self.base_url)}" if self.base_url else ""
        return ReviewerError(f"codex reported {what}{where} (provider {self.provider or 'default'}, model "
                             f"{self.display_model or 'default'}): {one_line(redact(str(detail), self.secrets))}; "
                             f"no decision was recorded: check the provider is up and Codex is logged in "
                             f"(codex login) or pointed at it (REVIEWER_CODEX_BASE_URL)")

    def ask(self, system: str, text: str) -> str:
        """One ephemeral thread and turn; the agent's last message (secrets blanked), or a one-line ReviewerError."""
        self._deadline = time.monotonic() + self.timeout_s
        if not self._started:
            self._start()
        srv = self._server
        thread_params: dict = {"cwd": self.cwd, "approvalPolicy": "never", "sandbox": "read-only",
                               "ephemeral": True, "baseInstructions": system}
        if self.model:
            thread_params["model"] = self.model
        started = srv.call("thread/start", thread_params, self._deadline, self.timeout_s)
        self.reported_model = str(started.get("model") or "") or self.reported_model
        self.provider = str(started.get("modelProvider") or "") or self.provider
        thread_id = (started.get("thread") or {}).get("id")
        if not thread_id:
            raise ReviewerError("the codex reviewer started no thread (thread/start gave no thread id)")
        messages: list[str] = []
        outcome: dict = {}

        def on_event(msg: dict) -> None:
            method, params = msg.get("method"), msg.get("params") or {}
            if params.get("threadId") not in (None, thread_id):
                return
            if method == "error":  # Codex's own report (provider unreachable, HTTP 5xx, retrying ...): end now
                err = params.get("error") or {}
                detail = err.get("message") or "unknown error"
                if err.get("additionalDetails"):
                    detail = f"{err['additionalDetails']} ({detail})"
                status = http_status(err.get("codexErrorInfo"))
                raise self._fail(f"HTTP {status}" if status else "an error", detail)
            if method == "model/rerouted" and params.get("toModel"):
                self.reported_model = str(params["toModel"])
            elif method == "item/completed":
                item = params.get("item") or {}
                if item.get("type") == "agentMessage" and isinstance(item.get("text"), str):
                    messages.append(item["text"])
            elif method == "turn/completed":
                outcome.update(params.get("turn") or {})

        turn_params = {"threadId": thread_id, "input": [{"type": "text", "text": text}],
                       "outputSchema": DECISION_SCHEMA, "effort": REASONING_EFFORT}
        srv.call("turn/start", turn_params, self._deadline, self.timeout_s, on_notification=on_event)
        while not outcome:
            msg = srv.next_message(self._deadline, "the review turn", self.timeout_s)
            if "method" in msg:
                on_event(msg)
        status = outcome.get("status")
        if status != "completed":
            err = outcome.get("error") or {}
            raise self._fail(f"the review turn {status or 'ended'}", err.get("message") or "no detail")
        for item in outcome.get("items") or []:
            if isinstance(item, dict) and item.get("type") == "agentMessage" and isinstance(item.get("text"), str):
                messages.append(item["text"])
        return redact(messages[-1], self.secrets) if messages else ""
