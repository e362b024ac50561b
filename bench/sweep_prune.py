"""Sweep pruning bench: training-check's sweep policy against Optuna's pruners on real recorded sweeps.

The sweeps under ``examples/sweeps/`` (trained for real by ``bench/sweep_runs/generate.py``: 16 configurations
per sweep, same length, some diverge) are replayed as if live, one evaluation at a time, under two protocols:

- ``lockstep``: every run starts at once and advances together;
- ``4-at-a-time``: four slots; a run starts when a slot frees (its run finished or was pruned).

After each evaluation every method may stop runs. Scored per sweep: compute saved (1 - steps run / all steps),
whether the run with the best final eval was ever pruned, how many of the top 3 finals survived, and regret
((best surviving final - best final) / (median final - best final)). Methods: training-check's policy
(``tools/sweep``: a check after every evaluation, its memory kept between checks), Optuna's pruners driven
through Optuna's own API (``study.ask`` / ``trial.report`` / ``trial.should_prune`` / ``study.tell``), never
pruning, and an oracle (knows the finals; stops every run but the best at the policy's warm-up).

The sweeps of ``HELD_OUT_TASKS`` were never looked at while tuning the policy; their figures are reported apart.

    ~/venvs/sweep/bin/python bench/sweep_prune.py            # needs optuna (the bench extra / a side venv)
    ~/venvs/sweep/bin/python bench/sweep_prune.py --only training-check --policy patience=3
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
try:
    from training_check.tools.sweep import PolicyParams, RunCurve, SweepMemory, SweepPolicy, SweepView, judge_sweep
    from training_check.tools.sweep.projection import ProjectionParams
except ImportError:  # a checkout not installed: tools/ is importable as a package of the folder above
    sys.path.insert(0, str(ROOT))
    from tools.sweep import PolicyParams, RunCurve, SweepMemory, SweepPolicy, SweepView, judge_sweep
    from tools.sweep.projection import ProjectionParams

HELD_OUT_TASKS = ("charlm", "autoencoder")
SLOTS = 4


@dataclass(frozen=True)
class Sweep:
    name: str
    task: str
    runs: list[str]  # in launch order
    steps: np.ndarray  # the evaluation steps (shared)
    curves: dict[str, np.ndarray]  # eval values per run, NaN kept
    final_step: int

    def final(self, run: str) -> float:
        v = float(self.curves[run][-1])
        return v if math.isfinite(v) else math.inf


def load_sweeps(folder: Path) -> list[Sweep]:
    out = []
    for meta_path in sorted(folder.glob("*/sweep.json")):
        meta = json.loads(meta_path.read_text())
        curves: dict[str, np.ndarray] = {}
        steps: np.ndarray | None = None
        for r in meta["runs"]:
            recs = [json.loads(line) for line in (meta_path.parent / f"{r['run']}.jsonl").read_text().splitlines()]
            ev = [(rec["step"], float(rec["eval_loss"])) for rec in recs if "eval_loss" in rec]
            steps = np.array([s for s, _ in ev], dtype=float)
            curves[r["run"]] = np.array([v for _, v in ev], dtype=float)
        assert steps is not None
        out.append(Sweep(meta["sweep"], meta["task"], [r["run"] for r in meta["runs"]], steps, curves,
                         int(meta["steps"])))
    return out


# ---------------------------------------------------------------- methods: one controller per sweep replay

class Controller:
    def start(self, run: str) -> None: ...

    def tick(self, seen: dict[str, int]) -> set[str]:
        """Runs to stop after this evaluation; ``seen``: evaluations done per running run."""
        raise NotImplementedError

    def finish(self, run: str, final: float) -> None: ...

    def stopped(self, run: str) -> None: ...


class TrainingCheck(Controller):
    def __init__(self, sweep: Sweep, policy: SweepPolicy, projection: ProjectionParams) -> None:
        self.sweep, self.policy, self.projection = sweep, policy, projection
        self.memory = SweepMemory()
        self.seen: dict[str, int] = {}
        self.done: set[str] = set()
        self.gone: set[str] = set()

    def start(self, run: str) -> None:
        self.seen[run] = 0

    def tick(self, seen: dict[str, int]) -> set[str]:
        self.seen.update(seen)
        s = self.sweep
        curves = [RunCurve(r, s.steps[:n], s.curves[r][:n], finished=r in self.done, stopped=r in self.gone)
                  for r, n in self.seen.items() if n > 0]
        j = judge_sweep(SweepView(curves, final_step=s.final_step, metric="eval_loss"), self.memory, self.policy,
                        self.projection)
        self.memory = j.memory
        return set(j.summary.prune) & set(seen)

    def finish(self, run: str, final: float) -> None:
        self.done.add(run)

    def stopped(self, run: str) -> None:
        self.gone.add(run)


class OptunaPruner(Controller):
    def __init__(self, make: Callable[[], Any]) -> None:
        import optuna

        optuna.logging.set_verbosity(optuna.logging.ERROR)
        self.optuna = optuna
        self.study = optuna.create_study(study_name="bench", direction="minimize", pruner=make(),
                                         sampler=optuna.samplers.RandomSampler(seed=0))
        self.trials: dict[str, Any] = {}
        self.sweep: Sweep | None = None

    def start(self, run: str) -> None:
        self.trials[run] = self.study.ask()

    def tick(self, seen: dict[str, int]) -> set[str]:
        assert self.sweep is not None
        out = set()
        for run, n in seen.items():
            trial = self.trials[run]
            trial.report(float(self.sweep.curves[run][n - 1]), n)
            if n < len(self.sweep.steps) and trial.should_prune():
                self.study.tell(trial, state=self.optuna.trial.TrialState.PRUNED)
                out.add(run)
        return out

    def finish(self, run: str, final: float) -> None:
        if math.isfinite(final):
            self.study.tell(self.trials[run], final)
        else:
            self.study.tell(self.trials[run], state=self.optuna.trial.TrialState.FAIL)


class Never(Controller):
    def tick(self, seen: dict[str, int]) -> set[str]:
        return set()


class Oracle(Controller):
    """Knows the finals: stops every run but the best at the first evaluation at or after the warm-up step."""

    def __init__(self, sweep: Sweep, warmup_fraction: float) -> None:
        self.best = min(sweep.runs, key=sweep.final)
        self.at = int(np.searchsorted(sweep.steps, warmup_fraction * sweep.final_step)) + 1

    def tick(self, seen: dict[str, int]) -> set[str]:
        return {r for r, n in seen.items() if r != self.best and n >= self.at}


def optuna_methods() -> dict[str, Callable[[], Any]]:
    import optuna.pruners as p

    return {
        "optuna Median": lambda: p.MedianPruner(),
        "optuna Median(warmup 5)": lambda: p.MedianPruner(n_startup_trials=4, n_warmup_steps=5),
        "optuna Percentile(25)": lambda: p.PercentilePruner(25.0),
        "optuna SuccessiveHalving": lambda: p.SuccessiveHalvingPruner(),
        "optuna SH(min 2)": lambda: p.SuccessiveHalvingPruner(min_resource=2),
        "optuna Hyperband": lambda: p.HyperbandPruner(),
        "optuna Hyperband(1..32)": lambda: p.HyperbandPruner(min_resource=1, max_resource=32),
        "optuna Patient(Median, 3)": lambda: p.PatientPruner(p.MedianPruner(), patience=3),
        "optuna Patient(3)": lambda: p.PatientPruner(None, patience=3),
    }


# ---------------------------------------------------------------- replay and score

@dataclass(frozen=True)
class Score:
    saved: float
    best_pruned: bool
    top3: int
    regret: float


def replay(sweep: Sweep, ctl: Controller, slots: int | None) -> Score:
    if isinstance(ctl, OptunaPruner):
        ctl.sweep = sweep
    n_evals = len(sweep.steps)
    pending = list(sweep.runs)
    running: dict[str, int] = {}
    ran: dict[str, int] = {}
    survived: set[str] = set()
    while pending or running:
        while pending and (slots is None or len(running) < slots):
            run = pending.pop(0)
            running[run] = 0
            ctl.start(run)
        for run in running:
            running[run] += 1
        prune = ctl.tick(dict(running))
        for run, n in list(running.items()):
            if n >= n_evals:
                ran[run] = n
                survived.add(run)
                ctl.finish(run, sweep.final(run))
                del running[run]
            elif run in prune:
                ran[run] = n
                ctl.stopped(run)
                del running[run]
    total = n_evals * len(sweep.runs)
    finals = {r: sweep.final(r) for r in sweep.runs}
    order = sorted(sweep.runs, key=lambda r: finals[r])
    best = finals[order[0]]
    fin = np.array([v for v in finals.values() if math.isfinite(v)])
    median = float(np.median(np.array(list(finals.values()))))
    if not math.isfinite(median):
        median = float(np.median(fin))
    kept = min((finals[r] for r in survived), default=math.inf)
    spread = median - best
    regret = (kept - best) / spread if spread > 0 else 0.0
    return Score(1 - sum(ran.values()) / total, order[0] not in survived, sum(r in survived for r in order[:3]),
                 regret)


def methods(sweep: Sweep, policy: SweepPolicy, projection: ProjectionParams,
            only: str | None) -> dict[str, Callable[[], Controller]]:
    out: dict[str, Callable[[], Controller]] = {
        "training-check": lambda: TrainingCheck(sweep, policy, projection),
        "never prune": Never,
        "oracle": lambda: Oracle(sweep, policy.params.warmup_fraction),
    }
    if only is None or "optuna" in only:
        for name, make in optuna_methods().items():
            out[name] = (lambda m=make: OptunaPruner(m))  # type: ignore[misc]
    if only:
        out = {k: v for k, v in out.items() if only in k}
    return out


def parse_overrides(items: list[str], cls: Any) -> dict[str, Any]:
    names = {f.name: f for f in fields(cls)}
    out: dict[str, Any] = {}
    for item in items:
        key, _, value = item.partition("=")
        if key in names:
            kind = type(getattr(cls(), key))
            out[key] = (value.lower() in ("1", "true", "yes")) if kind is bool else kind(value)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweeps", default=str(ROOT / "examples" / "sweeps"))
    ap.add_argument("--only", help="only the methods whose name contains this")
    ap.add_argument("--policy", nargs="*", default=[], help="overrides, e.g. patience=3 below=1.5")
    ap.add_argument("--json", action="store_true", help="every score as JSON")
    a = ap.parse_args()
    policy = SweepPolicy(replace(PolicyParams(), **parse_overrides(a.policy, PolicyParams)))
    projection = replace(ProjectionParams(), **parse_overrides(a.policy, ProjectionParams))
    sweeps = load_sweeps(Path(a.sweeps))
    protocols = {"lockstep": None, f"{SLOTS}-at-a-time": SLOTS}
    results: dict[str, dict[str, dict[str, Score]]] = {}
    for proto, slots in protocols.items():
        results[proto] = {}
        for sw in sweeps:
            for name, make in methods(sw, policy, projection, a.only).items():
                results[proto].setdefault(name, {})[sw.name] = replay(sw, make(), slots)
    if a.json:
        print(json.dumps({p: {m: {s: vars(sc) for s, sc in by.items()} for m, by in r.items()}
                          for p, r in results.items()}, indent=1))
        return 0
    held = [s.name for s in sweeps if s.task in HELD_OUT_TASKS]
    tuned = [s.name for s in sweeps if s.task not in HELD_OUT_TASKS]
    print(f"{len(sweeps)} sweeps ({', '.join(f'{s.name}: {len(s.runs)} runs' for s in sweeps)}); "
          f"held out from tuning: {', '.join(held)}")
    print("per sweep: compute saved / regret / best run kept (+) or pruned (X) / top-3 survivors")
    for proto, by_method in results.items():
        print(f"\n== {proto}")
        head = f"{'method':<27}" + "".join(f"{s.name:>17}" for s in sweeps)
        every = [s.name for s in sweeps]
        print(head + f"  | {'tuned: saved  regret best-pruned':>34}  | {'held out: saved  regret best-pruned':>37}"
              f"  | {'all: saved  regret best-pruned':>34}")
        for name, by in by_method.items():
            cells = "".join(f"{_cell(by[s.name]):>17}" for s in sweeps)
            print(f"{name:<27}{cells}  | {_group(by, tuned):>34}  | {_group(by, held):>37}  | {_group(by, every):>34}")
    return 0


def _cell(sc: Score) -> str:
    return f"{sc.saved:4.0%} {min(sc.regret, 9.99):4.2f} {'X' if sc.best_pruned else '+'} {sc.top3}"


def _group(by: dict[str, Score], names: list[str]) -> str:
    if not names:
        return "-"
    scs = [by[n] for n in names]
    saved = float(np.mean([s.saved for s in scs]))
    regret = max(s.regret for s in scs)
    lost = sum(s.best_pruned for s in scs)
    return f"{saved:5.1%}  max {min(regret, 9.99):4.2f}  {lost} of {len(scs)}"


if __name__ == "__main__":
    sys.exit(main())
