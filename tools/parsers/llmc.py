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
from .fastpath import DIGITS, NUMBER_CHARS, read_fields, two_shapes, words
from .text import to_value

_LLMC_NAMES = {"trl": "train_loss", "tel": "val_loss", "norm": "grad_norm", "lr": "lr"}


class LlmcFormat(LineFormat):
    """llm.c ``s:N key:value ...`` lines; the step is the global step."""

    name = "llmc"
    detect_re = re.compile(r"^s:\d+ (?:trl|tel):")
    priority = 5
    # the usual shapes in groups 2-5, any further fields in group 6
    _line = re.compile(r"^s:(\d+) (?:(trl|tel):(\S+)(?: lr:(\S+))?(?: norm:(\S+))?)?([^\n]*)", re.M)
    # the further fields of every line at once (one match a line): up to EXTRA ``key:value`` fields (throughput,
    # loss scale...) in pairs of groups, anything else in the last group
    EXTRA = 4
    _extra = re.compile(r"^" + r"(?: (\w+):(\S+))?" * EXTRA + r"([^\n]*)", re.M)
    # both at once, for a block whose first line has further fields (the whole log usually has)
    _line_extra = re.compile(_line.pattern[:-len(r"([^\n]*)")] + _extra.pattern[1:], re.M)
    _field = re.compile(r"(\w+):(\S+)")

    def parse(self, text: str, em: Emitter) -> None:
        """Vectorised like the modded-nanogpt parser: one regex pass, numpy conversions, rare lines field by field.

        The reader tries ``parse_plain`` on a block first."""
        self._parse_lines(text, em)

    def parse_plain(self, data: bytes, em: Emitter) -> bool:
        """A block of only the two usual shapes, read by pandas' C reader: the points of ``_parse_lines``."""
        return _parse_plain(data, em)

    def _parse_lines(self, text: str, em: Emitter) -> None:
        """Any block: the regex pass (the fallback of ``_parse_plain``)."""
        head = self._line.match(text)
        extended = head is not None and head.group(6) != ""
        rows = (self._line_extra if extended else self._line).findall(text)
        if not rows:
            return
        n = len(rows)
        cols = list(zip(*rows, strict=True))  # findall gives every row all groups
        steps = _steps(cols[0], n)
        idx = np.arange(n)
        parts: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        for key, j, cond in (("train_loss", 2, "trl"), ("val_loss", 2, "tel"), ("lr", 3, None), ("grad_norm", 4, None)):
            if cond is not None:
                mask = np.fromiter((k == cond for k in cols[1]), dtype=bool, count=n)
                vals_src = cols[2]
            else:
                mask = np.fromiter((x != "" for x in cols[j]), dtype=bool, count=n)
                vals_src = cols[j]
            if not mask.any():
                continue
            seq = [vals_src[i] for i in idx[mask].tolist()]
            vals, ok = _floats(seq)
            mi, ms = idx[mask], steps[mask]
            if ok is not None:
                mi, ms, vals = mi[ok], ms[ok], vals[ok]
            parts[key] = [(mi, ms, vals)]
        # further fields, per metric: (line indices, positions in the line, values); the metrics then come in the
        # order of their first value, as field by field
        found: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        names, extra = _LLMC_NAMES, self.EXTRA
        if extended:
            pass  # the further fields are in their groups already
        elif cols[5][0] or len(set(cols[5])) > 1:
            ex = self._extra.findall("\n".join(cols[5]))
            assert len(ex) == n  # one match a line (a line's rest holds no newline)
            cols = cols[:5] + list(zip(*ex, strict=True))
        else:
            cols = cols[:5] + [("",) * n] * (2 * extra + 1)
        for j in range(extra):
            kc, vc = cols[5 + 2 * j], cols[6 + 2 * j]
            distinct = set(kc)
            distinct.discard("")
            if not distinct:
                break  # the extra groups match in turn: none further either
            for raw_key in distinct:
                li = idx[np.fromiter(map(raw_key.__eq__, kc), dtype=bool, count=n)]
                vals, ok = _floats([vc[i] for i in li.tolist()])
                if ok is not None:
                    li, vals = li[ok], vals[ok]
                if len(li):
                    found.setdefault(names.get(raw_key, raw_key), []).append((li, np.full(len(li), j), vals))
        findall, rest = self._field.findall, cols[5 + 2 * extra]
        for i, r in (enumerate(rest) if rest[0] or len(set(rest)) > 1 else ()):
            if r and not r.isspace():
                for pos, (k, v) in enumerate(findall(r), start=extra):
                    val = to_value(v)
                    if val is not None:
                        found.setdefault(names.get(k, k), []).append((np.array([i]), np.array([pos]), np.array([val])))
        firsts = []
        for key, ps in found.items():
            li = np.concatenate([p[0] for p in ps])
            at = np.concatenate([p[1] for p in ps])
            order = np.lexsort((at, li))
            li, at = li[order], at[order]
            vals = np.concatenate([p[2] for p in ps])[order]
            firsts.append((int(li[0]), int(at[0]), key, li, vals))
        for _, _, key, li, vals in sorted(firsts, key=lambda f: (f[0], f[1])):
            parts.setdefault(key, []).append((li, steps[li], vals))
        _emit_ordered(parts, em)


