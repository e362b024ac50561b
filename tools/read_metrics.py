"""read_metrics: what a run has logged, small enough for an agent's context whatever the run's length."""

from __future__ import annotations

import fnmatch
from dataclasses import asdict, dataclass, field

import numpy as np

from .config import Config
from .downsample import downsample
from .encode import Num, jnum
from .errors import BadInput
from .history import MetricHistory
from .reading import load_run, loss_override
from .rundata import clean, clean_tree, safe_excerpt
from .sources.base import Progress
from .store import Store

ROLE_ORDER = ("train_loss", "eval", "lr", "grad_norm", "loss_scale", "train_metric", "throughput", "other")
MAX_SERIES = 8  # metrics that get a series by default; the rest get their summary only
MAX_POINTS_LIMIT = 1000
MAX_METRICS = 100  # summaries in one answer; the rest are counted in a note (pass keys=[...] for them)
RECENT_WINDOW = 20  # points in "recent_mean"


@dataclass
class MetricSummary:
    name: str
    role: str
    direction: str | None
    count: int
    last: Num
    last_step: int
    min: Num
    max: Num
    recent_mean: Num
    nan_count: int
    inf_count: int
    series: list[list[Num]] = field(default_factory=list)  # [[step, value], ...] downsampled


@dataclass
class MetricsReport:
    run: str
    run_key: str
    source: dict
    fallback_reason: str | None
    info: dict
    first_step: int | None
    last_step: int | None
    n_steps: int
    new_points: int
    metrics: list[MetricSummary]
    notes: list[str] = field(default_factory=list)
    summary: str = ""
    run_data: dict[str, str] = field(default_factory=dict)  # metric alias -> the name the run wrote (untrusted text)

    def to_dict(self) -> dict:
        return asdict(self)


def _summarise(name: str, role, steps: np.ndarray, values: np.ndarray, max_points: int,
               with_series: bool) -> MetricSummary:
    finite = np.isfinite(values)
    fin = values[finite]
    recent = values[-RECENT_WINDOW:]
    recent = recent[np.isfinite(recent)]
    series: list[list[Num]] = []
    if with_series and max_points > 0:
        idx = downsample(steps, values, max_points)
        series = [[int(steps[i]), jnum(values[i], 5)] for i in idx]
    return MetricSummary(
        name=name, role=role.role, direction=role.direction, count=int(len(values)),
        last=jnum(values[-1]), last_step=int(steps[-1]),
        min=jnum(fin.min()) if len(fin) else None, max=jnum(fin.max()) if len(fin) else None,
        recent_mean=jnum(recent.mean()) if len(recent) else None,
        nan_count=int(np.isnan(values).sum()), inf_count=int(np.isinf(values).sum()), series=series,
    )


def _summarise_long(name: str, role, h: MetricHistory, since_step: int | None, max_points: int,
                    with_series: bool) -> MetricSummary:
    """``_summarise`` for a metric whose older points are summarised in blocks (tools/history.py): counts, extremes
    and non-finite counts are whole-run (since ``since_step``, at block resolution); the series is downsampled from
    each block's lowest and highest point and first and last non-finite point (so no spike and no non-finite
    stretch is lost), then the newest points as they are."""
    b = h.blocks
    if since_step is not None:
        keep = b["last_step"] > since_step
        b = {k: v[keep] for k, v in b.items()}
    steps, values = h.steps, h.values
    fin = values[np.isfinite(values)]
    has = b["n_fin"] > 0
    lo = [float(x) for x in (b["min"][has].min() if has.any() else None,
                             fin.min() if len(fin) else None) if x is not None]
    hi = [float(x) for x in (b["max"][has].max() if has.any() else None,
                             fin.max() if len(fin) else None) if x is not None]
    recent = values[-RECENT_WINDOW:]
    recent = recent[np.isfinite(recent)]
    series: list[list[Num]] = []
    if with_series and max_points > 0:
        bad = b["n"] > b["n_fin"]
        cs = np.concatenate([b["min_step"][has], b["max_step"][has], b["nf_first_step"][bad], b["nf_last_step"][bad],
                             steps])
        cv = np.concatenate([b["min"][has], b["max"][has], b["nf_first_value"][bad], b["nf_last_value"][bad], values])
        order = np.argsort(cs, kind="stable")
        cs, cv = cs[order], cv[order]
        first = np.ones(len(cs), dtype=bool)
        first[1:] = cs[1:] != cs[:-1]
        cs, cv = cs[first], cv[first]
        idx = downsample(cs, cv, max_points)
        series = [[int(cs[i]), jnum(cv[i], 5)] for i in idx]
    return MetricSummary(
        name=name, role=role.role, direction=role.direction, count=int(b["n"].sum()) + len(values),
        last=jnum(values[-1]), last_step=int(steps[-1]),
        min=jnum(min(lo)) if lo else None, max=jnum(max(hi)) if hi else None,
        recent_mean=jnum(recent.mean()) if len(recent) else None,
        nan_count=int(b["n_nan"].sum()) + int(np.isnan(values).sum()),
        inf_count=int(b["n_pinf"].sum() + b["n_ninf"].sum()) + int(np.isinf(values).sum()), series=series,
    )


