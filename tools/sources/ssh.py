"""Files and commands on another machine over SSH (paramiko): SFTP byte ranges and quoted remote commands.

Host names go through ``~/.ssh/config`` (HostName, User, Port, IdentityFile, IdentitiesOnly,
UserKnownHostsFile). Host keys are checked against the user's and the system's known_hosts; an unknown
host is refused unless ``Config.ssh_accept_unknown_hosts`` (env ``TRAINING_CHECK_SSH_ACCEPT_UNKNOWN_HOSTS=1``)
says to accept and record it; a changed key is always refused. One Transport per
(user, host, port, known_hosts) is kept for the whole process and re-opened once when it drops.

Knobs for tests and unusual set-ups (explicit parameters win over the environment):
``TRAINING_CHECK_SSH_CONFIG`` (an ssh_config file instead of ``~/.ssh/config``) and
``TRAINING_CHECK_SSH_KNOWN_HOSTS`` (known_hosts files, ``os.pathsep``-separated, instead of
``~/.ssh/known_hosts``).
"""

from __future__ import annotations

import errno
import os
import posixpath
import re
import shlex
import socket
import stat as stat_mod
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import paramiko

from ..config import Config
from ..errors import AuthError, BadInput, HostKeyError, RunNotFound, SourceUnreachable
from ..runref import RunRef
from .files import DirEntry, FileStat, credential_place, credential_refused, is_inside, kind_of, not_regular, outside

SYSTEM_KNOWN_HOSTS = ("/etc/ssh/ssh_known_hosts",)
DEFAULT_CONNECT_TIMEOUT_S = 10.0
_HOST_RE = re.compile(r"^(?:[A-Za-z0-9_][A-Za-z0-9_.\-]*|\[[0-9A-Fa-f:.]+\])$")
_USER_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$")
SFTP_REQUEST = 32768  # paramiko's largest single read request


# ----------------------------------------------------------------------------------------------
# Where to connect
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SshTarget:
    """A resolved SSH destination: ``alias`` as the user wrote it, ``hostname`` after ~/.ssh/config."""

    alias: str
    hostname: str
    port: int
    user: str
    identity_files: tuple[str, ...] = ()
    identities_only: bool = False
    known_hosts: tuple[str, ...] = ()
    connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S

    @property
    def label(self) -> str:
        return f"{self.user}@{self.alias}" + (f":{self.port}" if self.port != 22 else "")

    @property
    def pool_key(self) -> tuple:
        return (self.user, self.hostname, self.port, self.known_hosts)


def _validate_host(host: str, what: str = "host") -> str:
    if not isinstance(host, str) or not host or len(host) > 255 or not _HOST_RE.match(host):
        raise BadInput(f"bad SSH {what} {host!r}: use a host name, an IP, or an alias from ~/.ssh/config")
    return host


def parse_host_spec(spec: str) -> tuple[str | None, str, int | None]:
    """``[ssh://][user@]host[:port]`` (or an ~/.ssh/config alias) -> (user, host, port); rejects option-like text."""
    if not isinstance(spec, str) or not spec.strip():
        raise BadInput("host is empty: pass user@host[:port] or an alias from ~/.ssh/config")
    s = spec.strip()
    if any(ord(c) < 32 or ord(c) == 127 for c in s) or s.startswith("-") or len(s) > 300:
        raise BadInput(f"bad host {spec[:60]!r}: pass user@host[:port] or an alias from ~/.ssh/config")
    if s.startswith("ssh://"):
        s = s[len("ssh://"):].rstrip("/")
    user = None
    if "@" in s:
        user, s = s.rsplit("@", 1)
        if not _USER_RE.match(user):
            raise BadInput(f"bad SSH user {user!r} in {spec!r}: letters, digits, '_', '.', '-' only")
    port = None
    m = re.fullmatch(r"(\[[0-9A-Fa-f:.]+\]|[^:]+)(?::(\d+))?", s)
    if not m:
        raise BadInput(f"bad host {spec!r}: pass user@host[:port] or an alias from ~/.ssh/config")
    host, port_text = m.group(1), m.group(2)
    if port_text is not None:
        port = int(port_text)
        if not 0 < port < 65536:
            raise BadInput(f"bad SSH port {port} in {spec!r}: 1-65535")
    return user, _validate_host(host).strip("[]"), port


