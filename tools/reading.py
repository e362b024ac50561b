"""Reading a run: pick the source, read only what is new since the stored cursor, fall back when W&B is out of reach.

Both ``read_metrics`` and ``assess_run`` go through ``load_run``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .config import Config
from .errors import BadInput, SourceUnreachable, TrainingCheckError
from .frame import MetricFrame
from .rundata import mark_names
from .points import PointBatch
from .runref import RunRef, parse_run_ref
from .sources import open_source
from .sources.base import Progress, RunInfo, Source
from .store import Store


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
    run_data: dict[str, str] = field(default_factory=dict)  # alias -> a metric name that is not plain (rundata.py)

    def __post_init__(self):
        if not self.run_data:  # names the run wrote enter the frame here: mark the ones that are not plain
            self.frame, self.run_data = mark_names(self.frame)

    @property
    def run_key(self) -> str:
        return self.ref.key


def resolve_ref(run: str, config: Config) -> RunRef:
    ref = parse_run_ref(run, entity=config.wandb_entity, project=config.wandb_project)
    return ref


def read_source(source: Source, run_key: str, store: Store, progress: Progress | None = None
                ) -> tuple[PointBatch, RunInfo, int, int | None, list[str]]:
    """(all points, run info, new points, last step before, notes) after reading what is new."""
    cached = store.load_source(source.source_id)
    last_before = cached.batch.max_step()
    result = source.read(cached.cursor, progress)
    info = RunInfo.from_dict(cached.info).merged(result.info)
    saved = store.save_read(source.source_id, run_key, cached.cursor, result.cursor, result.batch,
                            reset=result.reset, info=info.to_dict())
    if saved:
        batch = result.batch if result.reset else cached.batch.extend(result.batch)
        new, notes = result.batch.n_points, list(result.notes)
    else:  # another process read the same source meanwhile: its points are in the cache now
        again = store.load_source(source.source_id)
        batch, info, notes = again.batch, RunInfo.from_dict(again.info), []
        new = again.batch.n_points - cached.batch.n_points
    tail = result.provisional
    if tail is not None and not tail.batch.is_empty():
        batch = tail.batch if tail.reset else batch.extend(tail.batch)
        new += tail.batch.n_points
        notes.append("the file's last, unterminated part was read provisionally (re-read once complete)")
        info = info.merged(tail.info)
    return batch, info, new, last_before, notes


def load_run(run: str, *, store: Store, config: Config, fallback_log: str | None = None,
             progress: Progress | None = None, role_overrides: dict[str, str] | None = None) -> RunData:
    """Read a run, incrementally. Raises SourceUnreachable when no source could be read."""
    ref = resolve_ref(run, config)
    primary_error: TrainingCheckError | None = None
    try:
        if ref.kind == "wandb" and not (ref.entity and ref.project):
            raise BadInput(f"W&B run {ref.run_id!r} needs an entity and a project: pass entity/project/run_id, "
                           f"or set WANDB_ENTITY and WANDB_PROJECT (or .training-check.toml)")
        source = open_source(ref, config)
        batch, info, new, before, notes = read_source(source, ref.key, store, progress)
        return RunData(ref, MetricFrame.from_batch(batch, role_overrides), SourceUsed(source.kind, source.source_id, source.describe()),
                       info, None, new, before, notes)
    except SourceUnreachable as e:
        primary_error = e
    except BadInput as e:
        if not (fallback_log and ref.kind == "wandb"):
            raise
        primary_error = e
    if not fallback_log:
        raise primary_error
    fb_ref = parse_run_ref(fallback_log)
    if fb_ref.kind == "wandb":
        raise BadInput(f"fallback_log must be a log file path or ssh://host/path, not a W&B run ({fallback_log!r})")
    try:
        source = open_source(fb_ref, config)
        batch, info, new, before, notes = read_source(source, ref.key, store, progress)
    except SourceUnreachable as e:
        raise SourceUnreachable(f"{primary_error}; fallback log also unreachable: {e}") from None
    if ref.url and not info.url:
        info.url = ref.url
    return RunData(ref, MetricFrame.from_batch(batch, role_overrides), SourceUsed(source.kind, source.source_id, source.describe()),
                   info, str(primary_error), new, before, notes)
