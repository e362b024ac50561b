"""The JSON-lines block path in C (kernel.json_records, tools/parsers/_kernel_json.c, read by jsonl._parse_columns)
against the record-by-record pass (JsonLinesFormat._parse_lines, json.loads per line): the same points (names,
order, steps, values bit for bit) and the same state, on random blocks of flat records (numbers in every JSON
spelling and many that are not JSON, nulls, strings, keys of every kind, whitespace, garbage, truncated lines, NUL
bytes, CRLF) read at once and in pieces, and on every .jsonl file of the corpora; and against the pandas paths the
reader takes without the kernel. KERNEL_EXAMPLES raises the number of random examples (fuzzing); under ASan/UBSan as
tests/test_kernel.py's header says, with this file.
"""

from __future__ import annotations

import gc
import json
import math
import os
import struct
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from training_check.tools.parsers import jsonl, kernel
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.fastpath import crlf_to_lf
from training_check.tools.parsers.jsonl import JsonLinesFormat
from training_check.tools.parsers.text import clean_block

from .conftest import CORPUS, REPO, require

try:
    from training_check.tools.parsers import _kernel
except ImportError:  # a machine without a C compiler: the tests that need it fail in CI, skip elsewhere
    _kernel = None  # type: ignore[assignment]

EXAMPLES = int(os.environ.get("KERNEL_EXAMPLES", "300"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                                  HealthCheck.data_too_large])
FILES = sorted({*CORPUS.parent.rglob("*.jsonl"), *(REPO / "examples").rglob("*.jsonl")})


@pytest.fixture(scope="module")
def k():
    require(_kernel is not None and kernel.HAVE_KERNEL,
            "the C extension training_check.tools.parsers._kernel (pip install -e . builds it)")
    return _kernel


def test_the_extension_is_built():
    """CI builds the extension: without it every JSON-lines block pays pandas' path."""
    require(_kernel is not None and kernel.HAVE_KERNEL,
            "the C extension training_check.tools.parsers._kernel (pip install -e . builds it)")


# ---------------------------------------------------------------- what is compared


def _points(em: Emitter) -> list[tuple[str, list[int], bytes]]:
    """(metric, steps, the values' bits) in the emitter's order."""
    return [(key, c.steps.tolist(), np.ascontiguousarray(c.values, dtype=np.float64).tobytes())
            for key, c in em.build().columns.items()]


def _outcome(em: Emitter) -> tuple:
    return (_points(em), em.state, em.total_steps, em.runs, em.set_aside, em.started_new_run, em.aside_keys)


def _reader(blocks: list[bytes], state: dict | None, plain) -> Emitter:
    """Each block as the reader gives it to the format: ``plain`` (a block path), else cleaned for the record pass."""
    em, fmt = Emitter(state), JsonLinesFormat()
    for b in blocks:
        if not plain(fmt, b, em):
            text, _ = clean_block(b)
            fmt.parse(text, em)
        em.flush()
    return em


def _by_kernel(fmt: JsonLinesFormat, data: bytes, em: Emitter) -> bool:
    assert kernel.HAVE_KERNEL
    return fmt.parse_plain(data, em)


def _by_pandas(fmt: JsonLinesFormat, data: bytes, em: Emitter) -> bool:
    lf = crlf_to_lf(data)
    return lf is not None and (jsonl._parse_plain(lf, em, fmt._parse_lines) or
                               jsonl._parse_records(lf, em, fmt._parse_lines))


def _by_records(fmt: JsonLinesFormat, data: bytes, em: Emitter) -> bool:
    return False


def _check(blocks: list[bytes], state: dict | None = None) -> None:
    ref = _outcome(_reader(blocks, state, _by_records))
    assert _outcome(_reader(blocks, state, _by_kernel)) == ref, blocks
    assert _outcome(_reader(blocks, state, _by_pandas)) == ref, blocks


# ---------------------------------------------------------------- random blocks

