"""The metric frame: one step-indexed series per metric, plus each metric's role.

Each metric keeps only the steps at which it was logged, so keys logged in
separate ``wandb.log`` calls line up by step without inventing values, and a
NaN in a series is always a logged NaN (evidence), never a gap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .history import HEAD, MetricHistory, RunHistory
from .objective import SearchObjective, assign_objective
from .points import Column, PointBatch
from .roles import MetricRole, is_ambiguous_score, is_likelihood, is_non_negative_measure, names_best_so_far, norm_name

_NEGATED_BOUND = re.compile(r"\b(neg|negative|loss|nelbo)\b")  # an ELBO named negated or a loss: minimised
_FALLING_MIN = 4  # logs of an ambiguous score falling from its first before it reads as minimised


def clean_points(steps: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Order points by step, the way the run lives: when the steps go back (a run resumed from a checkpoint, or
    restarted into the same log), everything logged earlier at or beyond that step is superseded, and a step
    logged twice keeps its latest value. Points arrive in the order they were logged."""
    steps = np.asarray(steps, dtype=np.int64)
    values = np.asarray(values, dtype=np.float64)
    if len(steps) < 2 or bool(np.all(steps[1:] > steps[:-1])):  # the usual case: already in order, no repeats
        return steps, values
    # Keep a point only if every later point has a larger step (suffix minimum).
    later_min = np.minimum.accumulate(steps[::-1])[::-1]
    keep = np.ones(len(steps), dtype=bool)
    keep[:-1] = steps[:-1] < later_min[1:]
    return steps[keep], values[keep]


def _series(steps: np.ndarray, values: np.ndarray) -> pd.Series:
    return pd.Series(values, index=pd.Index(steps, dtype=np.int64, name="step"), dtype=np.float64, copy=False)


def is_constant(s: pd.Series) -> bool:
    """True when the series has finite values and they are all the same (e.g. a disabled loss term logged as 0.0);
    an all-NaN series is not constant: it is broken, and must stay visible as such."""
    v = s.to_numpy()
    v = v[np.isfinite(v)]
    return len(v) > 1 and bool(v.min() == v.max())


