"""Eval metrics: degradation over the last evals, a growing train/eval gap (overfitting), and the baseline.

Direction comes from the name (loss/ppl/error lower is better; acc/f1/bleu/auc
higher). Degradation needs patience, as in Lightning's EarlyStopping: the best
eval must be ``patience`` evals old and the latest clearly worse than it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..findings import OK, WARN, Finding, nums
from .curve import mann_kendall_z, robust_sigma
from .params import Params, bound
from .view import RunView


@dataclass(frozen=True)
class EvalParams(Params):
    patience: int = bound(2, 1)  # the best eval level must be this many evals old...
    min_evals: int = bound(4, 2)  # evals before degradation is judged
    rel_margin: float = bound(0.01, 0.0)  # ...and the newest level worse than it by more than this share...
    noise_k: float = bound(3.0, 0.0)  # ...and this many eval-noise units
    held_share: float = bound(0.75, 0.0, 1.0)  # ...with this share of the evals since the best above it
    max_level_evals: int = bound(5, 1)  # the eval level is a rolling median over at most this many evals
    recover_evals: int = bound(4, 2)  # a worsened eval with this many evals since its worst...
    recover_z: float = bound(2.0, 0.0, above=True)  # ...falling since (Mann-Kendall z below -recover_z) is recovering,
    recover_shock: float = bound(5.0, 1.0)  # ...when the worst was a shock (this many margins above the best)...
    recover_share: float = bound(0.5, 0.0, 1.0)  # ...and at most this share of that gap is left (a drift is not)
    give_back_share: float = bound(0.05, 0.0, 1.0)  # a worsening under this share of the eval's progress is no warning
    baseline_margin: float = bound(0.02, 0.0)  # a metric worse than the baseline by more than this share
    frozen_evals: int = bound(5, 2)  # this many evals in a row identical to frozen_decimals decimals: frozen weights
    frozen_decimals: int = bound(4, 1)
    frozen_lr_share: float = bound(0.01, 0.0, 1.0)  # ...unless the LR is below this share of its peak
    frozen_falling_z: float = bound(3.0, 0.0, above=True)  # ...or the train loss falls (Mann-Kendall z < -this)


DEFAULT = EvalParams()


def check(view: RunView, p: EvalParams = DEFAULT) -> list[Finding]:
    """Warn when the primary eval's best is at least ``patience`` evals old and the latest is worse than it by more
    than ``rel_margin`` (relative) and ``noise_k`` eval-noise units; "overfitting" when the train loss kept falling.
    A sudden drop (``recover_shock`` margins) that the eval has been steadily coming back from (``recover_evals``
    evals, at most ``recover_share`` of the gap left) is a note: a bad batch being absorbed, not a degradation."""
    name = view.primary_eval
    if not name:
        return [Finding("eval", OK, "no eval metric logged")]
    s = view.frame.series[name]
    v = s.to_numpy()
    fin = np.isfinite(v)
    steps, vals = s.index.to_numpy()[fin], v[fin]
    out: list[Finding] = []
    lower = view.frame.roles[name].direction != "max"
    o = vals if lower else -vals  # oriented: lower is better
    if len(o) < p.min_evals:
        out.append(Finding("eval", OK, f"{len(o)} evals of {name} so far",
                           numbers=nums(evals=len(o), last=vals[-1] if len(vals) else None)))
    else:
        # Levels, not single evals: the best single value of many noisy evals is biased low.
        k = max(1, min(p.max_level_evals, len(o) // 4))
        sm = pd.Series(o).rolling(k, min_periods=1).median().to_numpy()
        ib = int(np.argmin(sm))
        since_best = len(o) - 1 - ib
        now = float(np.median(o[-k:]))
        tail = o[len(o) // 2:]  # the early evals fall fast: their differences are trend, not noise
        noise = robust_sigma(np.diff(tail)) / np.sqrt(2) if len(tail) > 3 else 0.0
        if len(tail) <= 3 and len(o) - ib >= 3:  # too few evals to measure the noise: the typical step between the
            noise = float(np.median(np.abs(np.diff(o[ib:])))) / np.sqrt(2)  # evals from the best on stands for it
        worse = now - sm[ib]
        # The best level is known only within the spread of the evals it is the median of: a spike beside its
        # neighbours makes no level to have fallen from (an early eval of a barely trained model, a tiny val set).
        window = o[max(0, ib - k + 1):ib + 1]
        spread = float(np.max(window) - np.min(window)) / 2 if len(window) > 1 else 0.0
        # An eval that gave back a sliver of what it gained (0.2135 -> 0.2215 after 2.4 -> 0.2135; an eval loss of
        # 0.0005 -> 0.0066 after 0.69 -> 0.0005) has not degraded in any sense a run is stopped or reviewed for.
        progress = max(0.0, float(np.median(o[:k])) - float(sm[ib]))
        margin = max(p.rel_margin * abs(sm[ib]), p.noise_k * noise / np.sqrt(k), spread, p.give_back_share * progress,
                     1e-12)
        best_val, last_val = (sm[ib] if lower else -sm[ib]), vals[-1]
        info = nums(best=best_val, best_step=int(steps[ib]), now=now if lower else -now, evals_since_best=since_best)
        held = np.mean(o[ib + 1:] > sm[ib] + 0.5 * margin) >= p.held_share if since_best else False
        iw = ib + int(np.argmax(o[ib:]))  # the worst eval since the best
        gap = o[iw] - sm[ib]
        recovering = (len(o) - 1 - iw >= p.recover_evals and mann_kendall_z(o[iw:]) < -p.recover_z
                      and gap >= p.recover_shock * margin and now - sm[ib] <= p.recover_share * gap)
        if since_best >= p.patience and worse > margin and held and recovering:
            out.append(Finding("eval", OK,
                               f"{name} worsened to {vals[iw]:.4g} at step {int(steps[iw])} from its best level "
                               f"{best_val:.4g} and has been recovering since ({last_val:.4g} now)",
                               [int(steps[ib]), int(steps[-1])], info))
        elif since_best >= p.patience and worse > margin and held:
            train_falling = _train_falling_since(view, int(steps[ib]))
            concern = "overfitting" if train_falling else "eval_degradation"
            what = "while the train loss keeps falling (overfitting)" if train_falling else ""
            out.append(Finding("eval", WARN,
                               f"{name} worsened to a level of {now if lower else -now:.4g} from its best level "
                               f"{best_val:.4g} at step {int(steps[ib])}, "
                               f"{since_best} evals ago {what}".strip(),
                               [int(steps[ib]), int(steps[-1])], info, concern=concern))
        else:
            out.append(Finding("eval", OK,
                               f"{name} at {last_val:.4g} (best level {best_val:.4g} at step {int(steps[ib])})",
                               [int(steps[0]), int(steps[-1])], info))
    frozen = _frozen(view, name, steps, vals, p)
    if frozen is not None:
        out = [f for f in out if f.status != OK] + [frozen]
    out.extend(_baseline(view, p.baseline_margin))
    return out


def _frozen(view: RunView, name: str, steps: np.ndarray, vals: np.ndarray, p: EvalParams) -> Finding | None:
    """Warn (plateau) when the newest ``frozen_evals`` evals or more are identical to ``frozen_decimals`` decimals,
    logged with that many decimals (a coarse metric repeats by itself), while the train loss does not fall and the LR,
    when logged, is not ~0: the weights are not changing (frozen, detached, or an optimizer that steps a copy)."""
    r = np.round(vals, p.frozen_decimals)
    if len(r) < p.frozen_evals or r[-1] == np.round(vals[-1], p.frozen_decimals - 1):
        return None  # too few evals, or logged too coarsely to tell
    k = 1
    while k < len(r) and r[-1 - k] == r[-1]:
        k += 1
    if k < p.frozen_evals:
        return None
    since = int(steps[-k])
    loss = view.frame.primary_loss
    if loss:
        tv = view.frame.series[loss].loc[since:].to_numpy(dtype=float)
        tv = tv[np.isfinite(tv)]
        if len(tv) >= 4 and mann_kendall_z(tv) < -p.frozen_falling_z:
            return None  # the train loss falls significantly: the weights do change
    lr = view.frame.first_of("lr")
    if lr:
        lv = view.frame.series[lr].to_numpy()
        lv = lv[np.isfinite(lv)]
        peak = view.frame.finite_extreme(lr, "max")
        if len(lv) and peak and lv[-1] <= p.frozen_lr_share * peak:
            return None  # an LR at ~0 explains it: the schedule's finding speaks
    return Finding("eval", WARN,
                   f"{name} is identical ({r[-1]:.{p.frozen_decimals}f}) over the last {k} evals since step {since} "
                   f"while the train loss does not fall: the weights are not changing",
                   [since, int(steps[-1])], nums(identical_evals=k, value=float(r[-1])), concern="plateau")


def _train_falling_since(view: RunView, step: int) -> bool:
    loss = view.frame.primary_loss
    if not loss:
        return False
    s = view.frame.series[loss]
    s = s[np.isfinite(s.to_numpy())]
    h = view.frame.summarised(loss)
    if h is not None:  # a long loss: its older points are summarised
        n_before = h.finite_count_upto(step)
        n_after = h.n_finite - n_before
        if n_before < 3 or n_after < 3:
            return False
        k = max(3, min(50, n_after // 3))
        return float(np.median(s.to_numpy()[-k:])) < float(np.median(h.finite_before(step, k)))
    before, after = s.loc[:step], s.loc[step + 1:]
    if len(before) < 3 or len(after) < 3:
        return False
    k = max(3, min(50, len(after) // 3))
    return float(np.median(after.to_numpy()[-k:])) < float(np.median(before.to_numpy()[-k:]))


def _baseline(view: RunView, margin: float) -> list[Finding]:
    if not view.baseline:
        return []
    out: list[Finding] = []
    for metric, expected in view.baseline.items():
        s = view.frame.series.get(metric)
        if s is None or not len(expected):
            continue
        s = s[np.isfinite(s.to_numpy())]
        if not len(s):
            continue
        lo, hi = int(expected.index[0]), int(expected.index[-1])
        h = view.frame.summarised(metric)
        if h is not None:
            found = _ours_summarised(h, lo, hi)
            if found is None:
                continue
            step, now = found
        else:
            ours = s.loc[lo:hi]
            if not len(ours):
                continue
            step = int(ours.index[-1])
            # Our value now (median of the last few logs) against the baseline interpolated at this step.
            k = max(1, min(10, len(ours) // 5))
            now = float(np.median(ours.to_numpy()[-k:]))
        base = float(np.interp(step, expected.index.to_numpy(), expected.to_numpy()))
        lower = view.frame.roles[metric].direction != "max"
        gap = (now - base) if lower else (base - now)
        rel = gap / max(abs(base), 1e-12)
        info = nums(step=step, ours=now, baseline=base, worse_by=rel)
        if rel > margin:
            out.append(Finding("baseline", WARN,
                               f"{metric} {now:.4g} at step {step} is {rel:.1%} worse than the baseline {base:.4g}",
                               [step, step], info, concern="baseline"))
        else:
            out.append(Finding("baseline", OK,
                               f"{metric} {now:.4g} at step {step} is on track with the baseline {base:.4g}",
                               [step, step], info))
    return out


def _ours_summarised(h, lo: int, hi: int) -> tuple[int, float] | None:
    """(last step in [lo, hi], median of the last few finite values up to it) of a long metric."""
    n_in = h.finite_count_upto(hi) - h.finite_count_upto(lo - 1)
    if n_in <= 0:
        return None
    ws, _ = h.finite_window()
    inside = ws[(ws >= lo) & (ws <= hi)]
    if len(inside):
        step = int(inside[-1])
    else:
        b = h.blocks
        ends = np.flatnonzero((b["last_step"] <= hi) & (b["n_fin"] > 0))
        if not len(ends):
            return None
        step = int(b["lf_step"][ends[-1]])
    k = max(1, min(10, n_in // 5))
    return step, float(np.median(h.finite_before(step, k)))