KEYS = ["step", "loss", "lr", "epoch", "current_steps", "total_steps", "iter", "elapsed_time", "msg", "event", "type",
        "run", "l1", "grad norm", "ключ", "x/y", "eval_loss", "status", "a\u00e9b", "timestamp", "config", "_step"]
VALID_NUMBERS = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.integers(-2**70, 2**70).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda v: f"{v:.6e}"),
    st.builds(lambda m, e, c, s: f"{m}{c}{s}{e}", st.sampled_from(["1", "-2.5", "0", "-0", "9.999999999999999",
                                                                   "12345678901234567", "0.1"]),
              st.integers(0, 400), st.sampled_from("eE"), st.sampled_from(["", "+", "-", "-0", "0"])),
    st.sampled_from(["0", "-0", "-0.0", "0.0", "1e400", "-1e400", "1e-400", "2.2250738585072011e-308",
                     "4.9e-324", "1.7976931348623157e308", "0.30000000000000004", "123456789012345678901234567890",
                     "1" + "0" * 300, "1" + "0" * 308, "9" * 309, "9" * 25 + ".5", "0.0000000000000000000001",
                     "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e19",
                     "18446744073709551616"]),
)
INVALID = [".5", "05", "1.", "+1", "inf", "-inf", "Infinity", "-Infinity", "NaN", "nan", "-",
                                   "1e", "1e+", "--1", "1.5.2", "0x10", "1_000", "-.5", "-05", "00", "5.e3", "1E",
           "true", "false", "nul", "NULL", "[]", "{}", "1 2", "- 1", "٣"]
INVALID_NUMBERS = st.sampled_from(INVALID)
STRINGS = st.one_of(
    st.sampled_from(["0:01", "4 days, 5:06:09", "12.5", "-0", "1e5", "x", "", "nan", "NaN", "-Infinity", "+INF",
                     "inFinity ", " 1.5", "1.5ms", "start", "end",
                     "run-a", "é:1", "a" * 41, "é" * 30, "é" * 41, "1" * 41, "1" * 40, "a\\\"b", "\\u0041", "a\\nb",
                     "a\x00b", "a\tb", "\x1b[31m", "x\x7fy", "\u2028", "１２", "0:0" + "1" * 40]),
    st.text(st.characters(codec="utf-8", exclude_characters='"\\\n\r'), max_size=45),
)
SPACE = st.sampled_from(["", "", "", " ", " ", "  ", "\t", "\r", "\x0c", "\x00"])


@st.composite
def value(draw, kind: str, noisy: bool) -> str:
    if noisy and draw(st.integers(0, 29)) == 0:  # anything, now and then
        kind = draw(st.sampled_from(["num", "null", "str", "qnum", "bad", "fixed:a"]))
    if kind == "num":
        return draw(VALID_NUMBERS)
    if kind == "null":
        return draw(st.sampled_from(["null", "null", draw(VALID_NUMBERS)]))
    if kind == "qnum":
        return '"' + draw(VALID_NUMBERS) + '"'
    if kind == "bad":
        return draw(INVALID_NUMBERS)
    if kind.startswith("fixed:"):
        return '"' + kind[6:] + '"'
    if kind.startswith("strs:"):  # one of the block's strings for this key
        return '"' + draw(st.sampled_from(kind[5:].split("\x00\x00"))) + '"'
    return '"' + draw(STRINGS) + '"'


@st.composite
def record(draw, keys: list[str], kinds: list[str], spaces: tuple[str, str, str, str], noisy: bool) -> str:
    pre, before, after, end = spaces
    if noisy and draw(st.integers(0, 19)) == 0:
        pre, before, after, end = (draw(SPACE) for _ in range(4))
    keys, kinds = list(keys), list(kinds)
    edit = draw(st.integers(0, 19)) if noisy else -1
    if edit == 0 and len(keys) > 1:  # a key missing
        i = draw(st.integers(0, len(keys) - 1))
        del keys[i], kinds[i]
    elif edit == 1:  # a key more
        keys.append(draw(st.sampled_from(KEYS)))
        kinds.append("num")
    elif edit == 2 and len(keys) > 1:  # two swapped
        keys[0], keys[1] = keys[1], keys[0]
    cells = [f'"{key}"{after}:{after}{draw(value(kind, noisy))}' for key, kind in zip(keys, kinds, strict=True)]
    return pre + "{" + before + (before + "," + before).join(cells) + before + "}" + end


