"""A horizontal table whose rows may leave a column empty (examples/libraries_holdout79, fixnequip: nequip's epoch
summary). Per epoch the header ``  Train      #    Epoch      wal       LR       loss_f         loss        f_mae``
then the rows ``! Train               1    0.845     0.01        0.992        0.992        0.616`` and ``! Validation
...``: a mark setting the row apart (``!``: ``Dialect.row_marks``), the row's label naming its split (maybe after a
word qualifying it: ``! Initial Validation`` under ``Initialization``), then numbers, none under ``#``. The row has
fewer cells than the header names, so each cell goes to the column it lines up with (right- or left-aligned under
its name), the label being one cell over its span (``tables_text.split_label``, ``align(label=...)``): ``Epoch`` is
the step, ``loss`` the train loss, the validation row's cells ``val_`` (its step column keeps its name)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.parsers.tables_text import align, parse_header, split_label, split_row

from .conftest import REPO
from .test_read_misses import _live, primary_names, whole_and_pieces, whole_as_live

_NAMES = ["Epoch", "wal", "LR", "loss_f", "loss", "f_mae"]
_WARN = ("/venv/lib/python3.11/site-packages/nequip/__init__.py:20: UserWarning: !! PyTorch version 2.13.0 found. "
         "Upstream issues in PyTorch versions 1.13.* and 2.* have been seen to cause unusual performance degredations")


def _log(rng: random.Random, n: int, widths: list[int], lw: int, batches: int, init: bool, left: bool = False,
         batch_tables: bool = True) -> tuple[str, list[tuple[int, float]], list[tuple[int, float]]]:
    """A nequip-like log: batch tables, then per epoch the summary header and its ``! Train`` / ``! Validation``
    rows with the ``#`` column empty; each value right-aligned (or left-aligned: ``left``) under its name."""
    def head(title: str) -> str:
        cols = "".join(f"{nm:<{w}s}" if left else f"{nm:>{w}s}" for nm, w in zip(_NAMES, widths, strict=True))
        return ("  " + f"{title:<{lw}s}" + f"{'#':>6s}" + (" " if left else "") + cols).rstrip()

    def row(label: str, vals: list[float]) -> str:
        cells = [f"{int(vals[0]):<{widths[0]}d}" if left else f"{int(vals[0]):>{widths[0]}d}"]
        cells += [f"{v:<{w}.3g}" if left else f"{v:>{w}.3g}" for v, w in zip(vals[1:], widths[1:], strict=True)]
        return ("! " + f"{label:<{lw}s}" + " " * 6 + (" " if left else "") + "".join(cells)).rstrip()

    out = [_WARN, "  warnings.warn(", "Torch device: cpu", "! Starting training ...", ""]
    if init:
        out += ["validation", "# Epoch batch         loss       loss_f        f_mae",
                f"      0     2 {1.05:>12.3g} {1.05:>12.3g} {0.67:>12.3g}", "", "", head("Initialization"),
                row("Initial Validation", [0, 0.5, 0.01, 0.9, 0.9, 0.6]), "Wall time: 0.5",
                "! Best model        0    0.900", ""]
    train, val = [], []
    for e in range(1, n + 1):
        tl = float(f"{rng.uniform(0.05, 3.0) / e:.3g}")
        vl = float(f"{rng.uniform(0.05, 3.0) / e:.3g}")
        train.append((e, tl))
        val.append((e, vl))
        if batch_tables:
            out += ["training", "# Epoch batch         loss       loss_f        f_mae"]
            out += [f"  {e:>5d} {2 * b:>5d} {rng.random():>12.3g} {rng.random():>12.3g} {rng.random():>12.3g}"
                    for b in range(1, batches + 1)]
            out += ["", "validation", "# Epoch batch         loss       loss_f        f_mae",
                    f"  {e:>5d}     2 {rng.random():>12.3g} {rng.random():>12.3g} {rng.random():>12.3g}", ""]
        out += ["", head("Train"), row("Train", [e, 0.3 * e, 0.01, tl, tl, rng.random()]),
                row("Validation", [e, 0.3 * e, 0.01, vl, vl, rng.random()]),
                f"Wall time: {0.3 * e}", f"! Best model     {e:>4d} {vl:>8.3f}", ""]
    return "\n".join(out) + "\n", train, val


def test_a_row_label_after_a_mark_names_its_split():
    assert split_label(b"! Train               1    0.845     0.01        0.992") == ("", 2)
    assert split_label(b"! Validation          1    0.845     0.01        0.768") == ("val_", 2)
    assert split_label(b"! Initial Validation          0    0.582     0.01  0.859") == ("val_", 3)
    assert split_label(b"trainset  0.63  1.45") == ("", 1)
    assert split_row(b"! Best model        0    0.859") is None  # no split: its own record
    assert split_row(b"! Train loss is 0.5") is None  # words after the label: prose
    assert split_row(b"!Train 1 0.5") is None  # a mark glued to a word is no mark
    assert split_row(b"Some Other Validation 1 0.5") is None  # at most a word qualifying the split


