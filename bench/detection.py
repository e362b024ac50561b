"""Replay detection benchmark: the checks a cron would make on labelled runs, our engine against baselines.

    .venv/bin/python bench/detection.py CORPUS_DIR [CORPUS_DIR ...] [--checks 24] [--json out.json]
    .venv/bin/python bench/detection.py --timing [--timing-steps 1000000] [--timing-n 7]

A corpus is a folder of run folders with ``label.json``, or the shared
real-log corpus (``manifest.jsonl``, labelled by ``bench/corpus_labels.py``).
For every run, ``--checks`` check points are spread evenly over the run's
logged steps (by position in the sorted list of distinct logged steps); each
check calls ``assess_run(path, store, config, as_of_step=S, total_steps=T)``
with one fresh store per run (a temporary ``TRAINING_CHECK_HOME``), so the
judge sees its earlier assessments exactly as under cron. The baselines
(``bench/baselines.py``) "stop" at the first check whose step is at or after
the step where their rule first fires on the data seen so far.

A run that cannot be read (or yields no metrics) is a miss in every figure
whose denominator it belongs to (a must-stop run that fails to load is not
stopped; a flag run is not flagged; a no-stop run is counted, not dropped)
and is listed under "where training-check misses a target".

Figures (per system): STOP recall on clear must-stop runs (nan, diverged);
flag rate (STOP or ESCALATE) on flag runs (plateau, overfitting, LR schedule,
grad explosion) and the share flagged with the right concern; false STOPs on
no-stop runs; STOPs long before the onset (a STOP at a step more than 10% of
the logged span before ``onset_step``); the median delay of the first flag at
or after the onset check (in checks, and as a fraction of the logged span);
the ESCALATE rate over all checks of no-stop runs; false STOPs and the
ESCALATE rate on the runs labelled healthy (``HEALTHY_LABELS``); time per
assessment. Last, what the bench skipped: corpus files with no manifest entry
or label, runs left out by ``--only``, runs without an onset (not in the delay
figures) and checks that raised an error.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baselines import BASELINES  # noqa: E402
from corpus_labels import LabelledRun, load_corpus  # noqa: E402
from training_check.tools.assess import assess_run  # noqa: E402
from training_check.tools.config import Config, load_config  # noqa: E402
from training_check.tools.errors import TrainingCheckError  # noqa: E402
from training_check.tools.findings import CRITICAL, WARN  # noqa: E402
from training_check.tools.frame import MetricFrame  # noqa: E402
from training_check.tools.judge import CONTINUE, ESCALATE, STOP, UNREACHABLE, WAIT  # noqa: E402
from training_check.tools.reading import load_run  # noqa: E402
from training_check.tools.store import Store  # noqa: E402

OURS = "training-check"
LETTER = {CONTINUE: "C", STOP: "S", ESCALATE: "E", WAIT: "W", UNREACHABLE: "U", "ERROR": "!"}
# words in a flag's concern kinds/text that name each label's failure (the "right concern")
CONCERN_WORDS = {
    "plateau": ("plateau", "stall", "flat", "no progress", "not improving"),
    "overfitting": ("overfit", "eval", "gap"),
    "lr-schedule": ("lr_schedule", "learning rate", "lr "),
    "grad-explosion": ("grad_explosion", "grad norm", "gradient", "instability"),
    "diverged": ("divergence", "diverg"),
    "nan": ("nonfinite", "nan", "inf"),
}
HEALTHY_LABELS = {"healthy", "spike-recovered", "spike_recovered"}  # runs where a reviewer call is noise
LONG_BEFORE_FRACTION = 0.10  # a STOP this far (share of the logged span) before the onset is "long before"


@dataclass
class Check:
    step: int
    verdict: str
    kinds: list[str] = field(default_factory=list)  # concern or signal of every warn/critical finding
    concern: str | None = None
    seconds: float = 0.0
    cause: str | None = None  # the diagnosis on a STOP / ESCALATE
    confidence: float | None = None


@dataclass
class Replay:
    run: LabelledRun
    steps: list[int] = field(default_factory=list)  # the check steps
    checks: list[Check] = field(default_factory=list)
    baseline_fire: dict[str, int | None] = field(default_factory=dict)  # rule -> first logged step it fires
    span: tuple[int, int] | None = None  # first and last logged step
    error: str | None = None

    def timeline(self) -> str:
        return "".join(LETTER.get(c.verdict, "?") for c in self.checks)

    def first(self, verdicts: tuple[str, ...]) -> Check | None:
        return next((c for c in self.checks if c.verdict in verdicts), None)

    def baseline_stop(self, name: str) -> int | None:
        """The first check step at or after the step where the baseline's rule fired."""
        fire = self.baseline_fire.get(name)
        if fire is None:
            return None
        return next((s for s in self.steps if s >= fire), None)

    def right_concern(self) -> bool:
        words = CONCERN_WORDS.get(self.run.label, ())
        for c in self.checks:
            onset = self.run.onset_step
            if c.verdict == STOP or (c.verdict == ESCALATE and onset is not None and c.step >= onset):
                blob = " ".join(c.kinds + [c.concern or ""]).lower()
                if any(w in blob for w in words):
                    return True
        return False


