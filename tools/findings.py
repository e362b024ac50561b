"""A finding: what one health signal measured, in a form the judge, the agent and the evidence share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from .encode import Num, jnum

OK, WARN, CRITICAL = "ok", "warn", "critical"
INFO = "info"  # context for a STOP/ESCALATE: what a signal saw before the event (neither ok nor a warning)


class FindingDict(TypedDict):
    """A finding as answered and stored: its signal and status, and (when known and room allows) the rest."""

    signal: str
    status: str  # ok / warn / critical / info (what a signal saw before the verdict's event)
    message: NotRequired[str]
    steps: NotRequired[list[int]]
    numbers: NotRequired[dict[str, Num]]
    concern: NotRequired[str]


@dataclass
class Finding:
    signal: str  # e.g. "nonfinite", "divergence", "loss_trend"
    status: str  # ok / warn / critical / info
    message: str  # one sentence
    steps: list[int] | None = None  # [first, last] step the finding covers
    numbers: dict[str, Num] = field(default_factory=dict)
    concern: str | None = None  # for warn/critical: plateau, overfitting, divergence, nonfinite, lr_schedule, ...
    sustained: bool = False  # critical only when the problem held over a long enough window by itself
    fresh: bool = False  # a new anomaly at the very end that may still resolve (e.g. an unrecovered spike)

    def to_dict(self) -> FindingDict:
        d: FindingDict = {"signal": self.signal, "status": self.status, "message": self.message}
        if self.steps:
            d["steps"] = self.steps
        if self.numbers:
            d["numbers"] = self.numbers
        if self.concern:
            d["concern"] = self.concern
        return d


def readable(x: float, digits: int = 3) -> str:
    """A number people read at a glance: ``digits`` significant digits, an order of magnitude (~1e11) when huge."""
    x = float(x)
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "+Inf" if x > 0 else "-Inf"
    if abs(x) >= 1e6:
        return f"~{x:.0e}".replace("e+0", "e").replace("e+", "e")
    return f"{x:.{digits}g}"


def times(x: float) -> str:
    """A ratio in words: "12x", "~1e11 x"."""
    return f"{readable(x)} x" if abs(x) >= 1e6 else f"{readable(x)}x"


def nums(**kw: float | int | None) -> dict[str, Num]:
    return {k: jnum(v, 4) for k, v in kw.items() if v is not None}


@dataclass(frozen=True)
class Accepted:
    """The concerns a reviewer last judged acceptable (decision CONTINUE), at which step, in which review."""

    kinds: tuple[str, ...]
    step: int | None
    review_id: str | None
