"""Launch a generator as a Slurm job step, ``srun --label -n N python GEN.py ARGS``, on a private one-node cluster.

    python srun_launch.py --ntasks 2 GEN.py ARGS...

The cluster (munged, slurmctld, slurmd as root, in a temporary folder with its own ports and key) is started
here and stopped again by the handles it was started with; its daemons write to their own log files, so the
captured output is srun's alone: every line of task k prefixed ``k: `` (``--label``). The tasks find each other
for torch.distributed through MASTER_ADDR / MASTER_PORT set here (srun exports the environment).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONF = """ClusterName=holdout
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv: list[str]) -> int:
    ntasks = 2
    if argv[:1] == ["--ntasks"]:
        ntasks, argv = int(argv[1]), argv[2:]
    d = Path(tempfile.mkdtemp(prefix="holdout-slurm-"))
    os.chmod(d, 0o700)
    (d / "ctld").mkdir()
    (d / "d").mkdir()
    q = subprocess.DEVNULL  # the daemons write their own log files; nothing of theirs reaches the run's log
    subprocess.run(["mungekey", "--create", f"--keyfile={d}/munge.key"], check=True, stdout=q, stderr=q, stdin=q)
    host = socket.gethostname().split(".")[0]
    conf = d / "slurm.conf"
    conf.write_text(CONF.format(host=host, d=d, p1=free_port(), p2=free_port(), cpus=max(ntasks, os.cpu_count() or 1)))
    env = {**os.environ, "SLURM_CONF": str(conf)}
    started = [subprocess.Popen(["munged", "-F", f"--socket={d}/munge.sock", f"--key-file={d}/munge.key",
                                 f"--pid-file={d}/munged.pid", f"--log-file={d}/munged.log", f"--seed-file={d}/seed",
                                 "--force"], stdout=q, stderr=q, stdin=q)]
    time.sleep(0.5)
    started.append(subprocess.Popen(["slurmctld", "-D", "-i", "-f", str(conf)], env=env, stdout=q, stderr=q, stdin=q))
    started.append(subprocess.Popen(["slurmd", "-D", "-f", str(conf)], env=env, stdout=q, stderr=q, stdin=q))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            r = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, env=env)
            if r.returncode == 0 and r.stdout.strip() in ("idle", "mix", "alloc"):
                break
            time.sleep(0.5)
        else:
            print("slurm did not come up", file=sys.stderr)
            return 3
        env.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()))
        gen = Path(argv[0])
        return subprocess.run(["srun", "--label", "-n", str(ntasks), "--cpus-per-task=1", sys.executable,
                               str(gen), *argv[1:]], env=env, stdin=subprocess.DEVNULL).returncode
    finally:
        for p in reversed(started):  # only the daemons started here
            p.terminate()
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
