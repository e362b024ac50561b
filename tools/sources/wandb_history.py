"""A W&B run's history, page by page, into points: the rows of each ``HistoryPage`` answer read by the C kernel
(``history_rows``, tools/parsers/_kernel_wandb.c) into each metric's points, with the GIL released; the rows it leaves
(nested values, escapes, a float step, a repeated key, no JSON...) decoded and taken by Python exactly as the row by
row pass takes them (wandb_api.history_page_rows, then wandb_api._add_rows). The points, their order and the metrics'
names are that pass's (tests/test_wandb_history.py holds them equal on random and hostile rows). Without the kernel,
and for rows handed over one by one (``scan_history``), the rows go through wandb_api.add_history_rows as they did.

Memory: each metric's points as arrays (16 bytes a point, the builder's own), the page's line strings dropped once
read; a read of many pages never holds its rows as dicts."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from ..limits import MAX_METRICS, too_many_metrics
from ..parsers.kernel import _KERNEL
from ..points import BatchBuilder
from .wandb_api import _ignored, add_history_rows, history_page_rows, page_history, row_value

_TAKEN, _OLD, _NOSTEP, _SLOW = 0, 1, 2, 3  # the kernel's kind of each row
_INT64 = (-(1 << 63), 1 << 63)


def _step_of(row: Any) -> int | None:
    """A decoded row's step as a whole number; None for a row without one."""
    step = row.get("_step") if isinstance(row, dict) else None
    if isinstance(step, bool) or not isinstance(step, (int, float)) or not math.isfinite(step):
        return None
    return int(step)


