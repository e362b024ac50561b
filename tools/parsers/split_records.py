"""A JSON record nested one level under a split's key is that split's record (issue 32, fixdeeppavlov).

deeppavlov's trainer prints, between its logger lines and tqdm fragments, one JSON line a report:
``{"train": {"eval_examples_count": 32, "metrics": {"accuracy": 0.28}, "epochs_done": 1, "batches_seen": 10,
"loss": 1.08}}`` and ``{"valid": {... "metrics": {...}, "epochs_done": 1, "batches_seen": 10, "impatience": 1}}``.
The shape in general: a record whose only key is a split's word (``Dialect.record_splits``: train, valid, test,
eval ...) holding a dict. Its ``metrics`` sub-dict's names take the split's prefix (none for train, ``val_`` for a
validation), its other fields keep the split's path (``train/loss``) as before; its counters, found by name
(``Dialect.record_batch_counters``, ``record_epoch_counters``), are its position and no values.

The step: a run whose records come one an epoch is numbered by the epoch counter, as the library counts it
(``epochs_done``); a run where some split reports several times within an epoch (its epoch counter stays while its
batch counter moves), or whose train records skip epochs, by the batch counter, the finest that moves. Epochs are
the default until a record shows otherwise; then the fact is pinned (``state["pin"]["split_step"]``) and the file
read again from its start, so the same bytes read the same at any read size (once a file: batches never go back to
epochs). A split's record with no counter (the final test report) is at the last step placed."""

from __future__ import annotations

import math
from collections.abc import Callable

from .dialect import DIALECT


def _counter(inner: dict, names: tuple[str, ...]) -> int | None:
    """The first counter of ``names`` the record holds as a finite whole number."""
    for k in names:
        v = inner.get(k)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        if isinstance(v, float) and not (math.isfinite(v) and v.is_integer()):
            continue
        if -(1 << 62) < v < (1 << 62):
            return int(v)
    return None


def split_of(obj: dict) -> tuple[str, dict] | None:
    """(split's key, its dict) when ``obj`` is one split's record, else None."""
    if len(obj) != 1:
        return None
    (key, inner), = obj.items()
    if not isinstance(inner, dict) or str(key).lower() not in DIALECT.record_splits:
        return None
    return str(key), inner


def read(obj: dict, st: dict, flatten: Callable[[dict, str, dict], None]) -> tuple[int | None, dict[str, float]] | None:
    """(step, values) of a split's record, its values flattened by ``flatten`` (jsonl's); step None: no counter and
    no step placed yet. None when ``obj`` is no split's record. Sets ``st["reread"]`` (and pins ``split_step``) when
    this record shows the run counts in batches after epochs were used."""
    got = split_of(obj)
    if got is None:
        return None
    key, inner = got
    split = key.lower()
    prefix = DIALECT.record_splits[split]
    counters = (*DIALECT.record_batch_counters, *DIALECT.record_epoch_counters)
    rec: dict[str, float] = {}
    for k, v in inner.items():
        if k in counters:
            continue
        if k == "metrics" and isinstance(v, dict):
            flatten(v, prefix, rec)
        else:
            flatten({k: v}, key + "/", rec)
    e = _counter(inner, DIALECT.record_epoch_counters)
    b = _counter(inner, DIALECT.record_batch_counters)
    mode = (st.get("pin") or {}).get("split_step", "epoch")
    last = st.setdefault("split_last", {})
    prev = last.get(split)
    if prev is not None and mode == "epoch" and None not in (e, b, prev[0], prev[1]) and b != prev[1]:
        # the batch counter moved: several reports in one epoch (the epoch stays), or train reports skipping epochs
        if e == prev[0] or (prefix == "" and e != prev[0] + 1):
            st.setdefault("pin", {})["split_step"] = mode = "batch"
            st["reread"] = True
    if prev is not None or len(last) < 16:  # at most 16 splits' counters kept
        last[split] = [e, b]
    step = (e if e is not None else b) if mode == "epoch" else (b if b is not None else e)
    if step is None:
        step = st.get("split_step_at")
    else:
        st["split_step_at"] = step
    return step, rec
