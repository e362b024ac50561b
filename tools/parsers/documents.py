"""Whole-file JSON documents: Hugging Face ``trainer_state.json``, Megatron-LM golden values, and series kept as
parallel arrays.

They are small and rewritten in place, so they are re-read whole whenever the
file changes (the source returns ``reset=True`` with all points).

- ``trainer_state.json``: each ``log_history`` entry at its ``step``; train entries
  give ``loss``, ``learning_rate``, ``grad_norm``...; eval entries ``eval_*``; the
  final summary (``train_runtime``...) is skipped; ``max_steps`` is the total.
- golden values ``{metric: {start_step, end_step, step_interval, values: {"step": v}}}``:
  the STRING ``"nan"`` marks a step that was not recorded (the same steps are
  ``"nan"`` in the memory metrics too), so it is skipped; a JSON number NaN is kept.
- series as parallel arrays ``{metric: {"steps": [...], "values": [...], ...}}`` (Sacred's ``metrics.json``, the
  FileStorageObserver's record of ``log_scalar``; other members such as ``timestamps`` ignored): each value at the
  step at its index; a value that is no number (``null``, a string) or a step that is no whole number is skipped.
  With no value array, each array as long as the steps is a series of the member (netket's JSON log ``{"Energy":
  {"iters": [...], "Mean": [...], "Variance": [...]}}``: ``Energy`` its mean, ``Energy/Variance`` a statistic).

``read_fast`` reads both from the bytes with the C kernel when they have their common shape (``log_history`` entries
of numbers, golden values' digit steps in order): the same points, totals, config and cap errors as ``json.loads``
then ``parse_doc``, without a Python object per point; for anything else it says None and the caller reads as before.
"""

from __future__ import annotations

import json

import numpy as np

from .. import limits
from .base import DocumentFormat, Emitter
from .jsonl import _flatten
from .kernel import _KERNEL
from .text import to_step

_SKIP_KEYS = {"step", "total_flos"}


class TrainerStateFormat(DocumentFormat):
    name = "hf_trainer_state"

    def accepts(self, doc: object) -> bool:
        return isinstance(doc, dict) and isinstance(doc.get("log_history"), list)

    def parse_doc(self, doc: object, em: Emitter) -> None:
        assert isinstance(doc, dict)
        for entry in doc["log_history"]:
            if not isinstance(entry, dict) or "train_runtime" in entry:
                continue
            step = to_step(str(entry.get("step")))
            if step is None:
                continue
            rec: dict[str, float] = {}
            _flatten({k: v for k, v in entry.items() if k not in _SKIP_KEYS}, "", rec)
            em.record(step, rec)
        _trainer_totals(doc, em)


def _trainer_totals(doc: dict, em: Emitter) -> None:
    """A trainer state's total steps and settings (its members besides ``log_history``)."""
    total = doc.get("max_steps") or doc.get("global_step")
    if isinstance(total, (int, float)) and total > 0:
        em.total_steps = int(total)
    for key in ("num_train_epochs", "train_batch_size", "logging_steps", "eval_steps"):
        if isinstance(doc.get(key), (int, float)):
            em.config[key] = doc[key]


class GoldenValuesFormat(DocumentFormat):
    name = "megatron_golden_values"

    def accepts(self, doc: object) -> bool:
        return (isinstance(doc, dict) and bool(doc)
                and all(isinstance(v, dict) and isinstance(v.get("values"), dict) for v in doc.values()))

    def parse_doc(self, doc: object, em: Emitter) -> None:
        assert isinstance(doc, dict)
        for metric, spec in doc.items():
            for k, v in spec["values"].items():
                step = to_step(k)
                if step is None or isinstance(v, bool):
                    continue
                if isinstance(v, str):
                    continue  # "nan" string = step not recorded
                if isinstance(v, (int, float)):
                    em.add(step, metric, float(v))
        _golden_total(doc, em)


def _golden_total(doc: dict, em: Emitter) -> None:
    """Golden values' total steps: the largest ``end_step``."""
    end = None
    for spec in doc.values():
        if isinstance(spec.get("end_step"), int):
            end = max(end or 0, spec["end_step"])
    if end:
        em.total_steps = end


_ARRAY_STEPS = ("steps", "step", "iters")
_ARRAY_VALUES = ("values", "value")
# a member naming the series' own value among its statistics (a variational Monte Carlo driver's JSON log: ``{"Energy":
# {"iters": [...], "Mean": [...], "Variance": [...], "Sigma": [...], "R_hat": [...]}}``): read under the series' name
_OWN_VALUE = ("mean",)


SERIES_DEPTH = 2  # objects of series nested in a member (netket's ``info`` / ``solver_fallback``): this deep at most


def _series(metric: str, spec: object, depth: int = 0) -> list[tuple[str, list, list]] | None:
    """(name, steps, values) of each series of one member: its value array beside its steps (``steps`` / ``step``
    / ``iters``), or, with no value array, each array as long as the steps (a statistic of it, ``Energy/Variance``;
    its mean is the member's own value, ``Energy``); a member holding such members (``info``: ``{"solver_fallback":
    {"iters": ..., "value": ...}}``), theirs, named under it; None when ``spec`` is not such an object."""
    if not isinstance(spec, dict):
        return None
    steps = next((spec[k] for k in _ARRAY_STEPS if k in spec), None)
    if steps is None and spec and depth < SERIES_DEPTH:
        nested = [_series(f"{metric}/{k}", v, depth + 1) for k, v in spec.items()]
        return None if any(n is None for n in nested) else [x for n in nested if n for x in n]
    if not isinstance(steps, list):
        return None
    values = next((spec[k] for k in _ARRAY_VALUES if k in spec), None)
    if values is not None:
        return [(metric, steps, values)] if isinstance(values, list) and len(values) == len(steps) else None
    out = []
    for k, v in spec.items():
        if isinstance(v, dict) and isinstance(v.get("real"), list):
            v = v["real"]  # a complex array written as its parts (``{"real": [...], "imag": [...]}``): its real part
        if k not in _ARRAY_STEPS and isinstance(v, list) and len(v) == len(steps):
            out.append((metric if str(k).lower() in _OWN_VALUE else f"{metric}/{k}", steps, v))
    return out or None


