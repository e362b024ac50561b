"""A shape the reader missed on examples/libraries_holdout19 (issue 32), written as the library prints it and read by
the one engine, whole and in pieces: a search's best named with a qualifier (mealpy's logger: ``>>>Problem: P, Epoch:
3, Current best: 39.04, Global best: 39.04, Runtime: 0.0011 seconds``) is a metric and the run's objective (the
current population's best, named first), not a statistic in an aside (``(best 0.3)``, which stays skipped)."""

from __future__ import annotations

import random

from training_check.tools.objective import assign_roles

from .test_read_misses import whole_as_live


def test_a_qualified_best_is_the_searchs_objective(tmp_path):
    rnd = random.Random(19)
    cur, glob, lines = 81.5, 81.5, []
    for epoch in range(1, 31):
        cur = cur * (0.8 + 0.3 * rnd.random())
        glob = min(glob, cur)
        lines.append(f"2026/12/06 08:07:12 AM, INFO, mealpy.swarm_based.PSO.OriginalPSO: >>>Problem: P, "
                     f"Epoch: {epoch}, Current best: {cur!r}, Global best: {glob!r}, Runtime: 0.00077 seconds")
    lines.append("loss: 0.52 (best 0.41)")
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "mealpy.log")
    assert pts["Current best"][0] == list(range(1, 31))
    assert "best" not in pts
    assert assign_roles(list(pts))["Current best"].primary
