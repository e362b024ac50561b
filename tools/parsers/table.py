"""Tables: CSV/TSV with a header (plain CSV, Lightning ``metrics.csv``, YOLOv5 ``results.csv``) and
markdown pipe tables (the Hugging Face model card's "Training results").

The step column is the first of ``step``, ``global_step``, ``iteration``, ``iter``,
``epoch``... present, else a step-like column by its last ``/`` part (``time/total_timesteps``), else the row
index. Cells are stripped (YOLOv5 pads with
spaces); an empty cell is "not logged" (Lightning writes train and val metrics on
different rows), ``nan`` is NaN. In a model-card table, ``Training Loss`` becomes
``train_loss`` and the other metric columns are validation metrics (``eval_*``).
"""

from __future__ import annotations

import re

import numpy as np

from .base import Emitter, LineFormat
from .dialect import DIALECT
from .fastpath import NUMBER_CHARS, read_fields
from .step_column import MAX_TRACKED, column_standing, monotone_column
from .templates import NAN_MARK
from .text import clean_text, to_step, to_value

# The step column by name, first present wins: a name whole, else its last ``/`` segment (stable-baselines3's
# ``time/total_timesteps``, a tracker's ``trainer/global_step``). Environment timesteps come before iterations
# (stable-baselines3 dumps at ``time/total_timesteps``; ``time/iterations`` counts rollouts).
STEP_COLUMNS = ("step", "global_step", "iteration", "iter", "_step", "trainer/global_step", "steps",
                "total_timesteps", "timesteps", "num_env_steps_sampled", "training_iteration", "iterations", "epoch",
                "epochs", "samples", "#", "niter")  # niter: scipy's trust-constr table (``verbose=2``)
MAX_LONG_NAME = 200  # characters of a metric's name from a long table's cell
MAX_STEP_TRIES = 8  # columns a file is read again for (a later row showing another column is the step)
_IDENT = re.compile(r"^[A-Za-z_][\w/.:@\-\s()\[\]%]*$")
MAX_LEAD_COMMENTS = 16  # comment lines a table's header may follow


def is_lead_comment(line: str) -> bool:
    """A comment line before a table's header (``# leap-ec-linear``): ``#`` then no separator (``#,loss`` is a
    header naming its step ``#``); the header is the next line."""
    s = line.lstrip()
    return s.startswith("#") and s[1:2] not in (",", "\t")


def _cut_row(cells: list[str], width: int) -> list[str] | None:
    """A row narrower than its header whose last cell holds no number (a warning's text cut into it: numpy's
    ``70, 0.73, 1.2e+138, /.../_methods.py:190: RuntimeWarning: ...``) keeps the cells before the cut at their own
    columns, the rest empty (no value: never a column shifted); None for any other narrow row (a row cut by a crash,
    a wrapped row's rest, garbage), and for one with no number before the cut."""
    if not 2 <= len(cells) < width or not cells[-1] or to_value(cells[-1]) is not None:
        return None
    kept = cells[:-1]
    if not any(to_value(c) is not None for c in kept):
        return None
    return kept + [""] * (width - len(kept))


# A table in long form, one value a row named by a cell (PyKEEN's CSV result tracker: ``type,step,key,value``): the
# column naming the metric, the one holding its value, and the row kinds that are settings, not metrics.
LONG_NAME_COLUMNS = ("key", "metric", "name", "tag", "metric_name")
LONG_VALUE_COLUMNS = ("value", "metric_value")
LONG_KIND_COLUMNS = ("type", "kind")
LONG_SETTING_KINDS = ("parameter", "param", "params", "hparam", "hyperparameter", "config")


# A table without a header whose file is named after its one metric (d3rlpy's ``d3rlpy_logs/<run>/loss.csv``:
# ``epoch,step,value`` rows): its columns by their count.
HEADERLESS_COLUMNS = {2: ("step", None), 3: ("epoch", "step", None)}