def _env_paths(value: str | None) -> tuple[str, ...]:
    return tuple(os.path.expanduser(p) for p in (value or "").split(os.pathsep) if p.strip())


def resolve_target(host: str, *, user: str | None = None, port: int | None = None,
                   ssh_config_path: str | None = None, known_hosts_paths: tuple[str, ...] | None = None,
                   env: Mapping[str, str] | None = None) -> SshTarget:
    """Apply ~/.ssh/config (or ``ssh_config_path``) to a host or alias; explicit user/port win over the file."""
    env = os.environ if env is None else env
    _validate_host(host if not (":" in host and not host.startswith("[")) else f"[{host}]")
    cfg_path = ssh_config_path or env.get("TRAINING_CHECK_SSH_CONFIG") or os.path.expanduser("~/.ssh/config")
    opts: dict = {}
    if os.path.isfile(cfg_path):
        try:
            opts = paramiko.SSHConfig.from_path(cfg_path).lookup(host)
        except Exception as e:  # paramiko raises several types for a malformed file
            raise BadInput(f"cannot read the SSH config {cfg_path}: {e}; fix the file") from None
    hostname = opts.get("hostname", host)
    try:
        cfg_port = int(opts["port"]) if "port" in opts else None
    except ValueError:
        raise BadInput(f"bad Port {opts['port']!r} for {host} in {cfg_path}") from None
    final_user = user or opts.get("user") or env.get("USER") or _current_user()
    if not _USER_RE.match(final_user):
        raise BadInput(f"bad SSH user {final_user!r} for {host}")
    if known_hosts_paths is None:
        known_hosts_paths = _env_paths(env.get("TRAINING_CHECK_SSH_KNOWN_HOSTS"))
        if not known_hosts_paths:
            from_cfg = tuple(os.path.expanduser(p) for p in str(opts.get("userknownhostsfile", "")).split() if p)
            known_hosts_paths = from_cfg or (os.path.expanduser("~/.ssh/known_hosts"),)
    timeout = DEFAULT_CONNECT_TIMEOUT_S
    if "connecttimeout" in opts:
        try:
            timeout = float(opts["connecttimeout"])
        except ValueError:
            pass
    return SshTarget(
        alias=host, hostname=hostname, port=port or cfg_port or 22, user=final_user,
        identity_files=tuple(os.path.expanduser(p) for p in opts.get("identityfile", [])),
        identities_only=str(opts.get("identitiesonly", "no")).lower() == "yes",
        known_hosts=tuple(known_hosts_paths), connect_timeout_s=timeout,
    )


def _current_user() -> str:
    import getpass

    return getpass.getuser()


def target_for_ref(ref: RunRef, **kw) -> SshTarget:
    if ref.kind != "ssh" or not ref.host:
        raise BadInput(f"{ref.raw!r} is not an SSH run reference (ssh://user@host/path or host:/path)")
    return resolve_target(ref.host, user=ref.user, port=ref.port, **kw)


# ----------------------------------------------------------------------------------------------
# Host keys
# ----------------------------------------------------------------------------------------------
def _known_host_entry(hostname: str, port: int) -> str:
    return hostname if port == 22 else f"[{hostname}]:{port}"


class _UnknownHostPolicy(paramiko.MissingHostKeyPolicy):
    """Refuse an unknown host (default), or accept it and append it to the first known_hosts file.

    A host that is known with a key of another type is treated as a changed key and always refused.
    """

    def __init__(self, target: SshTarget, accept: bool, revoked: frozenset[tuple[str, bytes]] = frozenset()):
        self.target = target
        self.accept = accept
        self.revoked = revoked

    def missing_host_key(self, client, hostname, key):
        entry = _known_host_entry(self.target.hostname, self.target.port)
        if (key.get_name(), key.asbytes()) in self.revoked:
            raise HostKeyError(f"the host key of {entry} ({key.get_name()}) is marked @revoked in known_hosts: "
                               f"refusing to connect")
        known = client.get_host_keys().get(entry) or client._system_host_keys.get(entry)
        if known:
            raise HostKeyError(
                f"host key of {entry} CHANGED (known_hosts has a {', '.join(known.keys())} key, the server offers "
                f"{key.get_name()}): refusing to connect; if the change is expected, run `ssh-keygen -R '{entry}'` "
                f"and connect once with ssh")
        if not self.accept:
            raise HostKeyError(
                f"host {entry} is not in known_hosts: run `ssh {self.target.alias}` once to trust it, "
                f"or set TRAINING_CHECK_SSH_ACCEPT_UNKNOWN_HOSTS=1")
        path = self.target.known_hosts[0] if self.target.known_hosts else os.path.expanduser("~/.ssh/known_hosts")
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a", encoding="ascii") as f:
                f.write(f"{entry} {key.get_name()} {key.get_base64()}\n")
        except OSError as e:
            raise HostKeyError(f"cannot record the host key of {entry} in {path}: {e.strerror}") from None
        client.get_host_keys().add(entry, key.get_name(), key)


