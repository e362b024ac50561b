"""The shape the reader missed on examples/libraries_holdout8 (issue 32), written as tqdm prints it and read by the one
engine, whole and in pieces: a bar whose postfix is set once a unit in a ``for x in tqdm(...)`` body (pyswarms'
``best_cost=``, the swarm's best so far, a staircase that repeats) and redrawn at once by ``set_postfix`` with the
count tqdm last showed, while the count itself moves only when the redraw interval passes (``__iter__`` keeps it
local). So the bar shows ``0/N`` on every redraw of a short run, or ``0/N`` for k of them, one sync redraw at ``k/N``
repeating the state there, more redraws at ``k/N``, and the close at ``N/N``. Each redraw at the count of the redraw
before is a unit (the previous unit + 1), a repeated value included; a redraw whose count moved repeats the state
there (no point). Lightning's bar, whose counter moves with each redraw, keeps one point per change of its value."""

from __future__ import annotations

import random

from .test_read_misses import _live, whole_as_live

FULL = "\u2588"
DESC = "pyswarms.single.global_best"


def _cost_bar(costs: list[float], sync_at: int | None = None, desc: str = DESC) -> bytes:
    """pyswarms' reporter: its logger line, the bar (``{l_bar}{bar}|{n_fmt}/{total_fmt}{postfix}``, no newline)
    redrawn by ``set_postfix(best_cost=...)`` at every iteration, its count moved once at ``sync_at`` (a redraw of
    the same postfix) and at the close, then the logger's last line."""
    n = len(costs)

    def bar(shown: int, postfix: str) -> str:
        full = 10 * shown // n
        return f"\r{desc}: {100 * shown // n:3d}%|{FULL * full}{' ' * (10 - full)}|{shown}/{n}{postfix}"

    out = [f"2026-12-06 03:20:23,058 - {desc} - INFO - Optimize for {n} iters with {{'c1': 0.5}}\n", bar(0, "")]
    shown = 0
    for i, c in enumerate(costs, start=1):
        post = f", best_cost={c:.3g}"
        out.append(bar(shown, post))
        if i == sync_at:
            shown = i
            out.append(bar(shown, post))
    out.append(bar(n, f", best_cost={costs[-1]:.3g}") + "\n")
    out.append(f"2026-12-06 03:20:23,171 - {desc} - INFO - Optimization finished | best cost: {costs[-1]!r}, "
               "best pos: [ 0.49 -1.34]\n")
    return "".join(out).encode()


def _staircase(n: int, seed: int, flat_from: int | None = None) -> list[float]:
    """A best cost so far: falls now and then, else repeats (3 significant digits as printed); flat from
    ``flat_from`` on (a swarm converged)."""
    rnd = random.Random(seed)
    best, out = 4.0 + rnd.random(), []
    for i in range(1, n + 1):
        if (flat_from is None or i < flat_from) and rnd.random() < 0.3:
            best *= 0.5 + 0.4 * rnd.random()
        out.append(float(f"{best:.3g}"))
    return out




def test_postfix_redrawn_at_a_count_that_never_moves_is_each_unit_repeats_included(tmp_path):
    for n, seed in ((60, 1), (100, 2), (300, 3)):
        costs = _staircase(n, seed)
        assert len(set(costs)) < n / 2  # mostly repeats: one point per change would miss most units
        pts = whole_as_live(tmp_path, _cost_bar(costs), f"flat_{n}", cuts=(0.2, 0.37, 0.55, 0.81))
        assert pts["best_cost"] == (list(range(1, n + 1)), costs), n


def test_postfix_redrawn_around_one_sync_of_the_count_is_each_unit(tmp_path):
    """136 redraws at ``0/150``, the sync at ``136/150`` repeating unit 136's state, 14 redraws at ``136/150``, the
    close at ``150/150``: 150 units, the sync and the close no point of their own."""
    costs = _staircase(150, 4)
    data = _cost_bar(costs, sync_at=136)
    assert data.count(b"|136/150, best_cost=") == 15
    pts = whole_as_live(tmp_path, data, "sync", cuts=(0.2, 0.37, 0.55, 0.81))
    assert pts["best_cost"] == (list(range(1, 151)), costs)


def test_postfix_flat_from_the_first_units_is_each_unit(tmp_path):
    """A cost that stops falling early: its repeats from the first units on are units too."""
    costs = _staircase(120, 5, flat_from=10)
    pts = whole_as_live(tmp_path, _cost_bar(costs, sync_at=70), "converged", cuts=(0.2, 0.37, 0.55, 0.81))
    assert pts["best_cost"] == (list(range(1, 121)), costs)


def test_postfix_bar_read_in_pieces_at_its_redraws(tmp_path):
    """A read ending at any of the bar's redraws, before the count first moves too (no window closed yet): the
    points of the whole read, once the count moves."""
    costs = _staircase(80, 6)
    data = _cost_bar(costs, sync_at=50)
    whole = _live(tmp_path, data, [], name="redraws_whole")
    assert whole["best_cost"] == (list(range(1, 81)), costs)
    starts = [i for i, c in enumerate(data) if c == 0x0D]
    for k, at in enumerate(starts[::7]):
        assert _live(tmp_path, data, [at, at + 33], name=f"redraws_{k}") == whole, at


def _lightning(values: list[float], per_log: int) -> bytes:
    """Lightning's bar: ``update`` then ``set_postfix``, the counter moving with every redraw; the loss logged every
    ``per_log`` steps (repeated between)."""
    n = len(values) * per_log
    out = [f"Epoch 0:   0%|          | 0/{n} [00:00<?, ?it/s]"]
    for i in range(1, n + 1):
        v = values[(i - 1) // per_log]
        out.append(f"Epoch 0: {100 * i // n:3d}%|#         | {i}/{n} [00:00<00:00, 300.0it/s, v_num=0, "
                   f"train_loss={v:.3g}]")
    return ("\r".join(out) + "\n").encode()


def test_counter_moving_with_each_redraw_keeps_one_point_per_change(tmp_path):
    """The counter moves with each redraw: a redraw of an unchanged value is no unit of its own (Lightning's
    ``on_epoch`` loss: one point per change, at the step it changed at)."""
    values = [round(2.0 / (1 + k), 3) for k in range(12)]
    pts = whole_as_live(tmp_path, _lightning(values, 5), "lightning", cuts=(0.2, 0.37, 0.55, 0.81))
    steps, got = pts["train_loss"]
    assert got == values
    assert steps == [5 * k for k in range(12)]
