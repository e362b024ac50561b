"""What examples/libraries_holdout43 showed (issue 32), its solvers' tables and a JVM optimizer's lines. A solver's
table printed with ``|`` between its cells and no border at the line's start (``It.  |Loss        |Relative loss|
Absolute loss`` over a rule, rows ``    0|1.908276e-01|0.000000e+00|0.000000e+00``, the header again every 20
iterations; a solver's ``It.  |Err         `` over rows ``   10|1.144058e-01|``): a border glued between two cells
parts them as a blank would; ``It.`` is the iteration (the step); ``Err``, the error a solver drives down, is the
objective when nothing else is named. An optimizer's ``Val and Grad Norm: 0.494965 (rel: 0.285) 0.0976562`` names
the objective's value first (``Dialect.aliases``: a library's phrase), its records numbered by their order."""

from __future__ import annotations

import math

from training_check.tools.objective import assign_roles
from training_check.tools.parsers.tables_text import parse_header

from .test_read_misses import primary_names, whole_as_live


def _solver_table(iters: int, kl: bool = False) -> tuple[str, list[float]]:
    """A conditional-gradient solver's verbose table as POT prints it: the header and its rule every 20 iterations,
    ``{:5d}|{:8e}|{:8e}|{:8e}``."""
    out, losses = [], []
    prev = None
    for it in range(iters):
        if it % 20 == 0:
            out.append("{:5s}|{:12s}|{:8s}|{:8s}".format("It.", "Loss", "Relative loss", "Absolute loss")
                       + "\n" + "-" * 48)
        loss = 0.09 + 0.16 * math.exp(-0.7 * it) - (0.1 if kl else 0.0)
        loss = float(f"{loss:8e}")
        rel = 0.0 if prev is None else abs(loss - prev) / abs(loss)
        ab = 0.0 if prev is None else abs(loss - prev)
        out.append(f"{it:5d}|{loss:8e}|{rel:8e}|{ab:8e}")
        losses.append(loss)
        prev = loss
    return "\n".join(out) + "\n", losses


def _sinkhorn(iters: int) -> tuple[str, list[int], list[float]]:
    """An entropic solver's error table, a row every 10 iterations, the header every 200: ``{:5d}|{:8e}|``."""
    out = ["/venv/lib/python3.11/site-packages/ot/bregman/_sinkhorn.py:666: UserWarning: Sinkhorn did not converge.",
           "  warnings.warn("]
    steps, errs = [], []
    for it in range(0, iters, 10):
        if it % 200 == 0:
            out.append("{:5s}|{:12s}".format("It.", "Err") + "\n" + "-" * 19)
        err = float(f"{0.19 * math.exp(-0.01 * it):8e}")
        out.append(f"{it:5d}|{err:8e}|")
        steps.append(it)
        errs.append(err)
    return "\n".join(out) + "\n", steps, errs


def test_a_header_of_names_between_borders_and_no_outer_border_is_a_table():
    cols = parse_header(b"It.  |Err         ")
    assert cols is not None and [n for n, _a, _b in cols] == ["It.", "Err"]
    cols = parse_header(b"It.  |Loss        |Relative loss|Absolute loss", b"-" * 48)
    assert cols is not None and [n for n, _a, _b in cols] == ["It.", "Loss", "Relative loss", "Absolute loss"]


def test_a_table_with_borders_glued_between_its_cells_is_read_at_its_iteration_column(tmp_path):
    text, losses = _solver_table(45)
    pts = whole_as_live(tmp_path, text.encode(), "cg.log")
    assert primary_names(pts) == ["Loss"], pts.keys()
    assert pts["Loss"] == (list(range(45)), losses)
    text, losses = _solver_table(12, kl=True)  # a loss below 0 (an entropic regulariser's)
    pts = whole_as_live(tmp_path, text.encode(), "kl.log")
    assert pts["Loss"] == (list(range(12)), losses)


def test_a_solvers_error_table_is_read_its_error_the_objective(tmp_path):
    text, steps, errs = _sinkhorn(400)
    pts = whole_as_live(tmp_path, text.encode(), "sinkhorn.log")
    assert primary_names(pts) == ["Err"], pts.keys()
    assert pts["Err"] == (steps, errs)


def test_an_error_named_alone_is_the_objective_but_not_beside_a_loss():
    assert [n for n, r in assign_roles(["Err"]).items() if r.primary] == ["Err"]
    assert [n for n, r in assign_roles(["loss", "err"]).items() if r.primary] == ["loss"]


def _jvm_optimizer(iters: int, kind: str = "LBFGS") -> tuple[str, list[float]]:
    """A JVM optimizer's log4j lines: a step size, then the objective's value, its relative change and the
    gradient's norm (``%.6g``), one pair an iteration, no iteration number."""
    out = ["26/12/06 18:53:16 WARN Utils: Your hostname, vm, resolves to a loopback address: 127.0.1.1",
           '26/12/06 18:53:37 INFO Instrumentation: [72fd6a73] {"regParam":0.01,"maxIter":20,"tol":1.0E-6}']
    vals = []
    prev = 0.69
    for it in range(iters):
        v = float(f"{0.45 + 0.2 * math.exp(-0.8 * it):.6g}")
        out.append(f"26/12/06 18:53:{38 + it // 4:02d} INFO {kind}: Step Size: 1.000")
        out.append(f"26/12/06 18:53:{38 + it // 4:02d} INFO {kind}: Val and Grad Norm: {v:.6g} "
                   f"(rel: {abs(prev - v) / v:.3g}) {0.1 * math.exp(-it):.6g}")
        vals.append(v)
        prev = v
    out.append(f"26/12/06 18:53:45 INFO {kind}: Converged because gradient converged")
    return "\n".join(out) + "\n", vals


def test_an_optimizers_value_and_gradient_norm_line_reads_the_value_as_the_objective(tmp_path):
    for kind in ("LBFGS", "OWLQN"):
        text, vals = _jvm_optimizer(12, kind)
        pts = whole_as_live(tmp_path, text.encode(), f"{kind}.log")
        (name,) = primary_names(pts)
        assert pts[name] == (list(range(1, 13)), vals), pts
