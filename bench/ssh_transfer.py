"""Bytes over SSH for checking a 1 GB remote log after 1 MB is appended, and stop_run timings.

Run: .venv/bin/python bench/ssh_transfer.py   (needs openssh-server; starts its own sshd on 127.0.0.1)
The log is a sparse 1 GB file plus 1 MB of real log lines; the check reads only the new bytes
(and, when the log parser is installed, through load_run end to end).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from training_check.tools.sources import ssh as sshmod  # noqa: E402
from training_check.tools.sources.ssh import SftpFileSystem, resolve_target  # noqa: E402

from tests.sshd_fixture import SshServer  # noqa: E402

GB = 1 << 30
MB = 1 << 20
TAIL = 64 << 10  # a bounded tail a parser may re-read to resync on a line boundary


def lines(n_bytes: int, start: int) -> bytes:
    out, step = bytearray(), start
    while len(out) < n_bytes:
        out += f"step {step} | loss {2.0 / (1 + step * 1e-4):.5f} | lr 3.0e-04 | grad_norm 1.02\n".encode()
        step += 1
    return bytes(out)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="tc-bench-ssh-"))
    server = SshServer.start_in(folder / "sshd")
    try:
        log = folder / "train.log"
        with open(log, "wb") as f:
            f.truncate(GB)  # sparse: 1 GB already "read" before
        size0 = log.stat().st_size
        target = resolve_target("127.0.0.1", port=server.port, ssh_config_path=str(server.client_config),
                                known_hosts_paths=(str(server.known_hosts),))
        fs = SftpFileSystem(target)
        fs.stat(str(log))  # connect
        with open(log, "ab") as f:
            f.write(lines(MB, 1_000_000))
        before = sshmod.TRANSFER.snapshot()
        t0 = time.perf_counter()
        st = fs.stat(str(log))
        start = max(0, size0 - TAIL)
        data = fs.read_at(str(log), start, st.size - start)
        dt = time.perf_counter() - t0
        after = sshmod.TRANSFER.snapshot()
        print(f"remote log: {st.size / GB:.3f} GB; appended {MB} B; read {len(data)} B (new + {TAIL} B tail) "
              f"in {dt * 1000:.0f} ms")
        print(f"payload bytes read: {after['payload_read'] - before['payload_read']}")
        print(f"wire bytes received: {after['wire_rx'] - before['wire_rx']}, "
              f"sent: {after['wire_tx'] - before['wire_tx']}")
        print(f"ratio wire_rx / file size: {(after['wire_rx'] - before['wire_rx']) / st.size:.5f}")

        # stop timings: a local process trapping SIGINT, and one ignoring INT/TERM (grace 2 s), here and over SSH
        from training_check.tools.stoppers import process
        from training_check.tools.stoppers.outcome import remote_runner
        from training_check.tools.stoppers.processes import LocalProcesses, RemoteProcesses

        child = folder / "child.py"
        child.write_text("import signal,sys,time\nif sys.argv[1]=='ignore':\n signal.signal(2,signal.SIG_IGN);"
                         "signal.signal(15,signal.SIG_IGN)\nelse:\n signal.signal(2,lambda *a: sys.exit(0))\n"
                         "print('ready',flush=True)\nwhile True: time.sleep(0.05)\n")
        remote = RemoteProcesses(remote_runner(target), target.label)
        t0 = time.perf_counter()
        remote.euid()
        print(f"one remote command round trip: {(time.perf_counter() - t0) * 1000:.0f} ms")
        for where, procs in (("local", LocalProcesses()), ("ssh", remote)):
            for mode, grace in (("trap", 30.0), ("ignore", 2.0)):
                p = subprocess.Popen([sys.executable, str(child), mode], stdout=subprocess.PIPE, text=True)
                assert p.stdout is not None
                p.stdout.readline()
                t0 = time.perf_counter()
                plan = process.plan_pid(procs, p.pid, grace)
                out = process.execute(procs, plan)
                total = time.perf_counter() - t0
                p.wait(timeout=10)
                print(f"stop {where:5s} {mode:6s} grace={grace:>4g}s: stopped={out.stopped} by SIG{out.signal_used} "
                      f"in {total * 1000:.0f} ms (plan+signal+confirm)")
    finally:
        sshmod.POOL.close_all()
        server.stop()


if __name__ == "__main__":
    main()