def read_metrics(run: str, *, store: Store, config: Config, fallback_log: str | None = None,
                 keys: list[str] | None = None, since_step: int | None = None, max_points: int = 50,
                 progress: Progress | None = None, loss_metric: str | None = None) -> MetricsReport:
    """Read a run's metrics (only what is new since the last read) and summarise each one. ``loss_metric``: the
    metric to show as the train loss (default: the config's, else the one named a loss)."""
    if not isinstance(max_points, int) or not 0 <= max_points <= MAX_POINTS_LIMIT:
        raise BadInput(f"max_points must be a whole number from 0 to {MAX_POINTS_LIMIT}, got {max_points!r}")
    data = load_run(run, store=store, config=config, fallback_log=fallback_log, progress=progress,
                    role_overrides=loss_override(None, loss_metric or config.loss_metric))
    frame = data.frame
    names = list(frame.series)
    if keys:
        chosen = [n for n in names if any(n == k or fnmatch.fnmatchcase(n, k) for k in keys)]
        if not chosen:
            shown = ", ".join(clean(n, 60) for n in names[:12]) + (" ..." if len(names) > 12 else "")
            raise BadInput(f"none of the keys {clean(keys, 200)} is logged in {run}; logged metrics: {shown or 'none'}")
        names = chosen
    order = sorted(names, key=lambda n: (not frame.roles[n].primary, ROLE_ORDER.index(frame.roles[n].role),
                                         names.index(n)))
    with_series = set(order if keys else order[:MAX_SERIES])
    left_out = max(0, len(order) - MAX_METRICS)
    order = order[:MAX_METRICS]
    metrics: list[MetricSummary] = []
    for name in order:
        s = frame.series[name]
        hist = frame.summarised(name)
        if hist is not None and (since_step is None or since_step < int(s.index[0])):
            metrics.append(_summarise_long(name, frame.roles[name], hist, since_step, max_points, name in with_series))
            continue
        if since_step is not None:
            s = s.loc[since_step + 1:]
        if not len(s):
            continue
        metrics.append(_summarise(name, frame.roles[name], s.index.to_numpy(), s.to_numpy(), max_points,
                                  name in with_series))
    notes = list(data.notes)
    if left_out:
        notes.append(f"{left_out} more metrics left out of this answer (at most {MAX_METRICS}); pass keys=[...] to "
                     f"choose which")
    if len(order) > len(with_series):
        notes.append(f"{len(order) - len(with_series)} more metrics summarised without series; "
                     f"pass keys=[...] to get theirs")
    loss = next((m for m in metrics if m.role == "train_loss"), None)
    upto = f"up to step {frame.last_step}" if frame.last_step is not None else "with no step read yet"
    summary = (f"{len(metrics)} metric{'s' if len(metrics) != 1 else ''} {upto} from {data.source.kind}"
               + (f"; the train loss last {loss.last} at step {loss.last_step}" if loss else "; no train loss found")
               + (f"; fell back to the log: {data.fallback_reason}" if data.fallback_reason else ""))
    return MetricsReport(
        run=run, run_key=data.run_key, source={"kind": data.source.kind, "description": data.source.description},
        fallback_reason=data.fallback_reason, info=clean_tree(data.info.to_dict()), first_step=frame.first_step,
        last_step=frame.last_step, n_steps=frame.n_steps, new_points=data.new_points, metrics=metrics,
        notes=notes, summary=summary, run_data=_run_data(data, set(order)),
    )


def _run_data(data, shown: set[str]) -> dict[str, str]:
    """The run's own text in this answer: the names behind the aliases shown, and a sample line of a log whose
    loss was not found (already made safe by the source)."""
    out = {a: n for a, n in data.run_data.items() if a in shown}
    sample = (data.info.config or {}).get("log_sample_line")
    if sample:
        out["log_sample_line"] = safe_excerpt(str(sample))
    return out
