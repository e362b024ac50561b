"""Columnar metric points: what every source yields, and what the store caches.

A point is (step, key, value). NaN and Inf are values, kept as evidence; a
metric that was not logged at a step simply has no point there.
"""

from __future__ import annotations

import json
import math
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from .limits import MAX_METRICS, too_many_metrics


@dataclass
class Column:
    steps: np.ndarray  # int64, in arrival order
    values: np.ndarray  # float64, NaN/Inf kept

    def __len__(self) -> int:
        return len(self.steps)


@dataclass
class PointBatch:
    """Points per metric key, in the order they were read."""

    columns: dict[str, Column] = field(default_factory=dict)

    @property
    def n_points(self) -> int:
        return sum(len(c) for c in self.columns.values())

    def is_empty(self) -> bool:
        return self.n_points == 0

    def max_step(self) -> int | None:
        best = None
        for col in self.columns.values():
            if len(col):
                m = int(col.steps.max())
                best = m if best is None else max(best, m)
        return best

    def extend(self, other: PointBatch) -> PointBatch:
        """A new batch with ``other``'s points after this one's."""
        out: dict[str, Column] = {}
        for key in list(self.columns) + [k for k in other.columns if k not in self.columns]:
            a, b = self.columns.get(key), other.columns.get(key)
            if a is None:
                out[key] = b  # type: ignore[assignment]
            elif b is None:
                out[key] = a
            else:
                out[key] = Column(np.concatenate([a.steps, b.steps]), np.concatenate([a.values, b.values]))
        return PointBatch(out)

    @staticmethod
    def concat(batches: list[PointBatch]) -> PointBatch:
        keys: list[str] = []
        for b in batches:
            keys.extend(k for k in b.columns if k not in keys)
        out = {}
        for key in keys:
            parts = [b.columns[key] for b in batches if key in b.columns]
            if len(parts) == 1:
                out[key] = parts[0]
            else:
                out[key] = Column(np.concatenate([p.steps for p in parts]), np.concatenate([p.values for p in parts]))
        return PointBatch(out)

    # -- serialisation for the store cache -------------------------------------------------
    # Raw little-endian arrays behind a JSON header: loading a million-step cache is a memcpy, not a
    # decompression (zlib cost ~0.4 s per million points of four metrics).
    MAGIC = b"PB1\0"

    def to_bytes(self) -> bytes:
        keys = list(self.columns)
        header = json.dumps({"keys": keys, "n": [len(self.columns[k]) for k in keys]}).encode()
        parts = [struct.pack("<I", len(header)), header]
        for k in keys:
            c = self.columns[k]
            parts.append(np.ascontiguousarray(c.steps, dtype="<i8").tobytes())
            parts.append(np.ascontiguousarray(c.values, dtype="<f8").tobytes())
        return PointBatch.MAGIC + b"".join(parts)

    @staticmethod
    def from_bytes(blob: bytes) -> PointBatch:
        raw = memoryview(blob)[4:] if blob[:4] == PointBatch.MAGIC else zlib.decompress(blob)
        (hlen,) = struct.unpack_from("<I", raw, 0)
        header = json.loads(bytes(raw[4 : 4 + hlen]))
        pos = 4 + hlen
        cols = {}
        for key, n in zip(header["keys"], header["n"], strict=True):
            steps = np.frombuffer(raw, dtype="<i8", count=n, offset=pos).astype(np.int64, copy=False)
            pos += 8 * n
            values = np.frombuffer(raw, dtype="<f8", count=n, offset=pos).astype(np.float64, copy=False)
            pos += 8 * n
            cols[key] = Column(steps, values)
        return PointBatch(cols)


