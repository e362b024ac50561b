"""JSON lines: one dict per line (fairseq ``--log-format json``, detectron2 ``metrics.json``,
custom loggers, sweep summaries).

The step is the first of ``step``, ``global_step``, ``iteration``, ``iter``,
``num_updates``, ``update``, ``_step``, ``epoch_num``, ``epoch``, ``round`` the record has (the key chosen on the
first record holding one: a logger's events before it are read at their index, ``record_steps.py``),
else the record's index. Nested dicts flatten to ``a/b``; a record nested under a split's key alone
(``{"train": {"epochs_done": 1, "batches_seen": 10, "loss": 1.08}}``) is that split's, its step from its own
counters (``split_records.py``); numeric strings
(fairseq writes ``"loss": "9.12"``) are numbers; the bare ``NaN`` token is NaN.
LLaMA-Factory's ``trainer_log.jsonl`` counts in ``current_steps`` (``total_steps``
is the run's length; ``null`` fields are "not logged"). Records without a metric
(``{"event": "start", ...}``, ``{"event": "abort", "step": N, "reason": ...}``, a
config dump) are skipped, never run boundaries. A new run starts only on explicit
evidence: the step returns to (or before) the run's first step, or repeats a step
with the same metrics, *and* the record
says it is another run (its string settings changed, or a start event came
first); the read's notes count what was set aside. A sweep file of 288
one-record runs shows its last run.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass

import numpy as np

from . import kernel, record_steps, split_records
from .base import Emitter, LineFormat
from .fastpath import DIGITS, crlf_to_lf, read_fields
from .text import clean_text, to_value

STEP_KEYS = record_steps.STEP_KEYS  # Dialect.record_step_keys


_CONFIG_KEYS = {"config", "args", "hparams", "hyperparameters", "params", "settings", "cfg", "arguments"}
_EVENT_KEYS = ("event", "type", "kind", "status", "phase")
_LIFECYCLE = {"start", "started", "begin", "end", "ended", "finish", "finished", "done", "abort", "aborted", "stop",
              "stopped", "exit", "error", "crash", "config", "init", "resume", "resumed", "checkpoint", "save", "saved"}


def _flatten(d: dict, prefix: str, out: dict[str, float]) -> None:
    for k, v in d.items():
        if not prefix and isinstance(v, dict) and str(k).lower() in _CONFIG_KEYS:
            continue  # a config dump nested in a record is settings, not metrics
        key = f"{prefix}{k}"
        if isinstance(v, bool) or v is None:
            continue
        if isinstance(v, float):
            out[key] = v
        elif isinstance(v, int):
            try:
                out[key] = float(v)
            except OverflowError:  # an int past the float range: inf, as float() reads its text
                out[key] = math.inf if v > 0 else -math.inf
        elif isinstance(v, str):
            if len(v) <= 40:
                f = to_value(v)
                if f is not None:
                    out[key] = f
        elif isinstance(v, dict):
            _flatten(v, key + "/", out)


_INT64 = 1 << 63
_VOLATILE = re.compile(r"time|date|msg|message|log|text|host|stamp", re.I)


_last_signature = ("", hashlib.sha1(b"").hexdigest()[:12])  # (joined settings, their hash): most lines repeat them


def _signature(obj: dict) -> str:
    """The record's string-valued settings (run name, model type...): a change means another run."""
    global _last_signature
    parts = [f"{k}={v}" for k, v in obj.items()
             if isinstance(v, str) and len(v) <= 200 and to_value(v) is None and not _VOLATILE.search(k)]
    joined = "\x00".join(parts)
    last = _last_signature
    if joined == last[0]:
        return last[1]
    sig = hashlib.sha1(joined.encode()).hexdigest()[:12]
    _last_signature = (joined, sig)
    return sig


def _event(obj: dict) -> str | None:
    """The first of the record's event-like fields that holds a string, lower-cased."""
    for k in _EVENT_KEYS:
        v = obj.get(k)
        if isinstance(v, str):
            return v.lower()
    return None


