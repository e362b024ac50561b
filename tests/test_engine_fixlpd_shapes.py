"""Tree-drawn vertical records (examples/libraries_holdout92's lpd runs, fixlpd): a block whose rows carry box-drawing
rails and branch marks by depth is one record at its ``Epoch: N`` row, a row named by its sections' path (a split's
section its prefix), a row of ``key:value`` pairs giving its current value; beside a bar, the block's value is the
run's at its epoch. Read whole and in pieces alike (``tools/parsers/tree_blocks.py``)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from tests.test_read_misses import _live, assert_at_truth, corpus_runs, whole_and_pieces, whole_as_live

SET = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout92"
TARGETS = ("lpd_reg_sgd_val_round4_quiet_10ep", "lpd_reg_adam_noval_round6_quiet_15ep",
           "lpd_cls_sgd_lr_growth_diverged", "lpd_reg_sgd_lr_growth_nan")


def _fmt(v: float, digits: int) -> str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return str(round(v, digits))


def _tree(epoch: int, train: list[float], val: list[float] | None, digits: int, width: int, color: bool,
          acc: float | None = None, improved: bool = True) -> str:
    """One tree-drawn block as lpd's StatsPrint draws it (train/val: [curr, prev, best])."""
    def c(name: str) -> str:
        return f"\x1b[38;5;222m{name}\x1b[0m" if color else name

    status = (" \x1b[92mIMPROVED\x1b[0m" if color else " IMPROVED") if improved else " NOT IMPROVED"
    rows = ["\u250f" + "\u2501" * width, "\u2503   [StatsPrint]",
            f"\u2503   \u250f\u2501\u2501 {c('Name')}: \"mlp\"",
            f"\u2503   \u2523\u2501\u2501 {c('Epoch')}: {epoch}",
            f"\u2503   \u2523\u2501\u2501 {c('Total batch count')}: {epoch * 16}",
            f"\u2503   \u2523\u2501\u2501 {c('Learning rates')}: [0.005]"]

    def split(label: str, vals: list[float], rail: str, last: bool) -> list[str]:
        cur, prev, best = (_fmt(x, digits) for x in vals)
        out = [f"\u2503   {chr(0x2517) if last else chr(0x2523)}\u2501\u2501 {label}",
               f"\u2503   {rail}     \u2523\u2501\u2501 {c('loss')}{status}",
               f"\u2503   {rail}     \u2503     \u2517\u2501\u2501 curr:{cur}, prev:{prev}, best:{best}, "
               f"change_from_prev:-inf, change_from_best:-inf",
               f"\u2503   {rail}     \u2517\u2501\u2501 {c('metrics')}"]
        if acc is None:
            out.append(f"\u2503   {rail}           \u2523\u2501\u2501 no metrics found")
        else:
            out.append(f"\u2503   {rail}           \u2523\u2501\u2501 name: \"acc\"{status}, curr:{acc}, prev:0.1, "
                       f"best:{acc}, change_from_prev:0.0, change_from_best:0.0")
        return out

    rows += split("\x1b[96mTrain\x1b[0m" if color else "Train", train, "\u2503" if val is not None else " ",
                  val is None)
    if val is not None:
        rows += ["\u2503   \u2503", "\u2503   \u2503"] + split("Validation", val, " ", True)
    rows += ["\u2503", "\u2517" + "\u2501" * width, "", ""]
    return "\n".join(rows) + "\n"


def _run(n: int, seed: int, digits: int, width: int, color: bool, with_val: bool, bar: bool = False,
         acc: bool = False) -> tuple[bytes, list[tuple[int, float]], list[tuple[int, float]]]:
    rng = random.Random(seed)
    out: list[str] = []
    truth: list[tuple[int, float]] = []
    vtruth: list[tuple[int, float]] = []
    prev, vprev = math.inf, math.inf
    best, vbest = math.inf, math.inf
    for e in range(1, n + 1):
        tl = round(rng.uniform(0.5, 9.0), digits)
        vl = round(rng.uniform(0.5, 9.0), digits)
        if bar:
            # lpd's tqdm bar: redrawn at 0/4 as the running loss changes, closed at 4/4 (a display)
            out.append(f"\r[Train epoch {e}/{n}]:   0%|          | 0/4 [00:00<?, ?it/s]")
            for b in range(1, 5):
                out.append(f"\r[Train epoch {e}/{n}]:   0%|          | 0/4 [00:00<?, ?it/s, "
                           f"loss={tl + 0.3 * (4 - b):.3g}]")
            out.append(f"\r[Train epoch {e}/{n}]: 100%|##########| 4/4 [00:00<00:00, 99.9it/s, loss={tl:.3g}]\n\n")
        best, vbest = min(best, tl), min(vbest, vl)
        out.append(_tree(e, [tl, prev, best], [vl, vprev, vbest] if with_val else None, digits, width, color,
                         acc=0.5 if acc else None, improved=tl <= best))
        prev, vprev = tl, vl
        truth.append((e, tl))
        vtruth.append((e, vl))
    return "".join(out).encode(), truth, vtruth