# ----------------------------------------------------------------------------------------------
# Connections
# ----------------------------------------------------------------------------------------------
class _CountingSocket:
    """A socket that counts the bytes it carries (what crossed the wire, SSH framing included)."""

    def __init__(self, sock: socket.socket, counter: TransferCounter):
        self._sock = sock
        self._counter = counter

    def recv(self, n: int, *args) -> bytes:
        data = self._sock.recv(n, *args)
        self._counter.wire_rx += len(data)
        return data

    def send(self, data, *args) -> int:
        n = self._sock.send(data, *args)
        self._counter.wire_tx += n
        return n

    def sendall(self, data, *args):
        self._counter.wire_tx += len(data)
        return self._sock.sendall(data, *args)

    def __getattr__(self, name):
        return getattr(self._sock, name)


@dataclass
class TransferCounter:
    """Bytes moved over SSH in this process: file payload read, and raw bytes on the wire."""

    payload_read: int = 0
    wire_rx: int = 0
    wire_tx: int = 0
    connects: int = 0

    def snapshot(self) -> dict:
        return {"payload_read": self.payload_read, "wire_rx": self.wire_rx, "wire_tx": self.wire_tx,
                "connects": self.connects}


TRANSFER = TransferCounter()


@dataclass
class _Conn:
    client: paramiko.SSHClient
    lock: threading.RLock = field(default_factory=threading.RLock)
    sftp: paramiko.SFTPClient | None = None

    def alive(self) -> bool:
        t = self.client.get_transport()
        return bool(t and t.is_active())

    def close(self) -> None:
        try:
            if self.sftp:
                self.sftp.close()
        except Exception:
            pass
        try:
            self.client.close()
        except Exception:
            pass


KNOWN_HOSTS_MAX = 16 << 20  # bytes of one known_hosts file


def _load_known_hosts(entries: list[paramiko.hostkeys.HostKeyEntry], path: str) -> set[tuple[str, bytes]]:
    """Append ``path``'s host key lines to ``entries``; return its ``@revoked`` keys. ``@cert-authority`` lines are
    skipped (certificates are not supported); a malformed line is a one-line HostKeyError naming the file and
    line."""
    try:
        with open(path, "rb") as f:
            raw = f.read(KNOWN_HOSTS_MAX + 1)
    except OSError as e:
        raise HostKeyError(f"cannot read known_hosts {path}: {e.strerror}; fix the file") from None
    if len(raw) > KNOWN_HOSTS_MAX:
        raise HostKeyError(f"known_hosts {path} is over {KNOWN_HOSTS_MAX >> 20} MB: not a known_hosts file")
    revoked: set[tuple[str, bytes]] = set()
    for lineno, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        marker = text.split(None, 1)[0] if text.startswith("@") else ""
        if marker == "@cert-authority":
            continue
        if marker and marker != "@revoked":
            raise HostKeyError(f"known_hosts {path} line {lineno}: unknown marker {marker[:20]!r}; fix or remove "
                               f"the line")
        body = text.split(None, 1)[1] if marker else text
        try:
            entry = paramiko.hostkeys.HostKeyEntry.from_line(body, lineno)
        except (paramiko.hostkeys.InvalidHostKey, paramiko.SSHException, ValueError, IndexError):
            entry = None
        if entry is None or entry.key is None:
            raise HostKeyError(f"known_hosts {path} line {lineno} is not a valid host key line; fix or remove it")
        if marker:
            revoked.add((entry.key.get_name(), entry.key.asbytes()))
            continue
        entries.append(entry)
    return revoked


