"""A table of a metric per row and a split per column (hippynn's per-epoch evaluation, examples/libraries_holdout52
and 53). Per epoch: a banner on its own line (``Epoch 3:``, 0-based), settings, maybe progress bars of the epoch's
passes (tqdm on stderr: the training batches, each split's evaluation, erased when done), then a header naming the
splits only (``train  valid``, later ``train  valid  test``), a rule, one row per metric (``Loss  :    *    2.4951
*    2.0084``: the metric's name, a colon, a cell per split, a ``*`` before a cell when it is a new best, there or not
from epoch to epoch), then ``Best Loss so far:`` and more. The train column is the train loss (``Loss``), the valid
column the eval loss (``val_Loss``), at the banner's epoch; after training, the best model's table (``train  valid
test``) under the last epoch's banner gives that epoch no second point (``test_Loss`` is new there: it is kept)."""

from __future__ import annotations

import json
import math
import random

import pytest
from training_check.tools.parsers.tables_text import named_row, parse_header, split_prefixes
from training_check.tools.parsers.templates import best_marks, group_lines, unmark_best

from .conftest import REPO
from .test_read_misses import _live, primary_names, whole_as_live

_BAR = "{label}: {pct:3d}%|{fill:<10}| {n}/{total} [00:00<00:00, 9.17s/batch]"


def _cell(v: float, best: bool, width: int, digits: int) -> str:
    """hippynn's cell: the best mark right-aligned in 5 characters, the value in ``width`` (glued when it is wider)."""
    return f"{'*' if best else ' ':>5}{v:>{width}.{digits}g}"


def _table(splits: list[str], rows: list[tuple[str, list[float], list[bool]]], width: int, digits: int) -> str:
    nw = max(len(n) for n, _v, _b in rows)
    head = " " * (nw + 1) + "".join(f"{s:>{width + 5}}" for s in splits)
    out = [head, "-" * len(head)]
    out += [f"{name:<{nw}}:" + "".join(_cell(v, b, width, digits) for v, b in zip(vals, bests, strict=True))
            for name, vals, bests in rows]
    return "\n".join(out) + "\n"


