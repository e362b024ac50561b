"""The process table of a machine, here (/proc, os.kill) or over SSH (quoted commands): look up, match, signal.

Both tables expose the same methods so the signal stopper runs the same sequence on either.
A process is identified by (pid, start time): a PID reused by a new process is never signalled.
"""

from __future__ import annotations

import os
import re
import shlex
import signal as signal_mod
from dataclasses import dataclass

from ..errors import BadInput, RunNotFound, StopRefused
from .outcome import Runner

PID_MAX = 1 << 22  # Linux's largest pid_max
ALLOWED_SIGNALS = ("INT", "TERM", "KILL")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class ProcInfo:
    pid: int
    uid: int | None
    start: str  # start time since boot (clock ticks), constant for the life of the process
    state: str  # one letter: R S D Z T ...
    argv: tuple[str, ...]

    @property
    def cmdline(self) -> str:
        return " ".join(self.argv)

    @property
    def zombie(self) -> bool:
        return self.state in ("Z", "X")

    def short(self, limit: int = 80) -> str:
        text = self.cmdline or "[kernel thread]"
        return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_pid(value) -> int:
    """A PID: a positive integer (int or digits), at most 2**22; anything else is refused."""
    if isinstance(value, bool):
        raise BadInput(f"bad PID {value!r}: pass a positive integer")
    if isinstance(value, int):
        pid = value
    elif isinstance(value, str) and re.fullmatch(r"\s*\d{1,8}\s*", value):
        pid = int(value)
    else:
        raise BadInput(f"bad PID {str(value)[:60]!r}: pass a positive integer such as pid:12345")
    if not 0 < pid <= PID_MAX:
        raise BadInput(f"bad PID {pid}: PIDs are between 1 and {PID_MAX}")
    return pid


def check_path(path: str, what: str = "pidfile") -> str:
    """An absolute path without control characters (it is passed as one argument, never through a shell)."""
    if not isinstance(path, str) or not path.startswith("/") or _CONTROL.search(path) or len(path) > 4096:
        raise BadInput(f"bad {what} path {str(path)[:80]!r}: pass an absolute path without control characters")
    return path


def check_cmdline(cmd: str) -> str:
    """A full command line to match exactly: non-empty, printable, at most 8192 characters."""
    if not isinstance(cmd, str) or not cmd.strip() or _CONTROL.search(cmd) or len(cmd) > 8192:
        raise BadInput("bad command line to match: pass the exact full command line of the process "
                       "(printable characters, no newlines)")
    return cmd


def cmdline_matches(argv: tuple[str, ...], wanted: str) -> bool:
    """Exact match only: argv equals the shell-split ``wanted``, or argv joined by spaces equals ``wanted``."""
    if not argv:
        return False
    if " ".join(argv) == wanted:
        return True
    try:
        return list(argv) == shlex.split(wanted)
    except ValueError:
        return False


def _parse_stat(text: str) -> tuple[str, str]:
    """(state, start time) from a /proc/PID/stat line (the command name may hold spaces and parentheses)."""
    rest = text.rsplit(")", 1)[1].split()
    return rest[0], rest[19]


def _split_cmdline(raw: bytes) -> tuple[str, ...]:
    parts = raw.split(b"\0")
    if parts and parts[-1] == b"":
        parts.pop()
    return tuple(p.decode("utf-8", "replace") for p in parts)


class LocalProcesses:
    """This machine's processes."""

    host: str | None = None
    label = "this machine"

    def info(self, pid: int) -> ProcInfo | None:
        base = f"/proc/{pid}"
        try:
            with open(f"{base}/stat", "r", encoding="utf-8", errors="replace") as f:
                state, start = _parse_stat(f.read())
            uid = os.stat(base).st_uid
            with open(f"{base}/cmdline", "rb") as f:
                argv = _split_cmdline(f.read())
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return None
        except PermissionError:
            return ProcInfo(pid, None, "?", "?", ())
        return ProcInfo(pid, uid, start, state, argv)

    def send(self, pid: int, sig: str) -> str:
        """Send SIG<sig>; returns "sent" or "gone"."""
        assert sig in ALLOWED_SIGNALS
        try:
            os.kill(pid, getattr(signal_mod, f"SIG{sig}"))
        except ProcessLookupError:
            return "gone"
        except PermissionError:
            raise StopRefused(f"not allowed to signal PID {pid} on {self.label}: it belongs to another user") from None
        return "sent"

    def pids(self) -> list[int]:
        return [int(e) for e in os.listdir("/proc") if e.isdigit()]

    def find_exact(self, wanted: str) -> list[ProcInfo]:
        own = self.protected()
        out = []
        for pid in self.pids():
            if pid in own:
                continue
            info = self.info(pid)
            if info and not info.zombie and cmdline_matches(info.argv, wanted):
                out.append(info)
        return out

    def read_pidfile(self, path: str) -> str:
        try:
            with open(path, "rb") as f:
                return f.read(64).decode("ascii", "replace")
        except FileNotFoundError:
            raise RunNotFound(f"no pidfile {path} on {self.label}: check the path") from None
        except OSError as e:
            raise BadInput(f"cannot read pidfile {path}: {e.strerror}") from None

    def euid(self) -> int:
        return os.geteuid()

    def protected(self) -> set[int]:
        """PIDs never signalled: init, this process and its parent (the MCP client that started us)."""
        return {1, os.getpid(), os.getppid()}