class HistoryPoints:
    """The points of a read's history rows after ``after_step``, gathered page by page (``add_page``: the text lines
    of a HistoryPage answer; ``add_rows``: rows already decoded), then added to a builder (``into``)."""

    def __init__(self, after_step: int, use_kernel: bool = True) -> None:
        self.after = after_step
        self.rows = 0  # rows received (the index of the next one)
        self.resume: int | None = None  # the step of the last row received that has one (a retry reads after it)
        self._kernel = _KERNEL if use_kernel and -(1 << 63) <= after_step < (1 << 63) else None
        self._last = after_step
        self._pieces: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}  # key -> (rows, steps, values)
        self._first: dict[str, tuple[int, int]] = {}  # key -> (its first row with a point, its place in that row)
        self._slow: list[tuple[int, dict]] = []  # the rows Python takes (decoded), each with its index

    def add_page(self, page: Any) -> int:
        """The rows of one page - its lines (each a line of JSON text; anything else is no row), or the answer's text
        as W&B sent it (``{"project": {"run": {"history": [...]}}}``: the kernel reads it at once, else json and
        ``page_history``, LookupError for a run that is not there); returns how many rows came."""
        if isinstance(page, str):
            got = self._kernel.history_page(page, self.after) if self._kernel is not None else None
            if got is None:
                return self.add_page(page_history(json.loads(page)))
            *read, slow_lines = got
            return self._read(read, slow_lines)
        if not isinstance(page, list):
            return 0
        if self._kernel is None:
            return self.add_rows(history_page_rows(page))
        return self._read(self._kernel.history_rows(page, self.after), page)

    def _read(self, read: Any, lines: list) -> int:
        """The kernel's reading of a page's rows (history_rows), the rows it left taken from ``lines`` (each row's
        line, or the left rows' lines in order)."""
        kinds_b, steps_b, names, first_b, points = read
        kinds = np.frombuffer(kinds_b, dtype=np.uint8)
        steps = np.frombuffer(steps_b, dtype=np.int64)
        first = np.frombuffer(first_b, dtype=np.int64).reshape(-1, 2)
        base = self.rows
        for j, key in enumerate(names):
            rows_b, values_b = points[j]
            rows = np.frombuffer(rows_b, dtype=np.int64)
            self._add(key, (int(first[j, 0]) + base, int(first[j, 1])), rows + base, steps[rows],
                      np.frombuffer(values_b, dtype=np.float64))
        taken = steps[kinds == _TAKEN]
        if len(taken):
            self._last = max(self._last, int(taken.max()))
        decoded: dict[int, dict] = {}
        slow = np.flatnonzero(kinds == _SLOW)
        if len(slow):
            whole = len(lines) == len(kinds)  # each row's line, else the left rows' only
            for n, i in enumerate(slow.tolist()):
                row = history_page_rows([lines[i if whole else n]])
                if row:
                    decoded[i] = row[0]
            self._slow.extend((i + base, row) for i, row in decoded.items())
        for i in range(len(kinds) - 1, -1, -1):  # the last row with a step: a retry reads the steps after it
            if kinds[i] in (_TAKEN, _OLD):
                self.resume = int(steps[i])
                break
            step = _step_of(decoded.get(i))
            if step is not None:
                self.resume = step
                break
        self.rows += len(kinds)
        return len(kinds)

    def add_rows(self, rows: list[dict]) -> int:
        """Rows already decoded (``scan_history``'s, or a page's without the kernel); returns how many came."""
        for row in rows:
            step = _step_of(row)
            if step is not None:
                self.resume = step
        self._slow.extend((self.rows + i, row) for i, row in enumerate(rows))
        self.rows += len(rows)
        return len(rows)

    def _add(self, key: str, first: tuple[int, int], rows: np.ndarray, steps: np.ndarray, values: np.ndarray) -> None:
        pieces = self._pieces.get(key)
        if pieces is None:
            if len(self._pieces) >= MAX_METRICS:
                raise too_many_metrics()
            pieces = self._pieces[key] = []
            self._first[key] = first
        elif first < self._first[key]:
            self._first[key] = first
        pieces.append((rows, steps, values))

    def _take(self, rows: list[tuple[int, dict]]) -> None:
        """Decoded rows (each with its index) as the row-by-row pass takes them (wandb_api._add_rows)."""
        cols: dict[str, tuple[list[int], list[int], list[float], tuple[int, int]]] = {}
        after = self.after
        for index, row in rows:
            step = row.get("_step")
            if not isinstance(step, (int, float)) or isinstance(step, bool) or step <= after:
                continue
            step = int(step)
            self._last = max(self._last, step)
            inside = _INT64[0] <= step < _INT64[1]  # a step beyond int64 is junk: no point (points._arrays_of)
            for place, (key, value) in enumerate(row.items()):
                v = value if type(value) is float else row_value(value)
                if v is None or _ignored(key):
                    continue
                c = cols.get(key)
                if c is None:
                    c = cols[key] = ([], [], [], (index, place))
                if inside:
                    c[0].append(index)
                    c[1].append(step)
                    c[2].append(v)
        for key, (idx, st, vals, first) in cols.items():
            self._add(key, first, np.asarray(idx, dtype=np.int64), np.asarray(st, dtype=np.int64),
                      np.asarray(vals, dtype=np.float64))

    def into(self, builder: BatchBuilder) -> int:
        """Every point gathered, added to ``builder`` as the row-by-row pass adds them; returns the last step."""
        if not self._pieces:  # no row the kernel read had a point: the rows Python decoded, as they always went
            return max(add_history_rows([row for _, row in self._slow], builder, self.after), self._last)
        self._take(self._slow)
        for key in sorted(self._first, key=self._first.__getitem__):
            pieces = [p for p in self._pieces[key] if len(p[0])]
            if not pieces:
                builder.column(key)  # named, no point (a step beyond int64): the row pass names it too
                continue
            if len(pieces) == 1:
                builder.extend(key, pieces[0][1], pieces[0][2])
                continue
            rows = np.concatenate([p[0] for p in pieces])
            steps = np.concatenate([p[1] for p in pieces])
            values = np.concatenate([p[2] for p in pieces])
            if len(rows) > 1 and not (rows[1:] > rows[:-1]).all():
                order = np.argsort(rows, kind="stable")
                steps, values = steps[order], values[order]
            builder.extend(key, steps, values)
        return self._last

