"""Table shapes the reader missed on examples/libraries_holdout9 and _holdout10 (issue 32), each written as a small log
the way a library prints it (with variants) and read by the one engine, whole and in pieces. Each shape is general: a
display table between rules whose columns mix ``%.10f`` and ``%.6E`` forms, its objective a population's current mean
beside a running best; a column named by a time unit (``S``) that is no step; a table whose rows come after a bar
drawn and erased with ``\\r`` and a warning's lines, between its header and first row or between two rows."""

from __future__ import annotations

import math

from training_check.tools.objective import assign_roles, population_best

from .test_engine_tables import _in_reads, _line_starts, _same_in_any_reads


def _cell(v: float) -> str:
    """pymoo's display cell: ``%.10f`` while it fits, else ``%.6E`` (one column holds both)."""
    s = f"{v:.10f}"
    return s if len(s) <= 12 and abs(v) >= 1e-4 else f"{v:.6E}"


def _pymoo(gens: int, extra: bool = False, pop: int = 20) -> tuple[bytes, list[int], list[float]]:
    """pymoo's ``verbose=True`` display: a rule, the header, a rule, a row per generation; with ``extra`` PSO's
    columns (``f S w c1 c2``), ``-`` cells on the first row."""
    cols = ["n_gen", "n_eval"] + (["f", "S", "w", "c1", "c2"] if extra else []) + ["f_avg", "f_min", "f_gap"]
    widths = [5, 8] + ([8, 7, 7, 8, 8] if extra else []) + [13, 13, 13]
    head = " | ".join(c.center(w) for c, w in zip(cols, widths, strict=True))
    out = ["=" * len(head), head, "=" * len(head)]
    steps, avgs, best = [], [], math.inf
    for g in range(1, gens + 1):
        avg = 90.0 / g ** 1.3 + 0.37 * (g % 3)
        best = min(best, avg * 0.6)
        cells = [f"{g:>5}", f"{g * pop:>8}"]
        if extra:
            cells += (["-".rjust(8), "-".rjust(7)] if g == 1 else
                      [f"{-0.038 / g:>8.1E}" if g % 2 else f"{0.03 / g:>8.5f}", f"{3:>7}"])
            cells += [f"{0.4 + 0.001 * g:>7.4f}", f"{2 - 0.01 * g:>8.5f}", f"{2 + 0.01 * g:>8.5f}"]
        cells += [f"{_cell(avg):>13}", f"{_cell(best):>13}", f"{_cell(best):>13}"]
        out.append(" | ".join(cells))
        steps.append(g)
        avgs.append(float(_cell(avg)))
    return ("\n".join(out) + "\n").encode(), steps, avgs


def test_a_mean_beside_a_min_without_max_is_the_objective_a_min_beside_max_and_mean_too():
    assert population_best(["n_gen", "n_eval", "f_avg", "f_min", "f_gap"]) == "f_avg"
    assert population_best(["gen", "nevals", "avg", "std", "min", "max"]) == "min"  # DEAP: the current population's
    assert population_best(["fitness avg", "fitness min", "fitness max"]) == "fitness min"
    assert population_best(["f_min", "f_gap"]) is None
    roles = assign_roles(["n_gen", "n_eval", "f_avg", "f_min", "f_gap"])
    assert roles["f_avg"].primary and roles["f_avg"].direction == "min" and not roles["f_min"].primary


def test_display_table_mixing_fixed_and_exponent_forms_is_read_whole_and_in_pieces():
    for gens, extra in ((30, False), (15, False), (25, True)):
        data, steps, avgs = _pymoo(gens, extra)
        assert b"E+01 |" in data and b"E+01 |" in data.splitlines()[3]
        whole = _same_in_any_reads(data, every=3)
        assert whole["f_avg"] == (steps, avgs), (gens, extra)
        assert set(whole) >= {"f_avg", "f_min", "f_gap", "n_eval"}
        if extra:  # a column named ``S`` (a time unit's letter) is no step: the rows stay at their generation
            assert whole["S"][0] == steps[1:] and whole["f"][0] == steps[1:]


def _thinc(rows: list[tuple[int, int, float]], warn_at: set[int], per_epoch: int) -> bytes:
    """thinc's training table: ``epoch   step     loss``, its rule, then per epoch a bar drawn and erased with
    ``\\r`` + blanks + ``\\r`` before the epoch's first row; a RuntimeWarning's two lines glued after the bar before
    the rows numbered in ``warn_at`` (its second warning after a first's two)."""
    out = "epoch   step     loss        \n-----   ------   ------------\n"
    for k, (e, s, v) in enumerate(rows):
        cell = "nan" if math.isnan(v) else f"{v:f}"
        line = f"{e:<8d}{s:<9d}{cell:<12}\n"
        if k % per_epoch == 0:
            bar = f"\r  0%|          | 0/{per_epoch * 5} [00:00<?, ?it/s]"
            if k in warn_at:
                bar += ("/venv/lib/python3.11/site-packages/thinc/optimizers.py:271: RuntimeWarning: invalid value "
                        "encountered in multiply\n  gradient *= 0\n")
            line = bar + "\r" + " " * 38 + "\r" + line
        out += line
    return out.encode()


def _rows(n: int, per_epoch: int, every: int, nan_from: int) -> list[tuple[int, int, float]]:
    return [(k // per_epoch, (k + 1) * every, math.nan if k >= nan_from else round(0.24 - 0.001 * k, 6))
            for k in range(n)]


def _same_nan(a: tuple[list[int], list[float]], b: tuple[list[int], list[float]]) -> bool:
    return a[0] == b[0] and all(x == y or math.isnan(x) and math.isnan(y) for x, y in zip(a[1], b[1], strict=True))


def test_rows_after_an_erased_bar_and_a_warning_are_the_tables_nan_included():
    for n, per, nan_from, warn in ((40, 5, 2, {0}), (15, 3, 11, {9}), (12, 2, 5, {0, 4})):
        rows = _rows(n, per, 5 if per == 5 else 10, nan_from)
        data = _thinc(rows, warn, per)
        want = ([s for _e, s, _v in rows], [v for _e, _s, v in rows])
        whole = _in_reads(data, [])
        assert _same_nan(whole["loss"], want), (n, per)
        for cut in _line_starts(data):
            assert _same_nan(_in_reads(data, [cut])["loss"], want), (n, per, cut)
        assert _same_nan(_in_reads(data, _line_starts(data)[::3])["loss"], want), (n, per)
        # a bar's \r a read ends in: the same points
        for cut in [i + 1 for i, c in enumerate(data) if c == 13][::2]:
            assert _same_nan(_in_reads(data, [cut])["loss"], want), (n, per, "cr", cut)
