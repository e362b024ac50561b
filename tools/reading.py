"""Reading a run: pick the source, read only what is new since the stored cursor, fall back when W&B is out of reach.

Both ``read_metrics`` and ``assess_run`` go through ``load_run``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from .config import Config
from .errors import BadInput, SourceUnreachable, TrainingCheckError
from .frame import MetricFrame
from .history import RunHistory
from .points import PointBatch
from .rundata import mark_names, rename_keys
from .runref import RunRef, parse_run_ref
from .sources import open_source
from .sources.base import Progress, RunInfo, Source
from .store import CachedSummary, Store


@dataclass
class SourceUsed:
    kind: str  # wandb_api / wandb_local / log / tfevents
    id: str
    description: str


@dataclass
class RunData:
    ref: RunRef
    frame: MetricFrame
    source: SourceUsed
    info: RunInfo
    fallback_reason: str | None = None
    new_points: int = 0
    last_step_before: int | None = None  # the last step known before this read
    notes: list[str] = field(default_factory=list)
    raw: Callable[[], PointBatch] | None = None  # every point read so far, in arrival order (the full path)
    run_data: dict[str, str] = field(default_factory=dict)  # alias -> a metric name that is not plain (rundata.py)

    renamed: dict[str, str] = field(default_factory=dict)  # name the run wrote -> its alias
    chosen: str | None = None  # which run of a store holding several was read (the latest, or the one named)

    def __post_init__(self):
        if not self.run_data:  # names the run wrote enter the frame here: mark the ones that are not plain
            self.frame, self.run_data, self.renamed = mark_names(self.frame)

    @property
    def run_key(self) -> str:
        return self.ref.key

    def replay(self, step: int | None) -> MetricFrame:
        """The run as it stood at ``step`` (inclusive), rebuilt from every raw point (the full path)."""
        if step is None:
            return self.frame
        if not any(h.summarised for h in self.frame.history.values()) or self.raw is None:
            return self.frame.upto(step)
        raw = self.raw()
        if self.renamed:
            raw = PointBatch(rename_keys(raw.columns, self.renamed))
        full = MetricFrame(self.frame.series, self.frame.roles, self.frame.history, raw)
        return full.upto(step)


REMOTE_KINDS = ("wandb", "mlflow")  # references to a tracking server: a fallback_log is read when it is out of reach


def resolve_ref(run: str, config: Config) -> RunRef:
    ref = parse_run_ref(run, entity=config.wandb_entity, project=config.wandb_project)
    return ref


def _stored_history(store: Store, source_id: str, cached: CachedSummary) -> tuple[RunHistory, bool]:
    """(the source's stored history, whether it had to be rebuilt from the raw points: missing, or of another
    layout, as in a store written before histories were kept)."""
    if not cached.known:
        return RunHistory(), False
    if cached.history is not None:
        h = RunHistory.from_bytes(cached.history)
        if h is not None:
            return h, False
    return RunHistory.build(store.load_source(source_id).batch), True


def _extended(history: RunHistory, batch: PointBatch, store: Store, source_id: str) -> RunHistory:
    """``history`` with ``batch`` added; rebuilt from every raw point (the full path) when the new points do not
    simply continue the run (a resume into the past)."""
    out = history.copy()
    if out.extend(batch):
        return out
    return RunHistory.build(store.load_source(source_id).batch.extend(batch))


def _part_notes(earlier: list[str], part: list[str], last: bool) -> list[str]:
    """The notes of a read in parts: each part's, once; what only the whole read can say (no loss found yet, the
    runs a file holds) from the last part."""
    if not earlier:
        return list(part)
    if last:
        earlier = [n for n in earlier if not n.startswith(("no loss found yet", "this file holds"))]
    return earlier + [n for n in part if n not in earlier]


def read_source(source: Source, run_key: str, store: Store, progress: Progress | None = None
                ) -> tuple[RunHistory, RunInfo, int, int | None, list[str], Callable[[], PointBatch]]:
    """(history of every point, run info, new points, last step before, notes, every raw point on demand) after
    reading what is new. Costs what is new: the stored history is read and extended, never the raw points (but on
    a resume into the past, which rebuilds the history from them)."""
    sid = source.source_id
    cached = store.load_summary(sid)
    history, rebuilt = _stored_history(store, sid, cached)
    last_before = history.max_step()
    info = RunInfo.from_dict(cached.info)
    cursor, new = cached.cursor, 0
    notes: list[str] = []
    while True:  # one read, or the parts of a long one (each stored before the next is read: memory stays bounded)
        result = source.read(cursor, progress)
        # a reset read gives everything again (a new run in the file, a re-read): what earlier reads said is void
        info = result.info if result.reset and result.info is not None else info.merged(result.info)
        if progress is not None and result.batch.n_points > 1_000_000:
            progress(0.0, None, f"summarising {result.batch.n_points:,} new points")
        if result.reset:
            updated = RunHistory.build(result.batch)
        elif result.batch.is_empty():
            updated = history
        else:
            updated = _extended(history, result.batch, store, sid)
        blob = updated.to_bytes() if (updated is not history or rebuilt) else None  # None: the stored one stands
        saved = store.save_read(sid, run_key, cursor, result.cursor, result.batch,
                                reset=result.reset, info=info.to_dict(), history=blob)
        if not saved:  # another process read the same source meanwhile: its points are in the cache now
            again = store.load_summary(sid)
            updated, info, notes = _stored_history(store, sid, again)[0], RunInfo.from_dict(again.info), []
            new = again.n_points - cached.n_points
            break
        new = result.batch.n_points if result.reset else new + result.batch.n_points
        notes = _part_notes(notes, result.notes, last=not result.more)
        history, rebuilt, cursor = updated, False, result.cursor
        if not result.more:
            break
    tail = result.provisional
    tail_batch, tail_reset = None, False
    if tail is not None and not tail.batch.is_empty():
        tail_batch, tail_reset = tail.batch, tail.reset
        updated = RunHistory.build(tail.batch) if tail.reset else _extended(updated, tail.batch, store, sid)
        new += tail.batch.n_points
        notes.append("the file's last, unterminated part was read provisionally (re-read once complete)")
        info = info.merged(tail.info)

    def every_point() -> PointBatch:
        if tail_batch is not None and tail_reset:
            return tail_batch
        batch = store.load_source(sid).batch
        return batch.extend(tail_batch) if tail_batch is not None else batch

    return updated, info, new, last_before, notes, every_point


def loss_override(role_overrides: dict[str, str] | None, loss_metric: str | None) -> dict[str, str] | None:
    """Role overrides with ``loss_metric`` (a name the user gave) as the run's train loss."""
    if not loss_metric:
        return role_overrides
    if not isinstance(loss_metric, str) or len(loss_metric) > 200:
        raise BadInput("loss_metric must be a metric name (at most 200 characters), as read_metrics lists them")
    return {**(role_overrides or {}), loss_metric: "train_loss"}


