"""Block fast paths (pandas' C reader on blocks of one exact shape) give the very points of the row pass; llm.c's
lines, read by the engine, give the points they hold whole or a line at a time."""

from __future__ import annotations

import math

import pytest
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.table import CsvFormat
from training_check.tools.parsers.table import _parse_plain as csv_plain

from tests.helpers import emitted_points, engine_read, same_points


def _plain_llmc(n: int, start: int = 0) -> str:
    lines = []
    for i in range(start, start + n):
        lines.append(f"s:{i} trl:{3 + (i % 97) / 100:.4f} lr:{3e-4 * (1 - (i % 1000) / 2000):.4e} norm:{1 + i % 13}\n")
        if i % 7 == 0:
            lines.append(f"s:{i} tel:{3.2 + (i % 89) / 1000}\n")
    return "".join(lines)


LLMC_BLOCKS = {
    "plain": _plain_llmc(300),
    "train only": "".join(f"s:{i} trl:{i / 3!r} lr:1e-3 norm:.5\n" for i in range(50)),
    "eval only": "s:0 tel:4.1\ns:250 tel:3.9\n",
    "odd numbers": "s:007 trl:5. lr:+1E-3 norm:-0.25\ns:8 trl:1e999 lr:0 norm:1e-400\n",
}
LLMC_ODD = {  # odd blocks: the same points whole or a line at a time, whatever they are
    "nan value": _plain_llmc(20) + "s:20 trl:nan lr:1e-3 norm:inf\n" + _plain_llmc(5, 21),
    "NaN word": "s:1 trl:NaN lr:1e-3 norm:1\n",
    "noise line": _plain_llmc(10) + "step 10 checkpoint saved\n" + _plain_llmc(10, 10),
    "blank line": _plain_llmc(3) + "\n" + _plain_llmc(3, 3),
    "eval mixed with extras": _plain_llmc(5) + "s:5 trl:3.1 lr:1e-3 norm:1.2 tok/s:12000\n",
    "fields swapped": "s:1 trl:3.0 norm:1.0 lr:1e-3\n",
    "no norm": "s:1 trl:3.0 lr:1e-3\ns:2 trl:2.9 lr:1e-3 norm:1\n",
    "empty field": "s:1 trl: lr:1e-3 norm:1\n",
    "empty eval": "s:1 tel:\ns:2 trl:2.9 lr:1e-3 norm:1\n",
    "bad number": "s:1 trl:1.2.3 lr:1e-3 norm:1\ns:2 trl:1-2 lr:1e-3 norm:1\n",
    "step not digits": "s:1.0 trl:3 lr:1e-3 norm:1\ns:+2 trl:3 lr:1e-3 norm:1\ns:1e3 tel:3\n",
    "step beyond int64": "s:99999999999999999999 trl:3 lr:1e-3 norm:1\ns:2 trl:3 lr:1e-3 norm:1\n",
    "digit in a key": "s:1 t1rl:3 lr:1e-3 norm:1\n",
    "leading digits": "12s:1 trl:3 lr:1e-3 norm:1\n",
    "double space": "s:1  trl:3 lr:1e-3 norm:1\n",
    "trailing space": "s:1 trl:3 lr:1e-3 norm:1 \n",
    "no final newline": "s:1 trl:3 lr:1e-3 norm:1",
}


_LLMC = {"trl": "train_loss", "tel": "val_loss", "lr": "lr", "norm": "grad_norm"}  # llm.c's names, read


def _llmc_expected(text: str) -> dict[str, tuple[list[int], list[float]]]:
    """The points llm.c's plain lines hold, by name (``s:N`` is the step)."""
    out: dict[str, tuple[list[int], list[float]]] = {}
    for line in text.splitlines():
        fields = dict(f.split(":") for f in line.split())
        step = int(fields.pop("s"))
        for key, raw in fields.items():
            steps, values = out.setdefault(_LLMC[key], ([], []))
            steps.append(step)
            values.append(float(raw))
    return out


@pytest.mark.parametrize("name", list(LLMC_BLOCKS))
def test_llmc_blocks_give_the_points_of_their_lines(name):
    """llm.c's lines read by the one text-log engine (no reader of their own), under the usual names."""
    text = LLMC_BLOCKS[name]
    got = {k: (s, v) for k, s, v in emitted_points(engine_read(text))}
    assert got == _llmc_expected(text)
    assert same_points(emitted_points(engine_read(text)), emitted_points(engine_read(text, by_line=True)))


@pytest.mark.parametrize("name", list(LLMC_ODD))
def test_llmc_odd_blocks_read_alike_whole_or_by_line(name):
    text = LLMC_ODD[name]
    assert same_points(emitted_points(engine_read(text)), emitted_points(engine_read(text, by_line=True)))