def _bar(label: str, n: int, total: int) -> str:
    return "\r" + _BAR.format(label=label, pct=100 * n // total, fill="#" * (10 * n // total), n=n, total=total)


def _log(epochs: int, seed: int, *, terms: bool = False, bars: bool = False, nan_from: int | None = None,
         width: int = 10, digits: int = 5, final: bool = True) -> tuple[str, list[float], list[float], list[float]]:
    """A hippynn-like log of ``epochs`` epochs; (text, train Loss, valid Loss, the final table's test Loss) as
    printed (rounded to ``digits`` significant digits)."""
    rng = random.Random(seed)
    names = ["T-RMSE", "T-MAE", "T-RSQ"] + (["L2Reg", "Loss-Err", "Loss-Reg"] if terms else []) + ["Loss"]
    out = ["Determined Targets: ['HEnergy.mol_energy']\nBeginning training.\n"
           f"Total Count: 2101\nAt least {epochs} epochs will be run\n"]
    best = {n: [math.inf, math.inf] for n in names}
    train, valid = [], []
    printed = {}
    for e in range(epochs):
        out.append("_" * 50 + f"\nEpoch {e}:\nLearning rate: {0.003 * 0.9 ** (e // 3):>10.5g}\nBatch Size: 16\n")
        if bars:
            moved = e == 0  # the first batch's compile: the bar counted one before it was erased
            out.append(_bar("Training Batches", 0, 7) + (_bar("Training Batches", 1, 7) if moved else "")
                       + "\r" + " " * 58 + "\r")
        out.append(f"Training time: {rng.uniform(0.05, 0.2):6.2f} s\nValidating...\n")
        if bars:
            for split, total in (("train", 2), ("valid", 1)):
                out.append(_bar(f"Evaluating {split}", 0, total) + "\r" + " " * 58 + "\r")
        rows = []
        for name in names:
            base = 2.0 * math.exp(-0.15 * e) * (1 + 0.3 * rng.random()) + 0.05
            vals = [base * rng.uniform(0.9, 1.1), base * rng.uniform(1.0, 1.3)]
            if name == "T-RSQ":
                vals = [1 - v / 3 for v in vals]
            if nan_from is not None and e >= nan_from:
                vals = [math.nan, math.nan]
            marks = []
            for k, v in enumerate(vals):
                marks.append(bool(v < best[name][k]))
                best[name][k] = min(best[name][k], v) if not math.isnan(v) else best[name][k]
            rows.append((name, vals, marks))
        text = _table(["train", "valid"], rows, width, digits)
        out.append(text)
        printed = {line.split(":")[0].strip(): line for line in text.splitlines()[2:]}
        cells = printed["Loss"].split(":", 1)[1].replace("*", " ").split()
        train.append(float(cells[0]))
        valid.append(float(cells[1]))
        out.append(f"Best T-RMSE so far: {best['T-RMSE'][1]:>8.5g}\nEpochs since last best: {e % 3}\n"
                   f"Current max epochs: {epochs}\nTotal epoch time: {rng.uniform(0.05, 0.2):6.2f} s\n")
        if e % 2 == 0:
            out.append("**** NEW BEST MODEL - Saving! ****\n")
    test: list[float] = []
    if final:
        out.append("Training phase ended.\nReverting to best model found.\nMaking plots over training time...\n"
                   "Testing model...\n")
        if bars:
            out.append(_bar("Evaluating train", 0, 2) + "\r" + " " * 58 + "\r")
        rows = [(n, [0.5 + k * 0.01, 0.6 + k * 0.01, 0.7 + k * 0.01], [False] * 3) for k, n in enumerate(names)]
        text = _table(["train", "valid", "test"], rows, width, digits)
        out.append(text + "-" * 50 + "\nTraining complete.\n")
        test.append(float(text.splitlines()[-1].split(":", 1)[1].split()[-1]))
    return "".join(out), train, valid, test


def _same(got: list[float], want: list[float]) -> bool:
    return len(got) == len(want) and all(a == b or math.isnan(a) and math.isnan(b) for a, b in zip(got, want,
                                                                                                   strict=True))


@pytest.mark.parametrize(("epochs", "seed", "terms", "bars", "width", "digits"), [
    (20, 1, False, False, 10, 5), (12, 2, True, True, 10, 5), (7, 3, False, True, 12, 6), (30, 4, True, False, 9, 4),
    (3, 5, False, False, 14, 7),
])
def test_a_metric_per_row_table_is_read_at_the_banners_epoch(tmp_path, epochs, seed, terms, bars, width, digits):
    text, train, valid, test = _log(epochs, seed, terms=terms, bars=bars, width=width, digits=digits)
    pts = whole_as_live(tmp_path, text.encode(), f"h{seed}.log")
    assert pts["Loss"] == (list(range(epochs)), train), pts.get("Loss")
    assert pts["val_Loss"] == (list(range(epochs)), valid), pts.get("val_Loss")
    assert pts["test_Loss"] == ([epochs - 1], test)  # the best model's test: new at the last epoch, kept
    assert pts["T-RMSE"][0] == list(range(epochs)) and pts["val_T-RMSE"][0] == list(range(epochs))
    if terms:
        assert pts["Loss-Err"][0] == list(range(epochs)) and pts["val_Loss-Reg"][0] == list(range(epochs))
    assert primary_names(pts) == ["Loss"]


@pytest.mark.parametrize("seed", range(6))
def test_in_any_pieces(tmp_path, seed):
    """Random cuts (mid-line, mid-table, between a bar and its erasing): the same points as one read."""
    rng = random.Random(seed)
    text, train, valid, _test = _log(rng.randint(2, 16), seed, terms=bool(seed % 2), bars=seed % 3 != 0,
                                     width=rng.randint(9, 13), digits=rng.randint(4, 6))
    data = text.encode()
    whole = _live(tmp_path, data, [], name="whole.log")
    assert whole["Loss"][1] == train and whole["val_Loss"][1] == valid
    for k in range(4):
        cuts = sorted(rng.sample(range(1, len(data)), rng.randint(1, 10)))
        assert json.dumps(_live(tmp_path, data, cuts, name=f"live{k}.log")) == json.dumps(whole), cuts


def test_every_cut_of_two_epochs(tmp_path):
    """A read ending at any line's end of a short log gives the points one read does."""
    text, train, valid, _test = _log(3, 9, bars=True)
    data = text.encode()
    whole = _live(tmp_path, data, [], name="whole.log")
    assert whole["Loss"] == ([0, 1, 2], train)
    ends = [i + 1 for i, b in enumerate(data) if b in (10, 13)][:-1]
    for k, cut in enumerate(ends[::3]):
        assert json.dumps(_live(tmp_path, data, [cut], name=f"c{k}.log")) == json.dumps(whole), cut


def test_nan_rows_and_marks_glued_to_wide_values(tmp_path):
    """A run that diverged: values wider than their cell glue the mark to them (``*-4.7727e+05``), then rows of
    ``nan``: each read at its epoch."""
    text, train, valid, _test = _log(10, 7, nan_from=6, width=9, digits=5)
    big = text.replace("Epoch 3:\n", "Epoch 3:\n", 1)
    lines = big.splitlines(keepends=True)
    at = next(i for i, x in enumerate(lines) if x.startswith("Epoch 4:"))
    row = next(i for i in range(at, len(lines)) if lines[i].startswith("T-RMSE"))
    lines[row] = "T-RMSE:    *-4.7727e+05   *-3.2033e+05\n"  # (as holdout52's diverged runs print their T-RSQ)
    pts = whole_as_live(tmp_path, "".join(lines).encode(), "nan.log")
    assert pts["Loss"][0] == list(range(10)) and _same(pts["Loss"][1], train)
    assert _same(pts["val_Loss"][1], valid) and math.isnan(pts["Loss"][1][-1])
    assert pts["T-RMSE"][1][4] == -4.7727e+05 and pts["val_T-RMSE"][1][4] == -3.2033e+05


def test_without_the_final_table_and_with_test_columns_each_epoch(tmp_path):
    text, train, valid, _test = _log(8, 11, final=False)
    pts = whole_as_live(tmp_path, text.encode(), "nofinal.log")
    assert pts["Loss"] == (list(range(8)), train) and "test_Loss" not in pts
    # a test split evaluated every epoch: a third column, its own points, one per epoch
    lines = []
    for line in text.splitlines():
        if line.split() == ["train", "valid"]:
            line += f"{'test':>15}"
        elif line.startswith("---"):
            line += "-" * 15
        elif ":" in line and line.split(":")[0].strip() in ("T-RMSE", "T-MAE", "T-RSQ", "Loss"):
            line += _cell(0.25, False, 10, 5)
        lines.append(line)
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "three.log")
    assert pts["Loss"] == (list(range(8)), train) and pts["test_Loss"] == (list(range(8)), [0.25] * 8)


