"""ParlAI: a tiny dialogue model trained with its own command, ``parlai train_model`` (called in-process, as the
console script does), on its bundled synthetic ``integration_tests`` teachers (no download): a GRU ``seq2seq`` or a
small ``transformer/generator``. ParlAI logs through its own logger on stderr: every ``--log-every-n-steps`` a line
``time:1s total_exs:64 total_steps:4 epochs:0.13 time_left:9s`` and its metrics as a wrapped table (``nice_report``:
4 significant digits, leading zeros dropped, ``.0100``), validation reports the same way. It writes
``<model_file>.trainstats`` (JSON, every train report). Truth: that file's ``train_reports`` (``loss`` at
``train_steps``, the ``total_steps`` of the log line, 1-based)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from h81_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="integration_tests")
ap.add_argument("--model", default="seq2seq", choices=["seq2seq", "transformer/generator"])
ap.add_argument("--optimizer", default="adam")
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--scheduler", default="fixed")
ap.add_argument("--clip", type=float, default=0.1)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--epochs", type=float, default=2)
ap.add_argument("--log-steps", type=int, default=8)
ap.add_argument("--val-epochs", type=float, default=-1)
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--extra", default="", help="further parlai options, comma-separated")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import parlai  # noqa: E402
from parlai.__main__ import main  # noqa: E402

mf = str(Path("model").resolve())
argv = ["parlai", "train_model", "-t", a.task, "-m", a.model, "-mf", mf, "-bs", str(a.batch),
        "--num-epochs", str(a.epochs), "-lr", str(a.lr), "--optimizer", a.optimizer, "--lr-scheduler", a.scheduler,
        "--gradient-clip", str(a.clip), "--log-every-n-steps", str(a.log_steps), "--log-every-n-secs", "-1",
        "--validation-every-n-epochs", str(a.val_epochs), "--no-cuda", "-esz", str(a.hidden)]
if a.model == "seq2seq":
    argv += ["--hiddensize", str(a.hidden), "--numlayers", "1"]
else:
    argv += ["--n-layers", "1", "--n-heads", "2", "--ffn-size", str(2 * a.hidden)]
argv += [x for x in a.extra.split(",") if x]
sys.argv = argv
try:
    main()
except SystemExit:
    pass

stats = json.loads(Path(mf + ".trainstats").read_text())
keep(mf + ".trainstats")
reports = stats["train_reports"]
write_truth(framework=f"parlai {parlai.__version__}", settings=vars(a), loss_name="loss",
            step_unit="train step, 1-based (`total_steps:N` on the report's first line)", tolerance=tol_sig(4),
            record="its `<model_file>.trainstats` (`train_reports`: `loss` at `train_steps`)",
            train_loss=[(r["train_steps"], r["loss"]) for r in reports])
