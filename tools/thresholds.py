"""A sampler's acceptance threshold as the run's objective (issue 32, fixabc).

A likelihood-free sampler (ABC-SMC: pyabc's ``ABC INFO: t: 3, eps: 2.56164447e-01.``, examples/libraries_holdout99)
logs no loss: each generation (population) ``t`` accepts the simulations whose distance to the data is under a
threshold ``eps``, then sets the next threshold from the accepted distances (a quantile). The threshold is what
the run drives down: it falls as the populations close in on the posterior, stalls when they cannot, and a run
whose threshold climbs is one whose distances grew. Named so (``Dialect.threshold_names``: ``eps``, ``epsilon``)
in a run that logs no value with a direction (no loss, no accuracy, no evaluation, no RL return: an RL run's
exploration ``eps`` falls by its schedule, whatever the run does), it is the run's objective, minimised. The
numbers beside it are no objective: the acceptance count (``Accepted: 100 / 205 = 4.88e-01``), the effective
sample size (``ESS``), the timings.

A record opening with a whole number under a one-word name (``t: 3``) before such a threshold is at that
position while its values climb (``fields.plan_template``'s opener, as before a loss), and read only then
(``engine._threshold_opener``): a setting's ``eps`` in a model's printed layers (``(1): BatchNorm1d(32, eps=1e-05,
momentum=0.1)``) under an index that goes back is nothing.
"""

from __future__ import annotations

from .parsers.dialect import DIALECT
from .roles import MetricRole, is_rl_return, norm_name


def is_threshold(name: str) -> bool:
    """Whether ``name`` names a sampler's acceptance threshold (``Dialect.threshold_names``), as printed or
    normalised (``ABC eps``, ``Epsilon``)."""
    low = name.strip().lower()
    return low in DIALECT.threshold_names or norm_name(name) in DIALECT.threshold_names


def threshold_objective(names: list[str], roles: dict[str, MetricRole]) -> str | None:
    """The first acceptance threshold named alone (``is_threshold``, no role by its name) when no other metric has a
    direction and no RL return is logged; else None."""
    found = [n for n in names if roles[n].role == "other" and is_threshold(n)]
    if not found:
        return None
    if any(roles[n].direction is not None for n in names if n not in found) or any(is_rl_return(n) for n in names):
        return None
    return found[0]
