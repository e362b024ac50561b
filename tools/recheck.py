"""A run with nothing new since a check that already saw nothing new: that check's judgement stands.

A many-run check (tools/assess_runs.py) re-judges every run each time; for a run whose source added nothing the
judgement is a fixed point once one check has seen nothing new: the same points, the same arguments and config,
the same reviews, and the previous check at the same last step give the same findings and verdict (the staleness
finding says "no new steps since the last check" both times; the "twice in a row" rules only count checks on newer
data). Only the count of checks in a row without a loss moves, so a run without one is always judged in full.
``inputs_key`` names those inputs; ``judge_read`` (tools/assess.py) stores it with a judgement made on nothing new
(``steady``), and ``steady_record`` finds that judgement again. A run's own ``assess_run`` always judges in full.

A local log file goes quicker still (``steady_quick``): the steady judgement also keeps the file's identity, size
and modification time (``quick_mark``: only when the cursor has read every byte as complete lines and the file was
last written ``SETTLED_S`` ago or more, so a later write moves its time) and a digest of what else the read would
start from (the stored cursor, the latest review, the config, ``total_steps``). When all of them are the same, the
read would find nothing and hand the judgement the very same data: the judgement stands without reading the run or
building its frame, and the sweep's curves of the run come from the store (``steady_curves``, written by the check
that made the judgement) - a stat and a few small lookups a run. The same holds for a derivable judgement made on
new data: the first check on nothing new takes it (``on_nothing_new``) without a read.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat as stat_mod
import time
from dataclasses import dataclass

from .config import Config
from .errors import TrainingCheckError
from .judge import CONTINUE, NO_LOSS, UNREACHABLE, WAIT
from .reading import RunData, resolve_ref
from .store import Store
from .sweep.collect import RunObjectives, curves_from_bytes

SETTLED_S = 2.0  # a file last written this long ago: a later write gives it a later modification time
RECHECK_VERSION = 1  # bump when what a judgement reads changes: stored fixed points of older versions never match


def inputs_key(data: RunData, *, store: Store, config: Config, total_steps: int | None) -> str | None:
    """A digest of everything a judgement of ``data`` reads besides the earlier checks; None when unknown."""
    state = store.source_state(data.source.id)
    if state is None:
        return None
    review = store.recent_reviews(data.run_key, 1)
    parts = [RECHECK_VERSION, data.source.kind, data.source.id, state[0], state[1], data.frame.last_step,
             data.fallback_reason, data.notes, data.chosen, data.info.to_dict(), total_steps, repr(config),
             review[0].get("review_id") if review else None]
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=repr).encode()).hexdigest()


def is_steady(data: RunData, verdict: str, summary: str, previous_step: int | None, last_step: int | None) -> bool:
    """Whether a judgement is a fixed point: made on nothing new, after a check at the same last step, with a loss."""
    return (data.new_points == 0 and previous_step is not None and previous_step == last_step
            and verdict != UNREACHABLE and NO_LOSS not in summary)


DERIVABLE = (CONTINUE, WAIT)  # verdicts whose judgement reads the earlier checks only through the staleness finding


def derivable(verdict: str, summary: str) -> bool:
    """Whether a judgement on new data gives the next one on the same data by its staleness finding alone: a
    CONTINUE or WAIT with a loss (no diagnosis; the judge's only other use of the earlier checks, "flagged on the
    previous check too", can only make a STOP, and a check after one at the same step never counts it)."""
    return verdict in DERIVABLE and NO_LOSS not in summary


def derived_record(data: RunData, *, store: Store, config: Config, total_steps: int | None) -> dict | None:
    """The judgement of ``data`` (nothing new) when the last check judged the very same inputs on new data
    (``derivable``; its mark holds their ``inputs_key``): that check's record with the staleness finding a check
    on nothing new makes - what judging again gives -, marked steady and stored as this check's; else None."""
    if data.new_points:
        return None
    last = store.recent_assessments(data.run_key, 1)
    if not last:
        return None
    record = last[0]
    mark = record.get("recheck")
    if not isinstance(mark, dict) or mark.get("steady") is not False or "as_of_step" in record \
            or "baseline" in record or not derivable(str(record.get("verdict")), str(record.get("summary") or "")):
        return None
    step = (record.get("progress") or {}).get("step")
    if step is None or step != data.frame.last_step:
        return None
    key = inputs_key(data, store=store, config=config, total_steps=total_steps)
    if key is None or mark.get("key") != key:
        return None
    payload = on_nothing_new(record, step, key, quick_mark(data, store=store, config=config,
                                                           total_steps=total_steps))
    if payload is None:
        return None
    payload["assessment_id"] = store.add_assessment(data.run_key, str(record.get("verdict")), data.frame.last_step,
                                                    payload)
    return payload


def on_nothing_new(record: dict, step: int, key: str, quick: dict | None) -> dict | None:
    """A derivable judgement's record as the next check on the same data makes it: the staleness finding of a check
    on nothing new at ``step``, marked steady (``key``, ``quick``); None when the record has not exactly one
    staleness finding."""
    from .signals.staleness import nothing_new

    findings = record.get("findings")
    if not isinstance(findings, list) or sum(1 for f in findings if isinstance(f, dict)
                                             and f.get("signal") == "staleness") != 1:
        return None
    payload = {k: v for k, v in record.items() if k not in ("assessment_id", "created_at")}
    payload["findings"] = [nothing_new(step).to_dict() if isinstance(f, dict) and f.get("signal") == "staleness"
                           else f for f in findings]
    payload["recheck"] = {"steady": True, "key": key, "quick": quick}
    return payload


def steady_record(data: RunData, *, store: Store, config: Config, total_steps: int | None) -> dict | None:
    """The run's last judgement when it still stands for ``data`` (nothing new, a fixed point of the same inputs),
    stored again as this check's (a new id and time, as a full check would); else None."""
    if data.new_points:
        return None
    last = store.recent_assessments(data.run_key, 1)
    if not last:
        return None
    record = last[0]
    mark = record.get("recheck")
    if not isinstance(mark, dict) or not mark.get("steady") or "as_of_step" in record or "baseline" in record:
        return None
    if mark.get("key") != inputs_key(data, store=store, config=config, total_steps=total_steps):
        return None
    payload = {k: v for k, v in record.items() if k not in ("assessment_id", "created_at")}
    payload["recheck"] = {**mark, "quick": quick_mark(data, store=store, config=config, total_steps=total_steps)}
    payload["assessment_id"] = store.add_assessment(data.run_key, str(record.get("verdict")), data.frame.last_step,
                                                    payload)
    return payload


def _quick_key(source_id: str, state: tuple[str, int], stat: list[int], run_key: str, *, store: Store,
               config_text: str, total_steps: int | None) -> str:
    review = store.recent_reviews(run_key, 1)
    parts = [RECHECK_VERSION, source_id, state[0], state[1], stat, total_steps, config_text,
             review[0].get("review_id") if review else None]
    return hashlib.sha256(json.dumps(parts, default=repr).encode()).hexdigest()


def _file_stat(path: str) -> list[int] | None:
    """(device, inode, size, mtime in ns) of a regular file; None otherwise."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns] if stat_mod.S_ISREG(st.st_mode) else None


def quick_mark(data: RunData, *, store: Store, config: Config, total_steps: int | None) -> dict | None:
    """What lets ``steady_quick`` find a steady judgement of ``data`` again without reading: a local log file read
    to its end in complete lines, last written ``SETTLED_S`` ago or more; None for any other source."""
    path = data.ref.path
    if data.ref.kind != "local" or data.source.kind != "log" or not path or data.source.id != f"log:{path}" \
            or data.fallback_reason:
        return None
    state = store.source_state(data.source.id)
    st = _file_stat(path)
    if state is None or st is None or time.time() - st[3] / 1e9 < SETTLED_S:
        return None
    try:
        cursor = json.loads(state[0])
    except ValueError:
        return None
    if not isinstance(cursor, dict) or cursor.get("kind") != "lines" or cursor.get("offset") != st[2]:
        return None  # an unterminated tail, or a document: what a read would say may change with time
    return {"source": data.source.id, "path": path,
            "key": _quick_key(data.source.id, state, st, data.run_key, store=store, config_text=repr(config),
                              total_steps=total_steps)}


@dataclass(frozen=True)
class Standing:
    """A steady judgement found again without a read: the record to store again, and the sweep's curves of the run
    (None when none were asked for)."""

    run_key: str
    record: dict
    curves: RunObjectives | None


def steady_quick(run: str, *, store: Store, config: Config, total_steps: int | None, curves: bool,
                 config_text: str | None = None) -> Standing | None:
    """The run's last judgement when it stands by ``quick_mark`` (its file, cursor, review, config and
    ``total_steps`` unchanged) - or, when that judgement was made on new data and is ``derivable``, the one the
    next check on the same data makes (``on_nothing_new``) - with its stored curves when ``curves``; else None (the
    run is read and judged)."""
    try:
        ref = resolve_ref(run, config)
    except TrainingCheckError:
        return None
    if ref.kind != "local":
        return None
    last = store.recent_assessments(ref.key, 1)
    if not last:
        return None
    record = last[0]
    mark = record.get("recheck")
    if not isinstance(mark, dict):
        return None
    derive = mark.get("steady") is False  # a judgement on new data this check takes on nothing new (derived_record)
    step = (record.get("progress") or {}).get("step")
    if derive and (step is None or not derivable(str(record.get("verdict")), str(record.get("summary") or ""))):
        return None
    quick = mark.get("quick") if mark.get("steady") or derive else None
    if not isinstance(quick, dict) or quick.get("path") != ref.path or "as_of_step" in record \
            or "baseline" in record:
        return None
    sid = str(quick.get("source"))
    st = _file_stat(ref.path or "")
    state = store.source_state(sid)
    if st is None or state is None or quick.get("key") != _quick_key(
            sid, state, st, ref.key, store=store, config_text=repr(config) if config_text is None else config_text,
            total_steps=total_steps):
        return None
    objectives = None
    if curves:
        blob = store.get_curves(sid, str(quick["key"]))
        objectives = curves_from_bytes(run, blob) if blob is not None else None
        if objectives is None:
            return None
    payload = on_nothing_new(record, int(step), str(mark.get("key")), quick) if derive and step is not None else \
        {k: v for k, v in record.items() if k not in ("assessment_id", "created_at")}
    return Standing(ref.key, payload, objectives) if payload is not None else None
