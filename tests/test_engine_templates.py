"""The engine's template step (tools/parsers/templates.py): lines grouped by template, nan/inf words masked (on the
lines whose template holds a word's letters: what the patterns give on every line, whatever the line holds)."""

from __future__ import annotations

import math
from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from training_check.tools.parsers.templates import NAN_MARK, group_lines, mask_numbers, templates_of

PIECES = ["nan", "NaN", "NAN", "inf", "Inf", "INF", "infinity", "Infinity", "-inf", "nan.0", "inf.00", "info", "INFO",
          "nanoGPT", "inference", "enan", "[", "\xe9", "nan\xe9nan", "5nan", "nan5", "_nan", "xnan", "na\xffn",
          "\xe9nan", "nan\xe9", "loss", "=", ":", " ", "  ", ",", "|", "1", "0.5", "1e-3", "-2", "step", "e", "E", "]",
          "'", "+"]


def _expected(lines: list[bytes]) -> list[bytes]:
    """What the patterns make of each line."""
    return [mask_numbers(ln) for ln in lines]


def _check(lines: list[bytes]) -> None:
    want = _expected(lines)
    got = list(lines)
    g = group_lines(got)
    assert got == want
    assert g.joined is None or g.joined == b"\n".join(got)
    # a line's template is the template of what it now holds, and equal templates share a code
    for i, ln in enumerate(got):
        assert g.templates[int(g.codes[i])] == templates_of(ln), (ln, g.templates[int(g.codes[i])])
    assert len(set(g.templates)) == len(g.templates)
    assert g.counts.tolist() == np.bincount(g.codes, minlength=len(g.templates)).tolist()


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join), min_size=1, max_size=30))
def test_masking_by_template_gives_what_the_patterns_give(texts: list[str]) -> None:
    _check([t.encode("latin-1") for t in texts])


def test_a_word_split_by_a_byte_the_template_drops_goes_to_the_patterns() -> None:
    lines = [b"loss: nan", b"loss: na\xffn", b"loss: 0.5"]  # the second line's template is the first's
    _check(lines)
    got = list(lines)
    group_lines(got)
    assert got == [b"loss: " + NAN_MARK, b"loss: na\xffn", b"loss: 0.5"]


def test_many_nan_lines_are_masked() -> None:
    lines = [f"s:{i} trl:{'nan' if i % 2 else '2.5'} lr:0.001 norm:{'nan' if i % 3 else 'inf'}".encode()
             for i in range(5000)]
    _check(lines)


# --- the write events a record takes (bar_steps.match_write_events): in bulk when no epoch says a later one ---

def _one_by_one(needs, events, glob, plans, gots, steps_of, st) -> None:
    """What bar_steps.match_write_events means, record by record (the engine's earlier loop)."""
    queue = deque(st.get("events", []))
    lines = np.concatenate([events] + [n[0] for n in needs])
    kinds = np.concatenate([np.full(len(events), -1)] + [np.full(len(n[0]), k) for k, n in enumerate(needs)])
    rows = np.concatenate([np.zeros(len(events), dtype=np.int64)] + [n[2] for n in needs]).tolist()
    epochs = [gots[r][plans[r].epoch][rws].tolist() if plans[r].epoch is not None else [math.nan] * len(rws)
              for _lines, r, rws in needs]
    offsets = np.cumsum([len(events)] + [len(n[0]) for n in needs]).tolist()
    for o in np.argsort(lines * 2 + (kinds >= 0), kind="stable").tolist():
        k = int(kinds[o])
        if k < 0:
            queue.append(float(glob[lines[o]]))
            continue
        if not queue:
            continue
        ep = epochs[k][o - offsets[k]]
        spe = st.get("spe")
        if spe and ep > 0:
            want = ep * spe
            while len(queue) > 1 and abs(queue[1] - want) < abs(queue[0] - want):
                queue.popleft()
        step = queue.popleft()
        if ep > 0 and step > 0:
            st["spe"] = step / ep
        steps_of[needs[k][1]][rows[o]] = step
    st["events"] = list(queue)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from([math.nan, 0.0, 0.5, 1.0, 1.5, 2.0, 3.7])), max_size=300),
       st.lists(st.floats(0, 50, allow_nan=False), max_size=4), st.sampled_from([None, 0.0, 10.0, 20.0]),
       st.randoms(use_true_random=False), st.booleans())
