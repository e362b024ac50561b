"""Diagnosis: the probable cause of a STOP or ESCALATE, the events in the order they happened, and what to relaunch
with, each action derived from the run's own numbers and tied to the evidence it answers.

The cause is one of ``CAUSES``. It is read from the run's series, not from the verdict's words:

- ``loss_scale_overflow``: an fp16 loss scale that halved again and again (``halvings``), or a burst of steps skipped
  on overflow, before the first non-finite loss, with no loss blow-up before it (the mixed-precision loss-scaling
  failure: Micikevicius et al. 2018);
- ``bad_batch``: a one-step spike of the grad norm (``spike_factor`` x its level before, from a normal step) that
  comes first: nothing was rising before it, the loss nor the LR (a spike while a warmup still climbs is the LR's),
  the loss before it under ``BLOWUP_FACTOR`` x its first log (a run already blowing up has no normal neighbours);
- ``numerical``: NaN/Inf without a preceding blow-up (log(0), 0/0): the loss and the grad norm were at their level
  one log before (below 0.7 when no grad norm is logged: a blow-up inside one log's window looks the same);
- ``lr_schedule``: the LR still rising at the newest log, ``WARMUP_PAST`` x its value where the loss was best and
  ``WARMUP_AFTER`` x its value at the onset (a warmup without ``min(1, .)``), or the LR at ~0 (``ZERO_SHARE`` of
  its peak) during a plateau;
- ``exploding_gradients``: under an LR that had been at its value for a long time (``LONG_LR_SHARE`` of the logs
  before the onset), the grad norm rose ``GRAD_FACTOR`` x before the loss did, or ``STRONG_GRAD`` x (or to
  non-finite) before the first NaN, or ``GRAD_ELEVATED`` x with the blow-up;
- ``lr_too_high``: the loss rose (or went non-finite after rising) under an LR at its peak;
- ``no_learning``: evals identical to 4 decimals, or a grad norm of ~0, or a loss that never moved from its start
  under an LR above ``SMALL_LR`` with evals that do not drift down;
- ``lr_too_low``: a flat loss under an LR of 0 or at most ``SMALL_LR``, or with evals drifting down by small steps;
- ``overfitting``: the eval worsened while the train loss kept falling;
- ``unknown``: none of these fits what was logged.

- ``lr_schedule`` also when the LR was multiplied by the same factor log after log into the failure
  (``MULTIPLIED_LOGS``, ``MULTIPLIED_RISE``): a scheduler growing it, where a warmup adds equal steps.

The confidence is a function of which evidence was present, in one place (``CONFIDENCE``, ``confidence``): each rule
names the evidence it saw (the LR's shape before the onset: absent, rising by equal steps, steady, multiplied; a loss
scale halving; identical evals ...), and 0.7 or more means the evidence that tells the cause from its nearest rival
was logged and points to it. No LR logged, or an LR still rising by equal steps into the failure, leaves a peak set
too high and a schedule gone wrong apart by nothing: ``lr_too_high`` below 0.7 then.
Every action is built from the run's own numbers (the LR where the loss was last improving, a quantile of the
pre-onset grad norms, the last logged checkpoint before the onset, the best-eval step, the run's length) and says
which evidence it answers; a rule with no such number gives no action rather than a guess.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

import numpy as np
import pandas as pd

from .findings import CRITICAL, WARN, Finding, readable, times
from .signals.curve import finite, mann_kendall_z
from .signals.view import RunView

CAUSES = ("lr_too_high", "lr_too_low", "lr_schedule", "loss_scale_overflow", "numerical", "bad_batch", "no_learning",
          "overfitting", "exploding_gradients", "unknown")
FAILURE_KINDS = {"nonfinite", "divergence", "grad_explosion", "spike", "instability", "chance_level", "loss_jump",
                 "objective_drop", "nonfinite_eval"}
FLAT_KINDS = {"plateau", "vanishing_gradients"}

HALVINGS = 3  # the loss scale halved this many times before the first non-finite loss: overflow
SPIKE_FACTOR = 20.0  # a one-step grad norm this many times its level before, from a normal step: a bad batch
GRAD_FACTOR = 10.0  # the grad norm this many times its pre-onset level: it exploded
ZERO_SHARE = 0.01  # an LR below this share of its peak is ~0
IDENTICAL_EVALS = 4  # this many evals in a row equal to 4 decimals: the weights do not change
LONG_LR_SHARE = 0.5  # the LR unchanged over this share of the logs before the onset: not what changed
LONG_LR_LOGS = 5  # ...and over at least this many logs
SCHEDULE_END = 0.9  # an LR reaching ~0 after this share of a run of known length is its schedule's end, not a bug
SMALL_LR = 3e-5  # a flat loss under an LR at or below this: too low (above it, and no eval drift: not learning)
GRAD_ELEVATED = 3.0  # under an LR steady for long, a grad norm this many times its level with the blow-up
STRONG_GRAD = 100.0  # a grad norm this many times its level before any loss rise: it exploded first
WARMUP_PAST = 3.0  # run length unknown: a still-rising LR this many times its value where the loss was best
WARMUP_SHARE = 0.5  # run length known: an LR still rising past this share of the run
CLIP_QUANTILE = 0.95  # clip the grad norm at this quantile of its pre-onset values
ABSURD_LR = 10.0  # an LR at or above this trains no network: non-finite under it is the LR's doing
HOPELESS_LR = 100.0  # any failure under an LR this high is the LR's (SGD on an LSTM trains at 20; nothing at 100)
BLOWUP_FACTOR = 10.0  # finite losses before the first NaN that reached this many times the first: a blow-up
RUNAWAY_LR = 100.0  # an LR that kept rising to this many times its value where the loss was best: a runaway schedule
MULTIPLIED_LOGS = 3  # the LR multiplied by the same factor over at least this many consecutive logs: a growing schedule
MULTIPLIED_RISE = 3.0  # ...and by at least this much in all
MULTIPLIED_SPREAD = 0.25  # ...the per-log factors' logarithms within this share of their mean (a constant factor)
FELL_LOGS = 2  # no LR logged: a loss best at this finite log or later (an epoch a log: one epoch trained)...
FELL_DROP = 0.1  # ...this share of its first log below it (a best a hair under the first log is no training)
FELL_SHARE = 0.5  # ...and this share of the way to its rise trained under a workable LR first: a schedule grew it

# How sure a cause is, from which evidence was present when it was chosen: rows (cause, evidence, confidence), the
# first row of the cause whose evidence was all present wins. >= 0.7 means the evidence that tells this cause from its
# nearest rival was logged and points here; below it, a rival the logs cannot rule out (no LR logged: a peak too high
# or a schedule growing it; an LR still rising into the failure: its peak or its schedule; nothing finite before the
# NaN). bench/calibration.py measures it: causes given at >= 0.7 are right >= 90 % of the time.
CONFIDENCE: tuple[tuple[str, frozenset[str], float], ...] = tuple((c, frozenset(e), v) for c, e, v in (
    ("loss_scale_overflow", {"scale_halved"}, 0.85),  # the fp16 scale halved again and again before the NaN
    ("loss_scale_overflow", {"skip_burst"}, 0.8),  # a burst of steps skipped on overflow before the NaN
    ("bad_batch", {"grad_spike_from_calm"}, 0.75),  # one grad norm spike among normal neighbours, the loss reacting
    ("lr_schedule", {"lr_jumped"}, 0.85),  # the LR jumped above its peak before the failure
    ("lr_schedule", {"lr_multiplied"}, 0.8),  # the LR multiplied by a constant factor log after log into it
    ("lr_schedule", {"lr_never_peaks"}, 0.8),  # still rising at the newest log, far past where the loss was best
    ("lr_schedule", {"lr_zero_early"}, 0.8),  # ~0 long before the run's end
    ("lr_schedule", {"lr_schedule_flagged"}, 0.8),  # the schedule signal's finding, the loss not flat
    ("lr_schedule", {"lr_rising_past_best"}, 0.7),  # the eval stopped improving while the LR still rises
    ("lr_schedule", {"fell_before_rise"}, 0.5),  # no LR logged; the loss fell for most of the run, then rose
    ("lr_too_high", {"lr_absurd"}, 0.8),  # an LR of HOPELESS_LR, or ABSURD_LR with nothing finite logged
    ("lr_too_high", {"nan_at_once"}, 0.5),  # nothing finite before the NaN to tell a blow-up from log(0)
    ("lr_too_high", {"lr_absent"}, 0.45),  # no LR logged: its peak or its schedule, nothing tells
    ("lr_too_high", {"lr_rising"}, 0.6),  # the LR still rising into the failure: its peak, or a ramp that should end
    ("lr_too_high", {"lr_steady"}, 0.55),  # the LR steady long before the failure: nothing in it changed then
    ("lr_too_high", {"lr_logged"}, 0.7),  # the loss rose under the LR at its peak, reached not long before
    ("numerical", {"scale_logged"}, 0.5),  # NaN at once under fp16
    ("numerical", {"nan_from_level", "lr_rising"}, 0.55),  # the LR rising into the NaN is a rival
    ("numerical", {"nan_from_level", "grad_absent"}, 0.5),  # no grad norm logged: a blow-up inside one log's window
    # (a loss averaged over 100 steps) looks the same as log(0) from the loss alone
    ("numerical", {"nan_from_level"}, 0.75),  # NaN with the loss and grad norm at their level one log before
    ("exploding_gradients", {"grad_rose_first"}, 0.7),  # the grad norm rose first, under an LR steady for long
    ("exploding_gradients", {"grad_with_loss"}, 0.6),  # ...rose with the loss
    ("lr_too_low", {"lr_zero"}, 0.9),
    ("lr_too_low", {"lr_small"}, 0.75),  # a flat loss under an LR at most SMALL_LR
    ("lr_too_low", {"flat_under_lr"}, 0.6),
    ("no_learning", {"weights_frozen"}, 0.85),  # identical evals or a grad norm of 0
    ("no_learning", {"grads_vanish"}, 0.6),
    ("no_learning", {"flat_under_usual_lr"}, 0.5),
    ("overfitting", {"eval_worse_train_better"}, 0.8),
))


class DiagnosisDict(TypedDict):
    """A diagnosis as answered: the cause, how sure, the events in order and what to relaunch with."""

    cause: str  # one of CAUSES
    confidence: float  # 0..1
    onset_step: NotRequired[int]
    events: list[str]  # "step N: what happened", in the order they happened
    actions: list[str]  # "what to change (answers: which evidence)"
    ruled_out: NotRequired[list[str]]  # "cause: why not"


@dataclass
class Event:
    step: int
    what: str

    def __str__(self) -> str:
        return f"step {self.step}: {self.what}"


@dataclass
class Action:
    do: str
    answers: str  # the evidence this action answers

    def __str__(self) -> str:
        return f"{self.do} (answers: {self.answers})"


@dataclass
class Diagnosis:
    cause: str
    confidence: float
    onset_step: int | None
    events: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)

    def to_dict(self, events: int = 8, actions: int = 4, ruled_out: int = 4, chars: int = 240) -> DiagnosisDict:
        """The diagnosis as answered; fewer events (the first and the newest kept), actions and alternatives, each cut
        to ``chars`` characters, when an answer needs the room."""
        ev = self.events if len(self.events) <= events else self.events[: events - 1] + self.events[-1:]
        d: DiagnosisDict = {"cause": self.cause, "confidence": round(self.confidence, 2),
                            "events": [_cut(str(e), chars) for e in ev],
                            "actions": [_cut(str(a), chars) for a in self.actions[:actions]]}
        if self.onset_step is not None:
            d["onset_step"] = self.onset_step
        if self.ruled_out and ruled_out:
            d["ruled_out"] = [_cut(r, chars) for r in self.ruled_out[:ruled_out]]
        return d

    def lines(self) -> list[str]:
        """The diagnosis as text lines (the reviewer prompt, the stop evidence)."""
        out = [f"probable cause: {self.cause} (confidence {self.confidence:.2f})"
               + (f", onset at step {self.onset_step}" if self.onset_step is not None else "")]
        out += [f"- {e}" for e in self.events]
        out += [f"action: {a}" for a in self.actions]
        out += [f"ruled out: {r}" for r in self.ruled_out]
        return out


# the action for a loss scale that keeps overflowing
BF16 = "train in bf16 instead of fp16 (bf16 has fp32's range; fp16 overflows above 65504)"

def confidence(cause: str, evidence: set[str] | frozenset[str]) -> float:
    """How sure ``cause`` is, given the evidence present when it was chosen (the first matching row of
    ``CONFIDENCE``; none: 0)."""
    return next((v for c, need, v in CONFIDENCE if c == cause and need <= evidence), 0.0)


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3].rstrip() + "..."


def num(x: float) -> str:
    """A readable number (tools/findings.py ``readable``)."""
    return readable(x)


# -- facts read from the run -----------------------------------------------------------------------------------------
@dataclass
class Facts:
    loss: str | None = None
    steps: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # the loss's steps (all, with NaN)
    values: np.ndarray = field(default_factory=lambda: np.zeros(0))
    first_bad: int | None = None  # first non-finite loss step (of the trailing stretch when it persists)
    best: float | None = None
    best_step: int | None = None
    rise_step: int | None = None  # the loss first rose above best + a margin, and stayed
    noise: float = 0.0
    lr: pd.Series | None = None
    grad: pd.Series | None = None
    grad_ref: float | None = None  # the grad norm's median before the onset
    grad_rise: int | None = None  # first step the grad norm passed GRAD_FACTOR x grad_ref
    spike: tuple[int, float, float] | None = None  # (step, grad norm, its level before) of a one-step spike
    scale: pd.Series | None = None
    checkpoints: list[int] = field(default_factory=list)


def _level(v: np.ndarray, w: int) -> np.ndarray:
    return pd.Series(v).rolling(w, min_periods=1).median().to_numpy()


def _loss_facts(view: RunView, f: Facts) -> None:
    frame = view.frame
    name = frame.primary_loss or (view.objective if view.direction == "min" else None)
    if name is None:
        return
    f.loss = name
    s = frame.series[name]
    f.steps, f.values = s.index.to_numpy(), s.to_numpy(dtype=float)
    bad = ~np.isfinite(f.values)
    if bad.any():
        f.first_bad = int(f.steps[np.flatnonzero(bad)[0]])
    fin = np.flatnonzero(~bad)
    if len(fin) < 4:
        return
    upto = fin if f.first_bad is None else fin[f.steps[fin] < f.first_bad]
    if len(upto) < 4:
        upto = fin
    st, v = f.steps[upto], f.values[upto]
    w = max(3, min(25, len(v) // 20))
    lv = _level(v, w)
    ib = int(np.argmin(lv))
    f.best, f.best_step = float(lv[ib]), int(st[ib])
    d = np.diff(v[: max(ib, 4)]) if ib >= 4 else np.diff(v)
    f.noise = float(1.4826 * np.median(np.abs(d - np.median(d))) / math.sqrt(2)) if len(d) else 0.0
    start = float(np.median(v[:w]))
    margin = max(6 * f.noise, 0.15 * max(0.0, start - f.best), 0.05 * abs(f.best), 1e-12)
    above = lv > f.best + margin
    after = np.flatnonzero(above[ib:]) + ib
    if len(after):
        # the rise: the first log after the best from which the level stays above best + margin
        stay = np.flatnonzero(~above[ib:]) + ib
        last_below = int(stay[-1]) if len(stay) else ib
        j = last_below + 1
        if j < len(v):
            # back up to the first raw log of the rise (the level lags by about w/2 logs)
            k = j
            while k > ib + 1 and v[k - 1] > f.best + margin:
                k -= 1
            f.rise_step = int(st[k])


def _checkpoints(view: RunView) -> list[int]:
    out: list[int] = []
    for name, s in view.frame.series.items():
        low = name.lower()
        if "checkpoint" in low or "ckpt" in low:
            out += [int(x) for x in s.index.to_numpy()]
    return sorted(set(out))


def read_facts(view: RunView) -> Facts:
    f = Facts()
    _loss_facts(view, f)
    frame = view.frame
    lr = frame.first_of("lr")
    if lr:
        st, v = finite(frame.series[lr])
        if len(v):
            f.lr = pd.Series(v, index=st)
    g = frame.first_of("grad_norm")
    if g:
        f.grad = frame.series[g]
    sc = frame.first_of("loss_scale")
    if sc:
        f.scale = frame.series[sc].dropna()
    f.checkpoints = _checkpoints(view)
    return f


def _grad_facts(f: Facts, onset: int | None) -> None:
    if f.grad is None or not len(f.grad):
        return
    st, v = f.grad.index.to_numpy(), np.abs(f.grad.to_numpy(dtype=float))
    cut = onset if onset is not None else int(st[-1]) + 1
    pre = np.isfinite(v) & (st < cut) & (st >= st[0] + 0.1 * (cut - st[0]))
    if pre.sum() < 5:
        pre = np.isfinite(v) & (st < cut)
    if pre.sum() < 3:
        return
    ref = float(np.median(v[pre]))
    f.grad_ref = ref
    if ref <= 0:
        return
    # under a dynamic loss scale a non-finite grad norm is an overflow the scaler skipped, not a rise
    nonfin = ~np.isfinite(v) if f.scale is None else np.zeros(len(v), bool)
    settled = st >= st[0] + 0.1 * (st[-1] - st[0])  # the first tenth of the run swings (warmup): not a rise
    # the rise: where the level (a 3-log rolling median) passed GRAD_FACTOR x ref for the last time and stayed
    level = pd.Series(np.where(nonfin, np.inf, v)).rolling(3, min_periods=1).median().to_numpy()
    high = (level > GRAD_FACTOR * ref) & settled
    if high.any():
        last = int(np.flatnonzero(high)[-1])
        lows = np.flatnonzero(~high[: last + 1])
        f.grad_rise = int(st[int(lows[-1]) + 1 if len(lows) else 0])
    # a one-step spike: one raw log SPIKE_FACTOR x ref, from logs at most 3 x ref
    for i in np.flatnonzero(np.isfinite(v) & (v >= SPIKE_FACTOR * ref) & settled)[:1]:
        before = v[max(0, int(i) - 5):int(i)]
        before = before[np.isfinite(before)]
        if len(before) and before.max() <= 3 * ref:
            f.spike = (int(st[i]), float(v[i]), ref)


def _scale_halvings(f: Facts, upto: int | None) -> tuple[int, int | None, float, float]:
    """(halvings before ``upto`` (inclusive), the step of the first, the scale before, the scale at ``upto``)."""
    if f.scale is None or len(f.scale) < 3:
        return 0, None, 0.0, 0.0
    s = f.scale if upto is None else f.scale.loc[:upto]
    v, st = s.to_numpy(dtype=float), s.index.to_numpy()
    if len(v) < 2:
        return 0, None, 0.0, 0.0
    drops = np.flatnonzero(v[1:] < v[:-1]) + 1
    if not len(drops):
        return 0, None, float(v[0]), float(v[-1])
    n = int(sum(round(math.log2(v[i - 1] / v[i])) for i in drops if v[i] > 0) or len(drops))
    return n, int(st[drops[0]]), float(v[drops[0] - 1]), float(v[-1])


def _lr_at(f: Facts, step: int | None) -> float | None:
    if f.lr is None or step is None or not len(f.lr):
        return None
    s = f.lr.loc[:step]
    return float(s.iloc[-1]) if len(s) else float(f.lr.iloc[0])


def _lr_since(f: Facts, step: int) -> int | None:
    """The first step from which the LR has stayed within 5 % of its value at ``step``."""
    if f.lr is None:
        return None
    s = f.lr.loc[:step]
    if not len(s):
        return None
    v, st = s.to_numpy(), s.index.to_numpy()
    off = np.flatnonzero(np.abs(v - v[-1]) > 0.05 * abs(v[-1]))
    return int(st[off[-1] + 1]) if len(off) else int(st[0])


def _identical_evals(view: RunView) -> tuple[str, int, int, float] | None:
    """(eval, count, first step, value) when the newest IDENTICAL_EVALS or more evals are equal to 4 decimals."""
    for name in view.frame.names("eval"):
        s = view.frame.series[name].dropna()
        v = np.round(s.to_numpy(dtype=float), 4)
        if len(v) < IDENTICAL_EVALS:
            continue
        k = 1
        while k < len(v) and v[-1 - k] == v[-1]:
            k += 1
        if k >= IDENTICAL_EVALS:
            return name, k, int(s.index[-k]), float(v[-1])
    return None


def _last_checkpoint_before(f: Facts, step: int | None) -> int | None:
    if step is None:
        return None
    before = [c for c in f.checkpoints if c < step]
    return before[-1] if before else None


def _clip_action(f: Facts, onset: int | None, why: str) -> Action | None:
    if f.grad is None or onset is None:
        return None
    st, v = f.grad.index.to_numpy(), np.abs(f.grad.to_numpy(dtype=float))
    pre = v[np.isfinite(v) & (st < onset)]
    if len(pre) < 5:
        return None
    q = float(np.quantile(pre, CLIP_QUANTILE))
    return Action(f"clip the grad norm at {num(q)} (the {CLIP_QUANTILE:.0%} quantile of grad norm before step {onset})",
                  why)


def _resume_action(f: Facts, onset: int | None, why: str) -> Action | None:
    c = _last_checkpoint_before(f, onset)
    if c is None:
        return None
    return Action(f"resume from the checkpoint at step {c}, the last before the onset at step {onset}", why)


# -- the diagnosis -----------------------------------------------------------------------------------------------------
def kinds_of(findings: list[Finding]) -> set[str]:
    return {f.concern or f.signal for f in findings if f.status in (WARN, CRITICAL)}


def diagnose(view: RunView, findings: list[Finding], verdict: str) -> Diagnosis:
    """The probable cause of what made ``verdict`` (STOP / ESCALATE), with its events, actions and what it rules
    out."""
    f = read_facts(view)
    kinds = kinds_of(findings)
    by_kind = {(x.concern or x.signal): x for x in findings if x.status in (WARN, CRITICAL)}
    if not (kinds & FAILURE_KINDS) and kinds & {"overfitting", "eval_degradation", "plateau"} \
            and _warmup_never_ends(view, f):
        return _never_ending_warmup(view, f, kinds)
    if "overfitting" in kinds and not (kinds & FAILURE_KINDS):
        return _overfitting(view, f, by_kind["overfitting"])
    if kinds & FAILURE_KINDS:
        return _failure(view, f, kinds, by_kind)
    if "eval_degradation" in kinds and _train_fell_since_best_eval(view, by_kind["eval_degradation"]):
        return _overfitting(view, f, by_kind["eval_degradation"])
    if kinds & FLAT_KINDS or "lr_schedule" in kinds or "eval_degradation" in kinds:
        return _flat(view, f, kinds, by_kind)
    flagged = ", ".join(sorted(kinds)) or "none"
    return Diagnosis("unknown", confidence("unknown", set()), None, [Event(view.last_step or 0, f"flagged: {flagged}")],
                     [], [f"{c}: nothing in the logged series points to it" for c in ("lr_too_high", "numerical")])


def _failure(view: RunView, f: Facts, kinds: set[str], by_kind: dict[str, Finding]) -> Diagnosis:
    """A loss that rose, spiked or went non-finite."""
    died = _died_nonfinite(view, f, by_kind)
    div = by_kind.get("divergence")
    if f.rise_step is None and div is not None and div.steps and div.signal == "divergence":
        f.rise_step = int(div.steps[0])  # the divergence signal's "above since"
    onset_candidates = [s for s in (f.rise_step, f.first_bad) if s is not None]
    _grad_facts(f, min(onset_candidates) if onset_candidates else None)
    if f.grad_rise is not None:
        onset_candidates.append(f.grad_rise)
    onset = min(onset_candidates) if onset_candidates else view.last_step
    ev: list[Event] = []
    ruled: list[str] = []
    # the LR story
    lr_best = _lr_at(f, f.best_step)
    lr_on = _lr_at(f, onset)
    peak = float(f.lr.max()) if f.lr is not None and len(f.lr) else None
    lr_since = _lr_since(f, onset) if onset is not None else None
    if f.best_step is not None and f.best is not None:
        ev.append(Event(f.best_step, f"{f.loss} at its best level {num(f.best)}"))
    if lr_on is not None and lr_since is not None and onset is not None:
        if lr_since < onset:
            at_peak = " (its peak)" if peak and lr_on >= 0.95 * peak else ""
            ev.append(Event(lr_since, f"LR at {num(lr_on)} from here on{at_peak}"))
    # a warmup that never ends: the LR still rising at the newest log, WARMUP_PAST x its value at the loss's best
    # (an LR that reached its peak and stayed there ended its warmup: too high, not a schedule bug)
    lr_end = float(f.lr.iloc[-1]) if f.lr is not None and len(f.lr) else None
    sched = by_kind.get("lr_schedule")
    rising = _warmup_never_ends(view, f) or _runaway_lr(f)
    jumped = sched if sched is not None and "jumped" in sched.message else None
    if jumped is not None and jumped.steps:
        ev.append(Event(int(jumped.steps[-1]), jumped.message))
    if rising and lr_best is not None and lr_on is not None and onset is not None:
        ev.append(Event(onset, f"LR still rising: {num(lr_on)}, {lr_on / lr_best:.2g}x its value {num(lr_best)} "
                               f"at step {f.best_step}" + (f"; {num(lr_end)} at step {int(f.lr.index[-1])}"
                                                           if lr_end and f.lr is not None else "")))
    # grad norm, loss, NaN events
    if f.spike is not None:
        ev.append(Event(f.spike[0], f"one-step grad norm spike to {num(f.spike[1])} "
                                    f"({times(f.spike[1] / max(f.spike[2], 1e-30))} its level {num(f.spike[2])})"))
    elif f.grad_rise is not None and f.grad_ref:
        g_at = _value_at(f.grad, f.grad_rise)
        ev.append(Event(f.grad_rise, f"grad norm rose to {num(g_at)} ({times(g_at / f.grad_ref)} its level "
                                     f"{num(f.grad_ref)} before)" if math.isfinite(g_at)
                        else f"grad norm non-finite (its level before was {num(f.grad_ref)})"))
    if f.rise_step is not None and f.best is not None:
        ev.append(Event(f.rise_step, f"{f.loss} rose above its best level {num(f.best)} "
                                     f"to {num(_value_at(_loss_series(f), f.rise_step))}"))
    n_half, first_half, sc0, sc1 = _scale_halvings(f, view.last_step)
    n_skip, first_skip = _skip_burst(view, f.first_bad)
    if n_skip:
        ev.append(Event(first_skip or 0, f"{n_skip} optimizer steps skipped on overflow before step {f.first_bad}"))
    if n_half:
        ev.append(Event(first_half or 0, f"loss scale halved {n_half} times from {num(sc0)} to {num(sc1)} by step "
                                         f"{view.last_step}"))
    if f.first_bad is not None:
        before = _finite_before(_loss_series(f), f.first_bad)
        ev.append(Event(f.first_bad, died or f"first non-finite {f.loss}" + (
            f" (it was {num(before)} one log before)" if before is not None else "")))
    ev.sort(key=lambda e: e.step)
    blew_up_first = (f.rise_step is not None and (f.first_bad is None or f.rise_step < f.first_bad)) or (
        f.grad_rise is not None and f.spike is None and (f.first_bad is None or f.grad_rise < f.first_bad))
    pre_bad = _finite_before_first_bad(f)
    if pre_bad is not None and len(pre_bad) >= 2 and float(np.max(np.abs(pre_bad[1:]))) >= BLOWUP_FACTOR * max(
            abs(float(pre_bad[0])), 1e-12):
        blew_up_first = True  # a few wild logs before the NaN: too few for a level, plainly a blow-up
    no_history = pre_bad is not None and len(pre_bad) < 2  # non-finite from the first log or the second
    # gradients explode in a run that was training: its loss had gone below its first logs before the blow-up
    trained = f.best_step is not None and len(f.steps) > 0 and f.best_step > int(f.steps[0])
    # what the LR did up to the onset: the evidence that tells a peak set too high from a schedule gone wrong
    lr_shape = _lr_shape(f, onset)
    multiplied = _lr_multiplied(f, onset)
    # -- decide
    cause = "unknown"
    evidence: set[str] = {lr_shape}
    if lr_on is not None and lr_on >= HOPELESS_LR:
        evidence.add("lr_absurd")
    actions: list[Action] = []
    first_event = min((s for s in (f.rise_step, f.grad_rise, f.first_bad) if s is not None), default=onset)
    if n_half >= HALVINGS and first_half is not None and (f.rise_step is None or f.rise_step >= first_half) \
            and (f.first_bad is not None or sc1 < 1):
        cause = "loss_scale_overflow"
        evidence.add("scale_halved")
        onset = first_half
        actions.append(Action(BF16,
                              f"the loss scale halved {n_half} times from step {first_half} with no loss blow-up "
                              f"before it"))
    elif n_skip >= HALVINGS and first_skip is not None and f.first_bad is not None and (
            f.rise_step is None or f.rise_step >= first_skip):
        cause = "loss_scale_overflow"
        evidence.add("skip_burst")
        onset = first_skip
        actions.append(Action(BF16,
                              f"{n_skip} steps skipped on overflow from step {first_skip} before the first non-finite "
                              f"{f.loss}, with no loss blow-up before them"))
    elif (f.spike is not None and (first_event is None or f.spike[0] <= first_event) and _loss_reacts(f, f.spike[0])
          and not _lr_rising_into(f, f.spike[0]) and _loss_calm_before(f, f.spike[0])):
        cause = "bad_batch"
        evidence.add("grad_spike_from_calm")
        onset = f.spike[0]
        actions.append(Action(f"skip or inspect the batch at step {f.spike[0]} (its data shard, its inputs' range)",
                              f"the one-step grad norm spike to {num(f.spike[1])} at step {f.spike[0]} from a normal "
                              f"step"))
        clip = _clip_action(f, onset, f"the spike at step {f.spike[0]} went unclipped into the weights")
        if clip:
            actions.append(clip)
    elif multiplied is not None and onset is not None and (f.first_bad is not None or f.rise_step is not None):
        # the LR multiplied by the same factor log after log into the failure: a scheduler growing it (gamma > 1, a
        # factor meant per epoch applied per step), not a warmup (which adds) to a peak
        cause = "lr_schedule"
        evidence.add("lr_multiplied")
        since, factor, times_up = multiplied
        ev.append(Event(since, f"LR multiplied by {factor:.3g} per log from here ({times(times_up)} by step {onset})"))
        ev.sort(key=lambda e: e.step)
        actions.append(Action("check the scheduler's factor and step unit: the LR must not grow by a constant factor "
                              "(an ExponentialLR/LambdaLR gamma above 1, a per-epoch factor stepped per step)",
                              f"the LR multiplied by {factor:.3g} per log from step {since} into the failure at step "
                              f"{onset}"))
    elif no_history and f.first_bad is not None:
        # nothing finite before it to tell a blow-up from log(0): the LR says what it can; fp16 (a loss scale
        # logged) points at the arithmetic; else the commonest cause of a NaN from the first steps, an LR far too high
        onset = f.first_bad
        lr_first = float(f.lr.iloc[0]) if f.lr is not None and len(f.lr) else None
        evidence.add("nan_at_once")
        if lr_first is not None and lr_first >= ABSURD_LR:
            cause = "lr_too_high"
            evidence.add("lr_absurd")
            actions.append(Action(f"set the LR to a trainable value (it is {num(lr_first)}; typical peaks are 1e-5 to "
                                  f"1e-1)", f"non-finite {f.loss} from step {f.first_bad} under an LR of "
                                            f"{num(lr_first)}"))
        elif f.scale is not None:
            cause = "numerical"
            evidence.add("scale_logged")
            actions.append(Action("check the fp16 arithmetic: train in bf16 or fp32, or with a loss scaler and fp32 "
                                  "master weights", f"non-finite {f.loss} from step {f.first_bad} with a loss scale "
                                                    f"logged"))
        else:
            cause = "lr_too_high"
            actions.append(Action("relaunch with the LR 10x lower and look at the first steps' loss", f"non-finite "
                                  f"{f.loss} from step {f.first_bad}, nothing finite logged before it"))
    elif f.first_bad is not None and not blew_up_first:
        cause = "numerical"
        evidence.add("nan_from_level")
        if f.grad is None or not len(f.grad):
            evidence.add("grad_absent")
        onset = f.first_bad
        actions.append(Action("compute the loss from logits (log_softmax / BCE-with-logits) or clamp what goes into "
                              "log / sqrt / a division",
                              f"NaN at step {f.first_bad} with no blow-up before it (loss and grad norm at their "
                              f"level)"))
    elif jumped is not None and jumped.steps and onset is not None and jumped.steps[-1] <= max(onset, first_event or 0):
        cause = "lr_schedule"
        evidence.add("lr_jumped")
        onset = min(onset, int(jumped.steps[-1]))
        actions.append(Action("check the scheduler's state and step unit (a resumed scheduler, epochs counted as "
                              "steps): the LR must not jump above its peak", jumped.message))
    elif rising and onset is not None and lr_best is not None and lr_on is not None:
        cause = "lr_schedule"
        evidence.add("lr_never_peaks")
        actions.append(Action(f"cap the warmup: lr = peak * min(1, step / warmup_steps), with the peak at most "
                              f"{num(lr_best)} (the LR at step {f.best_step}, where {f.loss} was best)",
                              f"the LR still rising at the newest log: {num(lr_end or lr_on)}, "
                              f"{(lr_end or lr_on) / lr_best:.2g}x its value where the loss was best"))
    elif (f.grad_rise is not None and lr_since is not None and onset is not None and _long_lr(f, lr_since, onset)
          and trained
          and ((f.rise_step is None or f.grad_rise < f.rise_step)
               or _grad_max_before(f, (f.first_bad if f.first_bad is not None else (view.last_step or 0) + 1))
               >= STRONG_GRAD)):
        cause = "exploding_gradients"
        evidence.add("grad_rose_first")
        actions.append(_clip_action(f, f.grad_rise, f"the grad norm rose {GRAD_FACTOR:g}x at step {f.grad_rise} "
                                                    f"before the loss did") or
                       Action("clip the grad norm (e.g. at 1.0)", f"the grad norm rose at step {f.grad_rise}"))
    elif (lr_since is not None and onset is not None and _long_lr(f, lr_since, onset) and f.grad_ref and trained
          and _grad_max_after(f, onset) >= GRAD_ELEVATED):
        # the LR had been steady for long when the loss blew up, and the grad norm rose with it: the gradients grew
        # (sharpness, weights) rather than the LR being wrong from the start
        cause = "exploding_gradients"
        evidence.add("grad_with_loss")
        g = _grad_max_after(f, onset)
        ev.append(Event(onset, f"grad norm up to {times(g)} its level {num(f.grad_ref)} from here"))
        actions.append(_clip_action(f, onset, f"the grad norm rose {times(g)} its level with the loss at step "
                                              f"{onset}, under an LR steady since step {lr_since}") or
                       Action("clip the grad norm", f"the grad norm rose at step {onset}"))
    elif (lr_shape == "lr_absent" and onset is not None and f.loss == view.objective
          and (fell := _fell_long_before(f, onset)) is not None):
        # no LR logged, but the loss (the run's objective, not an RL run's surrogate) fell for most of the run before
        # it rose: the LR was trainable then, so what changed is likelier the LR grown by its schedule (a ramp, a
        # factor above 1) than a peak too high from step 1
        cause = "lr_schedule"
        evidence.add("fell_before_rise")
        logs, before = fell
        actions.append(Action("log the LR and check the scheduler (warmup length and peak, a factor above 1, its step "
                              "unit); if the LR is constant, lower it",
                              f"{f.loss} fell over its first {logs} of {before} logs to step {f.best_step}, then rose "
                              f"at step {onset}, with no LR logged"))
    elif f.rise_step is not None or f.first_bad is not None or kinds & {"divergence", "chance_level", "loss_jump"} \
            or ("objective_drop" in kinds and (f.lr is not None or view.direction == "max")):
        # a reward or accuracy that fell back (an RL return collapsing: its losses are no evidence) is the commonest
        # doing of a step too large; with no LR logged, at lr_absent's confidence
        cause = "lr_too_high"
        target, why = _lower_lr(f, lr_best, peak)
        drop = by_kind.get("objective_drop")
        if target is not None:
            actions.append(Action(f"lower the peak LR to {num(target)} ({why})",
                                  f"{f.loss} rose at step {f.rise_step or f.first_bad} under an LR of "
                                  f"{num(lr_on or 0.0)}"))
        elif f.lr is None and drop is not None and drop.steps and view.objective and view.direction == "max":
            onset = int(drop.steps[0])
            ev.append(Event(onset, drop.message))
            actions.append(Action("relaunch with the LR (or the policy's step size: PPO's clip range, the target "
                                  "network's update rate) 3-10x lower, and log the LR", drop.message))
        if f.grad_rise is not None:
            clip = _clip_action(f, f.grad_rise, f"the grad norm rose at step {f.grad_rise}")
            if clip:
                actions.append(clip)
    if cause != "unknown":
        r = _resume_action(f, onset, f"the weights after step {onset} carry the failure")
        if r:
            actions.append(r)
    ruled = _ruled_out(cause, f, n_half, rising or multiplied is not None, blew_up_first, lr_since, onset)
    return Diagnosis(cause, confidence(cause, evidence), onset, ev, actions, ruled)


ROSE_INTO = 1.5  # a run dead of a NaN whose last logged loss is this many x its best before: it blew up into it


def _died_nonfinite(view: RunView, f: Facts, by_kind: dict[str, Finding]) -> str | None:
    """When the run's log ends with an error naming a non-finite loss (``signals/run_end.py``) and every logged loss
    is finite: the loss's first non-finite value is taken as the log after the last one (where the run died), and the
    event says the error line; None otherwise."""
    end = by_kind.get("nonfinite")
    if end is None or end.signal != "run_end" or f.first_bad is not None or view.last_step is None:
        return None
    f.first_bad = int(view.last_step) + 1
    if f.rise_step is None and len(f.values) >= 2 and np.isfinite(f.values[:-1]).any():
        last, best = float(f.values[-1]), float(np.nanmin(f.values[:-1]))
        if best > 0 and last >= ROSE_INTO * best:
            f.rise_step = int(f.steps[-1])  # the loss rose into the error: a blow-up before the NaN, not log(0)
    return end.message


def _ruled_out(cause: str, f: Facts, n_half: int, rising: bool, blew_up_first: bool, lr_since: int | None,
               onset: int | None) -> list[str]:
    out = []
    if cause != "loss_scale_overflow":
        first_half = _scale_halvings(f, None)[1]
        out.append("loss_scale_overflow: " + (
            "no loss scale logged" if f.scale is None else "the loss scale never fell" if not n_half else
            f"the loss rose at step {f.rise_step}, no later than the loss scale's first halving at step {first_half}"
            if f.rise_step is not None and first_half is not None and f.rise_step <= first_half else
            f"the loss scale halved only {n_half} times"))
    if cause != "numerical" and f.first_bad is not None and blew_up_first:
        first = min(s for s in (f.rise_step, f.grad_rise) if s is not None) if (f.rise_step or f.grad_rise) else None
        out.append(f"numerical: the blow-up began at step {first}, before the NaN at step {f.first_bad}")
    if cause not in ("bad_batch",) and f.grad is not None:
        out.append("bad_batch: " + ("no one-step grad norm spike" if f.spike is None
                                    else f"the spike at step {f.spike[0]} came after the trouble began"))
    if cause != "lr_schedule" and f.lr is not None:
        out.append("lr_schedule: " + (
            "the LR rose by equal steps into the onset (a warmup to its peak), not multiplied" if onset is not None
            and _lr_rising_into(f, onset) else f"the LR was steady since step {lr_since}" if lr_since is not None
            and lr_since < (onset or 0) and not rising else "the LR was not rising at the onset"))
    if cause == "lr_too_high" and f.grad is not None and f.grad_rise is None:
        out.append("exploding_gradients: the grad norm stayed within 10x its level")
    return out


def _monotone_rise(lr: pd.Series, a: int | None, b: int | None) -> bool:
    if a is None or b is None:
        return False
    s = lr.loc[a:b].to_numpy()
    return len(s) >= 2 and bool(np.all(np.diff(s) >= -1e-12 * np.abs(s[:-1]))) and s[-1] > s[0]


def _grad_max_before(f: Facts, step: int | None) -> float:
    """The grad norm's largest finite value before ``step``, in units of its pre-onset level (non-finite: inf)."""
    if f.grad is None or not f.grad_ref or step is None:
        return 0.0
    v = np.abs(f.grad.loc[: step - 1].to_numpy(dtype=float))
    if not len(v):
        return 0.0
    if (~np.isfinite(v)).any() and f.scale is None:
        return float("inf")
    v = v[np.isfinite(v)]
    return float(v.max() / f.grad_ref) if len(v) else 0.0