_TRL_SHAPE = b"s: trl: lr: norm:\n"  # a train line without its numbers
_TEL_SHAPE = b"s: tl:\n"  # an eval line's ("tel" without its "e", a number character)
_TO_CSV = bytes.maketrans(b" :", b",,")  # s,N,trl,X,lr,L,norm,G / s,N,tel,X
_FIELDS = {0: "category", 1: np.int64, 2: "category", 3: np.float64, 4: "category", 5: np.float64, 6: "category",
           7: np.float64}


def _parse_plain(data: bytes, em: Emitter) -> bool:
    """The points of a block whose every line is exactly ``s:N trl:X lr:L norm:G`` or ``s:N tel:X`` (numbers only,
    no nan/inf words, single spaces), as the regex pass gives them; False (nothing emitted) for any other block.

    The proof (tools/parsers/fastpath.py): without its number characters every line is one of the two shapes; with
    spaces and colons as commas pandas reads every field, the words as categories (exactly ``s``, ``trl``/``tel``,
    ``lr``, ``norm``: a number character glued into a word shows there), the numbers as numbers (an empty field or
    a step beyond int64: False); without its digits every line starts ``s: `` (the step is plain digits, as the
    regex's ``\\d+`` wants)."""
    n = data.count(b"\n")
    if not n or not data.endswith(b"\n") or not data.startswith(b"s:"):
        return False
    no_digits = data.translate(None, DIGITS)
    counts = two_shapes(no_digits.translate(None, NUMBER_CHARS), n, _TRL_SHAPE, _TEL_SHAPE)
    if counts is None or no_digits.count(b"\ns: ") != n - 1 or not no_digits.startswith(b"s: "):
        return False
    n_trl, n_tel = counts
    df = read_fields(data.translate(_TO_CSV), 8, _FIELDS)
    if df is None or len(df) != n:
        return False
    s_word, kind = words(df[0], ("s",)), words(df[2], ("trl", "tel"))
    lr_word, norm_word = words(df[4], ("lr",)), words(df[6], ("norm",))
    if s_word is None or kind is None or lr_word is None or norm_word is None or (s_word != 0).any():
        return False
    is_trl = kind == 0
    absent = np.where(is_trl, 0, -1)  # an eval line has no lr and norm words
    if int(is_trl.sum()) != n_trl or (kind < 0).any() or (lr_word != absent).any() or (norm_word != absent).any():
        return False
    steps = df[1].to_numpy(dtype=np.int64)
    x, lr, norm = (df[j].to_numpy(dtype=np.float64) for j in (3, 5, 7))
    if np.isnan(x).any() or (np.isnan(lr) | np.isnan(norm))[is_trl].any():
        return False  # an empty field (no value is a NaN word here)
    if n_tel:
        is_tel = ~is_trl
        if n_trl:
            em.extend("train_loss", steps[is_trl], x[is_trl])
        em.extend("val_loss", steps[is_tel], x[is_tel])
        if n_trl:
            em.extend("lr", steps[is_trl], lr[is_trl])
            em.extend("grad_norm", steps[is_trl], norm[is_trl])
    else:
        for key, vals in (("train_loss", x), ("lr", lr), ("grad_norm", norm)):
            em.extend(key, steps, vals)
    return True


