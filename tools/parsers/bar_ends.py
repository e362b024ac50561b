"""A bar's last redraw of its epoch that names more than its batch redraws: the epoch's record.

deepdow's ``Run.launch`` draws a tqdm bar per epoch, ``Epoch 0:  44%|...| 7/16 [..., loss=0.00761]`` redrawn at
every batch (``loss`` the batches' running value), and at the epoch's end redraws it at its total with fields that
join the postfix only there: ``Epoch 0: 100%|...| 16/16 [..., loss=0.00719, test_loss=0.00515, train_loss=0.00526]``.
Those fields are the epoch's record, at the bar's epoch as printed (its description's ``Epoch N``): the template is
read as a record printing its own epoch (``Plan.epoch_done``, as ``bar_steps.epoch_done_bar``'s), its bare ``loss``
then a live view of it, and its split-named ``train_loss`` the run's train loss (``tools/roles.py``).

A candidate: a train bar with its epoch and a counter, every redraw of the read at its total, whose names strictly
hold those of an epoch bar drawn before it (earlier in the read, or in an earlier read: ``st["bar_names"]``); its
extra names. They are the epoch's end fields once a later epoch's bar is drawn below its total without them (the next
epoch's batches: the fields joined at the end only), and never while any bar draws one of them below its total
(Lightning keeps a ``val_loss`` in the next epoch's batch redraws: a postfix that grew, no record). Confirmed, the
names are pinned (``end_fields``) and the file read again from its start, so a read that ended at the first epoch's
end (its bar per batch, as before) and the whole read alike; one drawn below a total later is pinned
(``end_refuted``) and the file read again. Every memory has its cap.
"""

from __future__ import annotations

import numpy as np

from .fields import Plan

MAX_NAMES = 64  # name sets of epoch bars kept between reads
MAX_KEPT = 64  # candidates, bars drawn below their total, names pinned


def _epoch_bar(plan: Plan) -> bool:
    return plan.bar and plan.epoch is not None and plan.counter is not None and not plan.is_eval \
        and bool(plan.metrics)


def names_before(plans: list[tuple[Plan, np.ndarray]], st: dict) -> dict[int, list[frozenset[str]]]:
    """Per plan (by its place in ``plans``) of an epoch bar, the name sets of the epoch bars drawn before its first
    line: the earlier reads', then this read's; the read's own kept in ``st`` for the next."""
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
    (see the module's docstring): noted as evidence, true once its extra names are confirmed (pinned)."""
    if not _epoch_bar(plan):
        return False
    assert plan.counter is not None and plan.epoch is not None
    names = frozenset(plan.metrics.values())
    n, total, ep = got[plan.counter[0]], got[plan.counter[1]], got[plan.epoch]
    if not len(n):
        return False
    below = n < total
    if below.any():  # evidence: names drawn below a total, up to which epoch
        drawn = st.setdefault("end_below", {})
        key = ",".join(sorted(names))[:512]
        last = float(np.nanmax(ep[below])) if not np.isnan(ep[below]).all() else -1.0
        if key in drawn or len(drawn) < MAX_KEPT:
            drawn[key] = max(last, drawn.get(key, -1.0))
        return False
    extra = [x for other in before if other < names for x in sorted(names - other)]
    if not extra or np.isnan(ep).all():
        return False
    extra = sorted(set(extra))
    cands = st.setdefault("end_cands", {})
    key = ",".join(extra)[:512]
    if key in cands or len(cands) < MAX_KEPT:
        cands[key] = min(float(np.nanmin(ep)), cands.get(key, np.inf))
    fields, refuted = set(st.get("end_fields", ())), set(st.get("end_refuted", ()))
    return set(extra) <= fields and not set(extra) & refuted


def settle(st: dict) -> None:
    """After a read's plans: candidates confirmed (a later epoch's bar below its total without their names) pinned
    ``end_fields``, confirmed names drawn below a total pinned ``end_refuted``; either reads the file again from its
    start (``engine._revise``), as one read of the whole would have it."""
    cands, drawn = st.get("end_cands") or {}, st.get("end_below") or {}
    if not cands or not drawn:
        return
    below = [(set(k.split(",")), e) for k, e in drawn.items()]
    fields, refuted = set(st.get("end_fields", ())), set(st.get("end_refuted", ()))
    add_f, add_r = set(), set()
    for key, e0 in cands.items():
        extra = set(key.split(","))
        if any(names & extra for names, _e in below):
            add_r |= extra & fields
            continue
        if not extra <= fields and any(e > e0 for _names, e in below):
            add_f |= extra
    revise = st.setdefault("revise", {})
    if add_f - fields and len(fields | add_f) <= MAX_KEPT:
        st["end_fields"] = sorted(fields | add_f)
        revise["end_fields"] = st["end_fields"]
    if add_r - refuted and len(refuted | add_r) <= MAX_KEPT:
        st["end_refuted"] = sorted(refuted | add_r)
        revise["end_refuted"] = st["end_refuted"]
    if not revise:
        st.pop("revise")
