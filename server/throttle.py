"""One progress throttle for both ways a call is served (the SDK's ``server/app.py`` and the stdio front's
``server/front_calls.py``): a progress(done, total, message) callback that passes at most one update per interval,
and always the final one. No imports beyond the standard library (the front loads it before the SDK)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

Progress = Callable[..., None]
PROGRESS_MIN_INTERVAL_S = 0.25  # seconds between two progress notifications of one call


def throttled(send: Callable[[float, float | None, str], None], min_interval_s: float) -> Progress:
    """``send`` called for the first update, then at most once per ``min_interval_s``, and for the final one."""
    last = [0.0]
    lock = threading.Lock()

    def progress(done: float, total: float | None = None, message: str = "") -> None:
        now = time.monotonic()
        with lock:
            final = total is not None and done >= total
            if not final and now - last[0] < min_interval_s:
                return
            last[0] = now
        send(done, total, message)

    return progress