class JsonLinesFormat(LineFormat):
    name = "jsonl"
    detect_re = re.compile(r"^\s*\{\s*\"[^\"]+\"\s*:.*\}\s*$")
    priority = 3

    def parse(self, text: str, em: Emitter) -> None:
        """Record by record; the reader tries ``parse_plain`` on a block first."""
        self._parse_lines(text, em)

    def parse_plain(self, data: bytes, em: Emitter) -> bool:
        """The points and state of ``_parse_lines``. With the C kernel, any block: runs of flat records of a few key
        orders read by it, the other lines by the record pass (``_parse_columns``); without it, a block of flat
        records of one shape (all numbers; else numbers, nulls and plain strings) read by pandas' C reader
        (``_parse_plain``, ``_parse_records``), else False."""
        lf = crlf_to_lf(data)
        if lf is None:
            return False
        if kernel.HAVE_KERNEL:
            return _parse_columns(lf, em, self._parse_lines)
        return _parse_plain(lf, em, self._parse_lines) or _parse_records(lf, em, self._parse_lines)

    def _parse_lines(self, text: str, em: Emitter) -> None:
        """Any block, record by record (the fallback of ``_parse_plain``)."""
        st = em.state
        loads = json.loads
        bad = 0
        for line in text.split("\n"):
            s = line.strip()
            if not s.startswith("{"):
                bad += bool(s)  # garbage between records (a crash's NULs, a cut line): costs its line, said
                continue
            try:
                obj = loads(s)
            except (ValueError, RecursionError):  # garbage, or nested past the interpreter's depth: costs its line
                bad += 1
                continue
            if not isinstance(obj, dict):
                continue
            event = _event(obj)
            if event in _LIFECYCLE:
                if event in ("start", "started", "begin", "init", "resume", "resumed"):
                    st["run_start"] = True
                continue  # a lifecycle record: no metrics, and not a run boundary by itself
            rec: dict[str, float] = {}
            split = split_records.read(obj, st, _flatten)  # a split's record: its step from its own counters
            if split is not None:
                step, rec = split
                if rec:
                    st["n"] = int(st.get("n", 0)) + 1
                    em.record(int(st["n"] - 1) if step is None else step, rec)
                continue
            _flatten(obj, "", rec)
            total = rec.pop("total_steps", None)
            if total is not None and total > 0 and float(total).is_integer():
                em.total_steps = st["total"] = int(total)
            step = None
            step_key = st.get("step_key")
            if not step_key:
                step_key = record_steps.choose(st, rec)
            if step_key and step_key in rec:
                v = rec.pop(step_key)  # a float (_flatten): to_step(str(v)) without the round trip
                step = int(v) if math.isfinite(v) else None
            if not rec:
                continue  # a step and nothing else: not a metric record
            if step is None:
                step = int(st.get("n", 0))
                record_steps.read_at_index(st, rec)
            st["n"] = int(st.get("n", 0)) + 1
            last = st.get("last_step")
            sig = _signature(obj)
            changed = sig != st.get("sig", sig)
            st["sig"] = sig
            first = st.get("first_step")
            back_to_start = last is not None and first is not None and (
                step <= first or (step <= last and bool(set(rec) & set(st.get("last_keys", [])))))
            if back_to_start and (changed or st.get("run_start")):
                em.new_run()
                st["last_keys"] = []
                st["first_step"] = step
            st["run_start"] = False
            if first is None:
                st["first_step"] = step
            if step != last:
                st["last_keys"] = []
            st["last_step"] = step
            st["last_keys"] = sorted(set(st.get("last_keys", [])) | set(rec))[:200]
            if -_INT64 <= step < _INT64:  # a step past int64 is junk the batch drops (points._arrays_of): never
                em.record(step, rec)  # pending, so that no count (set aside, len) sees it
        if bad:
            st["bad_lines"] = int(st.get("bad_lines", 0)) + bad
            em.notes.append(f"skipped {st['bad_lines']} line(s) that are not JSON records (garbage, cut, or nested "
                            f"past the interpreter's depth)")


# digits other than 0 alike, line ends as commas, E as e: a leading zero is 0 then a digit at a field's start
_CLASSES = bytes.maketrans(b"123456789\nE", b"111111111,e")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_KEY_SEG = re.compile(r"[ \t]*([{,])[ \t]*\"([A-Za-z_./-]+)\"[ \t]*:[ \t]*")
_END_SEG = re.compile(r"[ \t]*\}[ \t]*")
# an empty integer or fraction part, a leading zero: not JSON numbers, yet pandas reads them. Looked for with the
# minus signs deleted: a sign is then no different from none ("-.5" is ",.", "-01" is ",01"), and an exponent's
# sign ("e-05") has no comma before it; the shape (the first record's, valid JSON) puts a "-" nowhere else
_NOT_JSON = (b",.", b".e", b".,", b",00", b",01")


