"""The tracker-store corpus (examples/trackers2): short real trainings logged to the OFFLINE stores of Comet ML,
Neptune and ClearML by the libraries themselves, each run folder with its ``truth.json`` and a manifest entry
(``"source": "store"``) that bench/read_corpus.py scores.

    python3 -m venv ~/venvs/trackers2 && ~/venvs/trackers2/bin/pip install comet_ml neptune clearml numpy
    ~/venvs/trackers2/bin/python bench/tracker_stores/make_stores.py [--out examples/trackers2]

Each run is ``train_logged.py`` in a subprocess (``nice -n 10``, HOME set to the run folder so ClearML's cache and
Comet's and Neptune's settings stay there, no network). The truth is what the script handed the library
(``logged.json``): the train loss at the steps it gave, kept by the library exactly (JSON numbers).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RUNS = [(t, s, seed) for seed, t in enumerate(("comet", "neptune", "clearml"))
        for s in ("healthy", "healthy_slow", "diverged")]
STORE = {"comet": "comet", "neptune": ".neptune", "clearml": "clearml"}  # the path the manifest names, per run
LOSS = {"comet": "train_loss", "neptune": "train/loss", "clearml": "loss/train"}
RECORD = {
    "comet": "the values handed to OfflineExperiment.log_metric('train_loss', v, step=step, epoch=epoch)",
    "neptune": "the values handed to run['train/loss'].append(v, step=step) (mode='offline')",
    "clearml": "the values handed to Logger.report_scalar('loss', 'train', v, iteration=step) (offline session)",
}


def make(out: Path, tracker: str, scenario: str, seed: int, python: str) -> dict:
    run = out / f"{tracker}_{scenario}"
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMET_", "NEPTUNE_", "CLEARML_"))}
    env["HOME"] = str(run)
    subprocess.run(["nice", "-n", "10", python, str(HERE / "train_logged.py"), "--tracker", tracker,
                    "--scenario", scenario, "--out", str(run), "--seed", str(seed), "--beside"],
                   env=env, check=True, cwd=run, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    for leftover in (".clearml", ".comet.config", "paused"):
        p = run / leftover
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
    logged = json.loads((run / "logged.json").read_text())
    (run / "logged.json").unlink()
    diverged = scenario == "diverged"
    truth = {
        "framework": tracker, "settings": logged["params"], "label": "diverged" if diverged else "healthy",
        "should_stop": diverged, "loss_name": LOSS[tracker], "step_unit": "the step given to the library, 1-based",
        "tolerance": {"rel": 1e-9, "sig": 15, "abs": 0.0}, "record": RECORD[tracker],
        "train_loss": logged["train_loss"],
    }
    (run / "truth.json").write_text(json.dumps(truth, indent=1))
    return {"file": f"{run.name}/{STORE[tracker]}", "truth": f"{run.name}/truth.json", "framework": tracker,
            "label": truth["label"], "should_stop": diverged, "n_points": len(logged["train_loss"]),
            "loss_name": LOSS[tracker], "step_unit": truth["step_unit"], "source": "store"}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(REPO / "examples" / "trackers2"))
    ap.add_argument("--python", default=sys.executable, help="the venv holding comet_ml, neptune and clearml")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    entries = [make(out, t, s, seed, args.python) for t, s, seed in RUNS]
    (out / "manifest.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    print(f"{len(entries)} runs in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
