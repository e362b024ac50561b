"""llm.c terse lines (``s:N trl:X lr:L norm:G`` / ``s:N tel:X``) and modded-nanogpt lines
(``step:N/M train_loss:X train_time:Tms step_avg:Ams`` / ``step:N/M val_loss:X ...``).

Names follow tools/roles.py: ``trl`` -> ``train_loss``, ``tel`` -> ``val_loss``,
``norm`` -> ``grad_norm``; timings become ``train_time_ms`` / ``step_avg_ms``.
A NaN glued to a unit (``step_avg:nanms``) is a timing placeholder and is dropped.
"""

from __future__ import annotations

import math
import re

import numpy as np

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


def _num_or_nan(text: str) -> float:
    v = to_value(text)
    return np.nan if v is None else v


class ModdedNanoGptFormat(LineFormat):
    """modded-nanogpt ``step:N/M key:value ...`` lines; ``M`` is the run's total steps."""

    name = "modded_nanogpt"
    detect_re = re.compile(r"(?:^|\s)step:\d+/\d+ (?:\w+:)")
    priority = 5
    # one match per line: the common shape in groups 3-8, anything else in group 9
    _line = re.compile(r"^(?:[^\n]*?[ \t\]:>|])??step:(\d+)/(\d+) (?:(train_loss|val_loss):(\S+) train_time:([\d.]+)(ms|s) "
                       r"step_avg:([\w.]+?)(ms|s)[ \t]*$|([^\n]*))", re.M)
    _field = re.compile(r"(\w+):(\S+)")

    def parse(self, text: str, em: Emitter) -> None:
        """Vectorised: one regex pass gives every line's fields, numpy converts them; odd lines go field by field."""
        rows = self._line.findall(text)
        if not rows:
            return
        cols = list(zip(*rows))
        n = len(rows)
        em.total_steps = int(cols[1][-1])
        steps = np.fromiter(map(int, cols[0]), dtype=np.int64, count=n)
        idx = np.arange(n)
        keys = cols[2]
        if "" in keys:
            fast = np.fromiter((k != "" for k in keys), dtype=bool, count=n)
        else:
            fast = np.ones(n, dtype=bool)
        parts: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        slow = ~fast
        if fast.any():
            sel = fast.all()

            def col(j: int, conv=float) -> np.ndarray:
                seq = cols[j] if sel else [cols[j][i] for i in idx[fast].tolist()]
                try:
                    return np.fromiter(map(conv, seq), dtype=np.float64, count=len(seq))
                except ValueError:
                    return np.array([_num_or_nan(x) for x in seq], dtype=np.float64)

            fi, fs = (idx, steps) if sel else (idx[fast], steps[fast])
            raw = col(3)
            t = col(4)
            if "s" in cols[5]:
                t = t * np.fromiter((1000.0 if u == "s" else 1.0 for u in cols[5]), dtype=np.float64, count=n)[fast]
            a = col(6)  # "nan" parses to NaN: a placeholder, dropped below
            if "s" in cols[7]:
                a = a * np.fromiter((1000.0 if u == "s" else 1.0 for u in cols[7]), dtype=np.float64, count=n)[fast]
            is_train = np.fromiter((k == "train_loss" for k in keys), dtype=bool, count=n)[fast]
            parts["train_loss"] = [(fi[is_train], fs[is_train], raw[is_train])]
            is_val = ~is_train if sel else (np.fromiter((k == "val_loss" for k in keys), dtype=bool, count=n)[fast])
            parts["val_loss"] = [(fi[is_val], fs[is_val], raw[is_val])]
            parts["train_time_ms"] = [(fi, fs, t)]
            ok = ~np.isnan(a)
            parts["step_avg_ms"] = [(fi[ok], fs[ok], a[ok])]
        if slow.any():
            rests = cols[8]
            for i in idx[slow].tolist():
                sub = Emitter()
                self._generic(int(steps[i]), rests[i], sub)
                for k, (ss, vv) in sub._cols.items():
                    parts.setdefault(k, []).append((np.full(len(ss), i), np.asarray(ss, dtype=np.int64),
                                                    np.asarray(vv, dtype=np.float64)))
        for key, ps in parts.items():
            if len(ps) == 1:
                _, s_, v_ = ps[0]
            else:
                ii = np.concatenate([p[0] for p in ps])
                order = np.argsort(ii, kind="stable")
                s_ = np.concatenate([p[1] for p in ps])[order]
                v_ = np.concatenate([p[2] for p in ps])[order]
            em.extend(key, s_, v_)

    def _generic(self, step: int, rest: str, em: Emitter) -> None:
        pn = parse_number
        for k, raw in self._field.findall(rest):
            if k in _MODDED_UNIT_NAMES:
                scale = 1000.0 if raw.endswith("s") and not raw.endswith("ms") else 1.0
                num = raw[:-2] if raw.endswith("ms") else raw[:-1] if raw.endswith("s") else raw
                v = pn(num)
                if v is None or math.isnan(v):
                    continue
                em.add(step, _MODDED_UNIT_NAMES[k], v * scale)
                continue
            v = pn(raw)
            if v is None:
                v = to_value(raw)
                if v is None:
                    continue
            em.add(step, k, v)