def _parse_plain(data: bytes, em: Emitter, lines) -> bool:
    """The points and state of a block whose every line is a flat record of the first line's keys, in its order
    and spacing, each value a plain JSON number (no digit in a key, no string, null, nested dict, event or
    total_steps), as the record-by-record pass gives them; False (nothing done) for any other block.

    The first line (ASCII) goes through ``lines`` (the record-by-record pass: run boundary, step key, state); the
    others then cannot start a run (same settings, no start event, run_start is cleared) and only extend the
    columns. The check: without their digits all lines equal the first one's (translate and count prove the
    tiling), each key segment is there whole in every line (no quote or brace is left once they are cut out), and
    no number has an empty part or a leading zero (JSON rejects them, pandas does not); the segments then become
    commas and pandas' C reader reads the numbers."""
    nl = data.find(b"\n")
    if nl < 0 or nl == len(data) - 1 or not data.endswith(b"\n"):
        return False  # fewer than two lines
    try:
        first = data[:nl].decode("ascii")
    except UnicodeDecodeError:
        return False
    s = first.strip()
    if not s.startswith("{") or "\r" in s or "\x1b" in s:
        return False
    try:
        obj = json.loads(s)
    except (ValueError, RecursionError):
        return False
    if not isinstance(obj, dict) or not obj or "total_steps" in obj:
        return False
    nums = list(_NUMBER.finditer(first))
    keys = list(obj)
    if len(nums) != len(keys) or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in obj.values()):
        return False
    segs, at = [], 0
    for j, m in enumerate(nums):
        seg = _KEY_SEG.fullmatch(first, at, m.start())
        if seg is None or seg.group(2) != keys[j] or seg.group(1) != ("{" if j == 0 else ","):
            return False
        segs.append(first[at:m.start()].encode())
        at = m.end()
    try:
        if _END_SEG.fullmatch(first, at) is None or any(float(m.group()) != float(obj[k]) for m, k in zip(
                nums, keys, strict=True)):
            return False
    except OverflowError:  # an int past the float range: the record-by-record pass
        return False
    end_seg = first[at:].encode()
    st = em.state
    step_key = record_steps.peek(st, obj)
    if step_key is None:
        return False  # the step key's choice depends on the records before: the record-by-record pass
    metrics = [k for k in keys if k != step_key]
    if not metrics:
        return False  # records of a step alone are skipped: the record-by-record pass
    rest = data[nl + 1:]
    m_lines = rest.count(b"\n")
    shape = data[:nl + 1].translate(None, DIGITS)
    skel = rest.translate(None, DIGITS)
    if skel.count(shape) != m_lines or len(skel) != m_lines * len(shape):
        return False
    # the first segment at a line's start (the block's first line is not in rest: its start is the block's), the
    # last at its end: a digit before or after them is caught below
    if not rest.startswith(segs[0]):
        return False
    csv = rest[len(segs[0]):].replace(b"\n" + segs[0], b"\n")
    for key_seg in segs[1:]:
        csv = csv.replace(key_seg, b",")
    csv = csv.replace(end_seg + b"\n", b"\n")
    # a segment with a digit inside (a key, its spacing) was left whole: the CSV is then longer than every segment
    # cut out of every line makes it. A segment cannot be cut where it does not belong: its quotes can only be its
    # own key's (each line holds its keys' quotes where the first line does: the shape)
    if len(csv) != len(rest) - m_lines * (len(segs[0]) + sum(len(g) - 1 for g in segs[1:]) + len(end_seg)):
        return False
    cls = b"," + csv.translate(_CLASSES, b"-")
    if any(cls.count(x) for x in _NOT_JSON):
        return False
    k = len(keys)
    df = read_fields(csv, k, dict.fromkeys(range(k), np.float64))
    if df is None:
        return False
    vals = df.to_numpy(dtype=np.float64)
    if vals.shape != (m_lines, k) or not np.isfinite(vals).all() or (np.signbit(vals) & (vals == 0)).any():
        return False  # -0 is an int 0 in JSON: the record-by-record pass
    if step_key in obj:
        sv = vals[:, keys.index(step_key)]
        if np.abs(sv).max() >= 2.0 ** 63:
            return False
    lines(first + "\n", em)  # the first record: run boundary, step key, state
    assert st.get("step_key") == step_key  # the first record chose the step key as above
    n0 = int(st.get("n", 0))
    if step_key in obj:
        steps = np.trunc(sv).astype(np.int64)
    else:
        steps = np.arange(n0, n0 + m_lines, dtype=np.int64)
        record_steps.read_at_index(st, metrics)
    for j, key in enumerate(keys):
        if key != step_key:
            em.extend(key, steps, vals[:, j])
    st["n"] = n0 + m_lines
    prev = np.concatenate([[int(st["last_step"])], steps[:-1]])  # the first record set it
    if bool((steps != prev).any()):  # the keys are reset at a new step, then the same keys every record
        st["last_keys"] = sorted(metrics)[:200]
    st["last_step"] = int(steps[-1])
    return True


