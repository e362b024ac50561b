"""Shapes the reader missed on examples/libraries_holdout29 (issue 32), written as the libraries print them and read by
the one engine, whole and in pieces:

- a table of an iterative trainer whose only quantity is a log-likelihood (nltk's ``MaxentClassifier.train(trace=3)``:
  ``Iteration    Log Likelihood    Accuracy`` over dashes, one row an iteration, a ``Final`` row last): the
  log-likelihood is the run's objective, higher is better (``roles._MAXIMISED``); ``neg log likelihood`` stays a loss;
- an optimiser's budget spent and its function value (ZOOpt's ``[zoopt] budget 20, fx result: 0.4787``): ``budget``
  named alone is the record's position (``Dialect.evaluation_counts``), ``fx`` (f(x)) the objective, minimised."""

from __future__ import annotations

import random

from training_check.tools.objective import assign_roles
from training_check.tools.roles import infer_role

from .test_read_misses import primary_names, whole_as_live


def _maxent(values: list[float]) -> str:
    head = "  ==> Training (30 iterations)\n\n      Iteration    Log Likelihood    Accuracy\n" \
           "      ---------------------------------------\n"
    rows = "".join(f"         {k:5d}          {v:.5f}        0.933\n" for k, v in enumerate(values[:-1], 1))
    return head + rows + f"         Final          {values[-1]:.5f}        0.933\n  -2.014 contains(pol1)==True\n"


def test_a_log_likelihood_table_is_the_objective_maximised(tmp_path):
    values, v = [], -1.09861
    for _ in range(30):
        values.append(round(v, 5))
        v += 0.12 * (0.85 ** len(values))
    pts = whole_as_live(tmp_path, _maxent(values).encode(), "maxent.log")
    assert pts["Log Likelihood"][1][:29] == values[:29], pts.keys()
    assert pts["Log Likelihood"][0][:29] == list(range(1, 30))
    role = assign_roles(list(pts))["Log Likelihood"]
    assert role.primary and role.direction == "max"


def test_a_negated_log_likelihood_stays_a_loss():
    assert infer_role("neg log likelihood").role == "train_loss"
    assert infer_role("negative log-likelihood").direction == "min"
    assert infer_role("log_likelihood").direction == "max" and infer_role("val log likelihood").role == "eval"


def test_a_budget_spent_and_fx_are_the_position_and_the_objective(tmp_path):
    rnd = random.Random(29)
    best, lines, truth = 0.4788, [], []
    for budget in range(20, 301, 20):
        lines.append(f"[zoopt] budget {budget}, fx result: {best!r}")
        lines.append(f"[zoopt] x: [{rnd.random()!r}, {rnd.random()!r}, {rnd.random()!r}]")
        truth.append((budget, best))
        best = best * (0.6 + 0.4 * rnd.random())
    lines.append(f"[zoopt] The best solution is:\n[zoopt] x: [0.1, 0.2]\n[zoopt] value: {best!r}")
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "zoopt.log")
    assert list(zip(*pts["fx result"], strict=True)) == truth, pts.keys()
    assert primary_names(pts) == ["fx result"]
