"""An epoch's summary line whose words name an average and a phase: the epoch's record.

deep-trainer prints, at each epoch's end, ``Avg Train Metrics --- Loss:   2.51`` and (with validation) ``Avg Eval
Metrics  --- Loss:   2.163`` (other metrics beside ``Loss``: ``Accuracy: 0.8, Error: 0.2, Loss: 0.3``), under its
``Epoch 3/8`` banner and after a tqdm bar whose description draws each batch's ``Loss``. A record with no position of
its own whose words before its first name say it is a mean (``Dialect.mean_words``) of a phase (a train word,
``Dialect.train_phase_words``, or an evaluation's, ``Dialect.eval_words``: the phase gives its role, the line's
``is_eval``) is the epoch's report (``Plan.epoch_report``): placed at the epoch of the banner above it whatever bars
the epoch drew between (``banners.records_under_banners``, as a table of splits), and the run's record of what the
bars beside it draw per batch (``engine._recorded_names``: the bars a live view of it, no point). Bounded: only a
line's first ``MAX_LEAD`` bytes are looked at, words found by a split, no regex.
"""

from __future__ import annotations

from .dialect import DIALECT
from .fields import Plan

MAX_LEAD = 256  # bytes of a line's lead looked at
MAX_WORDS = 8  # words of the lead: a report's words are few


def _lead_words(line: bytes, plan: Plan) -> list[str] | None:
    """The words of ``line`` before its first metric's name, lower case; None when no name is found in the lead."""
    head = line[:MAX_LEAD]
    at = [head.find(n.encode("utf-8", "replace")) for n in plan.metrics.values() if n]
    at = [a for a in at if a >= 0]
    if not at:
        return None
    lead = head[:min(at)].decode("latin-1").lower()
    words = "".join(c if c.isalpha() else " " for c in lead).split()
    return words if len(words) <= MAX_WORDS else None


def is_epoch_report(line: bytes, plan: Plan) -> bool:
    """Whether ``line`` (one of ``plan``'s lines) is an epoch's report (see the module's docstring)."""
    if not plan.metrics or plan.bar or plan.step is not None or plan.counter is not None or plan.epoch is not None:
        return False
    if b"%|" in line:
        return False  # (a bar's description)
    words = _lead_words(line, plan)
    if not words or not DIALECT.mean_words & set(words):
        return False
    phase = DIALECT.train_phase_words if not plan.is_eval else DIALECT.eval_words
    return bool(phase & set(words))