# the general block path: records of one key order whose values are numbers, nulls or plain strings
_MAX_RECORD = 1 << 14  # bytes of a record the general block path reads (its first line is scanned in Python)
_MAX_KEYS = 256  # keys of a record it reads (pandas' columns: two a key)
_SEPS = b"\x01\x02"  # what key segments become (control bytes: refused in a record)
_TO_SEP = bytes.maketrans(b"\x02}", b"\x01\x01")  # a value's start and the record's end as field ends
# each byte's class: digits 1-9 as 1, 0 as z, "+" and "." as ".", e as e, space and the first letters of inf, true
# and false (pandas reads them all as numbers) as x, the start of a value as
# S, its end (or the record's "}") as E, a quote as q, "-" and the line end as themselves, other bytes as a
_NUMBER_CLASSES = bytes.maketrans(bytes(range(256)), bytes(
    ord("1") if chr(b) in "123456789" else ord("z") if b == 48 else ord(".") if chr(b) in ".+" else
    ord("e") if chr(b) in "eE" else ord("x") if chr(b) in "iI tTfF" else ord("S") if b == 2 else
    ord("E") if b in (1, 125) else ord("q") if b == 34 else b if b in (10, 45) else ord("a") for b in range(256)))


def _classes(chars: str) -> np.ndarray:
    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in chars]] = True
    return table


_BAD_FIRST = _classes(".xE")  # a value that starts with "." or "+", inf, true, false, a space, or is empty
_BAD_SIGNED = _classes(".xE-q")  # after a minus sign: those, or another sign, or a quote
_BAD_LAST = _classes(".x")  # a value that ends with "." or "+", or a space
_DIGIT = _classes("1z")


def _bad_values(fields: bytes, strings: int) -> bool:
    """Whether a value of ``fields`` (values between \\x02 and \\x01 or "}") is a number JSON rejects and pandas
    reads (.5, 5., 5.e3, +5, 05, -05, inf, spaces around it) or is empty, or a key (between \\x01 and \\x02) is
    empty, or not ``strings`` values open and close with a quote: vectorised over the bytes' classes."""
    a = np.frombuffer(fields.translate(_NUMBER_CLASSES), dtype=np.uint8)
    starts = np.flatnonzero(a == ord("S"))  # never the last byte: a line ends with a value's end and a newline
    after = a[starts + 1]
    if _BAD_FIRST[after].any() or np.count_nonzero(after == ord("q")) != strings:
        return True
    signed = starts[after == ord("-")] + 2  # a minus sign: the same looked for after it
    signed = signed[signed < len(a)]
    if _BAD_SIGNED[a[signed]].any():
        return True
    zeros = np.concatenate([starts[after == ord("z")] + 2, signed[a[signed] == ord("z")] + 1])
    if _DIGIT[a[zeros[zeros < len(a)]]].any():
        return True  # a leading zero
    ends = np.flatnonzero(a == ord("E"))
    if len(ends) and (ends[0] == 0 or _BAD_LAST[a[ends - 1]].any()):
        return True
    if np.count_nonzero(a[ends - 1] == ord("q")) != strings:
        return True  # each string's closing quote just before its value's end
    if (a[ends[ends + 1 < len(a)] + 1] == ord("S")).any():
        return True  # an empty key
    dots = np.flatnonzero(a == ord("."))
    return bool((a[dots[dots + 1 < len(a)] + 1] == ord("e")).any())  # 5.e3


_PRINTABLE = bytes(b for b in range(32, 127) if b != 92)  # printable ASCII but the backslash
_WS = " "


def _first_record(line: str) -> tuple[list[str], list[str], list[str], str] | None:
    """A flat record's keys, each value's kind (``num``, ``null``, ``str``) and the text before each value and after
    the last, scanned left to right (no backslash, no control character: the caller checked); None for any other
    line."""
    i, n = 0, len(line)
    while i < n and line[i] == _WS:
        i += 1
    if i >= n or line[i] != "{":
        return None
    i += 1
    keys: list[str] = []
    kinds: list[str] = []
    segs: list[str] = []
    at = 0
    while True:
        while i < n and line[i] == _WS:
            i += 1
        if i >= n or line[i] != '"':
            return None
        j = line.find('"', i + 1)
        if j < 0:
            return None
        keys.append(line[i + 1:j])
        i = j + 1
        while i < n and line[i] == _WS:
            i += 1
        if i >= n or line[i] != ":":
            return None
        i += 1
        while i < n and line[i] == _WS:
            i += 1
        segs.append(line[at:i])
        if i < n and line[i] == '"':
            j = line.find('"', i + 1)
            if j < 0:
                return None
            kinds.append("str")
            i = j + 1
        elif line.startswith("null", i):
            kinds.append("null")
            i += 4
        else:
            j = i
            while j < n and line[j] in "0123456789.eE+-":
                j += 1
            if j == i:
                return None
            kinds.append("num")
            i = j
        at = i
        while i < n and line[i] == _WS:
            i += 1
        if i < n and line[i] == ",":
            i += 1
            continue
        if i < n and line[i] == "}":
            i += 1
            while i < n and line[i] == _WS:
                i += 1
            if i != n:
                return None
            return keys, kinds, segs, line[at:]
        return None


