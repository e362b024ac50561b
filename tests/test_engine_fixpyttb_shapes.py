"""What examples/libraries_holdout100 showed of pyttb 1.8.6 (fixpyttb; ``tools/parsers/objective_estimates.py``).

GCP-OPT's stochastic solvers print, through Python's logging, an estimate of their objective once an epoch
(``INFO:root:Epoch 0: f-est = 54.5990702363435, step = 0.01``, or behind a time format's preamble, with ``, nfails =
1 (resetting to solution from last epoch)`` on a failed epoch), after an ``Initial f-est: 5.406391e+02`` line; a
warm start's ``cp_als`` output (`` Iter 0: f = 7.867189e-01 f-delta = 7.9e-01``: a fit, rising) lands at the file's
end (a buffered stdout). The rules: an estimate of the objective is the objective; a ``step`` with a fraction is a
step size, no counter; an initial value before the first epoch is at step 0, the epochs then counted as done (``Epoch
k`` at k + 1); a fit beside its change is maximised, never the objective. Each read whole and appended in pieces."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from training_check.tools.parsers.dialect import DIALECT
from training_check.tools.parsers.fields import plan_template
from training_check.tools.parsers.objective_estimates import (
    after_the_end,
    epochs_done,
    final_of,
    has_fraction,
    initial_of,
    is_estimate,
)
from training_check.tools.roles import infer_role

from .test_read_misses import _live, assert_at_truth, corpus_runs, judged_in_pieces, points_at, primary_names

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout100"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402

FIT = DIALECT.fit_name

PREAMBLES = {
    "root": lambda t: "INFO:root:",
    "time": lambda t: f"2026-12-07 23:{t // 60 % 60:02d}:{t % 60:02d},{t * 37 % 1000:03d} INFO root: ",
    "named": lambda t: "INFO:gcp.solver:",
}


def gcp_log(epochs: int, preamble: str = "root", name: str = "f-est", initial: bool = True, first: int = 0,
            fails: int = 4, warm: int = 0, seed: int = 0, start: float = 540.0,
            rate: float = 0.01) -> tuple[str, list[tuple[int, float]], list[float]]:
    """A GCP-OPT-like log: the welcome block, ``Initial <name>: %e`` (``initial``), ``Epoch k: <name> = repr, step =
    rate`` from ``first`` (every ``fails``-th a failed epoch, its rate cut), the end block, then (``warm``) that many
    ``cp_als`` fit lines printed late. The truth: the objective at the epochs done (the initial value at 0, epoch k at
    k + 1), or at the epoch printed when no initial value is printed; and the fit's values."""
    rng = random.Random(seed)
    pre = PREAMBLES[preamble]
    out = [pre(0) + "\n", "GCP-OPT-SGD (Generalized CP Tensor Decomposition)\n", "\n",
           "Tensor shape: (20, 15, 10) (3000 total entries)\n", "GCP rank: 3\n",
           "Generalized function type: GAUSSIAN\n", pre(0) + "Begin Main loop\n"]
    truth: list[tuple[int, float]] = []
    if initial:
        out.append(f"Initial {name}: {start:e}\n")
        out.append("\n")
        truth.append((0, float(f"{start:e}")))
    v, nf = start, 0
    for k in range(first, first + epochs):
        v = v * (0.5 + 0.4 * rng.random()) if k < first + 3 else v * (0.97 + 0.06 * rng.random())
        line = pre(k + 1) + f"Epoch {k}: {name} = {v!r}, step = {rate!r}"
        if fails and k % fails == fails - 1:
            nf += 1
            line += f", nfails = {nf} (resetting to solution from last epoch)"
            rate = rate / 10
        out.append(line + "\n")
        truth.append((k + 1 if initial and first == 0 else k, v))
    out += [pre(first + epochs + 1) + "End Main Loop\n", f"Final {name}:  {v:.4e}\n", "Main loop time:  0.11\n",
            f"Total iterations: {epochs * 30}\n"]
    fit: list[float] = []
    if warm:
        out.append("CP_ALS:\n")
        f = 0.5 + 0.3 * rng.random()
        for i in range(warm):
            f_new = f + (1 - f) * 0.2 * rng.random()
            out.append(f" Iter {i}: f = {f_new:e} f-delta = {abs(f_new - f):7.1e}\n")
            fit.append(float(f"{f_new:e}"))
            f = f_new
        out.append(f" Final f = {f:e}\n")
    return "".join(out), truth, fit