def headerless_state(first_line: str, stem: str) -> dict | None:
    """The reader's state for a CSV/TSV table with no header, named after its metric ``stem``: its first line is
    only numbers, two (step, value) or three (epoch, step, value); None for any other table."""
    sep = "\t" if first_line.count("\t") > first_line.count(",") else ","
    cells = [c.strip() for c in first_line.split(sep)]
    names = HEADERLESS_COLUMNS.get(len(cells))
    name = stem.strip()[:MAX_LONG_NAME]
    if names is None or not name or not all(to_value(c) is not None for c in cells):
        return None
    header = [n or name for n in names]
    return {"header": header, "sep": sep, "step_col": header.index("step")}


def _long_columns(header: list[str]) -> tuple[int, int, int] | None:
    """(name column, value column, kind column or -1) of a table in long form, else None."""
    lower = [h.strip().lower() for h in header]
    name = next((lower.index(c) for c in LONG_NAME_COLUMNS if c in lower), -1)
    value = next((lower.index(c) for c in LONG_VALUE_COLUMNS if c in lower), -1)
    if name < 0 or value < 0:
        return None
    return name, value, next((lower.index(c) for c in LONG_KIND_COLUMNS if c in lower), -1)


def _step_column(header: list[str]) -> int:
    """The step column: the first of ``STEP_COLUMNS`` present, else a column whose last ``/`` part is one of the
    dialect's step-like rows (stable-baselines3's ``time/total_timesteps``, Ray Tune's ``training_iteration``), in
    the dialect's order; -1 for none (the row index)."""
    lower = [h.strip().lower() for h in header]
    last = [h.rsplit("/", 1)[-1] for h in lower]
    for name in STEP_COLUMNS:
        if name in lower:
            return lower.index(name)
        if name in last:
            return last.index(name)
    for name in DIALECT.block_step_names:
        if name in last:
            return last.index(name)
    return -1


def _say_steps(em: Emitter) -> None:
    """Once per file: which column the table's steps come from (or that it has none)."""
    st = em.state
    header = st.get("header")
    if header is None or st.get("said_step"):
        return
    st["said_step"] = True
    sc = int(st.get("step_col", -1))
    if sc < 0:
        em.notes.append("the table has no step column: rows are numbered by order")
    elif header[sc].strip().lower() != "step":
        em.notes.append(f"steps from the table's `{header[sc].strip()[:60]}` column")


