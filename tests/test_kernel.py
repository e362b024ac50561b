"""The C kernel (tools/parsers/_kernel.c) against its Python reference (the patterns of lines.py and templates.py,
numpy and pandas): the same codes and templates, the same field values bit for bit (float()'s rounding), the same bad
cells, the same cleaned text, the same write events taken, on random bytes and on real logs; the errors it raises;
the wrapper's fallback; the engine's points with and without it. KERNEL_EXAMPLES raises the number of random
examples (fuzzing). Under ASan/UBSan:

    INC=$(.venv/bin/python -c "import sysconfig; print(sysconfig.get_paths()['include'])")
    SO=tools/parsers/_kernel.cpython-311-x86_64-linux-gnu.so
    gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover -shared -fPIC -I$INC tools/parsers/_kernel.c -o $SO
    LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" ASAN_OPTIONS=detect_leaks=0 \
        KERNEL_EXAMPLES=3000 .venv/bin/python -m pytest -q tests/test_kernel.py      # then pip install -e . again
"""

from __future__ import annotations

import math
import os
import random
import struct
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from training_check.tools.parsers import kernel
from training_check.tools.parsers.templates import _factorize, templates_of, value_text

from .conftest import CORPUS, REPO, require

try:
    from training_check.tools.parsers import _kernel
except ImportError:  # a machine without a C compiler: the tests that need it fail in CI, skip elsewhere
    _kernel = None  # type: ignore[assignment]

EXAMPLES = int(os.environ.get("KERNEL_EXAMPLES", "300"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                                  HealthCheck.data_too_large])
CORPORA = [CORPUS, CORPUS.parent / "real-logs-2", REPO / "examples"]


@pytest.fixture(scope="module")
def k():
    require(_kernel is not None, "the C extension training_check.tools.parsers._kernel (pip install -e . builds it)")
    return _kernel


def test_the_extension_is_built():
    """CI builds the extension (gcc and Python headers are there): without it every read pays the Python path."""
    require(_kernel is not None and kernel.HAVE_KERNEL,
            "the C extension training_check.tools.parsers._kernel (pip install -e . builds it)")


# ---------------------------------------------------------------- references


def template_of(line: bytes) -> bytes:
    """One line's template, byte by byte: what templates_of makes (it also takes a \\x01 byte for a mark, and drops
    every \\x02 byte, its own marker of a repeated mark, after the marks are collapsed; lines never hold either)."""
    out = bytearray()
    prev_mark = False
    for c in line:
        if c >= 128:
            continue
        if c in b"0123456789.+-eE\x01":
            if not prev_mark:
                out.append(1)
            prev_mark = True
        else:
            if c != 2:
                out.append(c)
            prev_mark = False
    return bytes(out)


def templates_by_dict(joined: bytes) -> tuple[list[int], list[bytes]]:
    d: dict[bytes, int] = {}
    codes = [d.setdefault(template_of(ln), len(d)) for ln in joined.split(b"\n")]
    ref: dict[bytes, int] = {}
    ref_codes = [ref.setdefault(t, len(ref)) for t in templates_of(joined).split(b"\n")]
    # the definition is templates_of's (but for a text of one \\x02 byte, which templates_of returns as it is and
    # _factorize, the reference, reads as an empty template)
    if joined.translate(None, bytes(range(128, 256))) != b"\x02":
        assert (ref_codes, list(ref)) == (codes, list(d))
    return codes, list(d)


def check_templates(k, joined: bytes, pandas_too: bool = True) -> None:
    codes_b, uniques = k.templates(joined)
    codes = np.frombuffer(codes_b, dtype=np.int64)
    want_codes, want_uniques = templates_by_dict(joined)
    assert uniques == want_uniques
    assert codes.tolist() == want_codes
    if pandas_too and b"\r" not in joined:  # _factorize's pandas reader ends a line at a \r (lines never hold one)
        ref_codes, ref_uniques = _factorize(templates_of(joined), joined.count(b"\n") + 1)
        assert uniques == ref_uniques
        assert codes.tolist() == ref_codes.tolist()


def fields_reference(joined: bytes, starts: list[int], ends: list[int], cols: list[int]):
    """What the wrapper reads without the kernel (kernel._read_fields_reference: value_text, then float() per field)."""
    return kernel._read_fields_reference(joined, np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64),
                                         cols)