def _train_fell_since_best_eval(view: RunView, finding: Finding) -> bool:
    """Whether the train loss is lower now than around the best eval (by 10 %): the eval worsened while the model
    kept fitting its training data."""
    loss = view.frame.primary_loss
    best_step = _int(finding.numbers.get("best_step"))
    if not loss or best_step is None:
        return False
    s = view.frame.series[loss].dropna()
    if len(s) < 4:
        return False
    before = s.loc[:best_step].to_numpy(dtype=float)
    ref = float(np.median(before[-5:])) if len(before) else float(s.iloc[0])
    now = float(np.median(s.to_numpy(dtype=float)[-max(3, len(s) // 20):]))
    return ref > 0 and now < 0.9 * ref


def _warmup_never_ends(view: RunView, f: Facts) -> bool:
    """The LR still rising at the newest log, past ``WARMUP_SHARE`` of a run of known length, or (length unknown)
    ``WARMUP_PAST`` x its value where the loss was best, having risen all the way since."""
    if f.lr is None or len(f.lr) < 3:
        return False
    lr_end, peak = float(f.lr.iloc[-1]), float(f.lr.max())
    if not (peak > 0 and lr_end >= 0.999 * peak and _still_rising(f.lr)):
        return False
    frac = view.fraction
    if frac is not None:
        return frac > WARMUP_SHARE
    lr_best = _lr_at(f, f.best_step)
    return bool(lr_best and lr_best > 0 and lr_end >= WARMUP_PAST * lr_best
                and _monotone_rise(f.lr, f.best_step, int(f.lr.index[-1])))


def _skip_burst(view: RunView, upto: int | None) -> tuple[int, int | None]:
    """(steps skipped on overflow in the stretch before ``upto``, the step of the first of them): a cumulative count of
    skipped steps (DeepSpeed's ``skipped``, Megatron's ``number of skipped iterations``) or the counted
    ``OVERFLOW! ... Skipping step`` lines, over the newest half of the logs before ``upto`` (a scaler's calibration
    skips its first steps: not a burst)."""
    if upto is None:
        return 0, None
    name = next((n for n in view.frame.series if "skip" in n.lower()), None)
    if name is None:
        return 0, None
    s = view.frame.series[name].dropna().loc[:upto]
    first_step = view.frame.first_step
    if not len(s) or first_step is None:
        return 0, None
    mid = first_step + (upto - first_step) / 2
    v, st = s.to_numpy(dtype=float), s.index.to_numpy()
    before = v[st < mid]
    base = float(before[-1]) if len(before) else 0.0
    inc = float(v[-1] - base)
    if inc < 1:
        return 0, None
    first = int(np.flatnonzero((st >= mid) & (v > base))[0])
    return int(inc), int(st[first])


def _lr_shape(f: Facts, onset: int | None) -> str:
    """What the LR did before ``onset``: ``lr_absent`` (not logged, or logged once: a setting printed before
    training, as MACE's ``Param group 0: lr = 0.01``, tells nothing of what the LR did since), ``lr_rising`` (it rose
    over the logs into the onset: a warmup or a ramp not over), ``lr_steady`` (at its value for LONG_LR_SHARE of the
    logs before), else ``lr_logged``."""
    if f.lr is None or len(f.lr) < 2 or onset is None:
        return "lr_absent"
    if _lr_rising_into(f, onset):
        return "lr_rising"
    since = _lr_since(f, onset)
    return "lr_steady" if since is not None and _long_lr(f, since, onset) else "lr_logged"


def _fell_long_before(f: Facts, onset: int) -> tuple[int, int] | None:
    """(the logs up to the loss's best, the logs before ``onset``) when the loss was best at its FELL_LOGS-th finite
    log or later, FELL_DROP below its first log, and at least FELL_SHARE of the way to the onset: it trained before it
    rose. (A run logged once an epoch that falls over its first epoch and then climbs under an unlogged ramp is best
    at its 2nd or 3rd log; a loss a hair under its first log at its 2nd, then up, never trained: an LR too high.)"""
    if f.best_step is None or f.best is None:
        return None
    ok = np.isfinite(f.values)
    st = f.steps[ok]
    first = float(f.values[ok][0]) if len(st) else 0.0
    if not len(st) or first - f.best < FELL_DROP * abs(first):
        return None
    to_best, before = int((st <= f.best_step).sum()), int((st < onset).sum())
    return (to_best, before) if to_best >= FELL_LOGS and before and to_best >= FELL_SHARE * before else None


def _lr_multiplied(f: Facts, upto: int | None) -> tuple[int, float, float] | None:
    """(the step it began, the per-log factor, the rise in all) when the LR logged up to ``upto`` was multiplied by
    the same factor over its newest MULTIPLIED_LOGS logs or more, MULTIPLIED_RISE x or more in all, and its increments
    grew with it (a warmup adds the same amount each log; a schedule with a factor above 1 multiplies)."""
    if f.lr is None or upto is None:
        return None
    s = f.lr.loc[:upto]
    v, st = s.to_numpy(dtype=float), s.index.to_numpy()
    if len(v) < MULTIPLIED_LOGS + 1 or not (v[-1] > 0):
        return None
    i = len(v) - 1
    while i > 0 and v[i - 1] > 0 and v[i] > v[i - 1] * (1 + 1e-9):
        i -= 1
    r = np.log(v[i + 1:] / v[i:-1])
    if len(r) < MULTIPLIED_LOGS:
        return None
    r = r[-50:]
    mean = float(np.mean(r))
    rise = float(v[-1] / v[-1 - len(r)])
    d = np.diff(v[-1 - len(r):])
    grew = float(np.mean(d[-max(1, len(d) // 3):])) >= 1.5 * float(np.mean(d[:max(1, len(d) // 3)]))
    if rise < MULTIPLIED_RISE or not grew or float(np.max(np.abs(r - mean))) > MULTIPLIED_SPREAD * mean:
        return None
    return int(st[-1 - len(r)]), float(math.exp(mean)), rise


def _lr_rising_into(f: Facts, step: int, logs: int = 5, share: float = 0.05) -> bool:
    """Whether the LR rose by more than ``share`` over the ``logs`` logs up to ``step`` (a warmup still climbing): a
    spike then is the LR reaching what the model cannot take, not one bad batch among normal neighbours."""
    if f.lr is None:
        return False
    s = f.lr.loc[:step].to_numpy()[-(logs + 1):]
    return len(s) >= 2 and float(s[-1]) > (1 + share) * float(s[0])


def _runaway_lr(f: Facts) -> bool:
    """An LR that kept rising, every log, to ``RUNAWAY_LR`` x its value where the loss was best (a scheduler
    multiplying it each step): a schedule bug, not a peak set too high."""
    if f.lr is None or len(f.lr) < 3 or f.best_step is None:
        return False
    lr_best = _lr_at(f, f.best_step)
    lr_end = float(f.lr.iloc[-1])
    return bool(lr_best and lr_best > 0 and lr_end >= RUNAWAY_LR * lr_best and lr_end >= 0.999 * float(f.lr.max())
                and _monotone_rise(f.lr, f.best_step, int(f.lr.index[-1])))


def _finite_before_first_bad(f: Facts) -> np.ndarray | None:
    """The finite loss values logged before the first non-finite one (None: the loss never went non-finite)."""
    if f.first_bad is None:
        return None
    v = f.values[f.steps < f.first_bad]
    return v[np.isfinite(v)]


def _loss_calm_before(f: Facts, step: int) -> bool:
    """Whether the loss logged before ``step`` stayed under ``BLOWUP_FACTOR`` x its first value: a bad batch hits a
    run whose neighbouring steps are normal, not one already blowing up."""
    v = f.values[f.steps < step]
    v = v[np.isfinite(v)]
    return len(v) < 2 or float(np.max(np.abs(v[1:]))) < BLOWUP_FACTOR * max(abs(float(v[0])), 1e-12)


def _loss_reacts(f: Facts, step: int, logs: int = 3) -> bool:
    """Whether the loss rose or went non-finite within ``logs`` logs of ``step`` (a bad batch hits at once)."""
    after = f.steps[f.steps >= step][:logs + 1]
    if not len(after):
        return False
    end = int(after[-1])
    return any(s is not None and step <= s <= end for s in (f.rise_step, f.first_bad))


def _grad_max_after(f: Facts, step: int) -> float:
    """The grad norm's largest value from ``step`` on, in units of its pre-onset level (non-finite: inf)."""
    if f.grad is None or not f.grad_ref:
        return 0.0
    v = np.abs(f.grad.loc[step:].to_numpy(dtype=float))
    if not len(v):
        return 0.0
    if (~np.isfinite(v)).any() and f.scale is None:
        return float("inf")
    v = v[np.isfinite(v)]
    return float(v.max() / f.grad_ref) if len(v) else 0.0


def _still_rising(lr: pd.Series, share: float = 0.1) -> bool:
    """Whether the LR rose over its newest ``share`` of logs (by more than 1 %): a warmup still going."""
    v = lr.to_numpy()
    k = max(2, int(len(v) * share))
    return len(v) > k and v[-1] > 1.01 * v[-k]


def _eval_drifting(view: RunView, min_evals: int = 6, z: float = 2.5) -> bool:
    """Whether the primary eval keeps improving by small steps (Mann-Kendall z below -``z`` over its newest
    ``min_evals`` evals or more): weights that move, too slowly."""
    name = view.primary_eval
    if not name:
        return False
    s = view.oriented(name).dropna().to_numpy(dtype=float)
    return len(s) >= min_evals and mann_kendall_z(s[-max(min_evals, len(s) // 2):]) < -z


def _long_lr(f: Facts, lr_since: int, onset: int) -> bool:
    """Whether the LR had been at its value for at least LONG_LR_SHARE of the logs before the onset."""
    first = int(f.steps[0]) if len(f.steps) else lr_since
    logs = int(((f.steps >= lr_since) & (f.steps < onset)).sum())  # a blow-up in the first logs had no "long"
    return logs >= LONG_LR_LOGS and onset - lr_since >= LONG_LR_SHARE * max(1, onset - first)


def _lower_lr(f: Facts, lr_best: float | None, peak: float | None) -> tuple[float | None, str]:
    if lr_best and peak and lr_best < 0.8 * peak:
        return lr_best, f"the LR at step {f.best_step}, where {f.loss} was last improving"
    if peak:
        return peak / 3, f"a third of the peak LR {num(peak)} the loss rose under"
    return None, ""


def _loss_series(f: Facts) -> pd.Series:
    return pd.Series(f.values, index=f.steps)


def _value_at(s: pd.Series | None, step: int) -> float:
    if s is None:
        return float("nan")
    v = s.loc[:step]
    return float(v.iloc[-1]) if len(v) else float("nan")


def _finite_before(s: pd.Series, step: int) -> float | None:
    v = s.loc[: step - 1].to_numpy(dtype=float)
    v = v[np.isfinite(v)]
    return float(v[-1]) if len(v) else None


def _flat(view: RunView, f: Facts, kinds: set[str], by_kind: dict[str, Finding]) -> Diagnosis:
    """A loss that does not improve (plateau, vanishing gradients) or an LR schedule oddity."""
    ev: list[Event] = []
    last = view.last_step or 0
    sched = by_kind.get("lr_schedule")
    flag = by_kind.get("plateau") or by_kind.get("vanishing_gradients") or sched or by_kind.get("eval_degradation")
    onset = flag.steps[0] if flag and flag.steps else None
    peak = float(f.lr.max()) if f.lr is not None and len(f.lr) else None
    lr_now = float(f.lr.iloc[-1]) if f.lr is not None and len(f.lr) else None
    same = _identical_evals(view)
    _grad_facts(f, None)
    g_tail = np.abs(f.grad.to_numpy(dtype=float))[-10:] if f.grad is not None else np.zeros(0)
    g_tail = g_tail[np.isfinite(g_tail)]
    g_now = float(np.median(g_tail)) if len(g_tail) else None
    if f.best_step is not None and f.best is not None:
        ev.append(Event(f.best_step, f"{f.loss} at its best level {num(f.best)}"))
    actions: list[Action] = []
    ruled: list[str] = []
    zero_at = None
    if f.lr is not None and peak and peak > 0:
        z = f.lr[(f.lr <= ZERO_SHARE * peak) & (f.lr.index > int(f.lr.idxmax()))]
        end_of_schedule = bool(len(z) and view.total_steps and int(z.index[0]) >= SCHEDULE_END * view.total_steps)
        if len(z) and lr_now is not None and lr_now <= ZERO_SHARE * peak and not end_of_schedule:
            zero_at = int(z.index[0])
            ev.append(Event(zero_at, f"LR reached ~0 ({num(float(z.iloc[0]))}, peak {num(peak)}) and stayed there"))
    if same:
        ev.append(Event(same[2], f"{same[0]} identical ({same[3]:.4f}) over the last {same[1]} evals"))
    if g_now is not None and g_now == 0:
        ev.append(Event(int(f.grad.index[-1]) if f.grad is not None else last, "grad norm exactly 0"))
    if sched is not None:
        ev.append(Event(sched.steps[0] if sched.steps else last, sched.message))
    ev.sort(key=lambda e: e.step)
    total = view.total_steps or last
    if f.lr is not None and peak is not None and peak <= 0:
        cause, evidence = "lr_too_low", {"lr_zero"}
        ev.append(Event(int(f.lr.index[0]), f"LR is {num(peak)} throughout"))
        actions.append(Action("set a non-zero learning rate (the config's lr, or the scheduler's base lr)",
                              f"the LR is {num(peak)} at every logged step"))
        ruled.append("no_learning: the weights cannot move under an LR of 0, whatever else is right")
    elif zero_at is not None or (sched is not None and "plateau" not in kinds):
        cause, evidence = "lr_schedule", {"lr_zero_early" if zero_at is not None else "lr_schedule_flagged"}
        if zero_at is not None:
            actions.append(Action(f"set the schedule's length (decay steps / T_max) to the run's {total} steps, and "
                                  f"step it per optimizer step only if its length is counted in steps",
                                  f"the LR reached ~0 at step {zero_at} of {total}"))
        elif sched is not None and ("rising" in sched.message or "warming" in sched.message):
            actions.append(Action("cap the warmup: lr = peak * min(1, step / warmup_steps)", sched.message))
        elif sched is not None:
            actions.append(Action("check the scheduler's formula and the unit it is stepped in (epoch or step)",
                                  sched.message))
        ruled.append("no_learning: " + ("the LR itself is ~0" if zero_at is not None else "the LR schedule changed"))
    elif same or (g_now is not None and g_now == 0):
        cause, evidence = "no_learning", {"weights_frozen"}
        what = (f"{same[0]} identical over {same[1]} evals" if same else "") + \
               ("; " if same and g_now == 0 else "") + ("grad norm 0" if g_now == 0 else "")
        actions.append(Action("check that the optimizer steps the model's own trainable parameters (requires_grad, "
                              "the optimizer's parameter list, zero_grad before backward, not after)", what))
        if lr_now:
            ruled.append(f"lr_too_low: the weights do not move at all at LR {num(lr_now)}")
    elif "overfitting" in kinds:
        return _overfitting(view, f, by_kind["overfitting"])
    elif "plateau" in kinds and lr_now and not _eval_drifting(view) and lr_now > SMALL_LR:
        cause, evidence = "no_learning", {"flat_under_usual_lr"}
        ev.append(Event(onset or last, f"{f.loss} has not moved from its start under an LR of {num(lr_now)}, a rate "
                                       f"that trains most networks"))
        actions.append(Action("check which parameters train: frozen layers (requires_grad), the optimizer's parameter "
                              "list, dead units (biases, initialisation), a detached graph",
                              f"{f.loss} flat from the start at LR {num(lr_now)}"))
        ruled.append(f"lr_too_low: {num(lr_now)} is not a small LR, and the evals do not drift down")
    elif f.lr is not None and lr_now and (g_now is None or g_now > 0) and "plateau" in kinds:
        cause, evidence = "lr_too_low", {"lr_small" if peak is not None and peak <= SMALL_LR else "flat_under_lr"}
        ev.append(Event(onset or last, f"{f.loss} flat under an LR of {num(lr_now)}"
                                       + (f" with grad norm {num(g_now)}" if g_now else "")))
        actions.append(Action(f"raise the peak LR to {num(10 * (peak or lr_now))} (10x)",
                              f"{f.loss} has not improved at LR {num(lr_now)} while gradients flow"
                              + (f" (grad norm {num(g_now)})" if g_now else "")))
        ruled.append("no_learning: the evals change and the grad norm is not 0")
        ruled.append("lr_schedule: the LR is not ~0")
    elif "vanishing_gradients" in kinds:
        cause, evidence = "no_learning", {"grads_vanish"}
        actions.append(Action("check the activations and the initialisation (dead units, saturated gates)",
                              by_kind["vanishing_gradients"].message))
    else:
        cause, evidence = "unknown", set()
    ev.sort(key=lambda e: e.step)
    return Diagnosis(cause, confidence(cause, evidence), onset, ev, actions, ruled)


def _never_ending_warmup(view: RunView, f: Facts, kinds: set[str]) -> Diagnosis:
    """An eval or loss that stopped improving while the LR is still rising, far into the run."""
    assert f.lr is not None
    lr_end, last = float(f.lr.iloc[-1]), int(f.lr.index[-1])
    lr_best = _lr_at(f, f.best_step)
    ev = []
    if f.best_step is not None and f.best is not None:
        ev.append(Event(f.best_step, f"{f.loss} at its best level {num(f.best)}"
                        + (f" under an LR of {num(lr_best)}" if lr_best else "")))
    ev.append(Event(last, f"LR still rising: {num(lr_end)}" + (f", {lr_end / lr_best:.2g}x its value at step "
                                                              f"{f.best_step}" if lr_best else "")))
    cap = f" with the peak at most {num(lr_best)} (the LR where {f.loss} was best)" if lr_best else ""
    actions = [Action(f"cap the warmup: lr = peak * min(1, step / warmup_steps){cap}",
                      f"the LR still rising at step {last}, {', '.join(sorted(kinds))} flagged")]
    ruled = [f"overfitting: the LR rose {lr_end / lr_best:.2g}x since the best step" if lr_best else
             "overfitting: the LR kept rising"]
    return Diagnosis("lr_schedule", confidence("lr_schedule", {"lr_rising_past_best"}), f.best_step, ev, actions,
                     ruled)


def _int(x: object) -> int | None:
    """A step stored as a JSON number (0 comes back as 0.0)."""
    return int(x) if isinstance(x, (int, float)) and float(x).is_integer() else None


def _overfitting(view: RunView, f: Facts, finding: Finding) -> Diagnosis:
    nums = finding.numbers
    best_step = _int(nums.get("best_step"))
    best = nums.get("best")
    ev = [Event(int(best_step), f"{view.primary_eval} at its best level {best}")] if isinstance(best_step, int) else []
    last = view.last_step or 0
    now = nums.get("now")
    ev.append(Event(finding.steps[1] if finding.steps else last,
                    f"{view.primary_eval} at {now} after {nums.get('evals_since_best')} evals, while the train loss "
                    f"kept falling"))
    actions = []
    if isinstance(best_step, int):
        ck = [c for c in f.checkpoints if c <= best_step]
        if ck:
            actions.append(Action(f"restore the checkpoint at step {ck[-1]}, the last at or before the best eval at "
                                  f"step {best_step}", f"{view.primary_eval} best at step {best_step}, worse since"))
        else:
            actions.append(Action(f"keep the weights of step {best_step} (the best eval): stop there or save "
                                  f"checkpoints on the best eval",
                                  f"{view.primary_eval} best at step {best_step}, worse since"))
        actions.append(Action(f"train for about {best_step} steps, or add data / regularisation (weight decay, "
                              f"dropout)", f"the train loss kept falling after step {best_step} while the eval rose"))
    ruled = ["lr_too_high: the train loss kept falling", "numerical: every loss finite"]
    return Diagnosis("overfitting", confidence("overfitting", {"eval_worse_train_better"}),
                     int(best_step) if isinstance(best_step, int) else None, ev, actions, ruled)
