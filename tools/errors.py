"""Errors meant for people: every message is one line naming what was wrong and what to do."""

from __future__ import annotations

from .redact import redact

MAX_MESSAGE = 600  # characters: an error quoting a hostile or huge argument stays one readable line


class TrainingCheckError(Exception):
    """Base of every anticipated failure; ``str(err)`` is the one-line message shown to the user."""

    def __init__(self, message: str):
        # One line, of bounded length, whatever the caller passed in (messages quote user input).
        text = redact(" ".join(str(message).split()))  # a known secret never reaches a message
        if len(text) > MAX_MESSAGE:
            text = text[: MAX_MESSAGE - 30] + f" ... [{len(text) - MAX_MESSAGE + 30} chars cut]"
        super().__init__(text)

    @property
    def message(self) -> str:
        return str(self)


class BadInput(TrainingCheckError):
    """An argument is malformed (bad run reference, bad option, out of range)."""


class RunNotFound(TrainingCheckError):
    """The run reference is well formed but names nothing that exists."""


class UnknownFormat(TrainingCheckError):
    """A file was read but no parser recognises it."""


class SourceUnreachable(TrainingCheckError):
    """A source could not be reached (network, SSH, W&B API, auth): a connectivity report, never a judgment."""


class AuthError(SourceUnreachable):
    """Credentials were refused (W&B API key, SSH key)."""


class HostKeyError(SourceUnreachable):
    """An SSH host key is unknown or changed."""


class ReviewerError(TrainingCheckError):
    """The reviewer model could not give a decision (not configured, timeout, malformed reply)."""


class StopRefused(TrainingCheckError):
    """stop_run refused: no STOP verdict to act on, or the target is not safe to signal."""


class StoreError(TrainingCheckError):
    """The state store could not be read or written (disk full, permissions, corruption)."""
