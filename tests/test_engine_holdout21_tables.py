"""Two table shapes the reader missed on examples/libraries_holdout21 (issue 32), written as the libraries print them
and read by the one engine, whole and in pieces:

- an optimiser's table whose header names are words one blank apart, abbreviations ending in a dot (PINTS' ``Iter.
  Eval. Best      Current   Time``, ``Min. step Max. step Bound corr.`` over one number each), ``Current`` the
  optimiser's value at its current point beside its running ``Best``: the current point is the run's objective (a
  diverging optimiser's ``Current`` climbs while its ``Best`` stays), a single evaluation of a search stays a draw;
- a table printed header and row per message through a coloured logger (rlberry's writer: ``[INFO] 09:34:
  agent_name  worker  loss  max_global_step`` over ``MCValue      0    49.992        1``): a text cell, the header
  after a log's prefix and reprinted above every row, its columns growing as tags appear, each step printed twice,
  several workers' rows interleaved (each counting its steps from 1): worker 0's loss at ``max_global_step``.
"""

from __future__ import annotations

import random

from training_check.tools.objective import assign_objective, assign_roles

from .test_read_misses import whole_as_live


def _g(x: float) -> str:
    s = f"{x: .7g}"
    return s if len(s) <= 9 else f"{x: .3g}"


def _pints_log(values: list[float], extra: bool = False) -> tuple[bytes, list[tuple[int, float]]]:
    head = "Iter. Eval. Best      Current   " + ("Min. step Max. step Bound corr. " if extra else "") + "Time    "
    lines = ["Minimising error measure", "Using Adam", "Running in sequential mode.", head]
    best, truth = float("inf"), []
    for it, cur in enumerate(values):
        best = min(best, cur)
        if it > 3 and it % 5 and it != len(values) - 1:
            continue
        truth.append((it, float(_g(cur))))
        cells = f"{it:<5d} {it + 1:<6d}{_g(best):<10s}{_g(cur):<10s}"
        if extra:
            cells += f"{_g(0.06 / (it + 1)):<10s}{_g(0.6 / (it + 1)):<10s}{'':<12s}"
        lines.append(cells + f" 0:0{it // 100}.{it % 10}")
    lines.append(f"Halting: Maximum number of iterations reached ({len(values) - 1}).")
    return ("\n".join(lines) + "\n").encode(), truth


def test_an_optimisers_current_beside_its_best_is_the_objective(tmp_path):
    rnd = random.Random(21)
    values = [110.1779] + [400 + 100 * rnd.random() for _ in range(60)]  # a step far too large: it diverges
    data, truth = _pints_log(values)
    pts = whole_as_live(tmp_path, data, "pints_adam.log")
    assert list(zip(*pts["Current"], strict=True)) == truth
    assert pts["Best"][1] == [110.1779] * len(truth)  # the running best never moves
    assert assign_roles(list(pts))["Current"].primary


def test_abbreviated_names_one_blank_apart_over_one_number_are_one_column(tmp_path):
    values = [110.1779 * 0.9 ** k for k in range(81)]
    data, truth = _pints_log(values, extra=True)
    pts = whole_as_live(tmp_path, data, "pints_irprop.log")
    assert list(zip(*pts["Current"], strict=True)) == truth
    assert not {"Iter.", "Min.", "Max.", "step"} & set(pts)


def test_a_search_draw_stays_a_draw_beside_its_running_best():
    # scikit-optimize: each call's value, a draw, and the best so far: the best is the objective
    assert assign_objective(["Function value obtained", "Current minimum"]).roles["Current minimum"].primary
    # mealpy: the current population's best beside the global best
    assert assign_objective(["Current best", "Global best"]).roles["Current best"].primary
    # an optimiser's current point beside its running best: the point
    objective = assign_objective(["Eval.", "Best", "Current"])
    assert objective.roles["Current"].primary and objective.search is not None
    assert objective.search.kind == "current_state" and objective.search.best == "Best"
    assert not assign_objective(["Best", "Current", "loss"]).roles["Current"].primary  # a loss named wins


_INFO = "\x1b[38;21m[INFO] 09:34: "
_END = " \x1b[0m"


def _rlberry_table(names: list[str], row: list[str]) -> str:
    """pandas' ``DataFrame.to_string(index=False)`` of one row, as rlberry's writer logs it (prefix, colour)."""
    widths = [max(len(n), len(c)) for n, c in zip(names, row, strict=True)]
    head = "  ".join(n.rjust(w) for n, w in zip(names, widths, strict=True))
    body = "  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True))
    pad = " " * len(_INFO.replace("\x1b[38;21m", ""))
    return f"{_INFO}   {head}\n{pad}   {body}{_END}\n"


def _rlberry_log(workers: int, episodes: int, seed: int) -> tuple[bytes, list[tuple[int, float]]]:
    rnd = random.Random(seed)
    out = [f"{_INFO}Running ExperimentManager fit() for MCValue with n_fit = {workers}.{_END}\n"]
    loss = {w: 50.0 + 40 * w for w in range(workers)}
    reward: dict[int, str | None] = dict.fromkeys(range(workers))
    step = dict.fromkeys(range(workers), 0)
    truth = []
    order = [w for _ in range(episodes) for w in range(workers)]
    rnd.shuffle(order)  # the threads' messages interleave
    order = sorted(range(workers), reverse=True) + order[:len(order) - workers]  # the highest worker speaks first
    for w in order:
        if step[w] >= episodes:
            continue
        step[w] += 1
        loss[w] = loss[w] * (0.8 + 0.25 * rnd.random())
        value = f"{loss[w]:.3f}".rstrip("0").rstrip(".")
        names = ["agent_name", "worker", "loss"] + (["episode_rewards"] if reward[w] else []) + ["max_global_step"]
        cells = ["MCValue", str(w), value] + ([reward[w]] if reward[w] else []) + [str(step[w])]
        out.append(_rlberry_table(names, cells))  # the loss, beside the previous episode's reward
        reward[w] = f"{rnd.randint(9, 40)}.0"
        cells = ["MCValue", str(w), value, reward[w], str(step[w])]
        out.append(_rlberry_table(["agent_name", "worker", "loss", "episode_rewards", "max_global_step"], cells))
        if w == 0:
            truth.append((step[w], float(value)))
    out.append(f"{_INFO}... trained!{_END}\n")
    return "".join(out).encode(), truth


def test_a_table_printed_header_and_row_per_message_one_worker(tmp_path):
    data, truth = _rlberry_log(1, 30, 1)
    pts = whole_as_live(tmp_path, data, "rlberry_one.log")
    assert list(zip(*pts["loss"], strict=True)) == truth
    assert "worker" not in pts and "MCValue" not in pts


def test_interleaved_workers_rows_the_lowest_workers_are_the_run(tmp_path):
    for workers, seed in ((2, 2), (3, 3)):
        data, truth = _rlberry_log(workers, 25, seed)
        pts = whole_as_live(tmp_path, data, f"rlberry_{workers}.log")
        assert list(zip(*pts["loss"], strict=True)) == truth, workers