def same_floats(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal bit for bit (-0.0 is not 0.0), or both NaN."""
    nan = np.isnan(a) & np.isnan(b)
    return bool(((a.view(np.uint64) == b.view(np.uint64)) | nan).all())


def check_fields(k, joined: bytes, starts: list[int], ends: list[int], cols: list[int]) -> None:
    values_b, bad_b = k.fields(joined, np.array(starts, dtype=np.int64).tobytes(),
                               np.array(ends, dtype=np.int64).tobytes(), tuple(cols))
    values = np.frombuffer(values_b, dtype=np.float64).reshape(len(starts), len(cols))
    bad = np.frombuffer(bad_b, dtype=np.uint8).reshape(len(starts), len(cols)).astype(bool)
    want, want_bad = fields_reference(joined, starts, ends, cols)
    assert (bad == want_bad).all(), [(r, c) for r, c in zip(*np.nonzero(bad != want_bad), strict=True)][:5]
    assert same_floats(values, want), [(values[r, c], want[r, c]) for r, c in
                                      zip(*np.nonzero(~((values == want) | np.isnan(values) & np.isnan(want))),
                                          strict=True)][:5]


def offsets(lines: list[bytes]) -> tuple[bytes, list[int], list[int]]:
    starts, ends, at = [], [], 0
    for ln in lines:
        starts.append(at)
        ends.append(at + len(ln))
        at += len(ln) + 1
    return b"\n".join(lines), starts, ends


# ---------------------------------------------------------------- strategies

DIGITS = st.text("0123456789", min_size=1, max_size=30)


@st.composite
def number_text(draw) -> bytes:
    """Numbers as logs print them, and near misses: 20+ digit mantissas, huge/tiny exponents, signs, '-0'."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.sampled_from([b"+.+", b"-0", b"-0.0", b"0", b"-", b".", b"e5", b"1e", b"1.2.3", b"++1",
                                     b"1e400", b"-1e400", b"1e-400", b"4.9e-324", b"2.5e-324",
                                     b"1.7976931348623157e308", b"1.7976931348623159e308", b"9007199254740993", b"0.1",
                                     b"1.", b".5", b"+.5e+3",
                                     b"1e-5", b"00000.0000", b"1e0000000000000000000000001", b"-.e", b"+-1"]))
    if kind == 1:  # a double's repr or its exact decimal expansion (halfway cases)
        x = struct.unpack("<d", struct.pack("<Q", draw(st.integers(0, 2**64 - 1))))[0]
        return repr(x).encode() if draw(st.booleans()) else f"{x:.40e}".encode()
    if kind == 2:
        return draw(st.text("0123456789", min_size=19, max_size=400)).encode()
    mant = draw(DIGITS)
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(mant)))
        mant = mant[:cut] + "." + mant[cut:]
    sign = draw(st.sampled_from(["", "", "-", "+"]))
    exp = ""
    if draw(st.booleans()):
        exp = draw(st.sampled_from("eE")) + draw(st.sampled_from(["", "-", "+"])) + str(
            draw(st.one_of(st.integers(0, 25), st.integers(0, 400), st.integers(0, 10**30))))
    return (sign + mant + exp).encode()


PIECES = st.one_of(
    number_text(),
    st.binary(min_size=0, max_size=12),
    st.sampled_from([b" ", b"\t", b":", b",", b"|", b"=", b"[", b"]", b"'", b'"', b"\r", b"\x00", b"\x01", b"\x7f",
                     b"loss", b"step", b"lr", b"_", b"\xc3\xa9", b"\xff", b"nan", b"inf", b"e", b"E", b"  "]),
)


@st.composite
def a_line(draw) -> bytes:
    line = b"".join(draw(st.lists(PIECES, max_size=40)))
    return line.replace(b"\n", b" ")


@st.composite
def a_block(draw) -> bytes:
    """Lines of a few shapes repeated (templates recur) with empty lines, random bytes between."""
    shapes = draw(st.lists(a_line(), min_size=1, max_size=5))
    lines = []
    for _ in range(draw(st.integers(0, 60))):
        pick = draw(st.integers(0, len(shapes) + 1))
        lines.append(shapes[pick] if pick < len(shapes) else b"" if pick == len(shapes) else draw(a_line()))
    joined = b"\n".join(lines)
    if draw(st.booleans()):
        joined += b"\n"
    return joined


# ---------------------------------------------------------------- templates


@SETTINGS
@given(st.binary(max_size=600))
def test_templates_equal_the_reference_on_any_bytes(k, data):
    check_templates(k, data)


@SETTINGS
@given(a_block())
def test_templates_equal_the_reference_on_log_like_blocks(k, joined):
    check_templates(k, joined)


