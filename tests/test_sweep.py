"""The sweep judgement (tools/sweep): projection, the pruning policy and the relative answer, on synthetic curves
and on the real sweeps committed under examples/sweeps/ (trained by bench/sweep_runs/generate.py)."""

from __future__ import annotations

import json
import math
import sys

import numpy as np
import pytest
from training_check.tools.sweep import (
    LEAD,
    PRUNE,
    PolicyParams,
    RunCurve,
    SweepMemory,
    SweepPolicy,
    SweepView,
    judge_sweep,
    project,
)
from training_check.tools.sweep.collect import RunObjectives, Series, build_sweep_view
from training_check.tools.sweep.projection import ProjectionParams, calibrate

from .conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import sweep_prune  # noqa: E402

STEPS = np.arange(50, 850, 50, dtype=float)  # 16 evaluations to step 800, as the real sweeps


def power(a: float, b: float, c: float, noise: float = 0.0, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return a + b * (STEPS / 100) ** -c + rng.normal(0, noise, STEPS.size)


def curves_at(n: int, finals: dict[str, np.ndarray]) -> list[RunCurve]:
    return [RunCurve(r, STEPS[:n], v[:n]) for r, v in finals.items()]


def replay(sweep: dict[str, np.ndarray], policy: SweepPolicy | None = None, upto: int = 16):
    """Lockstep checks after every evaluation; (first prune step per run, the last judgement)."""
    memory, pruned, j = SweepMemory(), {}, None
    for n in range(1, upto + 1):
        curves = [RunCurve(r, STEPS[:min(n, pruned.get(r, n))], v[:min(n, pruned.get(r, n))], stopped=r in pruned)
                  for r, v in sweep.items()]
        j = judge_sweep(SweepView(curves, final_step=800, metric="eval_loss"), memory, policy or SweepPolicy())
        memory = j.memory
        for r in j.summary.prune:
            pruned.setdefault(r, n)
    return {r: int(STEPS[n - 1]) for r, n in pruned.items()}, j


# ---------------------------------------------------------------- projection

def test_a_power_law_projected_from_its_first_third_covers_its_final():
    y = power(1.0, 2.0, 0.7, noise=0.005)
    p = project(RunCurve("r", STEPS, y), 800, upto=250)
    assert p is not None and p.low <= y[-1] <= p.high
    assert p.low < p.value < p.high and p.high - p.low < 2 * (p.now - y[-1])  # honest, not unbounded
    assert p.value < y[4]  # heading down


def test_an_exponential_plateau_is_projected_near_its_floor():
    y = 0.5 + 2.0 * np.exp(-STEPS / 150)
    p = project(RunCurve("r", STEPS, y), 800, upto=400)
    assert p is not None and abs(p.value - y[-1]) < 0.1 and p.low <= y[-1] <= p.high < p.now


def test_too_few_points_no_projection_and_a_nan_run_projects_to_inf():
    assert project(RunCurve("r", STEPS[:2], np.array([2.0, 1.9])), 800) is None
    gone = RunCurve("r", STEPS[:5], np.array([2.0, 1.9, math.nan, math.nan, math.nan]))
    p = project(gone, 800)
    assert p is not None and p.value == p.low == math.inf


def test_calibration_widens_the_interval_when_finished_runs_dropped_late():
    # finished runs whose loss fell sharply late (a learning-rate decay): projected from 30 % they end far below
    late = [RunCurve(f"f{i}", STEPS, np.where(STEPS < 600, 2.0 - STEPS / 2000, 1.0 - 0.1 * i), finished=True)
            for i in range(4)]
    cal = calibrate(late, 0.3, 800)
    assert cal.runs == 4 and cal.below > ProjectionParams().below and cal.below <= ProjectionParams().max_widen
    assert calibrate([], 0.3, 800).runs == 0


# ---------------------------------------------------------------- policy

def sweep_with_a_loser() -> dict[str, np.ndarray]:
    runs = {f"good{i}": power(0.6 + 0.02 * i, 1.5, 0.8, 0.004, seed=i) for i in range(5)}
    runs["loser"] = power(1.8, 0.6, 0.5, 0.004, seed=9)
    return runs


def test_a_clearly_losing_run_is_pruned_with_its_numbers_never_on_one_check():
    pruned, _ = replay(sweep_with_a_loser())
    assert "loser" in pruned and "good0" not in pruned
    first = pruned["loser"]
    # the first check past the warm-up finds the evidence, the second (patience 2) recommends prune
    assert first >= 100 + 50 * (PolicyParams().patience - 1)
    _, j = replay(sweep_with_a_loser(), upto=int(first / 50))
    rel = j.runs["loser"]
    assert rel.recommend == PRUNE and rel.rank == 6 and rel.of == 6
    assert f"at step {first}" in rel.reason and "6th of 6" in rel.reason and "checks in a row" in rel.reason
    assert rel.projected_final is not None and rel.projected_final.at_step == 800
    assert rel.projected_final.low > j.runs["good0"].projected_final.high  # type: ignore[union-attr]


def test_a_check_with_nothing_new_does_not_count_again():
    sweep = sweep_with_a_loser()
    view = SweepView(curves_at(4, sweep), final_step=800)
    j1 = judge_sweep(view)
    j2 = judge_sweep(view, j1.memory)
    assert j1.runs["loser"].consecutive == j2.runs["loser"].consecutive == 1
    assert j2.runs["loser"].recommend != PRUNE


def test_one_noisy_check_never_prunes():
    sweep = {f"r{i}": power(0.6 + 0.01 * i, 1.5, 0.8, 0.004, seed=i) for i in range(6)}
    sweep["r5"] = sweep["r5"].copy()
    sweep["r5"][5] = 9.0  # one wild evaluation at step 300
    pruned, _ = replay(sweep, upto=8)
    assert "r5" not in pruned


def test_the_best_and_the_fastest_improver_are_never_pruned():
    sweep = sweep_with_a_loser()
    # a late bloomer: far behind early, improving fastest all along (a small learning rate, a long warm-up)
    sweep["bloomer"] = (3.2 - STEPS / 260).clip(0.45)
    pruned, j = replay(sweep, upto=6)
    assert "good0" not in pruned
    assert "bloomer" not in pruned
    assert j is not None and j.runs["bloomer"].recommend != PRUNE


def test_evidence_against_the_fastest_improver_or_the_best_is_overruled():
    from training_check.tools.sweep.compare import Standing
    from training_check.tools.sweep.projection import Projection

    def st(run: str, rank: int, gain: float, fastest: bool) -> Standing:
        return Standing(run, 400, 3.0 - rank * 0.1, rank, 6, 2.5, 2.0, 0.01, 50.0, gain, fastest, 1.0)

    def pr(low: float, high: float) -> Projection:
        return Projection((low + high) / 2, low, high, 800, high, 0.01, "power(1)")

    standings = {"fast": st("fast", 6, 9.0, True), "slow": st("slow", 5, 0.5, False),
                 **{f"g{i}": st(f"g{i}", 1 + i, 0.1, False) for i in range(4)}}
    projections = {"fast": pr(2.6, 2.8), "slow": pr(2.6, 2.8), **{f"g{i}": pr(1.0, 1.2 + i) for i in range(4)}}
    policy = SweepPolicy(PolicyParams(patience=1))
    got, _ = policy.decide(standings, projections, set(standings), set(standings), 800, SweepMemory())
    assert got["slow"].recommend == PRUNE and got["slow"].rule == "projection"
    assert got["fast"].recommend != PRUNE and got["fast"].rule == "protected: the fastest improver"
    assert got["g0"].recommend == LEAD


def test_runs_started_later_are_compared_at_equal_steps():
    sweep = {f"old{i}": power(0.6 + 0.02 * i, 1.5, 0.8, 0.003, seed=i) for i in range(5)}
    curves = [RunCurve(r, STEPS[:12], v[:12]) for r, v in sweep.items()]
    # a new run at step 150 whose value equals the old runs' at 150 (far above their values at 600)
    new = power(0.6, 1.5, 0.8, 0.003, seed=42)
    curves.append(RunCurve("new", STEPS[:3], new[:3]))
    memory = SweepMemory()
    for _ in range(3):
        j = judge_sweep(SweepView(curves, final_step=800), memory)
        memory = j.memory
    rel = j.runs["new"]
    assert rel.step == 150 and rel.recommend != PRUNE and rel.rank is not None and rel.rank <= 3


def test_an_early_leader_beaten_by_runs_started_later_loses_its_protection():
    from training_check.tools.sweep.compare import standings

    # four early runs, the leader a slow one; four runs started later are far better at every step they reached
    early = {"lead": 3.0 - STEPS / 400, **{f"e{i}": 3.2 - STEPS / 1000 + 0.01 * i for i in range(3)}}
    late = {f"l{i}": power(0.6 + 0.01 * i, 1.0, 1.0, 0.002, seed=i) for i in range(4)}
    curves = [RunCurve(r, STEPS[:10], v[:10]) for r, v in early.items()]
    curves += [RunCurve(r, STEPS[:4], v[:4]) for r, v in late.items()]
    table = standings(SweepView(curves, final_step=800))
    assert table["lead"].rank == 1 and table["lead"].step == 500  # first among the runs that reached its step...
    assert table["lead"].beaten_before == 200  # ...but worse at 200 than the runs that stand there now
    assert all(table[f"l{i}"].beaten_before is None for i in range(4))
    assert SweepPolicy()._protected("lead", table["lead"], None) == ""
    alone = standings(SweepView([c for c in curves if c.run in early], final_step=800))
    assert alone["lead"].beaten_before is None
    assert SweepPolicy()._protected("lead", alone["lead"], None) == "the best at its step"


def test_a_nan_run_is_pruned_after_persisting_and_the_memory_round_trips():
    sweep = sweep_with_a_loser()
    sweep["nan"] = np.where(STEPS < 100, 2.0, math.nan)
    pruned, j = replay(sweep, upto=4)
    assert pruned.get("nan") == 150  # non-finite from step 100: the checks at 100 and 150
    assert j is not None and "non-finite" in j.runs["nan"].reason
    again = SweepMemory.from_dict(json.loads(json.dumps(j.memory.to_dict())))
    assert again == j.memory


def test_a_maximised_objective_is_reported_in_its_own_direction():
    sweep = {r: -v for r, v in sweep_with_a_loser().items()}  # accuracy-like: higher is better
    view = SweepView(curves_at(8, sweep), "maximize", 800, "eval_acc")
    j = judge_sweep(view)
    best = j.runs["good0"]
    assert best.rank == 1 and best.value == pytest.approx(best.best)  # type: ignore[arg-type]
    pf = j.runs["loser"].projected_final
    assert pf is not None and pf.low <= pf.value <= pf.high < best.value  # type: ignore[operator]
    assert any(r.recommend == LEAD for r in j.runs.values())


def test_objective_choice_prefers_a_shared_eval_name_and_says_who_is_left_out():
    def series(name: str, v: np.ndarray) -> Series:
        return Series(name, "minimize", STEPS[:6], v[:6])

    sweep = sweep_with_a_loser()
    objs = [RunObjectives(r, series("val_loss", v), series("loss", v + 0.1), 800) for r, v in sweep.items()]
    objs.append(RunObjectives("no-eval", None, series("loss", sweep["good0"]), 800))
    view = build_sweep_view(objs, {"broken": "error: unreadable"})
    assert view is not None and view.metric == "val_loss" and len(view.curves) == 6
    assert view.left_out == {"broken": "error: unreadable", "no-eval": "does not log val_loss"}
    assert build_sweep_view(objs[:3], {}) is None  # fewer than 4 runs share anything


# ---------------------------------------------------------------- the real sweeps

SWEEPS = sweep_prune.load_sweeps(REPO / "examples" / "sweeps")


def test_the_committed_sweeps_are_real_and_complete():
    assert len(SWEEPS) >= 8 and all(len(s.runs) >= 12 for s in SWEEPS)
    assert len({s.task for s in SWEEPS}) >= 3
    assert any(not math.isfinite(s.final(r)) for s in SWEEPS for r in s.runs)  # some diverged


@pytest.mark.parametrize("slots", [None, sweep_prune.SLOTS], ids=["lockstep", "4-at-a-time"])
def test_on_the_real_sweeps_the_best_run_is_never_pruned_and_compute_is_saved(slots):
    scores = [sweep_prune.replay(s, sweep_prune.TrainingCheck(s, SweepPolicy(), ProjectionParams()), slots)
              for s in SWEEPS]
    assert not any(sc.best_pruned for sc in scores)
    assert max(sc.regret for sc in scores) <= 0.05
    assert float(np.mean([sc.saved for sc in scores])) >= 0.5  # the bench prints the figures (sweep_prune.py)


def test_a_real_diverged_run_is_pruned_and_its_reason_names_the_numbers():
    s = next(s for s in SWEEPS if s.name == "regression-s1")
    curves = [RunCurve(r, s.steps[:6], s.curves[r][:6]) for r in s.runs]
    memory = SweepMemory()
    for n in range(5, 7):
        curves = [RunCurve(r, s.steps[:n], s.curves[r][:n]) for r in s.runs]
        j = judge_sweep(SweepView(curves, final_step=800, metric="eval_loss"), memory)
        memory = j.memory
    gone = [r for r in s.runs if not math.isfinite(s.final(r))]
    assert gone and set(gone) <= set(j.summary.prune)
    best = min(s.runs, key=s.final)
    assert best not in j.summary.prune and j.runs[best].recommend in ("keep", "lead")