def check_steps(frame: MetricFrame, n: int) -> list[int]:
    """``n`` steps spread evenly (by position) over the distinct logged steps, ending at the last one."""
    steps = np.unique(np.concatenate([s.index.to_numpy() for s in frame.series.values()]))
    if len(steps) <= n:
        return [int(s) for s in steps]
    idx = [int(round((i + 1) * len(steps) / n)) - 1 for i in range(n)]
    return sorted({int(steps[i]) for i in idx})


def _fresh(tmp: str) -> tuple[Config, Store]:
    config = load_config(cwd=tmp, env={"TRAINING_CHECK_HOME": tmp})
    return config, Store(config.store_path)


def replay(run: LabelledRun, n_checks: int = 24) -> Replay:
    """Replay ``n_checks`` cron checks on one run, with a fresh store; baselines on the same frame."""
    out = Replay(run)
    with tempfile.TemporaryDirectory(prefix="tc-peek-") as peek:
        try:
            config, store = _fresh(peek)
            frame = load_run(run.path, store=store, config=config).frame
        except TrainingCheckError as e:
            out.error = f"unreadable: {e}"
            return out
    if not frame.series:
        out.error = "no metrics parsed"
        return out
    out.steps = check_steps(frame, n_checks)
    out.span = (int(frame.first_step), int(frame.last_step))
    for b in BASELINES:
        out.baseline_fire[b.name] = b.first_fire(frame, run.total_steps)
    with tempfile.TemporaryDirectory(prefix="tc-replay-") as home:
        config, store = _fresh(home)
        for step in out.steps:
            t0 = time.perf_counter()
            try:
                a = assess_run(run.path, store=store, config=config, as_of_step=step, total_steps=run.total_steps)
            except TrainingCheckError as e:
                out.checks.append(Check(step, "ERROR", [], str(e), time.perf_counter() - t0))
                continue
            kinds = sorted({f.concern or f.signal for f in a.findings if f.status in (WARN, CRITICAL)})
            d = a.diagnosis
            out.checks.append(Check(step, a.verdict, kinds, a.concern, time.perf_counter() - t0,
                                    d.cause if d else None, d.confidence if d else None))
    return out


# --------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------


@dataclass
class Scores:
    system: str
    clear_runs: int = 0
    clear_stopped: int = 0
    stop_recall: float | None = None
    flag_runs: int = 0
    flag_flagged: int = 0
    flag_rate: float | None = None
    flag_right_concern: int | None = None
    nostop_runs: int = 0
    false_stops: int = 0
    false_stop_rate: float | None = None
    stops_long_before_onset: int = 0
    median_delay_checks: float | None = None
    median_delay_fraction: float | None = None
    missed_after_onset: int = 0  # must-stop runs with no flag at or after the onset check
    escalate_rate_healthy: float | None = None
    escalate_rate_healthy_labels: float | None = None  # only runs labelled healthy / spike-recovered
    healthy_label_runs: int = 0  # runs labelled healthy / spike-recovered (whatever their category)
    healthy_label_false_stops: int = 0
    unreadable: int = 0  # runs that could not be read: counted as misses, never dropped
    mean_assess_s: float | None = None
    median_assess_s: float | None = None
    misses: list[str] = field(default_factory=list)