def _parse_records(data: bytes, em: Emitter, lines) -> bool:
    """The points and state of a block whose every line is a flat record of the first line's keys, in its order and
    spacing, each value a JSON number or ``null`` (a column may hold both) or, where the first line holds a string,
    a string without escapes: one that is the first line's in every line, or one of a volatile key (a time, a
    message) that cannot read as a number; as the record-by-record pass gives them; False (nothing done) for any
    other block.

    The first line goes through ``lines`` (the record-by-record pass: run boundary, step key, state); the others then
    cannot start a run (their settings are the first line's, no start event) and extend the columns. The proof: the
    block is printable ASCII without a backslash (no escape, no control character); the text between a value and the
    next key, and between a key and its value, become two control bytes (the first line shows the spacing, the same
    for every key) and the block without anything but them, quotes, braces and line ends is the first line's so
    made, line by line (each line: the first one's fields in order, quotes only where its strings are); each string
    value opens and closes with its quotes (counted); pandas' C reader then reads the fields: each key must be the
    first line's (an NA value of its own), each value a number or ``null`` (NA), a string where the first line has
    one. What pandas reads and JSON does not (.5, 5., +5, 05, inf, spaces, an empty field) is looked for first in
    the block's character classes, vectorised."""
    out = data.translate(None, _PRINTABLE)
    n = len(out)
    if n < 2 or not data.endswith(b"\n") or out != b"\n" * n:
        return False  # a control character, a tab, a CR, a byte not ASCII or a backslash: the record-by-record pass
    nl = data.find(b"\n")
    if nl > _MAX_RECORD:
        return False  # a record too long to be worth the columns: the record-by-record pass
    first = data[:nl].decode("ascii")
    scan = _first_record(first)
    if scan is None:
        return False
    keys, kinds, segs, end = scan
    k = len(keys)
    if k < 2 or k > _MAX_KEYS or len(set(keys)) != k:
        return False
    try:
        obj = json.loads(first)
    except (ValueError, RecursionError):
        return False
    if not isinstance(obj, dict) or list(obj) != keys or _event(obj) in _LIFECYCLE:
        return False
    str_cols = [j for j in range(k) if kinds[j] == "str"]
    for j, key in enumerate(keys):
        v = obj[key]
        if kinds[j] == "num" and (isinstance(v, bool) or not isinstance(v, (int, float))):
            return False
        if kinds[j] == "null" and v is not None:
            return False
        if kinds[j] == "str" and (not isinstance(v, str) or len(v) <= 40 and to_value(v) is not None):
            return False  # a numeric string is a point: the record-by-record pass
    st = em.state
    nums = [j for j in range(k) if j not in str_cols]
    rec_keys = [keys[j] for j in nums if kinds[j] == "num" and keys[j] != "total_steps"]
    step_key = record_steps.peek(st, rec_keys)
    if step_key is None:
        return False  # the step key's choice depends on the records before: the record-by-record pass
    if step_key in keys and kinds[keys.index(step_key)] == "str" or "total_steps" in keys and (
            kinds[keys.index("total_steps")] == "str"):
        return False
    metric_cols = [j for j in nums if keys[j] not in (step_key, "total_steps")]
    if not [keys[j] for j in metric_cols if kinds[j] == "num"]:
        return False  # the first record is skipped (no metric): the record-by-record pass
    glue = []  # (before the key, after it) of each key segment: the first opens the record, the others share theirs
    for j, g in enumerate(segs):
        q1 = g.find('"')
        q2 = g.find('"', q1 + 1)
        if q1 < 0 or q2 < 0 or g[q1 + 1:q2] != keys[j]:
            return False
        glue.append((g[:q1 + 1].encode(), g[q2:].encode()))
    opening, before, after = glue[0][0], glue[1][0], glue[0][1]
    if any(b != before for b, _ in glue[1:]) or any(a != after for _, a in glue):
        return False  # spacing that differs from key to key: the record-by-record pass
    if end != "}":
        return False  # spacing after the last value: the record-by-record pass
    sep, start = _SEPS[0:1], _SEPS[1:2]  # after a value, before a value

    def fields(text: bytes) -> bytes:
        """Each key between ``sep`` and ``start``, each value between ``start`` and ``sep`` (the last one: "}")."""
        return text.replace(before, sep).replace(after, start)

    rest = fields(data[nl + 1:])
    m = n - 1
    skeleton = bytes(b for b in range(256) if b not in (10, 34, 125, sep[0], start[0]))  # \n " } and the two
    if rest.translate(None, skeleton) != fields(data[:nl + 1]).translate(None, skeleton) * m:
        return False  # not every line is the first one's keys and values in order, its strings where it has them
    if _bad_values(rest, len(str_cols) * m):
        return False  # a number JSON rejects but pandas reads (.5, 5., +5, 05, inf, spaces), an empty key or value,
        # a string that does not open and close with its quotes
    width = 2 * k + 1
    na: dict[int, list[str]] = {0: [opening.decode() + keys[0]], width - 1: [""]}
    na.update({2 * j: [keys[j]] for j in range(1, k)})
    na.update({2 * j + 1: ["null"] for j in nums})
    dtype: dict[int, object] = {c: np.float64 for c in na}
    dtype.update({2 * j + 1: "category" for j in str_cols})
    df = read_fields(rest.translate(_TO_SEP), width, dtype, sep=sep.decode(), na_values=na)
    if df is None or df.shape != (m, width):
        return False
    if any(df[c].notna().any() for c in [0, width - 1] + [2 * j for j in range(1, k)]):
        return False  # a key that is not the first line's
    for j in str_cols:
        cats = [str(c) for c in df[2 * j + 1].cat.categories]
        if _VOLATILE.search(keys[j]) and keys[j] not in _EVENT_KEYS:
            if not all(":" in c or len(c) > 40 for c in cats):
                return False  # a string that might read as a number (a ':' never does): the record pass
        elif cats != [obj[keys[j]]]:
            return False  # a setting that changes: maybe another run, the record-by-record pass
    vals = np.stack([df[2 * j + 1].to_numpy(dtype=np.float64) for j in nums], axis=1)
    at = {j: c for c, j in enumerate(nums)}
    have = ~np.isnan(vals)
    if np.isinf(vals).any() or (np.signbit(vals) & (vals == 0)).any():
        return False  # -0 is an int 0 in JSON; an overflow: the record-by-record pass
    if not step_key and record_steps.is_open(st) and record_steps.first_stepped([keys[j] for j in nums], have) \
            is not None:
        return False  # a record after the first chooses the step key (record_steps.py): the record-by-record pass
    sv = vals[:, at[keys.index(step_key)]] if step_key in keys else None
    if sv is not None and np.abs(np.nan_to_num(sv)).max(initial=0) >= 2.0 ** 63:
        return False
    mcols = [at[j] for j in metric_cols]
    keep = have[:, mcols].any(axis=1)  # a record with no metric (only a step) is skipped
    lines(first + "\n", em)  # the first record: run boundary, step key, state
    assert st.get("step_key") == step_key  # the first record chose the step key as above
    if "total_steps" in keys:
        t = vals[:, at[keys.index("total_steps")]]
        ok = np.flatnonzero(~np.isnan(t) & (t > 0) & (t == np.floor(t)))
        if len(ok):
            em.total_steps = st["total"] = int(float(t[ok[-1]]))
    vals, have = vals[keep], have[keep]
    r = len(vals)
    if not r:
        return True
    n0 = int(st.get("n", 0))
    steps = np.arange(n0, n0 + r, dtype=np.int64)
    if sv is not None:
        s = sv[keep]
        given = ~np.isnan(s)
        steps[given] = np.trunc(s[given]).astype(np.int64)
        record_steps.read_at_index(st, [keys[j] for j in metric_cols if have[~given, at[j]].any()])
    else:
        record_steps.read_at_index(st, [keys[j] for j in metric_cols if have[:, at[j]].any()])
    order = sorted(metric_cols, key=lambda j: (int(np.argmax(have[:, at[j]])) if have[:, at[j]].any() else r, j))
    for j in order:
        h = have[:, at[j]]
        if h.all():
            em.extend(keys[j], steps, np.ascontiguousarray(vals[:, at[j]]))
        elif h.any():
            em.extend(keys[j], steps[h], vals[:, at[j]][h])
    st["n"] = n0 + r
    last = int(st["last_step"])  # the first record set it
    moved = np.flatnonzero(steps[1:] != steps[:-1])
    tail = int(moved[-1]) + 1 if len(moved) else 0  # the last run of records of one step
    tail_keys = {keys[j] for j in metric_cols if have[tail:, at[j]].any()}
    if tail == 0 and int(steps[0]) == last:
        tail_keys |= set(st.get("last_keys", []))
    st["last_keys"] = sorted(tail_keys)[:200]
    st["last_step"] = int(steps[-1])
    return True