def test_llmc_values():
    em = engine_read("s:1 trl:3.5 lr:1e-3 norm:2\ns:1 tel:3.75\ns:2 trl:3.25 lr:5e-4 norm:1.5\n")
    assert sorted(emitted_points(em)) == [("grad_norm", [1, 2], [2.0, 1.5]), ("lr", [1, 2], [1e-3, 5e-4]),
                                          ("train_loss", [1, 2], [3.5, 3.25]), ("val_loss", [1], [3.75])]
    odd = {k: (s, v) for k, s, v in emitted_points(engine_read(LLMC_ODD["nan value"]))}
    assert odd["train_loss"][0][20] == 20 and math.isnan(odd["train_loss"][1][20])
    assert odd["grad_norm"][1][20] == math.inf


def _csv_em(header: str, sep: str = ",", step_col: int = 0) -> Emitter:
    em = Emitter()
    em.state.update(header=header.split(sep), sep=sep, step_col=step_col, n=3)
    return em


CSV_BLOCKS = {
    "plain": ("step,loss,lr", ",", 0, "".join(f"{i},{3 + i / 7!r},{1e-3 * i:.4e}\n" for i in range(200))),
    "tsv, step last": ("loss\tstep", "\t", 1, "2.5\t10\n2.25\t20\n2.125\t30.0\n"),
    "no step column": ("loss,acc", ",", -1, "2.5,0.1\n2.25,0.2\n"),
    "odd numbers": ("step,loss", ",", 0, "1e3,5.\n2000,+1E-3\n3000,1e999\n-4,-0.0\n"),
}
CSV_ODD = {
    "nan cell": ("step,loss", ",", 0, "1,2.5\n2,nan\n3,2.0\n"),
    "empty cell": ("step,loss,acc", ",", 0, "1,2.5,\n2,,0.5\n"),
    "padded cells": ("step,loss", ",", 0, "1, 2.5\n"),
    "repeated header": ("step,loss", ",", 0, "1,2.5\nstep,loss\n2,2.4\n"),
    "short and long rows": ("step,loss,acc", ",", 0, "1,2.5,3\n2,2.4\n3,2.3,1,9\n"),
    "long first row": ("step,loss", ",", 0, "1,2.5,3\n2,2.4\n"),
    "blank line": ("step,loss", ",", 0, "1,2.5\n\n2,2.4\n"),
    "fractional step": ("step,loss", ",", 0, "1.5,2.5\n2,2.4\n"),
    "huge step": ("step,loss", ",", 0, "99999999999999999999,2.5\n2,2.4\n"),
    "bad number": ("step,loss", ",", 0, "1,2.5.1\n2,1-2\n"),
    "duplicate names": ("step,loss,loss", ",", 0, "1,2.5,2.6\n2,2.4,2.3\n"),
}


@pytest.mark.parametrize("name", list(CSV_BLOCKS))
def test_csv_fast_path_gives_the_row_points(name):
    header, sep, sc, text = CSV_BLOCKS[name]
    fast, slow = _csv_em(header, sep, sc), _csv_em(header, sep, sc)
    assert csv_plain(text.encode(), fast) is True
    CsvFormat()._parse_rows(text, slow)
    assert emitted_points(fast) == emitted_points(slow) and emitted_points(fast)
    assert fast.state == slow.state


@pytest.mark.parametrize("name", list(CSV_ODD))
def test_csv_odd_blocks_leave_the_fast_path(name):
    header, sep, sc, text = CSV_ODD[name]
    em = _csv_em(header, sep, sc)
    assert csv_plain(text.encode(), em) is False
    assert len(em) == 0 and em.state["n"] == 3
    whole, slow = _csv_em(header, sep, sc), _csv_em(header, sep, sc)
    CsvFormat().parse(text, whole)
    CsvFormat()._parse_rows(text, slow)
    assert same_points(emitted_points(whole), emitted_points(slow)) and whole.state == slow.state


def test_csv_fast_path_values_and_header_block():
    em = Emitter()
    CsvFormat().parse("step,loss\n", em)  # the header alone: the row-by-row pass reads it
    CsvFormat().parse("10,2.5\n20,2.25\n", em)
    assert emitted_points(em) == [("loss", [10, 20], [2.5, 2.25])]
    assert em.state["n"] == 2


def test_csv_fast_path_waits_for_the_header():
    rows = "".join(f"{i},{3 + i / 7!r},{1e-3 * i:.4e}\n" for i in range(100))
    fmt, em, slow = CsvFormat(), Emitter(), Emitter()
    assert fmt.parse_plain(("\n  step,loss,lr\n" + rows).encode(), em) is False  # no header yet: row by row
    assert len(em) == 0 and em.state == {}
    fmt.parse("\n  step,loss,lr\n", em)
    assert fmt.parse_plain(rows.encode(), em) is True
    fmt._parse_rows("\n  step,loss,lr\n" + rows, slow)
    assert emitted_points(em) == emitted_points(slow) and len(emitted_points(em)) == 2
    assert em.state == slow.state