def _events(r: Replay, system: str) -> tuple[int | None, int | None]:
    """(first STOP step, first flag step) of ``system`` in a replay."""
    if system == OURS:
        s, f = r.first((STOP,)), r.first((STOP, ESCALATE))
        return (s.step if s else None), (f.step if f else None)
    stop = r.baseline_stop(system)
    return stop, stop


def _first_flag_after_onset(r: Replay, system: str) -> int | None:
    """Index (into the check steps) of the first flag at or after the onset check."""
    onset = r.run.onset_step
    if onset is None:
        return None
    start = next((i for i, s in enumerate(r.steps) if s >= onset), None)
    if start is None:
        return None
    for i in range(start, len(r.steps)):
        if system == OURS:
            if r.checks[i].verdict in (STOP, ESCALATE):
                return i - start
        else:
            stop = r.baseline_stop(system)
            if stop is not None and stop <= r.steps[i]:
                return i - start
    return None


def _score_unreadable(sc: Scores, r: Replay) -> None:
    """A run the bench could not read is a miss in its category's denominator (the same for every system: the
    baselines judge the same frame), and is listed."""
    sc.unreadable += 1
    why = r.error or "no logged steps"
    if r.run.label in HEALTHY_LABELS:
        sc.healthy_label_runs += 1
    if r.run.category == "clear":
        sc.clear_runs += 1
        sc.misses.append(f"{r.run.name}: clear must-stop, never STOP ({why})")
    elif r.run.category == "flag":
        sc.flag_runs += 1
        sc.misses.append(f"{r.run.name}: {r.run.label}, never flagged ({why})")
    else:
        sc.nostop_runs += 1
        sc.misses.append(f"{r.run.name}: {r.run.label}, never judged ({why})")
    if r.run.category in ("clear", "flag") and r.run.onset_step is not None:
        sc.missed_after_onset += 1


def score(replays: list[Replay], system: str) -> Scores:
    sc = Scores(system)
    delays, fractions, times = [], [], []
    esc, healthy_checks = 0, 0
    esc_h, labelled_checks = 0, 0
    right = 0
    for r in replays:
        cat, name = r.run.category, r.run.name
        if r.error or r.span is None:
            _score_unreadable(sc, r)
            continue
        stop, flag = _events(r, system)
        span = max(1, r.span[1] - r.span[0])
        if r.run.label in HEALTHY_LABELS:
            sc.healthy_label_runs += 1
            if stop is not None:
                sc.healthy_label_false_stops += 1
                if cat != "healthy":
                    sc.misses.append(f"{name}: labelled {r.run.label}, false STOP at step {stop}")
        if system == OURS:
            times += [c.seconds for c in r.checks]
        if cat == "clear":
            sc.clear_runs += 1
            sc.clear_stopped += stop is not None
            if stop is None:
                sc.misses.append(f"{name}: clear must-stop, never STOP")
        elif cat == "flag":
            sc.flag_runs += 1
            sc.flag_flagged += flag is not None
            if system == OURS and flag is not None and r.right_concern():
                right += 1
            if flag is None:
                sc.misses.append(f"{name}: {r.run.label}, never flagged")
            elif system == OURS and not r.right_concern():
                sc.misses.append(f"{name}: {r.run.label}, flagged but not with the right concern")
        else:
            sc.nostop_runs += 1
            if stop is not None:
                sc.false_stops += 1
                sc.misses.append(f"{name}: {r.run.label}, false STOP at step {stop}")
            if system == OURS:
                esc += sum(c.verdict == ESCALATE for c in r.checks)
                healthy_checks += len(r.checks)
                if r.run.label in HEALTHY_LABELS:
                    esc_h += sum(c.verdict == ESCALATE for c in r.checks)
                    labelled_checks += len(r.checks)
        if cat in ("clear", "flag") and r.run.onset_step is not None:
            if stop is not None and stop < r.run.onset_step - LONG_BEFORE_FRACTION * span:
                sc.stops_long_before_onset += 1
                sc.misses.append(f"{name}: STOP at {stop}, long before onset {r.run.onset_step}")
            d = _first_flag_after_onset(r, system)
            if d is None:
                sc.missed_after_onset += 1
            else:
                delays.append(d)
                onset_idx = next(i for i, s in enumerate(r.steps) if s >= r.run.onset_step)
                fractions.append(max(0, r.steps[onset_idx + d] - r.run.onset_step) / span)
    sc.stop_recall = sc.clear_stopped / sc.clear_runs if sc.clear_runs else None
    sc.flag_rate = sc.flag_flagged / sc.flag_runs if sc.flag_runs else None
    sc.flag_right_concern = right if system == OURS else None
    sc.false_stop_rate = sc.false_stops / sc.nostop_runs if sc.nostop_runs else None
    sc.median_delay_checks = float(statistics.median(delays)) if delays else None
    sc.median_delay_fraction = float(statistics.median(fractions)) if fractions else None
    if system == OURS:
        sc.escalate_rate_healthy = esc / healthy_checks if healthy_checks else None
        sc.escalate_rate_healthy_labels = esc_h / labelled_checks if labelled_checks else None
        sc.mean_assess_s = float(np.mean(times)) if times else None
        sc.median_assess_s = float(np.median(times)) if times else None
    return sc


