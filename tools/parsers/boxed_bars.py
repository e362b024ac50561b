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
- An evaluation's value whose changes all come at an epoch's turn (validated at each epoch's end, drawn new from the
  next epoch's first count) is validated at every turn: its repeat there is a point too (``validations_at_turns``,
  where the boxed bar stood: ``box_ends``), so weights that froze still read as validations that stay identical.
"""

from __future__ import annotations

import numpy as np

from .reads import end_marks, name_role

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


MIN_TURNS = 2  # changes of an evaluation's value at an epoch's turn before its repeats there are validations


def validations_at_turns(key: str, values: np.ndarray, same: np.ndarray, ends: np.ndarray | None, st: dict,
                         restore: bool) -> np.ndarray:
    """Which repeats of a bar's evaluation value are a validation that gave the same value again: a value whose every
    change so far came at an epoch's turn (the bar's first drawing after it stood at its total: ``ends`` 1 then 0,
    ``bar_steps.bar_at_end``; pytorchtrainer's ``val loss`` validated at each epoch's end and first drawn with the
    next epoch's first count), at least ``MIN_TURNS`` after its first showing, is validated at every turn: a repeat
    at a turn is a point (a run whose weights froze: its validation the same epoch after epoch). A change elsewhere
    (Lightning's ``val_loss`` drawn new at the bar's close) or a repeat at a turn before (validated every k epochs)
    makes it none from there on. Causal, its counts kept in ``st`` (``restore``: the block's first point redraws the
    read before's last, whose counts are undone), so the same at any read size."""
    k = len(values)
    keep = np.zeros(k, dtype=bool)
    counts = st.setdefault("val_turns", {})
    tails = st.setdefault("val_turns_tail", {})
    if ends is None or not k or (key not in counts and len(counts) >= MAX_KEYS):
        return keep
    bad0, n0, end0 = (tails.get(key) if restore and key in tails else counts.get(key)) or [False, 0, None]
    prev_end = np.concatenate(([np.nan if end0 is None else end0], ends[:-1]))
    turn = (ends == 0.0) & (prev_end == 1.0)
    change = ~same
    if end0 is None and key not in counts:
        change[0] = False  # (its first showing: no drawing before it to tell a turn by)
    n_turn = np.cumsum(change & turn) + int(n0)  # changes at turns up to each point
    early = same & turn & (n_turn < MIN_TURNS)  # a repeat at a turn before the rule is told: every k epochs
    bad = (np.cumsum((change & ~turn) | early) > 0) | bool(bad0)
    keep = same & turn & ~bad & np.isfinite(values)

    def state(i: int) -> list:
        return [bool(bad[i]), int(n_turn[i]), None if np.isnan(ends[i]) else float(ends[i])]

    tails[key] = state(k - 2) if k > 1 else [bool(bad0), int(n0), end0]
    counts[key] = state(k - 1)
    return keep


def box_ends(prog_n: np.ndarray, prog_total: np.ndarray, boxed: np.ndarray, n_ctx: int, bar_end: np.ndarray,
             st: dict) -> np.ndarray:
    """``bar_end`` (``bar_steps.bar_at_end``: where the run's bar stood at each line) with the lines of a boxed bar
    (``boxed_bar``, no ``Plan.bar``) told the same way: 1 at its total and after, 0 short of it, by its last count
    that moved; its own last state kept in ``st`` (the same at any read size)."""
    filled = end_marks(prog_n, prog_total, boxed, n_ctx, st, "box_end")
    mine = boxed & (filled != 2.0)
    return np.where(mine & np.isnan(bar_end), filled, bar_end)
