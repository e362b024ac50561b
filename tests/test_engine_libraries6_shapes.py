"""Shapes the reader missed on examples/libraries6 (issue 32, "records, not lines"), each written as a small log the
way a library prints it and read by the one engine; the same bytes read in parts give the same points. Each shape
is general: a rule any library's log can meet, with what is library-specific kept as data in ``dialect.py``."""

from __future__ import annotations

from training_check.tools.objective import assign_roles, population_best
from training_check.tools.parsers.tables_text import join_grouped
from training_check.tools.roles import is_rl_episode_length, is_rl_return

from .test_engine_records import _same_in_reads


def _fixed_width(rows: int) -> bytes:
    """An evaluator's fixed-width table (ElegantRL's): the step in scientific notation, a border glued to a field
    that fills its width (``|-1514.98``)."""
    out = ["| Evaluator:", "| `step`: Number of samples.", "#" * 80,
           f"{'ID':<3}{'Step':>8}{'Time':>8} |{'avgR':>8}{'stdR':>7}{'avgS':>7}{'stdS':>6} |"
           f"{'expR':>8}{'objC':>7}{'objA':>7}{'etc.':>7}"]
    for k in range(rows):
        ret = -1600.0 + 120.0 * k
        out.append(f"{0:<3}{200 + 1000 * k:8.2e}{3 * k:8.0f} |{ret:8.2f}{50.5:7.1f}{200:7.0f}{0:6.0f} |"
                   f"{-5.0:8.2f}{1.5 + k:7.2f}{-3.0 * k:7.2f}")
    out.append("| UsedTime:      38 | SavedDir: ./run")
    return ("\n".join(out) + "\n").encode()


def test_a_border_glued_to_a_fixed_width_field_keeps_its_number():
    pts = _same_in_reads(_fixed_width(12), every=3)
    steps = [200 + 1000 * k for k in range(12)]
    assert list(pts["avg_return"]) == [steps, [-1600.0 + 120.0 * k for k in range(12)]]  # |-1600.00: -1600.00
    assert pts["critic_loss"][0] == steps


def test_an_evaluators_abbreviations_are_returns_and_episode_lengths():
    assert is_rl_return("avg_return") and is_rl_episode_length("mean_episode_length")


def _logbook(gens: int, chapters: bool) -> bytes:
    """An evolutionary algorithm's statistics table as DEAP's ``Logbook`` streams it: tab-separated, one row a
    generation; with chapters (``MultiStatistics``) a line of chapter names over a rule of dashes per chapter, each
    chapter repeating ``gen`` and ``nevals`` (tab stops at 8)."""
    cols = ["avg", "gen", "max", "min", "nevals", "std"] if chapters else ["avg", "std", "min", "max"]
    head = ["gen", "nevals"] + (cols * 2 if chapters else cols)
    rows = []
    for g in range(gens):
        f = {"avg": 2.0 / (g + 1), "std": 0.5, "min": 1.0 / (g + 1), "max": 4.0 / (g + 1), "gen": g, "nevals": 30}
        w = {"avg": 3.5, "std": 0.3, "min": 2.9, "max": 4.1, "gen": g, "nevals": 30}
        cells = [g, 30] + ([f[c] for c in cols] + [w[c] for c in cols] if chapters else [f[c] for c in cols])
        rows.append("\t".join(f"{c:<7g}" if isinstance(c, float) else f"{c:<3}" for c in cells))
    lines = ["\t".join(f"{h:<7}" if h not in ("gen", "nevals") else h for h in head)]
    if chapters:
        width = len("\t".join(lines[0].split("\t")[2:8]).expandtabs(8))  # a chapter's expanded width
        lines = ["   \t      \t" + "fitness".center(width) + "\t" + "wnorm".center(width),
                 "   \t      \t" + "-" * width + "\t" + "-" * width] + lines
    return ("\n".join(lines + rows) + "\n").encode()


def test_a_populations_statistics_table_is_read_its_lowest_value_the_objective():
    pts = _same_in_reads(_logbook(10, chapters=False), every=3)
    assert list(pts["min"]) == [list(range(10)), [float(f"{1.0 / (g + 1):g}") for g in range(10)]]
    assert assign_roles(list(pts))["min"].primary


