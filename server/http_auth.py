"""``serve --http``: the streamable-HTTP MCP app behind a bearer token.

Over stdio only the client that started the server can talk to it. Over HTTP any local user (or, on a
non-loopback address, any machine) could call ``stop_run`` or read files only the owner can read, so every HTTP
request must carry ``Authorization: Bearer <token>``. The token comes from ``TRAINING_CHECK_HTTP_TOKEN`` or the
0600 file ``$TRAINING_CHECK_HOME/http-token`` (generated, and printed once, on the first ``serve --http``).
``--no-auth`` is allowed on a loopback address only (decided with ``ipaddress``, never by a string prefix).

Whatever the bind address, a request is served only when its ``Host`` (and ``Origin``, when a browser sends one)
names this server: the bind address, and for a loopback bind also ``localhost``, ``127.0.0.1`` and ``[::1]``, on
the bound port, plus the names in ``TRAINING_CHECK_HTTP_ALLOWED_HOSTS`` (comma-separated). A web page that rebinds
its own name (``evil.example``) to this address is refused before the token is even looked at.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..tools.errors import BadInput
from ..tools.redact import remember_secret

TOKEN_FILE = "http-token"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def is_loopback(host: str) -> bool:
    """A loopback address (127.0.0.0/8, ::1) or ``localhost``; ``127.rt-probe.invalid`` is a name, not one."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_names(host: str, env: Mapping[str, str] | None = None) -> frozenset[str]:
    """The names this server answers to: the bind address, the loopback names for a loopback bind, and
    ``TRAINING_CHECK_HTTP_ALLOWED_HOSTS``."""
    environ: Mapping[str, str] = os.environ if env is None else env
    names = {f"[{host.strip('[]')}]" if ":" in host else host}
    if is_loopback(host):
        names.update(LOOPBACK_NAMES)
    names.update(n.strip() for n in environ.get("TRAINING_CHECK_HTTP_ALLOWED_HOSTS", "").split(",") if n.strip())
    return frozenset(n.lower() for n in names)


def _split_port(hostport: str) -> tuple[str, str | None]:
    """("name", "port") of ``name:port`` / ``[v6]:port`` / ``name``."""
    if hostport.startswith("["):
        end = hostport.find("]")
        rest = hostport[end + 1:]
        return hostport[:end + 1], (rest[1:] if rest.startswith(":") else None)
    name, sep, port = hostport.rpartition(":")
    return (name, port) if sep else (hostport, None)


class HostGuard:
    """ASGI middleware: a request whose ``Host`` (or ``Origin``) is not this server's (DNS rebinding) gets 403.

    ``Host`` must be one of ``names`` on ``port``; an ``Origin``, when sent, must be http(s) on one of ``names``
    (any port: a page served by this machine under one of its own names)."""

    def __init__(self, app: Any, names: frozenset[str], port: int):
        self.app = app
        self.names = names
        self.port = str(port)

    def _ok(self, headers) -> bool:
        hosts: list[str] = []
        origins: list[str] = []
        for name, value in headers or []:
            n = name.lower()
            if n == b"host":
                hosts.append(value.decode("latin-1").strip().lower())
            elif n == b"origin":
                origins.append(value.decode("latin-1").strip().lower())
        if len(hosts) != 1 or len(origins) > 1:  # two Host headers: which one the app reads is anyone's guess
            return False
        host, origin = hosts[0], (origins[0] if origins else None)
        name, port = _split_port(host)
        if name not in self.names or (port or "80") != self.port:
            return False
        if origin is None:
            return True
        scheme, sep, rest = origin.partition("://")
        return bool(sep) and scheme in ("http", "https") and _split_port(rest)[0] in self.names

    async def __call__(self, scope, receive, send):
        if scope.get("type") in ("http", "websocket") and not self._ok(scope.get("headers")):
            body = json.dumps({"error": "forbidden: the Host or Origin header does not name this server (set "
                                        "TRAINING_CHECK_HTTP_ALLOWED_HOSTS for a name it is reached by)"}).encode()
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def load_or_create_token(home: Path, env: Mapping[str, str] | None = None) -> tuple[str, Path | None, bool]:
    """(token, the file it is in or None when from the environment, whether it was just generated)."""
    environ: Mapping[str, str] = os.environ if env is None else env
    given = environ.get("TRAINING_CHECK_HTTP_TOKEN", "").strip()
    if given:
        if len(given) < 16:
            raise BadInput("TRAINING_CHECK_HTTP_TOKEN is too short: use at least 16 random characters")
        remember_secret(given, "TRAINING_CHECK_HTTP_TOKEN")
        return given, None, False
    path = home / TOKEN_FILE
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, encoding="utf-8") as f:
            if os.fstat(f.fileno()).st_mode & 0o077:
                raise BadInput(f"{path} is readable by other users: chmod 600 it, or delete it to get a new token")
            token = f.read(200).strip()
        if len(token) < 16:
            raise BadInput(f"{path} holds no usable token: delete it to get a new one")
        remember_secret(token, "http-token")
        return token, path, False
    except FileNotFoundError:
        pass
    except OSError as e:
        raise BadInput(f"cannot read the token file {path}: {e.strerror}") from None
    token = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except OSError as e:
        raise BadInput(f"cannot write the token file {path}: {e.strerror}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    remember_secret(token, "http-token")
    return token, path, True


class BearerAuth:
    """ASGI middleware: HTTP requests without ``Authorization: Bearer <token>`` get 401 and reach nothing."""

    def __init__(self, app: Any, token: str):
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send):
        if scope.get("type") == "http":
            given = b""
            for name, value in scope.get("headers") or []:
                if name.lower() == b"authorization":
                    given = value
                    break
            if not hmac.compare_digest(given, self._expected):
                body = json.dumps({"error": "unauthorized: send Authorization: Bearer <token> (the token is in "
                                            "$TRAINING_CHECK_HOME/http-token)"}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"www-authenticate", b'Bearer realm="training-check"'),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(server, host: str, token: str | None, port: int | None = None):
    """The app behind the Host/Origin guard (when ``port`` is known) and the bearer token (when ``token``)."""
    app = server.streamable_http_app(host=host)
    app = BearerAuth(app, token) if token else app
    return HostGuard(app, allowed_names(host), port) if port is not None else app


def serve_http(server, host: str, port: int, home: Path, no_auth: bool = False, err=None) -> None:
    """Run the server over streamable HTTP, behind the token unless ``no_auth`` (loopback only)."""
    import sys

    import anyio
    import uvicorn

    err = err or sys.stderr
    if no_auth and not is_loopback(host):
        raise BadInput(f"refusing --no-auth on {host}: other machines could stop your runs; serve on 127.0.0.1 "
                       f"or keep the bearer token")
    token = None
    if not no_auth:
        token, path, new = load_or_create_token(home)
        if new:  # shown to its owner once, on purpose: past the redaction of stderr (tools/redact.py)
            print(f"training-check: bearer token (shown once, saved in {path}): {token}",
                  file=getattr(err, "unredacted", err), flush=True)
        else:
            print(f"training-check: clients must send Authorization: Bearer <the token in "
                  f"{path or 'TRAINING_CHECK_HTTP_TOKEN'}>", file=err, flush=True)
    else:
        print("training-check: warning: --no-auth: any local user can call the tools", file=err, flush=True)
    print(f"training-check: MCP over streamable HTTP at http://{host}:{port}/mcp", file=err, flush=True)
    config = uvicorn.Config(http_app(server, host, token, port), host=host, port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)