def _emit_ordered(parts: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]], em: Emitter) -> None:
    """Emit each key's points in line order (pieces gathered per shape are merged by line index)."""
    for key, ps in parts.items():
        if len(ps) == 1:
            _, s_, v_ = ps[0]
        else:
            ii = np.concatenate([p[0] for p in ps])
            order = np.argsort(ii, kind="stable")
            s_ = np.concatenate([p[1] for p in ps])[order]
            v_ = np.concatenate([p[2] for p in ps])[order]
        if len(s_) and s_.min() < 0:  # junk steps (beyond int64) were marked -1
            keep = s_ >= 0
            s_, v_ = s_[keep], v_[keep]
        em.extend(key, s_, v_)


_MODDED_UNIT_NAMES = {"train_time": "train_time_ms", "step_avg": "step_avg_ms"}


def _steps(seq, n: int) -> np.ndarray:
    """Integer steps; a number beyond int64 (junk) becomes -1 and is dropped by the caller's masks."""
    try:
        return np.fromiter(map(int, seq), dtype=np.int64, count=n)
    except OverflowError:
        return np.array([int(x) if len(x) < 19 else -1 for x in seq], dtype=np.int64)


def _floats(seq) -> tuple[np.ndarray, np.ndarray | None]:
    """(values, mask of the parseable ones or None when all are): junk never becomes a NaN."""
    try:
        return np.fromiter(map(float, seq), dtype=np.float64, count=len(seq)), None
    except ValueError:
        vals = [to_value(x) for x in seq]
        ok = np.array([v is not None for v in vals], dtype=bool)
        return np.array([np.nan if v is None else v for v in vals], dtype=np.float64), ok


class ModdedNanoGptFormat(LineFormat):
    """modded-nanogpt ``step:N/M key:value ...`` lines; ``M`` is the run's total steps."""

    name = "modded_nanogpt"
    detect_re = re.compile(r"(?:^|\s)step:\d+/\d+ (?:\w+:)")
    priority = 5
    # one match per line: the common shape in groups 3-8, anything else in group 9
    _line = re.compile(r"^(?:[^\n]*?[ \t\]:>|])??step:(\d+)/(\d+) "
                       r"(?:(train_loss|val_loss):(\S+) train_time:([\d.]+)(ms|s) "
                       r"step_avg:([\w.]+?)(ms|s)[ \t]*$|([^\n]*))", re.M)
    _field = re.compile(r"(\w+):(\S+)")

    def parse(self, text: str, em: Emitter) -> None:
        """Vectorised: one regex pass gives every line's fields, numpy converts them; odd lines go field by field."""
        rows = self._line.findall(text)
        if not rows:
            return
        cols = list(zip(*rows, strict=True))  # findall gives every row all groups
        n = len(rows)
        em.total_steps = int(cols[1][-1])
        steps = _steps(cols[0], n)
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

            def col(j: int) -> tuple[np.ndarray, np.ndarray]:
                seq = cols[j] if sel else [cols[j][i] for i in idx[fast].tolist()]
                vals, ok = _floats(seq)
                return vals, (np.ones(len(seq), dtype=bool) if ok is None else ok)

            fi, fs = (idx, steps) if sel else (idx[fast], steps[fast])
            raw, raw_ok = col(3)
            t, t_ok = col(4)
            if "s" in cols[5]:
                t = t * np.fromiter((1000.0 if u == "s" else 1.0 for u in cols[5]), dtype=np.float64, count=n)[fast]
            a, _ = col(6)  # "nan" parses to NaN: a placeholder, dropped below (as is junk)
            if "s" in cols[7]:
                a = a * np.fromiter((1000.0 if u == "s" else 1.0 for u in cols[7]), dtype=np.float64, count=n)[fast]
            is_train = np.fromiter((k == "train_loss" for k in keys), dtype=bool, count=n)[fast]
            is_val = ~is_train if sel else (np.fromiter((k == "val_loss" for k in keys), dtype=bool, count=n)[fast])
            for name, m in (("train_loss", is_train & raw_ok), ("val_loss", is_val & raw_ok)):
                parts[name] = [(fi[m], fs[m], raw[m])]
            parts["train_time_ms"] = [(fi[t_ok], fs[t_ok], t[t_ok])]
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
        _emit_ordered(parts, em)

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
