"""A picture of a run: loss, eval, learning rate and grad-norm panels with the latest findings marked.

matplotlib is an optional extra (``.venv/bin/pip install -e '.[plot]'`` in a clone), imported
only when a plot is drawn, with the Agg backend (no display needed).
Non-finite values are drawn as red marks at the panel's edge: they are evidence.
"""

from __future__ import annotations

import os
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .config import Config
from .errors import BadInput, TrainingCheckError
from .findings import CRITICAL, OK, WARN
from .frame import MetricFrame
from .reading import load_run
from .redact import redact
from .store import Store

PANELS = (("train_loss", "training loss"), ("eval", "eval metrics"), ("lr", "learning rate"),
          ("grad_norm", "grad norm"))
MAX_LINES_PER_PANEL = 4
STATUS_COLOURS = {CRITICAL: "#d62728", WARN: "#ff7f0e", OK: "#2ca02c"}
DECADES = 3.0  # values spread over this many orders of magnitude are drawn on a log axis
LABEL_ROW = 0.07  # a label that would overlap another moves down by this share of the panel
MAX_LABEL_ROWS = 12


@dataclass
class PlotResult:
    """Where the picture went and what it shows."""

    path: str
    run: str
    panels: list[str]
    findings_marked: int
    last_step: int | None
    verdict: str | None = None
    notes: list[str] = field(default_factory=list)
    summary: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def _matplotlib():
    try:
        import matplotlib

        matplotlib.use("Agg", force=True)
        import matplotlib.pyplot as plt
    except ImportError:
        raise BadInput(f"plotting needs matplotlib, which is not installed where training-check runs: "
                       f"{sys.executable} -m pip install 'matplotlib>=3.8' (from a clone: .venv/bin/pip install "
                       f"-e '.[plot]')") from None
    return plt


def _latest_findings(store: Store, run_key: str) -> tuple[str | None, list[dict], dict | None]:
    latest = store.recent_assessments(run_key, 1)
    if not latest:
        return None, [], None
    a = latest[0]
    d = a.get("diagnosis")
    return (a.get("verdict"), [f for f in a.get("findings") or [] if isinstance(f, dict)],
            d if isinstance(d, dict) else None)


def _step_span(f: dict) -> tuple[float, float] | None:
    steps = f.get("steps")
    if isinstance(steps, dict):
        lo, hi = steps.get("first", steps.get("start")), steps.get("last", steps.get("end"))
    elif isinstance(steps, (list, tuple)) and steps:
        lo, hi = steps[0], steps[-1]
    elif isinstance(steps, (int, float)):
        lo = hi = steps
    else:
        return None
    if lo is None or hi is None:
        return None
    try:
        return float(lo), float(hi)
    except (TypeError, ValueError):
        return None


def _event_steps(diagnosis: dict | None) -> list[tuple[float, str]]:
    """(step, text) of each diagnosis event ("step N: what happened")."""
    out = []
    for e in (diagnosis or {}).get("events") or []:
        if isinstance(e, str) and e.startswith("step "):
            head, _, what = e[5:].partition(":")
            try:
                out.append((float(head), what.strip()))
            except ValueError:
                continue
    return out


def spans_decades(values: np.ndarray, decades: float = DECADES) -> bool:
    """Whether the finite values spread over ``decades`` orders of magnitude or more (a log axis shows them)."""
    v = np.abs(values[np.isfinite(values)])
    v = v[v > 0]
    return bool(len(v) >= 2 and np.log10(v.max() / v.min()) >= decades)