VARIANTS = [
    dict(epochs=13),
    dict(epochs=22, preamble="time", fails=5),
    dict(epochs=8, name="obj_est", fails=3),
    dict(epochs=30, preamble="named", fails=0, start=3.76e3),
    dict(epochs=10, preamble="time", warm=20, start=29.77),
    dict(epochs=24, warm=7, fails=2, start=2678.0, rate=0.02),
    dict(epochs=12, name="fest", preamble="time", warm=12),
]


def _check(pts: dict, truth: list[tuple[int, float]], fit: list[float], label: str) -> None:
    got = points_at(pts, "objective")
    assert [s for s, _ in got] == [s for s, _ in truth], (label, got[:3], truth[:3])
    for (_, g), (_, t) in zip(got, truth, strict=True):
        assert math.isclose(g, t, rel_tol=1e-12), (label, g, t)
    assert primary_names(pts) == ["objective"], label
    assert "step" not in pts and all(0 < v < 1 for v in pts[DIALECT.step_size_name][1]), label
    assert FIT not in pts and "f-delta" not in pts, label  # (a warm start's fit, printed after the end: set aside)


@pytest.mark.parametrize("kw", VARIANTS, ids=[str(i) for i in range(len(VARIANTS))])
def test_an_estimate_of_the_objective_at_the_epochs_done(tmp_path, kw):
    text, truth, fit = gcp_log(**kw, seed=len(str(kw)))
    data = text.encode()
    whole = _live(tmp_path, data, [], name="whole.log")
    _check(whole, truth, fit, str(kw))
    rng = random.Random(len(data))
    for t in range(4):  # cut anywhere, mid-line too: before the first epoch, right after the initial value ...
        cuts = sorted(rng.sample(range(1, len(data)), 1 + 2 * t))
        live = _live(tmp_path, data, cuts, name=f"live{t}.log")
        assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), cuts
    at_initial = data.index(b"Initial") if b"Initial" in data else 10
    for cut in (at_initial, at_initial + 8, data.index(b"\n", at_initial) + 1, data.index(b"Epoch 0") + 5,
                data.index(b"\n", data.index(b"Epoch 0")) + 1):
        live = _live(tmp_path, data, [cut], name=f"cut{cut}.log")
        assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), cut


