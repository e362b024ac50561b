"""The reviewer: a stronger model asked STOP / CONTINUE / WAIT on ambiguous cases."""

from .decision import DECISION_SCHEMA, DECISIONS, Decision, InvalidReply, parse_decision
from .escalate import NOT_CONFIGURED, Review, ReviewerSettings, escalate_to_reviewer, resolve_settings
from .prompt import ReviewerPrompt, build_prompt, load_template

__all__ = [
    "DECISIONS", "DECISION_SCHEMA", "Decision", "InvalidReply", "parse_decision",
    "NOT_CONFIGURED", "Review", "ReviewerSettings", "escalate_to_reviewer", "resolve_settings",
    "ReviewerPrompt", "build_prompt", "load_template",
]
