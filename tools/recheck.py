"""A run with nothing new since a check that already saw nothing new: that check's judgement stands.

A many-run check (tools/assess_runs.py) re-judges every run each time; for a run whose source added nothing the
judgement is a fixed point once one check has seen nothing new: the same points, the same arguments and config,
the same reviews, and the previous check at the same last step give the same findings and verdict (the staleness
finding says "no new steps since the last check" both times; the "twice in a row" rules only count checks on newer
data). Only the count of checks in a row without a loss moves, so a run without one is always judged in full.
``inputs_key`` names those inputs; ``judge_read`` (tools/assess.py) stores it with a judgement made on nothing new
(``steady``), and ``steady_record`` finds that judgement again. A run's own ``assess_run`` always judges in full.
"""

from __future__ import annotations

import hashlib
import json

from .config import Config
from .judge import NO_LOSS, UNREACHABLE
from .reading import RunData
from .store import Store

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
    payload["assessment_id"] = store.add_assessment(data.run_key, str(record.get("verdict")), data.frame.last_step,
                                                    payload)
    return payload
