"""Tables: CSV/TSV with a header (plain CSV, Lightning ``metrics.csv``, YOLOv5 ``results.csv``) and
markdown pipe tables (the Hugging Face model card's "Training results").

The step column is the first of ``step``, ``global_step``, ``iteration``, ``iter``,
``epoch``... present, else the row index. Cells are stripped (YOLOv5 pads with
spaces); an empty cell is "not logged" (Lightning writes train and val metrics on
different rows), ``nan`` is NaN. In a model-card table, ``Training Loss`` becomes
``train_loss`` and the other metric columns are validation metrics (``eval_*``).
"""

from __future__ import annotations

import re

import numpy as np

from .base import Emitter, LineFormat
from .fastpath import NUMBER_CHARS, read_fields
from .text import to_step, to_value

STEP_COLUMNS = ("step", "global_step", "iteration", "iter", "_step", "trainer/global_step", "steps", "epoch", "epochs")
_IDENT = re.compile(r"^[A-Za-z_][\w/.:@\-\s()\[\]%]*$")


def _step_column(header: list[str]) -> int:
    lower = [h.strip().lower() for h in header]
    for name in STEP_COLUMNS:
        if name in lower:
            return lower.index(name)
    return -1


class CsvFormat(LineFormat):
    name = "csv"
    detect_re = re.compile(r"^[^,\t]+(?:[,\t][^,\t]*)+$")
    priority = 2

    def score(self, lines: list[str]) -> int:
        """A header of names followed by rows with as many numeric cells."""
        lines = [ln for ln in lines if ln.strip()]
        if not lines:
            return 0
        head = lines[0]
        sep = "\t" if head.count("\t") > head.count(",") else ","
        cols = [c.strip() for c in head.split(sep)]
        if len(cols) < 2 or not all(_IDENT.match(c) for c in cols if c):
            return 0
        if len(lines) == 1:  # a header alone (the run just started): only with a step column
            return 1 if _step_column(cols) >= 0 else 0
        n = 0
        for ln in lines[1:50]:
            cells = ln.split(sep)
            if len(cells) != len(cols):
                return 0
            if not any(to_value(c.strip()) is not None for c in cells):
                return 0
            n += 1
        return n * 2

    def parse(self, text: str, em: Emitter) -> None:
        """Row by row (the reader tries ``parse_plain`` on a block first)."""
        self._parse_rows(text, em)

    def parse_plain(self, data: bytes, em: Emitter) -> bool:
        """A block of plain numeric rows once the header is known, read by pandas' C reader: the rows' points."""
        return _parse_plain(data, em)

    def _parse_rows(self, text: str, em: Emitter) -> None:
        """Any block: line by line (the fallback of ``_parse_plain``)."""
        st = em.state
        header = st.get("header")
        sep = st.get("sep", ",")
        for line in text.split("\n"):
            if not line.strip():
                continue
            if header is None:
                sep = "\t" if line.count("\t") > line.count(",") else ","
                header = [c.strip() for c in line.split(sep)]
                st["header"], st["sep"] = header, sep
                st["step_col"] = _step_column(header)
                continue
            cells = line.split(sep)
            if [c.strip() for c in cells] == header:
                continue  # a repeated header (appended run)
            if len(cells) != len(header):
                continue
            sc = st["step_col"]
            step = to_step(cells[sc].strip()) if sc >= 0 else None
            if step is None:
                step = int(st.get("n", 0))
            st["n"] = int(st.get("n", 0)) + 1
            for i, cell in enumerate(cells):
                if i == sc:
                    continue
                c = cell.strip()
                if not c:
                    continue
                v = to_value(c)
                if v is not None:
                    em.add(step, header[i], v)




def _parse_plain(data: bytes, em: Emitter) -> bool:
    """The points of a block of data rows (the header already read) in which every cell is a plain number (no
    spaces, no empty cell, no nan/inf word) and every row has the header's width, as the row-by-row pass gives
    them; False (nothing emitted) for any other block. The check is a translate and a few counts; pandas' C
    reader then parses the block (its floats equal Python's ``float``); a step that is not an integer below 2**53
    goes the row-by-row way too."""
    st = em.state
    header = st.get("header")
    sep = str(st.get("sep", ","))
    if header is None or "step_col" not in st or not data.endswith(b"\n") or data.startswith(b"\n"):
        return False
    k = len(header)
    bsep = sep.encode()
    if k < 2 or len(set(header)) != k or b"\n\n" in data or data.translate(None, NUMBER_CHARS + b"\n" + bsep):
        return False  # a character other than a number's, the separator or a newline (or a blank line)
    n = data.count(b"\n")
    if data.count(bsep, 0, data.find(b"\n")) != k - 1 or data.count(bsep) != (k - 1) * n:
        return False  # pandas raises on a later row with more cells: then no row has fewer
    df = read_fields(data, k, dict.fromkeys(range(k), np.float64), sep=sep)
    if df is None:
        return False
    vals = df.to_numpy(dtype=np.float64)
    if vals.shape != (n, k) or np.isnan(vals).any():
        return False  # an empty cell ("not logged": the row-by-row pass keeps the keys' order of appearance)
    sc = int(st["step_col"])
    n0 = int(st.get("n", 0))
    if sc >= 0:
        s = vals[:, sc]
        if not (np.abs(s) < 2.0**53).all() or (s != np.floor(s)).any():
            return False
        steps = s.astype(np.int64)
    else:
        steps = np.arange(n0, n0 + n, dtype=np.int64)
    st["n"] = n0 + n
    for i in range(k):
        if i != sc:
            em.extend(header[i], steps, np.ascontiguousarray(vals[:, i]))
    return True


_MD_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
_MD_ALIGN = re.compile(r"^\s*\|(?:\s*:?-{2,}:?\s*\|)+\s*$")


class MarkdownTableFormat(LineFormat):
    name = "markdown_table"
    detect_re = _MD_ALIGN
    priority = 4

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
