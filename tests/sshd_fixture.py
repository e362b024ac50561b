"""A real OpenSSH sshd on 127.0.0.1 for tests and benches: temp config, host key, user key, known_hosts.

Use the ``sshd`` pytest fixture (module scoped), or ``SshServer.start_in(folder)`` outside pytest
(bench/ssh_transfer.py). The server runs as the current user (root in CI: ``PermitRootLogin
prohibit-password``, ``StrictModes no``, ``UsePAM no``). ``stop()`` ends the listener and every session
process (its own process group); ``start()`` brings it back on the same port with the same keys.
"""

from __future__ import annotations

import getpass
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

SSHD_CANDIDATES = ("/usr/sbin/sshd", "/usr/local/sbin/sshd")


def find_sshd() -> str | None:
    """The sshd binary (it must be run by absolute path), or None."""
    found = shutil.which("sshd")
    if found:
        return found
    return next((p for p in SSHD_CANDIDATES if os.path.exists(p)), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (from /proc), children first found first."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def keygen(path: Path, comment: str = "training-check-test") -> Path:
    """A new ed25519 key pair at ``path`` / ``path.pub`` (no passphrase)."""
    if path.exists():
        path.unlink()
    Path(str(path) + ".pub").unlink(missing_ok=True)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return path


@dataclass
class SshServer:
    """One sshd: where it listens, the keys it trusts and the files a client needs."""

    folder: Path
    port: int
    user: str
    host: str = "127.0.0.1"
    proc: subprocess.Popen | None = field(default=None, repr=False)

    @property
    def host_key(self) -> Path:
        return self.folder / "ssh_host_ed25519_key"

    @property
    def user_key(self) -> Path:
        return self.folder / "id_ed25519"

    @property
    def known_hosts(self) -> Path:
        return self.folder / "known_hosts"

    @property
    def client_config(self) -> Path:
        """An ssh_config: alias ``tc-test`` -> this server, and IdentityFile/known_hosts for 127.0.0.1."""
        return self.folder / "ssh_config"

    @property
    def sshd_config(self) -> Path:
        return self.folder / "sshd_config"

    @property
    def log(self) -> Path:
        return self.folder / "sshd.log"

    def url(self, path: str) -> str:
        return f"ssh://{self.user}@{self.host}:{self.port}{path}"

    @property
    def host_spec(self) -> str:
        return f"{self.user}@{self.host}:{self.port}"

    def env(self) -> dict[str, str]:
        """Environment variables pointing training-check's SSH layer at this server's client files."""
        return {"TRAINING_CHECK_SSH_CONFIG": str(self.client_config),
                "TRAINING_CHECK_SSH_KNOWN_HOSTS": str(self.known_hosts)}

    # -- set-up -------------------------------------------------------------------------
    @classmethod
    def start_in(cls, folder: Path, sshd: str | None = None) -> SshServer:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
        server = cls(folder=folder, port=free_port(), user=getpass.getuser())
        keygen(server.host_key, "host")
        keygen(server.user_key, "user")
        (folder / "authorized_keys").write_text(Path(str(server.user_key) + ".pub").read_text())
        os.chmod(folder / "authorized_keys", 0o600)
        server.write_configs()
        server.start(sshd)
        return server

    def write_configs(self) -> None:
        self.sshd_config.write_text("\n".join([
            f"Port {self.port}",
            "ListenAddress 127.0.0.1",
            f"HostKey {self.host_key}",
            f"PidFile {self.folder / 'sshd.pid'}",
            f"AuthorizedKeysFile {self.folder / 'authorized_keys'}",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PubkeyAuthentication yes",
            "PermitRootLogin prohibit-password",
            "StrictModes no",
            "UsePAM no",
            "Subsystem sftp internal-sftp",
            "LogLevel ERROR",
            "MaxSessions 50",
            "PrintMotd no",
            "PrintLastLog no",
            "UseDNS no",
            "MaxStartups 50:30:100",
            "",
        ]))
        pub = Path(str(self.host_key) + ".pub").read_text().split()
        self.known_hosts.write_text(f"[{self.host}]:{self.port} {pub[0]} {pub[1]}\n")
        self.client_config.write_text("\n".join([
            "Host tc-test",
            f"    HostName {self.host}",
            f"    Port {self.port}",
            f"    User {self.user}",
            f"    IdentityFile {self.user_key}",
            "Host 127.0.0.1",
            f"    IdentityFile {self.user_key}",
            "",
        ]))

    def start(self, sshd: str | None = None, timeout_s: float = 10.0) -> None:
        """Start sshd (foreground, own process group) and wait until it accepts connections."""
        binary = sshd or find_sshd()
        if not binary:
            raise RuntimeError("sshd not found: install openssh-server")
        if os.geteuid() == 0:
            os.makedirs("/run/sshd", exist_ok=True)  # privilege separation directory
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen([binary, "-D", "-e", "-f", str(self.sshd_config)], stdout=log,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"sshd exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5) as s:
                    if s.recv(4).startswith(b"SSH-"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"sshd did not come up on port {self.port}")

    def stop(self) -> None:
        """End sshd and every session it forked (they share its process group)."""
        if self.proc is None:
            return
        victims = [self.proc.pid, *descendants(self.proc.pid)]  # sessions call setsid(): not in our group
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(timeout=10)
        self.proc = None
        # wait until the port no longer answers
        for _ in range(100):
            try:
                socket.create_connection((self.host, self.port), timeout=0.2).close()
                time.sleep(0.02)
            except OSError:
                return

    def restart(self) -> None:
        self.stop()
        self.start()

    def regenerate_host_key(self) -> None:
        """A new host key (known_hosts is left as it was: the client now sees a CHANGED key)."""
        old_known = self.known_hosts.read_text()
        self.stop()
        keygen(self.host_key, "host-new")
        self.write_configs()
        self.known_hosts.write_text(old_known)
        self.start()


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    """A running real sshd on 127.0.0.1 (fails in CI when openssh-server is missing)."""
    from tests.conftest import require

    binary = find_sshd()
    require(binary is not None, "openssh-server (sshd) - apt-get install openssh-server")
    require(shutil.which("ssh-keygen") is not None, "ssh-keygen (openssh-client)")
    server = SshServer.start_in(tmp_path_factory.mktemp("sshd"), binary)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def ssh_env(sshd, monkeypatch):
    """The real sshd, with the environment pointing our SSH client at its config and known_hosts; a clean pool."""
    from training_check.tools.sources.ssh import POOL

    for k, v in sshd.env().items():
        monkeypatch.setenv(k, v)
    POOL.close_all()
    yield sshd
    POOL.close_all()


def unknown_host_message(port: int) -> str:
    """The whole error line for a refused unknown host 127.0.0.1:<port>."""
    return (f"host [127.0.0.1]:{port} is not in known_hosts: run `ssh 127.0.0.1` once to trust it, or set "
            f"TRAINING_CHECK_SSH_ACCEPT_UNKNOWN_HOSTS=1")


def changed_host_key_pattern(port: int) -> str:
    """A whole-line pattern for the refusal of 127.0.0.1:<port> whose host key changed (any fingerprint)."""
    entry = re.escape(f"[127.0.0.1]:{port}")
    return (rf"\Ahost key of {entry} CHANGED \(got ssh-ed25519 [0-9a-f]{{16}}\.\.\., known_hosts has another\): "
            rf"refusing to connect; if the change is expected, run `ssh-keygen -R '{entry}'` and connect once "
            rf"with ssh\Z")