def _connect(target: SshTarget, accept_unknown: bool) -> paramiko.SSHClient:
    label = target.label
    client = paramiko.SSHClient()
    for path in SYSTEM_KNOWN_HOSTS:
        if os.path.isfile(path):
            try:
                client.load_system_host_keys(path)
            except (OSError, paramiko.SSHException):
                pass
    revoked: set[tuple[str, bytes]] = set()
    entries: list[paramiko.hostkeys.HostKeyEntry] = []
    for path in target.known_hosts:
        if os.path.isfile(path):
            revoked |= _load_known_hosts(entries, path)
    for entry in entries:  # a revoked key is never a known one
        if entry.key is not None and (entry.key.get_name(), entry.key.asbytes()) not in revoked:
            for name in entry.hostnames:
                client.get_host_keys().add(name, entry.key.get_name(), entry.key)
    client.set_missing_host_key_policy(_UnknownHostPolicy(target, accept_unknown, frozenset(revoked)))
    try:
        raw = socket.create_connection((target.hostname, target.port), timeout=target.connect_timeout_s)
    except socket.gaierror:
        raise SourceUnreachable(f"cannot resolve SSH host {target.hostname!r} ({label}): check the name "
                                f"or ~/.ssh/config") from None
    except TimeoutError:
        raise SourceUnreachable(f"SSH connection to {label} timed out after {target.connect_timeout_s:g}s: "
                                f"check the host is up and reachable") from None
    except OSError as e:
        raise SourceUnreachable(f"cannot connect to {label} ({target.hostname}:{target.port}): "
                                f"{e.strerror or e}; check that sshd runs there") from None
    keys = [p for p in target.identity_files if os.path.isfile(p)]
    try:
        client.connect(target.hostname, port=target.port, username=target.user, sock=_CountingSocket(raw, TRANSFER),
                       key_filename=keys or None, look_for_keys=not target.identities_only,
                       allow_agent=not target.identities_only, timeout=target.connect_timeout_s,
                       banner_timeout=target.connect_timeout_s, auth_timeout=target.connect_timeout_s)
    except HostKeyError:
        client.close()
        raise
    except paramiko.BadHostKeyException as e:
        client.close()
        entry = _known_host_entry(target.hostname, target.port)
        raise HostKeyError(f"host key of {entry} CHANGED "
                           f"(got {e.key.get_name()} {e.key.get_fingerprint().hex()[:16]}..., "
                           f"known_hosts has another): refusing to connect; if the change is expected, run "
                           f"`ssh-keygen -R '{entry}'` and connect once with ssh") from None
    except paramiko.PasswordRequiredException:
        client.close()
        raise AuthError(f"the SSH key for {label} is passphrase-protected: load it into ssh-agent "
                        f"(ssh-add) and retry") from None
    except paramiko.AuthenticationException:
        client.close()
        raise AuthError(f"SSH login to {label} refused (public key): add your key to the host's authorized_keys "
                        f"or set IdentityFile for it in ~/.ssh/config") from None
    except (paramiko.SSHException, EOFError, OSError) as e:
        client.close()
        raise SourceUnreachable(f"SSH handshake with {label} failed: {str(e) or type(e).__name__}; "
                                f"check that sshd runs there") from None
    TRANSFER.connects += 1
    transport = client.get_transport()
    if transport is not None:
        transport.set_keepalive(30)
    return client


class ConnectionPool:
    """One live SSH connection per (user, host, port, known_hosts) in this process."""

    def __init__(self) -> None:
        self._conns: dict[tuple, _Conn] = {}
        self._lock = threading.Lock()

    def get(self, target: SshTarget, accept_unknown: bool = False) -> _Conn:
        with self._lock:
            conn = self._conns.get(target.pool_key)
            if conn is not None and conn.alive():
                return conn
            if conn is not None:
                conn.close()
                del self._conns[target.pool_key]
        new = _Conn(_connect(target, accept_unknown))
        with self._lock:
            old = self._conns.get(target.pool_key)
            if old is not None and old.alive():
                new.close()
                return old
            self._conns[target.pool_key] = new
            return new

    def drop(self, target: SshTarget, conn: _Conn | None = None) -> None:
        with self._lock:
            current = self._conns.get(target.pool_key)
            if current is not None and (conn is None or current is conn):
                del self._conns[target.pool_key]
                current.close()

    def transport_of(self, target: SshTarget) -> paramiko.Transport | None:
        conn = self._conns.get(target.pool_key)
        return conn.client.get_transport() if conn else None

    def close_all(self) -> None:
        with self._lock:
            conns, self._conns = list(self._conns.values()), {}
        for c in conns:
            c.close()

    def __len__(self) -> int:
        return len(self._conns)


