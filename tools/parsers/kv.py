"""Generic ``key=value`` / ``key: value`` lines, and tqdm bars with a postfix
(``Epoch 1: 45%|####5 | 450/1000 [00:10<00:12, 44.1it/s, loss=2.31, lr=1e-3]``).

Used only when no specific format matched. The step is the line's ``step``,
``global_step``, ``iter``, ``iteration``, ``it``, ``batch`` or ``update`` value;
else a tqdm counter (plus ``epoch * total`` when the bar names an epoch); else
``epoch``; else the count of metric lines so far. A line counts when it has at
least two numeric pairs, or one pair plus a step. Values glued to a unit keep
the number (``12.5ms`` -> 12.5); ``nanms`` (a NaN timing placeholder) is dropped.
"""

from __future__ import annotations

import re

from .base import Emitter, LineFormat
from .text import NUM, to_step, to_value

_PAIR = re.compile(rf"(?<![\w/.\-])([A-Za-z_][\w./\-]*(?: [A-Za-z_][\w./\-]*){{0,3}})\s*(?:=|:)\s*"
                   rf"({NUM}[A-Za-z%/]*)(?=[\s,;|\]}}\)]|$)")
_TQDM = re.compile(r"(?:(?:Epoch|epoch)\s*(\d+)\D{0,10}?)?\d+%\|[^|]*\|\s*(\d+)/(\d+)\s*\[([^\]]*)\]")
# Log-line prefixes that a key=value pair's key may swallow ("INFO step=10" is the key "step").
_LEVEL_WORDS = {"info", "debug", "warning", "warn", "error", "critical", "trace", "notice"}
# Positions written in brackets: mmengine/mmcv "Epoch(train) [3][ 50/500]" and "Iter(train) [ 50/90000]".
_EPOCH_ITER = re.compile(r"\[\s*(\d+)\s*\]\s*\[\s*(\d+)\s*/\s*(\d+)\s*\]")
_ITER_OF = re.compile(r"\bIter\([a-z]+\)\s*\[\s*(\d+)\s*/\s*\d+\s*\]")
# A line about evaluation ("Validation: loss=2.3", fairseq "| valid on 'valid' subset | loss 8.3"): its metrics
# are eval metrics, whatever their bare names say.
_EVAL_CONTEXT = re.compile(r"\b(valid|validation|validating|eval|evaluation|evaluating|test|testing|dev)\b", re.I)
_EVAL_KEY = re.compile(r"^(val|valid|validation|eval|test|dev)[_/ ]", re.I)


def eval_prefix(line: str, pattern: re.Pattern) -> str:
    """"val_" when the line's words outside its key/value pairs say it reports an evaluation, else ""."""
    return "val_" if _EVAL_CONTEXT.search(pattern.sub(" ", line)) else ""


def with_prefix(prefix: str, key: str) -> str:
    if not prefix or _EVAL_KEY.match(key) or key.lower() in _STEP_KEYS or key.lower() == "epoch":
        return key
    return prefix + key


# A step written as a word and a number ("Epoch 1, Step 200, Loss: ...").
_STEP_WORD = re.compile(r"\b(?:global[_ ]step|step|iteration|iter|update)\s*#?\s*(\d+)\b", re.I)
_STEP_KEYS = {"step", "global_step", "global step", "iter", "iteration", "it", "batch", "update", "num_updates",
              "steps", "train/global_step"}
_SKIP_KEYS = {"rank", "pid", "line", "port", "tid"}


_UNIT_TAIL = re.compile(r"[A-Za-z%/]+$")


def pair_number(lk: str, raw: str, step_keys: set[str] | frozenset[str]) -> tuple[bool, int | None, float | None]:
    """(is a step, the step, the value) of one key/value pair, ``lk`` its lower-cased key: a step key's text as a
    whole step (a unit glued on dropped), any other key's as a metric value; None where the text is not one."""
    if lk in step_keys:
        return True, to_step(_UNIT_TAIL.sub("", raw)), None
    return False, None, to_value(raw)


