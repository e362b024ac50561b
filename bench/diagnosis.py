"""Diagnosis benchmark: is the probable cause right on the labelled runs that get a STOP or ESCALATE?

    .venv/bin/python bench/diagnosis.py [CORPUS_DIR ...] [--checks 12] [--json out.json]

Default corpora: ``examples/causes`` (runs made by ``bench/cause_runs.py``, each ``label.json`` names its
``cause``), ``examples/corpus`` (causes read from each run's documented ``why`` by ``corpus_cause``) and the shared
real-log corpora beside the checkout (``../shared/corpus/real-logs``, ``real-logs-2``; only runs whose label implies
a cause: overfitting). Every run is replayed as a cron would check it (``--checks`` checks spread over its logged
steps, one fresh store per run, ``total_steps`` from its label), like ``bench/detection.py``.

A run's diagnosed cause is the diagnosis on its first STOP, else on its last ESCALATE. Printed: a confusion table
(known cause x diagnosed cause, ``unknown`` a column of its own, ``-`` for runs never flagged), the share right on
the flagged runs whose cause is known (target >= 90 %; ``unknown`` counts as wrong), the share right over every
STOP/ESCALATE check, and the ESCALATE rate over the checks of runs labelled healthy (target <= 5 %).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_labels import load_corpus  # noqa: E402
from detection import check_steps  # noqa: E402
from training_check.tools.assess import assess_run  # noqa: E402
from training_check.tools.config import load_config  # noqa: E402
from training_check.tools.diagnosis import CAUSES  # noqa: E402
from training_check.tools.errors import TrainingCheckError  # noqa: E402
from training_check.tools.judge import ESCALATE, STOP  # noqa: E402
from training_check.tools.reading import load_run  # noqa: E402
from training_check.tools.store import Store  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED = next((p for p in (REPO.parent / "shared" / "corpus", REPO.parent.parent / "shared" / "corpus") if p.is_dir()),
              REPO.parent / "shared" / "corpus")  # beside the checkout (CI), or beside its worktree folder
DEFAULT_CORPORA = [REPO / "examples" / "causes", REPO / "examples" / "corpus", SHARED / "real-logs",
                   SHARED / "real-logs-2"]
HEALTHY = {"healthy", "spike-recovered", "spike_recovered"}
TARGET_RIGHT = 0.90
TARGET_ESCALATE = 0.05


def corpus_cause(name: str, label: str, why: str) -> str | None:
    """The cause a labelled run's documented failure names (None when the label does not imply one).

    examples/corpus documents how each failure was made (``why``); the shared corpora only say what the file shows,
    so only overfitting implies its cause there."""
    text = f"{name} {why}".lower()
    if label in ("overfitting", "overfit"):
        return "overfitting"
    if label in ("lr-schedule", "lr_schedule"):
        return "lr_schedule"
    if label == "grad-explosion" or "exploding" in text:
        return "exploding_gradients"
    if label == "plateau":
        if "frozen" in text or "dead" in text:
            return "no_learning"
        if "lr 0" in text or "lr_zero" in text:
            return "lr_too_low"
        return None
    if label in ("diverged", "nan"):
        if "float16" in text and "underflow" in text:
            return "numerical"  # Adam's eps underflows to 0 in float16: a division by zero, no blow-up
        if "too high" in text or "lr_too_high" in text or ("warmed up" in text and "lr" in text):
            return "lr_too_high"
    return None


@dataclass
class Run:
    name: str
    path: str
    cause: str | None  # known cause, or None
    label: str
    total_steps: int | None
    corpus: str


@dataclass
class Result:
    run: Run
    verdicts: str = ""  # one letter per check
    diagnosed: str | None = None  # the cause diagnosed on the first STOP / last ESCALATE
    per_check: list[str] = field(default_factory=list)  # the cause at every STOP/ESCALATE check
    escalates: int = 0
    checks: int = 0
    error: str = ""


def labelled_runs(folders: list[Path]) -> list[Run]:
    runs: list[Run] = []
    for folder in folders:
        if not folder.is_dir():
            print(f"(skipped {folder}: not found)", file=sys.stderr)
            continue
        first = next((p / "label.json" for p in sorted(folder.iterdir()) if (p / "label.json").is_file()), None)
        if first is not None and "cause" in json.loads(first.read_text()):
            for d in sorted(p for p in folder.iterdir() if (p / "label.json").is_file()):
                lab = json.loads((d / "label.json").read_text())
                runs.append(Run(d.name, str(d / lab["source"]), lab["cause"], lab["cause"], lab.get("total_steps"),
                                folder.name))
            continue
        for r in load_corpus(folder):
            runs.append(Run(r.name, r.path, corpus_cause(r.name, r.label, r.why), r.label, r.total_steps,
                            folder.name))
    return runs


def replay(run: Run, n_checks: int) -> Result:
    out = Result(run)
    with tempfile.TemporaryDirectory(prefix="tc-diag-") as home:
        config = load_config(cwd=home, env={"TRAINING_CHECK_HOME": home})
        store = Store(config.store_path)
        try:
            frame = load_run(run.path, store=store, config=config).frame
        except TrainingCheckError as e:
            out.error = f"unreadable: {e}"
            return out
        if not frame.series:
            out.error = "no metrics"
            return out
        steps = check_steps(frame, n_checks)
    first_stop: str | None = None
    last_escalate: str | None = None
    with tempfile.TemporaryDirectory(prefix="tc-diag-") as home:
        config = load_config(cwd=home, env={"TRAINING_CHECK_HOME": home})
        store = Store(config.store_path)
        for step in steps:
            try:
                a = assess_run(run.path, store=store, config=config, as_of_step=step, total_steps=run.total_steps)
            except TrainingCheckError:
                out.verdicts += "!"
                continue
            out.checks += 1
            out.verdicts += a.verdict[0]
            if a.verdict in (STOP, ESCALATE):
                cause = a.diagnosis.cause if a.diagnosis else "none"
                out.per_check.append(cause)
                if a.verdict == STOP and first_stop is None:
                    first_stop = cause
                if a.verdict == ESCALATE:
                    out.escalates += 1
                    last_escalate = cause
            if a.verdict == STOP:
                break  # a stopped run is not checked again
    out.diagnosed = first_stop or last_escalate
    return out


def report(results: list[Result], out=sys.stdout) -> dict:
    known = [r for r in results if r.run.cause and not r.error]
    flagged = [r for r in known if r.diagnosed]
    right = [r for r in flagged if r.diagnosed == r.run.cause]
    cols = list(CAUSES) + ["-"]
    rows = sorted({r.run.cause for r in known if r.run.cause})
    table = {c: Counter((r.diagnosed or "-") for r in known if r.run.cause == c) for c in rows}
    width = max(len(c) for c in cols)
    short = {c: c.replace("exploding_gradients", "explod").replace("loss_scale_overflow", "lsover")
             .replace("lr_schedule", "sched").replace("lr_too_high", "lr_hi").replace("lr_too_low", "lr_lo")
             .replace("no_learning", "nolearn").replace("overfitting", "overfit").replace("bad_batch", "badbatch")
             .replace("numerical", "numeric").replace("unknown", "unknown") for c in cols}
    print("\nconfusion (rows: known cause; columns: diagnosed; '-': never STOP/ESCALATE)", file=out)
    print(f"{'':{width}s} " + " ".join(f"{short[c]:>8s}" for c in cols), file=out)
    for c in rows:
        print(f"{c:{width}s} " + " ".join(f"{table[c].get(k, 0) or '.':>8}" for k in cols), file=out)
    checks_flagged = [(r.run.cause, c) for r in known for c in r.per_check]
    checks_right = sum(1 for cause, c in checks_flagged if c == cause)
    healthy = [r for r in results if not r.error and r.run.label in HEALTHY]
    h_checks = sum(r.checks for r in healthy)
    h_esc = sum(r.escalates for r in healthy)
    share = len(right) / len(flagged) if flagged else None
    unknown = sum(1 for r in flagged if r.diagnosed == "unknown")
    print(f"\ncause right on STOP/ESCALATE runs with a known cause: {len(right)}/{len(flagged)}"
          + (f" = {share:.0%} (target >= {TARGET_RIGHT:.0%})" if share is not None else "")
          + f"; unknown: {unknown}; known-cause runs never flagged: {len(known) - len(flagged)}", file=out)
    if checks_flagged:
        print(f"cause right over every STOP/ESCALATE check of those runs: {checks_right}/{len(checks_flagged)} = "
              f"{checks_right / len(checks_flagged):.0%}", file=out)
    if h_checks:
        print(f"ESCALATE rate on the checks of healthy runs: {h_esc}/{h_checks} = {h_esc / h_checks:.1%} "
              f"(target <= {TARGET_ESCALATE:.0%}; {len(healthy)} runs)", file=out)
    wrong = [r for r in flagged if r.diagnosed != r.run.cause]
    if wrong:
        print("\nwrong causes:", file=out)
        for r in wrong:
            print(f"  {r.run.corpus}/{r.run.name}: known {r.run.cause}, diagnosed {r.diagnosed} ({r.verdicts})",
                  file=out)
    noisy = sorted(((r.escalates, r.run.name) for r in healthy if r.escalates), reverse=True)
    if noisy:
        print("healthy runs with ESCALATE checks: " + ", ".join(f"{n} ({k})" for k, n in noisy[:8]), file=out)
    return {"right": len(right), "flagged": len(flagged), "share_right": share, "unknown": unknown,
            "checks_right": checks_right, "checks_flagged": len(checks_flagged), "healthy_checks": h_checks,
            "healthy_escalates": h_esc, "confusion": {c: dict(t) for c, t in table.items()}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Diagnosis benchmark: the cause on labelled STOP/ESCALATE runs.")
    ap.add_argument("corpus", nargs="*", help="corpus folders (default: examples/causes, examples/corpus, shared)")
    ap.add_argument("--checks", type=int, default=12, help="replayed checks per run")
    ap.add_argument("--only", help="only runs whose name contains this")
    ap.add_argument("--json", dest="json_out", help="write the figures and every run's result here")
    args = ap.parse_args(argv)
    runs = labelled_runs([Path(c) for c in args.corpus] if args.corpus else DEFAULT_CORPORA)
    if args.only:
        runs = [r for r in runs if args.only in r.name]
    results = []
    for run in runs:
        r = replay(run, args.checks)
        results.append(r)
        print(f"  {run.corpus}/{run.name[:60]}: {r.verdicts} -> {r.diagnosed} (known {run.cause})", file=sys.stderr,
              flush=True)
    figures = report(results)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({"figures": figures, "runs": [asdict(r) for r in results]},
                                                  indent=1, default=str))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TRAINING_CHECK_HOME", tempfile.gettempdir() + "/tc-bench-home")
    raise SystemExit(main())
