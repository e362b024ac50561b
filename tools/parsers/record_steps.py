"""A JSON record's step when the records are a logger's events, not a metrics file (issue 32, fixlk).

A logger's JSON renderer (structlog's ``JSONRenderer``, python-json-logger, loguru's ``serialize=True``) writes every
event of a run as one object a line: the events that carry no count come first (``{"event": "creating data set ...",
"level": "info", ...}``, a warning with its ``lineno``, ``preparing to train`` with a ``size``), then the training's
own records, each holding its count (lenskit's ``{"epoch": 3, "loss": 0.648, "event": "finished epoch", "logger":
"lenskit.training", "time": "0.0s", "timestamp": "..."}``). The step key (the first of
``Dialect.record_step_keys`` a record holds: ``step``, ``iteration``, ``iter``, ``epoch``, ``round``...) is therefore
chosen on the first record that holds one, not on the first record read: the records before it are read at their
index (their position among the metric records, as a file with no step key at all is), and the choice stays open
until then. It is made once: the first record holding a step key makes it its step key unless one of its metrics was
already read at an index (a series keeps one numbering: then no step key, as before), a logger's numbers of every
record (``Dialect.record_location_keys``: python-json-logger's ``lineno``, ``process``) aside, and where the step key
is nested under a logger's prefix of a program's values (loguru's ``serialize``: ``record/extra/epoch``), the logger's
own fields outside it (``record/line``, ``record/time/timestamp``) aside. A ``time`` or a
``timestamp`` is never a step (no step key names one; a stamp's text reads as no number).

Causal and bounded: the decision needs only the records before it (``index_keys``: the names read at an index while
the choice is open, the 200 first in sorted order, kept in the read's state), so a read in pieces decides at the same
record as a read whole; the kernel's block path (``jsonl._columns``) hands the record pass the records up to the
first that holds a step key while the choice is open (``first_stepped``), once per file."""

from __future__ import annotations

from collections.abc import Collection, Iterable

import numpy as np

from .dialect import DIALECT

STEP_KEYS = DIALECT.record_step_keys
_LOCATION = DIALECT.record_location_keys  # a logger's numbers of every record (a line number, a process id)
_EXTRA = DIALECT.record_extra_prefixes  # where a logger nests a program's values (loguru's record/extra/)
_MAX_KEYS = 200


def is_open(st: dict) -> bool:
    """Whether the step key is still to be chosen (no record holding a step key has been read)."""
    return not st.get("step_key") and not st.get("step_closed")


def first_key(keys: Collection[str]) -> str:
    """The step key a record of ``keys`` holds: the first of ``STEP_KEYS`` among them, else the first under a logger's
    prefix of a program's values (``Dialect.record_extra_prefixes``: loguru's ``record/extra/epoch``), else ""."""
    key = next((k for k in STEP_KEYS if k in keys), "")
    if key or not any("/" in k for k in keys):
        return key
    return next((p + k for p in _EXTRA for k in STEP_KEYS if p + k in keys), "")


def _training_names(rec: Collection[str], key: str) -> set[str]:
    """The names of a record holding the step key ``key`` that may be series of the training: those beside it under
    its prefix (a logger's own fields outside a program's values are not), a logger's numbers of every record
    aside."""
    prefix = key[:key.rfind("/") + 1]
    return {n for n in rec if n != key and n.startswith(prefix) and n not in _LOCATION}


def choose(st: dict, rec: Collection[str]) -> str:
    """The step key once the record of names ``rec`` (its numbers, the total's taken out) is read, kept in ``st``: the
    one chosen before; else, while open, the record's own step key (closing the choice) unless one of the record's
    metrics was read at an index before (a series keeps its numbering: no step key, closed); else "" (open)."""
    key = st.get("step_key") or ""
    if key or st.get("step_closed"):
        return key
    key = first_key(rec)
    if key and set(st.get("index_keys", ())) & _training_names(rec, key):
        key = ""
        st["step_closed"] = True  # no step key, for good (a chosen one closes the choice by itself)
    st["step_key"] = key
    return key


def read_at_index(st: dict, names: Iterable[str]) -> None:
    """Note the metric names of records read at their index while the choice is open (bounded: the 200 first in
    sorted order, whatever the pieces they come in)."""
    if is_open(st):
        st["index_keys"] = sorted(set(st.get("index_keys", ())) | set(names))[:_MAX_KEYS]


def peek(st: dict, keys: Collection[str]) -> str | None:
    """The step key ``choose`` gives for a first record of ``keys`` in a block path, without reading it; None when it
    depends on the records read at an index before (the block is then the record pass's)."""
    key = st.get("step_key") or ""
    if key or st.get("step_closed"):
        return key
    key = first_key(keys)
    if key and st.get("index_keys"):
        return None
    return key


def first_stepped(keys: list[str], num: np.ndarray) -> int | None:
    """The first row of a kernel block (``num``: rows x columns ``keys``, where a cell holds a number) holding a
    number under a step key; None if none does."""
    cols = [j for j, k in enumerate(keys) if k in STEP_KEYS]
    if not cols:
        return None
    rows = np.flatnonzero(num[:, cols].any(axis=1))
    return int(rows[0]) if len(rows) else None
