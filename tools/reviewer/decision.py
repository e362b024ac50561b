"""The reviewer's answer: exactly one JSON object {"decision": STOP|CONTINUE|WAIT, "reason": "..."}.

The reply is parsed strictly and on its own: nothing in the prompt (log lines
included) can change what counts as a decision. Anything but one such object
is an :class:`InvalidReply`, which the caller retries once.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..errors import ReviewerError

DECISIONS: tuple[str, ...] = ("STOP", "CONTINUE", "WAIT")
MAX_REASON_CHARS = 2000
MAX_REPLY_CHARS = 20000

# The JSON schema sent as structured output (strict mode: every property required, nothing else allowed).
DECISION_SCHEMA_NAME = "training_review_decision"
DECISION_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "decision": {"type": "string", "enum": list(DECISIONS),
                     "description": "STOP the run, let it CONTINUE, or WAIT and check again soon"},
        "reason": {"type": "string", "description": "one or two sentences citing the numbers"},
    },
    "required": ["decision", "reason"],
    "additionalProperties": False,
}

_FENCED_JSON = re.compile(r"^```(?:json)?[ \t]*\n(?P<body>.*)\n```$", re.S | re.I)


@dataclass(frozen=True)
class Decision:
    """One valid answer of the reviewer."""

    decision: str  # "STOP" | "CONTINUE" | "WAIT"
    reason: str


class InvalidReply(ReviewerError):
    """The reviewer answered, but not with exactly one valid decision (retried once by the caller)."""


def parse_decision(text: str | None) -> Decision:
    """Read a reply that is one JSON object with a valid ``decision`` and a non-empty ``reason``, or raise InvalidReply.

    Accepted: the bare object, optionally wrapped in one ```json code fence (some
    agents add it). Rejected: empty replies, prose around the object, several
    objects, a decision outside STOP/CONTINUE/WAIT, extra or missing keys.
    """
    if text is None or not text.strip():
        raise InvalidReply("the reviewer returned an empty reply")
    body = text.strip()
    if len(body) > MAX_REPLY_CHARS:
        raise InvalidReply(f"the reviewer reply is {len(body)} characters long, not one short JSON object")
    fenced = _FENCED_JSON.match(body)
    if fenced:
        body = fenced.group("body").strip()
    try:
        obj = json.loads(body)
    except ValueError:
        raise InvalidReply("the reviewer reply is not a single JSON object "
                           '{"decision": "STOP|CONTINUE|WAIT", "reason": "..."}') from None
    if not isinstance(obj, dict):
        raise InvalidReply(f"the reviewer reply is a JSON {type(obj).__name__}, not an object with decision and reason")
    keys = set(obj)
    if keys != {"decision", "reason"}:
        missing = sorted({"decision", "reason"} - keys)
        extra = sorted(keys - {"decision", "reason"})
        what = "; ".join(p for p in (f"missing {missing}" if missing else "",
                                     f"unexpected {extra[:5]}" if extra else "") if p)
        raise InvalidReply(f"the reviewer reply must hold exactly the keys decision and reason ({what})")
    decision, reason = obj["decision"], obj["reason"]
    if not isinstance(decision, str) or decision.strip().upper() not in DECISIONS:
        shown = decision if isinstance(decision, str) else type(decision).__name__
        raise InvalidReply(f"the reviewer decision {str(shown)[:40]!r} is not one of STOP, CONTINUE, WAIT")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidReply("the reviewer gave a decision without a reason")
    reason = " ".join(reason.split())
    if len(reason) > MAX_REASON_CHARS:
        reason = reason[: MAX_REASON_CHARS - 1] + "…"
    return Decision(decision.strip().upper(), reason)
