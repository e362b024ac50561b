"""Bounded retries of a tracking server's API (W&B, the MLflow REST server): the policy and the loop.

A try that fails in a way worth another (a timeout, a refused or reset connection, HTTP 5xx or 429) is tried
again after a wait that doubles from ``backoff_s`` up to ``max_backoff_s``; no try starts once ``attempts`` are
spent or when it could not end within ``total_s``. Any other failure is raised at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ..errors import SourceUnreachable

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries: at most ``attempts`` tries, none started after ``total_s``; waits double from ``backoff_s``."""

    attempts: int = 3
    total_s: float = 8.0
    attempt_timeout_s: float = 3
    backoff_s: float = 0.25
    max_backoff_s: float = 2.0


DEFAULT_POLICY = RetryPolicy()


def with_retries(fn: Callable[[], T], policy: RetryPolicy, failure: Callable[[Exception], tuple[Exception, bool]],
                 *, gave_up_as: type[SourceUnreachable] | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> T:
    """``fn()``, tried again within ``policy`` while ``failure(e)`` says ``(error, True)``: ``(error, False)``
    raises that error at once. When the tries are spent, the last error is raised again (as ``gave_up_as``, else
    as its own type) saying how many tries it took and how long."""
    start = time.monotonic()
    delay = policy.backoff_s
    last: Exception | None = None
    attempt = 0
    for attempt in range(max(1, policy.attempts)):
        try:
            return fn()
        except Exception as e:
            err, retry = failure(e)
        if not retry:
            raise err
        last = err
        elapsed = time.monotonic() - start
        if attempt + 1 >= policy.attempts or elapsed + delay + policy.attempt_timeout_s > policy.total_s:
            break
        sleep(delay)
        delay = min(delay * 2, policy.max_backoff_s)
    assert last is not None
    raise (gave_up_as or type(last))(f"{last} (gave up after {attempt + 1} tries in {time.monotonic() - start:.1f} s)")