POOL = ConnectionPool()

_DROPPED = (EOFError, ConnectionError, socket.timeout, TimeoutError, paramiko.SSHException, OSError)


def _with_retry(target: SshTarget, accept_unknown: bool, op, what: str, pool: ConnectionPool):
    """Run ``op(conn)``; when the connection dropped, reconnect once and try again."""
    for attempt in (0, 1):
        conn = pool.get(target, accept_unknown)
        try:
            with conn.lock:
                return op(conn)
        except (RunNotFound, BadInput):
            raise
        except _DROPPED as e:
            if isinstance(e, (IOError, OSError)) and getattr(e, "errno", None) is not None and conn.alive():
                raise  # a file error from the server, not a dropped link: the caller maps it
            pool.drop(target, conn)
            if attempt == 1:
                raise SourceUnreachable(f"SSH connection to {target.label} dropped during {what} and could not be "
                                        f"re-established: {str(e) or type(e).__name__}") from None
    raise AssertionError("unreachable")


# ----------------------------------------------------------------------------------------------
# SFTP file system
# ----------------------------------------------------------------------------------------------
class SftpFileSystem:
    """Files on an SSH host, read in byte ranges over SFTP (a tail never downloads the whole file)."""

    def __init__(self, target: SshTarget, *, accept_unknown_hosts: bool = False, pool: ConnectionPool | None = None,
                 root: str | None = None):
        self.target = target
        self.accept_unknown_hosts = accept_unknown_hosts
        self.pool = pool or POOL
        self.root = root  # the run folder (its real path on the host) every file must really be in, or None

    def confined(self, root: str) -> SftpFileSystem:
        real = self._run(root, "realpath", lambda s: s.normalize(root))
        return SftpFileSystem(self.target, accept_unknown_hosts=self.accept_unknown_hosts, pool=self.pool, root=real)

    def _checked(self, sftp: paramiko.SFTPClient, path: str) -> None:
        """Refuse what is not a regular file or folder, and (confined) what really lies outside the run folder."""
        st = sftp.stat(path)
        kind = kind_of(st.st_mode or 0)
        if kind:
            raise not_regular(self.describe(path), kind)
        if credential_place(path):
            raise credential_refused(self.describe(path))
        if self.root is not None:
            real = sftp.normalize(path)
            if credential_place(real):
                raise credential_refused(self.describe(path))
            if not is_inside(real, self.root):
                raise outside(self.describe(path), real, self.root)

    def describe(self, path: str) -> str:
        port = f":{self.target.port}" if self.target.port != 22 else ""
        return f"ssh://{self.target.user}@{self.target.alias}{port}{path}"

    def _sftp(self, conn: _Conn) -> paramiko.SFTPClient:
        if conn.sftp is None:
            conn.sftp = conn.client.open_sftp()
        return conn.sftp

    def _file_error(self, path: str, e: OSError) -> Exception:
        where = self.describe(path)
        if e.errno == errno.ENOENT:
            return RunNotFound(f"no such file: {where}; check the remote path")
        if e.errno in (errno.EACCES, errno.EPERM):
            return BadInput(f"permission denied reading {where}; make it readable by {self.target.user}")
        return SourceUnreachable(f"cannot read {where}: {e.strerror or e}")

    def _run(self, path: str, what: str, fn):
        def op(conn: _Conn):
            try:
                return fn(self._sftp(conn))
            except OSError as e:
                if getattr(e, "errno", None) is not None and conn.alive():
                    raise self._file_error(path, e) from None
                raise

        return _with_retry(self.target, self.accept_unknown_hosts, op, what, self.pool)

    def stat(self, path: str) -> FileStat:
        def fn(sftp: paramiko.SFTPClient):
            self._checked(sftp, path)
            return sftp.stat(path)

        st = self._run(path, "stat", fn)
        return FileStat(int(st.st_size or 0), float(st.st_mtime or 0), stat_mod.S_ISDIR(st.st_mode or 0), None)

    def read_at(self, path: str, offset: int, length: int) -> bytes:
        if offset < 0 or length < 0:
            raise BadInput(f"bad byte range {offset}+{length} for {self.describe(path)}")

        def fn(sftp: paramiko.SFTPClient) -> bytes:
            self._checked(sftp, path)  # a FIFO is never opened: the server's open would wait for a writer
            with sftp.open(path, "rb") as f:
                size = f.stat().st_size or 0
                n = max(0, min(length, size - offset))
                if n == 0:
                    return b""
                f.seek(offset)
                if n <= SFTP_REQUEST:
                    data = f.read(n)
                else:
                    data = b"".join(f.readv([(offset, n)]))
            TRANSFER.payload_read += len(data)
            return data

        return self._run(path, "read", fn)

    def listdir(self, path: str) -> list[DirEntry]:
        attrs = self._run(path, "listdir", lambda s: s.listdir_attr(path))
        return [DirEntry(a.filename, stat_mod.S_ISDIR(a.st_mode or 0), int(a.st_size or 0), float(a.st_mtime or 0))
                for a in attrs]

    def join(self, *parts: str) -> str:
        return posixpath.join(*parts)


