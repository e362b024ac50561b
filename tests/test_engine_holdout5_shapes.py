"""Shapes the reader missed on examples/libraries_holdout5 (issue 32, "records, not lines"), each written as a small
log the way a library prints it (with variants no library of the set prints) and read by the one engine; the same
bytes read in parts give the same points. Each shape is general: a rule any library's log can meet, with what is
library-specific kept as data in ``dialect.py`` / ``roles.py``."""

from __future__ import annotations

import math

import numpy as np
from training_check.tools.frame import MetricFrame
from training_check.tools.objective import assign_roles, population_objective
from training_check.tools.parsers.fields import stamp_end
from training_check.tools.parsers.lines import step_ranges
from training_check.tools.points import Column, PointBatch

from .test_engine_records import _same_in_reads
from .test_engine_tables import _in_reads

# -- a glog/absl header, then "[N] name=value, ..." ------------------------------------------------------------------


def _absl(steps: list[int], fmt: str, thread: str = "140390894775168", where: str = "logging_writer.py:48") -> bytes:
    """absl's INFO lines of a metric writer (``[N] name=value, ...``), ``ReportProgress``'s notes between them and
    TensorFlow's start-up noise before them."""
    out = ["WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
           "I0000 00:00:1796514320.619961    6784 port.cc:153] oneDNN custom operations are on.",
           f"I1205 23:15:09.528961 {thread} clu_loop.py:98] Starting training loop at step 1."]
    for k, s in enumerate(steps):
        if s % 100 == 0:
            out.append(f"I1205 23:15:10.{k:06d} {thread} local.py:41] Setting work unit notes: 402.8 steps/s, "
                       f"{100 * s / steps[-1]:.1f}% ({s}/{steps[-1]}), ETA: 0m")
            out.append(f"I1205 23:15:10.{k:06d} {thread} {where}] [{s}] steps_per_sec=402.849")
        out.append(f"I1205 23:15:10.{k:06d} {thread} {where}] [{s}] " + fmt.format(loss=2.0 / (k + 1), acc=k / 40))
    return ("\n".join(out) + "\n").encode()


def test_a_bracketed_step_after_a_glog_header_is_the_step():
    """``I1205 23:14:41.097795 140390894775168 logging_writer.py:48] [100] accuracy=0.92, loss=0.21``: the number
    in brackets opening the message is the step (as boosting's ``[15]`` opening a line), the header's numbers (the
    glued level and date, the thread id, the source line) no fields."""
    steps = list(range(20, 420, 20))
    pts = _same_in_reads(_absl(steps, "accuracy={acc}, loss={loss}"), every=3)
    assert pts["loss"][0] == steps
    assert math.isclose(pts["loss"][1][0], 2.0)
    assert not any(k.startswith(("I1205", "val_", "avg_")) for k in pts), sorted(pts)


def test_variants_of_the_glog_header():
    """A collection's word before the fields, a short thread id, another source file, other levels' letters."""
    steps = list(range(10, 310, 10))
    pts = _same_in_reads(_absl(steps, "collection=train accuracy={acc}, loss={loss}", thread="6784",
                               where="writer.cc:7"), every=5)
    assert pts["loss"][0] == steps
    hdr = b"W0107 01:02:03.000004 12345 summary.py:310]"
    assert stamp_end(hdr + b" [5] loss=1.0") == len(hdr)
    # no source location closing it, or a level letter with no date: no glog header
    assert stamp_end(b"I1205 train [5] loss=1.0") == 0
    assert stamp_end(b"X1205 23:15:10.1 1 a.py:3] [5] loss=1.0") == 0
    # a long number after another stamp's clock is no thread id: the step it may be stays a field
    assert stamp_end(b"2026-12-05 20:09:24 15000 loss=0.5") == len(b"2026-12-05 20:09:24")


# -- a value named with the range of steps it averages --------------------------------------------------------------


