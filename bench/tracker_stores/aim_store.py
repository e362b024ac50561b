"""A small real Aim repository (``aim.Run(repo=...)``), the fixture tests/data/aim_repo: training-check recognises an
Aim repository and says in one line that it does not read it (RocksDB, only the aim package opens it).

    ~/venvs/trackers2/bin/pip install aim   # 15 packages (aimrocks, aim-ui, boto3, ...): not in any extra
    ~/venvs/trackers2/bin/python bench/tracker_stores/aim_store.py OUT_DIR
    find OUT_DIR -name 'LOG*' -delete           # RocksDB's info logs: not needed to recognise the repository
"""

from __future__ import annotations

import math
import sys

from aim import Run


def main(out: str) -> None:
    run = Run(repo=out, experiment="demo", system_tracking_interval=None, capture_terminal_logs=False,
              log_system_params=False)
    run["hparams"] = {"lr": 0.01, "batch_size": 32}
    run.name = "healthy"
    for step in range(1, 21):
        run.track(2.0 * math.exp(-step / 10), name="loss", step=step, epoch=step // 7, context={"subset": "train"})
        if step % 5 == 0:
            run.track(step / 20, name="acc", step=step, context={"subset": "val"})
    run.close()
    print(run.hash)


if __name__ == "__main__":
    main(sys.argv[1])
