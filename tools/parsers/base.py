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

from ..points import BatchBuilder, PointBatch


class Emitter:
    """Collects the points of one read, the run count, the total steps and notes a parser finds."""

    __slots__ = ("builder", "state", "total_steps", "config", "started_new_run", "notes")

    def __init__(self, state: dict | None = None):
        self.builder = BatchBuilder()
        self.state: dict = dict(state or {})
        self.total_steps: int | None = None
        self.config: dict = {}
        self.started_new_run = False  # points from earlier runs in this file are void
        self.notes: list[str] = []

    def add(self, step: int, key: str, value: float) -> None:
        self.builder.add(step, key, value)

    def record(self, step: int, values: dict[str, float]) -> None:
        add = self.builder.add
        for k, v in values.items():
            add(step, k, v)

    def new_run(self) -> None:
        """A new run starts in this file: only its points count from here (multi-run files show the last run)."""
        self.state["runs"] = self.state.get("runs", 1) + 1
        self.builder = BatchBuilder()
        self.started_new_run = True
        self.total_steps = None

    @property
    def runs(self) -> int:
        return int(self.state.get("runs", 1))

    def build(self) -> PointBatch:
        return self.builder.build()


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
