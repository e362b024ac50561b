"""An epoch count restarting within one run: the run's phases (examples/libraries_holdout91's lightwood; fixlightwood).

lightwood's Neural mixer logs ``INFO:lightwood-14199:Loss @ epoch 3: 0.2053`` once an epoch; a run without a set
learning rate first prints its search, ``Loss of 12.73 with learning rate 0.0001`` (one loss per rate tried, no
epoch: no step of the curve), then the mixer's fit ``Loss @ epoch 1..N``, then short fits whose count restarts at 1
(the fit on the dev split, the adjustment). A record naming its own whole epoch whose count goes back to the first
epoch starts a new phase of the run (``epoch_phases``): the run's curve is its longest phase at its epochs, the
other phases set aside (never later steps of it); a later phase growing longer than the kept one is kept instead
(a job restarted from scratch), the same whole and in pieces.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from training_check.tools.parsers.epoch_phases import kept_phase

from .test_read_misses import _live, assert_at_truth, corpus_runs, points_at, whole_and_pieces, whole_as_live

H91 = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout91"
GREEN, RESET = "\x1b[32m", "\x1b[0m"


def _lightwood_log(rng: random.Random, main: int, later: list[int], search: bool, ansi: bool,
                   digits: int) -> tuple[bytes, list[tuple[int, float]]]:
    """A lightwood-like log: the learning-rate search (when ``search``), the mixer's fit of ``main`` epochs, then
    fits of ``later`` epochs each (their count restarting at 1); and its truth, the main fit at its epochs."""
    pid = rng.randint(100, 99999)
    out = [f"INFO:dataprep_ml-{pid}:[Learn phase 1/8] - Statistical analysis", "INFO:dataprep_ml-{pid}:Fitting"]

    def rec(msg: str) -> str:
        line = f"INFO:lightwood-{pid}:{msg}"
        return f"{GREEN}{line}{RESET}" if ansi else line

    if search:
        for lr in (0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05):
            out.append(rec(f"Loss of {rng.uniform(5, 15):.{digits}f} with learning rate {lr}"))
        out.append(rec("Found learning rate of: 0.05"))
    truth = []
    loss = rng.uniform(0.3, 3.0)
    for e in range(1, main + 1):
        loss *= rng.uniform(0.85, 1.03)
        v = f"{loss:.{digits}f}"
        truth.append((e, float(v)))
        out.append(rec(f"Loss @ epoch {e}: {v}"))
    for m in later:
        out.append("/venv/lib/python3.11/site-packages/lightwood/mixer/neural.py:335: FutureWarning: deprecated")
        out.append("  scaler = GradScaler()")
        for e in range(1, m + 1):
            out.append(rec(f"Loss @ epoch {e}: {loss * rng.uniform(1.0, 2.0):.{digits}f}"))
        out.append(f"DEBUG:lightwood-{pid}: `adjust` runtime: {rng.uniform(0.1, 3):.2f} seconds")
    return ("\n".join(out) + "\n").encode(), truth


def _check(pts: dict, truth: list[tuple[int, float]], name: str = "objective") -> None:
    got = dict(points_at(pts, name))
    assert sorted(got) == [s for s, _v in truth], (sorted(got), truth)
    for s, v in truth:
        assert got[s] == pytest.approx(v, rel=1e-12), (s, got[s], v)


@pytest.mark.parametrize("seed", range(10))
def test_later_fits_restarting_the_epoch_count_are_phases_set_aside_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    main = rng.randint(4, 30)
    later = [rng.randint(1, main - 1) for _ in range(rng.randint(1, 3))]
    data, truth = _lightwood_log(rng, main, later, search=rng.random() < 0.6, ansi=rng.random() < 0.5,
                                 digits=rng.choice((4, 8, 16)))
    pts = whole_as_live(tmp_path, data, f"lw{seed}.log")
    _check(pts, truth)
    _check(whole_and_pieces(tmp_path, data, f"lwp{seed}.log", seed=seed, trials=3), truth)


def test_a_search_over_settings_is_no_step_of_the_curve(tmp_path):
    data, truth = _lightwood_log(random.Random(5), 9, [3, 3], search=True, ansi=True, digits=6)
    pts = whole_as_live(tmp_path, data, "search.log")
    _check(pts, truth)
    searched = {float(x.split(b" with")[0]) for x in data.split(b"Loss of ")[1:]}
    assert not searched & set(pts["objective"][1])  # no loss of the search read as a point


@pytest.mark.parametrize("seed", range(4))
def test_a_later_phase_longer_than_the_kept_one_is_kept_instead(tmp_path, seed):
    """A job restarted from scratch, appended to its log, that runs longer than the one before: it is the run (the
    earlier phases set aside), read whole and in pieces alike (the file read again once it overtakes)."""
    rng = random.Random(100 + seed)
    first = rng.randint(3, 8)
    data1, _t = _lightwood_log(rng, first, [], search=False, ansi=False, digits=6)
    data2, truth = _lightwood_log(rng, first + rng.randint(1, 10), [rng.randint(1, first)], search=False,
                                  ansi=False, digits=6)
    data = data1 + data2
    _check(whole_as_live(tmp_path, data, f"long{seed}.log"), truth)
    _check(whole_and_pieces(tmp_path, data, f"longp{seed}.log", seed=seed, trials=4), truth)


def test_phases_decided_on_the_counts():
    st: dict = {}
    keep = kept_phase(np.array([1.0, 2, 3, 4, 5, 1, 2, 1, 2, 3]), "loss", st)
    assert keep is not None and keep.tolist() == [True] * 5 + [False] * 5
    st = {}  # in pieces: the same
    parts = [kept_phase(np.array(p), "loss", st) for p in ([1.0, 2, 3], [4.0, 5, 1], [2.0, 1, 2, 3])]
    assert [x for p in parts if p is not None for x in p.tolist()] == [True] * 5 + [False] * 5
    assert kept_phase(np.array([1.0, 2, 3, 4, 2, 3]), "loss", {}) is None  # back, not to the first: no phases
    assert kept_phase(np.array([3.0, 4, 3, 4]), "loss", {}).tolist() == [True, True, False, False]
    assert kept_phase(np.array([1.0, 2, 1, 2, 3]), "loss", {}).tolist() == [False, False, True, True, True]
    assert kept_phase(np.array([1.0, 1, 1, 1]), "loss", {}).tolist() == [True, False, False, False]


def test_many_phases_read_in_linear_time(tmp_path):
    """Hostile: a count restarting at every record (300,000 phases of one epoch) and one going back elsewhere."""
    import time

    lines = b"".join(b"Loss @ epoch 1: 0.%d\n" % (i % 97 + 1) for i in range(300_000))
    t = time.perf_counter()
    pts = _live(tmp_path, lines, [], name="flat.log")
    assert time.perf_counter() - t < 30
    assert len(pts.get("objective", ([], []))[0]) <= 1
    back = b"".join(b"Loss @ epoch %d: 0.5\n" % e for e in (*range(1, 11), *range(5, 9), *range(1, 4)))
    assert _live(tmp_path, back, [], name="back.log")["objective"][0] == list(range(1, 18))  # (by line order, as
    # before: a count going back that is no restart is no phase; read in pieces, it reads as before too)


LIGHTWOOD = ("lightwood_cls_lr001_noadjust_8ep", "lightwood_cls_lr2_diverged", "lightwood_cls_lr3_noadjust_diverged",
             "lightwood_cls_lrsearch_6ep", "lightwood_reg_lr002_noadjust_15ep", "lightwood_reg_lrsearch_10ep",
             "lightwood_reg_n1500_lrsearch_20ep")


@pytest.mark.parametrize("run", LIGHTWOOD)
def test_holdout91_lightwood_read_at_the_truths_steps(tmp_path, run):
    assert run in corpus_runs(H91, "lightwood_")
    data = (H91 / run / "train.log").read_bytes()
    truth = json.loads((H91 / run / "truth.json").read_text())
    pts = whole_as_live(tmp_path, data, run)
    got = dict(points_at(pts, "objective"))
    assert_at_truth(got, truth, run)
    assert sorted(got) == [s for s, _v in truth["train_loss"]]  # no later fit's epochs as steps after it