class CsvFormat(LineFormat):
    name = "csv"
    detect_re = re.compile(r"^[^,\t]+(?:[,\t][^,\t]*)+$")
    priority = 2

    def score(self, lines: list[str]) -> int:
        """A header of names followed by rows with as many numeric cells."""
        lines = [ln for ln in lines if ln.strip()]
        lead = 0
        while lead < min(len(lines), MAX_LEAD_COMMENTS) and is_lead_comment(lines[lead]):
            lead += 1
        lines = lines[lead:]
        if not lines:
            return 0
        head = lines[0]
        sep = "\t" if head.count("\t") > head.count(",") else ","
        cols = [c.strip() for c in head.split(sep)]
        if len(cols) < 2 or not all(_IDENT.match(c) for c in cols if c):
            return 0
        if len(lines) == 1:  # a header alone (the run just started): only with a step column
            return 1 if _step_column(cols) >= 0 else 0
        n = bad = 0
        long = _long_columns(cols) is not None  # settings' rows may hold quoted commas and line breaks: not counted
        for ln in lines[1:50]:
            cells = ln.split(sep)
            if len(cells) != len(cols) and long:
                continue
            if len(cells) < len(cols) and _cut_row([c.strip() for c in cells], len(cols)) is not None:
                continue  # a row a warning cut into: neither counted nor a cost
            if len(cells) != len(cols) or not any(to_value(c.strip()) is not None for c in cells):
                bad += 1  # a row cut by a crash, garbage: costs that row (the read skips it), not the table
                continue
            n += 1
        return n * 2 if n > bad else 0

    def parse(self, text: str, em: Emitter) -> None:
        """Row by row (the reader tries ``parse_plain`` on a block first)."""
        self._parse_rows(text, em)

    def finish(self, em: Emitter, at_end: bool = False) -> None:
        _say_steps(em)

    def parse_plain(self, data: bytes, em: Emitter) -> bool:
        """A block of numeric rows (empty cells, blank lines and repeated header lines allowed), read by pandas' C
        reader: the rows' points."""
        return _parse_plain(data, em, strict=False)

    def _parse_rows(self, text: str, em: Emitter) -> None:
        """Any block: line by line (the fallback of ``_parse_plain``); the step column decided on the block's rows
        before they are emitted (``_choose_step``)."""
        st = em.state
        header = st.get("header")
        sep = st.get("sep", ",")
        rows: list[list[str]] = []
        bad = 0
        for line in text.split("\n"):
            if not line.strip():
                continue
            if header is None:
                if is_lead_comment(line) and int(st.get("lead", 0)) < MAX_LEAD_COMMENTS:
                    st["lead"] = int(st.get("lead", 0)) + 1
                    continue  # a comment before the header
                sep = "\t" if line.count("\t") > line.count(",") else ","
                header = [c.strip() for c in line.split(sep)]
                st["header"], st["sep"] = header, sep
                _start_steps(st, header, st.get("pin"))
                long = _long_columns(header)
                if long:  # (the state stays the block path's for any other table)
                    st["long"] = long
                continue
            cells = [c.strip() for c in line.split(sep)]
            if cells == header:
                continue  # a repeated header (appended run)
            if len(cells) < len(header) and not st.get("long") and (cut := _cut_row(cells, len(header))):
                rows.append(cut)
                continue
            if len(cells) != len(header):
                if not st.get("long"):  # (a long table's settings rows hold quoted commas: no point, no note)
                    bad += 1  # a row cut by a crash, or garbage: it costs itself, said in a note
                continue
            rows.append(cells)
        if bad:
            st["bad_rows"] = int(st.get("bad_rows", 0)) + bad
            em.notes.append(f"skipped {st['bad_rows']} row(s) of the table that do not have its header's "
                            f"{len(header or ())} columns")
        if not rows or header is None:
            return
        k = len(header)
        values = [np.array([_step_value(r[i]) for r in rows]) for i in range(min(k, MAX_TRACKED))]
        _choose_step(st, values, len(rows))
        sc = st["step_col"]
        for cells in rows:
            step = to_step(cells[sc]) if sc >= 0 else None
            if step is None:
                step = int(st.get("n", 0))
            st["n"] = int(st.get("n", 0)) + 1
            long = st.get("long")
            if long:  # one value a row, named by its name cell; a setting's row is no point
                name, v = cells[long[0]], to_value(cells[long[1]])
                if name and v is not None and (long[2] < 0 or cells[long[2]].lower() not in LONG_SETTING_KINDS):
                    em.add(step, name[:MAX_LONG_NAME], v)
                continue
            for i, c in enumerate(cells):
                if i == sc or not c:
                    continue
                v = to_value(c)
                if v is not None:
                    em.add(step, header[i], v)


def _step_value(cell: str) -> float:
    """A cell as the step rule sees it: its number, NaN when empty, inf (never a step) when no number."""
    if not cell:
        return float("nan")
    v = to_value(cell)
    return float("inf") if v is None or v != v else float(v)


def _start_steps(st: dict, header: list[str], pin: dict | None) -> None:
    """The step column by the header's names; else (``named_step`` False) from the rows (``_choose_step``), or the
    one a later part of the file showed (``pin``: the reader read the file again from its start)."""
    named = _step_column(header)
    st["named_step"] = named >= 0
    at = (pin or {}).get("step_col")
    st["step_col"] = named if named >= 0 or at is None else int(at)


def _choose_step(st: dict, values: list[np.ndarray], rows: int) -> None:
    """With no column named like a step: each column's standing over the rows so far (``step_column``), the step
    column chosen from it before this block's rows are emitted. When rows of earlier blocks were emitted at another
    column, the file is read again from its start at this one (``Emitter.state["reread"]``, handled by the reader),
    once per column (no loop)."""
    if st.get("named_step", True):
        return
    standing = list(st.get("standing") or [None] * len(values))
    standing = [column_standing(v, s) for v, s in zip(values, standing, strict=False)]
    st["standing"] = standing
    st["rows_seen"] = int(st.get("rows_seen", 0)) + rows
    found = monotone_column(standing, st["rows_seen"])
    choice = -1 if found is None else found
    if choice == st["step_col"]:
        return
    if int(st.get("n", 0)) == 0:
        st["step_col"] = choice  # nothing emitted yet: no earlier row stands at another step
        return
    pin = dict(st.get("pin") or {})
    tried = list(pin.get("tried") or [])
    if choice in tried or len(tried) >= MAX_STEP_TRIES:
        return  # (never read again twice for one column)
    st["pin"] = {**pin, "tried": [*tried, choice], "step_col": choice}
    st["reread"] = True