# --------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------


def _s(v) -> str:
    return "-" if v is None else str(v)


def print_table(replays: list[Replay], out=None) -> None:
    out = out or sys.stdout
    names = [b.name for b in BASELINES]
    head = f"{'run':44s} {'label':15s} {'cat':7s} {'onset':>7s} {'STOP@':>7s} {'flag@':>7s}  timeline"
    print(head + "  | baseline stops: " + " ".join(names), file=out)
    for r in replays:
        name = r.run.name if len(r.run.name) <= 44 else "..." + r.run.name[-41:]
        if r.error:
            print(f"{name:44s} {r.run.label:15s} {r.run.category:7s} {_s(r.run.onset_step):>7s}  ERROR {r.error}",
                  file=out)
            continue
        stop, flag = _events(r, OURS)
        base = " ".join(f"{_s(r.baseline_stop(n))}" for n in names)
        print(f"{name:44s} {r.run.label:15s} {r.run.category:7s} {_s(r.run.onset_step):>7s} {_s(stop):>7s} "
              f"{_s(flag):>7s}  {r.timeline():{len(r.steps)}s}  | {base}", file=out)


def _fmt(v, pct: bool = False) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{100 * v:.0f}%" if pct else f"{v:.3g}"
    return str(v)


def print_totals(scores: list[Scores], out=None) -> None:
    out = out or sys.stdout
    rows = [
        ("STOP recall, clear must-stop (>=95%)",
         lambda s: f"{s.clear_stopped}/{s.clear_runs} {_fmt(s.stop_recall, True)}"),
        ("flagged, flag runs (>=95%)", lambda s: f"{s.flag_flagged}/{s.flag_runs} {_fmt(s.flag_rate, True)}"),
        ("  ...with the right concern", lambda s: _fmt(s.flag_right_concern)),
        ("false STOPs, no-stop runs (0)", lambda s: f"{s.false_stops}/{s.nostop_runs} {_fmt(s.false_stop_rate, True)}"),
        ("false STOPs, runs labelled healthy (0)",
         lambda s: f"{s.healthy_label_false_stops}/{s.healthy_label_runs}"),
        ("unreadable runs (counted as misses)", lambda s: _fmt(s.unreadable)),
        ("STOPs long before onset (0)", lambda s: _fmt(s.stops_long_before_onset)),
        ("median delay after onset, checks (<=2)", lambda s: _fmt(s.median_delay_checks)),
        ("median delay, fraction of run", lambda s: _fmt(s.median_delay_fraction, True)),
        ("must-stop runs never flagged after onset", lambda s: _fmt(s.missed_after_onset)),
        ("ESCALATE rate, no-stop checks (<=10%)", lambda s: _fmt(s.escalate_rate_healthy, True)),
        ("  ...on runs labelled healthy (<=5%)",
         lambda s: "-" if s.escalate_rate_healthy_labels is None else f"{100 * s.escalate_rate_healthy_labels:.1f}%"),
        ("mean / median s per assessment",
         lambda s: "-" if s.mean_assess_s is None else f"{s.mean_assess_s:.3f} / {s.median_assess_s:.3f}"),
    ]
    width = 16
    print(f"\n{'figure':42s}" + "".join(f"{s.system[:width]:>{width + 2}s}" for s in scores), file=out)
    for label, fn in rows:
        print(f"{label:42s}" + "".join(f"{fn(s):>{width + 2}s}" for s in scores), file=out)


