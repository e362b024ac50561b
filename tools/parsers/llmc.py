"""llm.c terse lines (``s:N trl:X lr:L norm:G`` / ``s:N tel:X``) and modded-nanogpt lines
(``step:N/M train_loss:X train_time:Tms step_avg:Ams`` / ``step:N/M val_loss:X ...``).

Names follow tools/roles.py: ``trl`` -> ``train_loss``, ``tel`` -> ``val_loss``,
``norm`` -> ``grad_norm``; timings become ``train_time_ms`` / ``step_avg_ms``.
A NaN glued to a unit (``step_avg:nanms``) is a timing placeholder and is dropped.
"""

from __future__ import annotations

import math
import re

from ..points import parse_number
from .base import Emitter, LineFormat
from .text import to_value

_LLMC_NAMES = {"trl": "train_loss", "tel": "val_loss", "norm": "grad_norm", "lr": "lr"}


class LlmcFormat(LineFormat):
    """llm.c ``s:N key:value ...`` lines; the step is the global step."""

    name = "llmc"
    detect_re = re.compile(r"^s:\d+ (?:trl|tel):")
    priority = 5
    _line = re.compile(r"^s:(\d+) ([^\n]*)", re.M)
    _field = re.compile(r"(\w+):(\S+)")

    def parse(self, text: str, em: Emitter) -> None:
        add = em.add
        pn = parse_number
        names = _LLMC_NAMES
        for m in self._line.finditer(text):
            step = int(m.group(1))
            rest = m.group(2)
            for k, v in self._field.findall(rest):
                val = pn(v)
                if val is None:
                    val = to_value(v)
                    if val is None:
                        continue
                add(step, names.get(k, k), val)


_MODDED_UNIT_NAMES = {"train_time": "train_time_ms", "step_avg": "step_avg_ms"}


class ModdedNanoGptFormat(LineFormat):
    """modded-nanogpt ``step:N/M key:value ...`` lines; ``M`` is the run's total steps."""

    name = "modded_nanogpt"
    detect_re = re.compile(r"(?:^|\s)step:\d+/\d+ (?:\w+:)")
    priority = 5
    _line = re.compile(r"^(?:[^\n]*?[ \t\]:>|])??step:(\d+)/(\d+) ([^\n]*)", re.M)
    _fast = re.compile(r"^(train_loss|val_loss):(\S+) train_time:([\d.]+)(ms|s) step_avg:([\w.]+?)(ms|s)$")
    _field = re.compile(r"(\w+):(\S+)")

    def parse(self, text: str, em: Emitter) -> None:
        add = em.add
        pn = parse_number
        total = None
        fast = self._fast.match
        for m in self._line.finditer(text):
            step = int(m.group(1))
            total = m.group(2)
            rest = m.group(3).rstrip()
            f = fast(rest)
            if f is not None:
                v = pn(f.group(2))
                if v is not None:
                    add(step, f.group(1), v)
                t = float(f.group(3))
                add(step, "train_time_ms", t * 1000.0 if f.group(4) == "s" else t)
                a = pn(f.group(5))
                if a is not None and not math.isnan(a):  # step_avg:nanms is a placeholder
                    add(step, "step_avg_ms", a * 1000.0 if f.group(6) == "s" else a)
                continue
            for k, raw in self._field.findall(rest):
                if k in _MODDED_UNIT_NAMES:
                    scale = 1000.0 if raw.endswith("s") and not raw.endswith("ms") else 1.0
                    num = raw[:-2] if raw.endswith("ms") else raw[:-1] if raw.endswith("s") else raw
                    v = pn(num)
                    if v is None or math.isnan(v):
                        continue
                    add(step, _MODDED_UNIT_NAMES[k], v * scale)
                    continue
                v = pn(raw)
                if v is None:
                    v = to_value(raw)
                    if v is None:
                        continue
                add(step, k, v)
        if total is not None:
            em.total_steps = int(total)
