"""The pruning rule: which runs of a sweep are not worth finishing, on strong evidence only.

Like an Optuna pruner (``BasePruner.prune(study, trial)``), the policy sees only the sweep's view - here each
run's standing at equal steps and its projection - and returns recommendations; it never acts. A run is
recommended ``prune`` when, after a warm-up, for ``patience`` consecutive checks (each at a newer step) it has:

- turned non-finite (NaN/Inf to its last point), or
- an optimistic projection worse than the pessimistic projection of the k-th best other run that will finish
  (k = ``ceil(top_fraction * runs)``, at least 1: it cannot reach the top k), or
- a value behind the median by more than ``behind_noise`` of the sweep's noise units while its optimistic
  projection is still worse than the median run's projected final (the median stopping rule of Golovin et al.
  2017, "Google Vizier", with the projection as a guard against late bloomers; a run too young to project
  instead needs to be improving no faster than the median run).

Never pruned: the best run at its step, the run improving fastest at its step, the projected leader. The first
two hold only for a run no run behind it in steps beat where that run stands now (``Standing.beaten_before``): a
run that leads the first runs of a sweep is not "the best" once better runs started later pass its old values.
The memory (consecutive counts per run and the step each was last counted at) is plain JSON the caller stores.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from .compare import Standing
from .projection import Projection

KEEP = "keep"
LEAD = "lead"
PRUNE = "prune"


@dataclass(frozen=True)
class PolicyParams:
    """The rule's thresholds; every default named here."""

    warmup_fraction: float = 0.1  # no prune before this fraction of the final step
    min_runs: int = 4  # runs at the step (the run included) for any comparison to count
    patience: int = 2  # consecutive checks, each at a newer step, with evidence
    behind_noise: float = 3.0  # the median rule: behind by more than this many noise units
    top_fraction: float = 0.07  # the projection rule: k = ceil(top_fraction * runs) best others (2 of 16)
    k_of_all: bool = False  # runs = every run compared (stopped ones too), else only those that will finish

    def __post_init__(self) -> None:
        if not 0 <= self.warmup_fraction < 1 or self.min_runs < 2 or self.patience < 1 or self.behind_noise <= 0 \
                or not 0 < self.top_fraction <= 1:
            raise ValueError("sweep policy: warmup_fraction in [0, 1), min_runs >= 2, patience >= 1, "
                             "behind_noise > 0, top_fraction in (0, 1]")


@dataclass
class SweepMemory:
    """What the policy remembers between checks: per run, the consecutive checks with evidence and the step of
    the last one counted (a check with nothing new counts once)."""

    behind: dict[str, int] = field(default_factory=dict)
    counted_at: dict[str, float] = field(default_factory=dict)
    checks: int = 0

    def to_dict(self) -> dict:
        return {"behind": dict(self.behind), "counted_at": dict(self.counted_at), "checks": self.checks}

    @classmethod
    def from_dict(cls, data: Mapping | None) -> SweepMemory:
        if not isinstance(data, Mapping):
            return cls()
        behind = data.get("behind") if isinstance(data.get("behind"), Mapping) else {}
        counted = data.get("counted_at") if isinstance(data.get("counted_at"), Mapping) else {}
        return cls({str(k): int(v) for k, v in behind.items() if isinstance(v, int | float)},  # type: ignore[union-attr]
                   {str(k): float(v) for k, v in counted.items() if isinstance(v, int | float)},  # type: ignore[union-attr]
                   int(data.get("checks", 0) or 0))


@dataclass(frozen=True)
class Decision:
    """One run's recommendation, the rule that fired (or why not) and the consecutive count."""

    run: str
    recommend: str  # KEEP, LEAD or PRUNE
    rule: str  # "non-finite", "projection", "median", "" (no evidence), "protected: ...", "warm-up", ...
    consecutive: int
    kth_high: float | None = None  # the k-th best other run's pessimistic projection (rule "projection")
    k: int | None = None
    median_projected: float | None = None


@dataclass(frozen=True)
class SweepPolicy:
    """Recommends keep / lead / prune for every active run of a sweep (see the module's docstring)."""

    params: PolicyParams = PolicyParams()

    def decide(self, standings: Mapping[str, Standing], projections: Mapping[str, Projection | None],
               active: set[str], will_finish: set[str], final_step: float,
               memory: SweepMemory) -> tuple[dict[str, Decision], SweepMemory]:
        """Recommendations for the ``active`` runs (standings and projections oriented lower-is-better);
        ``will_finish``: the runs whose projection counts among the k best (active or finished, not stopped)."""
        p = self.params
        n = len(standings) if self.params.k_of_all else len(will_finish)
        k = max(1, math.ceil(p.top_fraction * n))
        finals = {r: pr for r, pr in projections.items() if pr is not None and r in will_finish}
        leader = min(finals, key=lambda r: (finals[r].high, finals[r].value), default=None)
        medians = sorted(pr.value for pr in finals.values())
        median_projected = medians[len(medians) // 2] if medians else math.inf
        behind = dict(memory.behind)
        counted = dict(memory.counted_at)
        out: dict[str, Decision] = {}
        for run in sorted(active):
            st, pr = standings.get(run), projections.get(run)
            rule, extra = self._evidence(run, st, pr, finals, k, median_projected, final_step)
            if st is not None and rule in ("non-finite", "projection", "median"):
                if counted.get(run) != st.step:
                    behind[run] = behind.get(run, 0) + 1
                    counted[run] = st.step
            elif st is not None and counted.get(run) != st.step:
                behind[run] = 0
                counted[run] = st.step
            count = behind.get(run, 0)
            protected = self._protected(run, st, leader)
            if rule in ("non-finite", "projection", "median") and protected and rule != "non-finite":
                rule = f"protected: {protected}"
            recommend = PRUNE if rule in ("non-finite", "projection", "median") and count >= p.patience else (
                LEAD if run == leader else KEEP)
            out[run] = Decision(run, recommend, rule, count, extra.get("kth_high"), k if rule == "projection" else None,
                                median_projected if math.isfinite(median_projected) else None)
        return out, SweepMemory(behind, counted, memory.checks + 1)

    def _protected(self, run: str, st: Standing | None, leader: str | None) -> str:
        if run == leader:
            return "the projected leader"
        if st is None or st.beaten_before is not None:  # a run behind it in steps was better where it stands
            return ""
        if st.rank == 1:
            return "the best at its step"
        if st.fastest and st.gain > 0:
            return "the fastest improver"
        return ""

    def _evidence(self, run: str, st: Standing | None, pr: Projection | None, finals: Mapping[str, Projection],
                  k: int, median_projected: float, final_step: float) -> tuple[str, dict]:
        p = self.params
        if st is None:
            return "no point yet", {}
        if not math.isfinite(st.value):  # gone: no warm-up or siblings needed, only persistence
            return "non-finite", {}
        if st.step < p.warmup_fraction * final_step:
            return "warm-up", {}
        if st.of < p.min_runs:
            return f"only {st.of} runs at this step", {}
        if pr is None:  # too young to project: only the median rule, and only if it is not catching up
            if st.behind > p.behind_noise and st.gain <= st.median_gain:
                return "median", {}
            return "too few points to project", {}
        others = sorted(f.high for r, f in finals.items() if r != run)
        if len(others) >= k:
            kth = others[k - 1]
            if pr.low > kth:
                return "projection", {"kth_high": kth}
        if st.behind > p.behind_noise and pr.low > median_projected:
            return "median", {}
        return "", {}

