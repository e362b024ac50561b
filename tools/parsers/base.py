"""What a log format is, and the emitter parsers write points into (a BatchBuilder with the parser's state).

A ``LineFormat`` parses blocks of complete, cleaned lines and may keep state
between blocks (current epoch, a pending wrapped record, the run index) in
``Emitter.state``, a JSON-serialisable dict stored in the read cursor. A
``DocumentFormat`` parses a whole JSON document at once (re-read whole when the
file changes).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import ClassVar

from ..points import BatchBuilder, PointBatch

MAX_ASIDE_KEYS = 64  # keys whose set-aside points the state counts (a file's earlier runs)


class Emitter(BatchBuilder):
    """The points of one read (a BatchBuilder) with what a parser finds besides: its state between blocks, the run
    count, the total steps, the config and notes."""

    __slots__ = ("aside_keys", "config", "notes", "started_new_run", "state", "total_steps")

    def __init__(self, state: dict | None = None):
        super().__init__()
        self.state: dict = copy.deepcopy(state) if state else {}  # never the caller's: a cursor compared later
        self.total_steps: int | None = None
        self.config: dict = {}
        self.started_new_run = False  # points from earlier runs in this file are void
        self.notes: list[str] = []
        self.aside_keys: dict[str, int] = {}  # points per key set aside with earlier runs, this read

    def new_run(self) -> None:
        """A new run starts in this file: only its points count from here (multi-run files show the last run)."""
        self.state["runs"] = self.state.get("runs", 1) + 1
        per_key = {k: self._pending(k) for k in self._cols}
        for p in self.parts:
            for k, col in p.columns.items():
                per_key[k] = per_key.get(k, 0) + len(col)
        ends = self.state.pop("run_ends", None) or {}
        for k, at in ends.items():  # the step an earlier read ended the key at, this read's first: one point, redrawn
            if per_key.get(k) and self._opens_at(k, int(at)):
                per_key[k] -= 1
        for k, n in (self.state.pop("run_points", None) or {}).items():  # the run's points earlier reads gave
            per_key[k] = per_key.get(k, 0) + int(n)
        self.state["set_aside"] = int(self.state.get("set_aside", 0)) + sum(per_key.values())
        self.aside_keys = {k: self.aside_keys.get(k, 0) + n for k, n in per_key.items()}
        self._aside_in_state(per_key)
        self._cols = {}
        self._arrays = {}
        self.parts = []
        self.started_new_run = True
        self.total_steps = None

    def skip_runs(self, runs: int, per_key: dict[str, int]) -> None:
        """``runs`` more whole runs started and ended within this read, before the current one: their points
        (``per_key``) are counted as set aside, never built."""
        if runs <= 0:
            return
        self.state["runs"] = self.state.get("runs", 1) + runs
        self.state["set_aside"] = int(self.state.get("set_aside", 0)) + sum(per_key.values())
        self.aside_keys = {k: self.aside_keys.get(k, 0) + per_key.get(k, 0) for k in {*self.aside_keys, *per_key}}
        self._aside_in_state(per_key)
        self.started_new_run = True
        self.total_steps = None

    def count_read(self, batch: PointBatch) -> None:
        """Keep in the state the count per key of a read's points (``batch``, what ``build`` gave at the read's end)
        with the run's: set aside, should a later read find a new run, they are counted whatever the reads' sizes."""
        kept = self.state.setdefault("run_points", {})
        ends = self.state.setdefault("run_ends", {})
        for k, col in batch.columns.items():
            if (k in kept or len(kept) < MAX_ASIDE_KEYS) and len(col):
                again = k in ends and int(col.steps[0]) == int(ends[k])  # the step the read before ended at, this
                kept[k] = int(kept.get(k, 0)) + len(col) - again  # read's first (the state redrawn): one point
                ends[k] = int(col.steps[-1])

    def _opens_at(self, key: str, step: int) -> bool:
        """Whether this read's first point of ``key`` is at ``step`` (the state the read before ended in, redrawn)."""
        for p in self.parts:
            if key in p.columns and len(p.columns[key]):
                return int(p.columns[key].steps[0]) == step
        for s, _ in self._arrays.get(key, ()):
            if len(s):
                return int(s[0]) == step
        c = self._cols.get(key)
        return c is not None and bool(c[0]) and c[0][0] == step

    def _aside_in_state(self, per_key: dict[str, int]) -> None:
        """The points set aside per key over every read of the file (the notes say them the same whatever the
        reads' sizes), for at most ``MAX_ASIDE_KEYS`` keys."""
        kept = self.state.setdefault("aside", {})
        for k, n in per_key.items():
            if n and (k in kept or len(kept) < MAX_ASIDE_KEYS):
                kept[k] = int(kept.get(k, 0)) + int(n)

    @property
    def aside_so_far(self) -> dict[str, int]:
        """Points per key set aside with earlier runs, over every read of the file so far."""
        return dict(self.state.get("aside") or {})

    @property
    def set_aside(self) -> int:
        """Points of earlier runs in this file that this read set aside (only the last run is shown)."""
        return int(self.state.get("set_aside", 0))

    @property
    def runs(self) -> int:
        return int(self.state.get("runs", 1))


class LineFormat:
    """A family of line-oriented logs. Subclasses set ``name``, ``detect_re`` and implement ``parse``."""

    name: ClassVar[str] = "lines"
    kind: ClassVar[str] = "lines"
    #: lines matching this (searched per line) are evidence of the format
    detect_re: ClassVar[re.Pattern]
    #: generic formats only win when no specific one matched
    generic: ClassVar[bool] = False
    #: tie-break: higher wins among equal evidence
    priority: ClassVar[int] = 0
    #: a read may stop after a ``\\r`` (a bar's redraw is a record: ``breaks.py``); the format parses raw bytes
    cr_records: ClassVar[bool] = False

    def score(self, lines: list[str]) -> int:
        """How many sample lines look like this format."""
        search = self.detect_re.search
        return sum(1 for line in lines if search(line))

    def parse(self, text: str, em: Emitter) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def parse_plain(self, data: bytes, em: Emitter) -> bool:
        """The fast path (tools/parsers/fastpath.py): the points of a block of raw bytes (complete lines, neither
        cleaned nor decoded) made only of the format's common lines, exactly as ``parse`` gives them from the
        cleaned text; False, with nothing emitted, for any other block (the reader then cleans it for ``parse``).
        Default: no fast path."""
        return False

    def finish(self, em: Emitter, at_end: bool = False) -> None:
        """Called at the end of a read: emit anything pending that is already complete (default: nothing);
        ``at_end``: the read reached the end of a file that has settled (or is read as if: the provisional tail)."""


class DocumentFormat:
    """A whole-file JSON document (trainer_state.json, golden values): parsed at once, re-read when it changes."""

    name: ClassVar[str] = "document"
    kind: ClassVar[str] = "document"

    def accepts(self, doc: object) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def parse_doc(self, doc: object, em: Emitter) -> None:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass
class Detected:
    format: str
    score: int
    sample_line: str | None = None
    candidates: dict[str, int] = field(default_factory=dict)
    #: (train-loss points, eval points) a trial parse of the sample kept; (0, 0): the format reads no loss from it
    found: tuple[int, int] = (0, 0)
