"""A combinatorial solver's incumbent, its best solution so far, at each new solution (fixsolv; examples/
libraries_holdout101's OR-Tools CP-SAT and SCIP runs; ``tools/parsers/incumbents.py``).

Two shapes of one notion, the run's objective the incumbent and its step the count of solutions found:
- a progress line naming its best so far (CP-SAT's ``#3  0.05s best:17283 next:[0,17282]  main (fixed_bools=0/870)``,
  among ``#Bound``/``#Model``/``#Done`` lines and statistics tables): ``best`` at the solution's count ``#N``;
- a table whose rows may open with a one-character marker (SCIP's display, its header of names between ``|`` repeated
  every 15 rows, ``r 0.0s|  1 | ...`` where ``r`` is the heuristic that found a new incumbent, ``*`` a node's integral
  LP): the incumbent column (``primalbound``) at each marked row, numbered by the count of marked rows; an unmarked
  row repeats the last incumbent, no point.
Generated variants (other names, numbers, widths, subsolvers, columns, restarts) read whole and appended in pieces;
the corpus files at their truth's steps, judged; the cases the rules must not catch."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from training_check.tools.frame import MetricFrame
from training_check.tools.objective import assign_objective
from training_check.tools.parsers.incumbents import incumbent_header, incumbent_row, progress_best
from training_check.tools.points import BatchBuilder

from tests.test_read_misses import (
    _live,
    assert_at_truth,
    corpus_runs,
    judged_in_pieces,
    points_at,
    primary_names,
    whole_and_pieces,
    whole_as_live,
)

SET = Path(__file__).resolve().parent.parent / "examples" / "libraries_holdout101"


# -- CP-SAT's progress lines -------------------------------------------------------------------------------------

def cpsat_log(n: int, seed: int, workers: tuple[str, ...] = ("main",), pad: int = 8, done: bool = True
              ) -> tuple[bytes, list[float]]:
    """A CP-SAT-like search log: its banner, model statistics (``#Variables: 870``), presolve lines, ``#Bound`` and
    ``#Model`` lines, ``n`` solution lines ``#k  t  best:v next:[lb,v-1]  worker (...)`` (``pad``: the ``#k`` cell's
    width), ``#Done``, the statistics tables and the response summary. The truth: ``best`` at each ``k``."""
    rng = random.Random(seed)
    nb = rng.choice([45, 600, 870, 1234])
    out = [f"Starting CP-SAT solver v9.{rng.randint(8, 15)}.{rng.randint(1000, 9999)}",
           f"Parameters: random_seed: {seed} log_search_progress: true num_workers: {len(workers)}", "",
           f"#Variables: {nb} (#bools: {nb} in objective) ({nb} primary variables)",
           f"  - {nb} Booleans in [0,1]", f"#kCircuit: {rng.randint(1, 3)}", "", "Starting presolve at 0.00s"]
    for name in ("DetectDominanceRelations", "PresolveToFixPoint", "Probe", "MergeClauses"):
        loops = rng.randint(1, 3)
        out.append(f"  {rng.uniform(1e-6, 1e-2):.2e}s  {rng.uniform(0, 1e-3):.2e}d  [{name}] #num_loops={loops}")
    ub = rng.randint(10_000, 500_000)
    lb = rng.randint(0, 50)
    out += ["", "Presolve summary:", "  - 0 affine relations were detected.", "",
            f"#Bound   0.01s best:inf   next:[{lb},{ub}] initial_domain", "",
            f"Starting search at 0.01s with {len(workers)} workers."]
    best = float(rng.randint(ub // 4, ub // 2))
    truth = []
    t = 0.02
    for k in range(1, n + 1):
        best -= rng.randint(1, max(2, int(best) // 40))
        truth.append(best)
        t += rng.uniform(0.0, 0.3)
        w = rng.choice(workers)
        cell = f"#{k}"
        out.append(f"{cell:<{pad}} {t:.2f}s best:{int(best):<5} next:[{lb},{int(best) - 1}]  {w} "
                   f"(fixed_bools={rng.randint(0, nb)}/{nb})")
        if rng.random() < 0.1:
            lb += 1
            out.append(f"#Bound {t:>6.2f}s best:{int(best):<5} next:[{lb},{int(best) - 1}]  {w}")
        if rng.random() < 0.05:
            out.append(f"#Model {t:>6.2f}s var:{nb - k}/{nb} constraints:{rng.randint(10, 99)}/99")
    if done:
        out.append(f"#Done {t + 0.01:>7.2f}s {workers[0]}")
    out += ["", "Task timing           n [     min,      max]      avg      dev     time",
            f"      '{workers[0]}':         1 [   3.60s,    3.60s]    3.60s   0.00ns    3.60s", "",
            "Search stats    Bools  Conflicts  Branches  Restarts",
            f"       '{workers[0]}':    {nb}     25'467   190'243       280", "",
            f"Solutions ({n})    Num    Rank", f"         '{workers[0]}':     {n}  [1,{n}]", "",
            "CpSolverResponse summary:", "status: OPTIMAL" if done else "status: FEASIBLE",
            f"objective: {int(best)}", f"best_bound: {lb}", ""]
    return "\n".join(out).encode(), truth


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n,workers,pad", [(8, ("main",), 8), (40, ("main",), 9), (65, ("default_lp", "fj"), 8),
                                           (25, ("quick_restarts", "core", "lb_tree_search"), 10)])
def test_a_progress_line_naming_its_best_is_the_objective_at_its_solution_count(tmp_path, seed, n, workers, pad):
    data, truth = cpsat_log(n, seed, workers, pad, done=seed % 2 == 0)
    got = whole_as_live(tmp_path, data, f"cp{seed}_{n}_{pad}")
    assert primary_names(got) == ["best"]
    assert points_at(got, "best") == list(enumerate(truth, start=1))


def test_a_progress_line_read_in_random_pieces(tmp_path):
    data, truth = cpsat_log(30, 7, ("main", "ls"), 8)
    got = whole_and_pieces(tmp_path, data, "cp_pieces", seed=3)
    assert points_at(got, "best") == list(enumerate(truth, start=1))


def test_best_is_no_metric_beside_a_loss_nor_without_a_position(tmp_path):
    lines = []
    for s in range(1, 13):
        lines.append(f"Epoch {s} loss: {1.0 / s:.4f} best: {1.0 / s:.4f}")  # a loss's statistic, beside it
        lines.append(f"best: {0.5 / s:.4f} so far")  # no position
    got = whole_as_live(tmp_path, "\n".join(lines).encode() + b"\n", "beside")
    assert "best" not in got
    assert primary_names(got) == ["loss"]
    lines = [f"'train_loss' reached {1.0 / s:.4f} (best {1.0 / s:.4f}), step {s}" for s in range(1, 12)]
    got = whole_as_live(tmp_path, "\n".join(lines).encode() + b"\n", "aside")
    assert "best" not in got


def test_the_progress_best_in_words():
    line = b"#3       0.05s best:17283 next:[0,17282]  main (fixed_bools=0/870)"
    at = line.index(b"17283")
    assert progress_best(line, at, "best", table=False)
    assert not progress_best(line, at, "best", table=True)  # a table's column is the table's (``Best``)
    assert not progress_best(line, at, "next", table=False)
    spaced = b"step 3 best 0.5"
    assert not progress_best(spaced, spaced.index(b"0.5"), "best", table=False)  # (not glued by ``:``/``=``)
    eq = b"iter 3 best= 0.5"
    assert progress_best(eq, eq.index(b"0.5"), "best", table=False)


# -- SCIP's display table ----------------------------------------------------------------------------------------

_COLUMNS = [("time", 5), ("node", 6), ("left", 6), ("LP iter", 7), ("LP it/n", 7), ("mem/heur", 8), ("mdpt", 5),
            ("vars", 5), ("cons", 5), ("rows", 5), ("cuts", 5), ("sepa", 4), ("confs", 5), ("strbr", 5)]
_HEURS = "rpiLdtsoz*"


def scip_log(n_rows: int, seed: int, every: int = 15, name: str = "primalbound", restarts: int = 1,
             maximise: bool = False, few_columns: bool = False, widen: int = 0) -> tuple[bytes, list[float]]:
    """A SCIP-like log: presolve text, then its display table (a header of names between ``|``, blank at its first
    byte, repeated every ``every`` rows), ``n_rows`` rows, about a third marked by a heuristic's letter (or ``*``) as a
    new incumbent, ``restarts`` restarts' presolve text between, the closing status. The incumbent column is ``name``
    (``primalbound``), after ``dualbound``; ``widen`` widens every column; ``few_columns``: a shorter table. The
    truth: the incumbent at each marked row."""
    rng = random.Random(seed)
    cols = _COLUMNS[:6] if few_columns else _COLUMNS
    widths = [w + widen for _n, w in cols]
    header = " " + "|".join(f"{n:^{w}}" for (n, _), w in zip(cols, widths, strict=True)) + "|" + \
        f"{'dualbound':^14}|{name:^14}|{'gap':^8}| compl. "
    sign = -1.0 if maximise else 1.0
    primal, dual = 5000.0 * (1 + seed), 1000.0
    found = False
    out = ["feasible solution found by trivial heuristic after 0.0 seconds, objective value 3.765000e+03",
           "presolving:", "(round 1, fast)       2 del vars, 0 del conss, 0 add conss, 0 chg bounds", "",
           "Presolving Time: 0.00", ""]
    truth: list[float] = []
    since = every
    restart_at = {rng.randint(n_rows // 3, 2 * n_rows // 3) for _ in range(restarts)} if n_rows > 6 else set()
    for r in range(n_rows):
        if r in restart_at:
            out += [f"(run {r}, node 1) restarting after 12 global fixings of integer variables", "",
                    "presolving:", "(round 1, fast)       12 del vars, 0 del conss, 0 add conss", "",
                    "transformed 59/67 original solutions to the transformed problem space", ""]
            since = every
        if since >= every:
            out.append(header)
            since = 0
        marked = not found or rng.random() < 0.35
        if marked:
            primal -= rng.uniform(1, max(2.0, (primal - dual) / 3))
            found = True
            truth.append(float(f"{sign * primal:.6e}"))
        dual += rng.uniform(0, (primal - dual) / 10)
        mark = rng.choice(_HEURS) if marked else " "
        cells = [f"{r * 0.1:.1f}s", str(1 + r // 5), str(r % 7), str(10 * r), "-" if r < 3 else f"{r / 3:.1f}",
                 rng.choice(["simplero", "rounding", "locks", "oneopt"]) if marked and mark != "*" else
                 f"{1000 + r}k", str(r % 4), "60", "5", str(5 + r % 9), str(r % 11), str(r % 3), "0", "0"][:len(cols)]
        row = mark + "|".join(f"{c:>{w - 1}} " if k else f"{c:>{w}}" for k, (c, w) in
                              enumerate(zip(cells, widths, strict=True)))
        gap = "Inf" if dual == 0 else f"{100 * (primal - dual) / dual:.2f}%"
        out.append(f"{row}| {sign * dual:.6e} | {sign * primal:.6e} | {gap:>6}| unknown")
        since += 1
    out += ["", "SCIP Status        : problem is solved [optimal solution found]", "Solving Time (sec) : 0.34",
            f"Primal Bound       : {sign * primal:+.14e} ({len(truth) * 3} solutions)",
            f"Dual Bound         : {sign * primal:+.14e}", "Gap                : 0.00 %", ""]
    return "\n".join(out).encode(), truth


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("n_rows,every,restarts,few,widen", [(12, 15, 0, False, 0), (40, 15, 1, False, 0),
                                                             (90, 10, 2, True, 2), (33, 15, 1, False, 3)])
def test_the_incumbent_at_each_marked_row_numbered_by_their_count(tmp_path, seed, n_rows, every, restarts, few,
                                                                   widen):
    data, truth = scip_log(n_rows, seed, every, restarts=restarts, few_columns=few, widen=widen)
    got = whole_as_live(tmp_path, data, f"scip{seed}_{n_rows}_{every}_{widen}")
    assert primary_names(got) == ["primalbound"]
    assert points_at(got, "primalbound") == list(enumerate(truth, start=1))


def test_an_incumbent_column_named_otherwise_read_in_random_pieces(tmp_path):
    data, truth = scip_log(60, 11, name="incumbent", restarts=2)
    got = whole_and_pieces(tmp_path, data, "inc_pieces", seed=5)
    assert points_at(got, "incumbent") == list(enumerate(truth, start=1))
    assert primary_names(got) == ["incumbent"]


def test_a_maximisations_incumbent_rises_and_is_judged_so(tmp_path):
    data, truth = scip_log(45, 2, maximise=True)
    got = whole_as_live(tmp_path, data, "max")
    assert points_at(got, "primalbound") == list(enumerate(truth, start=1))
    b = BatchBuilder()
    steps, values = got["primalbound"]
    b.extend("primalbound", np.asarray(steps, dtype=np.int64), np.asarray(values, dtype=np.float64))
    frame = MetricFrame.from_batch(b.build())
    assert frame.roles["primalbound"].primary and frame.roles["primalbound"].direction == "max"
    assert assign_objective(["primalbound", "dualbound"]).search.kind == "incumbent"


def test_rows_with_no_marker_give_no_incumbent_and_other_bar_tables_are_not_taken(tmp_path):
    data, _truth = scip_log(30, 4)
    unmarked = b"\n".join(
        (b" " + ln[1:]) if ln[:1] in _HEURS.encode() and b"|" in ln else ln for ln in data.split(b"\n"))
    got = whole_as_live(tmp_path, unmarked, "unmarked")
    assert "primalbound" not in got
    # a table between ``|`` naming no incumbent (PDLP's groups; a markdown table) is no solver's table of this shape
    assert incumbent_header(b" iter# kkt_pass   time | rel_prim_res rel_dual_res      rel_gap | prim_obj") is None
    assert incumbent_header(b"| epoch | loss | val_loss | primal |") is None  # (opens with ``|``: no marker's place)
    assert incumbent_header(b" time | node | primalbound | primalbound | gap") is None  # (one incumbent column)


def test_the_row_shape_in_words():
    head = b" time | node  | left  |LP iter|  dualbound   | primalbound  |  gap   | compl. "
    bars, cell = incumbent_header(head)
    assert cell == 5 and len(bars) == 7
    assert incumbent_row(b"r 0.0s|     1 |     0 |     9 | 1.236804e+03 | 1.431000e+03 |  15.70%| unknown", 7)[0]
    assert incumbent_row(b"* 1.2s|    40 |     3 |   199 | 1.236804e+03 | 1.431000e+03 |  15.70%| unknown", 7)[0]
    assert not incumbent_row(b"  0.0s|     1 |     0 |     9 | 1.236804e+03 | 1.431000e+03 |  15.70%| unknown", 7)[0]
    assert incumbent_row(b"rr0.0s|     1 |     0 |     9 | 1.236804e+03 | 1.431000e+03 |  15.70%| unknown", 7) is None
    assert incumbent_row(b"  0.0s|     1 |     0 | 1.236804e+03 | 1.431000e+03 |  15.70%| unknown", 7) is None
    assert incumbent_row(b"   abc|     1 |     0 |     9 | 1.236804e+03 | 1.431000e+03 |  15.70%| unknown", 7) is None


# -- the corpus --------------------------------------------------------------------------------------------------

_NAMES = {"ortools_cpsat_": "best", "scip_": "primalbound"}


@pytest.mark.parametrize("run", corpus_runs(SET, "ortools_cpsat_") + corpus_runs(SET, "scip_"))
def test_the_corpus_solvers_are_read_at_the_truths_steps(tmp_path, run):
    truth = json.loads((SET / run / "truth.json").read_text())
    name = next(v for k, v in _NAMES.items() if run.startswith(k))
    data = (SET / run / "train.log").read_bytes()
    got = _live(tmp_path, data, [], name=f"whole_{run}")
    live = _live(tmp_path, data, [int(c * len(data)) for c in (0.03, 0.2, 0.37, 0.55, 0.81)], name=f"live_{run}")
    # (the incumbent the same whole and in pieces; SCIP's presolve lines ``0 implications, 0 cliques, 0 implied
    # integral variables (...)``, a series of no step under ``(round N, ...)`` marks, are not: left as they were)
    assert primary_names(got) == primary_names(live) == [name]
    assert got[name] == live[name]
    assert_at_truth(dict(points_at(got, name)), truth, run)
    assert len(got[name][0]) == len(truth["train_loss"])  # (no point at an unmarked row, nor at a ``#Bound`` line)


def _verdict(tmp_path, data: bytes, name: str, cuts: tuple[float, ...] = ()) -> str:
    return judged_in_pieces(tmp_path, data, name, cuts)[0]


@pytest.mark.parametrize("run", corpus_runs(SET, "ortools_cpsat_") + corpus_runs(SET, "scip_"))
def test_the_corpus_solvers_are_healthy_runs(tmp_path, run):
    verdict = _verdict(tmp_path, (SET / run / "train.log").read_bytes(), run, cuts=(0.5, 0.75))
    assert verdict in ("CONTINUE", "WAIT"), (run, verdict)
    if len(json.loads((SET / run / "truth.json").read_text())["train_loss"]) >= 8:
        assert verdict == "CONTINUE", (run, verdict)