@SETTINGS
@given(st.binary(max_size=600))
def test_line_bounds_are_the_lines_of_any_bytes(k, data):
    data = data.replace(b"\x00", b"\n")  # more newlines: empty lines, newlines first and last
    want = data.split(b"\n")
    ends = np.frombuffer(k.line_ends(data), dtype=np.int64)
    for use_kernel in (True, False):
        starts, ends2 = kernel.line_bounds(data, use_kernel=use_kernel)
        assert ends2.dtype == np.int64 and ends2.tolist() == ends.tolist()
        assert [data[a:b] for a, b in zip(starts.tolist(), ends2.tolist(), strict=True)] == want


@SETTINGS
@given(st.binary(max_size=300), st.integers(-40, 40), st.integers(-40, 40), st.sampled_from([None, 1, 2, -1]))
def test_text_lines_are_the_lines_of_the_text(data, i, j, step):
    """The engine's lines when the kernel reads the block whole (lines.TextLines): a line cut out only when asked
    for, and every answer a list of the lines would give (an index, a negative one, one past the end, any slice)."""
    from training_check.tools.parsers.lines import TextLines

    data = data.replace(b"\x00", b"\n")
    want = data.split(b"\n")
    got = TextLines(data)
    assert len(got) == len(want) and list(got) == want
    assert got[i:j:step] == want[i:j:step]
    if -len(want) <= i < len(want):
        assert got[i] == want[i]
    else:
        with pytest.raises(IndexError):
            got[i]


# ---------------------------------------------------------------- bars

BAR_PIECES = [b"%", b"|", b"%|", b"%||", b"\n", b"#", b" ", b"\xe2\x96\x88", b"37", b"a" * 100, b"b" * 256, b"c" * 255,
              b"it/s]", b"[00:01<00:02]"]


def test_cut_bars_edges(k):
    from training_check.tools.parsers.lines import BAR

    for data in (b"", b"%", b"%|", b"|", b"%||", b"%|" + b"x" * 256 + b"|", b"%|" + b"x" * 257 + b"|",
                 b"%|" + b"x" * 255 + b"\n|", b"%|%|%|", b"%%||", b"%|" * 10_000, (b"9%|##  | 9/94\r") * 5000):
        assert k.cut_bars(data) == BAR.sub(b"%||", data), data[:40]


RECORD_PIECES = [b"{", b"'", b'"', b"{'", b'{"', b"x", b"\n", b"}"]
GLUED_PIECES = [b"]", b" ", b"  ", b"   ", b"    ", b"1", b"12", b"123", b"1234", b"%||", b"%|", b"%", b"|", b"\n",
                 b"it/s", b"x"]


def test_glued_and_records_edges(k):
    from training_check.tools.parsers.lines import GLUED_BAR

    for data in (b"", b"]", b"] 1%||", b"]" * 10_000, b"] 1%||" * 50_000, b"]   999%||]  1%|"):
        assert k.break_glued(data) == GLUED_BAR.sub(rb"]\n\1", data)
    for data in (b"", b"{", b"{'", b"{'" * 50_000, b"x{" * 10):
        assert k.break_records(data) == data.replace(b"{'", b"\n{'").replace(b'{"', b'\n{"')


MASK_PIECES = [b"nan", b"NaN", b"NAN", b"inf", b"Inf", b"INF", b"infinity", b"Infinity", b"INFINITY", b".0", b".00",
               b".", b"0", b"5", b"x", b"_", b" ", b"=", b"\n", b"\xe9", b"e", b"i", b"n", b"N", b"I", b"f", b"a", b"-"]


def test_mask_words_edges(k):
    from training_check.tools.parsers.templates import mask_numbers

    for data in (b"", b"nan", b"inf" * 10_000, b" inf" * 50_000, b"nan.0" + b"0" * 100_000, b"NAN.00nan",
                 b"nan.0inf", b"x\xc3nan", b"Infinity.0 -inf"):
        assert k.mask_words(data) == mask_numbers(data), data[:40]
    same = b"no words here"
    assert k.mask_words(same) is same


ANSI_PIECES = [b"\x1b", b"[", b"]", b"0", b"9", b";", b"?", b" ", b"/", b"@", b"m", b"~", b"\x07", b"\\", b"\n", b"a",
               b"\x7f", b"\x1f", b"1" * 70, b"!" * 20, b"x" * 600, b"\x1b[32m", b"\x1b]0;title\x07"]


BREAK_PIECES = [b"\r", b"\n", b"\r\n", b"\x08", b"\x08" * 3, b"\x00", b"\x01", b"\x1f", b"\x7f", b"\t", b"\x1b", b"a",
                 b"\x80", b"\xff", b"5", b" ", b"x" * 20]