def _svi_bar(total: int, every: int, printed: list[int], nan_from: int | None = None) -> bytes:
    """NumPyro's ``SVI.run`` bar: one line of ``\\r`` redraws, the postfix set every ``every`` steps and shown at the
    next redraw (only the ranges ending at ``printed`` are drawn), the first step's loss repeated as ``init loss``."""
    out = []
    for end in printed:
        avg = "nan" if nan_from is not None and end >= nan_from else f"{1000.0 / end:.4f}"
        for drawn in (end + 3, end + every // 2):
            out.append(f"{100 * drawn // total:3d}%|###       | {drawn}/{total} [00:03<00:04, 280.37it/s, "
                       f"init loss: 6016.4082, avg. loss [{end - every + 1}-{end}]: {avg}]")
    return ("\r".join(out) + " \n").encode()


def test_a_range_named_value_is_at_the_ranges_end():
    """``avg. loss [501-600]: 1494.2839`` in a bar's postfix: the mean of steps 501..600, at 600 (not at the bar's
    count when it was drawn, nor once per redraw); ``init loss`` (the first step's, repeated) is no loss curve."""
    printed = [100, 300, 400, 700, 800, 1000, 1300, 1500, 1900, 2000]
    pts = _same_in_reads(_svi_bar(2000, 100, printed), every=1)
    assert pts["avg loss"][0] == printed
    assert math.isclose(pts["avg loss"][1][1], 1000.0 / 300, rel_tol=1e-4)


def test_redraws_of_one_state_cut_by_a_reads_end_are_one_point():
    """A read ending between two redraws of one range (``[1-100]`` drawn at counts 103 and 150): the same points as
    the whole read, the constant ``init loss`` too (its repeats are counted once)."""
    data = _svi_bar(2000, 100, [100, 300, 400, 700, 800, 1000, 1300, 1500, 1900, 2000])
    whole = _in_reads(data, [])
    for cut in [i + 1 for i, c in enumerate(data) if c == 13]:
        assert _in_reads(data, [cut]) == whole, f"one cut at byte {cut}"


def test_another_records_point_at_that_step_after_a_reads_end_stays():
    """An eval record repeating the train record's ``train_time`` at its step, the read cut between them: two points,
    as in one read (only a redraw of the same record is the same state)."""
    data = b"".join(b"step:%d/40 train_loss:%.4f train_time:%dms\n" % (i, 5 - i / 10, i)
                    + (b"step:%d/40 val_loss:%.4f train_time:%dms\n" % (i, 5 - i / 9, i) if i % 10 == 0 else b"")
                    for i in range(40))
    whole = _in_reads(data, [])
    assert whole["train_time_ms"][0][:2] == [0, 0]
    for cut in [i + 1 for i, c in enumerate(data) if c == 10]:
        assert _in_reads(data, [cut]) == whole, f"one cut at byte {cut}"


def test_a_range_named_nan_and_odd_ranges():
    printed = [75, 150, 300, 375, 450, 600]
    pts = _same_in_reads(_svi_bar(600, 75, printed, nan_from=375), every=1)
    assert pts["avg loss"][0] == printed
    assert [math.isnan(v) for v in pts["avg loss"][1]] == [False] * 3 + [True] * 3


def test_what_a_step_range_is():
    assert step_ranges(b"x, avg. loss [1-100]: 5.25]") == b"x, avg. loss: 5.25, step: 100]"
    # a range that goes back, a range with no value after it, a date: as printed
    for text in (b"loss [9-3]: 1.0", b"loss [1-100]: high", b"at [2026-12]: 5", b"range [1-100] 5.0"):
        assert step_ranges(text) == text


# -- padded name : value blocks of a population's statistics --------------------------------------------------------


def _es_blocks(gens: int, every: int = 1, grow_at: int | None = None, minimise: bool = True,
               names: tuple[str, ...] = ("mean_eval", "pop_best_eval", "median_eval", "best_eval",
                                         "worst_eval")) -> bytes:
    """EvoTorch's ``StdOutLogger``: per logged generation a block of names right-aligned to one column of colons,
    then a blank line; INFO lines before."""
    out = ["[2026-12-05 23:12:21] INFO     <22649> evotorch.core: Instance of `Problem` (id:1397) -- The `device` of "
           "the problem is set as cpu"]
    width = max(len(n) for n in ("iter", *names))
    sign = 1 if minimise else -1
    for g in range(every, gens + 1, every):
        mean = 2.0 / g if grow_at is None or g < grow_at else 5.0 + g
        vals = {"mean": mean, "median": mean * 0.95, "pop_best": mean * 0.6, "best": mean * 0.5,
                "worst": mean * 2.0 + 3}
        out.append(f"{'iter':>{width}} : {g}")
        for n in names:
            stat = n.rsplit("_", 1)[0] if n.endswith(("_eval", "_fitness")) else n.split("_", 1)[1]
            out.append(f"{n:>{width}} : {sign * vals[stat]!r}")
        out.append("")
    return ("\n".join(out) + "\n").encode()


def test_blocks_of_names_padded_to_a_colon_column_are_records():
    """``         iter : 12`` / ``    mean_eval : 0.74`` / ... a blank line: one record per block, at its iter."""
    pts = _same_in_reads(_es_blocks(30), every=4)
    assert pts["mean_eval"][0] == list(range(1, 31))
    assert pts["worst_eval"][0] == list(range(1, 31))
    pts = _same_in_reads(_es_blocks(100, every=5), every=9)
    assert pts["mean_eval"][0] == list(range(5, 105, 5))


def test_a_populations_mean_is_the_runs_loss_when_none_is_named_so():
    names = ["iter", "mean_eval", "pop_best_eval", "median_eval", "best_eval", "worst_eval"]
    assert population_objective(names) == ("mean_eval", "best_eval", "worst_eval")
    assert population_objective(["fitness_avg", "fitness_best", "fitness_worst"]) == (
        "fitness_avg", "fitness_best", "fitness_worst")
    roles = assign_roles(names)
    assert roles["mean_eval"].primary and roles["mean_eval"].role == "train_loss"
    # a loss named so wins; a mean without a best and a worst is no population's
    assert assign_roles([*names, "loss"])["loss"].primary
    assert population_objective(["mean_eval", "best_eval"]) is None


def _frame(rows: bytes) -> MetricFrame:
    pts = _same_in_reads(rows, every=50)
    cols = {k: Column(np.asarray(s, dtype=np.int64), np.asarray(v, dtype=float)) for k, (s, v) in pts.items()}
    return MetricFrame.from_batch(PointBatch(cols))


def test_a_population_that_maximises_has_no_loss():
    """Its best above its worst: the fitness is maximised, its mean no loss to judge falling."""
    assert _frame(_es_blocks(20)).primary_loss == "mean_eval"
    assert _frame(_es_blocks(20, minimise=False)).primary_loss is None


# -- a bar's final state, then the line closing it: one record (PyMC's ``.fit`` calls) ---------------------------------


def _fit_calls(losses: list[float], closing: bool = True, blank: bool = False, raised_at: float | None = None,
               extra: str = "") -> bytes:
    """Per call, a rich bar's final state (a file is no terminal: no redraws), then its logger's summary of the same
    quantity (``Finished [100%]: Average Loss = 1,176.5``, thousands grouped); a call that raised leaves its bar
    part way and a traceback."""
    bar = "\u2501" * 36
    out = ["/site-packages/pytensor/link/c/cmodule.py:2986: UserWarning: PyTensor could not link to a BLAS",
           "  warnings.warn("]
    for loss in losses:
        out.append(f"Fitting: {bar} 100% 0:00:00 Average Loss = {loss * 1.002:,.5g}")
        if blank:
            out.append("")
        if closing:
            out.append(f"Finished [100%]: Average Loss = {loss:,.5g}{extra}")
    if raised_at is not None:
        out += [f"Fitting: \u2501\u2501\u2501\u2578{' ' * 32} 11% 0:00:01 Average Loss = {raised_at:,.5g}",
                "Traceback (most recent call last):", "FloatingPointError: NaN occurred in optimization."]
    return ("\n".join(out) + "\n").encode()


def _read_as_frame(data: bytes, cuts: list[int]) -> dict[str, dict[int, float]]:
    """The points of ``data`` read in parts, a later point at a step replacing an earlier one (as the run's history
    keeps them)."""
    out: dict[str, dict[int, float]] = {}
    for k, (s, v) in _in_reads(data, cuts).items():
        out[k] = dict(zip(s, v, strict=True))
    return out


def _same_at_any_cut(data: bytes, many: bool = True) -> dict[str, dict[int, float]]:
    """The points read whole, the same read in two parts cut at any line start and (``many``) a read per line or
    per two lines. (A record printed once whose template a read per line never sees twice stays a carried one-off
    line: the raised call's bar, followed by no record.)"""
    whole = _read_as_frame(data, [])
    starts = [i + 1 for i, c in enumerate(data[:-1]) if c == 10]
    for cut in starts:
        assert _read_as_frame(data, [cut]) == whole, f"one cut at byte {cut}"
    if many:
        assert _read_as_frame(data, starts) == whole, "a read per line"
        assert _read_as_frame(data, starts[::2]) == whole, "a read every second line"
    return whole


def test_a_bars_final_state_and_the_line_closing_it_are_one_record():
    """``Fitting: ━━━━ 100% 0:00:00 Average Loss = 1,179.8`` then ``Finished [100%]: Average Loss = 1,176.5``: one
    record a call, the closing line's value; ``[100%]`` glued to a word a progress mark, no metric."""
    losses = [1176.5, 763.34, 747.91, 747.85, 747.84, 747.81]
    pts = _same_at_any_cut(_fit_calls(losses))
    assert sorted(pts) == ["Average Loss"]
    assert pts["Average Loss"] == {k + 1: v for k, v in enumerate(losses)}


def test_variants_of_a_closed_bar():
    """A blank line between the bar and the line closing it; a closing line naming more; a call that raised (its bar
    part way, no closing line: its state is the record); bars no line closes are each a record."""
    losses = [207.1, 94.256, 80.248, 79.942, 96.374, 320.51]
    pts = _same_at_any_cut(_fit_calls(losses, blank=True))
    assert list(pts["Average Loss"].values()) == losses
    pts = _same_at_any_cut(_fit_calls(losses, extra=", Best Loss = 1.5"))
    assert list(pts["Average Loss"].values()) == losses
    pts = _same_at_any_cut(_fit_calls(losses, raised_at=2187.1), many=False)
    assert pts["Average Loss"] == {**{k + 1: v for k, v in enumerate(losses)}, 7: 2187.1}
    pts = _same_at_any_cut(_fit_calls(losses, closing=False))
    assert [round(v / 1.002, 2) for v in pts["Average Loss"].values()] == [round(v, 2) for v in losses]
    assert "Finished" not in _same_at_any_cut(_fit_calls(losses))
