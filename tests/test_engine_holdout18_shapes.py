"""A shape the reader missed on examples/libraries_holdout18 (issue 32), written as the library prints it and read by
the one engine, whole and in pieces: a solver's distortion (pymde's logger: ``Dec 06 08:09:10 AM: iteration 010 |
distortion 0.359679 | residual norm 0.00602697 | step length 1 | percent change 3.14328``) is minimised and the run's
objective when nothing is named a loss."""

from __future__ import annotations

from training_check.tools.objective import assign_roles

from .test_read_misses import whole_as_live


def test_a_distortion_is_the_objective(tmp_path):
    lines, d = [], 0.435
    for it in range(0, 120, 10):
        d = 0.33 + (d - 0.33) * 0.6
        lines.append(f"Dec 06 08:09:10 AM: iteration {it:03d} | distortion {d:.6f} | residual norm 0.00602697 | step "
                     f"length 1 | percent change 3.14328")
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "pymde.log")
    assert pts["distortion"][0] == list(range(0, 120, 10))
    assert assign_roles(list(pts))["distortion"].primary