def test_line_breaks_edges(k):
    """Every byte value at every place of a 16-byte step (the vector scan and its tail), runs of backspaces, a
    block that is all breaks (the output twice the input), and the input itself back when it holds no break."""
    from training_check.tools.parsers.lines import line_breaks_reference

    for c in range(256):
        for at in (0, 1, 15, 16, 17, 31, 40):
            data = b"y" * at + bytes([c]) + b"z" * 9
            assert k.line_breaks(data) == (line_breaks_reference(data), c == 0), (c, at)
    for data in (b"", b"\r", b"\r\n", b"\n\r", b"\x08", b"\x08" * 100_000, b"a\x08" * 50_000, b"\r\r\n\x08\r\n",
                 b"\r" * 33, b"x\r\n" * 40_000, b"\x00" * 70_000, b"a\x00\r\n\x00\x08\x00"):
        assert k.line_breaks(data) == (line_breaks_reference(data), data.count(b"\x00")), data[:40]
    same = b"step 1 loss 2.5\tok\x1b[0m\n" * 100
    assert k.line_breaks(same)[0] is same


KERAS_PIECES = [b"[", b"]", b"=", b"==", b">", b".", b"." * 30, b"=" * 254, b"=" * 256, b"=" * 257, b"\n", b"x", b" "]


def test_keras_bars_edges(k):
    from training_check.tools.parsers.lines import KERAS_BAR

    for data in (b"", b"[", b"[]", b"[=]", b"[==]", b"[" + b"=" * 256 + b"]", b"[" + b"=" * 257 + b"]", b"[[==]]",
                 b"[==>...]" * 50_000, b"[" * 100_000, (b"[" + b"." * 300) * 1000, b"1/8 [==>....] - ETA: 0s"):
        assert k.keras_bars(data) == KERAS_BAR.sub(b"[]", data), data[:40]
    same = b"[00:01<00:02, 3.5it/s] [x]"
    assert k.keras_bars(same) is same


def md_cells_reference(rows: bytes, k: int) -> list[list[float]] | None:
    """A markdown table's numeric rows cell by cell: each line spaces, a pipe, k cells each closed by a pipe, spaces;
    a cell blank, "-" or "@" (no number) or one run of number characters read by float(); None for anything else."""
    if not rows:
        return []
    if not rows.endswith(b"\n"):
        return None
    out = []
    for line in rows[:-1].split(b"\n"):
        line = line.strip(b" ")
        if len(line) < 2 or not line.startswith(b"|") or not line.endswith(b"|"):
            return None
        cells = line[1:-1].split(b"|")
        if len(cells) != k:
            return None
        row = []
        for cell in cells:
            token = cell.strip(b" ")
            if token in (b"", b"-", b"@"):
                row.append(math.nan)
                continue
            if token.strip(b"0123456789.+-eE") or b" " in token:
                return None
            try:
                row.append(float(token))
            except ValueError:
                return None
        out.append(row)
    return out


MD_PIECES = [b"|", b" ", b"  ", b"1", b"0.5", b"-", b"@", b"1e-3", b"+", b".", b"e", b"12345678901234567890", b"x",
             b"\t", b"\n", b"|\n", b"-1.25", b"inf", b"+.+"]


@SETTINGS
@given(st.lists(st.lists(st.sampled_from(MD_PIECES), max_size=12).map(b"".join), max_size=8), st.integers(1, 5))
def test_md_cells_read_the_cells_as_the_reference(k, lines, width):
    from training_check.tools.parsers.table import _md_cells

    rows = b"".join(ln + b"\n" for ln in lines)
    want = md_cells_reference(rows, width)
    got = _md_cells(rows, width)
    assert (got is None) == (want is None), (rows, want, got)
    if want is None or got is None:
        return
    assert len(got) == width
    table = np.array(want, dtype=np.float64).reshape(-1, width)
    for i in range(width):
        assert same_floats(got[i], table[:, i]), (rows, i)


def test_md_cells_rows_of_a_card(k):
    from training_check.tools.parsers.table import _md_cells

    rows = b"| 0.0111        | 7.63  | 1000 | 0.3210          | - |\n|@|1e-3|-0|  |5.|\n" * 3
    got = _md_cells(rows, 5)
    assert got is not None and md_cells_reference(rows, 5) is not None
    assert [c.tolist()[:2] for c in got][1:3] == [[7.63, 0.001], [1000.0, -0.0]]
    for bad in (b"| 1 2 | 3 |\n", b"| 1 | 2 |3\n", b"| 1 | 2 |\n\n", b"| 1-2 | 3 |\n", b"| 1 | x |\n", b"| 1 |\n"):
        assert _md_cells(bad, 2) is None, bad
    with pytest.raises(ValueError, match="out of range"):
        k.md_cells(b"|1|\n", 0)


