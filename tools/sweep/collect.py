"""From the runs a many-run check read to one sweep view: which objective they share, and each run's curve of it.

The objective, first that at least ``MIN_RUNS`` runs share: the same eval metric name (the most common one); else
the eval-loss role (each run's eval loss, whatever its name); else the train-loss role. A run without it, one whose
steps are not comparable (its last step more than ``STEP_SCALE`` times off the median run's), or one that could not
be read is left out, with the reason. The sweep's key names it in the store: the W&B project when one was given,
else a hash of its runs.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass

import numpy as np

from .view import MAXIMIZE, MINIMIZE, RunCurve, SweepView

MIN_RUNS = 4  # runs sharing an objective for a sweep judgement at all
STEP_SCALE = 100.0  # a run whose last step is this many times off the median run's is on another scale
MAX_POINTS = 2048  # points of a curve kept (the newest whole, older ones thinned evenly)


@dataclass(frozen=True)
class Series:
    name: str
    direction: str  # MINIMIZE / MAXIMIZE
    steps: np.ndarray
    values: np.ndarray


@dataclass(frozen=True)
class RunObjectives:
    """What one run offers a sweep: its primary eval and its train loss (either may be missing)."""

    run: str
    eval: Series | None
    loss: Series | None
    total_steps: int | None = None


def curves_to_bytes(o: RunObjectives) -> bytes:
    """A run's objectives as bytes (a JSON head, then each series' steps and values as float64, exactly)."""
    series = [s for s in (o.eval, o.loss) if s is not None]
    head = json.dumps({"total_steps": o.total_steps,
                       "series": [{"slot": "eval" if s is o.eval else "loss", "name": s.name, "direction": s.direction,
                                   "n": int(s.steps.size)} for s in series]}).encode()
    body = b"".join(np.ascontiguousarray(a, dtype=np.float64).tobytes() for s in series for a in (s.steps, s.values))
    return len(head).to_bytes(4, "little") + head + body


def curves_from_bytes(run: str, blob: bytes) -> RunObjectives | None:
    """``curves_to_bytes`` read back as ``run``'s objectives; None when the bytes are not what it wrote."""
    try:
        n = int.from_bytes(blob[:4], "little")
        head = json.loads(blob[4:4 + n])
        at = 4 + n
        slots: dict[str, Series] = {}
        for d in head["series"]:
            size = int(d["n"])
            arrays = []
            for _ in range(2):
                arrays.append(np.frombuffer(blob, dtype=np.float64, count=size, offset=at).copy())
                at += 8 * size
            slots[str(d["slot"])] = Series(str(d["name"]), str(d["direction"]), arrays[0], arrays[1])
        if at != len(blob):
            return None
        total = head.get("total_steps")
        return RunObjectives(run, slots.get("eval"), slots.get("loss"), int(total) if total is not None else None)
    except (ValueError, KeyError, TypeError):
        return None


