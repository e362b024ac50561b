"""A search's evaluations: a table whose step column counts a search's evaluations or trials (NOMAD's ``BBE OBJ``,
``nfev``, ``trial``: ``Dialect.evaluation_columns``) prints at each row one evaluation's value, a draw from the space
the search explores, not a training curve's point. The reader marks the metrics of such rows (kept in the read's
state, so every read of the file says it whatever its size) and says them in the run's config under
``EVALUATIONS``; the judge takes such an objective's running best as the run's progress (``signals/search_evals``).
"""

from __future__ import annotations

from collections.abc import Iterable

from .base import Emitter

EVALUATIONS = "search_evaluations"  # the run's config key: the metrics a search's evaluations (a sorted list)
MAX_MARKED = 16  # metrics marked at most (a hostile table's header of many columns)


def mark_evaluations(st: dict, em: Emitter, names: Iterable[str]) -> None:
    """Mark ``names`` (a table's metrics whose rows sit at a search's evaluation counter) in the read's state ``st``
    and in ``em``'s config."""
    kept: list[str] = st.setdefault("evaluations", [])
    for n in names:
        if n and n not in kept and len(kept) < MAX_MARKED:
            kept.append(str(n))
    say_evaluations(st, em)


def say_evaluations(st: dict, em: Emitter) -> None:
    """The marks kept in the state ``st``, said in ``em``'s config (each read says them anew)."""
    kept = st.get("evaluations")
    if kept:
        em.config[EVALUATIONS] = sorted(kept)