def _parse_plain(data: bytes, em: Emitter, *, strict: bool = True) -> bool:
    """The points of a block of data rows in which every cell is a plain number (no spaces, no nan/inf word) and
    every row has the header's width, as the row-by-row pass gives them; False (nothing emitted, the state as it
    was) for any other block. The check is a translate and a few counts; pandas' C reader then parses the block (its
    floats equal Python's ``float``); a step that is not an integer below 2**53 goes the row-by-row way too.

    ``strict`` (the block alone, the header already read): no empty cell, no blank line, no header line, integer
    steps. Not strict (what the reader runs): the header is the block's first line when none was read yet; a line
    that is the header again and blank lines are dropped (the row-by-row pass skips them); an empty cell is "not
    logged" (no point; an empty step cell: the row's index); a fractional step is cut to its integer part, as
    ``to_step`` does."""
    st = em.state
    if not data.endswith(b"\n"):
        return False
    eol = b"\r\n" if not strict and data[:data.find(b"\n")].endswith(b"\r") else b"\n"  # CRLF: pandas reads them
    header = st.get("header")
    sep = str(st.get("sep", ","))
    set_header: dict = {}
    body = data
    if header is None:
        nl = data.find(b"\n")
        try:
            line = data[:nl].removesuffix(b"\r").decode("utf-8")
        except UnicodeDecodeError:
            return False
        if strict or not line.strip() or "\r" in line or "\x1b" in line or is_lead_comment(line):
            return False  # the header line as the row-by-row pass reads it: a line the cleaner leaves as it is
        sep = "\t" if line.count("\t") > line.count(",") else ","
        header = [c.strip() for c in line.split(sep)]
        if _long_columns(header):
            return False  # a table in long form: read row by row
        set_header = {"header": header, "sep": sep}
        _start_steps(set_header, header, st.get("pin"))
        body = data[nl + 1:]
    elif "step_col" not in st or st.get("long"):
        return False
    k = len(header)
    bsep = sep.encode()
    if k < 2 or len(set(header)) != k:
        return False
    if strict:
        if b"\n\n" in body or body.startswith(b"\n"):
            return False
    else:
        again = bsep.join(h.encode() for h in header) + eol
        if body.startswith(again):
            body = body[len(again):]
        if b"\n" + again in body:  # the header again (an appended run): the row-by-row pass skips it; of two in a
            body = body.replace(b"\n" + again, b"\n")  # row one stays, and its letters leave the block path
        body = body.lstrip(b"\r\n")  # blank lines: pandas skips them, as the row-by-row pass does
    if not body:
        st.update(set_header)
        return not strict
    row = bsep * (k - 1) + eol
    shape = body.translate(None, NUMBER_CHARS)
    n = len(shape) // len(row)
    if shape != row * n:
        return False  # a character other than a number's, a row of another width, a blank line, a CR not in a CRLF
        # line end (the cleaner drops the text before it: pandas would read it as a line)
    df = read_fields(body, k, dict.fromkeys(range(k), np.float64), sep=sep)
    if df is None or df.shape != (n, k):
        return False
    cols = [df[i].to_numpy(dtype=np.float64) for i in range(k)]
    have = [~np.isnan(c) for c in cols]  # only an empty cell is NaN: no nan word passes the translate
    if strict and not all(h.all() for h in have):
        return False  # an empty cell ("not logged": the row-by-row pass keeps the keys' order of appearance)
    work = {**st, **set_header}
    if not strict:
        _choose_step(work, cols[:MAX_TRACKED], n)
    sc = int(work.get("step_col", -1))
    n0 = int(st.get("n", 0))
    steps = np.arange(n0, n0 + n, dtype=np.int64)
    if sc >= 0:
        s = cols[sc][have[sc]]
        if not (np.abs(s) < 2.0**53).all() or (strict and (s != np.floor(s)).any()):
            return False
        steps[have[sc]] = np.trunc(s).astype(np.int64)
    st.update(work)
    st["n"] = n0 + n
    _extend_rows(em, header, sc, steps, cols, have)
    return True