# --------------------------------------------------------------------------------------
# Timing on a 1M-step history
# --------------------------------------------------------------------------------------


def timing(n_steps: int = 1_000_000, n: int = 7, eval_every: int = 1000) -> dict:
    """Median assess_run time on an ``n_steps`` history already read into the store (the cron steady state)."""
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory(prefix="tc-timing-") as tmp:
        path = Path(tmp) / "metrics.csv"
        steps = np.arange(1, n_steps + 1)
        loss = 2.0 + 8.0 * (steps / 1000.0 + 1) ** -0.5 + 0.05 * rng.standard_normal(n_steps)
        lr = 3e-4 * np.minimum(1.0, steps / 2000) * 0.5 * (1 + np.cos(np.pi * steps / n_steps))
        gn = 0.5 + 0.1 * rng.standard_normal(n_steps) ** 2
        val = np.where(steps % eval_every == 0, loss + 0.1, np.nan)
        t0 = time.perf_counter()
        with open(path, "w") as fh:
            fh.write("step,train_loss,lr,grad_norm,val_loss\n")
            for i in range(0, n_steps, 100_000):
                sl = slice(i, i + 100_000)
                lines = [f"{s},{a:.5f},{b:.4e},{c:.4f},{'' if np.isnan(d) else f'{d:.5f}'}"
                         for s, a, b, c, d in zip(steps[sl], loss[sl], lr[sl], gn[sl], val[sl], strict=True)]
                fh.write("\n".join(lines) + "\n")
        write_s = time.perf_counter() - t0
        config, store = _fresh(tmp)
        t0 = time.perf_counter()
        a = assess_run(str(path), store=store, config=config, total_steps=n_steps)
        cold = time.perf_counter() - t0
        times = []
        for _ in range(n):
            t0 = time.perf_counter()
            a = assess_run(str(path), store=store, config=config, total_steps=n_steps)
            times.append(time.perf_counter() - t0)
    return {"n_steps": n_steps, "points": n_steps * 3 + n_steps // eval_every, "write_s": round(write_s, 2),
            "first_read_and_assess_s": round(cold, 3), "warm_times_s": [round(t, 4) for t in times],
            "median_s": round(float(np.median(times)), 4), "target_s": 0.3, "verdict": a.verdict}


# --------------------------------------------------------------------------------------


DOC_FILES = {"manifest.jsonl", "MANIFEST.md", "README.md", "label.json"}


def unlabelled(folder: str | Path, runs: list[LabelledRun]) -> list[str]:
    """Files of a manifest corpus with no manifest entry, or run folders of a label.json corpus without one: what
    the bench never sees."""
    root = Path(folder)
    if (root / "manifest.jsonl").is_file():
        named = {Path(r.path).resolve() for r in runs}
        return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                      if p.is_file() and p.name not in DOC_FILES and p.resolve() not in named)
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not (p / "label.json").is_file())


def skipped(replays: list[Replay], left_out: list[str], no_label: list[str]) -> list[str]:
    """Everything the figures do not cover, one line each."""
    out = [f"no label or manifest entry (not replayed): {name}" for name in no_label]
    if left_out:
        more = f" ... and {len(left_out) - 10} more" if len(left_out) > 10 else ""
        out.append(f"left out by --only: {len(left_out)} runs ({', '.join(left_out[:10])}{more})")
    for r in replays:
        if r.run.category in ("clear", "flag") and r.run.onset_step is None:
            out.append(f"{r.run.name}: {r.run.category} run without an onset: not in the delay figures")
        errors = [c for c in r.checks if c.verdict == "ERROR"]
        if errors:
            out.append(f"{r.run.name}: {len(errors)} of {len(r.checks)} checks raised an error "
                       f"(first at step {errors[0].step}: {errors[0].concern})")
    return out


