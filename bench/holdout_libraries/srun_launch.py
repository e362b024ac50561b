"""Launch a generator as a Slurm job step, ``srun --label -n N python GEN.py ARGS``, on a private one-node cluster.

    python srun_launch.py --ntasks 2 GEN.py ARGS...

The cluster (munged, slurmctld, slurmd as root, in a temporary folder with its own ports and key) is started
here and stopped again by the handles it was started with; its daemons write to their own log files, so the
captured output is srun's alone: every line of task k prefixed ``k: `` (``--label``). The tasks find each other
for torch.distributed through MASTER_ADDR / MASTER_PORT set here (srun exports the environment).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # bench/: slurm_cluster (after the installed packages)

from slurm_cluster import SlurmNotUp, free_port, private_slurm  # noqa: E402


def main(argv: list[str]) -> int:
    ntasks = 2
    if argv[:1] == ["--ntasks"]:
        ntasks, argv = int(argv[1]), argv[2:]
    d = Path(tempfile.mkdtemp(prefix="holdout-slurm-"))
    try:
        with private_slurm(d, name="holdout", cpus=max(ntasks, os.cpu_count() or 1), wait_s=60, quiet=True) as env:
            env.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()))
            gen = Path(argv[0])
            return subprocess.run(["srun", "--label", "-n", str(ntasks), "--cpus-per-task=1", sys.executable,
                                   str(gen), *argv[1:]], env=env, stdin=subprocess.DEVNULL).returncode
    except SlurmNotUp:
        print("slurm did not come up", file=sys.stderr)
        return 3


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
