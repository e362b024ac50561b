"""The process table of a machine, here (/proc, os.kill) or over SSH (quoted commands): look up, match, signal.

Both tables expose the same methods so the signal stopper runs the same sequence on either.
A process is identified by (pid, start time): a PID reused by a new process is never signalled.
"""

from __future__ import annotations

import os
import re
import shlex
import signal as signal_mod
import stat as stat_mod
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
    ppid: int | None = None
    cwd: str | None = None
    exe: str | None = None

    @property
    def cmdline(self) -> str:
        return " ".join(self.argv)

    @property
    def zombie(self) -> bool:
        return self.state in ("Z", "X")

    def short(self, limit: int = 80) -> str:
        text = self.cmdline or "[kernel thread]"
        text = text if len(text) <= limit else text[: limit - 3] + "..."
        return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)  # one line, whatever the argv holds


@dataclass(frozen=True)
class OpenFile:
    """One open file descriptor of a process: its link (an absolute path, ``pipe:[N]``, ``socket:[N]``) and whether
    it was opened for writing (``O_WRONLY`` or ``O_RDWR`` in ``/proc/PID/fdinfo``; ``O_APPEND`` alone on a read-only
    descriptor writes nothing)."""

    fd: int
    link: str
    writable: bool

    @property
    def deleted(self) -> bool:
        return self.link.endswith(" (deleted)")


O_ACCMODE = 0o3
MAX_FDS = 4096  # descriptors looked at per process


def writable_flags(flags: str) -> bool:
    """Whether the octal ``flags:`` of an fdinfo file opens for writing (access mode O_WRONLY or O_RDWR)."""
    try:
        return int(flags.strip(), 8) & O_ACCMODE in (0o1, 0o2)
    except ValueError:
        return False


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


def _parse_ppid(text: str) -> int | None:
    try:
        return int(text.rsplit(")", 1)[1].split()[1])
    except (IndexError, ValueError):
        return None


PIDFILE_MAX = 4096  # a pidfile is a few bytes; anything bigger is not one


