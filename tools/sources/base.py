"""What every source gives: new points since a cursor, the moved cursor, and what it knows of the run.

A source never moves its cursor past data it has not returned: the caller
stores ``ReadResult.cursor`` only together with ``ReadResult.batch``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Protocol

from ..points import PointBatch

# progress(done, total, message): long reads report how far they are
Progress = Callable[[float, float | None, str], None]


@dataclass
class RunInfo:
    name: str | None = None
    url: str | None = None
    state: str | None = None  # running / finished / crashed / ... when the source knows
    config: dict = field(default_factory=dict)  # a small subset (lr, batch size, schedule, total steps)
    total_steps: int | None = None
    # how the run's log ended, when it ends with an exception (tools/parsers/run_end.py): {"type", "message", "line",
    # "nonfinite"}; each read of the log says it anew (a log grown past it, a restart, drops it)
    ended: dict | None = None

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v not in (None, {}, [])}

    @classmethod
    def from_dict(cls, d: dict | None) -> RunInfo:
        d = d or {}
        return cls(**{k: d[k] for k in ("name", "url", "state", "config", "total_steps", "ended")
                      if k in d})

    def merged(self, newer: RunInfo | None) -> RunInfo:
        if newer is None:
            return self
        return RunInfo(
            name=newer.name or self.name, url=newer.url or self.url, state=newer.state or self.state,
            config={**self.config, **newer.config}, total_steps=newer.total_steps or self.total_steps,
            ended=newer.ended,
        )


@dataclass
class ReadResult:
    batch: PointBatch
    cursor: dict  # JSON-serialisable; handed back on the next read
    reset: bool = False  # the cached points are void (file truncated/replaced): batch starts from scratch
    info: RunInfo | None = None
    bytes_read: int = 0
    notes: list[str] = field(default_factory=list)  # e.g. "log was rotated; read train.log.1's tail first"
    # What a file that may still be being written would add if its unterminated tail were complete (a last line
    # without a newline, a young JSON document): used for this answer only, never stored with the cursor, so a
    # half-written line cannot become a cached point. Its ``reset`` means "instead of", not "after", the cache.
    provisional: ReadResult | None = None
    # The read stopped at the end of a part (a long first read comes in parts, so memory stays bounded whatever the
    # file's size): store it, then read again from its cursor for the rest.
    more: bool = False


class Source(Protocol):
    """A place metrics come from. ``source_id`` is stable across processes (it keys the cursor)."""

    source_id: str
    kind: str  # "wandb_api" | "wandb_local" | "log" | "tfevents" | "mlflow_*" | "dvclive" | "metric_csvs"

    def describe(self) -> str: ...

    def read(self, cursor: dict | None, progress: Progress | None = None) -> ReadResult: ...