# the kernel's block path (kernel.json_records, _kernel_json.c): each key's mode, each cell's kind
_J_NUM, _J_FIXED, _J_VOLATILE, _J_NOQUOTE, _J_STEP = 0, 1, 2, 4, 8
_IS_NUM = 0
_MAX_SHAPES = 8  # key orders read at once (train and eval records, ...)
_RUN = 32  # records read at once that make the next miss cost one line again
_MAX_SKIP = 4096  # lines a miss may hand to the record pass at once


@dataclass(frozen=True)
class _Shape:
    """Records like one line, as the kernel reads them: the keys, each key's mode, each fixed string; the settings
    (the fixed strings with their keys: records of shapes with the same settings have one signature) and the
    shortest such record's length."""

    keys: tuple[str, ...]
    modes: bytes
    fixed: tuple[bytes, ...]
    settings: tuple[tuple[str, bytes], ...]
    shortest: int


def _shape(line: bytes) -> _Shape | None:
    """The shape of ``line``; None when it is no flat record of numbers, nulls, booleans and strings (nested, a
    lifecycle event, too long).

    Each key's values then keep the record pass's points and run boundaries: a string the line holds where a
    number is not read is that very string in every record (a setting: the signature stays); a volatile key's (a
    time, a message) may change when it holds ':' or is longer than 40 (never a number); a number may be quoted
    (fairseq: a point, no setting) but not under an event key (an event is a string there)."""
    if len(line) > _MAX_RECORD:
        return None
    try:
        obj = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(obj, dict) or not 0 < len(obj) <= _MAX_KEYS or _event(obj) in _LIFECYCLE:
        return None
    modes, fixed = bytearray(), []
    for key, v in obj.items():
        if not (v is None or isinstance(v, (int, float, str))):  # a bool is an int
            return None
        volatile = key not in _EVENT_KEYS and _VOLATILE.search(key) is not None
        mode, fix = (_J_VOLATILE if volatile else _J_NUM), b""
        if isinstance(v, str) and not volatile and (len(v) > 40 or to_value(v) is None):
            mode, fix = _J_FIXED, v.encode()
        modes.append(mode | (_J_NOQUOTE if key in _EVENT_KEYS else 0) | (_J_STEP if key in STEP_KEYS else 0))
        fixed.append(fix)
    keys = tuple(obj)
    settings = tuple((k, f) for k, m, f in zip(keys, modes, fixed, strict=True) if m & 3 == _J_FIXED)
    shortest = 2 + sum(len(k.encode()) + len(f) + 5 for k, f in zip(keys, fixed, strict=True))  # at least
    return _Shape(keys, bytes(modes), tuple(fixed), settings, shortest)