class SeriesArraysFormat(DocumentFormat):
    name = "series_arrays"

    def accepts(self, doc: object) -> bool:
        return isinstance(doc, dict) and bool(doc) and all(_series(str(k), v) is not None for k, v in doc.items())

    def parse_doc(self, doc: object, em: Emitter) -> None:
        assert isinstance(doc, dict)
        for metric, spec in doc.items():
            got = _series(str(metric), spec)
            assert got is not None
            for name, steps, values in got:
                for s, v in zip(steps, values, strict=True):
                    if isinstance(v, bool) or not isinstance(v, (int, float)):
                        continue
                    if isinstance(s, float) and s.is_integer():
                        s = int(s)
                    if isinstance(s, int) and not isinstance(s, bool):
                        em.add(s, name, float(v))


class _Unread(Exception):
    """Not the common shape (or not valid JSON): the caller reads the document with ``json.loads``."""


def _loads(data: bytes, start: int, end: int) -> object:
    """A value of the document as ``json.loads`` of the whole decoded text gives it (the span starts and ends at an
    ASCII byte, so decoding it alone replaces bad UTF-8 as decoding the whole does)."""
    try:
        return json.loads(data[start:end].decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        raise _Unread from None


_Member = tuple[object, int, int, list | None]


def _members(data: bytes, spans: list | None) -> list[_Member]:
    """(key, value start, value end, the members of an object value or None), in order, keys repeated as written."""
    if spans is None:
        raise _Unread
    return [(_loads(data, ks, ke), vs, ve, sub) for ks, ke, vs, ve, sub in spans]


def read_fast(data: bytes, where: str) -> tuple[str, Emitter] | None:
    """(format name, points and totals) of a ``trainer_state.json`` or golden-values document of the common shape,
    read from its bytes in C: what ``json.loads``, the depth and ``log_history`` caps, ``document_format`` and
    ``parse_doc`` give; the caps' errors are raised as they would be. None without the kernel or for anything else
    (another shape, a nested or string metric value, an escape in a key, not valid JSON: the caller reads it as
    before and gives the same answer or error). ``limits.check_containers`` is the caller's, before."""
    if _KERNEL is None or not hasattr(_KERNEL, "doc_records"):
        return None
    try:
        top = _members(data, _KERNEL.doc_members(data, 0, len(data), 1))
        history = [m for m in top if m[0] == "log_history"]
        if history and data[history[-1][1]] == 0x5B:  # the log_history that counts is an array: a trainer state
            return _read_trainer_state(data, top, where)
        return _read_golden_values(data, top, where)
    except _Unread:
        return None


def _read_trainer_state(data: bytes, top: list[_Member], where: str) -> tuple[str, Emitter]:
    assert _KERNEL is not None
    doc: dict = {}
    read = None
    for key, vs, ve, _ in top:
        if key == "log_history" and data[vs] == 0x5B:
            read = _KERNEL.doc_records(data, vs, ve)  # every one, so that each is valid JSON
            if read is None:
                raise _Unread
            doc[key] = []  # entries of scalars nest no deeper than the depth cap
        else:
            doc[key] = _loads(data, vs, ve)
    assert read is not None
    entries, columns = read
    limits.check_depth(doc, where)
    limits.check_log_history_count(entries, where)
    em = Emitter()
    for key, steps, values in columns:
        em.extend(key.decode("ascii"), np.frombuffer(steps, dtype=np.int64), np.frombuffer(values, dtype=np.float64))
    _trainer_totals(doc, em)
    return TrainerStateFormat.name, em


class _Values:
    """A golden-values ``values`` object read in C: its columns (a leaf to ``check_depth``: it holds scalars only)."""

    __slots__ = ("steps", "values")

    def __init__(self, cols: tuple[bytearray, bytearray]):
        self.steps = np.frombuffer(cols[0], dtype=np.int64)
        self.values = np.frombuffer(cols[1], dtype=np.float64)


def _read_golden_values(data: bytes, top: list[_Member], where: str) -> tuple[str, Emitter]:
    assert _KERNEL is not None
    if not top:
        raise _Unread
    doc: dict = {}
    for metric, _vs, _ve, sub in top:
        if sub is None:  # not an object: not golden values
            raise _Unread
        spec: dict = {}
        for key, s, e, _ in _members(data, sub):
            if key == "values" and data[s] == 0x7B:
                cols = _KERNEL.doc_values(data, s, e)
                if cols is None:
                    raise _Unread
                spec[key] = _Values(cols)
            else:
                spec[key] = _loads(data, s, e)
        doc[metric] = spec
    if not all(isinstance(spec.get("values"), _Values) for spec in doc.values()):
        raise _Unread  # a spec whose values are not an object: not golden values
    limits.check_depth(doc, where)
    em = Emitter()
    for metric, spec in doc.items():
        em.extend(metric, spec["values"].steps, spec["values"].values)
    _golden_total(doc, em)
    return GoldenValuesFormat.name, em