_MD_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
_MD_ALIGN = re.compile(r"^\s*\|(?:\s*:?-{2,}:?\s*\|)+\s*$")


class MarkdownTableFormat(LineFormat):
    name = "markdown_table"
    detect_re = _MD_ALIGN
    priority = 4

    def parse_plain(self, data: bytes, em: Emitter) -> bool:
        """A block of table lines: numeric rows read by pandas' C reader (``_md_block``)."""
        return _md_block(self, data, em)

    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        prev: list[str] | None = st.get("prev")
        for line in text.split("\n"):
            if _MD_ALIGN.match(line):
                if prev:
                    st["header"] = self._names(prev)
                    st["step_col"] = _step_column(prev)
                prev = None
                continue
            m = _MD_ROW.match(line)
            if not m:
                prev = None
                continue
            cells = [c.strip() for c in m.group(1).split("|")]
            header = st.get("header")
            if header is None or len(cells) != len(header):
                prev = cells
                continue
            sc = st["step_col"]
            step = to_step(cells[sc]) if sc >= 0 else None
            if step is None:
                step = int(st.get("n", 0))
            st["n"] = int(st.get("n", 0)) + 1
            for i, c in enumerate(cells):
                if i == sc or not c or c in ("-", "No log"):
                    continue
                v = to_value(c)
                if v is not None:
                    em.add(step, header[i], v)
            prev = None
        st["prev"] = prev

    @staticmethod
    def _names(header: list[str]) -> list[str]:
        hf_card = "Training Loss" in header and ("Step" in header or "Epoch" in header)
        out = []
        for h in header:
            if not hf_card:
                out.append(h)
            elif h == "Training Loss":
                out.append("train_loss")
            elif h in ("Epoch", "Step"):
                out.append(h.lower())
            elif h.startswith("Validation "):
                out.append("eval_" + h[len("Validation "):].lower().replace(" ", "_"))
            else:
                out.append("eval_" + h.lower().replace(" ", "_"))
        return out


_MD_ALIGN_BYTES = re.compile(rb"^[ ]*\|(?:[ ]*:?-{2,}:?[ ]*\|)+[ ]*$", re.M)  # an alignment line (ASCII spaces)
_ROW_CHARS = NUMBER_CHARS + b" |@\n"  # what a plain numeric row holds ("@": "No log", once cut)
_MARK = bytes.maketrans(bytes(range(256)), bytes(97 if b in _ROW_CHARS else 98 for b in range(256)))  # "b": other
_MD_HEAD_BYTES = 1 << 16  # the header and alignment lines are looked for this far into a block
_MD_OTHER_LINES = 8  # distinct lines other than numeric rows a block may hold and stay on the fast path


def _md_block(fmt: MarkdownTableFormat, data: bytes, em: Emitter) -> bool:
    """The points and state of a block of a markdown table's lines, as ``parse`` gives them: False (nothing done) for
    a block it cannot read so. Before a header is known (or after a row that may become one), the lines up to the
    first alignment line are read by ``parse``; the rest, when it is made of numeric rows of the header's width and
    at most a few other distinct lines (the header and alignment lines of tables repeated further on, blank lines),
    by pandas' C reader, else by ``parse`` too. The other lines are cut out when they do nothing there (an alignment
    line after a row, a line that is not a row) or become an empty row when ``parse`` reads them as a row without
    a number (a repeated header: it counts as a row)."""
    if not data.endswith(b"\n"):
        return False
    st = em.state
    if st.get("header") is not None and st.get("prev") is None:
        return _md_rows(fmt, data, em)
    m = _MD_ALIGN_BYTES.search(data, 0, min(len(data), _MD_HEAD_BYTES))
    if m is None or data[m.end():m.end() + 1] != b"\n" or b"\x1b" in data[:m.end()]:
        return False  # no header yet; or an escape code, whose sequence might span the cut: the reader's way
    cut = m.end() + 1
    fmt.parse(clean_text(data[:cut].decode("utf-8", "replace")), em)  # what the reader's cleaning gives (the reader
    if cut < len(data) and not _md_rows(fmt, data[cut:], em):  # passes no line longer than it keeps)
        fmt.parse(clean_text(data[cut:].decode("utf-8", "replace")), em)
    return True