def test_the_shapes_parts():
    # a best mark: a cell's opening ``*`` after a column's gap, blanks apart or glued, in a row of two numbers or more
    g = group_lines([b"Loss  :    *    2.4951   *    2.0084", b"T-RSQ :    *-4.7727e+05   *-3.2033e+05",
                     b"  * 3 items, 2 * 4 = 8", b"x = 2  *  3", b"loss  * 0.5", b"  *    3    4"], None)
    assert [len(best_marks(t)) for t in g.templates] == [2, 2, 0, 0, 0, 0]
    got = unmark_best([b"Loss  :    *    2.4951   *    2.0084", b"Loss  :         2.4951   *    2.0084"],
                      group_lines([b"Loss  :    *    2.4951   *    2.0084", b"Loss  :         2.4951   *    2.0084"],
                                  None))
    assert got == [b"Loss  :         2.4951        2.0084"] * 2
    # a header of splits only, two or more; a row naming its metric, a colon, numbers
    head = parse_header(b"                 train         valid")
    assert head is not None and split_prefixes(head) == ["", "val_"]
    assert split_prefixes(parse_header(b"   train    valid    test")) == ["", "val_", "test_"]
    assert split_prefixes((("train", 2, 7), ("loss", 11, 15))) is None  # a metric among the columns
    assert split_prefixes((("train", 2, 7), ("training", 11, 19))) is None  # one split twice
    assert named_row(b"Loss-Err:         25.762        28.68") == ("Loss-Err", 1)
    assert named_row(b"T-MAE   :        9.2078       9.6466") == ("T-MAE", 2)
    assert named_row(b"Accuracy :  0.91  0.88") == ("Accuracy", 2)
    assert named_row(b"Best T-RMSE so far:   1.1159") is None  # one number: a record of its own
    assert named_row(b"12 :  0.91  0.88") is None and named_row(b"Time: 12:30  0.5") is None


def test_a_named_row_under_another_tables_header_is_its_own_record(tmp_path):
    """Rows naming their metric then a colon under a header that is no splits' keep their own names."""
    out = ["epoch  loss  acc"]
    for e in range(1, 7):
        out.append(f"{e:<5d}  {1 / e:.4f}  {0.5 + e / 20:.4f}")
    out.append("Accuracy :  0.91  0.88")
    pts = whole_as_live(tmp_path, ("\n".join(out) + "\n").encode(), "other.log")
    assert pts["loss"][0] == list(range(1, 7))
    assert not any(k.startswith("val_") for k in pts)


_TARGETS = sorted((REPO / "examples").glob("libraries_holdout5[23]/hippynn_*/train.log"))


@pytest.mark.parametrize("path", _TARGETS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_the_corpus_files_at_the_truths_steps(tmp_path, path):
    truth = json.loads((path.parent / "truth.json").read_text())
    tol = truth["tolerance"]
    pts = whole_as_live(tmp_path, path.read_bytes(), path.parent.name + ".log", cuts=(0.1, 0.37, 0.5, 0.52, 0.9))
    steps, values = pts[truth["loss_name"]]
    got = dict(zip(steps, values, strict=True))
    assert steps == [int(s) for s, _v in truth["train_loss"]]
    for s, t in truth["train_loss"]:
        v = got[int(s)]
        t = float(t)
        assert (math.isnan(t) and math.isnan(v)) or abs(v - t) <= max(tol["rel"] * abs(t), 0.5 * 10 ** (
            math.floor(math.log10(abs(t))) - tol["sig"] + 1)), (s, v, t)
    assert primary_names(pts) == [truth["loss_name"]]
    if truth.get("eval_loss"):
        assert pts["val_" + truth["loss_name"]][0] == [int(s) for s, _v in truth["eval_loss"]]
