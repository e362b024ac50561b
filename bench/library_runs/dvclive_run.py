"""A user's PyTorch loop logging with DVCLive: ``live.log_metric('train/loss', v)`` and ``live.next_step()``
(its ``dvclive/`` folder: ``metrics.json`` and ``plots/metrics/train/loss.tsv``), printing a line now and then
or nothing.

Truth: DVCLive's own TSV (``dvclive/plots/metrics/train/loss.tsv``, its ``step`` column), kept beside the log.
"""

from __future__ import annotations

import argparse
import csv

from _toy import toy_args, train
from _truth import common_args, keep, settings_of, write_truth

p = argparse.ArgumentParser()
toy_args(p)
common_args(p)
args = p.parse_args()

from dvclive import Live  # noqa: E402

with Live(save_dvc_exp=False, dvcyaml=None) as live:
    live.log_param("lr", args.lr)

    def log(step: int, loss: float) -> None:
        live.log_metric("train/loss", loss)
        if args.print:
            print(f"[{live.step}] train/loss {loss:.6f}")
        live.next_step()

    train(log, epochs=args.epochs, lr=args.lr, seed=args.seed, every=args.every, growth=args.growth)

with open("dvclive/plots/metrics/train/loss.tsv") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
keep("dvclive")
write_truth(framework="dvclive", settings=settings_of(args), label=args.label, should_stop=args.should_stop,
            loss_name="train/loss", step_unit="DVCLive step (0-based, one next_step() per logged point)",
            tolerance={"rel": 1e-5, "abs": 5e-6}, record="dvclive/plots/metrics/train/loss.tsv",
            train_loss=[(int(r["step"]), float(r["loss"])) for r in rows])