def run_corpora(dirs: list[str], n_checks: int = 24, only: str | None = None,
                progress: bool = True) -> tuple[list[Replay], list[Scores], list[str]]:
    """(replays, scores per system, what was skipped)."""
    runs: list[LabelledRun] = []
    no_label: list[str] = []
    for d in dirs:
        found = load_corpus(d)
        runs += found
        no_label += [f"{d}/{name}" for name in unlabelled(d, found)]
    left_out = [r.name for r in runs if only and only not in r.name]
    if only:
        runs = [r for r in runs if only in r.name]
    replays = []
    for run in runs:
        t0 = time.perf_counter()
        replays.append(replay(run, n_checks))
        if progress:
            print(f"  replayed {run.name} ({time.perf_counter() - t0:.1f}s)", file=sys.stderr, flush=True)
    scores = [score(replays, OURS)] + [score(replays, b.name) for b in BASELINES]
    return replays, scores, skipped(replays, left_out, no_label)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Replay detection benchmark (our engine vs baseline rules).")
    ap.add_argument("corpus", nargs="*", help="corpus folders (label.json runs, or the real-logs manifest corpus)")
    ap.add_argument("--checks", type=int, default=24, help="checks per run (>= 20)")
    ap.add_argument("--only", help="only runs whose name contains this")
    ap.add_argument("--json", dest="json_out", help="write every figure to this file")
    ap.add_argument("--timing", action="store_true", help="time assess_run on a synthetic 1M-step history")
    ap.add_argument("--timing-steps", type=int, default=1_000_000)
    ap.add_argument("--timing-n", type=int, default=7)
    args = ap.parse_args(argv)
    if not args.corpus and not args.timing:
        ap.error("name at least one corpus folder, or --timing")
    result: dict = {}
    if args.corpus:
        replays, scores, skips = run_corpora(args.corpus, args.checks, args.only)
        print_table(replays)
        print_totals(scores)
        misses = list(scores[0].misses)
        ours = scores[0]
        if ours.escalate_rate_healthy is not None and ours.escalate_rate_healthy > 0.10:
            noisy = sorted(((sum(c.verdict == ESCALATE for c in r.checks), r.run.name) for r in replays
                            if not r.error and r.run.category == "healthy"), reverse=True)
            worst = ", ".join(f"{name} ({n})" for n, name in noisy[:5] if n)
            misses.append(f"ESCALATE rate on no-stop checks {ours.escalate_rate_healthy:.0%} > 10%; most: {worst}")
        if ours.median_delay_checks is not None and ours.median_delay_checks > 2:
            misses.append(f"median delay {ours.median_delay_checks} checks > 2")
        if ours.stop_recall is not None and ours.stop_recall < 0.95:
            misses.append(f"STOP recall {ours.stop_recall:.0%} < 95%")
        if ours.flag_rate is not None and ours.flag_rate < 0.95:
            misses.append(f"flag rate {ours.flag_rate:.0%} < 95%")
        if misses:
            print("\nwhere training-check misses a target:")
            for m in misses:
                print(f"  - {m}")
        print("\nwhat this bench skipped:" if skips else "\nwhat this bench skipped: nothing")
        for m in skips:
            print(f"  - {m}")
        result["runs"] = [{**r.run.to_dict(), "checks": [asdict(c) for c in r.checks], "timeline": r.timeline(),
                           "baseline_fire": r.baseline_fire, "error": r.error} for r in replays]
        result["scores"] = [asdict(s) for s in scores]
        result["skipped"] = skips
    if args.timing:
        t = timing(args.timing_steps, args.timing_n)
        print(f"\ntiming: {t['n_steps']} steps ({t['points']} points): "
              f"first read+assess {t['first_read_and_assess_s']} s; "
              f"cached assess median {t['median_s']} s over {len(t['warm_times_s'])} (target {t['target_s']} s)")
        result["timing"] = t
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=1, default=str))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TRAINING_CHECK_HOME", tempfile.gettempdir() + "/tc-bench-home")
    raise SystemExit(main())