def _parse_columns(data: bytes, em: Emitter, lines) -> bool:
    """The points and state of ``lines`` (the record pass) on any block of complete lines without a lone CR: the
    runs of records of a few shapes (``_shape``: train and eval records) read by the C kernel into columns, each other
    line by the record pass; each miss (a line no run reads, or the end of a second short run in a row) hands twice as
    many lines to the record pass as the one before, until a long run is read again (odd lines alternating with
    records, or records of ever other settings, cost few tries).

    A run's shapes share their settings (one signature: no record in it but the first can start a run) and its
    columns (each shape's keys in order of first appearance) cost at most 4/9 of the bytes of its shortest record (its
    cells fit in about twice the block); a line of another shape starts a new run."""
    pos, n = 0, len(data)
    skip = 1  # lines the next miss hands to the record pass (doubled on each miss, 1 again after a long run)
    short = 0  # runs shorter than _RUN in a row
    shapes: list[_Shape] = []
    keys: list[str] = []  # the columns
    while pos < n:
        nl = data.find(b"\n", pos)
        if nl < 0:
            break
        shape = _shape(data[pos:nl])
        if shape is not None and shape not in shapes:
            width = len({*keys, *shape.keys})
            if not shapes or shape.settings != shapes[0].settings or len(shapes) == _MAX_SHAPES or (
                    9 * width > 4 * min(shape.shortest, *(s.shortest for s in shapes))):
                shapes, keys = [], []
            shapes.append(shape)
            keys += [k for k in shape.keys if k not in keys]
        if shape is not None:
            col = {k: j for j, k in enumerate(keys)}
            vals, kinds, starts, which = kernel.json_records(data, pos, tuple(
                (tuple(k.encode() for k in s.keys), s.modes, s.fixed,
                 np.array([col[k] for k in s.keys], dtype=np.int32).tobytes()) for s in shapes), len(keys), _MAX_RECORD)
            if len(vals):
                _columns(data, starts, vals, kinds == _IS_NUM, which, shapes, keys, em, lines)
                pos = int(starts[-1])
                short = short + 1 if len(vals) < _RUN else 0
                if short < 2 or pos == n:
                    skip = skip if short else 1
                    continue  # the line it stopped at: its shape next
        end = pos  # a miss (or the second short run in a row): the next skip lines by the record pass
        for _ in range(skip):
            end = data.find(b"\n", end) + 1 or n
        if b"\x1b" in data[pos:end]:
            break  # an escape code may reach past its line: the rest cleaned at once
        lines(data[pos:end].decode("utf-8", "replace"), em)
        pos = end
        skip = min(2 * skip, _MAX_SKIP)
    if pos < n:
        lines(clean_text(data[pos:].decode("utf-8", "replace")), em)
    return True


