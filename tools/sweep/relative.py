"""A sweep's relative judgement: per run its standing, projected final and recommendation; the sweep's summary.

``judge_sweep(view, memory)`` is the facade: standings at equal steps (compare.py), projections calibrated on the
runs that finished (projection.py), the policy's recommendations (policy.py), and one line per run naming the
numbers. Values are reported in the objective's own direction; the memory comes back for the caller to store.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TypedDict

from .compare import Standing, standings
from .policy import KEEP, LEAD, PRUNE, Decision, SweepMemory, SweepPolicy
from .projection import Calibration, Projection, ProjectionParams, calibrate, project
from .view import SweepView

CALIBRATION_RUNS = 32  # finished runs checked at most (the most recent ones by their last step)


def fmt(x: float | None) -> str:
    if x is None:
        return "-"
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.4g}"


def _num(x: float | None) -> float | None:
    """JSON-safe: None for a non-finite number."""
    return None if x is None or not math.isfinite(x) else round(float(x), 6)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class ProjectedFinalDict(TypedDict):
    """The projected value at ``at_step`` with its interval, in the objective's direction."""

    value: float | None
    low: float | None
    high: float | None
    at_step: int


class RelativeDict(TypedDict):
    """A run among its siblings at equal steps: rank of, value, the sweep's median and best there, how far behind
    in the sweep's noise units, where it is heading, and keep / lead / prune with the numbers."""

    rank: int | None
    of: int | None
    step: int | None
    value: float | None
    median: float | None
    best: float | None
    behind: float | str | None
    projected_final: ProjectedFinalDict | None
    recommend: str
    reason: str
    consecutive: int
    state: str


class SweepDict(TypedDict):
    """The sweep: its key in the store, the objective, runs compared at the common step, the runs to prune, the
    leader, the runs left out and why."""

    key: str
    metric: str
    direction: str
    compared: int
    common_step: int | None
    final_step: int
    prune: list[str]
    leader: str | None
    left_out: dict[str, str]
    calibrated_on: int


@dataclass(frozen=True)
class ProjectedFinal:
    """The projected value at ``at_step`` and its interval, in the objective's own direction (low <= high)."""

    value: float
    low: float
    high: float
    at_step: float

    def to_dict(self) -> ProjectedFinalDict:
        return {"value": _num(self.value), "low": _num(self.low), "high": _num(self.high),
                "at_step": int(self.at_step)}


@dataclass(frozen=True)
class Relative:
    """One run among its siblings."""

    run: str
    rank: int | None
    of: int | None
    step: float | None
    value: float | None
    median: float | None
    best: float | None
    behind: float | None  # noise units behind the median (negative: ahead)
    projected_final: ProjectedFinal | None
    recommend: str  # keep | lead | prune
    reason: str
    consecutive: int = 0
    state: str = "running"  # running | finished | stopped

    def to_dict(self) -> RelativeDict:
        return {"rank": self.rank, "of": self.of, "step": None if self.step is None else int(self.step),
                "value": _num(self.value), "median": _num(self.median), "best": _num(self.best),
                "behind": None if self.behind is None else (round(self.behind, 2) if math.isfinite(self.behind)
                                                             else ("inf" if self.behind > 0 else "-inf")),
                "projected_final": self.projected_final.to_dict() if self.projected_final else None,
                "recommend": self.recommend, "reason": self.reason, "consecutive": self.consecutive,
                "state": self.state}


@dataclass(frozen=True)
class SweepSummary:
    """The sweep: runs compared, the common step, the runs to prune, the leader, the runs left out and why."""

    metric: str
    direction: str
    compared: int
    common_step: float | None
    final_step: float
    prune: list[str]
    leader: str | None
    left_out: dict[str, str] = field(default_factory=dict)
    calibrated_on: int = 0

    def to_dict(self, key: str = "") -> SweepDict:
        return {"key": key, "metric": self.metric, "direction": self.direction, "compared": self.compared,
                "common_step": None if self.common_step is None else int(self.common_step),
                "final_step": int(self.final_step), "prune": list(self.prune), "leader": self.leader,
                "left_out": dict(self.left_out), "calibrated_on": self.calibrated_on}


@dataclass(frozen=True)
class SweepJudgement:
    runs: dict[str, Relative]
    summary: SweepSummary
    memory: SweepMemory
    projections: dict[str, Projection | None]  # oriented lower-is-better (for plots and the policy's evidence)


def _calibrations(view: SweepView, target: float, fractions: list[float],
                  params: ProjectionParams) -> dict[float, Calibration]:
    finished = sorted((c for c in view.curves if c.finished), key=lambda c: -c.last_step)[:CALIBRATION_RUNS]
    out: dict[float, Calibration] = {}
    for f in fractions:
        out[f] = calibrate(finished, f, target, params) if finished else Calibration(params.below, params.above, 0)
    return out


def _bucket(fraction: float) -> float:
    return round(min(1.0, max(0.0, fraction)) * 20) / 20


DEFAULT_POLICY = SweepPolicy()
DEFAULT_PROJECTION = ProjectionParams()