def ssh_filesystem(ref: RunRef, config: Config, *, ssh_config_path: str | None = None,
                   known_hosts_paths: tuple[str, ...] | None = None) -> SftpFileSystem:
    """The SFTP file system of an ``ssh://`` / ``host:/path`` run reference (connection opened lazily)."""
    target = target_for_ref(ref, ssh_config_path=ssh_config_path, known_hosts_paths=known_hosts_paths)
    return SftpFileSystem(target, accept_unknown_hosts=config.ssh_accept_unknown_hosts)


# ----------------------------------------------------------------------------------------------
# Remote commands
# ----------------------------------------------------------------------------------------------
def quote_argv(argv: list[str]) -> str:
    """The remote command line: every argument shlex-quoted (the remote shell sees literals only)."""
    if not argv or not all(isinstance(a, str) for a in argv):
        raise BadInput("remote command must be a non-empty list of strings")
    for a in argv:
        if "\x00" in a:
            raise BadInput("a remote command argument contains a NUL byte")
    return " ".join(shlex.quote(a) for a in argv)


def run_remote(target: SshTarget, argv: list[str], timeout: float = 30.0, *, accept_unknown_hosts: bool = False,
               pool: ConnectionPool | None = None, max_output: int = 4 << 20) -> tuple[int, str, str]:
    """Run ``argv`` on the host (each argument shlex-quoted) -> (exit code, stdout, stderr)."""
    command = quote_argv(argv)
    pool = pool or POOL

    def op(conn: _Conn):
        transport = conn.client.get_transport()
        if transport is None:
            raise EOFError("no transport")
        chan = transport.open_session(timeout=timeout)
        try:
            chan.settimeout(timeout)
            chan.exec_command(command)
            chan.shutdown_write()
            out, err = bytearray(), bytearray()
            deadline = time.monotonic() + timeout
            while True:
                if chan.recv_ready():
                    out += chan.recv(65536)
                elif chan.recv_stderr_ready():
                    err += chan.recv_stderr(65536)
                elif chan.exit_status_ready() and not chan.recv_ready() and not chan.recv_stderr_ready():
                    break
                elif time.monotonic() > deadline:
                    raise SourceUnreachable(f"remote command {argv[0]!r} on {target.label} did not finish within "
                                            f"{timeout:g}s")
                else:
                    time.sleep(0.005)
                if len(out) > max_output or len(err) > max_output:
                    raise SourceUnreachable(f"remote command {argv[0]!r} on {target.label} printed more than "
                                            f"{max_output} bytes")
            rc = chan.recv_exit_status()
            return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
        finally:
            chan.close()

    return _with_retry(target, accept_unknown_hosts, op, f"remote command {argv[0]!r}", pool)
