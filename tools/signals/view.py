"""What the signals look at: the frame, the objective curve (oriented so lower is better), run progress."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..findings import Accepted
from ..frame import MetricFrame
from ..records import AssessmentRecord
from ..roles import is_adversarial, is_energy, is_regulariser, is_rl_episode_length, is_rl_return
from . import running_mean, search_evals, signed_gap
from .curve import Curve, make_curve

SURROGATE_MIN_POINTS = 5  # a loss needs this many finite points before it can be called a surrogate
SURROGATE_NEGATIVE_SHARE = 0.05  # a loss below zero in more than this share of its points is a surrogate (RL, WGAN)
SURROGATE_CENTRED = 0.1  # ...as is one straddling zero, its median within this share of its range from zero
FELL_THROUGH_ZERO_POINTS = 3  # ...unless it fell through zero: this many positive logs first, each below the first...
FELL_THROUGH_ZERO_SHARE = 0.5  # ...the last of them at most this share of the first, and the first at least as far
# above zero as the lowest log is below it: a minimised quantity that can go negative (a density's negative log
# likelihood: a Gaussian process's, a flow's), not a surrogate hovering around zero
CONSTANT_MIN_POINTS = 3  # a loss constant over more than this many points is a disabled term, not the objective
EVAL_PRIORITY = ("val_loss", "eval_loss", "valid_loss", "validation_loss", "val/loss", "eval/loss", "test_loss")


@dataclass
class RunView:
    frame: MetricFrame
    objective: str | None  # the metric the trend signals follow
    direction: str  # "min" or "max" (of the objective as logged)
    curve: Curve | None  # objective's finite points, negated when higher is better
    total_steps: int | None
    adversarial: bool = False  # objective is a GAN/RL loss: no monotone-decrease assumption
    primary_eval: str | None = None
    previous: list[AssessmentRecord] = field(default_factory=list)  # earlier assessments of this run, newest first
    new_points: int | None = None
    baseline: dict | None = None  # {metric: pd.Series of expected values by step}
    config: dict = field(default_factory=dict)  # the run's config subset (warmup_steps, schedule, ...)
    accepted: Accepted | None = None  # the concerns the latest reviewer CONTINUE accepted
    notes: list[str] = field(default_factory=list)  # arguments of the check it could not use, and why
    ended: dict | None = None  # the exception the run's log ends with (``RunInfo.ended``), on a view of its end only
    #: the objective's own values where it is a search's evaluations (its series then its best so far:
    #: ``search_evals``), else None
    evaluations: pd.Series | None = None

    @property
    def last_step(self) -> int | None:
        return self.frame.last_step

    @property
    def fraction(self) -> float | None:
        if self.total_steps and self.last_step is not None and self.total_steps > 0:
            return min(1.0, max(0.0, self.last_step / self.total_steps))
        return None

    def series(self, name: str | None) -> pd.Series | None:
        return self.frame.series.get(name) if name else None

    def oriented(self, name: str) -> pd.Series:
        s = self.frame.series[name]
        return -s if self.frame.roles[name].direction == "max" else s


def choose_primary_eval(frame: MetricFrame) -> str | None:
    evals = frame.names("eval")
    if not evals:
        return None
    low = {e.lower(): e for e in evals}
    for want in EVAL_PRIORITY:
        if want in low:
            return low[want]
    # No total eval loss: a task metric (accuracy, mAP, F1, BLEU...) is what the run is for; component losses
    # (YOLO's val/box_loss, val/obj_loss) are not the objective.
    task = [e for e in evals if frame.roles[e].direction == "max"]
    losses = [e for e in evals if "loss" in e.lower()]
    pool = task or losses or evals
    return max(pool, key=lambda e: (frame.count(e), -len(e)))


def build_view(frame: MetricFrame, total_steps: int | None = None,
               previous: list[dict] | list[AssessmentRecord] | None = None, new_points: int | None = None,
               baseline: dict | None = None, config: dict | None = None, *,
               primary_eval: str | None = None) -> RunView:
    """The view of a frame; ``primary_eval``: the one a view of the same run already chose (a cut of it), else
    chosen here (``choose_primary_eval``)."""
    objective = frame.primary_loss
    adversarial = bool(objective and is_adversarial(objective))
    if objective is not None and not adversarial and any(is_rl_return(n) or _episode_lengths(frame, n)
                                                         for n in frame.roles):
        adversarial = True  # an RL run (its episode return or length logged): its losses follow the returns
    if objective is not None and not adversarial and frame.roles[objective].direction != "max" and not is_energy(
            objective):
        # A loss that goes negative is a surrogate (RL policy loss, WGAN critic), not a quantity minimised towards
        # a floor: no monotone-decrease assumption holds for it. (An objective maximised, a log-likelihood, is
        # below zero by what it is; so is a variational energy minimised, a bound state's.)
        adversarial = not signed_gap.is_gap(objective) and _surrogate(frame, objective)  # (a gap's sign: which
        # bound is ahead, no surrogate's: ``signed_gap``)
    constant = objective is not None and frame.is_constant(objective) and frame.count(objective) > CONSTANT_MIN_POINTS
    if primary_eval is None or primary_eval not in frame.series:
        primary_eval = choose_primary_eval(frame)
    if objective is None or adversarial or constant:
        # No usable train loss: follow the primary eval, or a train metric with a direction (reward, accuracy).
        alt = primary_eval or _rl_return(frame) or next(
            (n for n in frame.names("train_metric") if frame.roles[n].direction and not is_regulariser(n)), None)
        if alt is not None:
            # a constant loss (a disabled term) stays only when nothing else is there
            objective, adversarial = alt, False
    direction = (frame.roles[objective].direction or "min") if objective else "min"
    notes: list[str] = []
    if objective is not None and frame.roles[objective].role == "train_loss" and frame.summarised(objective) is None:
        per_epoch = (config or {}).get("steps_per_epoch")
        undone = running_mean.undone(frame.series[objective], per_epoch if isinstance(per_epoch, int) else None,
                                     objective)
        if undone is not None:  # the epoch's running mean, restarting each epoch: judged as what it averages
            frame = frame.replaced(objective, undone[0])
            notes.append(undone[1])
    if objective is not None and frame.summarised(objective) is None and (
            gap := signed_gap.sized(frame.series[objective], objective)) is not None:
        frame = frame.replaced(objective, gap[0])  # a signed gap judged by its size
        notes.append(gap[1])
    evaluations = None
    if objective is not None and frame.summarised(objective) is None and search_evals.is_search(config, objective):
        evaluations = frame.series[objective]  # a search's evaluations: judged by its best so far
        frame = frame.replaced(objective, search_evals.best_so_far(evaluations, direction))
        notes.append(search_evals.note(objective))
    curve = None
    if objective is not None:
        s = frame.series[objective]
        curve = make_curve(-s if direction == "max" else s, frame.summarised(objective), direction == "max")
    return RunView(frame, objective, direction, curve, total_steps, adversarial, primary_eval,
                   [p if isinstance(p, AssessmentRecord) else AssessmentRecord.from_dict(p) for p in previous or []],
                   new_points, baseline, dict(config or {}), notes=notes, evaluations=evaluations)


def _episode_lengths(frame: MetricFrame, name: str) -> bool:
    """An RL run's episode length, logged as a series that moves (TorchRL's `max_steps` beside its loss); a constant
    (a setting printed once or repeated, as `max_steps: 1000`) says nothing."""
    return is_rl_episode_length(name) and frame.count(name) >= 3 and not frame.is_constant(name)


def _rl_return(frame: MetricFrame) -> str | None:
    """The episode return a run logs, its mean before its other statistics (skrl's `(mean)` beside `(max)`/`(min)`)."""
    returns = [n for n in frame.names("train_metric") if is_rl_return(n)]
    if not returns:
        return None
    return min(returns, key=lambda n: (0 if "mean" in n.lower() else 2 if ("max" in n.lower() or "min" in n.lower())
                                       else 1))


def _surrogate(frame: MetricFrame, name: str) -> bool:
    """A loss below zero in more than ``SURROGATE_NEGATIVE_SHARE`` of its logs, or straddling zero, is a surrogate
    (an RL policy loss, a WGAN critic's), unless it fell through zero (``_fell_through_zero``)."""
    h = frame.summarised(name)
    if h is None:
        v = frame.series[name].to_numpy()
        v = v[np.isfinite(v)]
        n, lo, hi = len(v), (v.min() if len(v) else 0.0), (v.max() if len(v) else 0.0)
        neg = float((v < 0).mean()) if n else 0.0
        med = float(np.median(v)) if n else 0.0
        head = v
    else:
        n = h.n_finite
        if n < SURROGATE_MIN_POINTS:
            return False
        low, high, centre = h.extreme("min"), h.extreme("max"), h.finite_median()
        if low is None or high is None or centre is None:
            return False
        lo, hi, med = low[0], high[0], centre
        neg = h.n_negative / n
        head = h.head_values[np.isfinite(h.head_values)]
    straddles = n >= SURROGATE_MIN_POINTS and lo < 0 < hi and abs(med) < SURROGATE_CENTRED * float(hi - lo)
    return bool(n >= SURROGATE_MIN_POINTS and (neg > SURROGATE_NEGATIVE_SHARE or straddles)
                and not _fell_through_zero(head, float(lo)))


def _fell_through_zero(head: np.ndarray, lowest: float) -> bool:
    """Whether a loss's first logs fell from a positive start through zero (``FELL_THROUGH_ZERO_POINTS`` positive logs
    first, each below the first, the last of them at most ``FELL_THROUGH_ZERO_SHARE`` of it, the first at least as far
    above zero as ``lowest`` is below): a quantity minimised, whatever it does next."""
    below = np.flatnonzero(head < 0)
    if not len(below) or below[0] < FELL_THROUGH_ZERO_POINTS:
        return False
    first = head[: int(below[0])]
    return bool(first[0] > 0 and (first[1:] < first[0]).all() and first[-1] <= FELL_THROUGH_ZERO_SHARE * first[0]
                and first[0] >= -lowest)


def recent_len(n: int, frac: float = 0.05, lo: int = 5, hi: int = 50) -> int:
    """How many of the newest points make "now": a few percent of the run, within [lo, hi]."""
    return int(max(lo, min(hi, round(n * frac))))