def _cleaning() -> dict[str, tuple[Callable[[bytes], object], list[bytes], bytes]]:
    """Each cleaning step of a block: (its reference -- the pattern or Python step in lines.py / templates.py it
    replaces --, pieces of text that matter to it, the bytes that random bytes' \\x00, \\x01 ... become)."""
    from training_check.tools.parsers.lines import ANSI, BAR, GLUED_BAR, KERAS_BAR, line_breaks_reference
    from training_check.tools.parsers.templates import mask_numbers

    return {
        "cut_bars": (lambda d: BAR.sub(b"%||", d), BAR_PIECES, b"%|"),
        "break_glued": (lambda d: GLUED_BAR.sub(rb"]\n\1", d), GLUED_PIECES, b"]%| 1"),
        "break_records": (lambda d: d.replace(b"{'", b"\n{'").replace(b'{"', b'\n{"'), RECORD_PIECES, b"{'\""),
        "mask_words": (mask_numbers, MASK_PIECES, b""),
        "strip_ansi": (lambda d: ANSI.sub(b"", d), ANSI_PIECES, b"\x1b["),
        "line_breaks": (lambda d: (line_breaks_reference(d), d.count(b"\x00")), BREAK_PIECES, b""),
        "keras_bars": (lambda d: KERAS_BAR.sub(b"[]", d), KERAS_PIECES, b"[]=."),
    }


CLEANING = ["cut_bars", "break_glued", "break_records", "mask_words", "strip_ansi", "line_breaks", "keras_bars"]


@pytest.mark.parametrize("step", CLEANING)
@SETTINGS
@given(data=st.data())
def test_a_cleaning_step_equals_its_reference(k, step, data):
    """The kernel's step and the wrapper's fallback (forced) give what the step's reference gives, on the pieces
    that matter to it joined at random."""
    reference, pieces, _swaps = _cleaning()[step]
    text = b"".join(data.draw(st.lists(st.sampled_from(pieces), max_size=60)))
    want = reference(text)
    assert getattr(k, step)(text) == want
    assert getattr(kernel, step)(text, use_kernel=False) == want


@pytest.mark.parametrize("step", CLEANING)
@SETTINGS
@given(data=st.binary(max_size=800))
def test_a_cleaning_step_equals_its_reference_on_any_bytes(k, step, data):
    """Random bytes, the first few byte values turned into the ones that matter to the step."""
    reference, _pieces, swaps = _cleaning()[step]
    for i, b in enumerate(swaps):
        data = data.replace(bytes([i]), bytes([b]))
    assert getattr(k, step)(data) == reference(data)


def test_templates_edges(k):
    for joined in (b"", b"\n", b"\n\n", b"1\xc3\xa92", b"a1\xff2b\n1.5e-3x", b"\x00\x01\n\x01\x00", b"1" * 100_000,
                   b"x\n" * 5000, b"".join(b"t%d " % i for i in range(5000)), bytes(range(256)) * 40):
        check_templates(k, joined)
    codes, uniques = k.templates(b"1\xc3\xa92\nfoo 3\n\n")
    assert uniques == [b"\x01", b"foo \x01", b""]
    assert np.frombuffer(codes, np.int64).tolist() == [0, 1, 2, 2]


