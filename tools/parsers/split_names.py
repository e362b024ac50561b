"""A record naming the training split in front of a series' name is a point of that series.

A log whose records name their split apart (jinns' ``[train] Iteration 50: loss value = 0.93`` beside
``[validation] Iteration 50: ...``: the series ``loss value``) may print a record naming the split in the name
itself (its last: ``Final iteration 521: train loss value = 0.0123``): the same quantity at its own step, a point of
the series, not a series of its own. Folded where the series without the word was read before it (in line order:
an earlier read, or an earlier line of this one), so the same bytes read the same whole and in pieces. The words
are data: ``Dialect.split_rows``' names of the training split (prefix ``""``)."""

from __future__ import annotations

import numpy as np

from .dialect import DIALECT

_TRAIN_WORDS = tuple(sorted(w + " " for w, p in DIALECT.split_rows.items() if p == ""))


def fold_train_words(per_key: dict[str, list], names: list[str]) -> None:
    """Move the points of each name ``<train word> X`` of ``per_key`` (parts of ``(lines, steps, values, source)``)
    to ``X``'s where ``X`` was read before them (``names``: the names earlier reads gave; or ``X``'s first line in
    this read comes first). In place."""
    for key in [k for k in per_key if k.lower().startswith(_TRAIN_WORDS) and k not in names]:
        base = key.split(" ", 1)[1]  # (a name given unfolded by an earlier read stays a series of its own)
        parts = per_key[key]
        if not base or base not in names and (base not in per_key or _first(per_key[base]) > _first(parts)):
            continue
        per_key.setdefault(base, []).extend(parts)
        del per_key[key]


def _first(parts: list) -> int:
    """The first line of a name's parts."""
    return min((int(np.min(p[0])) for p in parts if len(p[0])), default=1 << 62)