def _md_rows(fmt: MarkdownTableFormat, data: bytes, em: Emitter) -> bool:
    """The points of ``data`` (ASCII lines, no CR or escape) once the header is known, read as numeric rows by
    pandas' C reader; False (nothing done) when it is not made of them and a few lines that do nothing or count as
    an empty row."""
    st = em.state
    header = st.get("header")
    if header is None or st.get("prev") is not None or "step_col" not in st:
        return False
    k = len(header)
    if k < 2 or len(set(header)) != k:
        return False
    lines = b"\n" + data
    empty_row = b"|" * (k + 1)
    dashes = b"--" in lines  # an alignment line without colons (no line this makes holds one)
    if b"No log" in lines:
        lines = lines.replace(b"No log", b"@")  # a cell of its own (checked below): not logged, as "-" and ""
    seen: list[bytes] = []
    for _ in range(_MD_OTHER_LINES + 1):
        marks = lines.translate(_MARK)
        hit = _other(marks, lines, 0, dashes)
        if hit < 0:
            break  # no character a numeric row cannot hold, no alignment line without colons
        found: list[bytes] = []
        while hit >= 0:  # the distinct lines met from here, until one comes again (a table repeated)
            start = lines.rfind(b"\n", 0, hit) + 1
            end = lines.find(b"\n", hit)
            line = lines[start:end]
            if line in found:
                break
            found.append(line)
            if len(seen) + len(found) > _MD_OTHER_LINES:
                return False
            hit = _other(marks, lines, end, dashes)
        for line in found:
            text = line.decode("utf-8", "replace")
            if not text.isprintable():
                return False  # a control character (CR, escape code, tab): the cleaner would change it
            if _MD_ALIGN.match(text) or not _MD_ROW.match(text):
                new = b"\n"  # prev is None before it (every row has the header's width): it does nothing
            else:
                trial = Emitter({"header": header, "step_col": st["step_col"], "n": 0})
                fmt.parse(text, trial)
                if len(trial) or trial.state.get("n") != 1:
                    return False  # a row that gives points, or one that may become a header
                new = b"\n" + empty_row + b"\n"
            needle = b"\n" + line + b"\n"
            lines = lines.replace(needle, new)
            while needle in lines:  # side by side: every other one is left
                lines = lines.replace(needle, new)
        seen += found
    else:
        return False
    from .kernel import HAVE_KERNEL

    if HAVE_KERNEL:
        cols = _md_cells(lines.lstrip(b"\n"), k)
    else:
        cols = _md_fields(lines, k, padded=True)
        if cols is None:
            cols = _md_fields(lines, k, padded=False)
    if cols is None:
        return False
    n = len(cols[0])
    if n == 0:
        st["prev"] = None
        return True
    have = [~np.isnan(c) for c in cols]  # an empty cell, "-" or "No log": no nan word passes
    sc = int(st["step_col"])
    n0 = int(st.get("n", 0))
    steps = np.arange(n0, n0 + n, dtype=np.int64)
    if sc >= 0:
        s = cols[sc][have[sc]]
        if not (np.abs(s) < 2.0**53).all():
            return False
        steps[have[sc]] = np.trunc(s).astype(np.int64)
    st["n"] = n0 + n
    st["prev"] = None
    _extend_rows(em, header, sc, steps, cols, have)
    return True