@pytest.mark.parametrize("seed", [1, 2])
def test_a_warm_start_printed_at_once_before_the_run(tmp_path, seed):
    """The warm start's ``cp_als`` block printed before the run (stdout unbuffered): its fit read (maximised, at its
    iterations), the run's initial value still at step 0 and its epochs done, whole and in pieces (a read ending in
    the block, before the run's first line)."""
    text, truth, fit = gcp_log(10, preamble="time", warm=15, start=29.77, seed=seed)
    head, block = text.split("CP_ALS:\n")
    data = ("CP_ALS:\n" + block + head).encode()
    whole = _live(tmp_path, data, [], name="first.log")
    assert points_at(whole, "objective") == truth and points_at(whole, FIT) == list(enumerate(fit))
    assert primary_names(whole) == ["objective"]
    end = data.index(b"GCP-OPT")
    for cuts in ([end - 5], [end + 40], [end // 2, end + 200], [data.index(b"Epoch 0") + 3]):
        live = _live(tmp_path, data, cuts, name=f"first{cuts[0]}.log")
        assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), cuts


def test_no_initial_value_no_epochs_done(tmp_path):
    """With no initial value printed, ``Epoch k``'s value is at k (the epoch printed), as before."""
    text, truth, _ = gcp_log(12, initial=False, seed=3)
    pts = _live(tmp_path, text.encode(), [], name="plain.log")
    assert [s for s, _ in points_at(pts, "objective")] == list(range(12)) == [s for s, _ in truth]


def test_epochs_from_one_after_an_initial_value_stay(tmp_path):
    """Epochs counted from 1 after an initial value already count the epochs done: the initial value at 0, ``Epoch
    k`` at k."""
    text, truth, _ = gcp_log(9, first=1, seed=4)
    pts = _live(tmp_path, text.encode(), [], name="from1.log")
    assert [s for s, _ in points_at(pts, "objective")] == list(range(10)) == [s for s, _ in truth]


def test_the_names_and_their_negatives():
    assert is_estimate("f-est", DIALECT) and is_estimate("obj_est", DIALECT) and not is_estimate("f", DIALECT)
    assert not is_estimate("estimate", DIALECT) and not is_estimate("f-delta", DIALECT)
    assert initial_of("initial f-est", DIALECT) and initial_of("initial objective", DIALECT)
    assert not initial_of("initial learning rate", DIALECT) and not initial_of("initial loss scale", DIALECT)
    assert not initial_of("f-est", DIALECT) and not initial_of("final f-est", DIALECT)
    assert has_fraction(b"0.01") and has_fraction(b"5.000000000000001e-06") and has_fraction(b"2.5")
    assert not has_fraction(b"3") and not has_fraction(b"3.0") and not has_fraction(b"1e3") and not has_fraction(
        b"nan") and not has_fraction(b"inf") and not has_fraction(b"abc")


def test_plans_of_the_shapes_and_what_they_must_not_catch():
    p = plan_template([b"INFO:root:Epoch 0: f-est = 54.5990702363435, step = 0.01"])
    assert p is not None and p.epoch is not None and p.step is None
    assert sorted(p.metrics.values()) == ["objective", "step_size"]
    p = plan_template([b"Initial f-est: 5.406391e+02"])
    assert p is not None and p.initial and p.is_record and list(p.metrics.values()) == ["objective"]
    p = plan_template([b" Iter 0: f = 7.867189e-01 f-delta = 7.9e-01"])
    assert p is not None and p.step is not None and sorted(p.metrics.values()) == sorted([FIT, "f-delta"])
    # a whole step stays the step; a step with a fraction in one sample of several is no step
    p = plan_template([b"Epoch 0: loss = 0.52, step = 100", b"Epoch 1: loss = 0.41, step = 200"])
    assert p is not None and p.step is not None and list(p.metrics.values()) == ["loss"]
    p = plan_template([b"step 10 loss 0.52"])
    assert p is not None and p.step is not None
    p = plan_template([b"Epoch 3: loss = 0.52, step = 20", b"Epoch 4: loss = 0.41, step = 0.5"])
    assert p is not None and p.step is None and DIALECT.step_size_name in p.metrics.values()
    # L-BFGS-B's ``f`` with no change beside it stays the objective it minimises
    p = plan_template([b"At iterate    3    f=  2.46423E+00    |proj g|=  1.10304E-02"])
    assert p is not None and "objective" in p.metrics.values() and FIT not in p.metrics.values()
    # an initial value of something else is no initial value of the objective
    p = plan_template([b"Initial learning rate: 0.1"])
    assert p is None or not p.initial
    p = plan_template([b"Epoch 0: initial f-est = 3.2"])
    assert p is None or not p.initial


def test_epochs_done_decided_once():
    st: dict = {"initial0": ["objective"]}
    assert epochs_done("objective", 0.0, st) and epochs_done("objective", 8.0, st)  # (kept: decided at the first)
    st = {"initial0": ["objective"]}
    assert not epochs_done("objective", 1.0, st) and not epochs_done("objective", 0.0, st)
    assert not epochs_done("loss", 0.0, {})


def _runs() -> list[str]:
    return corpus_runs(FOLDER, "pyttb_")


@pytest.mark.parametrize("run", _runs())
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    data = (folder / "train.log").read_bytes()
    pts = _live(tmp_path, data, [], name="whole.log")
    cuts = [int(c * len(data)) for c in (0.03, 0.2, 0.37, 0.55, 0.81)]
    live = _live(tmp_path, data, cuts, name="live.log")
    assert json.dumps(live, sort_keys=True) == json.dumps(pts, sort_keys=True), run
    assert primary_names(pts) == ["objective"], run
    got = dict(zip(*pts["objective"], strict=True))
    assert_at_truth(got, truth, run)
    assert len(got) == len(truth["train_loss"]) + 1, run  # (and the last epoch's, pyttb's trace leaves it out)
    assert FIT not in pts and "f-delta" not in pts, run


@pytest.mark.parametrize("run", _runs())
def test_the_corpus_runs_verdicts(run):
    entry = next(json.loads(line) for line in (FOLDER / "manifest.jsonl").read_text().splitlines()
                 if json.loads(line)["file"] == f"{run}/train.log")
    res = read_corpus.check_file(FOLDER, entry, verdicts=True)
    assert res.read, (run, res.why)
    if entry["should_stop"]:
        assert res.verdict == "STOP", (run, res.verdicts, res.summary)
    else:
        assert res.verdict != "STOP" and "S" not in res.verdicts, (run, res.verdicts, res.summary)


def cp_als_log(iters: int, seed: int = 0) -> tuple[str, list[float]]:
    """``cp_als``'s output alone: `` Iter i: f = %e f-delta = %7.1e``, a fit rising to 1; its values."""
    rng = random.Random(seed)
    f, out, fit = 0.55 + 0.1 * rng.random(), ["CP_ALS:\n"], []
    for i in range(iters):
        g = f + (1 - f) * 0.15 * rng.random()
        out.append(f" Iter {i}: f = {g:e} f-delta = {abs(g - f):7.1e}\n")
        fit.append(float(f"{g:e}"))
        f = g
    out.append(f" Final f = {f:e}\n")
    return "".join(out), fit


def _verdict(tmp_path, data: bytes, name: str) -> tuple[str, str]:
    return judged_in_pieces(tmp_path, data, name, (0.5, 0.75))


@pytest.mark.parametrize("iters", [12, 40])
def test_a_fit_beside_its_change_is_maximised_never_a_loss(tmp_path, iters):
    """A decomposition's fit alone (no run's end before it): read as ``fit (maximised)`` at its iterations, whole and
    in pieces, the run's objective higher-better: rising, no STOP."""
    text, fit = cp_als_log(iters, seed=iters)
    data = text.encode()
    pts = _live(tmp_path, data, [], name="cp.log")
    assert points_at(pts, FIT) == list(enumerate(fit))
    assert infer_role(FIT).role == "train_metric" and infer_role(FIT).direction == "max"
    rng = random.Random(iters)
    live = _live(tmp_path, data, sorted(rng.sample(range(1, len(data)), 3)), name="cp_live.log")
    assert json.dumps(live, sort_keys=True) == json.dumps(pts, sort_keys=True)
    verdict, summary = _verdict(tmp_path, data, f"cp{iters}")
    assert verdict != "STOP", summary


def test_the_late_block_only_after_the_objectives_final_value(tmp_path):
    """The block set aside is a series printed after the objective's final value naming nothing the run named; with
    no final line (a log cut before it), or a series naming the run's objective again (a second run's records), it
    is read."""
    text, truth, _ = gcp_log(10, warm=0, seed=5)
    cp, fit = cp_als_log(8, seed=5)
    no_end = text.replace("Final f-est:", "Best f-est:") + cp
    pts = _live(tmp_path, no_end.encode(), [], name="noend.log")
    assert points_at(pts, FIT) == list(enumerate(fit))
    late = _live(tmp_path, (text + cp).encode(), [], name="late.log")
    assert FIT not in late and [s for s, _ in points_at(late, "objective")] == [s for s, _ in truth]
    assert final_of("final f-est", DIALECT) and final_of("final objective", DIALECT)
    assert not final_of("final loss", DIALECT) and not final_of("final f", DIALECT) and not final_of("f-est", DIALECT)
    st: dict = {"names": ["objective"], "run_end": True}
    p_obj = plan_template([b"Epoch 3: f-est = 2.5, step = 0.01"])
    p_fit = plan_template([b" Iter 0: f = 7.867189e-01 f-delta = 7.9e-01"])
    kept = after_the_end([(p_obj, np.array([1, 2])), (p_fit, np.array([3, 4]))], st)
    assert [k[0] for k in kept] == [p_obj] and st["late_block"] == 2
