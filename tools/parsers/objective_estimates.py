"""Stochastic solvers' estimates of their objective, and what stands beside them (issue 32, fixpyttb; blind set
examples/libraries_holdout100's pyttb runs).

A solver that samples its objective prints an *estimate* of it once an epoch (pyttb's and Tensor Toolbox's GCP-OPT:
``INFO:root:Epoch 0: f-est = 54.5990702363435, step = 0.01``, after logging's preamble, a time format's or not).
The shapes read here, each a named rule:

- ``estimate_objective``: a name of an estimate of the objective (``f-est``, ``obj_est``: ``Dialect.
  objective_estimate_names``) is the record's ``objective`` (minimised), as a named objective is.
- ``step_size``: a field named a step (``step``) whose value has a fraction in a sample (``step = 0.01``,
  ``5.000000000000001e-06``) is the solver's step size, a rate: no counter (a counter is whole), read as
  ``Dialect.step_size_name``.
- ``initial_estimate``: a line naming an initial word then the objective (``Initial f-est: 5.406391e+02``,
  ``initial objective = 3.2``: ``Dialect.initial_words``), no position, is the objective's value before the first
  step, at step 0 (``Plan.initial``); a series of the objective whose epochs count from 0 after it counts the
  epochs *done* (``Epoch k``'s value at k + 1: ``epochs_done``), decided once at the series' first record and kept
  in the reader's state, so a read in pieces numbers as a read whole does.
- ``fit_beside_change``: a one-letter ``f`` beside its own change ``f-delta`` (Tensor Toolbox's and pyttb's
  ``cp_als``: `` Iter 0: f = 7.867189e-01 f-delta = 7.9e-01``) is a decomposition's fit (1 - the relative error,
  rising as it improves): ``Dialect.fit_name`` (maximised), never the run's objective nor a loss; printed by a
  buffered stdout after the run's own records (a warm start's), it is a series of its own, no continuation of the
  run's objective.
- ``after_the_end``: a line giving the objective's final value (``Final f-est:  2.9765e+01``: ``Dialect.final_words``
  then the objective or its estimate, no position) ends the run; a series whose first record comes after it and
  that names nothing the run named before it (the warm start's ``cp_als`` fit, printed by a buffered stdout once the
  process ended) is another stream's block printed late: no continuation of the run, set aside and said in a note
  (``st["late_block"]``: its records counted).

Every test is a set look-up or a scan of one field's bytes: linear, no regular expression.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .dialect import Dialect

if TYPE_CHECKING:
    from .fields import Plan


def is_estimate(low: str, dialect: Dialect) -> bool:
    """``estimate_objective``: whether a (lower-cased) name says an estimate of the objective."""
    return low in dialect.objective_estimate_names


def initial_of(low: str, dialect: Dialect) -> bool:
    """``initial_estimate``: whether a (lower-cased) name is an initial word then the objective or its estimate
    (``initial f-est``, ``initial objective``)."""
    words = low.split(None, 1)
    return len(words) == 2 and words[0] in dialect.initial_words and (
        words[1] in dialect.objective_estimate_names or words[1] in dialect.solver_objective_names)


def has_fraction(seg: bytes) -> bool:
    """``step_size``: whether a number's text has a fraction (``0.01``, ``5e-06``, ``2.5``; not ``3``, ``3.0``,
    ``1e3``)."""
    try:
        value = float(seg)
    except ValueError:
        return False
    return value == value and abs(value) != float("inf") and value != int(value)


def fractional_step(samples: list[bytes], fields: list[list[tuple[int, int]]], k: int) -> bool:
    """``step_size``: whether field ``k`` has a fraction in any sample (``fields``: each sample's spans, those of
    another shape empty)."""
    return any(len(sp) > k and has_fraction(line[sp[k][0]:sp[k][1]]) for line, sp in zip(samples, fields,
                                                                                         strict=True))


def fit_field(metrics: dict[int, str], dialect: Dialect) -> int | None:
    """``fit_beside_change``: the field of a one-letter fit named beside its change (``f`` beside ``f-delta``)."""
    lows = {n.lower(): f for f, n in metrics.items()}
    for name, change in dialect.fit_with_change.items():
        if name in lows and change in lows:
            return lows[name]
    return None


def epochs_done(key: str, first_epoch: float, st: dict) -> bool:
    """``initial_estimate``: whether the objective's series ``key``, positioned by an epoch, counts the epochs done
    (+1): decided once, at its first record, when its first epoch is 0 and an initial value was placed at step 0 before
    it (``st["initial0"]``); kept in ``st["done_epochs"]`` (at most 16 series)."""
    done = st.setdefault("done_epochs", {})
    if key not in done and len(done) < 16:
        done[key] = bool(st.get("initial0")) and first_epoch == 0
    return bool(done.get(key))


def before_its_series(plan: Plan, st: dict) -> bool:
    """``initial_estimate``: whether an initial value (``Plan.initial``) comes before any record of what it names
    (another solver's records before it, a warm start's printed at once, are no steps of its series)."""
    return plan.initial and not set(plan.metrics.values()) & set(st.get("names", ()))


def done_names(reads: list, train: list[int], st: dict) -> set[str]:
    """``initial_estimate``: the names whose records positioned by an epoch count the epochs done in this read (their
    epoch + 1). An initial value (``Plan.initial``) read before any record of its name (``before_its_series``), in an
    earlier read (``st["initial0"]``) or on a line before the series' first here, names it; the series' first record,
    the first line in file order among its templates (a failed epoch's line has one of its own), decides once whether
    its epochs count from 0 (``epochs_done``)."""
    for r in train:
        plan, idx = reads[r][0], reads[r][1]
        if plan.initial and len(idx) and before_its_series(plan, st) and len(st.get("initial0") or ()) < 8:
            st.setdefault("init_line", int(idx[0]))
            st["initial0"] = sorted({*(st.get("initial0") or ()), *plan.metrics.values()})[:8]
    names = set(st.get("initial0") or ())
    if not names and not st.get("done_epochs"):
        return set()
    firsts: dict[str, tuple[int, float]] = {}  # name -> (its first line here, its epoch there)
    for r in train:
        plan, idx, got = reads[r][0], reads[r][1], reads[r][2]
        if plan.epoch is None or plan.step is not None or plan.counter is not None or plan.initial or not len(idx):
            continue
        for name in set(plan.metrics.values()) & (names | set(st.get("done_epochs") or ())):
            if name not in firsts or int(idx[0]) < firsts[name][0]:
                firsts[name] = (int(idx[0]), float(got[plan.epoch][0]))
    out = set()
    for name, (line, epoch) in firsts.items():
        before = name in names and (st.get("init_line") is None or st["init_line"] < line)
        if name not in (st.get("done_epochs") or {}) and not before:
            continue  # (no initial value before it yet)
        if epochs_done(name, epoch, st):
            out.add(name)
    st.pop("init_line", None)
    return out


def final_of(low: str, dialect: Dialect) -> bool:
    """``after_the_end``: whether a (lower-cased) name is a final word then the objective or its estimate (``final
    f-est``, ``final objective``)."""
    words = low.split(None, 1)
    return len(words) == 2 and words[0] in dialect.final_words and (
        words[1] in dialect.objective_estimate_names or words[1] in dialect.solver_objective_names)


def ends_run(plan: Plan | None, dialect: Dialect) -> bool:
    """``after_the_end``: whether a line's plan (read once) gives the objective's final value, with no position."""
    return (plan is not None and len(plan.metrics) == 1 and plan.step is None and plan.epoch is None
            and plan.counter is None and final_of(next(iter(plan.metrics.values())).lower(), dialect))


def after_the_end(plans: list, st: dict) -> list:
    """``after_the_end``: ``plans`` (plan, its lines) without the series printed after the run's end by another stream.
    The end is the line ``st["_end_at"]`` of this block (set while planning its one-off lines), or an earlier read's
    (``st["run_end"]``: every line of this block after it)."""
    end = st.pop("_end_at", None)
    if end is None and not st.get("run_end"):
        return plans
    st["run_end"] = True
    end = -1 if end is None else end
    before = set(st.get("names", ())) | {n for plan, idx in plans if len(idx) and int(idx[0]) < end
                                         for n in plan.metrics.values()}
    kept = []
    for plan, idx in plans:
        if len(idx) and int(idx[0]) > end and plan.metrics and not set(plan.metrics.values()) & before and (
                has_position_of(plan)):
            st["late_block"] = int(st.get("late_block", 0)) + len(idx)
            names = st.setdefault("late_names", [])
            names.extend(n for n in sorted(plan.metrics.values()) if n not in names and len(names) < 8)
            continue
        kept.append((plan, idx))
    return kept


def has_position_of(plan: Plan) -> bool:
    """A series with a position of its own (a step, an epoch or a counter): a block's records, not a summary line."""
    return plan.step is not None or plan.epoch is not None or plan.counter is not None


def late_note(st: dict) -> str | None:
    """The note saying the block set aside, by every read once there is one (its count the file's so far: a newer
    note replaces the older of its shape, ``logfile._shape``)."""
    if not st.get("late_block"):
        return None
    return (f"set aside: {st['late_block']} record(s) of {', '.join(st.get('late_names') or ())} printed after the "
            "run's end (its objective's final value) by another stream (a buffered stdout): no continuation of the "
            "run")
