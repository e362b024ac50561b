"""A private one-node Slurm cluster (munged, slurmctld, slurmd as root) in a folder, for the real Slurm runs.

Used by tests/test_stoppers.py (a real ``scancel``) and bench/holdout_libraries/srun_launch.py (a run launched
with ``srun --label``). The cluster has its own ports, munge key and socket in the folder; its daemons write
their own log files there and are stopped again by the handles they were started with (nothing else is stopped).
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CONF = """ClusterName={name}
SlurmctldHost={host}(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket={d}/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort={p1}
SlurmdPort={p2}
StateSaveLocation={d}/ctld
SlurmdSpoolDir={d}/d
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/ctld.log
SlurmdLogFile={d}/d.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
KillWait=2
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


class SlurmNotUp(RuntimeError):
    """The cluster's node did not turn idle in time (the message ends with the tail of slurmctld's log)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def private_slurm(d: Path, *, name: str, cpus: int, wait_s: float, quiet: bool) -> Iterator[dict[str, str]]:
    """Start the cluster in ``d`` and yield the environment that reaches it (``SLURM_CONF``); stop it after.

    ``quiet``: the daemons' stdout and stderr (and stdin) are /dev/null, else this process'."""
    os.chmod(d, 0o700)
    (d / "ctld").mkdir()
    (d / "d").mkdir()
    q = subprocess.DEVNULL if quiet else None
    subprocess.run(["mungekey", "--create", f"--keyfile={d}/munge.key"], check=True, capture_output=True,
                   stdin=subprocess.DEVNULL)
    host = socket.gethostname().split(".")[0]
    conf = d / "slurm.conf"
    conf.write_text(CONF.format(name=name, host=host, d=d, p1=free_port(), p2=free_port(), cpus=cpus))
    env = {**os.environ, "SLURM_CONF": str(conf)}
    started = [subprocess.Popen(["munged", "-F", f"--socket={d}/munge.sock", f"--key-file={d}/munge.key",
                                 f"--pid-file={d}/munged.pid", f"--log-file={d}/munged.log", f"--seed-file={d}/seed",
                                 "--force"], stdout=q, stderr=q, stdin=q)]
    try:
        time.sleep(0.5)
        started.append(subprocess.Popen(["slurmctld", "-D", "-i", "-f", str(conf)], env=env, stdout=q, stderr=q,
                                        stdin=q))
        started.append(subprocess.Popen(["slurmd", "-D", "-f", str(conf)], env=env, stdout=q, stderr=q, stdin=q))
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            r = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, env=env)
            if r.returncode == 0 and r.stdout.strip() in ("idle", "mix", "alloc"):
                break
            time.sleep(0.5)
        else:
            log = (d / "ctld.log").read_text()[-1500:] if (d / "ctld.log").exists() else ""
            raise SlurmNotUp(f"slurm did not come up: {log}")
        yield env
    finally:
        for p in reversed(started):  # only the daemons started here
            p.terminate()
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