@pytest.mark.parametrize("left", [False, True])
def test_a_row_leaving_a_column_empty_lines_up_by_position(left):
    header = (b"  Train      #    Epoch      wal       LR       loss_f         loss        f_mae" if not left else
              b"  Train      #    Epoch    wal      LR       loss_f       loss         f_mae")
    row = (b"! Train               1    0.845     0.01        0.992        0.992        0.616" if not left else
           b"! Train           1        0.845    0.01     0.992        0.992        0.616")
    columns = parse_header(header)
    assert columns is not None
    names = align(columns, [row], label=2)
    assert names is not None
    assert [n for n in names if n] == ["Epoch", "wal", "LR", "loss_f", "loss", "f_mae"], names


def _variant(seed: int, batch_tables: bool, init: bool = True
             ) -> tuple[str, list[tuple[int, float]], list[tuple[int, float]]]:
    rng = random.Random(seed)
    n = rng.randint(3, 14)
    widths = [rng.randint(7, 10), rng.randint(8, 10), rng.randint(8, 10), rng.randint(11, 14), rng.randint(11, 14),
              rng.randint(11, 14)]
    return _log(rng, n, widths, lw=rng.choice([14, 16]), batches=rng.randint(1, 4), init=init,
                left=seed % 3 == 2, batch_tables=batch_tables)


def _check(pts: dict, train: list[tuple[int, float]], val: list[tuple[int, float]]) -> None:
    got = dict(zip(*pts["loss"], strict=True))
    assert [got.get(s) for s, _v in train] == [v for _s, v in train], (pts["loss"], train)
    vgot = dict(zip(*pts["val_loss"], strict=True))
    assert [vgot.get(s) for s, _v in val] == [v for _s, v in val]
    assert "val_Epoch" not in pts and "Validation" not in pts  # the step column is the row's step, no value
    assert primary_names(pts) == ["loss"]


@pytest.mark.parametrize("seed", range(8))
def test_generated_summary_tables_whole_and_in_pieces(tmp_path, seed):
    text, train, val = _variant(seed, batch_tables=False, init=False)
    _check(whole_as_live(tmp_path, text.encode(), f"g{seed}.log"), train, val)
    # with the initial validation first (its batch row and its ``! Initial Validation`` row at epoch 0): the same
    # points in random pieces (a read cut after a summary's rows carries them, the validation after the train row)
    text, train, val = _variant(seed, batch_tables=False, init=True)
    pts = whole_and_pieces(tmp_path, text.encode(), f"i{seed}.log", seed=seed)
    _check(pts, train, val)
    assert pts["val_loss"][0][0] == 0 and pts["val_loss"][1][0] == 0.9  # the initial validation at epoch 0


@pytest.mark.parametrize("seed", range(8))
def test_generated_summary_tables_among_batch_tables(tmp_path, seed):
    """With nequip's batch tables (``# Epoch batch  loss ...``) between the summaries: the summary's row, printed
    after them at the epoch, is the epoch's point (read whole: the batch tables' own reading in pieces is left)."""
    text, train, val = _variant(seed, batch_tables=True)
    _check(_live(tmp_path, text.encode(), [], name=f"b{seed}.log"), train, val)


def _targets() -> list[Path]:
    found = sorted((REPO / "examples" / "libraries_holdout79").glob("nequip_*/train.log"))
    assert found, "no nequip run under examples/libraries_holdout79"
    return found


@pytest.mark.parametrize("path", _targets(), ids=lambda p: p.parent.name)
def test_the_corpus_files_at_the_truths_steps(tmp_path, path):
    truth = json.loads((path.parent / "truth.json").read_text())
    tol = truth["tolerance"]
    data = path.read_bytes()
    pts = _live(tmp_path, data, [], name="whole.log")
    for k, cuts in enumerate(((0.1, 0.37, 0.5, 0.52, 0.9), (0.03, 0.2, 0.37, 0.55, 0.81))):
        live = _live(tmp_path, data, [int(c * len(data)) for c in cuts], name=f"live{k}.log")
        # the summary's series the same in pieces (the batch tables' running means, ``avg_``, are left: issue 32)
        assert {n: live.get(n) for n in ("loss", "val_loss")} == {n: pts[n] for n in ("loss", "val_loss")}
    got = dict(zip(*pts["loss"], strict=True))
    for s, t in truth["train_loss"]:
        v = got[int(s)]
        t = float(t)
        assert (math.isnan(t) and math.isnan(v)) or abs(v - t) <= max(tol["rel"] * abs(t), 0.5 * 10 ** (
            math.floor(math.log10(abs(t))) - tol["sig"] + 1)), (s, v, t)
    vgot = dict(zip(*pts["val_loss"], strict=True))
    assert all(int(s) in vgot for s, _v in truth.get("eval_loss", []))
