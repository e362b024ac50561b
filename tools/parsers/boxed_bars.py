"""Values carried in a progress bar drawn as a box before its percent, and evaluations drawn before any was made.

- A bar drawn as a box of glyphs before its percent (``epoch 2/6 |███---| 25.0% 2/8 | ... | train loss 0.4622 |
  val loss 0.5294``: pytorchtrainer's bar, fastprogress's ``|███---| 12.50% [4/32 ...]``; tqdm's ``25%|███|`` is the
  percent first, ``Plan.bar``) carries its values as tqdm's postfix does: each redraw shows the last value set, so a
  value repeated on every redraw between two of its logs (a validation's loss, redrawn at every iteration until the
  next validation) is one point per change, at the step it first showed (``bar_steps.value_changes``). ``boxed_bar``
  tells such a line, looking at a few of its ``%`` only: linear, no regular expression.
- An evaluation's value a bar draws from its first count, before any evaluation was made (``val loss inf`` on every
  redraw of the first epoch): a placeholder, no point (``before_measured``), decided on its first drawing and kept
  in the state (the same at any read size) until the value first changes.
"""

from __future__ import annotations

import numpy as np

from .reads import name_role

MAX_LOOK = 4096  # characters of a line looked at for its bar
MAX_PCT = 4  # percent signs of a line looked at
MAX_BOX = 256  # characters of a bar's box
MAX_KEYS = 64  # evaluation values followed for a placeholder (state kept between reads)
_BOX = frozenset("█▉▊▋▌▍▎▏━╸╺■□▮▯#-=>.·░▒▓ ")
_FILL = frozenset("█▉▊▋▌▍▎▏━╸╺■□▮▯#-=░▒▓")
_NUMBER = frozenset("0123456789.\x01")  # (a masked line's number is a mark)


def boxed_bar(line: bytes) -> bool:
    """Whether ``line`` draws a progress bar as a box of glyphs right before its percent (``|███---| 25.0%``)."""
    text = line[:MAX_LOOK].decode("utf-8", "replace")
    pos = 0
    for _ in range(MAX_PCT):
        pct = text.find("%", pos)
        if pct < 0:
            return False
        pos = pct + 1
        j = pct
        while j > 0 and pct - j < 16 and text[j - 1] in _NUMBER:
            j -= 1
        if j == pct:
            continue
        k = j
        while k > 0 and j - k < 4 and text[k - 1] == " ":
            k -= 1
        if k == 0 or text[k - 1] != "|":
            continue
        close = k - 1
        start = text.rfind("|", max(0, close - MAX_BOX - 1), close)
        if start < 0 or close - start < 2:
            continue
        body = text[start + 1:close]
        if all(ch in _BOX for ch in body) and any(ch in _FILL for ch in body):
            return True
    return False


def before_measured(key: str, s: np.ndarray, v: np.ndarray, run: np.ndarray, st: dict) -> np.ndarray:
    """Which points of a bar's value to keep: an evaluation's value first drawn non-finite at the bar's first count
    (``val loss inf`` before the first validation) is a placeholder over its drawings until the value first changes
    (the first validation's result). Decided on the value's first drawing in the log and kept in ``st`` (the
    placeholder shown, or done), so the same at any read size."""
    keep = np.ones(len(s), dtype=bool)
    if not len(s) or name_role(key) != "eval":
        return keep
    marks = st.setdefault("placeholder", {})
    state = marks.get(key)
    if state is None:
        if len(marks) >= MAX_KEYS:
            return keep
        first = float(v[0])
        if np.isfinite(first) or float(s[0]) > 1 or int(run[0]) != 0:
            marks[key] = "done"
            return keep
        state = marks[key] = "nan" if np.isnan(first) else repr(first)
    if state == "done":
        return keep
    shown = np.isnan(v) if state == "nan" else v == float(state)
    stays = np.logical_and.accumulate(shown & (run == 0))  # the leading drawings of the placeholder
    if not stays.all():
        marks[key] = "done"
    return ~stays
