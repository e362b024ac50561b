"""A bar's last redraw of its epoch that names more than its batch redraws: the epoch's record.

deepdow's ``Run.launch`` draws a tqdm bar per epoch, ``Epoch 0:  44%|...| 7/16 [..., loss=0.00761]`` redrawn at
every batch (``loss`` the batches' running value), and at the epoch's end redraws it at its total with fields that
join the postfix only there: ``Epoch 0: 100%|...| 16/16 [..., loss=0.00719, test_loss=0.00515, train_loss=0.00526]``.
Those fields are the epoch's record, at the bar's epoch as printed (its description's ``Epoch N``): the template is
read as a record printing its own epoch (``Plan.epoch_done``, as ``bar_steps.epoch_done_bar``'s), its bare ``loss``
then a live view of it, and its split-named ``train_loss`` the run's train loss (``tools/roles.py``).

Decided per template, the same whole and in pieces: a train bar with its epoch and a counter, every redraw of the
read at its total, whose names strictly hold those of a bar template with an epoch and a counter drawn before it
(earlier in the read, or in an earlier read: ``st["bar_names"]``, at most ``MAX_NAMES`` sets). A bar whose extra
names are drawn later below its total (Lightning keeps a ``val_loss`` in the next epoch's batch redraws) is no
epoch's record: the names are pinned (``end_refuted``) and the file read again from its start knowing it.
"""

from __future__ import annotations

import numpy as np

from .fields import Plan

MAX_NAMES = 64  # name sets of epoch bars kept between reads
MAX_REFUTED = 64  # names pinned as drawn below a bar's total


def _epoch_bar(plan: Plan) -> bool:
    return plan.bar and plan.epoch is not None and plan.counter is not None and not plan.is_eval \
        and bool(plan.metrics)


def names_before(plans: list[tuple[Plan, np.ndarray]], st: dict) -> dict[int, list[frozenset[str]]]:
    """Per plan (by its place in ``plans``) of an epoch bar, the name sets of the epoch bars drawn before its first
    line: this read's, then the earlier reads'; the read's own kept in ``st`` for the next."""
    kept = [frozenset(s) for s in st.get("bar_names", ())]
    bars = [(int(idx[0]), frozenset(p.metrics.values()), k) for k, (p, idx) in enumerate(plans)
            if len(idx) and _epoch_bar(p)]
    out: dict[int, list[frozenset[str]]] = {}
    for first, _names, k in bars:
        out[k] = kept + [m for f, m, _ in bars if f < first]
    known = st.setdefault("bar_names", [])
    for _f, names, _k in sorted(bars, key=lambda b: b[0]):
        if sorted(names) not in known and len(known) < MAX_NAMES:
            known.append(sorted(names))
    return out


def epoch_end_bar(plan: Plan, got: dict[int, np.ndarray], before: list[frozenset[str]], st: dict) -> bool:
    """Whether the plan's lines are its bar's last redraws of each epoch naming more than the bar's batch redraws
    (see the module's docstring)."""
    if not _epoch_bar(plan) or not before:
        return False
    assert plan.counter is not None
    names = frozenset(plan.metrics.values())
    refuted = set(st.get("end_refuted", ()))
    n, total = got[plan.counter[0]], got[plan.counter[1]]
    if not len(n) or not bool((n >= total).all()):
        return False
    for other in before:
        extra = names - other
        if other < names and not extra & refuted:
            ruled = st.setdefault("end_names", [])
            for x in sorted(extra):
                if x not in ruled and len(ruled) < MAX_REFUTED:
                    ruled.append(x)
            return True
    return False


def refute(reads: list, st: dict) -> None:
    """Names ruled an epoch's end that a bar of this read draws below its total: pinned (``end_refuted``) and the
    file read again from its start (``engine._revise``), as one read of the whole would have it."""
    ruled = set(st.get("end_names", ()))
    if not ruled:
        return
    refuted = set(st.get("end_refuted", ()))
    for plan, _idx, got, _bad in reads:
        if not _epoch_bar(plan):
            continue
        assert plan.counter is not None
        n, total = got[plan.counter[0]], got[plan.counter[1]]
        if not bool((n < total).any()):
            continue
        hit = (set(plan.metrics.values()) & ruled) - refuted
        if hit and len(refuted) < MAX_REFUTED:
            refuted |= hit
    if refuted != set(st.get("end_refuted", ())):
        st["end_refuted"] = sorted(refuted)
        revise = st.setdefault("revise", {})
        revise["end_refuted"] = sorted(refuted | set(revise.get("end_refuted", ())))