@dataclass
class MetricFrame:
    """``series`` holds each metric's newest points (all of them while the metric is shorter than the history
    window); ``history`` holds every metric's bounded summary of the whole run (tools/history.py), which the
    signals read for anything older than the window."""

    series: dict[str, pd.Series]
    roles: dict[str, MetricRole] = field(default_factory=dict)
    history: dict[str, MetricHistory] = field(default_factory=dict)
    raw: PointBatch | None = field(default=None, repr=False)  # the points it was built from, when at hand

    @classmethod
    def from_batch(cls, batch: PointBatch, role_overrides: dict[str, str] | None = None) -> MetricFrame:
        frame = cls.from_history(RunHistory.build(batch), role_overrides)
        frame.raw = batch
        return frame

    @classmethod
    def from_history(cls, run: RunHistory, role_overrides: dict[str, str] | None = None) -> MetricFrame:
        hist = {k: m for k, m in run.metrics.items() if m.count}
        series = {k: _series(m.steps, m.values) for k, m in hist.items()}
        frame = cls(series, {}, hist)
        # A loss that never changes (a disabled term logged as 0.0) cannot stand for the run: weigh it as empty.
        weight = {k: (0 if frame.is_constant(k) else m.count) for k, m in hist.items()}
        objective = assign_objective(list(series), role_overrides, weight)
        frame.roles = objective.roles
        frame._search_direction(objective.search)
        frame._negated_by_values()
        frame._best_so_far_by_values()
        frame._ambiguous_score_by_values()
        return frame

    def _ambiguous_score_by_values(self) -> None:
        """A metric higher-is-better only by the word ``score`` (``roles.is_ambiguous_score``) is read by its values.
        Never below a likelihood logged beside it and above it at some log, it is that likelihood plus a penalty (a
        penalty is added to what is minimised, taken from what is maximised): a cost, minimised, and the run's
        objective when no loss is named (a structure learner's ``score=18.127, likelihood=18.120, h=5.7e-04``).
        Else, falling from its first log and never rising (its best its first value), it is minimised: a score
        maximised that only ever fell from its very first log is no collapse to stop on."""
        for name, role in list(self.roles.items()):
            if role.direction != "max" or role.role not in ("train_metric", "eval") or not is_ambiguous_score(name):
                continue
            penalised = None
            for other in self.roles:
                if other != name and is_likelihood(other):
                    both = self._aligned(name, other)
                    both = both[np.isfinite(both).all(axis=1)]
                    if len(both) and (both[:, 0] >= both[:, 1]).all() and (both[:, 0] > both[:, 1]).any():
                        penalised = True
                    elif len(both) and (both[:, 0] <= both[:, 1]).all() and (both[:, 0] < both[:, 1]).any():
                        penalised = False
                    if penalised is not None:
                        break
            if penalised is False:
                continue
            if penalised:
                if self.primary_loss is None and role.role == "train_metric":
                    self.roles[name] = MetricRole("train_loss", "min", primary=True)
                else:
                    self.roles[name] = MetricRole(role.role, "min", role.primary)
                continue
            v = self.long_series(name).to_numpy(dtype=float)
            v = v[np.isfinite(v)]
            d = np.diff(v)
            if len(v) >= _FALLING_MIN and d[0] < 0 and (d <= 0).all():
                self.roles[name] = MetricRole(role.role, "min", role.primary)

    def _best_so_far_by_values(self) -> None:
        """A best so far named with its quantity (``roles.names_best_so_far``: ``Best score seen``) never moves the
        worse way: which way is better its values tell (never rising and falling once: minimised; never falling and
        rising once: maximised), not a word of its name (a search's ``score`` may be an error it minimises)."""
        for name, role in self.roles.items():
            if role.direction is None or not names_best_so_far(name):
                continue
            v = self.series[name].to_numpy(dtype=float)
            d = np.diff(v[np.isfinite(v)])
            if not len(d):
                continue
            if (d <= 0).all() and (d < 0).any():
                self.roles[name] = MetricRole(role.role, "min", role.primary)
            elif (d >= 0).all() and (d > 0).any():
                self.roles[name] = MetricRole(role.role, "max", role.primary)

    def _search_direction(self, search: SearchObjective | None) -> None:
        """A search's state taken as the run's loss (``objective.search_objective``) is minimised until the statistics
        beside it say otherwise: a population whose best is above its worst maximises its fitness, and so does a
        best individual at or above the population's average every generation (below it: minimised, gplearn's
        error); a solver's incumbent that never falls and rises once is a maximisation's."""
        if search is None or search.name != self.primary_loss:
            return
        if search.kind == "evidence_bound":
            if self._bound_maximised(search.name):
                self.roles[search.name] = MetricRole("train_loss", "max", primary=True)
                for n in search.evals:
                    self.roles[n] = MetricRole("eval", "max")
        elif search.kind == "best_beside_mean" and search.mean is not None:
            # (the best beside the mean whichever stands for the run: the mean beside a best so far, ``bsf``)
            both = self._aligned(search.best or search.name, search.mean)
            if len(both) and (both[:, 0] >= both[:, 1]).all() and (both[:, 0] > both[:, 1]).any():
                self.roles[search.name] = MetricRole("train_metric", "max")
        elif search.kind == "incumbent":
            # a solver's incumbent never moves the worse way: never falling and rising once, the problem maximises
            v = self.series[search.name].to_numpy(dtype=float)
            d = np.diff(v[np.isfinite(v)])
            if len(d) and (d >= 0).all() and (d > 0).any():
                self.roles[search.name] = MetricRole("train_loss", "max", primary=True)
        elif search.kind == "population_mean" and search.best is not None and search.worst is not None:
            both = self._aligned(search.best, search.worst)
            if len(both) and (both[:, 0] > both[:, 1]).any():
                self.roles[search.name] = MetricRole("train_metric", "max")

    def _bound_maximised(self, name: str) -> bool:
        """An ELBO (``objective.evidence_bound``) is maximised when it is the bound itself: minimised when its name
        says it is negated or a loss (``neg_elbo``, ``-elbo``); else by its start, the way its first changes move
        while they shrink (two changes, one sign, the second no larger: ``parsers/bare_rows.py``'s notion, repeats
        at the printed precision skipped); else, with no such start, by its sign (the bound itself below zero at every
        log, the negated one above)."""
        if name.lstrip().startswith("-") or _NEGATED_BOUND.search(norm_name(name)):
            return False
        h = self.history.get(name)
        head = h.head_values if h is not None and len(h.head_values) else self.series[name].to_numpy()
        head = head[np.isfinite(head)][:HEAD]
        changes = np.diff(head)
        changes = changes[changes != 0][:2]
        if len(changes) == 2 and abs(changes[1]) <= abs(changes[0]) and changes[0] * changes[1] > 0:
            return bool(changes[0] > 0)
        top = self.finite_extreme(name, "max")
        return top is not None and top < 0

    def _negated_by_values(self) -> None:
        """An eval or a train metric that is never below zero by what it names (``roles.is_non_negative_measure``:
        an error, a perplexity) but is below zero at every log is logged negated (AutoGluon's ``Val
        root_mean_squared_error: -9.28``, a scorer's sign): higher is better."""
        for name, role in self.roles.items():
            if role.direction == "min" and role.role in ("eval", "train_metric") and is_non_negative_measure(name):
                top = self.finite_extreme(name, "max")
                if top is not None and top < 0:
                    self.roles[name] = MetricRole(role.role, "max", role.primary)

    def _aligned(self, a: str, b: str) -> np.ndarray:
        """The two series' values at the steps both hold, as rows (a, b)."""
        return pd.concat([self.series[a], self.series[b]], axis=1, join="inner").dropna().to_numpy()

    def summarised(self, name: str) -> MetricHistory | None:
        """The metric's history when its older points are summarised (the series holds only the newest)."""
        h = self.history.get(name)
        return h if h is not None and h.summarised else None

    def count(self, name: str) -> int:
        h = self.summarised(name)
        return h.count if h is not None else len(self.series[name])

    def is_constant(self, name: str) -> bool:
        """``is_constant`` over the whole metric."""
        h = self.summarised(name)
        if h is None:
            return is_constant(self.series[name])
        lo, hi = h.extreme("min"), h.extreme("max")
        return h.n_finite > 1 and lo is not None and hi is not None and lo[0] == hi[0]

    def finite_extreme(self, name: str, which: str) -> float | None:
        """The smallest (``which="min"``) or largest finite value over the whole metric."""
        h = self.summarised(name)
        if h is None:
            v = self.series[name].to_numpy()
            v = v[np.isfinite(v)]
            return (float(v.min()) if which == "min" else float(v.max())) if len(v) else None
        e = h.extreme(which)
        return e[0] if e else None

    def long_series(self, name: str) -> pd.Series:
        """The whole metric when short; else its block medians (at each block's last finite step) then the window."""
        h = self.summarised(name)
        if h is None:
            return self.series[name]
        b = h.blocks
        ok = b["n_fin"] > 0
        return pd.concat([_series(b["lf_step"][ok], b["med"][ok]), self.series[name]])

    # -- views -------------------------------------------------------------------------
    def names(self, role: str | None = None) -> list[str]:
        return [k for k in self.series if role is None or self.roles[k].role == role]

    @property
    def primary_loss(self) -> str | None:
        for k, r in self.roles.items():
            if r.primary:
                return k
        return None

    def first_of(self, role: str) -> str | None:
        names = self.names(role)
        return names[0] if names else None

    @property
    def first_step(self) -> int | None:
        firsts = [int(h.blocks["first_step"][0]) if h.summarised else int(self.series[k].index[0])
                  for k, h in self.history.items()] or [int(s.index[0]) for s in self.series.values() if len(s)]
        return min(firsts) if firsts else None

    @property
    def last_step(self) -> int | None:
        # The signals ask for it many times a check: kept for the same series (the same objects, the same lengths).
        key = tuple((id(s), len(s)) for s in self.series.values())
        known = self.__dict__.get("_last_step")
        if known is not None and known[0] == key:
            return known[1]
        lasts = [int(s.index[-1]) for s in self.series.values() if len(s)]
        last = max(lasts) if lasts else None
        self.__dict__["_last_step"] = (key, last)
        return last

    @property
    def n_steps(self) -> int:
        if not self.series:
            return 0
        if any(h.summarised for h in self.history.values()):
            # Older steps are summarised: the longest metric's count, plus what the others' windows add to it.
            longest = max(self.history, key=lambda k: self.history[k].count)
            base = self.series[longest].index.to_numpy()
            extra = [np.setdiff1d(s.index.to_numpy()[s.index.to_numpy() > base[0]], base)
                     for k, s in self.series.items() if k != longest]
            return self.history[longest].count + (len(np.unique(np.concatenate(extra))) if extra else 0)
        # Each index is sorted and unique: count the longest, then what the others add to it.
        idx = sorted((s.index.to_numpy() for s in self.series.values()), key=len, reverse=True)
        base, n = idx[0], len(idx[0])
        extra = []
        for other in idx[1:]:
            if len(other) == len(base) and np.array_equal(other, base):
                continue
            pos = np.clip(np.searchsorted(base, other), 0, len(base) - 1)
            extra.append(other[base[pos] != other])
        if extra:
            n += len(np.unique(np.concatenate(extra)))
        return n

    def upto(self, step: int | None) -> MetricFrame:
        """The run as it stood at ``step`` (inclusive)."""
        if step is None:
            return self
        if any(h.summarised for h in self.history.values()):
            if self.raw is None:
                raise ValueError("a summarised frame cannot be cut: rebuild it from the raw points (RunData.replay)")
            cols = {k: clean_points(c.steps, c.values) for k, c in self.raw.columns.items()}
            cut = {k: _series(st[st <= step], v[st <= step]) for k, (st, v) in cols.items()}
        else:
            cut = {k: s.loc[:step] for k, s in self.series.items()}
        keep = [k for k in cut if len(cut[k]) and k in self.roles]
        batch = PointBatch({k: Column(cut[k].index.to_numpy(), cut[k].to_numpy()) for k in keep})
        out = MetricFrame.from_history(RunHistory.build(batch))
        out.roles = {k: self.roles[k] for k in keep}
        return out

    def replaced(self, name: str, series: pd.Series) -> MetricFrame:
        """This frame with ``name``'s points replaced by ``series`` (a metric not summarised), its role kept."""
        batch = PointBatch({name: Column(series.index.to_numpy(), series.to_numpy())})
        return MetricFrame({**self.series, name: series}, dict(self.roles),
                           {**self.history, name: RunHistory.build(batch).metrics[name]}, self.raw)

    def select(self, keys: list[str]) -> MetricFrame:
        return MetricFrame({k: self.series[k] for k in keys if k in self.series},
                           {k: self.roles[k] for k in keys if k in self.series},
                           {k: self.history[k] for k in keys if k in self.history})