def _thin(steps: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if steps.size <= MAX_POINTS:
        return steps, values
    keep = np.zeros(steps.size, dtype=bool)  # the same indices as a sorted union, without sorting
    keep[np.linspace(0, steps.size - 1, MAX_POINTS // 2).astype(int)] = True
    keep[steps.size - MAX_POINTS // 2:] = True
    return steps[keep], values[keep]


def objectives_of(run: str, frame, total_steps: int | None) -> RunObjectives:
    """The run's primary eval and train loss from its metric frame (``tools/frame.MetricFrame``)."""
    from ..signals.view import choose_primary_eval

    def series(name: str | None) -> Series | None:
        if not name or name not in frame.series:
            return None
        s = frame.series[name]  # the newest points whole; older ones as the history's block medians (long_series)
        steps, values = s.index.to_numpy(dtype=np.float64), s.to_numpy(dtype=np.float64)
        h = frame.summarised(name)
        if h is not None:
            ok = h.blocks["n_fin"] > 0
            steps = np.concatenate([h.blocks["lf_step"][ok].astype(np.float64), steps])
            values = np.concatenate([h.blocks["med"][ok].astype(np.float64), values])
        steps, values = _thin(steps, values)
        if not steps.size:
            return None
        direction = MAXIMIZE if frame.roles[name].direction == "max" else MINIMIZE
        return Series(name, direction, steps, values)

    return RunObjectives(run, series(choose_primary_eval(frame)), series(frame.primary_loss), total_steps)


def _eval_loss(o: RunObjectives) -> Series | None:
    e = o.eval
    return e if e is not None and e.direction == MINIMIZE and "loss" in e.name.lower() else None


def sweep_key(runs: Iterable[str] | None, project: str | None = None, config=None) -> str:
    """The sweep's key in the store, from the check's arguments (so a later check and its pacing find it): the W&B
    project when one was given, else a hash of the runs' store keys."""
    if project:
        return f"project:{project.strip()}"
    from ..errors import TrainingCheckError
    from ..runref import parse_run_ref

    keys = set()
    for r in runs or []:
        try:
            keys.add(parse_run_ref(r.strip(), entity=getattr(config, "wandb_entity", None),
                                   project=getattr(config, "wandb_project", None)).key)
        except TrainingCheckError:
            keys.add(r.strip())
    digest = hashlib.sha256("\n".join(sorted(keys)).encode()).hexdigest()[:16]
    return f"runs:{digest}"


def sweep_arguments(text: str) -> tuple[list[str], str | None]:
    """(runs, project) from a sweep check's run part: ``project=entity/project`` or run references apart by
    spaces."""
    runs: list[str] = []
    project = None
    for word in text.split():
        if word.startswith("project="):
            project = word[len("project="):] or None
        else:
            runs.append(word)
    return runs, project


def build_sweep_view(objs: list[RunObjectives], unreadable: dict[str, str],
                     stopped: Collection[str] = ()) -> SweepView | None:
    """The sweep view of the shared objective, or None when fewer than MIN_RUNS runs share one."""
    names = Counter(o.eval.name for o in objs if o.eval is not None)
    name, count = names.most_common(1)[0] if names else (None, 0)
    pick: dict[str, Series | None]
    if name is not None and count >= MIN_RUNS:
        metric = name
        pick = {o.run: o.eval if o.eval is not None and o.eval.name == name else None for o in objs}
        missing = f"does not log {name}"
    elif sum(_eval_loss(o) is not None for o in objs) >= MIN_RUNS:
        metric = "eval loss"
        pick = {o.run: _eval_loss(o) for o in objs}
        missing = "logs no eval loss"
    elif sum(o.loss is not None for o in objs) >= MIN_RUNS:
        losses = {o.loss.name for o in objs if o.loss is not None}
        metric = next(iter(losses)) if len(losses) == 1 else "train loss"
        pick = {o.run: o.loss for o in objs}
        missing = "logs no train loss"
    else:
        return None
    left_out = dict(unreadable)
    chosen = {r: s for r, s in pick.items() if s is not None}
    for r, s in pick.items():
        if s is None:
            left_out[r] = missing
    directions = Counter(s.direction for s in chosen.values())
    direction = directions.most_common(1)[0][0]
    for r in [r for r, s in chosen.items() if s.direction != direction]:
        left_out[r] = "its objective runs the other way"
        del chosen[r]
    lasts = {r: float(s.steps[-1]) for r, s in chosen.items()}
    if lasts:
        mid = float(np.median(list(lasts.values())))
        for r, last in lasts.items():
            if mid > 0 and (last * STEP_SCALE < mid or last > mid * STEP_SCALE):
                left_out[r] = f"its steps (last {int(last)}) are not comparable with the others' (median {int(mid)})"
                del chosen[r]
    if len(chosen) < MIN_RUNS:
        return None
    totals = [o.total_steps for o in objs if o.run in chosen and o.total_steps]
    final = float(np.median(totals)) if len(totals) * 2 >= len(chosen) else None
    by_run = {o.run: o for o in objs}
    curves = []
    for r, s in chosen.items():
        total = by_run[r].total_steps
        finished = bool(total) and float(s.steps[-1]) >= float(total or math.inf)
        curves.append(RunCurve(r, s.steps, s.values, finished=finished, stopped=r in stopped and not finished))
    return SweepView(curves, direction, final, metric, left_out)
