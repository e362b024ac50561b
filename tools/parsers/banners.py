"""Records under banners: a line that only names what the records after it are (an epoch, a split, a table of splits).

The engine (``engine._read_block``, ``engine._emit``) hands these its block's lines and reads (``reads.Read``):

- a banner naming an evaluation's split, whatever its punctuation (``--- Eval epoch-0, step-8 ---``,
  ``=== Validation ===``), after a logger's preamble (``preamble_end``): the records under it are the eval's
  (``split_banners``, ``eval_banner_marks``, carried across reads by ``carry_eval_banners``, ``under_eval_banners``);
  a bare ``name: value`` line as one of such a banner's records (``bare_named``);
- an epoch banner on its own line (``Epoch 2/5``) and the counters and records under it (``counters_under_banners``,
  ``records_under_banners``, ``one_under_each``, ``banner_epochs``, ``past_banners``), an epoch in parts
  (``epoch_parts``), an eval counted by a shorter counter (``shorter_counts_eval``);
- the first table of splits under a banner (``first_table``).

Bounded like the engine: every memory kept between reads has its cap below.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from .dialect import DIALECT
from .fields import _LEVELS, MAX_PREAMBLE_BYTES, Plan, plan_template, stamp_end
from .fields import ungrouped_stamp as _ungrouped_stamp
from .reads import PENDING_LINE, Read, ffill, has_position, name_role, series_key
from .templates import NAN_MARK, Grouping


def epoch_parts(plan: Plan, got: dict[int, np.ndarray], st: dict) -> None:
    """An epoch banner naming the parts the epoch is worked through in, after its epoch (PyTorch-BigGraph's
    ``Starting epoch 3 / 8, edge path 1 / 1, edge chunk 2 / 3``: each epoch goes over each edge path's chunks in turn):
    each banner opens one part of the run, the counters read as the digits of one count, outermost first. Its epoch
    becomes that part's number, ((e - first) x P + p - p0) x C + c - c0 + first, and its count the run's parts,
    E x P x C: a counter under it (``bucket 2 / 4``) restarts at each part, its global step (part - first) x N + n
    (``bar_steps.progress_steps``). A part counts from 0 or from 1 as it does on the log's first such banner (kept in
    ``st``, with the epoch's first: ``e0``)."""
    assert plan.epoch is not None and plan.epoch_total is not None
    e = got[plan.epoch]
    if st["e0"] is None and len(e) and not np.isnan(e[0]):
        st["e0"] = 0.0 if float(e[0]) == 0 else 1.0
    e0 = 1.0 if st["e0"] is None else float(st["e0"])
    base = st.get("pt_base")
    if base is None or len(base) != len(plan.parts):
        base = st["pt_base"] = [0.0 if len(e) and float(got[n][0]) == 0 else 1.0 for n, _t in plan.parts]
    at, of = e - e0, got[plan.epoch_total]
    for (n, t), b in zip(plan.parts, base, strict=True):
        inside = (got[n] >= b) & (got[n] < got[t] + b)  # (a part beyond its count: no place in the run)
        at = np.where(inside, at * got[t] + got[n] - b, np.nan)
        of = of * got[t]
    got[plan.epoch], got[plan.epoch_total] = at + e0, of


def _is_banner(plan: Plan) -> bool:
    """An epoch banner on its own line (``Epoch 1/5``): an epoch and its count, no metric."""
    return plan.epoch is not None and plan.epoch_total is not None and not plan.metrics


def counters_under_banners(plans: list[tuple[Plan, np.ndarray]], st: dict) -> list[tuple[Plan, np.ndarray]]:
    """Under epoch banners printed on their own line, a named step ``n/N`` with no epoch of its own (``step 10/20 -
    loss: ...`` after ``Epoch 2/5``) is a counter within the epoch, as it is when the epoch is on its line: its global
    step is (epoch - first epoch) x N + n, unless it climbs on across epochs (then it is the global step already)."""
    if st.get("banner_epoch") is None and not any(_is_banner(p) for p, _ in plans):
        return plans
    return [(replace(p, counter=(p.step, p.step_total), step=None, step_total=None, under_banner=True)
             if p.step is not None and p.step_total is not None and p.epoch is None and p.counter is None else p, idx)
            for p, idx in plans]


def shorter_counts_eval(reads: list[Read], prog_total: np.ndarray, st: dict) -> tuple[list[Read], np.ndarray]:
    """The records of a counter under epoch banners whose counter counts a shorter set than the run's main counter
    (``step 5/5`` between ``step 20/20`` and ``Epoch 2/5``: an evaluation over its own batches) are that evaluation's;
    and their lines (no progress of the run)."""
    own = [idx for p, idx, _g, _b in reads if p.under_banner and p.metrics and not p.is_eval]
    if not own or np.isnan(prog_total[np.concatenate(own)]).all():
        return reads, np.zeros(0, dtype=np.int64)
    main = max(float(np.nanmax(prog_total[np.concatenate(own)])), st["main_total"] or 0.0)
    out: list[Read] = []
    short_at: list[np.ndarray] = []
    for plan, idx, got, bad in reads:
        short = prog_total[idx] < main if plan.under_banner and plan.metrics and not plan.is_eval else None
        if short is None or not short.any():
            out.append((plan, idx, got, bad))
            continue
        short_at.append(idx[short])
        for part, pl in ((~short, plan), (short, replace(plan, is_eval=True))):
            if part.any():
                out.append((pl, idx[part], {c: v[part] for c, v in got.items()}, {c: v[part] for c, v in bad.items()}))
    return out, np.concatenate(short_at) if short_at else np.zeros(0, dtype=np.int64)


def _sets_only(plan: Plan) -> bool:
    """A banner printing its epoch and a setting only (``Epoch 3/20  lr: 0.004901``): it heads the records after it."""
    return bool(plan.metrics) and plan.position is None and all(name_role(m) == "lr" for m in plan.metrics.values())


def has_no_position(plan: Plan) -> bool:
    return plan.step is None and plan.counter is None and plan.epoch is None


MAX_UNDER_KEYS = 256  # templates whose last banner ``one_under_each`` keeps


def one_under_each(reads: list[Read], train: list[int], steps_of: list[np.ndarray], under: np.ndarray,
                    after: np.ndarray | None, st: dict) -> set[str]:
    """The templates (``Plan.template``) whose records with no position sit one under each banner (``under``: the
    banner each line is under), in line order over the reads so far: two under one banner, in this read or across its
    start (the banner the read before ended under), and the template's records are never placed by its banners (kept
    in ``st``; pinned and the file read again when an earlier read placed some, so a read of any size decides as one
    read of the whole does)."""
    at: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    for r in train:
        plan, idx, _got, _bad = reads[r]
        if not len(idx) or not has_no_position(plan) or plan.bar:
            continue
        steps = steps_of[r] if after is None else np.where(np.isnan(steps_of[r]), after[idx], steps_of[r])
        u = under[idx]
        has = np.isnan(steps) & ~np.isnan(u)
        if has.any():
            at.setdefault(plan.template or series_key(plan), []).append((idx[has], u[has]))
    many = list(st.get("ub_many") or [])
    last = st.setdefault("ub_last", {})
    out: set[str] = set()
    for key, parts in at.items():
        if key in many:
            continue
        li = np.concatenate([p[0] for p in parts])
        u = np.concatenate([p[1] for p in parts])[np.argsort(li, kind="stable")]
        if bool((np.diff(u) == 0).any()) or last.get(key) == float(u[0]):
            if len(many) < MAX_UNDER_KEYS:
                many.append(key)
                if key in last:  # an earlier read placed them at their banners: read again knowing it
                    st["revise"] = {**(st.get("revise") or {}), "ub_many": list(many)}
            continue
        out.add(key)
        if key in last or len(last) < MAX_UNDER_KEYS:
            last[key] = float(u[-1])
    if many:
        st["ub_many"] = many
    return out


def records_under_banners(reads: list[Read], n: int, first: int, st: dict,
                           carried_prog: np.ndarray) -> np.ndarray | None:
    """The epoch of the banner each line sits under when only lines of records with no position of their own came
    between (an epoch banner on its own line with no epoch count, ``Epoch 3 ended.``; any other record, a bar, ends
    it), NaN elsewhere; None when the block has no banner and none is carried. An epoch that goes back (a new
    experience, task or stage counting its epochs again) continues after the last one (kept in ``st``); a banner
    with the run's epoch count (``Epoch 1/15``) starting again is a new run (``banner_epochs``). The lines
    before ``first`` were carried from the read before: each under the banner it was under there; a banner carried
    so (``carried_prog``: the progress step each carried line was printed at) that a bar moved past in that read has
    ended there."""
    mark = np.full(n, np.nan)
    have = False
    rec = np.zeros(n, dtype=bool)  # the lines of records with no position of their own
    trained = np.zeros(n, dtype=bool)  # those of them measuring the training (``_measures_training``)
    bars: list[np.ndarray] = []
    braw = np.full(n, np.nan)  # the epoch each banner prints (one carried here and ended by a bar too)
    absolute = np.zeros(n, dtype=bool)  # a banner printing the step: where it goes back it is no new phase
    counted = np.zeros(n, dtype=bool)  # a banner counting the run's epochs (``Epoch 3/20``): it opens its epoch
    for plan, idx, got, _bad in reads:
        step_banner = (plan.step is not None and plan.epoch is None and not plan.metrics
                       and plan.counter is None and plan.position is None)  # (``Iteration No: 7 started.``; with
        # the run's length, ``Learning iteration 3/30`` over a block of ``name: value`` rows: the step as printed)
        if (plan.epoch is not None and (plan.epoch_total is None and not plan.metrics or _sets_only(plan))
                and plan.step is None and plan.counter is None) or step_banner:
            at_col = plan.step if step_banner else plan.epoch
            assert at_col is not None
            v = got[at_col]
            if step_banner:
                absolute[idx] = True
            braw[idx] = v
            if (plan.step_total if step_banner else plan.epoch_total) is not None:
                counted[idx] = True  # (a banner counting the run's length opens its epoch or step: never closes one)
            if st.get("prog_before") is not None and first and (idx < first).any():
                # a banner carried from an earlier read, after which a progress bar moved there: it has ended
                cp = carried_prog[np.minimum(idx, first - 1)]
                moved = (idx < first) & (np.isnan(cp) | (cp < float(st["prog_before"])))
                v = np.where(moved, np.inf, v)
            mark[idx] = v
            have = have or bool(np.isfinite(v).any())
        elif plan.bar and plan.epoch is None and plan.step is None:
            bars.append(idx[idx >= first])  # a bar of the epoch: ends the banner's record, unless the banner closes
        elif not (plan.metrics and has_no_position(plan) and not plan.bar and not plan.is_eval):
            mark[idx[idx >= first]] = np.inf  # another record: the banner's record has ended
        else:
            rec[idx] = True
            if _measures_training(plan):
                trained[idx] = True
    carried = st.get("ub_carried") or []
    st["_ub_lines"] = None
    lead = None  # the first banner of the log, when in this read
    if not np.isnan(braw).all() and not st.get("ub_seen"):
        st["ub_seen"] = True
        at0 = int(np.flatnonzero(~np.isnan(braw))[0])
        if st.get("ub_close") is None:  # decided at the log's first banner: records before it (FuxiCTR's ``Train
            # loss: ...`` then ``Epoch=1 end``): each banner closes its epoch (numbering the first epoch: a later
            # one first seen so is a start banner whose first was a one-off)
            st["ub_close"] = (bool(trained[:at0].any()) or bool(st.get("ub_rec_seen"))) and float(
                braw[at0]) <= 1 and not counted[at0]
            if st["ub_close"] and st.get("ub_rec_seen"):  # an earlier read placed them otherwise: read again
                st["revise"] = {**(st.get("revise") or {}), "ub_close": True}  # knowing it
        if st["ub_close"] and np.isfinite(mark[at0]):
            lead = at0
    elif not st.get("ub_seen") and trained.any():
        st["ub_rec_seen"] = True
    # a table of splits (``Plan.split_table``) is its epoch's report: the bars the epoch's passes drew before it end
    # no banner's record for it (``ub_t``: the banner it is under, kept apart while it differs from ``ub``)
    tabled = np.zeros(n, dtype=bool)
    for plan, idx, _got, _bad in reads:
        if plan.split_table or plan.epoch_report:
            tabled[idx] = True
    tabled[[i for i in st.pop("_split_once", ()) if 0 <= i < n]] = True  # (one-off rows carried to the next read)
    ub, ub_t = st.get("ub"), st.get("ub_t", st.get("ub"))
    if not have and ub is None and ub_t is None:
        return None
    mark_t = mark.copy()
    if not st.get("ub_close"):  # (a closing banner's epoch holds its bars: FuxiCTR's per-epoch tqdm bar)
        for b_idx in bars:
            mark[b_idx] = np.inf
    at = np.flatnonzero(np.isfinite(mark) & ~absolute)
    if len(at):
        b = mark[at]
        prev = np.concatenate(([st.get("ub_raw", -np.inf)], b[:-1]))
        # (neither a banner counting the run's epochs nor, under such banners, a line carried from the read before,
        # printed before what that read read: going back)
        back = (b < prev) & ~counted[at] & ((at >= first) | (not counted.any() and not st.get("ub_counted")))
        off = float(st.get("ub_off", 0.0)) + np.cumsum(np.where(back, prev - b + 1, 0.0))
        st["ub_raw"], st["ub_off"] = float(b[-1]), float(off[-1])
        mark[at] = b + off
        mark_t[at] = mark[at]
    if counted.any():
        st["ub_counted"] = True
    outs = []
    for mk, start in ((mark, ub), (mark_t, ub_t)):
        out = ffill(mk, np.nan if start is None else start)
        if st.get("ub_counted") and 0 < first < n:  # (banners counting the run's epochs: the lines carried from the
            # read before were printed before where it ended; its own lines are under the banner it ended under)
            out[first:] = ffill(mk[first:], np.nan if start is None else start)
        outs.append(out)
    out, out_t = outs
    st["ub"] = None if np.isinf(out[-1]) or np.isnan(out[-1]) else float(out[-1])
    last_t = None if np.isinf(out_t[-1]) or np.isnan(out_t[-1]) else float(out_t[-1])
    if last_t != st["ub"]:
        st["ub_t"] = last_t
    else:
        st.pop("ub_t", None)
    out = np.where(tabled, out_t, out)
    if len(carried) == first:
        was = np.array([np.nan if u is None else u for u in carried], dtype=float)
        out[:first] = np.where(np.isnan(mark[:first]), was, out[:first])
    out[np.isinf(out)] = np.nan
    st["_ub_lines"] = out  # (for the lines carried on to the next read; taken out of the state by the block's read)
    if st.get("ub_close"):  # a banner closing its epoch: the records after it are the next epoch's, those before
        out = out + 1  # the log's first banner its own
        if lead is not None:
            out[:lead] = np.where(rec[:lead], mark[lead], out[:lead])
    return out


def _measures_training(plan: Plan) -> bool:
    """A record measuring the training (a metric of a role but a speed's: a loss, an evaluation's, a learning rate;
    ``reads.name_role``), not a side task's report (a checkpoint writer's ``Time taken: 0.05s (commit=0.04s, ...)``,
    its I/O rates, timings, sizes): only such a record before the log's first banner says the banner closes the
    record before it (a checkpoint saved before the first step, its timings logged, says nothing of where the banner
    stands)."""
    return any(name_role(n) not in _SIDE_ROLES for n in plan.metrics.values())


_SIDE_ROLES = frozenset({"other", "throughput"})


MAX_TABLE_NAMES = 256  # names of a table of splits remembered at the banner the last read ended under


def first_table(reads: list[Read], steps_of: list[np.ndarray], tabled: list[tuple[int, np.ndarray]],
                 st: dict) -> None:
    """A table of splits is its epoch's report: the first one under a banner gives the epoch's points. A name it
    gives again under the same banner, in a table printed later (hippynn tests the best model after training,
    ``train  valid  test`` under the last epoch's banner), is no point of that epoch (its value is another model's);
    a name new there (``test_Loss``) is. Across reads: the names placed at the banner the last read ended under
    (``tb_at``, ``tb_names``)."""
    at: dict[str, list[tuple[np.ndarray, np.ndarray, int, int]]] = {}  # name -> (lines, epochs, read, field)
    for r, has in tabled:
        plan, idx, _got, _bad = reads[r]
        for f, name in plan.metrics.items():
            at.setdefault(name, []).append((idx[has], steps_of[r][has], r, f))
    last = st.get("tb_at")
    before = set(st.get("tb_names") or ()) if last is not None else set()
    end_at: float | None = None
    end_names: list[str] = []
    for name, parts in at.items():
        li = np.concatenate([p[0] for p in parts])
        ep = np.concatenate([p[1] for p in parts])
        o = np.argsort(li, kind="stable")
        ep_o = ep[o]
        first = np.zeros(len(li), dtype=bool)
        first[np.unique(ep_o, return_index=True)[1]] = True  # the first line at each epoch
        if name in before:
            first &= ep_o != last  # (placed at it by a read before)
        keep = np.empty(len(li), dtype=bool)
        keep[o] = first
        if not keep.all():
            k = 0
            for lines_p, _ep, r, f in parts:
                drop_p = ~keep[k:k + len(lines_p)]
                k += len(lines_p)
                if drop_p.any():
                    plan, idx, got, bad = reads[r]
                    mask = np.zeros(len(idx), dtype=bool)
                    mask[np.flatnonzero(np.isin(idx, lines_p[drop_p]))] = True
                    bad = dict(bad)
                    bad[f] = bad[f] | mask if f in bad else mask
                    reads[r] = (plan, idx, got, bad)
        top = float(ep_o[-1])
        if end_at is None or top > end_at:
            end_at, end_names = top, []
        if top == end_at:
            end_names.append(name)
    if end_at is not None:
        if end_at == last:
            end_names = sorted(before | set(end_names))
        st["tb_at"], st["tb_names"] = end_at, sorted(end_names)[:MAX_TABLE_NAMES]


def past_banners(v: np.ndarray, idx: np.ndarray, first: int, now: float | None) -> np.ndarray:
    """The epochs banners at ``idx`` set, but NaN for a banner carried from the read before (``idx < first``: seen
    once there, read now that its template recurs) whose epoch is behind the one that read ended under (``now``):
    printed before the banners that read went on under (PyTorch-BigGraph's ``Finished epoch 1 / 5, ...`` after its
    epoch's records, then ``Starting epoch 2 / 5, ...``), it starts no epoch for the lines after it."""
    if now is None or not first or not (idx < first).any():
        return v
    return np.where((idx < first) & (v < now), np.nan, v)


def banner_epochs(reads: list[Read], n: int, st: dict, first: int = 0,
                  carried: list[float | None] | None = None) -> np.ndarray:
    """The epoch of ``Epoch i/N`` banners at each line (NaN before the first, carried over blocks; a banner carried
    from the read before of an epoch already past there sets none: ``past_banners``). A line carried from the read
    before (``carried``: the epoch each of the first lines was printed under there, None where unknown) is under that
    epoch, not the one the read before ended under: torchmate's one-off bar states of epoch 1 (``train: 27/32 ...``)
    carried to a read that starts in epoch 2 stay epoch 1's, so a template met once an epoch is one record an epoch
    whatever the reads' sizes."""
    banner = np.full(n, np.nan)
    for plan, idx, got, _bad in reads:
        if plan.epoch is not None and plan.epoch_total is not None and not plan.metrics:
            banner[idx] = past_banners(got[plan.epoch], idx, first, st.get("banner_epoch"))
    out = ffill(banner, st.get("banner_epoch"))
    if not np.isnan(out).all():
        st["banner_epoch"] = float(out[-1])
    if carried and any(e is not None for e in carried):  # (after the state: the epoch the reads go on under)
        k = min(len(carried), n)
        was = np.array([np.nan if e is None else e for e in carried[:k]], dtype=float)
        out[:k] = np.where(np.isnan(was) | ~np.isnan(banner[:k]), out[:k], was)
    return out


def under_eval_banners(reads: list[Read], n: int, nonblank: np.ndarray, st: dict, first: int) -> list[Read]:
    """Records printed right under an evaluation's banner (``***** Evaluating perplexity, Epoch 1/16 *****`` then
    ``ppl: 2.01``) are that evaluation's results (``eval_ppl``). The lines before ``first`` were carried from earlier
    reads: each under what it was under there (``_eval_banner_marks``)."""
    banner = np.zeros(n, dtype=bool)
    for plan, idx, _got, _bad in reads:
        if plan.is_eval and not plan.metrics and plan.step is None:
            banner[idx] = True
    under = _eval_banner_marks(banner, nonblank, st, first)
    if not under.any():
        return reads
    out = []
    for plan, idx, got, bad in reads:
        u = under[idx]
        if plan.is_eval or not plan.metrics or has_position(plan) or not u.any():
            out.append((plan, idx, got, bad))
            continue
        for part, pl in ((~u, plan), (u, replace(plan, is_eval=True, eval_prefix="eval_"))):
            if part.any():
                out.append((pl, idx[part], {c: v[part] for c, v in got.items()}, {c: v[part] for c, v in bad.items()}))
    return out


MAX_BANNER_WORDS = 4  # words of a banner naming a split (``--- Eval epoch-0, step-8 ---``); more: prose
MAX_BARE_LINE = 160  # bytes of a bare ``name: value`` line (longer: no line of a banner's record)
_LETTER_RUNS = re.compile(rb"[A-Za-z]++")
_TRAIN_WORDS = frozenset(w for w, pre in DIALECT.split_rows.items() if pre == "")
_BARE_NAME = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./- @()[]")


def preamble_end(line: bytes) -> int:
    """Where the logger's preamble opening ``line`` ends (0: none): a time stamp and the level right after it
    (``fields.stamp_end``: ``2026-12-07 08:33:31,751 INFO``, ``[12/07/2026 08:33:31] INFO``), at most
    ``fields.MAX_PREAMBLE_BYTES`` bytes. Every line of a record a logger prints carries it; the record is what
    follows. (``fields.message_start`` skips a level for the record's own template, with more level words: the two
    are kept apart, see the twelfth session's note.)"""
    if not (line[:1].isdigit() or line[:1] == b"["):  # (a stamp opens with a digit or a bracket)
        return 0
    head = line[:MAX_PREAMBLE_BYTES]
    end = stamp_end(head) or _ungrouped_stamp(head)  # (the lines as the engine holds them: a clock's milliseconds
    # ungrouped, ``08:33:31751``)
    if end:
        end = _level_after(head, end)
    return end if 0 < end < len(line) else 0


def _level_after(head: bytes, end: int) -> int:
    """Past the level in capitals right after a stamp ending at ``end`` (``INFO``, ``WARNING:``), else ``end``."""
    n, i = len(head), end
    while i < n and head[i] in b" \t":
        i += 1
    j = i
    while j < n and 65 <= head[j] <= 90:
        j += 1
    if head[i:j] not in _LEVELS or j < n and head[j] not in b" \t:]":
        return end
    return j + 1 if head[j:j + 1] == b":" else j


def split_banner(line: bytes) -> bool:
    """A line that only names an evaluation's split, whatever the punctuation around it (``--- Eval epoch-0, step-8
    ---``, ``=== Validation ===``, ``[test]``): one eval word (``Dialect.eval_words``) and no train word among at most
    ``MAX_BANNER_WORDS`` words, no quote or brace (a printed dict's or a string's words), and no number the engine
    reads (no plan: its numbers, if any, glued to words); after the logger's preamble (a time stamp and its level,
    ``2026-12-07 08:33:31,751 INFO Validation results``: ``preamble_end``), whose numbers are no field of it."""
    if len(line) > PENDING_LINE:
        return False
    line = line[preamble_end(line):]
    low = line.lower()
    if not any(w.encode() in low for w in DIALECT.eval_words):
        return False
    if any(c in line for c in b"'\"{}"):
        return False  # a printed dict's or a string's words (a wrapped ``{'valid': 'full', 'test': 'full'}}]``)
    words = [w.decode() for w in _LETTER_RUNS.findall(low, 0, PENDING_LINE)[:MAX_BANNER_WORDS + 1]]
    if not 0 < len(words) <= MAX_BANNER_WORDS or sum(w in DIALECT.eval_words for w in words) != 1 or set(
            words) & _TRAIN_WORDS:
        return False  # (one split named, no other)
    return not any(48 <= c <= 57 for c in line) or plan_template([line]) is None


def bare_named(line: bytes) -> bool:
    """A bare ``name: value`` line (``pr_auc: 0.7494``, ``loss = 0.52``): a name of at most ``Dialect.name_words``
    words, a colon or ``=``, one number, nothing else; after the logger's preamble a record's every line may carry
    (a time stamp and its level: ``2026-12-07 08:33:31,751 INFO \tloss: 2.79``, ``fields.stamp_end``)."""
    s = line.strip()
    if len(s) > MAX_BARE_LINE + MAX_PREAMBLE_BYTES:
        return False
    s = s[preamble_end(s):].strip()
    if len(s) > MAX_BARE_LINE:
        return False
    c = max(s.rfind(b":"), s.rfind(b"="))
    if c <= 0:
        return False
    name, value = s[:c].rstrip(), s[c + 1:].strip()
    if not name or not value or not (65 <= name[0] <= 90 or 97 <= name[0] <= 122 or name[0] == 95):
        return False
    if name.translate(None, bytes(_BARE_NAME)) or len(name.split()) > DIALECT.name_words:
        return False
    if value == NAN_MARK:
        return True
    try:
        float(value)
    except ValueError:
        return False
    return True


def split_banners(lines: Sequence[bytes], grouping: Grouping) -> tuple[np.ndarray | None, Callable[[], np.ndarray]]:
    """The lines that are banners naming an evaluation's split (``split_banner``, one test per template: its first
    line), None when none; and a function giving the bare ``name: value`` lines (``bare_named``, one test per
    template), called only where a banner's record may go on."""
    codes = grouping.codes
    n_t = len(grouping.templates)
    first = np.zeros(n_t, dtype=np.int64)
    at = np.arange(len(codes))
    first[codes[::-1]] = at[::-1]
    hit = [g for g in range(n_t) if grouping.counts[g] and split_banner(lines[int(first[g])])]
    banner = np.isin(codes, hit) if hit else None

    def bare() -> np.ndarray:
        ok = [g for g in range(n_t) if grouping.counts[g] and bare_named(lines[int(first[g])])]
        return np.isin(codes, ok) if ok else np.zeros(len(codes), dtype=bool)

    return banner, bare


def _eval_banner_marks(banner: np.ndarray, nonblank: np.ndarray, st: dict, first: int) -> np.ndarray:
    """Whether each line sits under an eval banner: the nonblank line after one (``banner``), or the bare ``name:
    value`` line right after a line naming only an evaluation's split (no blank between: ``split_banners``), and
    the bare lines that follow either with no blank or other line between (the banner's record: ``--- Eval epoch-0,
    step-8 ---`` then ``pr_auc: 0.74``, ..., ``loss: 0.67``). A line carried from an earlier read (before ``first``)
    is under what it was under there: kept in the state with it (``eb_carried``: 1 under a banner, 2 the carried line
    before it, 3 the same right before it with no blank between, 0 neither), and so is the last read's last line
    (``banner_end``), which the block's first own line is under, and whether that line ended the read in a banner's
    record or is a split's banner (``eb_tail``: 1 nonblank, 2 too a bare line under a banner, 4 a split's banner),
    which a bare line opening this read goes on. Sets the lines' predecessors for ``carry_eval_banners``
    (``_eb``)."""
    n = len(banner)
    text_banner, bare_of = st.pop("_tb", None) or (None, None)
    if text_banner is None or len(text_banner) != n or not text_banner.any():
        text_banner = None
    before = int(st.pop("banner_end", 0) or 0)
    tail = int(st.pop("eb_tail", 0) or 0)
    carried = st.pop("eb_carried", None) or []
    if len(carried) != first:
        carried = [0] * first
    nb = np.flatnonzero(nonblank)
    prev = np.full(n, -1)
    prev[nb[1:]] = nb[:-1]
    head = np.array(carried, dtype=np.int64)
    prev[:first] = np.where(head >= 2, np.arange(first) - 1, -1)  # (2, 3: the carried line before it, a nonblank one)
    own = nb[nb >= first]
    if len(own):
        prev[own[0]] = first - 1 if before == 2 else -1
    under = (prev >= 0) & banner[np.maximum(prev, 0)]
    under[:first] |= head == 1
    if len(own) and before == 1:
        under[own[0]] = True
    adj = np.zeros(n, dtype=bool)  # the line right before it is its predecessor: no blank between
    adj[1:] = prev[1:] == np.arange(n - 1)
    adj[:first] = head == 3
    if first < n:
        adj[first] = bool(adj[first]) and bool(tail & 1)
    bare = None
    if n and (under.any() or tail & 6 or text_banner is not None):  # a banner's record goes on over the bare lines
        # right after its first; a split's banner (``split_banner``) heads only the bare lines right under it
        bare = bare_of() if bare_of is not None else np.zeros(n, dtype=bool)
        if text_banner is not None:
            under[1:] |= adj[1:] & bare[1:] & text_banner[:-1]
        if first < n and tail & 6 and nonblank[first] and bare[first]:
            under[first] = True  # (the last read ended in a banner's record or on a split's banner: this bare line
            # goes on with it)
        goes_on = adj & bare
        goes_on[1:] &= bare[:-1]
        goes_on[0] = False
        starts = np.flatnonzero(~goes_on)
        under = under[starts][np.cumsum(~goes_on) - 1]
    st["_eb"] = (banner, under, prev, before, int(own[-1]) if len(own) else -1, adj, bare, text_banner)
    return under


def carry_eval_banners(st: dict, carried: list[int], n: int, nonblank: np.ndarray, first: int) -> None:
    """What each line carried on to the next read (``carried``, ascending) and the block's last line sit under
    (``_eval_banner_marks``), kept in the state: a record under a banner is an eval's whichever read it is read in."""
    eb = st.pop("_eb", None)
    if eb is None:  # no template read in the block: no banner in it
        _eval_banner_marks(np.zeros(n, dtype=bool), nonblank, st, first)
        eb = st.pop("_eb")
    st.pop("_tb", None)
    banner, under, prev, before, last, adj, bare, text_banner = eb
    kept = set(carried)
    codes = [1 if under[i] else (3 if adj[i] else 2) if prev[i] >= 0 and int(prev[i]) in kept else 0
             for i in carried]
    st["eb_carried"] = codes if any(codes) else None
    if last < 0 and before == 2 and first:  # no line of its own: the last read's last line is the last carried
        last = first - 1
    if last < 0:
        st["banner_end"] = before  # (a banner, or no line under one)
    else:
        st["banner_end"] = 1 if banner[last] else 2 if last in kept else 0
    end = n - 1 if n < 2 or nonblank[n - 1] or not nonblank[n - 2] else n - 2  # (the empty line after the last break)
    if n and nonblank[end]:
        st["eb_tail"] = 1 | (2 if bare is not None and under[end] and bare[end] else 0) | (
            4 if text_banner is not None and text_banner[end] else 0)