def _place_labels(fig, ax, texts: list) -> None:
    """Move labels down, row by row, until none overlaps another (measured with the renderer)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    placed: list = []
    for t in texts:
        for _ in range(MAX_LABEL_ROWS):
            box = t.get_window_extent(renderer)
            if not any(box.overlaps(b) for b in placed):
                break
            x, y = t.get_position()
            t.set_position((x, y - LABEL_ROW))
        placed.append(t.get_window_extent(renderer))


def plot_frame(frame: MetricFrame, out: str | Path, *, title: str, findings: list[dict] | None = None,
               verdict: str | None = None, diagnosis: dict | None = None) -> tuple[list[str], int]:
    """Draw the panels that have data into ``out`` (PNG); returns (panel titles, findings marked)."""
    fig, panels, marked = draw(frame, title=title, findings=findings, verdict=verdict, diagnosis=diagnosis)
    plt = _matplotlib()
    out = Path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out, dpi=110)
    except OSError as e:
        raise BadInput(f"cannot write {out}: {e.strerror or e}; pick another -o path") from None
    finally:
        plt.close(fig)
    return panels, marked


def draw(frame: MetricFrame, *, title: str, findings: list[dict] | None = None, verdict: str | None = None,
         diagnosis: dict | None = None):
    """The figure: one panel per role with data, log axes where values span decades, the findings' windows shaded,
    the diagnosis' onset and events marked; labels never overlap. Returns (figure, panel titles, findings marked)."""
    plt = _matplotlib()
    panels = []
    for role, label in PANELS:
        names = frame.names(role)
        primary = frame.primary_loss
        if role == "train_loss" and primary:
            names = [primary] + [n for n in names if n != primary]
        if names:
            panels.append((label, names[:MAX_LINES_PER_PANEL]))
    if not panels:  # no known roles: show the first metrics as they are
        names = list(frame.series)[:MAX_LINES_PER_PANEL]
        if not names:
            raise BadInput(f"{title}: no metrics to plot")
        panels.append(("metrics", names))
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 2.6 * len(panels) + 0.6), sharex=True, squeeze=False)
    marked = 0
    for ax, (label, names) in zip(axes[:, 0], panels, strict=True):  # one row of axes per panel
        for name in names:
            s = frame.long_series(name)  # a long run: its older points as block medians, then the newest whole
            steps = s.index.to_numpy(dtype=float)
            vals = s.to_numpy(dtype=float)
            finite = np.isfinite(vals)
            ax.plot(steps[finite], vals[finite], lw=1.1, label=name)
            if (~finite).any():
                top = np.nanmax(vals[finite]) if finite.any() else 1.0
                ax.scatter(steps[~finite], np.full((~finite).sum(), top), marker="x", color="#d62728", zorder=5,
                           label=f"{name}: {(~finite).sum()} NaN/Inf")
        every = np.concatenate([frame.long_series(n).to_numpy(dtype=float) for n in names])
        if (label in ("learning rate",) and all((frame.series[n].dropna() > 0).all() for n in names)) or (
                spans_decades(every) and (every[np.isfinite(every)] > 0).all()):
            ax.set_yscale("log")
        elif spans_decades(every):
            ax.set_yscale("symlog", linthresh=float(np.nanmedian(np.abs(every[np.isfinite(every)]))) or 1.0)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    labels = []
    for f in findings or []:
        status = f.get("status")
        if status not in (WARN, CRITICAL):
            continue
        span = _step_span(f)
        if span is None:
            continue
        colour = STATUS_COLOURS[status]
        for ax in axes[:, 0]:
            if span[0] == span[1]:
                ax.axvline(span[0], color=colour, ls="--", lw=1)
            else:
                ax.axvspan(span[0], span[1], color=colour, alpha=0.12)
        labels.append(axes[0, 0].text(span[1], 0.97, f"{f.get('signal', '?')}: {status}",
                                      transform=axes[0, 0].get_xaxis_transform(), fontsize=7, color=colour,
                                      ha="right", va="top"))
        marked += 1
    onset = (diagnosis or {}).get("onset_step")
    if isinstance(onset, (int, float)):
        for ax in axes[:, 0]:
            ax.axvline(float(onset), color="#9467bd", lw=1.6)
        labels.append(axes[0, 0].text(float(onset), 0.97, f"onset {int(onset)}: {diagnosis.get('cause')}"
                                      if diagnosis else f"onset {int(onset)}",
                                      transform=axes[0, 0].get_xaxis_transform(), fontsize=7, color="#9467bd",
                                      ha="left", va="top"))
    for i, (step, _what) in enumerate(_event_steps(diagnosis), 1):
        axes[0, 0].axvline(step, color="#9467bd", ls=":", lw=0.9)
        labels.append(axes[0, 0].text(step, 0.97, str(i), transform=axes[0, 0].get_xaxis_transform(), fontsize=7,
                                      color="#9467bd", ha="center", va="top"))
    events = _event_steps(diagnosis)
    if events:
        fig.text(0.01, 0.005, "\n".join(f"{i}: step {int(s)}: {w[:90]}" for i, (s, w) in enumerate(events, 1)),
                 fontsize=6, color="#9467bd", va="bottom")
    axes[-1, 0].set_xlabel("step")
    fig.suptitle(f"{title}" + (f" — {verdict}" if verdict else ""), fontsize=10)
    redact_texts(fig)
    fig.tight_layout(rect=(0, 0.012 * len(events) + (0.01 if events else 0), 1, 1))
    if labels:
        _place_labels(fig, axes[0, 0], sorted(labels, key=lambda t: t.get_position()[0]))
    return fig, [p[0] for p in panels], marked