def _close(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> None:
    assert [s for s, _ in got] == [s for s, _ in want]
    for (_, a), (_, b) in zip(got, want, strict=True):
        assert a == pytest.approx(b, rel=1e-12)


@pytest.mark.parametrize(("n", "seed", "digits", "width", "color", "with_val"), [
    (10, 1, 4, 100, True, True), (15, 2, 6, 100, True, False), (3, 3, 8, 40, False, True),
    (25, 4, 2, 140, False, False), (1, 5, 4, 100, True, True)])
def test_a_tree_drawn_block_is_one_record_at_its_epoch(tmp_path, n, seed, digits, width, color, with_val):
    data, truth, vtruth = _run(n, seed, digits, width, color, with_val)
    got = whole_as_live(tmp_path, data, f"tree{seed}.log")
    _close(list(zip(*got["loss"], strict=True)), truth)
    if with_val:
        _close(list(zip(*got["val_loss"], strict=True)), vtruth)
    assert not any("best" in k or "prev" in k or "change" in k for k in got)  # no statistics as points
    assert "Epoch" not in got and "epoch" not in got
    if n >= 3:
        whole_and_pieces(tmp_path, data, f"treep{seed}.log", seed=seed)


def test_a_quoted_name_in_a_row_of_pairs_names_its_value_under_its_sections(tmp_path):
    data, _truth, _v = _run(6, 7, 4, 100, True, True, acc=True)
    got = whole_as_live(tmp_path, data, "acc.log")
    assert list(zip(*got["metrics/acc"], strict=True)) == [(e, 0.5) for e in range(1, 7)]
    assert list(zip(*got["val_metrics/acc"], strict=True)) == [(e, 0.5) for e in range(1, 7)]


def test_beside_a_bar_the_blocks_value_is_the_runs_at_its_epoch(tmp_path):
    data, truth, vtruth = _run(8, 11, 6, 100, True, True, bar=True)
    got = whole_and_pieces(tmp_path, data, "bar.log", seed=3, trials=4)
    _close(list(zip(*got["loss"], strict=True)), truth)
    _close(list(zip(*got["val_loss"], strict=True)), vtruth)


def test_a_nan_and_an_infinity_in_a_block(tmp_path):
    data = _tree(1, [5.0, math.inf, 5.0], None, 4, 100, True).encode() + _tree(
        2, [math.nan, 5.0, 5.0], None, 4, 100, True).encode() + _tree(3, [math.nan, math.nan, 5.0], None, 4, 100,
                                                                      True).encode()
    got = whole_as_live(tmp_path, data, "nan.log")
    steps, vals = got["loss"]
    assert steps == [1, 2, 3] and vals[0] == 5.0 and math.isnan(vals[1]) and math.isnan(vals[2])


def test_a_tree_with_no_step_row_is_no_series(tmp_path):
    rows = "\u250f" + "\u2501" * 60 + "\n\u2503   \u2523\u2501\u2501 lr: 0.1\n\u2503   \u2523\u2501\u2501 depth: 3\n" \
        + "\u2517" + "\u2501" * 60 + "\n"
    got = whole_as_live(tmp_path, (rows * 3).encode(), "settings.log")
    assert "lr" not in got and "depth" not in got


@pytest.mark.parametrize("run", TARGETS)
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    assert run in corpus_runs(SET, "lpd_")
    data = (SET / run / "train.log").read_bytes()
    truth = json.loads((SET / run / "truth.json").read_text())
    got = _live(tmp_path, data, [], name=f"whole_{run}.log")
    # in pieces as whole: the block's series (a bar's per-batch acc of lpd_cls_sgd_lr_growth_diverged already read
    # otherwise in pieces before this change: the bar-only shapes are another fix's)
    live = _live(tmp_path, data, [int(c * len(data)) for c in (0.03, 0.2, 0.37, 0.55, 0.81)], name=f"live_{run}.log")
    for name in ("loss", "val_loss"):
        assert json.dumps(live.get(name)) == json.dumps(got.get(name)), (run, name)
    assert_at_truth(dict(zip(*got["loss"], strict=True)), truth, run)


def test_only_a_tree_the_read_ends_inside_waits_for_its_rest():
    from training_check.tools.parsers.tree_blocks import hold_tree

    block = _tree(1, [5.0, math.inf, 5.0], None, 4, 60, False).encode()
    cut = block.index(b"curr:")
    cut = block.rfind(b"\n", 0, cut) + 1
    head = b"some line\n"
    kept, held = hold_tree(head + block[:cut])
    assert kept == head and held == block[:cut]
    assert hold_tree(head + block) == (head + block, b"")  # closed by its bottom border (then blanks)
    table = "\u250f\u2501\u2501\u2533\u2501\u2501\u2513\n\u2503 a \u2503 b \u2503\n\u2502 1 \u2502 2 \u2502\n" \
        "\u2514\u2500\u2500\u2534\u2500\u2500\u2518\n"
    data = head + table.encode()
    assert hold_tree(data) == (data, b"")  # a table's rows and borders: no tree
    rows = head + "\u2502 1 \u2502 2 \u2502\n".encode()
    assert hold_tree(rows) == (rows, b"")


def test_a_hostile_tree_costs_only_its_names():
    rows = ["\u250f" + "\u2501" * 20]
    rows += [f"\u2503 \u2523\u2501\u2501 Epoch: {e}" if k == 0 else f"\u2503 \u2523\u2501\u2501 m{e}_{k}: {k}.5"
             for e in range(1, 40) for k in range(60)]
    rows += ["\u2503 " * 2000 + "\u2523\u2501\u2501 x: 1", "\u2517" + "\u2501" * 20, ""]
    from training_check.tools.parsers.base import Emitter
    from training_check.tools.parsers.engine import read_block

    em = Emitter()
    read_block("\n".join(rows).encode(), em)
    assert len(em.build().columns) <= 1024