class BatchBuilder:
    """Accumulates points (the parsers' and readers' hot path), then builds a PointBatch.

    Points gather in per-key lists (``add``) or numpy pieces (``extend``, kept as they are); ``flush`` turns them
    into numpy columns (16 bytes a point), so a big read stays small between blocks.
    """

    __slots__ = ("_arrays", "_cols", "_names", "parts")

    def __init__(self) -> None:
        self._cols: dict[str, tuple[list[int], list[float]]] = {}  # every key seen since the flush, in order
        self._arrays: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}  # pieces from extend, before the lists
        self.parts: list[PointBatch] = []  # flushed blocks
        self._names: set[str] = set()  # every key of this read: at most limits.MAX_METRICS

    def _new(self, key: str) -> tuple[list[int], list[float]]:
        """The lists of a key not gathered since the flush; past ``MAX_METRICS`` names a one-line BadInput."""
        names = self._names
        if key not in names:
            if len(names) >= MAX_METRICS:
                raise too_many_metrics()
            names.add(key)
        c = self._cols[key] = ([], [])
        return c

    def column(self, key: str) -> tuple[list[int], list[float]]:
        """The (steps, values) lists of ``key`` for hot loops; valid until ``flush``."""
        c = self._cols.get(key)
        if c is None:
            c = self._new(key)
        return c

    def add(self, step: int, key: str, value: float) -> None:
        c = self._cols.get(key)
        if c is None:
            c = self._new(key)
        c[0].append(step)
        c[1].append(value)

    def add_row(self, step: int, pairs: Iterable[tuple[str, float]]) -> None:
        """``add`` for each (key, value) of one step."""
        cols = self._cols
        for key, value in pairs:
            c = cols.get(key)
            if c is None:
                c = self._new(key)
            c[0].append(step)
            c[1].append(value)

    def record(self, step: int, values: dict[str, float]) -> None:
        """``add`` for each key and value of one step."""
        self.add_row(step, values.items())

    def extend(self, key: str, steps: np.ndarray, values: np.ndarray) -> None:
        """Append many points of one key at once (vectorised parsers): kept as arrays, after the key's points so far."""
        if len(steps):
            c = self.column(key)
            pieces = self._arrays.setdefault(key, [])
            if c[0]:  # points added one by one came first: they stay first
                pieces.append(_arrays_of(c[0], c[1]))
                c[0].clear()
                c[1].clear()
            pieces.append((np.asarray(steps, dtype=np.int64), np.asarray(values, dtype=np.float64)))

    def _pending(self, key: str) -> int:
        return len(self._cols[key][0]) + sum(len(s) for s, _ in self._arrays.get(key, ()))

    def __len__(self) -> int:
        return sum(self._pending(k) for k in self._cols) + sum(p.n_points for p in self.parts)

    def flush(self) -> None:
        """Turn the points gathered so far into compact arrays (keeps memory small on big reads)."""
        cols = {}
        for k, (s, v) in self._cols.items():
            pieces = self._arrays.get(k, [])
            if s:
                pieces = pieces + [_arrays_of(s, v)]
            pieces = [p for p in pieces if len(p[0])]
            if not pieces:
                continue
            if len(pieces) == 1:
                cols[k] = Column(*pieces[0])
            else:
                cols[k] = Column(np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces]))
        if cols:
            self.parts.append(PointBatch(cols))
        self._cols = {}
        self._arrays = {}

    def build(self) -> PointBatch:
        self.flush()
        if not self.parts:
            return PointBatch()
        return self.parts[0] if len(self.parts) == 1 else PointBatch.concat(self.parts)


def _arrays_of(steps: list[int], values: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Lists of points as (int64 steps, float64 values); a step beyond int64 is junk, not a step: dropped."""
    try:
        return np.asarray(steps, dtype=np.int64), np.asarray(values, dtype=np.float64)
    except OverflowError:
        keep = [i for i, x in enumerate(steps) if -(1 << 63) <= x < (1 << 63)]
        return (np.asarray([steps[i] for i in keep], dtype=np.int64),
                np.asarray([values[i] for i in keep], dtype=np.float64))


_NAN_WORDS = {"nan", "-nan", "+nan", "nan%", "na n"}
_POS_INF = {"inf", "+inf", "infinity", "+infinity", "∞"}
_NEG_INF = {"-inf", "-infinity", "-∞"}


def parse_number(text: str) -> float | None:
    """A float from any common spelling (``1e-3``, ``2.7E+00``, ``nan``, ``NaN``, ``-inf``, ``Infinity``);
    None when ``text`` is not a number."""
    t = text.strip().strip(",;").lower()
    if not t:
        return None
    try:
        return float(t)
    except ValueError:
        pass
    if t in _NAN_WORDS:
        return math.nan
    if t in _POS_INF:
        return math.inf
    if t in _NEG_INF:
        return -math.inf
    return None
