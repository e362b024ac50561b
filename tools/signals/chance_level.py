"""Chance level: a per-token cross-entropy worse than guessing uniformly over any vocabulary in use.

A model that predicts every token uniformly scores ln(V) nats (perplexity V). No tokenizer in common use has more
than ``vocab_max`` = 262,144 entries (Gemma 3), so a cross-entropy above ln(262,144) = 12.48 nats (18 bits) means
the model does worse than knowing nothing: broken weights or a broken objective, whatever the data. A fresh model
starts near ln(V) and can sit there for a few steps, so the rule asks for ``margin`` (10 %) above the bound, over a
stretch of ``min_points`` logs that is not coming down and not spent while the learning rate was still warming up.

The rule is only applied where the curve is known to be a per-token cross-entropy: a perplexity, or a loss logged
beside a perplexity that is exp (or 2 **) of it, or a loss named so (``lm loss``, ``cross_entropy``...). A summed
or non-CE loss (MSE, a detection loss, a VAE's ELBO) can sit far above 12.48 in a healthy run.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ..findings import OK, WARN, Finding, nums
from .curve import finite, mann_kendall_z
from .params import Params, bound
from .view import RunView, recent_len

_CE_NAME = re.compile(r"(^|[\s_/.\-])(lm[\s_]?loss|ce[\s_]?loss|cross[\s_]?entropy|xent|token[\s_]?loss|ce)"
                      r"($|[\s_/.\-])", re.I)
_PPL_NAME = re.compile(r"ppl|perplexity", re.I)


@dataclass(frozen=True)
class ChanceLevelParams(Params):
    vocab_max: int = bound(262144, 2)  # the largest vocabulary in common use: ln of it is the uniform-guess bound
    margin: float = bound(0.1, 0.0)  # judged only this share above that bound (a fresh model starts near ln V)
    min_points: int = bound(10, 2)  # logs above the bound, in a row, that are not the initial descent
    z_falling: float = bound(2.0, 0.0, above=True)  # Mann-Kendall z below -z_falling: still coming down
    match_tol: float = bound(0.02, 0.0, 0.5, above=True)  # |log ppl - loss| within this share: ppl = exp(loss)


DEFAULT = ChanceLevelParams()


def check(view: RunView, p: ChanceLevelParams = DEFAULT) -> Finding:
    """Warn (sustained) while the objective, a per-token cross-entropy, has sat above (1 + ``margin``) x
    ln(``vocab_max``) for at least ``min_points`` logs without coming down significantly (Mann-Kendall z >
    -``z_falling``); warn (not sustained) when such a stretch happened earlier in the run and the loss has since
    fallen below the bound."""
    c, name = view.curve, view.objective
    if c is None or name is None or view.adversarial or view.direction != "min":
        return Finding("chance_level", OK, "no cross-entropy objective to compare with chance")
    unit = _ce_unit(view, name)
    if unit is None:
        return Finding("chance_level", OK, f"{name} is not known to be a per-token cross-entropy")
    log, base, what = unit
    v = c.values if not log else np.log(np.where(c.values > 0, c.values, np.nan)) / math.log(base)
    st = c.steps
    chance = math.log(p.vocab_max) / math.log(base)
    limit = (1 + p.margin) * chance
    unit_word = "bits" if base == 2 else "nats"
    shown = f"{chance:.4g} {unit_word}, uniform guessing over {p.vocab_max:,} tokens"
    above = np.nan_to_num(v, nan=-np.inf) > limit
    runs = _runs(above)
    stuck = [(a, b) for a, b in runs if b - a >= p.min_points and mann_kendall_z(v[a:b]) > -p.z_falling
             and not _warming_up(view, float(st[a]), float(st[b - 1]))]
    if not stuck:
        return Finding("chance_level", OK, f"{name} is within what a model can score ({what}, bound {shown})")
    a, b = stuck[-1]
    level = float(np.median(v[a:b]))
    info = nums(level=level, bound=limit, chance=chance, points_above=b - a, now=float(v[-1]))
    steps = [int(st[a]), int(st[b - 1])]
    w = recent_len(len(v), lo=3)
    if b == len(v) and float(np.median(v[-w:])) > limit:
        return Finding("chance_level", WARN,
                       f"{name} is {level:.4g} {unit_word} per token ({what}) for {b - a} logs since step {steps[0]}: "
                       f"worse than guessing ({shown}), so the weights or the objective are broken",
                       steps, info, concern="divergence", sustained=True)
    return Finding("chance_level", WARN,
                   f"{name} sat at {level:.4g} {unit_word} per token ({what}) over steps {steps[0]}-{steps[1]} "
                   f"({b - a} logs), worse than guessing ({shown}); it is {float(v[-1]):.4g} now: the run "
                   f"came back from a broken state", steps, info, concern="divergence")


def _warming_up(view: RunView, lo: float, hi: float) -> bool:
    """Whether the learning rate rose over steps ``lo``-``hi`` (a fresh model's first swings happen in warmup)."""
    lr = view.frame.first_of("lr")
    if not lr:
        return False
    st, v = finite(view.frame.series[lr])
    m = (st >= lo) & (st <= hi)
    return bool(m.sum() >= 2 and v[m][-1] > v[m][0])


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each stretch of True in ``mask``."""
    d = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(d == 1).tolist(), np.flatnonzero(d == -1).tolist(), strict=True))


def _ce_unit(view: RunView, name: str) -> tuple[bool, float, str] | None:
    """(take the log first, log base, why) when ``name`` is a per-token cross-entropy (or its perplexity)."""
    if _PPL_NAME.search(name):
        return True, math.e, "a perplexity"
    loss = finite(view.frame.series[name])
    for other in view.frame.series:
        if other == name or not _PPL_NAME.search(other):
            continue
        base = _ppl_base(loss, finite(view.frame.series[other]), DEFAULT.match_tol)
        if base is not None:
            return False, base, f"{other} = {'exp' if base == math.e else '2 **'} of it"
    if _CE_NAME.search(name):
        return False, math.e, "a cross-entropy by its name"
    return None


def _ppl_base(loss: tuple[np.ndarray, np.ndarray], ppl: tuple[np.ndarray, np.ndarray], tol: float) -> float | None:
    """e or 2 when ``ppl`` is exp or 2 ** ``loss`` at the steps both log (at least 3), else None."""
    common, il, ip = np.intersect1d(loss[0], ppl[0], return_indices=True)
    if len(common) < 3:
        return None
    lv, pv = loss[1][il], ppl[1][ip]
    ok = pv > 0
    if ok.sum() < 3:
        return None
    lv, pv = lv[ok], pv[ok]
    scale = np.maximum(1.0, np.abs(lv))
    for base in (math.e, 2.0):
        if float(np.median(np.abs(np.log(pv) / math.log(base) - lv) / scale)) <= tol:
            return base
    return None