def judge_sweep(view: SweepView, memory: SweepMemory | None = None, policy: SweepPolicy = DEFAULT_POLICY,
                params: ProjectionParams = DEFAULT_PROJECTION) -> SweepJudgement:
    """Every run of ``view`` judged against its siblings (see the module's docstring)."""
    memory = memory or SweepMemory()
    o = view.oriented()
    sign = view.sign()
    target = o.target_step
    curves = [c for c in o.curves if c.steps.size]
    left_out = dict(view.left_out)
    for c in o.curves:
        if not c.steps.size:
            left_out.setdefault(c.run, "no point of the objective yet")
    buckets = sorted({_bucket(c.last_step / target) for c in curves if c.active and target > 0})
    cals = _calibrations(o, target, buckets, params)
    table = standings(o)
    projections: dict[str, Projection | None] = {}
    for c in curves:
        if view.final_step is None:  # the planned length is unknown: nothing to project to
            projections[c.run] = None
        elif c.active and target > 0:
            projections[c.run] = project(c, target, cals[_bucket(c.last_step / target)].apply(params))
        else:
            projections[c.run] = project(c, target, params)
    active = {c.run for c in curves if c.active}
    will_finish = {c.run for c in curves if not c.stopped}
    decisions, new_memory = policy.decide(table, projections, active, will_finish, target, memory)
    leader = next((r for r, d in decisions.items() if d.recommend == LEAD), None)
    if leader is None:  # every run finished or stopped: the best projected (or final) value
        done = {r: p for r, p in projections.items() if p is not None and r in will_finish}
        leader = min(done, key=lambda r: done[r].value, default=None)
    if leader is None:  # nothing projected (the planned length unknown): the best at its step
        ranked = [st for r, st in table.items() if r in will_finish and math.isfinite(st.value)]
        leader = min(ranked, key=lambda st: (st.rank, -st.step, st.value)).run if ranked else None
    runs: dict[str, Relative] = {}
    for c in curves:
        st, pr = table.get(c.run), projections.get(c.run)
        state = "finished" if c.finished else ("stopped" if c.stopped else "running")
        d = decisions.get(c.run)
        recommend = d.recommend if d else KEEP
        if d is not None and c.run == leader and recommend == KEEP:
            d = Decision(d.run, LEAD, d.rule, d.consecutive)
            recommend = LEAD
        reason = _reason(view.metric, st, pr, d, sign, policy.params.patience, state)
        if view.final_step is None and d is not None and d.rule == "too few points to project":
            reason = reason.replace("(too few points to project)", "(no projection: the planned length is unknown, "
                                    "pass total_steps)")
        runs[c.run] = Relative(
            c.run, st.rank if st else None, st.of if st else None, st.step if st else None,
            None if st is None else st.value * sign, None if st is None else st.median * sign,
            None if st is None else st.best * sign, None if st is None else st.behind,
            _final(pr, sign), recommend, reason, d.consecutive if d else 0, state)
    compared = [c for c in curves if c.run in table]
    common = min((c.last_step for c in compared if not c.stopped), default=None)
    summary = SweepSummary(view.metric, view.direction, len(compared), common, target,
                           sorted(r for r, d in decisions.items() if d.recommend == PRUNE), leader, left_out,
                           max((cal.runs for cal in cals.values()), default=0))
    return SweepJudgement(runs, summary, new_memory, projections)


def _final(pr: Projection | None, sign: float) -> ProjectedFinal | None:
    if pr is None:
        return None
    lo, hi = sorted((pr.low * sign, pr.high * sign))
    return ProjectedFinal(pr.value * sign, lo, hi, pr.at_step)


def _reason(metric: str, st: Standing | None, pr: Projection | None, d: Decision | None, sign: float,
            patience: int, state: str) -> str:
    if st is None:
        return "no point to compare yet"
    if not math.isfinite(st.value):
        where = f"{metric} is non-finite at step {int(st.step)}"
        if d is None:
            return where + f" ({state})"
        return where + f", {d.consecutive} check{'s' if d.consecutive != 1 else ''} in a row" + (
            "" if d.recommend == PRUNE else f" (prune after {patience})")
    at = (f"{metric} {fmt(st.value * sign)} at step {int(st.step)} is {_ordinal(st.rank)} of {st.of} "
          f"(median {fmt(st.median * sign)}, best {fmt(st.best * sign)}, {fmt(abs(st.behind))} noise units "
          f"{'behind' if st.behind > 0 else 'ahead'})")
    proj = ""
    if pr is not None and pr.model not in ("reached",):
        f = _final(pr, sign)
        assert f is not None
        proj = f"; projected {fmt(f.value)} [{fmt(f.low)}, {fmt(f.high)}] at step {int(f.at_step)}"
    if d is None:
        return f"{state}: {at}"
    if d.recommend == PRUNE:
        if d.rule == "projection":
            kth = None if d.kth_high is None else d.kth_high * sign
            why = f"even its optimistic end is worse than the {_ordinal(d.k or 1)} best's pessimistic {fmt(kth)}"
        else:
            why = f"behind the median by more than its noise, and its optimistic end worse than the median run's " \
                  f"projected {fmt(d.median_projected * sign if d.median_projected is not None else None)}"
        return f"prune: {at}{proj}; {why}, {d.consecutive} checks in a row"
    if d.recommend == LEAD:
        return f"lead: {at}{proj}"
    if d.rule.startswith("protected"):
        return f"keep ({d.rule[len('protected: '):]}): {at}{proj}"
    if d.rule == "projection":
        kth = None if d.kth_high is None else d.kth_high * sign
        return (f"keep (its optimistic end is worse than the {_ordinal(d.k or 1)} best's pessimistic {fmt(kth)}: "
                f"{d.consecutive} of {patience} checks before prune): {at}{proj}")
    if d.rule == "median":
        return (f"keep (behind the median beyond its noise: {d.consecutive} of {patience} checks before prune): "
                f"{at}{proj}")
    if d.rule:
        return f"keep ({d.rule}): {at}{proj}"
    return f"keep: {at}{proj}"
