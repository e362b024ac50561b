"""Shapes the reader missed on examples/libraries_holdout7 (issue 32), each written as a small log the way a library
prints it (with variants no library of the set prints) and read by the one engine, whole and in parts. Each shape is
general: a divergence minimised as a run's objective, a step counter restarting with each announced phase of one run,
group names over some of a table's columns (the best individual's fitness beside the population's average), and the
value of a run's loss printed before its first numbered record."""

from __future__ import annotations

import numpy as np
from training_check.tools.frame import MetricFrame
from training_check.tools.objective import assign_roles, divergence_objective, population_best_and_mean
from training_check.tools.parsers.tables_text import join_grouped
from training_check.tools.points import Column, PointBatch
from training_check.tools.roles import infer_role

from .test_engine_records import _same_in_reads
from .test_engine_tables import _in_reads, _line_starts, _read

# -- openTSNE: a KL divergence minimised, over phases each announced with its length ---------------------------------


def _tsne(phases: list[int], every: int = 50, header: bool = True) -> tuple[bytes, list[int], list[float]]:
    """``TSNE(verbose=True).fit``: the estimator's repr, neighbour and affinity banners, then per phase ``===> Running
    optimization with exaggeration=..., lr=... for N iterations...`` and ``Iteration   50, KL divergence 0.9269, 50
    iterations in 0.0272 sec`` every ``every`` iterations from 0 again; the truth's steps count across phases."""
    out = ["-" * 80, "TSNE(early_exaggeration=12, random_state=0, verbose=True)", "-" * 80] if header else []
    out += ["===> Finding 90 nearest neighbors using exact search using euclidean distance...",
            "   --> Time elapsed: 0.01 seconds", "===> Calculating PCA-based initialization...",
            "   --> Time elapsed: 0.00 seconds"]
    steps, values, done = [], [], 0
    for k, n in enumerate(phases):
        exag = 12.0 if k == 0 else 1.0
        out.append(f"===> Running optimization with exaggeration={exag:.2f}, lr={25.0 * (k + 1):.2f} for {n} "
                   "iterations...")
        for it in range(every, n + 1, every):
            kl = round(0.9 / (1 + k) - 0.0002 * it, 4)
            out.append(f"Iteration {it:4d}, KL divergence {kl:.4f}, {every} iterations in 0.0272 sec")
            steps.append(done + it)
            values.append(kl)
        out.append("   --> Time elapsed: 0.14 seconds")
        done += n
    return ("\n".join(out) + "\n").encode(), steps, values


def _key_in_reads(data: bytes, key: str, every: int) -> tuple[list[int], list[float]]:
    """``key``'s points read whole, checked equal to its reads in two parts cut at every ``every``-th line start (the
    banner's own settings, a recurring line with no step, are placed otherwise when a read ends right after the first
    of them, at main too: only the divergence is compared)."""
    whole = _in_reads(data, [])[key]
    for cut in _line_starts(data)[::every]:
        assert _in_reads(data, [cut])[key] == whole, f"one cut at byte {cut}"
    return whole


def test_a_divergence_minimised_is_the_objective_when_nothing_else_is():
    assert infer_role("KL divergence").direction == "min" and infer_role("kld").direction == "min"
    roles = assign_roles(["other_metric_1", "lr", "KL divergence"])
    assert roles["KL divergence"].primary and roles["KL divergence"].role == "train_loss"
    assert assign_roles(["kld", "lr"])["kld"].primary
    # beside a loss, a reward or an accuracy it is a regulariser's diagnostic (RL fine-tuning's KL): no objective
    assert assign_roles(["kl", "loss"])["loss"].primary and not assign_roles(["kl", "loss"])["kl"].primary
    assert divergence_objective(["kl", "reward"], assign_roles(["kl", "reward"])) is None
    assert divergence_objective(["kl", "accuracy"], assign_roles(["kl", "accuracy"])) is None
    assert not any(r.primary for r in assign_roles(["entropy", "lr"]).values())  # an entropy alone: none


def test_a_counter_restarting_after_a_phase_banner_continues_the_run(tmp_path):
    for phases, every in (([250, 500], 50), ([50, 250], 50), ([100, 300], 50), ([60, 90, 120], 30)):
        data, steps, values = _tsne(phases, every)
        assert _key_in_reads(data, "KL divergence", every=1) == (steps, values), phases
    res, pts = _read(tmp_path, _tsne([250, 500])[0])
    assert any("phase" in n and "250" in n for n in res.notes)
    assert not any("earlier run" in n for n in res.notes)


def test_a_restart_with_no_phase_announced_or_short_of_its_length_is_a_new_run():
    # the phase before stopped short of its announced length (a run cut and launched again): a new run
    data, _steps, _values = _tsne([250, 500])
    short = data.replace(b"Iteration  250, KL divergence 0.8500", b"").replace(b"Iteration  200, KL",
                                                                               b"Iteration  199, KL", 1)
    assert _in_reads(short, [])["KL divergence"][0] == [50, 100, 150, 199, *range(50, 501, 50)]  # as printed
    # a whole launch again (its header and settings between): its phases counted from its start again (a loss named
    # so: a new run, the earlier one set aside; a divergence is named no loss in the engine: both runs' points)
    once, steps, _v = _tsne([100, 200])
    assert _in_reads(once + once, [])["KL divergence"][0] == steps + steps
    as_loss = once.replace(b"KL divergence", b"loss")
    assert _in_reads(as_loss + as_loss, [])["loss"][0] == steps
    # a counter going back with no banner before it ends the phases' offset
    plain = b"".join(f"Iteration {it:4d}, KL divergence {1.0 / it:.4f}, 50 iterations in 0.02 sec\n".encode()
                     for it in range(50, 301, 50))
    assert _in_reads(once + plain, [])["KL divergence"][0] == steps + list(range(50, 301, 50))


