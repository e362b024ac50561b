"""Shapes the reader missed on examples/libraries_holdout28 (issue 32), written as the libraries print them and read by
the one engine, whole and in pieces:

- a position, then an unnamed value after an arrow (NiaPy's task logging ``INFO:niapy.task.Task:evals:38 =>
  48.024``, one line per improvement): the arrow separates the position from the record's objective as a colon does
  (``Iteration 3: 0.45``); ``evals`` alone (a count of function evaluations) is the position;
- a count of evaluations ended by a sentence's dot, then a one-element list (jMetalPy's ``[...] [jmetal] [INFO]
  Evaluations: 80. fitness: [38.2633]``): ``80.`` is the position, ``fitness`` named alone the record's objective
  (minimised) when the record names no loss;
- a redrawn bar whose words glue their numbers to an ellipsis (geneticalgorithm2's ``\\r||____ 8.0% GA is
  running...2 gen from 25...best value = 3.97``): ``N gen from M`` is the position, ``best value`` the value."""

from __future__ import annotations

import random

from .test_read_misses import primary_names, whole_as_live


def test_an_unnamed_value_after_an_arrow_is_the_objective_at_its_evaluations(tmp_path):
    rnd = random.Random(28)
    best, ev, lines, truth = 95.79, 1, [], []
    for _ in range(30):
        lines.append(f"INFO:niapy.task.Task:evals:{ev} => {best!r}")
        truth.append((ev, best))
        ev += rnd.randint(1, 40)
        best = best * (0.6 + 0.35 * rnd.random())
    lines.append(f"ParticleSwarmAlgorithm on Sphere: best fitness {best!r} after 600 evaluations, 29 iterations")
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "niapy.log")
    assert list(zip(*pts["objective"], strict=True)) == truth, pts.keys()
    assert primary_names(pts) == ["objective"]


def test_evals_within_a_longer_name_stays_no_position(tmp_path):
    """``f evals`` (a column), ``function evaluations: 60`` (a summary's count): no step of their own."""
    lines = [f"Iteration {k}: loss: {1.0 / k:.4f}, function evaluations: {3 * k}" for k in range(1, 15)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "fev.log")
    assert pts["loss"][0] == list(range(1, 15)), pts


def _jmetal(evals: list[int], values: list[float]) -> str:
    head = ("[2026-12-06 11:26:50,036] [jmetal.core.algorithm] [DEBUG] Creating initial set of solutions...\n"
            "[2026-12-06 11:26:50,037] [jmetal.core.algorithm] [DEBUG] Evaluating solutions...\n")
    body = "".join(f"[2026-12-06 11:26:50,{37 + k:03d}] [jmetal] [INFO] Evaluations: {e}. fitness: [{v!r}]\n"
                   for k, (e, v) in enumerate(zip(evals, values, strict=True)))
    tail = "Algorithm: Simulated Annealing\nProblem: Sphere\nSolution: [0.31, 0.13]\nFitness: 0.84\n"
    return head + body + tail


def test_fitness_in_a_list_at_evaluations_ended_by_a_dot_is_the_objective(tmp_path):
    rnd = random.Random(2)
    evals = list(range(40, 801, 40))
    values, v = [], 40.4
    for _ in evals:
        values.append(v)
        v = v * (0.7 + 0.3 * rnd.random())
    pts = whole_as_live(tmp_path, _jmetal(evals, values).encode(), "jmetal.log")
    assert list(zip(*pts["objective"], strict=True)) == list(zip(evals, values, strict=True)), pts.keys()
    assert primary_names(pts) == ["objective"]


def test_a_fitness_beside_a_loss_stays_what_it_is(tmp_path):
    lines = [f"step {k} loss: {1.0 / k:.4f} fitness: {0.1 * k:.3f}" for k in range(1, 15)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "fit.log")
    assert "objective" not in pts and primary_names(pts) == ["loss"], pts.keys()


def _ga_bar(gens: int, values: list[float]) -> str:
    """geneticalgorithm2's bar: redrawn with ``\\r`` every generation, its words glued to its numbers by an
    ellipsis; the truth: (gen, best value)."""
    out = ["Set: Average time of function evaluating (secs): 3.79e-06 (total = 0.00015)\n",
           f"Best score before optimization: {values[0]!r}\n"]
    for g in range(1, gens):
        pct = 100 * g / gens
        fill = int(20 * g / gens)
        out.append(f"\r{'|' * fill}{'_' * (20 - fill)} {pct:.1f}% GA is running...{g} gen from {gens}...best value = "
                   f"{values[g - 1]!r}")
    out.append("\r" + " " * 80 + "\n The best found solution:\n [0.1 0.2]\n\n Objective function:\n 0.86\n")
    return "".join(out)


def test_a_bars_gen_from_its_total_glued_by_an_ellipsis_is_the_step_of_its_best_value(tmp_path):
    rnd = random.Random(3)
    gens, v, values = 30, 24.46, []
    for _ in range(gens):
        values.append(v)
        if rnd.random() < 0.6:
            v = v * (0.5 + 0.4 * rnd.random())
    pts = whole_as_live(tmp_path, _ga_bar(gens, values).encode(), "ga.log")
    assert list(zip(*pts["best value"], strict=True)) == list(zip(range(1, gens), values, strict=False)), pts.keys()
    assert primary_names(pts) == ["best value"]


def test_a_count_of_things_from_a_number_is_no_counter(tmp_path):
    """``3 files from 10``: a count (the noun no step's), no position; ``Loading...`` then a word stays words."""
    lines = [f"step {k}: loss: {1.0 / k:.4f} ... {k} files from 10" for k in range(1, 11)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "files.log")
    assert pts["loss"][0] == list(range(1, 11)), pts