def _other(marks: bytes, lines: bytes, at: int, dashes: bool) -> int:
    """Where the first character a numeric row cannot hold is from ``at`` (``marks``: ``lines`` translated by
    ``_MARK``), or an alignment line without colons ("--"); -1 when there is none."""
    hits = [i for i in (marks.find(b"b", at), lines.find(b"--", at) if dashes else -1) if i >= 0]
    return min(hits) if hits else -1


def _md_fields(lines: bytes, k: int, *, padded: bool) -> list[np.ndarray] | None:
    """The k columns of the rows of ``lines`` (rows of number characters, spaces and pipes, blank lines, "@" for "No
    log") as floats, NaN for an empty cell, "-" or "@"; None when a line is not a row of k cells, or a cell not one
    number. ``padded``: pandas skips the spaces before a cell and reads the number's spaces after it, refusing one
    between two numbers (and a padded "-" or "@": then not ``padded``); else the spaces are cut first, once proved
    to be outside the numbers."""
    if padded:
        rows = lines.lstrip(b"\n")
    else:
        cls = lines.translate(_CELL_CLASSES)  # number characters as 0; the ends of a cell's content as |
        if cls.count(b"0 ") + cls.count(b"0|") != cls.translate(None, b" ").count(b"0|"):
            return None  # a space inside a cell (two runs of number characters become one without the spaces)
        rows = lines.translate(None, b" ").lstrip(b"\n")  # blank lines (spaces at most) are not rows: pandas skips
        if b"|-|" in rows:
            rows = rows.replace(b"|-|", b"||").replace(b"|-|", b"||")  # twice: cells side by side
        if b"@" in rows:
            rows = rows.replace(b"|@|", b"||").replace(b"|@|", b"||")
            if b"@" in rows:
                return None  # "No log" inside a cell
    if not rows.strip():
        return [np.empty(0)] * k
    row = b"|" * (k + 1) + b"\n"
    shape = rows.translate(None, NUMBER_CHARS + b" ")
    n = len(shape) // len(row)
    if shape != row * n:
        return None  # each line k cells (k + 1 pipes), nothing but numbers and spaces; no blank line between rows
    df = read_fields(rows, k + 2, dict.fromkeys(range(k + 2), np.float64), sep="|", skip_spaces=padded)
    if df is None or df.shape != (n, k + 2) or df[0].notna().any() or df[k + 1].notna().any():
        return None  # a cell not one number; a line not opened and closed by its pipes
    return [df[i + 1].to_numpy(dtype=np.float64) for i in range(k)]  # 0 and k + 1: the empty ends


def _md_cells(rows: bytes, k: int) -> list[np.ndarray] | None:
    """What ``_md_fields`` gives, by the C kernel: each cell's number found (``kernel.md_cells``) and read as
    ``float()`` reads it (what ``parse`` gives); None when a line is not a row of k cells or a cell not one number."""
    from .kernel import md_cells
    from .kernel import read_fields as read_cells

    spans = md_cells(rows, k) if NAN_MARK not in rows else None  # "+.+" is no number, yet NaN to the kernel
    if spans is None:
        return None
    starts, ends = spans[0].ravel(), spans[1].ravel()
    vals, bad = read_cells(rows, starts, ends, [0])
    if (bad[:, 0] & (ends > starts)).any():
        return None  # a cell of number characters that is no number ("1-2")
    table = vals[:, 0].reshape(-1, k)
    return [table[:, i].copy() for i in range(k)]


_CELL_CLASSES = bytes.maketrans(NUMBER_CHARS + b"@\n", b"0" * len(NUMBER_CHARS) + b"||")


def _extend_rows(em: Emitter, header: list[str], sc: int, steps: np.ndarray, cols: list[np.ndarray],
                 have: list[np.ndarray]) -> None:
    """The cells read (``have``) of each column but the step's, as points at ``steps``; new keys in the order the
    rows first give them (the row-by-row pass's order of appearance)."""
    read = [i for i in range(len(header)) if i != sc and have[i].any()]
    read.sort(key=lambda i: (int(np.argmax(have[i])), i))
    for i in read:
        if have[i].all():
            em.extend(header[i], steps, cols[i])
        else:
            em.extend(header[i], steps[have[i]], cols[i][have[i]])