def test_a_header_under_group_names_and_their_rules_names_each_column_by_its_group():
    pts = _same_in_reads(_logbook(10, chapters=True), every=3)
    assert list(pts["fitness min"]) == [list(range(10)), [float(f"{1.0 / (g + 1):g}") for g in range(10)]]
    assert pts["wnorm max"][0] == list(range(10))
    assert not any(n.endswith(" gen") or n.endswith(" nevals") for n in pts)  # each chapter's gen: the same column
    assert population_best(list(pts)) == "fitness min"


def test_a_group_line_needs_a_rule_under_it_spanning_columns():
    lines = _logbook(2, chapters=True).split(b"\n")
    assert join_grouped(lines[0], lines[1], lines[2]) is not None
    assert join_grouped(b"    ab", b"    --", lines[2]) is None  # no column under its run of dashes
    assert join_grouped(b"   \t      \t  fitness", b"   \t      \t  =======", lines[2]) is None  # no column in it
    assert population_best(["avg", "max"]) is None and population_best(["loss min", "loss max", "acc mean"]) is None


def _pandas_table(epochs: int) -> bytes:
    """A metrics DataFrame printed once at the end (``print(metrics.to_string())``, NeuralProphet's ``fit()``
    result): an unnamed index column, then the named ones; the index grows a digit at row 10."""
    head = f"{'':<4}{'train_loss':>10}{'reg_loss':>10}{'MAE':>11}{'epoch':>7}"
    rows = [f"{e:<4}{1.0 / (e + 1):>10.6f}{0.0:>10.1f}{10.0 / (e + 1):>11.6f}{e:>7}" for e in range(epochs)]
    return ("\n".join([head, *rows]) + "\n").encode()


def test_a_cell_under_a_column_takes_it_before_a_cell_beside_it():
    pts = _same_in_reads(_pandas_table(14), every=4)
    assert list(pts["train_loss"]) == [list(range(14)), [float(f"{1.0 / (e + 1):.6f}") for e in range(14)]]


def _cma_display(iters: list[int]) -> bytes:
    """pycma's display: ``Iterat #Fevals`` one blank apart over two numbers, ``function value`` over one."""
    out = ["(6_w,12)-aCMA-ES (mu_w=3.7,w_1=40%) in dimension 49 (seed=1, Sat Dec  5 23:27:59 2026)",
           "Iterat #Fevals   function value  axis ratio  sigma  min&max std  t[m:s]"]
    for i in iters:
        out.append(" ".join((repr(i).rjust(5), repr(12 * i).rjust(6), f"{1.0 / i:.15e}", f"{1.1:4.1e}",
                             f"{0.4:6.2e}", f"{0.3:6.0e}", f"{0.5:6.0e}", "0:00.1")) + "  ")
    return ("\n".join(out) + "\n").encode()


def test_two_words_one_blank_apart_over_two_numbers_are_two_columns():
    iters = [1, 2, 3, 10, 20, 30, 40, 50, 60]
    pts = _same_in_reads(_cma_display(iters), every=3)
    assert list(pts["function value"]) == [iters, [float(f"{1.0 / i:.15e}") for i in iters]]
    assert assign_roles(list(pts))["function value"].primary


def test_a_list_printed_over_lines_after_a_table_is_no_row():
    """pycma's closing report: ``incumbent solution: [ 307.37 -284.62 ...`` then `` 303.85  342.04 -111.02 ...]``. The
    line closing a bracket it did not open ends a list, no row of the table above (nor an ``avg_`` of its columns),
    whatever read it comes in."""
    iters = [1, 2, 3, 10, 20, 30, 40, 50, 60]
    tail = ("termination on {'tolfacupx': 1000.0}\n"
            "final/bestever f-value = 1.778752e+11 4.176739e-01 after 660/2 evaluations\n"
            "incumbent solution: [ 307.36898351 -284.61606241 -356.4589786  -537.51204775  859.42526636\n"
            "  303.85125329  342.04307946 -111.01718361 ...]\n"
            "std deviations: [459.92241462 467.01825478 473.53426452 461.09124922 479.64397017\n"
            " 470.16463516 460.93014621 459.34884598 ...]\n")
    pts = _same_in_reads(_cma_display(iters) + tail.encode(), every=1)
    assert list(pts["function value"]) == [iters, [float(f"{1.0 / i:.15e}") for i in iters]]
    assert not any(k.startswith("avg_") for k in pts), sorted(pts)