def _missing_loss_note(frame: MetricFrame, role_overrides: dict[str, str] | None) -> list[str]:
    """A note when the metric named as the loss is not logged (the run is judged as if it had not been named)."""
    from .rundata import clean

    named = [n for n, spec in (role_overrides or {}).items() if spec == "train_loss" and n not in frame.series]
    if not named:
        return []
    logged = ", ".join(clean(n, 60) for n in list(frame.series)[:12]) or "none"
    return [f"loss_metric {clean(named[0], 60)} is not logged (logged: {logged}); judged without it"]


_RECENT = threading.local()  # the last run this thread read: (run, role overrides, its RunData)


def recently_loaded(run: str, role_overrides: dict[str, str] | None = None) -> RunData | None:
    """What this thread's last ``load_run`` of ``run`` (with these role overrides) returned, or None: a many-run
    check (tools/assess_runs.py) takes the run's curves from the read its ``assess_run`` just made instead of
    reading the run again."""
    last = getattr(_RECENT, "last", None)
    if last is None or last[0] != run or last[1] != (role_overrides or {}):
        return None
    return last[2]


def load_run(run: str, *, store: Store, config: Config, fallback_log: str | None = None,
             progress: Progress | None = None, role_overrides: dict[str, str] | None = None) -> RunData:
    """Read a run, incrementally. Raises SourceUnreachable when no source could be read."""
    _RECENT.last = None
    data = _load_run(run, store=store, config=config, fallback_log=fallback_log, progress=progress,
                     role_overrides=role_overrides)
    _RECENT.last = (run, dict(role_overrides or {}), data)
    return data


def _load_run(run: str, *, store: Store, config: Config, fallback_log: str | None,
              progress: Progress | None, role_overrides: dict[str, str] | None) -> RunData:
    ref = resolve_ref(run, config)
    primary_error: TrainingCheckError | None = None
    try:
        if ref.kind == "wandb" and not (ref.entity and ref.project):
            raise BadInput(f"W&B run {ref.run_id!r} needs an entity and a project: pass entity/project/run_id, "
                           f"or set WANDB_ENTITY and WANDB_PROJECT (or .training-check.toml)")
        source = open_source(ref, config)
        history, info, new, before, notes, raw = read_source(source, ref.key, store, progress)
        frame = MetricFrame.from_history(history, role_overrides)
        chosen = getattr(source, "chosen", None)
        return RunData(ref, frame, SourceUsed(source.kind, source.source_id, source.describe()), info, None, new,
                       before, ([chosen] if chosen else []) + notes + _missing_loss_note(frame, role_overrides), raw,
                       chosen=chosen)
    except SourceUnreachable as e:
        primary_error = e
    except BadInput as e:
        if not (fallback_log and ref.kind in REMOTE_KINDS):
            raise
        primary_error = e
    if not fallback_log:
        raise primary_error
    fb_ref = parse_run_ref(fallback_log)
    if fb_ref.kind in REMOTE_KINDS:
        raise BadInput(f"fallback_log must be a log file path or ssh://host/path, not a tracked run ({fallback_log!r})")
    try:
        source = open_source(fb_ref, config)
        history, info, new, before, notes, raw = read_source(source, ref.key, store, progress)
    except SourceUnreachable as e:
        raise SourceUnreachable(f"{primary_error}; fallback log also unreachable: {e}") from None
    if ref.url and not info.url:
        info.url = ref.url
    frame = MetricFrame.from_history(history, role_overrides)
    return RunData(ref, frame, SourceUsed(source.kind, source.source_id, source.describe()), info, str(primary_error),
                   new, before, notes + _missing_loss_note(frame, role_overrides), raw)