def test_events_taken_in_bulk_as_one_by_one(kinds, carried, spe, rnd, in_c) -> None:
    """The C walk (kernel.match_events) and the Python one (without the kernel) give what walking
    record by record gives."""
    from training_check.tools.parsers import bar_steps, kernel
    from training_check.tools.parsers.fields import Plan

    if in_c and not kernel.HAVE_KERNEL:
        return  # (tests/test_kernel.py fails in CI without the kernel)
    have = kernel.HAVE_KERNEL
    kernel.HAVE_KERNEL = in_c
    try:
        _events_check(bar_steps.match_write_events, Plan, kinds, carried, spe, rnd)
    finally:
        kernel.HAVE_KERNEL = have


def _events_check(match_write_events, Plan, kinds, carried, spe, rnd) -> None:

    n = len(kinds)
    events = np.array([i for i, (is_event, _) in enumerate(kinds) if is_event], dtype=np.int64)
    recs = [i for i, (is_event, _) in enumerate(kinds) if not is_event]
    glob = np.full(n, np.nan)
    step = 0.0
    for i in events.tolist():
        step += rnd.choice([1.0, 5.0, 10.0])
        glob[i] = step
    split = rnd.randint(0, len(recs))  # records of two templates, one with an epoch field
    parts = [np.array(recs[:split], dtype=np.int64), np.array(recs[split:], dtype=np.int64)]
    plans = [Plan(n_fields=2, epoch=1), Plan(n_fields=1)]
    gots = [{1: np.array([kinds[i][1] for i in parts[0].tolist()])}, {}]
    needs = [(p, r, np.arange(len(p))) for r, p in enumerate(parts) if len(p)]
    if not needs:
        return  # the engine asks only for records that need a step
    answers = []
    for walk in (match_write_events, _one_by_one):
        steps_of = [np.full(len(p), np.nan) for p in parts]
        state = {"events": list(carried), **({} if spe is None else {"spe": spe})}
        walk(needs, events, glob, plans, gots, steps_of, state)
        answers.append((steps_of, state))
    (a, sa), (b, sb) = answers
    assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a, b, strict=True))
    assert sa == sb


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.just(math.nan), st.floats(-5, 5)), max_size=9000), st.sampled_from([None, 2.5]))
def test_forward_fill_is_the_last_number_before(values, start) -> None:
    from training_check.tools.parsers.reads import ffill as _ffill

    v = np.array(values, dtype=np.float64)
    last = math.nan if start is None else start
    want = []
    for x in values:
        if not math.isnan(x):
            last = x
        want.append(last)
    assert np.array_equal(_ffill(v, start), np.array(want, dtype=np.float64), equal_nan=True)


def test_forward_fill_of_a_long_dense_array() -> None:
    from training_check.tools.parsers.reads import ffill as _ffill

    rng = np.random.default_rng(3)
    v = np.where(rng.random(20000) < 0.8, rng.random(20000), np.nan)
    v[:5] = np.nan
    idx = np.where(np.isnan(v), 0, np.arange(len(v)))
    want = np.where(np.maximum.accumulate(idx) > 0, v[np.maximum.accumulate(idx)], 7.0)
    assert np.array_equal(_ffill(v, 7.0), want, equal_nan=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.just(math.nan), st.floats(-5, 5)), min_size=1, max_size=300),
       st.sampled_from([None, 2.5]), st.lists(st.one_of(st.just(math.nan), st.floats(-5, 5)), max_size=5))
def test_a_fill_looked_up_where_asked_is_the_whole_fill(values, start, head) -> None:
    from training_check.tools.parsers.engine import _Filled
    from training_check.tools.parsers.reads import ffill as _ffill

    v = np.array(values, dtype=np.float64)
    head = head[:len(values)]
    want = _ffill(v, start)
    for i, h in enumerate(head):  # lines carried from the block before: their own step where the line has none
        before = [j for j in range(i) if not math.isnan(v[j])]
        # ... unless a carried value read now comes before it, printed at the same step: after that value
        after = bool(before) and (head[before[-1]] == h or math.isnan(head[before[-1]]) and math.isnan(h))
        if math.isnan(v[i]) and not after:
            want[i] = h
    idx = np.arange(len(v))
    have = np.flatnonzero(~np.isnan(v))
    old = [float(v[j]) for j in have if j < len(head)]
    if old:  # the block's own lines after carried values only: the latest known before them (the last read's step
        # or a carried value's, the larger), not the last carried line's (printed before the last read's lines)
        lead = max([*old, *([] if start is None else [start])])
        for i in range(len(head), len(v)):
            before = have[have <= i]
            if math.isnan(v[i]) and len(before) and before[-1] < len(head):
                want[i] = lead
    assert np.array_equal(_Filled(have, v[have], start, head)[idx], want, equal_nan=True)
    assert np.array_equal(_Filled(have, v[have], start, head)[idx[::-3]], want[::-3], equal_nan=True)