def record_of(pairs: list[tuple[str, str]], prefix: str) -> tuple[dict[str, float], int | None, float | None]:
    """(metrics, step, epoch) from a line's (key, value text) pairs: log-level words dropped from keys, the step
    key taken out, eval lines' metrics prefixed."""
    rec: dict[str, float] = {}
    step = epoch = None
    for k, raw in pairs:
        words = k.strip().split()
        while len(words) > 1 and words[0].lower() in _LEVEL_WORDS:
            words = words[1:]
        if len(words) > 1 and words[-1].lower() in _STEP_KEYS:
            words = words[-1:]
        key = " ".join(words)
        lk = key.lower()
        if lk in _SKIP_KEYS:
            continue
        is_step, s, v = pair_number(lk, raw, _STEP_KEYS if step is None else frozenset())
        if is_step:
            step = s
            continue
        if v is None:
            continue
        if lk == "epoch":
            epoch = v
        rec[with_prefix(prefix, key)] = v
    return rec, step, epoch


def next_count(st: dict) -> int:
    """The running count of metric lines: the step of lines that carry none."""
    st["n"] = int(st.get("n", 0)) + 1
    return int(st["n"])


class KeyValueFormat(LineFormat):
    name = "key_value"
    detect_re = re.compile(rf"\b[A-Za-z_][\w./\-]*\s*[=:]\s*{NUM}(?:[\s,;|]|$).*\b[A-Za-z_][\w./\-]*\s*[=:]\s*{NUM}")
    generic = True
    priority = 0

    def score(self, lines: list[str]) -> int:
        n = 0
        for line in lines:
            if _TQDM.search(line) and "=" in line:
                n += 1
                continue
            pairs = _PAIR.findall(line)
            if len(pairs) >= 2 or (pairs and pairs[0][0].lower() in _STEP_KEYS):
                n += 1
        return n

    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        for line in text.split("\n"):
            if "=" not in line and ":" not in line:
                continue
            tq = _TQDM.search(line) if "%|" in line else None
            pairs = _PAIR.findall(tq.group(4) if tq else line)
            if not pairs:
                continue
            prefix = "" if tq else eval_prefix(line, _PAIR)
            rec, step, epoch = record_of(pairs, prefix)
            if step is None:
                m = _EPOCH_ITER.search(line)
                if m:
                    in_epoch, it, per = int(m.group(1)), int(m.group(2)), int(m.group(3))  # [epoch][it/per]
                    step = (in_epoch - 1) * per + it if in_epoch > 0 else it
                else:
                    m = _ITER_OF.search(line) or (_STEP_WORD.search(line) if not tq else None)
                    if m:
                        step = int(m.group(1))
            if tq and step is None:
                n, total = int(tq.group(2)), int(tq.group(3))
                ep = int(tq.group(1)) if tq.group(1) else 0
                step = ep * total + n
                em.total_steps = None
            if not rec or (step is None and len(rec) < 2):
                continue
            if step is None and epoch is not None and float(epoch).is_integer():
                step = int(epoch)
            em.record(step if step is not None else next_count(st), rec)


_SPACED = re.compile(rf"(?<![\w./\-])([A-Za-z_][A-Za-z0-9_/.\-]*)\s+({NUM})(?=[\s,;|\]]|$)")


class SpacedPairsFormat(LineFormat):
    """``key value`` pairs separated by spaces or bars: ``epoch 1 step 200 loss 2.31 lr 3e-4`` or fairseq's
    ``| epoch 001 | loss 4.21 | ppl 18.5 | wps 9300``. Generic, and only when a line names a loss."""

    name = "spaced_pairs"
    detect_re = re.compile(rf"\b\w*loss\w*\s+{NUM}(?:[\s,;|]|$)", re.I)
    generic = True
    priority = -1

    def score(self, lines: list[str]) -> int:
        return sum(1 for line in lines if self.detect_re.search(line) and len(_SPACED.findall(line)) >= 2)

    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        for line in text.split("\n"):
            pairs = _SPACED.findall(line)
            if len(pairs) < 2 or not any("loss" in k.lower() for k, _ in pairs):
                continue
            rec, step, _epoch = record_of(pairs, eval_prefix(line, _SPACED))
            em.record(step if step is not None else next_count(st), rec)