def redact_texts(fig) -> None:
    """Every text of the figure (title, labels, legends, notes) redacted (``tools/redact.py``): the plot's one gate."""
    from matplotlib.text import Text

    for t in fig.findobj(Text):
        text = t.get_text()
        if text:
            safe = redact(text)
            if safe != text:
                t.set_text(safe)


def plot_run(run: str, out: str | Path | None = None, *, store: Store, config: Config,
             fallback_log: str | None = None, progress=None) -> PlotResult:
    """Read the run (incrementally, like every tool) and draw it with the latest assessment's findings marked."""
    data = load_run(run, store=store, config=config, fallback_log=fallback_log, progress=progress)
    if not data.frame.series:
        raise TrainingCheckError(f"{run}: the run has no metrics yet; nothing to plot")
    if out is None:
        name = redact(data.info.name or os.path.basename(run) or "run")
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
        out = config.home / "plots" / f"{safe[:80]}.png"
    verdict, findings, diagnosis = _latest_findings(store, data.run_key)
    panels, marked = plot_frame(data.frame, out, title=data.info.name or run, findings=findings, verdict=verdict,
                                diagnosis=diagnosis)
    last = data.frame.last_step
    upto = f" up to step {last}" if last is not None else ""
    summary = (f"Plotted {', '.join(panels)} of {run}{upto} to {out}"
               + (f" with {marked} finding{'s' if marked != 1 else ''} marked" if marked else "") + ".")
    return PlotResult(str(out), run, panels, marked, last, verdict, [], summary)


@dataclass
class SweepPlotResult:
    """Where the sweep's picture went and what it shows."""

    path: str
    runs: int
    metric: str | None
    prune: list[str]
    leader: str | None
    left_out: dict[str, str] = field(default_factory=dict)
    summary: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


MAX_LABELLED = 8  # runs named in the legend: the leader, the runs to prune, then the best ranked


