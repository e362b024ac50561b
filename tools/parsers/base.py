"""What a log format is, and the emitter parsers write points into.

A ``LineFormat`` parses blocks of complete, cleaned lines and may keep state
between blocks (current epoch, a pending wrapped record, the run index) in
``Emitter.state``, a JSON-serialisable dict stored in the read cursor. A
``DocumentFormat`` parses a whole JSON document at once (re-read whole when the
file changes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ..points import Column, PointBatch


class Emitter:
    """Collects the points of one read, the run count, the total steps and notes a parser finds."""

    __slots__ = ("_cols", "aside_keys", "config", "notes", "parts", "started_new_run", "state", "total_steps")

    def __init__(self, state: dict | None = None):
        self._cols: dict[str, tuple[list[int], list[float]]] = {}
        self.parts: list[PointBatch] = []  # flushed blocks: numpy columns, 16 bytes a point
        self.state: dict = dict(state or {})
        self.total_steps: int | None = None
        self.config: dict = {}
        self.started_new_run = False  # points from earlier runs in this file are void
        self.notes: list[str] = []
        self.aside_keys: dict[str, int] = {}  # points per key set aside with earlier runs, this read

    def column(self, key: str) -> tuple[list[int], list[float]]:
        """The (steps, values) lists of ``key`` for hot loops; valid until ``flush``/``new_run``."""
        c = self._cols.get(key)
        if c is None:
            c = self._cols[key] = ([], [])
        return c

    def add(self, step: int, key: str, value: float) -> None:
        c = self._cols.get(key)
        if c is None:
            c = self._cols[key] = ([], [])
        c[0].append(step)
        c[1].append(value)

    def extend(self, key: str, steps: np.ndarray, values: np.ndarray) -> None:
        """Append many points of one key at once (vectorised parsers)."""
        if len(steps):
            c = self.column(key)
            c[0].extend(steps.tolist())
            c[1].extend(values.tolist())

    def record(self, step: int, values: dict[str, float]) -> None:
        for k, v in values.items():
            self.add(step, k, v)

    def new_run(self) -> None:
        """A new run starts in this file: only its points count from here (multi-run files show the last run)."""
        self.state["runs"] = self.state.get("runs", 1) + 1
        per_key = {k: len(c[0]) for k, c in self._cols.items()}
        for p in self.parts:
            for k, col in p.columns.items():
                per_key[k] = per_key.get(k, 0) + len(col)
        self.state["set_aside"] = int(self.state.get("set_aside", 0)) + sum(per_key.values())
        self.aside_keys = {k: self.aside_keys.get(k, 0) + n for k, n in per_key.items()}
        self._cols = {}
        self.parts = []
        self.started_new_run = True
        self.total_steps = None

    @property
    def set_aside(self) -> int:
        """Points of earlier runs in this file that this read set aside (only the last run is shown)."""
        return int(self.state.get("set_aside", 0))

    @property
    def runs(self) -> int:
        return int(self.state.get("runs", 1))

    def flush(self) -> None:
        """Turn the points gathered so far into compact arrays (keeps memory small on big reads)."""
        cols = {}
        for k, (s, v) in self._cols.items():
            if not s:
                continue
            try:
                steps = np.asarray(s, dtype=np.int64)
            except OverflowError:  # a step beyond int64 is junk, not a step
                keep = [i for i, x in enumerate(s) if -(1 << 63) <= x < (1 << 63)]
                steps = np.asarray([s[i] for i in keep], dtype=np.int64)
                v = [v[i] for i in keep]
            if len(steps):
                cols[k] = Column(steps, np.asarray(v, dtype=np.float64))
        if cols:
            self.parts.append(PointBatch(cols))
        self._cols = {}

    def build(self) -> PointBatch:
        self.flush()
        if not self.parts:
            return PointBatch()
        return self.parts[0] if len(self.parts) == 1 else PointBatch.concat(self.parts)


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

    def score(self, lines: list[str]) -> int:
        """How many sample lines look like this format."""
        search = self.detect_re.search
        return sum(1 for line in lines if search(line))

    def parse(self, text: str, em: Emitter) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def finish(self, em: Emitter) -> None:
        """Called at the end of a read: emit anything pending that is already complete (default: nothing)."""


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