def test_templates_many_distinct_lines(k):
    """Thousands of distinct templates (the table grows and rehashes)."""
    lines = [b"key%s" % bytes([65 + i % 26, 97 + i // 26 % 26, 97 + i // 676 % 26]) for i in range(20_000)] * 2
    check_templates(k, b"\n".join(lines))


# ---------------------------------------------------------------- fields


@SETTINGS
@given(st.lists(a_line(), max_size=30), st.lists(st.integers(0, 60), max_size=12, unique=True))
def test_fields_equal_the_reference_on_log_like_lines(k, lines, cols):
    joined, starts, ends = offsets(lines)
    check_fields(k, joined, starts, ends, sorted(cols))


@SETTINGS
@given(st.binary(max_size=400), st.lists(st.tuples(st.integers(0, 400), st.integers(0, 400)), max_size=20),
       st.lists(st.integers(0, 40), max_size=8, unique=True))
def test_fields_equal_the_reference_on_any_bytes_and_spans(k, data, spans, cols):
    data = data.replace(b"\n", b" ")  # a line never holds a newline
    spans = [(min(a, b, len(data)), min(max(a, b), len(data))) for a, b in spans]
    check_fields(k, data, [a for a, _ in spans], [b for _, b in spans], sorted(cols))


@SETTINGS
@given(st.lists(number_text(), min_size=1, max_size=50), st.sampled_from([b" ", b", ", b"\t", b"|", b"=", b" x "]))
def test_fields_read_numbers_as_float_does(k, numbers, sep):
    line = sep.join(numbers)
    n_fields = len(value_text([line]).split(b","))
    check_fields(k, line, [0], [len(line)], list(range(n_fields + 2)))


def test_fields_wide_and_empty_lines(k):
    rng = random.Random(7)
    wide = b" ".join(repr(rng.uniform(-1e6, 1e6)).encode() for _ in range(5000))
    lines = [wide, b"", b"no numbers here", b"step 1 loss 2.5", wide[:3000]]
    joined, starts, ends = offsets(lines)
    check_fields(k, joined, starts, ends, list(range(0, 5003)))
    check_fields(k, joined, starts, ends, [4999, 5000, (1 << 20) - 1])
    check_fields(k, joined, starts, ends, [])
    check_fields(k, b"", [], [], [0, 1])


def test_fields_values(k):
    line = b"step 12: loss -0, +.+ 1e400 -1e400 1e-400 0.30000001192092896 1\xc3\xa92 1.2.3 - 7"
    values, bad = k.fields(line, np.array([0]), np.array([len(line)]), tuple(range(14)))
    got = np.frombuffer(values)
    assert got[1] == 12.0
    assert got[4] == 0.0 and np.signbit(got[4])  # "-0"
    assert np.isnan(got[6]) and bad[6] == 0  # the NaN mark
    assert got[7] == np.inf and got[8] == -np.inf and got[9] == 0.0
    assert got[10] == float("0.30000001192092896")
    assert got[11] == 12.0  # non-ASCII inside a number is skipped
    assert np.isnan(got[12]) and bad[12] == 1 and bad[13] == 1


def test_fields_errors_name_what_is_wrong(k):
    data = b"a 1\nb 2"
    ok = np.array([0, 4], np.int64)
    with pytest.raises(ValueError, match=r"line 1 has offsets \[4, 8\), outside 0 <= start <= end <= 7"):
        k.fields(data, ok, np.array([3, 8], np.int64), (1,))
    with pytest.raises(ValueError, match=r"line 0 has offsets \[-1, 3\)"):
        k.fields(data, np.array([-1, 4], np.int64), np.array([3, 7], np.int64), (1,))
    with pytest.raises(ValueError, match=r"line 0 has offsets \[2, 1\)"):
        k.fields(data, np.array([2, 4], np.int64), np.array([1, 7], np.int64), (1,))
    with pytest.raises(ValueError, match="sorted ascending and distinct"):
        k.fields(data, ok, np.array([3, 7], np.int64), (2, 1))
    with pytest.raises(ValueError, match="sorted ascending and distinct"):
        k.fields(data, ok, np.array([3, 7], np.int64), (1, 1))
    with pytest.raises(ValueError, match="out of range"):
        k.fields(data, ok, np.array([3, 7], np.int64), (1 << 20,))
    with pytest.raises(ValueError, match="out of range"):
        k.fields(data, ok, np.array([3, 7], np.int64), (-1,))
    with pytest.raises(ValueError, match="one length"):
        k.fields(data, ok, np.array([3], np.int64), (1,))
    with pytest.raises(ValueError, match="one length"):
        k.fields(data, b"\x00" * 7, b"\x00" * 7, (1,))
    with pytest.raises(TypeError, match="templates"):
        k.templates("text")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="line_ends"):
        k.line_ends(bytearray(b"text"))  # type: ignore[arg-type]
    for wrapper_call in (lambda: kernel.read_fields(data, ok, np.array([3, 8]), [1], use_kernel=False),
                         lambda: kernel.read_fields(data, ok, np.array([3, 7]), [2, 1], use_kernel=False),
                         lambda: kernel.read_fields(data, ok, np.array([3, 7]), [1 << 20], use_kernel=False)):
        with pytest.raises(ValueError, match="line 1 has offsets|sorted ascending|out of range"):
            wrapper_call()


def test_big_blocks_and_long_lines(k):
    """Megabytes of log-like lines, lines of 16 KB and more (a 200 KB run of digits and separators, a 100 KB word),
    numbers split by chunk edges: both functions equal the reference."""
    rng = random.Random(19)
    pieces = [b"step ", b"loss=", b"1.5e-3", b"42", b" | ", b"\t", b"\xc3\xa9", b"\xff", b"+.+", b"-0", b"nan",
              b"12345678901234567890123", b"0.30000001192092896", b"e", b"_x", b",", b":", b"[", b"]", b" "]
    lines = [b"".join(rng.choices(pieces, k=rng.choice([0, 3, 10, 40, 400, 3000]))) for _ in range(3000)]
    lines.append(b"1 " * 100_000)
    lines.append(b"x" * 100_000)
    lines.append(b"".join(rng.choices([b"1", b".", b"e", b"-", b" "], k=200_000)))
    rng.shuffle(lines)
    joined, starts, ends = offsets(lines)
    assert len(joined) > 2_000_000
    check_templates(k, joined)
    check_fields(k, joined, starts, ends, [0, 1, 2, 5, 17, 100, 1000, 4999, 20_000])
    # every line cut at random points (spans that end mid-number, at the block's last byte)
    cuts = [sorted((rng.randrange(s, e + 1), rng.randrange(s, e + 1))) for s, e in zip(starts, ends, strict=True)]
    check_fields(k, joined, [a for a, _ in cuts], [b for _, b in cuts], list(range(12)))


def test_the_scan_lets_other_threads_run(k):
    """Both functions release the GIL while they scan: a Python thread keeps running during a long call (a server
    answers other calls during a long read)."""
    import threading
    import time

    line = b"step 123 | loss 4.56789 | lr 3e-4 | grad_norm 1.2345 | tok/s 125862\n"
    joined = line * (120_000_000 // len(line))
    nl = np.flatnonzero(np.frombuffer(joined, np.uint8) == 10)
    starts, ends = np.concatenate(([0], nl + 1))[:-1], nl
    calls = [lambda: k.templates(joined), lambda: k.fields(joined, starts, ends, (1, 3, 5, 7, 9, 11))]

    def attempt(call) -> tuple[float, int, float]:
        t0 = time.perf_counter()
        call()
        alone = time.perf_counter() - t0
        done = threading.Event()
        worker = threading.Thread(target=lambda c=call, d=done: (c(), d.set()))
        gaps = []
        last = time.perf_counter()
        worker.start()
        while not done.is_set():
            now = time.perf_counter()
            gaps.append(now - last)
            last = now
        worker.join()
        return alone, len(gaps), max(gaps)

    for call in calls:
        # A call holding the GIL stalls this loop for the whole call on every attempt; a shared, loaded machine's
        # scheduler may stall it once for a few of its ticks: the best of three attempts tells the two apart.
        tries = [attempt(call) for _ in range(3)]
        assert any(alone > 0.02 and n > 100 and gap < alone / 2 for alone, n, gap in tries), tries  # (0.02 s and
        # more: long enough to tell)


# ---------------------------------------------------------------- real logs


def real_logs() -> list[Path]:
    files = [p for root in CORPORA if root.is_dir() for p in sorted(root.rglob("*")) if p.is_file()]
    return [p for p in files if p.suffix not in (".png", ".gz", ".zip") and "wandb" not in p.parts]


def test_real_logs_are_there():
    for root in CORPORA:
        require(root.is_dir(), f"the logs at {root} (set TRAINING_CHECK_CORPUS to the shared real-logs)")
    assert len(real_logs()) > 100


@pytest.mark.parametrize("path", real_logs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_logs(k, path):
    """Whole files, read in place: the templates of every line, and the fields of each recurring template's lines
    (every field up to 64), equal the reference."""
    joined = path.read_bytes()
    check_templates(k, joined)
    codes = np.frombuffer(k.templates(joined)[0], np.int64)
    starts, ends = kernel.line_bounds(joined)
    assert len(starts) == len(codes)
    counts = np.bincount(codes)
    for t in np.argsort(-counts)[:4].tolist():
        if counts[t] < 2:
            break
        idx = np.flatnonzero(codes == t)[:3000]
        first = joined[starts[idx[0]]:ends[idx[0]]]
        n_fields = min(len(value_text([first]).split(b",")) + 1, 64)
        check_fields(k, joined, starts[idx].tolist(), ends[idx].tolist(), list(range(n_fields)))


# ---------------------------------------------------------------- the wrapper


@settings(max_examples=max(EXAMPLES // 3, 50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a_block(), st.lists(st.integers(0, 30), max_size=8, unique=True))
def test_the_wrapper_gives_one_answer_with_and_without_the_kernel(joined, cols):
    """The fallback (forced) and the kernel (when built) agree; the fallback alone still answers right."""
    joined = joined.replace(b"\r", b"")  # _factorize's pandas reader ends a line at a \r (lines never hold one)
    codes_py, uniques_py = kernel.factorize_templates(joined, use_kernel=False)
    want_codes, want_uniques = templates_by_dict(joined)
    assert uniques_py == want_uniques and codes_py.tolist() == want_codes
    nl = np.flatnonzero(np.frombuffer(joined, np.uint8) == 10)
    starts, ends = np.concatenate(([0], nl + 1)), np.append(nl, len(joined))
    cols = sorted(cols)
    vals_py, bad_py = kernel.read_fields(joined, starts, ends, cols, use_kernel=False)
    want, want_bad = fields_reference(joined, starts.tolist(), ends.tolist(), cols)
    assert vals_py.shape == (len(starts), len(cols)) and bad_py.dtype == np.bool_
    assert same_floats(vals_py, want) and (bad_py == want_bad).all()
    if kernel.HAVE_KERNEL:
        codes, uniques = kernel.factorize_templates(joined)
        assert uniques == uniques_py and codes.tolist() == codes_py.tolist() and codes.dtype == np.int64
        vals, bad = kernel.read_fields(joined, starts, ends, cols)
        assert vals.shape == vals_py.shape and bad.dtype == np.bool_
        assert same_floats(vals, vals_py) and (bad == bad_py).all()


def test_the_wrapper_falls_back_without_the_extension(tmp_path):
    """TRAINING_CHECK_NO_KERNEL=1 (as on a machine without a compiler): the reference path answers."""
    import subprocess
    import sys

    code = ("from training_check.tools.parsers import kernel as k; import numpy as np; "
            "assert not k.HAVE_KERNEL; c, u = k.factorize_templates(b'a 1\\na 2\\nb'); "
            "assert c.tolist() == [0, 0, 1] and u == [b'a \\x01', b'b']; "
            "v, b = k.read_fields(b'a 1\\na x', np.array([0, 4]), np.array([3, 7]), [1]); "
            "assert v[0, 0] == 1.0 and b.tolist() == [[False], [True]]; print('ok')")
    env = {**os.environ, "TRAINING_CHECK_NO_KERNEL": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_match_events_names_a_wrong_count(k):
    q = np.array([1.0, 2.0])
    with pytest.raises(ValueError, match=r"avail\[1\] = 3 is outside 0 .. 2"):
        k.match_events(q, np.array([1, 3], dtype=np.int64), np.array([np.nan, np.nan]), None)
    with pytest.raises(ValueError, match="8-byte arrays"):
        k.match_events(q, np.array([1], dtype=np.int64), np.array([np.nan, np.nan]), None)
    raw, head, spe = k.match_events(q, np.array([0, 2], dtype=np.int64), np.array([np.nan, 0.5]), None)
    assert np.frombuffer(raw).tolist()[1] == 1.0 and math.isnan(np.frombuffer(raw)[0]) and (head, spe) == (1, 2.0)


def _engine_points(data: bytes) -> dict:
    from training_check.tools.parsers.base import Emitter
    from training_check.tools.parsers.engine import TextLogFormat

    em = Emitter()
    fmt = TextLogFormat()
    for part in (data[: len(data) // 2], data[len(data) // 2:]):  # two reads: state carried between blocks
        cut = part.rfind(b"\n") + 1
        fmt.parse_plain(part[:cut], em)
        if cut < len(part):
            fmt.parse_plain(part[cut:], em)
    fmt.finish(em)
    return {k: (c.steps.tolist(), np.nan_to_num(c.values, nan=-1.5).tolist()) for k, c in em.build().columns.items()}


@pytest.mark.parametrize("name", ["wrapped_nan", "bigscience_wrapped", "nan_and_inf"])
def test_the_engine_reads_alike_with_and_without_the_kernel(k, name, monkeypatch):
    """Words are masked on the block's text by the kernel, on the lines of hinted templates without it; a terminal's
    wrap that cut a word (``number of nan`` | ``iterations``) is masked after the join either way."""
    if name == "bigscience_wrapped":
        data = (CORPUS / "bigscience" / "tr11-176B_throughput-drop_wrapped_L257-271.log").read_bytes()
    elif name == "wrapped_nan":
        rec = " iteration {i:6d}/ 1000 | lm loss: {v} | grad norm: 1.0 | number of nan iterations:   0 |"
        rows = [rec.format(i=i, v="nan" if i % 3 == 0 else f"{2 + i / 100:.4E}") for i in range(1, 60)]
        width = 64
        data = "".join("".join(r[j:j + width] + "\n" for j in range(0, len(r), width)) for r in rows).encode()
    else:
        data = "".join(f"[INFO] step={i} loss={'nan' if i % 4 == 0 else 'inf' if i % 4 == 1 else i / 7} "
                       f"info=x lr=1e-3\n" for i in range(2000)).encode()
    with_kernel = _engine_points(data)
    monkeypatch.setattr(kernel, "_KERNEL", None)
    monkeypatch.setattr(kernel, "HAVE_KERNEL", False)
    assert _engine_points(data) == with_kernel and with_kernel
