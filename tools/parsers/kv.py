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

_PAIR = re.compile(rf"(?<![\w/.\-])([A-Za-z_][\w./\-]*(?: [A-Za-z_][\w./\-]*){{0,3}})\s*(?:=|:)\s*({NUM}[A-Za-z%/]*)(?=[\s,;|\]}}\)]|$)")
_TQDM = re.compile(r"(?:(?:Epoch|epoch)\s*(\d+)\D{0,10}?)?\d+%\|[^|]*\|\s*(\d+)/(\d+)\s*\[([^\]]*)\]")
_STEP_KEYS = {"step", "global_step", "global step", "iter", "iteration", "it", "batch", "update", "num_updates", "steps", "train/global_step"}
_SKIP_KEYS = {"rank", "pid", "line", "port", "tid"}


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
            rec: dict[str, float] = {}
            step = None
            epoch = None
            for k, raw in pairs:
                key = k.strip()
                lk = key.lower()
                if lk in _SKIP_KEYS:
                    continue
                if lk in _STEP_KEYS and step is None:
                    step = to_step(re.sub(r"[A-Za-z%/]+$", "", raw))
                    continue
                v = to_value(raw)
                if v is None:
                    continue
                if lk == "epoch":
                    epoch = v
                rec[key] = v
            if tq and step is None:
                n, total = int(tq.group(2)), int(tq.group(3))
                ep = int(tq.group(1)) if tq.group(1) else 0
                step = ep * total + n
                em.total_steps = None
            if not rec or (step is None and len(rec) < 2):
                continue
            if step is None and epoch is not None and float(epoch).is_integer():
                step = int(epoch)
            if step is None:
                st["n"] = int(st.get("n", 0)) + 1
                step = int(st["n"])
            em.record(step, rec)