def plot_sweep(runs: list[str], out: str | Path | None = None, *, store: Store, config: Config,
               total_steps: int | None = None, project: str | None = None) -> SweepPlotResult:
    """Every run's objective curve, each projection's band to the planned final step, the runs to prune marked
    (crossed, grey) and the leader drawn thick. Judged as ``assess_runs`` judges the sweep, with its stored memory
    (nothing stored: a picture is not a check)."""
    from .sweep.collect import build_sweep_view, objectives_of, sweep_key
    from .sweep.policy import SweepMemory
    from .sweep.relative import judge_sweep

    if len(runs) < 2:
        raise BadInput("plot --sweep needs at least two runs (a sweep judgement needs four sharing an objective)")
    objs, unreadable = [], {}
    for run in runs:
        try:
            data = load_run(run, store=store, config=config)
        except TrainingCheckError as e:
            unreadable[run] = e.message
            continue
        objs.append(objectives_of(run, data.frame, total_steps or data.info.total_steps))
    key = sweep_key(runs, project, config)
    stored = store.get_sweep(key) or {}
    view = build_sweep_view(objs, unreadable, set(stored.get("stopped") or []))
    if view is None:
        raise BadInput(f"fewer than 4 of these {len(runs)} runs share an objective (an eval metric or a train loss): "
                       f"no sweep to draw")
    j = judge_sweep(view, SweepMemory.from_dict(stored.get("memory")))
    plt = _matplotlib()
    fig, ax = plt.subplots(figsize=(11, 6.5), dpi=110)
    sign = view.sign()
    prune = set(j.summary.prune)
    ranked = sorted(j.runs.values(), key=lambda r: (r.rank is None, r.rank or 0))
    named = list(dict.fromkeys([*(x for x in [j.summary.leader] if x), *sorted(prune), *(r.run for r in ranked)]))
    named = named[:MAX_LABELLED]
    cmap = plt.get_cmap("tab10")
    values_seen: list[float] = []
    for i, c in enumerate(view.curves):
        rel = j.runs.get(c.run)
        finite = np.isfinite(c.values)
        values_seen.extend(c.values[finite].tolist())
        is_pruned = c.run in prune or c.stopped
        lead = c.run == j.summary.leader
        colour = "#9e9e9e" if is_pruned else cmap(i % 10)
        label = None
        if c.run in named:
            tag = "prune" if c.run in prune else ("stopped" if c.stopped else ("lead" if lead else
                                                                                 (rel.recommend if rel else "")))
            where = f", {rel.rank}/{rel.of}" if rel and rel.rank else ""
            label = f"{os.path.basename(c.run)[:40]} ({tag}{where})"
        ax.plot(c.steps[finite], c.values[finite], color=colour, lw=2.6 if lead else 1.2,
                ls="--" if is_pruned else "-", label=label, alpha=0.9 if (lead or c.run in named) else 0.5)
        if is_pruned and finite.any():
            ax.scatter([c.steps[finite][-1]], [c.values[finite][-1]], marker="x", s=80, color="#d62728", zorder=5)
        pr = j.projections.get(c.run)
        if pr is not None and rel is not None and rel.projected_final is not None and pr.model != "reached" \
                and np.isfinite(pr.value) and finite.any():
            x0, y0 = float(c.steps[finite][-1]), float(c.values[finite][-1])
            f = rel.projected_final
            ax.fill_between([x0, f.at_step], [y0, f.low], [y0, f.high], color=colour, alpha=0.12, lw=0)
            ax.plot([x0, f.at_step], [y0, f.value], color=colour, ls=":", lw=1)
    fin = np.array([v for v in values_seen if np.isfinite(v)])
    if fin.size and fin.min() > 0 and spans_decades(fin):
        ax.set_yscale("log")
    if fin.size:  # the curves fill the picture; a band reaching further is cut at its edge
        lo, hi = np.percentile(fin, [0, 98])
        pad = (hi - lo) * 0.08 or abs(hi) * 0.1 or 1.0
        log = ax.get_yscale() == "log"
        ax.set_ylim(lo * 0.8 if log else lo - pad, hi * 1.2 if log else hi + pad)
    ax.axvline(view.target_step, color="#555555", lw=0.8, ls="-.")
    ax.set_xlabel("step")
    ax.set_ylabel(f"{view.metric} ({'lower' if sign > 0 else 'higher'} is better)")
    ax.set_title(f"sweep of {len(view.curves)} runs on {view.metric}: leader "
                 f"{os.path.basename(j.summary.leader or '-')}, {len(prune)} to prune "
                 f"(dashed grey, x); bands: projections to step {int(view.target_step)}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    if out is None:
        out = config.home / "plots" / f"sweep-{key.split(':', 1)[-1][:40].replace('/', '_')}.png"
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    summary = (f"Plotted {len(view.curves)} runs of the sweep on {view.metric} to {out}: leader "
               f"{j.summary.leader}, {len(prune)} to prune" + (f" ({', '.join(sorted(prune)[:5])})" if prune else "")
               + (f"; {len(view.left_out)} left out" if view.left_out else "") + ".")
    return SweepPlotResult(str(out), len(view.curves), view.metric, sorted(prune), j.summary.leader,
                           dict(view.left_out), summary)