# -- gplearn: group names over some of a table's columns -----------------------------------------------------------

_GROUPS = "    |   Population Average    |             Best Individual              |"
_RULE = "---- ------------------------- ------------------------------------------ ----------"
_HEAD = " Gen   Length          Fitness   Length          Fitness      OOB Fitness  Time Left"


def _gplearn(gens: int, oob: bool = True, maximise: bool = False) -> tuple[bytes, list[float]]:
    """``SymbolicRegressor(verbose=1)``'s table: group names over a rule, the header, one row a generation (``{:16g}``
    cells, ``N/A`` in the OOB column without subsampling); the best individual's fitness is the loss."""
    out = [_GROUPS, _RULE, _HEAD]
    best = []
    for g in range(gens):
        avg = 308738.0 / (g + 1) ** 4 + 1.1
        b = float(f"{0.41 - 0.015 * g + (0.004 if g % 3 == 2 else 0.0):g}")
        if maximise:
            avg, b = 0.2 + 0.01 * g, float(f"{0.5 + 0.03 * g:g}")
        best.append(b)
        oob_cell = f"{b + 0.05:16g}" if oob else f"{'N/A':>16}"
        out.append(f"{g:4d} {33.27 / (g + 1) + 4:8.2f} {avg:16g} {9 + g % 4:8d} {b:16g} {oob_cell} "
                   f"{1.37 * (gens - g - 1) / gens:9.2f}s")
    return ("\n".join(out) + "\n").encode(), best


def test_group_names_over_some_columns_name_the_columns_under_them():
    data, best = _gplearn(12)
    pts = _same_in_reads(data, every=3)
    assert pts["Best Individual/Fitness"] == (list(range(12)), best)
    assert pts["Population Average/Fitness"][0] == list(range(12))
    assert "Best Individual/OOB Fitness" in pts and "Best Individual/Length" in pts and "Fitness" not in pts
    pts = _same_in_reads(_gplearn(8, oob=False)[0], every=2)
    assert pts["Best Individual/Fitness"][0] == list(range(8))
    cols = join_grouped(_GROUPS.encode(), _RULE.encode(), _HEAD.encode())
    assert cols is not None and [c[0] for c in cols] == [
        "Gen", "Population Average/Length", "Population Average/Fitness", "Best Individual/Length",
        "Best Individual/Fitness", "Best Individual/OOB Fitness", "Time Left"]
    assert join_grouped(b"    |      |", _RULE.encode(), _HEAD.encode()) is None  # no group named: no group


def _frame(data: bytes) -> MetricFrame:
    pts = _in_reads(data, [])
    cols = {k: Column(np.asarray(s, dtype=np.int64), np.asarray(v, dtype=float)) for k, (s, v) in pts.items()}
    return MetricFrame.from_batch(PointBatch(cols))


def test_the_best_individuals_fitness_is_the_objective_its_direction_from_the_table():
    names = ["Gen", "Population Average/Length", "Population Average/Fitness", "Best Individual/Length",
             "Best Individual/Fitness", "Best Individual/OOB Fitness", "Time Left_s"]
    assert population_best_and_mean(names) == ("Best Individual/Fitness", "Population Average/Fitness")
    assert assign_roles(names)["Best Individual/Fitness"].primary
    assert population_best_and_mean(["best_fitness", "avg_fitness", "worst_fitness"]) is None  # a worst: the mean's
    frame = _frame(_gplearn(10)[0])  # the best below the average every generation: minimised
    assert frame.primary_loss == "Best Individual/Fitness"
    frame = _frame(_gplearn(10, maximise=True)[0])  # above it every generation: maximised (DEAP-like), no loss
    assert frame.primary_loss is None and frame.roles["Best Individual/Fitness"].direction == "max"


# -- TensorLy: the loss's value before the first numbered record is the initial one, at step 0 ----------------------


def _parafac(iters: int, first: int = 1) -> tuple[bytes, list[int], list[float]]:
    """``parafac(verbose=1)``: ``reconstruction error=...`` at the initialisation, then ``iteration N, reconstruction
    error: ..., decrease = ..., unnormalized = ...`` (Python's ``repr``), ``PARAFAC converged after N iterations``."""
    errs = [0.8123297690903539 / (1 + 0.3 * k) for k in range(iters + 1)]
    out = [f"reconstruction error={errs[0]!r}"]
    for k in range(1, iters + 1):
        out.append(f"iteration {k - 1 + first}, reconstruction error: {errs[k]!r}, decrease = "
                   f"{errs[k - 1] - errs[k]!r}, unnormalized = {23.9 * errs[k]!r}")
    out.append(f"PARAFAC converged after {iters} iterations")
    return ("\n".join(out) + "\n").encode(), list(range(first - 1, iters + first)), errs


def test_the_losss_value_before_the_first_numbered_record_is_at_step_0():
    data, steps, errs = _parafac(12)
    pts = _same_in_reads(data, every=2)
    assert pts["reconstruction error"] == (steps, errs)
    assert pts["decrease"][0] == steps[1:]
    # a counter from 0: the value before it is no step of its own (not at 0 twice)
    data, _steps, errs = _parafac(6, first=0)
    assert _in_reads(data, [])["reconstruction error"][0].count(0) <= 1