@st.composite
def line(draw, shapes: list[tuple[list[str], list[str]]], spaces: tuple[str, str, str, str], noisy: bool) -> str:
    keys, kinds = shapes[0] if len(shapes) == 1 or draw(st.integers(0, 3)) else shapes[1]
    shape = draw(st.integers(0, 29)) if noisy else -1
    if shape == 0:
        return draw(st.sampled_from(["", "garbage", "step 3 saved", "{", "}", "{}", "[1, 2]", '"x"', "\x00" * 5,
                                     '{"event": "start"}', '{"event": "end", "step": 3}', '{"type": "Resume"}',
                                     '{"step": 1, "loss": {"a": 1}}', '{"step": 2, "ok": true}',
                                     '{"config": {"lr": 1}, "loss": 2}', "\x1b]0;title", "\x07",
                                     '{"step": 1, "loss": 2, "loss": 3}', '{"loss": NaN}', '{"loss": -Infinity}']))
    text = draw(record(keys, kinds, spaces, noisy))
    if shape == 1:  # truncated
        text = text[:draw(st.integers(0, len(text)))]
    elif shape == 2:  # a byte changed
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from(["\x00", ",", ":", '"', "}", "{", " ", "\\", "5", "\r", "\x1b"])) + \
            text[i + 1:]
    return text


