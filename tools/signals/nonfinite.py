"""Non-finite values: NaN/Inf in losses, evals or the gradient norm, and a collapsing fp16 loss scale.

Persistent non-finite loss is the one problem that stops a run at once (Keras
TerminateOnNaN, Lightning ``check_finite`` stop on the first; we wait for it to
persist so an fp16 scaler's skipped step is not mistaken for divergence).
HF Trainer trap: with ``logging_nan_inf_filter`` (default on) the logged loss
stays finite (0.0 or a flat average) while ``grad_norm`` is NaN.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..findings import CRITICAL, OK, WARN, Finding, nums
from ..roles import norm_name, short_name
from .curve import step_span
from .params import Params, bound
from .view import RunView


@dataclass(frozen=True)
class NonfiniteParams(Params):
    persist_points: int = bound(3, 1)  # a loss non-finite for this many logs in a row is critical
    eval_persist_points: int = bound(2, 1)  # an eval non-finite for this many evals in a row
    recent: int = bound(10, 1)  # ...or non-finite in more than recent_share of the newest `recent` logs, ending so
    recent_share: float = bound(0.5, 0.0, 1.0)
    grad_persist_points: int = bound(3, 1)  # a grad norm non-finite for this many logs in a row is critical
    min_scale: float = bound(1.0, 0.0, above=True)  # an fp16 loss scale at or below this is collapsed...
    scale_peak_factor: float = bound(8.0, 1.0)  # ...after having been above this many times min_scale
    scale_collapse_points: int = bound(3, 1)  # ...for this many logs in a row (critical); fewer: a warning
    zero_points: int = bound(3, 1)  # a loss logged as exactly 0.0 this many times in a row after being positive...
    zero_min_points: int = bound(6, 2)  # ...in a loss of at least this many logs...
    zero_positive: float = bound(1e-2, 0.0)  # ...whose earlier values were all above this: a NaN-filtered loss
    blowup_ratio: float = bound(1000.0, 10.0)  # a loss non-finite at its newest log right after a finite log this
    # many times its best: the end of a blow-up of orders of magnitude, not a transient NaN (one log is enough)
    undone_share: float = bound(1.0, 0.0)  # ...or after a finite log above where the loss started by this share of
    fell_share: float = bound(0.5, 0.0, 1.0, above=True)  # the fall it had made, a fall of at least this share of
    # its start: the blow-up measured in the run's own units, whatever the sign of its values (a density's negative
    # log likelihood falls through zero; a ratio to its best means nothing there)
    message_chars: int = bound(200, 20)  # the "all finite / recovered" note is cut to this many characters


DEFAULT = NonfiniteParams()


def _trailing_nonfinite(v: np.ndarray) -> int:
    bad = ~np.isfinite(v)
    if not len(bad) or not bad[-1]:
        return 0
    good = np.flatnonzero(~bad)
    return int(len(v) - (good[-1] + 1 if len(good) else 0))


def _after_blowup(v: np.ndarray, trail: int, p: NonfiniteParams) -> bool:
    """Whether the last finite log before the trailing non-finite stretch ended a blow-up: ``blowup_ratio`` x the
    best (smallest positive) finite log before it, or above where the loss started by ``undone_share`` of the fall it
    had made (a fall of at least ``fell_share`` of its start): the loss went non-finite at the end of a blow-up."""
    if trail < 1 or trail >= len(v):
        return False
    before = v[: len(v) - trail]
    fin = before[np.isfinite(before)]
    if len(fin) < 2 or not np.isfinite(before[-1]):
        return False
    pos = fin[fin > 0]
    if len(pos) and before[-1] >= p.blowup_ratio * float(pos.min()):
        return True
    start, best = float(fin[0]), float(fin.min())
    fell = start - best
    return bool(fell > 0 and fell >= p.fell_share * abs(start) and before[-1] >= start + p.undone_share * fell)


def check(view: RunView, p: NonfiniteParams = DEFAULT) -> list[Finding]:
    """Critical when the loss (or an eval, or the grad norm) is non-finite for the last ``persist_points`` logs,
    or in more than ``recent_share`` of the last ``recent`` logs ending non-finite; isolated ones are notes."""
    frame = view.frame
    out: list[Finding] = []
    watched = [n for n in frame.series if frame.roles[n].role in ("train_loss", "eval")]
    if view.objective and view.objective not in watched:
        watched.append(view.objective)
    worst: Finding | None = None
    eval_only: Finding | None = None
    isolated: list[str] = []
    loss = frame.primary_loss
    train_finite = loss is not None and bool(np.isfinite(frame.series[loss].to_numpy()[-1]))
    for name in watched:
        s = frame.series[name]
        v = s.to_numpy()
        n_bad, trail, first_bad, trail_from = _facts(frame, name)
        if not n_bad:
            continue
        tail = v[-p.recent:]
        share = float((~np.isfinite(tail)).mean())
        is_eval = frame.roles[name].role == "eval"
        if name != loss and train_finite and n_bad == len(v) and frame.summarised(name) is None:
            # a loss or an eval beside the run's loss that was never a number while the run's stays finite: not
            # computed (pycma's ``current best feasible f-value`` of an unconstrained problem, nan in every row; an
            # eval metric with no validation data, torch-training-loop's ``val_mse=nan`` each epoch), no blow-up and
            # no broken eval to ask about: it never worked, so nothing changed that a reviewer could weigh
            isolated.append(f"{name}: never finite ({n_bad} values), not computed")
            continue
        need = p.eval_persist_points if is_eval else p.persist_points
        if trail >= need or (trail >= 1 and share > p.recent_share and len(tail) >= need) or (
                not is_eval and _after_blowup(v, trail, p)):
            bad_steps = [trail_from]
            if is_eval and train_finite:
                # The model still trains to finite losses: a broken eval (empty split, fp16 overflow in eval) is as
                # likely as broken weights, so this asks a reviewer rather than stopping.
                eval_only = eval_only or Finding(
                    "nonfinite", WARN, f"{name} is {_word(v[-1])} for the last {trail} evals while {loss} stays finite",
                    [int(bad_steps[0]), int(s.index[-1])], nums(nonfinite_last=trail, nonfinite_total=n_bad),
                    concern="nonfinite_eval")
                continue
            f = Finding("nonfinite", CRITICAL,
                        f"{name} is {_word(v[-1])} for the last {trail} logged values (since step {int(bad_steps[0])})",
                        [int(bad_steps[0]), int(s.index[-1])],
                        nums(nonfinite_last=trail, nonfinite_total=n_bad, first_nonfinite_step=first_bad),
                        concern="nonfinite", sustained=True)
            if worst is None or (name == view.objective):
                worst = f
        else:
            isolated.append(f"{name}: {n_bad} non-finite (first at step {first_bad})"
                            + (f", the newest {trail}" if trail else ", recovered"))
    if worst:
        out.append(worst)
    elif eval_only:
        out.append(eval_only)
    out.extend(_grad_and_scale(view, p))
    if not out:
        msg = "; ".join(isolated) if isolated else "all losses and evals finite"
        out.append(Finding("nonfinite", OK, msg[:p.message_chars]))
    return out


def _facts(frame, name: str) -> tuple[int, int, int | None, int]:
    """(non-finite count, trailing non-finite count, step of the first non-finite, step where the trailing stretch
    starts (the last step when there is none)) over the whole metric."""
    s = frame.series[name]
    h = frame.summarised(name)
    if h is not None:
        n_bad = h.n_bad
        first = None
        if n_bad:
            b = h.blocks
            bad = np.flatnonzero(b["n"] > b["n_fin"])
            if len(bad):
                first = int(b["nf_first_step"][bad[0]])
            else:
                first = int(s.index[np.flatnonzero(~np.isfinite(s.to_numpy()))[0]])
        return n_bad, h.trail_bad, first, h.trail_bad_step if h.trail_bad else int(s.index[-1])
    v = s.to_numpy()
    bad = ~np.isfinite(v)
    n_bad = int(bad.sum())
    trail = _trailing_nonfinite(v)
    first = int(s.index[np.flatnonzero(bad)[0]]) if n_bad else None
    return n_bad, trail, first, int(s.index[-trail]) if trail else int(s.index[-1])


def _word(x: float) -> str:
    return "NaN" if np.isnan(x) else ("+Inf" if x > 0 else "-Inf")


def _grad_and_scale(view: RunView, p: NonfiniteParams) -> list[Finding]:
    frame = view.frame
    out: list[Finding] = []
    for name in frame.names("grad_norm"):
        s = frame.series[name]
        v = s.to_numpy()
        _, trail, _, trail_from = _facts(frame, name)
        if trail >= p.grad_persist_points:
            loss = view.series(frame.primary_loss)
            hidden = ""
            if loss is not None and len(loss) and np.isfinite(loss.to_numpy()[-1]):
                hidden = " while the logged loss stays finite (a NaN-filtered loss hides it)"
            out.append(Finding("nonfinite", CRITICAL,
                               f"{name} is {_word(v[-1])} for the last {trail} logs{hidden}: "
                               f"the weights are likely corrupted",
                               [trail_from, int(s.index[-1])], nums(nonfinite_last=trail),
                               concern="nonfinite", sustained=True))
    for name in frame.names("loss_scale"):
        summary = frame.summarised(name)
        if summary is not None:
            out.extend(_scale_from_history(name, summary.scale, p))
            continue
        s = frame.series[name].dropna()
        v = s.to_numpy()
        if not _a_scaler(name, v):
            continue
        if len(v) >= p.scale_collapse_points and np.nanmax(v) > p.scale_peak_factor * p.min_scale:
            low = np.flatnonzero(v <= p.min_scale)
            trail = 0
            while trail < len(v) and v[-1 - trail] <= p.min_scale:
                trail += 1
            if trail >= p.scale_collapse_points:
                out.append(Finding("nonfinite", CRITICAL,
                                   f"{name} collapsed to {v[-1]:g} (from {np.nanmax(v):g}): "
                                   f"every step overflows and is skipped",
                                   step_span(s.index.to_numpy()[-trail:]),
                                   nums(loss_scale=v[-1], max_scale=np.nanmax(v)),
                                   concern="nonfinite", sustained=True))
            elif len(low):
                out.append(Finding("nonfinite", WARN, f"{name} fell to {v[-1]:g}: the fp16 scaler is skipping steps",
                                   step_span(s.index.to_numpy()[low]), nums(loss_scale=v[-1]), concern="instability"))
    # HF Trainer: a loss logged as exactly 0.0 after being clearly positive.
    loss_name = frame.primary_loss
    if loss_name:
        v = frame.series[loss_name].to_numpy()
        earlier = v[:-p.zero_points][np.isfinite(v[:-p.zero_points])]
        h = frame.summarised(loss_name)
        older = h.extreme("min", history_only=True) if h is not None else None
        if older is not None:  # the summarised part's smallest finite value counts as earlier too
            earlier = np.append(earlier, older[0])
        if (len(v) >= p.zero_min_points and np.all(v[-p.zero_points:] == 0.0) and len(earlier)
                and earlier.min() > p.zero_positive):
            out.append(Finding("nonfinite", WARN,
                               f"{loss_name} is logged as exactly 0.0 for the last {p.zero_points} logs after being "
                               f"positive: a NaN loss "
                               f"filtered by the trainer looks like this; check grad_norm",
                               [int(frame.series[loss_name].index[-p.zero_points]),
                                int(frame.series[loss_name].index[-1])],
                               concern="nonfinite"))
    return out


def _a_scaler(name: str, v: np.ndarray) -> bool:
    """Whether a series named a scale is a dynamic loss scaler's: one named so (``loss_scale``, ``scaler``, ``grad
    scale``) is; one named ``scale`` alone only when its every value is a power of two, as a scaler's halvings and
    doublings are (to the 3 digits a log may print: 6.55e+04). A solver's adaptive scale (SCS's ``scale`` column, 100
    -> 0.8 as it converges), a distribution's or an augmentation's scale, are no loss scale to collapse."""
    if norm_name(short_name(name)) != "scale":
        return True
    pos = v[np.isfinite(v) & (v > 0)]
    if not len(pos):
        return False
    e = np.log2(pos)
    return bool(np.all(np.abs(e - np.round(e)) <= POWER_OF_TWO_LOG2_SLACK))


# a power of two printed to 3 significant digits is within 0.5 % of it: 0.0072 in log2
POWER_OF_TWO_LOG2_SLACK = 0.0075


def _scale_from_history(name: str, sc, p: NonfiniteParams) -> list[Finding]:
    """The loss-scale rules for a long series, from its exact running facts (tools/history.py ``Scale``)."""
    if sc.MIN != p.min_scale or not (sc.n >= p.scale_collapse_points and sc.max > p.scale_peak_factor * p.min_scale):
        return []
    if sc.trail_low >= p.scale_collapse_points:
        return [Finding("nonfinite", CRITICAL,
                        f"{name} collapsed to {sc.last:g} (from {sc.max:g}): every step overflows and is skipped",
                        [sc.trail_low_step, sc.last_step], nums(loss_scale=sc.last, max_scale=sc.max),
                        concern="nonfinite", sustained=True)]
    if sc.low_first_step is not None:
        return [Finding("nonfinite", WARN, f"{name} fell to {sc.last:g}: the fp16 scaler is skipping steps",
                        [sc.low_first_step, sc.low_last_step], nums(loss_scale=sc.last), concern="instability")]
    return []
