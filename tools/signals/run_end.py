"""How the run ended: the exception its log ends with (read by ``tools/parsers/run_end.py``, kept with the read as
``RunInfo.ended``, on the view as ``RunView.ended``).

- An error naming a non-finite loss (``ArithmeticError: NaN detected in train loss``, ``FloatingPointError: Loss is
  nan``, a backward that "returned nan values"): the run died of a non-finite loss, which persists by definition
  (nothing after it): critical, concern ``nonfinite`` (the judge STOPs, the diagnosis finds its cause). So does the
  training's own guard stopping it on its loss (``Training stopping ... because training loss diverged.``).
- Any other error: a warning (concern ``run_ended_with_error``), its type and message in one sentence. The judge
  (``judge.ended_with_error``) makes a CONTINUE or a WAIT on it an ESCALATE: a dead run is no healthy one. Not when
  the run had reached its planned length, nor for an end from outside the training (``Dialect.outside_ends``: an
  interrupt, a pipe closed at teardown): said, the verdict kept.
"""

from __future__ import annotations

from ..findings import CRITICAL, OK, WARN, Finding
from ..parsers.dialect import DIALECT
from ..parsers.run_end import STOP_TYPE
from ..rundata import clean, steers
from .view import RunView

SIGNAL = "run_end"
CONCERN = "run_ended_with_error"
PLAN_DONE = 0.99  # a run at this share of its planned length or more had finished its training when it ended


def _said(ended: dict) -> str:
    """``Type: message (line N)``: the type a dotted name (checked when read), the message run text already made safe
    (redacted, masked, capped), withheld when it reads as instructions."""
    kind = clean(ended.get("type") or "an exception", 120)
    message = str(ended.get("message") or "")
    if message and steers(message):
        message = "(its message is withheld: it reads as instructions)"
    line = ended.get("line")
    where = f" (line {line})" if isinstance(line, int) else ""
    return f"{kind}: {message}{where}" if message else f"{kind}{where}"


def outside(ended: dict) -> bool:
    """An end from outside the training: a person's interrupt, a pipe or connection closed at teardown."""
    return str(ended.get("type") or "").rsplit(".", 1)[-1] in DIALECT.outside_ends


def check(view: RunView) -> list[Finding]:
    ended = view.ended
    if not ended:
        return []
    step = view.last_step
    steps = [int(step), int(step)] if step is not None else None
    line = ended.get("line")
    numbers: dict = {"line": line} if isinstance(line, int) else {}
    if ended.get("nonfinite"):
        after = f" after step {step}" if step is not None else ""
        died = "the training stopped itself on its loss" if ended.get("type") == STOP_TYPE else \
            "the run died of a non-finite loss"
        return [Finding(SIGNAL, CRITICAL, f"the log ends with {_said(ended)}: {died}{after}",
                        steps, numbers, concern="nonfinite", sustained=True)]
    why = ""
    if outside(ended):
        why = ": an end from outside the training, not its health"
    elif finished(view):
        why = ": after its planned length"
    return [Finding(SIGNAL, WARN, f"the run ended with {_said(ended)}{why}", steps, numbers, concern=CONCERN)]


def finished(view: RunView) -> bool:
    """Whether the run had reached its planned length (when one is known)."""
    return view.fraction is not None and view.fraction >= PLAN_DONE


def asks(f: Finding, view: RunView) -> bool:
    """Whether the run-end warning ``f`` is a question for the user: a dead run that had not finished, ended from
    inside its training."""
    return f.signal == SIGNAL and f.status == WARN and view.ended is not None and not outside(view.ended) \
        and not finished(view)


def amend(findings: list[Finding]) -> list[Finding]:
    """The findings with the non-finite signal's "all finite" left out when the run died of a non-finite loss (its
    logged values were finite; the run's end was not)."""
    if not any(f.signal == SIGNAL and f.status == CRITICAL for f in findings):
        return findings
    return [f for f in findings if not (f.signal == "nonfinite" and f.status == OK)]