@st.composite
def block(draw) -> tuple[list[bytes], dict | None]:
    kind = st.sampled_from(["num", "num", "null", "qnum", "str", "fixed:" + draw(st.sampled_from(
        ["a", "run-b", "x" * 41, "é"])), "strs:" + "\x00\x00".join(draw(st.lists(STRINGS, min_size=1, max_size=2)))])
    shapes = []  # one key order, or two (train and eval records: keys shared, in another order, or not)
    for _ in range(draw(st.integers(1, 2))):
        keys = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=6, unique=True))
        shapes.append((keys, [draw(kind) for _ in keys]))
    if len(shapes) == 2 and draw(st.booleans()):  # the first's keys and kinds, reordered, one kept or dropped
        keys, kinds = shapes[0]
        pairs = draw(st.permutations(list(zip(keys, kinds, strict=True))))
        pairs = pairs[:draw(st.integers(1, len(pairs)))] + [(k, "num") for k in shapes[1][0] if k not in keys][:2]
        shapes[1] = ([k for k, _ in pairs], [c for _, c in pairs])
    spaces = (draw(st.sampled_from(["", " ", "\t "])), draw(st.sampled_from(["", " "])),
              draw(st.sampled_from(["", " "])), draw(st.sampled_from(["", " "])))
    noisy = draw(st.booleans())  # else records only (long runs for the kernel; their values may still stop it)
    size = draw(st.integers(1, 60))
    lines = draw(st.lists(line(shapes, spaces, noisy), min_size=size, max_size=size))
    eol = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    data = (eol.join(lines) + (eol if draw(st.booleans()) else "")).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:  # bytes that are no UTF-8
        i = draw(st.integers(0, len(data)))
        data = data[:i] + draw(st.sampled_from([b"\xff", b"\xc3", b"\x80", b"\xed\xa0\x80"])) + data[i:]
    # pieces at line ends, as a growing file is read (the last may lack its newline only when the data does)
    ends = [i + 1 for i, c in enumerate(data) if c == 10]
    cuts = sorted(draw(st.sets(st.integers(0, len(ends) - 1), max_size=4))) if ends else []
    bounds = [0] + [ends[c] for c in cuts] + [len(data)]
    blocks = [data[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]
    state = draw(st.sampled_from([None, None, {"sig": "other", "run_start": True, "first_step": 0, "last_step": 400,
                                               "n": 7, "step_key": "step", "last_keys": ["loss"]},
                                  {"step_key": "", "n": 2}, {"step_key": "epoch", "last_step": 3, "first_step": 1,
                                                             "last_keys": ["a", "loss"], "sig": "x"}]))
    return blocks, state


@SETTINGS
@given(case=block())
def test_random_blocks_read_as_the_record_pass(k, case):
    blocks, state = case
    _check(blocks, state)
    _check([b"".join(blocks)], state)


def test_the_record_pass_reads_an_int_past_the_float_range_as_inf_and_drops_a_step_past_int64():
    """Two answers of the record pass the block paths are held to: an int too large for a float is inf (as float()
    reads its text; it raised OverflowError, failing the read), a record whose step is past int64 gives no point (the
    batch dropped it at its build, yet the run's set-aside count had seen it)."""
    em = Emitter()
    JsonLinesFormat().parse(f'{{"step": 1, "loss": {"9" * 400}, "lr": -{"9" * 400}}}\n'
                            f'{{"step": {2 ** 63}, "loss": 1.5}}\n{{"step": 3, "loss": 2.5}}\n', em)
    assert [(key, s, np.frombuffer(v).tolist()) for key, s, v in _points(em)] == [
        ("loss", [1, 3], [math.inf, 2.5]), ("lr", [1], [-math.inf])]
    assert em.state["n"] == 3 and len(em) == 3


# ---------------------------------------------------------------- the corpora


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_every_corpus_file_reads_as_the_record_pass(k, path: Path):
    data = path.read_bytes()
    _check([data])
    ends = [i + 1 for i, c in enumerate(data) if c == 10]
    _check([data[a:b] for a, b in zip([0, *ends[::7]], [*ends[::7], len(data)], strict=True) if b > a])


def test_the_corpora_are_there():
    require(len(FILES) >= 10 and any("llamafactory" in p.name for p in FILES),
            f"the shared corpus at {CORPUS.parent} (set TRAINING_CHECK_CORPUS)")


# ---------------------------------------------------------------- the kernel itself


def _read(data: bytes, keys: list[str], modes: list[int], fixed: list[bytes] | None = None, start: int = 0,
          max_record: int = 1 << 14):
    """json_records with one shape, its keys in columns 0, 1, ...: (values, kinds, starts)."""
    vals, kinds, starts, which = kernel.json_records(data, start, (_shape(keys, modes, fixed),), len(keys), max_record)
    assert not which.any()
    return vals, kinds, starts


def _shape(keys: list[str], modes: list[int], fixed: list[bytes] | None = None, cols: list[int] | None = None):
    return (tuple(x.encode() for x in keys), bytes(modes), tuple(fixed or [b""] * len(keys)),
            np.array(cols if cols is not None else range(len(keys)), dtype=np.int32).tobytes())


@pytest.mark.parametrize("text", ["0", "-0.0", "1e400", "-1e400", "1e-400", "4.9e-324", "2.2250738585072011e-308",
                                  "0.30000000000000004", "123456789012345678901234567890.5", "1.7976931348623157e308",
                                  "9" * 300, "1E+5", "1e-05", "3.141592653589793238462643383279", "17.000000000000001"])
def test_numbers_are_floats_bit_for_bit(k, text):
    for quoted in (False, True):
        data = f'{{"a": {json.dumps(text) if quoted else text}}}\n'.encode()
        vals, kinds, starts = _read(data, ["a"], [0])
        if quoted and len(text) > 40:  # a string that long is no point (the record pass reads only 40)
            assert len(vals) == 0
            continue
        want = float(text) if quoted or any(c in text for c in ".eE") else float(int(text))
        assert (len(vals), kinds.tolist()) == (1, [[0]]) and struct.pack("<d", vals[0, 0]) == struct.pack("<d", want)


def test_null_true_and_false_are_no_number_but_where_a_string_is_fixed(k):
    vals, kinds, _ = _read(b'{"a": null, "b": true, "c": false}\n', ["a", "b", "c"], [0, 2, 8])
    assert kinds.tolist() == [[1, 1, 1]] and np.isnan(vals).all()
    assert len(_read(b'{"a": true}\n', ["a"], [1], [b"true"])[0]) == 0


def test_quoted_nan_and_inf_are_what_float_reads(k):
    words = ["NaN", "nan", "-nan", "+NAN", "inf", "-Infinity", "INFINITY", "+inf"]
    data = ("{" + ", ".join(f'"k{i}": "{w}"' for i, w in enumerate(words)) + "}\n").encode()
    vals, kinds, _ = _read(data, [f"k{i}" for i in range(len(words))], [0] * len(words))
    assert not kinds.any() and vals[0].tobytes() == np.array([float(w) for w in words]).tobytes()
    for word, mode in [("nan", 8), ("nan", 4), ("nan ", 0), ("nana", 0), ("infinit", 0), ("--inf", 0)]:
        assert len(_read(f'{{"a": "{word}"}}\n'.encode(), ["a"], [mode])[0]) == 0, word


def test_the_int_minus_zero_is_plus_zero_a_quoted_one_is_not(k):
    vals, _, _ = _read(b'{"a": -0, "b": "-0", "c": -0.0}\n', ["a", "b", "c"], [0, 0, 0])
    assert np.signbit(vals[0]).tolist() == [False, True, True]


@pytest.mark.parametrize("bad", [b for b in INVALID if b not in ("true", "false")])
def test_what_json_rejects_ends_the_run(k, bad):
    data = b'{"a": 1}\n{"a": ' + bad.encode() + b'}\n{"a": 2}\n'
    vals, _, starts = _read(data, ["a"], [0])
    assert len(vals) == 1 and starts.tolist() == [0, 9]


@pytest.mark.parametrize(("row", "mode"), [
    ('{"a": "x\\"y:"}', 2),  # an escape
    ('{"a": "x\x00y:"}', 2),  # a control byte in a string
    ('{"a": "0:1"}', 0),  # a string where a number is read
    ('{"a": "7"}', 4),  # a quoted number under an event key
    ('{"a": "12"}', 1),  # not the fixed string
    ('{"a": null}', 1),
    ('{"a": 11}', 1),
    ('{"a": "short"}', 2),  # a volatile string that might read as a number
    ('{"a": "1.5 "}', 2),
    ('{"a": 1e19}', 8),  # a step past int64
    ('{"a": -9223372036854775809}', 8),
    ('{"a": 1' + "0" * 301 + "}", 0),  # float(int) may overflow
    ('{"a": 1}x', 0),
    ('{"a": 1,}', 0),
    ('{"a" 1}', 0),
    ('{"A": 1}', 0),
    ('{"a": 1}\r', 0),
    ('{"a": 1, "a": 2}', 0),
    ('{"a": [1]}', 0),
    ('{"a": 1', 0),
    ('\x00{"a": 1}', 0),
])
def test_lines_that_are_no_such_record_end_the_run(k, row, mode):
    good = {1: b'{"a": "11"}\n', 2: b'{"a": "0:1"}\n'}.get(mode & 3, b'{"a": 7}\n')
    vals, _, starts = _read(good + row.encode() + b"\n" + good, ["a"], [mode], [b"11"])
    assert len(vals) == 1 and starts.tolist() == [0, len(good)]


def test_the_kinds_and_what_each_mode_takes(k):
    data = ('{"s": 1, "t": "0:01", "f": "run-a", "q": "2.5", "n": null}\n'
            '{"s": "2", "t": "' + "é" * 41 + '", "f": "run-a", "q": 3, "n": 1}\n'
            '{"s": 3, "t": 4, "f": "run-a", "q": null, "n": "-1e-3"}\n').encode()
    vals, kinds, starts = _read(data, ["s", "t", "f", "q", "n"], [8, 2, 1, 0, 0], [b"", b"", b"run-a", b"", b""])
    assert kinds.tolist() == [[0, 2, 2, 0, 1], [0, 2, 2, 0, 0], [0, 0, 2, 1, 0]]
    assert np.array_equal(vals, [[1, np.nan, np.nan, 2.5, np.nan], [2, np.nan, np.nan, 3, 1], [3, 4, np.nan, np.nan,
                                                                                               -1e-3]], equal_nan=True)
    assert starts.tolist() == [0, data.index(b"\n") + 1, data.index(b"\n", data.index(b"\n") + 1) + 1, len(data)]


def test_start_and_the_record_cap(k):
    row = b'{"a": 1, "bb": 2}\n'
    assert _read(row * 3, ["a", "bb"], [0, 0], start=len(row))[2].tolist() == [18, 36, 54]
    assert len(_read(row * 3, ["a", "bb"], [0, 0], max_record=len(row) - 1)[0]) == 3
    assert len(_read(row * 3, ["a", "bb"], [0, 0], max_record=len(row) - 2)[0]) == 0
    assert len(_read(row[:-1], ["a", "bb"], [0, 0])[0]) == 0  # no newline: not a whole line


def test_shapes_read_into_their_columns(k):
    data = b'{"step": 1, "loss": 2.5}\n{"step": 1, "acc": true, "eval": 3}\n{"step": 2, "loss": 2.4}\n{"x": 1}\n'
    vals, kinds, starts, which = kernel.json_records(data, 0, (_shape(["step", "loss"], [8, 0]), _shape(
        ["step", "acc", "eval"], [8, 0, 0], cols=[0, 3, 2])), 4, 1 << 14)
    assert which.tolist() == [0, 1, 0] and starts[-1] == data.index(b'{"x"')
    assert kinds.tolist() == [[0, 0, 1, 1], [0, 1, 0, 1], [0, 0, 1, 1]]
    assert np.array_equal(vals, [[1, 2.5, np.nan, np.nan], [1, np.nan, 3, np.nan], [2, 2.4, np.nan, np.nan]],
                          equal_nan=True)


SHAPE = ((b"a",), b"\x00", (b"",), b"\x00" * 4)


@pytest.mark.parametrize(("args", "error", "message"), [
    ((b"{}\n", 5, (SHAPE,), 1, 10), ValueError, "start 5 is outside 0 .. 3"),
    ((b"{}\n", 0, (), 1, 10), ValueError, "0 shapes"),
    ((b"{}\n", 0, (SHAPE,), 0, 10), ValueError, "width 0"),
    ((b"{}\n", 0, (SHAPE,), 1, 0), ValueError, "max_record 0"),
    ((b"{}\n", 0, (((b"a",), b"\x00\x00", (b"",), b"\x00" * 4),), 1, 10), ValueError, "1 keys .* 2 modes"),
    ((b"{}\n", 0, (((b"a",), b"\x00", (b"",), b"\x00" * 3),), 1, 10), ValueError, "3 bytes of columns"),
    ((b"{}\n", 0, (((b"a",), b"\x03", (b"",), b"\x00" * 4),), 1, 10), ValueError, "is no mode"),
    ((b"{}\n", 0, (((b"a",), b"\x10", (b"",), b"\x00" * 4),), 1, 10), ValueError, "is no mode"),
    ((b"{}\n", 0, (((b"a",), b"\x00", (b"",), b"\x01\x00\x00\x00"),), 1, 10), ValueError, "cols.0. = 1 is outside"),
    ((b"{}\n", 0, (((b"a",), b"\x00", (b"",), b"\xff\xff\xff\xff"),), 1, 10), ValueError, "cols.0. = -1 is outside"),
    ((b"{}\n", 0, ((("a",), b"\x00", (b"",), b"\x00" * 4),), 1, 10), TypeError, "must be bytes"),
    ((b"{}\n", 0, (([b"a"], b"\x00", (b"",), b"\x00" * 4),), 1, 10), TypeError, "must be \\(keys"),
    ((b"{}\n", 0, (SHAPE[:3],), 1, 10), TypeError, "must be \\(keys"),
])
def test_wrong_arguments_are_named(k, args, error, message):
    with pytest.raises(error, match=message):
        k.json_records(*args)


def test_without_the_kernel_the_wrapper_says_so(monkeypatch):
    monkeypatch.setattr(kernel, "_KERNEL", None)
    with pytest.raises(RuntimeError, match="not built"):
        kernel.json_records(b"", 0, (SHAPE,), 1, 10)


# ---------------------------------------------------------------- which path reads what


def _llamafactory(n: int) -> bytes:
    return "".join(f'{{"current_steps": {5 * i}, "total_steps": 8712, "loss": {1.7 - i / 1e4}, "eval_loss": null, '
                   f'"learning_rate": {5e-5 * (1 - i / 9000)!r}, "epoch": {i / 1000}, "percentage": {i / 87.12:.2f}, '
                   f'"elapsed_time": "0:{i // 60:02d}:{i % 60:02d}", "remaining_time": "4 days, 5:06:09"}}\n'
                   for i in range(1, n + 1)).encode()


def test_a_block_of_records_takes_the_kernel_whole(k, monkeypatch):
    seen: list[str] = []
    fmt = JsonLinesFormat()
    real = fmt._parse_lines
    monkeypatch.setattr(fmt, "_parse_lines", lambda text, em: (seen.append(text), real(text, em)))
    em = Emitter()
    data = _llamafactory(2000) + _llamafactory(30)  # steps restart: no new run (same settings, no start event)
    assert fmt.parse_plain(data, em)
    assert len(seen) == 1 and seen[0] == data[:data.index(b"\n") + 1].decode()  # only the first record
    assert _outcome(em) == _outcome(_reader([data], None, _by_records))
    # fairseq writes numbers as strings: the same points as numbers
    quoted = b'{"epoch": 1, "update": 5, "loss": "9.12", "lr": "0.0005"}\n{"epoch": 1, "update": 6, "loss": ' \
        b'"9.01", "lr": "0.0005"}\n'
    seen.clear()
    em = Emitter()
    assert fmt.parse_plain(quoted * 50, em) and len(seen) == 1
    assert [(key, s[:2]) for key, s, _ in _points(em)] == [("epoch", [5, 6]), ("loss", [5, 6]), ("lr", [5, 6])]
    assert _outcome(em) == _outcome(_reader([quoted * 50], None, _by_records))


def test_keys_met_in_one_record_keep_its_order(k):
    """Keys first numbered in one record are the record pass's in that record's order, whatever the columns'."""
    data = b'{"step": 1, "a": null, "b": null, "loss": 1}\n{"step": 2, "b": 5, "a": 6, "loss": 2}\n' \
        b'{"step": 3, "a": null, "b": null, "loss": 1}\n{"step": 4, "b": 5, "a": 6, "loss": 2}\n' \
        b'{"step": 5, "c": 1, "b": 2, "loss": 0}\n{"step": 6, "c": 1, "b": 2, "loss": 0}\n'
    em = Emitter()
    assert JsonLinesFormat().parse_plain(data, em)
    assert [key for key, _, _ in _points(em)] == ["loss", "b", "a", "c"]
    assert _outcome(em) == _outcome(_reader([data], None, _by_records))


def test_odd_lines_cost_their_line_and_runs_go_on(k, monkeypatch):
    seen: list[str] = []
    fmt = JsonLinesFormat()
    real = fmt._parse_lines
    monkeypatch.setattr(fmt, "_parse_lines", lambda text, em: (seen.append(text), real(text, em)))
    rows = _llamafactory(100).splitlines(keepends=True)
    data = b'{"event": "start"}\n' + b"".join(rows[:50]) + b'{"current_steps": 250, "eval_loss": 1.5}\n' + \
        b"".join(rows[50:])
    em = Emitter()
    assert fmt.parse_plain(data, em)
    assert len(seen) == 3  # the start event, the first record, the eval record (then both shapes in one run)
    assert _outcome(em) == _outcome(_reader([data], None, _by_records))


def _seconds(read, data: bytes) -> float:
    """The least of three timed reads, the garbage collector held off (a full collection is no cost of the read)."""
    gc.collect()
    gc.disable()
    try:
        times = []
        for _ in range(3):
            t = time.perf_counter()
            read(data)
            times.append(time.perf_counter() - t)
        return min(times)
    finally:
        gc.enable()


def test_hostile_blocks_cost_what_the_record_pass_costs(k):
    """Odd lines alternating with records cost few tries (each miss hands twice as many lines to the record pass),
    so do records of ever other settings; a key-count bomb, deep nesting and a giant number cost a scan: never much
    more than the record pass alone (timed against it, so that a slow machine or a sanitizer passes alike)."""
    fmt = JsonLinesFormat()
    many = b"{" + b", ".join(b'"k%d": 1' % i for i in range(15_000)) + b"}\n"  # under the metric-name cap
    huge = b'{"a": ' + b"1" * 5_000_000 + b"}\n"
    for data in (b'{"step": 1, "loss": 2}\nnoise\n' * 50_000,
                 b"".join(b'{"step": %d, "loss": 2, "run": "r%d"}\n' % (i, i) for i in range(50_000)),
                 many * 3, b"[" * 1_000_000 + b"\n", huge, b'{"a": 1}\n' + huge):
        slow = _seconds(lambda d: fmt._parse_lines(d.decode(), Emitter()), data)
        assert _seconds(lambda d: fmt.parse_plain(d, Emitter()), data) < 2 * slow + 0.1


def _read_growing(path: Path, pieces: list[bytes]) -> list:
    """What the reader returns after each piece is appended to ``path`` (a read per piece, from the cursor, each
    part of a long read taken in turn)."""
    from training_check.tools.sources.files import LocalFileSystem
    from training_check.tools.sources.logfile import LogFileSource

    path.write_bytes(b"")
    src = LogFileSource(LocalFileSystem(), str(path), chunk_bytes=1 << 12, part_bytes=1 << 14)
    cursor, out = None, []
    for piece in pieces:
        with path.open("ab") as f:
            f.write(piece)
        while True:
            r = src.read(cursor)
            prov = r.provisional
            same_file = {k: v for k, v in r.cursor.items() if k != "identity"}  # the file's inode
            out.append((_points_of(r.batch), same_file, r.reset, r.notes,
                        None if prov is None else (_points_of(prov.batch), prov.reset)))
            cursor = r.cursor
            if not r.more:
                break
    return out


def _points_of(batch) -> list[tuple[str, list[int], bytes]]:
    return [(key, c.steps.tolist(), np.ascontiguousarray(c.values).tobytes()) for key, c in batch.columns.items()]


@pytest.mark.parametrize("seed", range(4))
def test_a_growing_file_reads_as_without_the_kernel(k, tmp_path, monkeypatch, seed):
    """A log written in pieces (cut anywhere, odd lines among the records) and read after each: the same points,
    cursors and notes whether the kernel reads its blocks or pandas and the record pass do."""
    import random

    rnd = random.Random(seed)
    rows = _llamafactory(3000).splitlines(keepends=True)
    odd = [b'{"current_steps": 77, "eval_loss": 1.25, "epoch": 0.5}\n', b"noise\n", b'{"event": "start"}\n',
           b'{"current_steps": 5, "loss": "NaN"}\n', b"\x1b[31mred\x1b[0m\n", b'{"a": 1, "run": "b"}\n']
    data = b"".join(r if rnd.random() > 0.02 else rnd.choice(odd) + r for r in rows)
    cuts = sorted(rnd.sample(range(1, len(data)), 12))
    pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    with_kernel = _read_growing(tmp_path / "a.jsonl", pieces)
    monkeypatch.setattr(kernel, "HAVE_KERNEL", False)
    assert _read_growing(tmp_path / "b.jsonl", pieces) == with_kernel