def _columns(data: bytes, starts: np.ndarray, vals: np.ndarray, num: np.ndarray, which: np.ndarray,
             shapes: list[_Shape], keys: list[str], em: Emitter, lines) -> None:
    """The records ``data[starts[i]:starts[i + 1]]`` (values ``vals`` in the columns ``keys``, ``num`` where a cell
    holds a number, of shape ``shapes[which[i]]``) as the record pass gives them: the first, and any before the first
    with a metric, through ``lines`` (run boundary, step key, state); the others then cannot start a run (their
    settings are the first's, no event) and extend the columns."""
    r = len(vals)
    lines(data[starts[0]:starts[1]].decode("utf-8", "replace"), em)
    st = em.state
    done = 1  # the records the record pass has read
    if record_steps.is_open(st):  # the step key is chosen on the first record holding one: by the record pass
        stepped = record_steps.first_stepped(keys, num[1:])
        if stepped is not None:
            done = stepped + 2
            lines(data[starts[1]:starts[done]].decode("utf-8", "replace"), em)
    step_key = st["step_key"]  # the record pass chose it at the latest on those records
    metric = [j for j, key in enumerate(keys) if key not in (step_key, "total_steps")]
    has = np.asarray(num[:, metric].any(axis=1))  # a metric record (else skipped: run_start stays)
    first = done - 1 + int(np.argmax(has[done - 1:])) if has[done - 1:].any() else r - 1
    if first + 1 > done:
        lines(data[starts[done]:starts[first + 1]].decode("utf-8", "replace"), em)
    if first + 1 >= r:
        return
    vals, num, has, which = vals[first + 1:], num[first + 1:], has[first + 1:], which[first + 1:]
    if "total_steps" in keys:
        c = keys.index("total_steps")
        t = vals[:, c]
        ok = np.flatnonzero(num[:, c] & np.isfinite(t) & (t > 0) & (t == np.floor(t)))
        if len(ok):
            em.total_steps = st["total"] = int(float(t[ok[-1]]))
    vals, num, which = vals[has], num[has], which[has]
    m = len(vals)
    if not m:
        return
    n0 = int(st.get("n", 0))
    steps = np.arange(n0, n0 + m, dtype=np.int64)
    if step_key in keys:
        c = keys.index(step_key)
        given = num[:, c] & np.isfinite(vals[:, c])  # below 2**63: the kernel refuses a step beyond
        steps[given] = np.trunc(vals[given, c]).astype(np.int64)
    else:
        record_steps.read_at_index(st, [keys[j] for j in metric if num[:, j].any()])
    seen = np.asarray(num.any(axis=0))
    at = num.argmax(axis=0)
    place = [{k: i for i, k in enumerate(s.keys)} for s in shapes]  # a key's place in its record

    def first_seen(j: int) -> tuple[int, int]:
        row = int(at[j])
        return row, place[int(which[row])][keys[j]]

    for j in sorted((j for j in metric if seen[j]), key=first_seen):  # in the order the record pass meets them
        h = num[:, j]
        if h.all():
            em.extend(keys[j], steps, np.ascontiguousarray(vals[:, j]))
        else:
            em.extend(keys[j], steps[h], vals[h, j])
    st["n"] = n0 + m
    last = int(st["last_step"])
    moved = np.flatnonzero(steps[1:] != steps[:-1])
    tail = int(moved[-1]) + 1 if len(moved) else 0  # the last run of records of one step
    tail_keys = {keys[j] for j in metric if num[tail:, j].any()}
    if tail == 0 and int(steps[0]) == last:
        tail_keys |= set(st.get("last_keys", []))
    st["last_keys"] = sorted(tail_keys)[:200]
    st["last_step"] = int(steps[-1])