def _readlink(path: str) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


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
            with open(f"{base}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
            state, start = _parse_stat(stat)
            uid = os.stat(base).st_uid
            with open(f"{base}/cmdline", "rb") as f:
                argv = _split_cmdline(f.read())
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return None
        except PermissionError:
            return ProcInfo(pid, None, "?", "?", ())
        return ProcInfo(pid, uid, start, state, argv, _parse_ppid(stat), _readlink(f"{base}/cwd"),
                        _readlink(f"{base}/exe"))

    def fds(self, pid: int) -> list[OpenFile]:
        """The process's open descriptors (``/proc/PID/fd`` links, ``/proc/PID/fdinfo`` flags); empty when they
        cannot be read."""
        base = f"/proc/{pid}"
        try:
            names = os.listdir(f"{base}/fd")
        except OSError:
            return []
        out = []
        for n in names[:MAX_FDS]:
            link = _readlink(f"{base}/fd/{n}")
            if not link or not n.isdigit():
                continue
            flags = ""
            try:
                with open(f"{base}/fdinfo/{n}", encoding="ascii", errors="replace") as f:
                    for line in f.read(4096).splitlines():
                        if line.startswith("flags:"):
                            flags = line[6:]
            except OSError:
                continue
            out.append(OpenFile(int(n), link, writable_flags(flags)))
        return out

    def parents(self) -> dict[int, int]:
        """pid -> parent pid for every process."""
        out = {}
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
                    ppid = _parse_ppid(f.read())
            except OSError:
                continue
            if ppid is not None:
                out[pid] = ppid
        return out

    def send(self, pid: int, sig: str, start: str | None = None) -> str:
        """Send SIG<sig>; returns "sent" or "gone". With ``start`` (the start time checked when the stop was planned)
        the signal goes through a pidfd opened and then checked to be that very process: a PID reused by another
        program in between is never signalled ("gone")."""
        assert sig in ALLOWED_SIGNALS
        signum = getattr(signal_mod, f"SIG{sig}")
        try:
            if start is None or not hasattr(os, "pidfd_open"):
                os.kill(pid, signum)
                return "sent"
            fd = os.pidfd_open(pid)
            try:
                now = self.info(pid)
                if now is None or now.start != start:
                    return "gone"  # the pidfd holds whatever now has this PID: not the planned process
                signal_mod.pidfd_send_signal(fd, signum)
            finally:
                os.close(fd)
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
        """The pidfile's text: opened without blocking (a FIFO never hangs), only a small regular file."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        except FileNotFoundError:
            raise RunNotFound(f"no pidfile {path} on {self.label}: check the path") from None
        except OSError as e:
            raise BadInput(f"cannot read pidfile {path}: {e.strerror}") from None
        try:
            st = os.fstat(fd)
            if not stat_mod.S_ISREG(st.st_mode):
                raise BadInput(f"pidfile {path} is not a regular file: pass the file the job wrote its PID into")
            if st.st_size > PIDFILE_MAX:
                raise BadInput(f"pidfile {path} is {st.st_size} bytes, too big for a pidfile (a PID is a few "
                               f"digits): pass the file the job wrote its PID into")
            return os.read(fd, 64).decode("ascii", "replace")
        except OSError as e:
            raise BadInput(f"cannot read pidfile {path}: {e.strerror}") from None
        finally:
            os.close(fd)

    def euid(self) -> int:
        return os.geteuid()

    def protected(self) -> set[int]:
        """PIDs never signalled: init, this process and every one of its ancestors (the MCP client, the
        agent, the shell and terminal that started us)."""
        out = {1, os.getpid()}
        pid = os.getppid()
        while pid > 1 and pid not in out:
            out.add(pid)
            info = self.info(pid)
            pid = info.ppid if info and info.ppid is not None else 0
        return out


class RemoteProcesses:
    """A remote machine's processes, through quoted commands over SSH (Linux /proc and procps on the host)."""

    _INFO = ('cd "/proc/$1" 2>/dev/null || exit 3; s=$(cat stat 2>/dev/null) || exit 3; '
             'u=$(stat -c %u . 2>/dev/null) || exit 3; printf "%s\\0%s\\0" "$u" "$s"; cat cmdline 2>/dev/null')
    # one NUL-ended item each (a path may hold newlines, never NUL): "C <cwd>", "F <fd> <octal flags> <link>"
    _FILES = ('cd "/proc/$1" 2>/dev/null || exit 3; printf "C %s\\0" "$(readlink cwd 2>/dev/null)"; n=0; '
              'for f in fd/*; do n=$((n+1)); [ "$n" -gt 4096 ] && break; l=$(readlink "$f" 2>/dev/null) || continue; '
              'd=${f#fd/}; fl=$(sed -n "s/^flags:[[:space:]]*//p" "fdinfo/$d" 2>/dev/null); '
              'printf "F %s %s %s\\0" "$d" "${fl:-0}" "$l"; done; exit 0')
    # a pidfile: only a small regular file, read without blocking on a FIFO
    _PIDFILE = ('[ -e "$1" ] || { echo missing >&2; exit 2; }; [ -f "$1" ] || { echo notregular >&2; exit 3; }; '
                '[ "$(stat -c %s -- "$1")" -le 4096 ] || { echo toobig >&2; exit 4; }; head -c 64 -- "$1"')

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
        try:  # uid NUL stat NUL argv: the stat line and the argv may hold newlines and ")" (never NUL in the first two)
            uid_text, stat, raw_argv = out.split("\0", 2)
            state, start = _parse_stat(stat)
            argv = _split_cmdline(raw_argv.encode("utf-8", "surrogateescape"))
            cwd, _ = self._files(pid)
            return ProcInfo(pid, int(uid_text), start, state, argv, _parse_ppid(stat), cwd)
        except (ValueError, IndexError):
            return None

    def _files(self, pid: int) -> tuple[str | None, list[OpenFile]]:
        rc, out, _ = self.run(["sh", "-c", self._FILES, "sh", str(int(pid))], self.timeout_s)
        if rc != 0:
            return None, []
        cwd, files = None, []
        for item in out.split("\0"):
            if item.startswith("C "):
                cwd = item[2:] or None
            elif item.startswith("F "):
                fd, _, rest = item[2:].partition(" ")
                flags, _, link = rest.partition(" ")
                if fd.isdigit() and link:
                    files.append(OpenFile(int(fd), link, writable_flags(flags)))
        return cwd, files

    def fds(self, pid: int) -> list[OpenFile]:
        return self._files(pid)[1]

    def parents(self) -> dict[int, int]:
        rc, out, _ = self.run(["ps", "-e", "-o", "pid=,ppid="], self.timeout_s)
        found = {}
        for line in out.splitlines() if rc == 0 else []:
            parts = line.split()
            if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
                found[int(parts[0])] = int(parts[1])
        return found

    # kill only when /proc/PID/stat still shows the planned start time (field 22: $23 here), in one remote command
    _KILL = ('s=$(cat "/proc/$1/stat" 2>/dev/null) || { echo "No such process" >&2; exit 1; }; s=${s##*) }; '
             'set -- "$1" "$2" "$3" $s; [ "$3" = "-" ] || [ "${23}" = "$3" ] || { echo "No such process" >&2; '
             'exit 1; }; exec kill -s "$2" "$1"')

    def send(self, pid: int, sig: str, start: str | None = None) -> str:
        """Send SIG<sig> over SSH; with ``start``, only while the PID still has that start time ("gone" if not)."""
        assert sig in ALLOWED_SIGNALS
        rc, _, err = self.run(["sh", "-c", self._KILL, "sh", str(int(pid)), sig, start or "-"], self.timeout_s)
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
        rc, out, _ = self.run(["sh", "-c", self._PIDFILE, "sh", path], self.timeout_s)
        if rc == 2:
            raise RunNotFound(f"no pidfile {path} on {self.label}: check the path")
        if rc == 3:
            raise BadInput(f"pidfile {path} on {self.label} is not a regular file: pass the file the job wrote "
                           f"its PID into")
        if rc == 4:
            raise BadInput(f"pidfile {path} on {self.label} is too big for a pidfile (a PID is a few digits)")
        if rc != 0:
            raise BadInput(f"cannot read pidfile {path} on {self.label} (exit {rc}): check it is readable")
        return out

    def euid(self) -> int:
        if self._euid is None:
            rc, out, err = self.run(["id", "-u"], self.timeout_s)
            if rc != 0 or not out.strip().isdigit():
                raise StopRefused(f"cannot tell the remote user on {self.label}: {err.strip()[:200]}")
            self._euid = int(out.strip())
        return self._euid

    # the remote shell's own ancestors (its sshd session), then this boot's id and the PID namespace
    _SELF = ('p=$$; i=0; while [ "$i" -lt 64 ] && [ "$p" -gt 1 ] 2>/dev/null; do printf "%s " "$p"; i=$((i+1)); '
             'p=$(sed -n "s/.*) [A-Za-z] \\([0-9][0-9]*\\) .*/\\1/p" "/proc/$p/stat" 2>/dev/null); '
             '[ -n "$p" ] || break; done; printf "\\n"; cat /proc/sys/kernel/random/boot_id 2>/dev/null; '
             'readlink /proc/self/ns/pid 2>/dev/null; exit 0')

    def protected(self) -> set[int]:
        """PIDs never signalled there: init and the remote command's own ancestors (its sshd session); and when
        the host is this very machine (same boot id, same PID namespace), everything protected here too
        (training-check, the MCP client and the terminal that started them)."""
        out = {1}
        rc, text, _ = self.run(["sh", "-c", self._SELF], self.timeout_s)
        lines = text.splitlines() if rc == 0 else []
        if lines:
            out.update(int(x) for x in lines[0].split() if x.isdigit())
        if len(lines) >= 3 and lines[1:3] == _machine_marks():
            out |= LocalProcesses().protected()
        return out


def _machine_marks() -> list[str]:
    """This machine's boot id and PID namespace: a host reporting the same two is this machine."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            boot = f.read().strip()
        return [boot, os.readlink("/proc/self/ns/pid")]
    except OSError:
        return ["", ""]