class RemoteProcesses:
    """A remote machine's processes, through quoted commands over SSH (Linux /proc and procps on the host)."""

    _INFO = ('cd "/proc/$1" 2>/dev/null || exit 3; s=$(cat stat 2>/dev/null) || exit 3; '
             'u=$(stat -c %u . 2>/dev/null) || exit 3; printf "%s\\n%s\\n" "$u" "$s"; cat cmdline 2>/dev/null')

    def __init__(self, run: Runner, label: str, timeout_s: float = 20.0):
        self.run = run
        self.host = label
        self.label = label
        self.timeout_s = timeout_s
        self._euid: int | None = None

    def info(self, pid: int) -> ProcInfo | None:
        rc, out, _ = self.run(["sh", "-c", self._INFO, "sh", str(int(pid))], self.timeout_s)
        if rc != 0:
            return None
        try:
            uid_text, rest = out.split("\n", 1)
            close = rest.rindex(")")
            end = rest.index("\n", close)
            state, start = _parse_stat(rest[:end])
            argv = _split_cmdline(rest[end + 1:].encode("utf-8", "surrogateescape"))
            return ProcInfo(pid, int(uid_text), start, state, argv)
        except (ValueError, IndexError):
            return None

    def send(self, pid: int, sig: str) -> str:
        assert sig in ALLOWED_SIGNALS
        rc, _, err = self.run(["kill", "-s", sig, str(int(pid))], self.timeout_s)
        if rc == 0:
            return "sent"
        low = err.lower()
        if "no such process" in low:
            return "gone"
        if "not permitted" in low:
            raise StopRefused(f"not allowed to signal PID {pid} on {self.label}: it belongs to another user")
        raise StopRefused(f"kill -s {sig} {pid} failed on {self.label}: {err.strip()[:200] or f'exit {rc}'}")

    def find_exact(self, wanted: str) -> list[ProcInfo]:
        rc, out, err = self.run(["ps", "-e", "-ww", "-o", "pid=,args="], self.timeout_s)
        if rc != 0:
            raise StopRefused(f"cannot list processes on {self.label}: {err.strip()[:200] or f'ps exit {rc}'}")
        found = []
        for line in out.splitlines():
            pid_text, _, args = line.lstrip().partition(" ")
            if not pid_text.isdigit():
                continue
            args = args.lstrip(" ")
            try:
                candidate = args == wanted or args == " ".join(shlex.split(wanted))
            except ValueError:
                candidate = False
            if candidate:
                info = self.info(int(pid_text))  # confirm on the exact argv
                if info and not info.zombie and cmdline_matches(info.argv, wanted):
                    found.append(info)
        return found

    def read_pidfile(self, path: str) -> str:
        rc, out, err = self.run(["head", "-c", "64", "--", path], self.timeout_s)
        if rc != 0:
            if "no such file" in err.lower():
                raise RunNotFound(f"no pidfile {path} on {self.label}: check the path")
            raise BadInput(f"cannot read pidfile {path} on {self.label}: {err.strip()[:200]}")
        return out

    def euid(self) -> int:
        if self._euid is None:
            rc, out, err = self.run(["id", "-u"], self.timeout_s)
            if rc != 0 or not out.strip().isdigit():
                raise StopRefused(f"cannot tell the remote user on {self.label}: {err.strip()[:200]}")
            self._euid = int(out.strip())
        return self._euid

    def protected(self) -> set[int]:
        return {1}
