"""What examples/libraries_holdout56 showed (issue 32, fixnetket). A variational Monte Carlo driver (netket) draws
one tqdm bar on stderr, redrawn with ``\\r`` on one line: at each driver step it sets its postfix, the energy estimate
printed with its error and its statistics (``Energy=-8.31 ± 0.12 [σ²=7.6e+00, R̂=1.006]``; an exact, full-sum
estimate ``Energy=-5.998e+00 [σ²=6.0e+00]``; a failed one ``Energy=nan ± nan [σ²=nan]``), drawn at the count before
its counter moves, then again when it moves. Its first energy (before any update) is drawn at 0, then the first
update's at 0 and at 1; tqdm's clock may redraw a state at the count it shows (no new value); at the end the bar
moves once more with the last energy. The energy at driver step k (the JSON log's ``iters``, 0-based) is read at k:

- a value printed with its error (``v ± e``, ``v +/- e``) is the value, the error no field (``lines.without_errors``);
- an estimate's statistics in brackets right after its value (``Dialect.estimate_statistics``) are no points;
- a variational energy named alone is minimised, the run's objective when no loss is logged, below zero by what it
  is (no surrogate loss: ``roles.is_energy``);
- a lagging bar's state before its first unit (``bar_steps.state_before_units``) is at 0; a redraw refreshing the
  state shown is no next unit's (``bar_steps.refreshes``); a unit's set is a log, an unchanged value too
  (``bar_steps.set_logs``);
- netket's own JSON log (``vmc.log``: ``{"Energy": {"iters": [...], "Mean": [...], ...}}``) read as series arrays.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.objective import assign_roles
from training_check.tools.parsers.fields import plan_template
from training_check.tools.parsers.lines import without_errors

from .test_read_misses import _read, primary_names, whole_as_live

ROOT = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout56"
NETKET = sorted(p.parent.name for p in ROOT.glob("netket_*/train.log"))


def _bar(n: int, total: int, postfix: str | None, rate: str) -> str:
    pct = int(100 * n / total)
    fill = "█" * (10 * n // total)
    body = f"{pct:3d}%|{fill:<10}| {n}/{total} [00:03<00:05, {rate}"
    return f"\r{body}]" if postfix is None else f"\r{body}, {postfix}]"


def _postfix(v: float, err: float, var: float, rhat: float | None, digits: int, style: str) -> str:
    if math.isnan(v):
        return "Energy=nan ± nan [σ²=nan]"
    if style == "exact":
        return f"Energy={v:.3e} [σ²={var:.1e}]"
    sep = " ± " if style == "pm" else " +/- "
    stats = f"[σ²={var:.1e}, R̂={rhat:.3f}]" if rhat is not None else f"[σ²={var:.1e}]"
    return f"Energy={v:.{digits}f}{sep}{err:.{digits}f} {stats}"


def _netket_log(energies: list[float], style: str, rng: random.Random, refresh: float = 0.2) -> tuple[str, list]:
    """A netket-shaped bar over ``len(energies)`` driver steps, and the printed energy at each step (0-based)."""
    total = len(energies)
    digits = rng.choice((2, 3, 4))
    fixes = []
    for v in energies:
        fixes.append(_postfix(v, abs(v) * 0.01 + 0.001, abs(v) * 0.7 + 0.01, 1.0 + rng.random() * 0.05, digits, style))
    out = [_bar(0, total, None, "?it/s"), _bar(0, total, None, "?it/s")]
    out += [_bar(0, total, fixes[0], "?it/s")] * rng.choice((1, 2, 3))
    for k in range(1, total):
        if k > 1 and rng.random() < refresh:  # tqdm's clock: the state shown redrawn at its count
            out.append(_bar(k - 1, total, fixes[k - 1], f"{rng.uniform(1, 300):.2f}it/s"))
        out.append(_bar(k - 1, total, fixes[k], f"{rng.uniform(1, 300):.2f}it/s") + " " * rng.choice((0, 0, 1)))
        out.append(_bar(k, total, fixes[k], f"{rng.uniform(1, 300):.2f}it/s"))
    out.append(_bar(total, total, fixes[-1], "250.00it/s"))
    out.append(_bar(total, total, fixes[-1], "7.21it/s") + " \n")
    printed = [float("nan") if math.isnan(v) else float(f"{v:.3e}" if style == "exact" else f"{v:.{digits}f}")
               for v in energies]
    return "".join(out), printed


def _same(got: list[float], want: list[float]) -> bool:
    return len(got) == len(want) and all(a == b or math.isnan(a) and math.isnan(b) for a, b in zip(got, want,
                                                                                                       strict=True))


def _energies(rng: random.Random, n: int, kind: str) -> list[float]:
    ground = -rng.uniform(4, 40)
    start = ground * rng.uniform(0.1, 0.8)
    e = [ground + (start - ground) * math.exp(-k / rng.uniform(3, 12)) + rng.gauss(0, 0.05) for k in range(n)]
    if kind == "stuck":  # a diverged state the sampler no longer leaves: one estimate, printed again every step
        at = rng.randint(min(2, n - 1), max(min(2, n - 1), n // 2))
        e[at:] = [e[at] / 3] * (n - at)
    elif kind == "nan":
        at = rng.randint(n // 2, max(n // 2, n - 3))
        e[at:] = [float("nan")] * (n - at)
    return e


@pytest.mark.parametrize("seed", range(18))
def test_the_bars_energy_at_each_driver_step_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    n = rng.choice((3, 8, 17, 30, 41, 64, 150))
    kind = ("healthy", "stuck", "nan")[seed % 3]
    style = ("pm", "plusminus", "exact")[seed // 3 % 3 if kind == "healthy" else 0]
    text, printed = _netket_log(_energies(rng, n, kind), style, rng, refresh=rng.choice((0.0, 0.2, 0.6)))
    cuts = tuple(sorted(rng.random() for _ in range(rng.randint(1, 9))))
    pts = whole_as_live(tmp_path, text.encode(), f"nk{seed}.log", cuts=cuts)
    assert sorted(pts) == ["Energy"], sorted(pts)  # no error, no statistics of their own
    steps, values = pts["Energy"]
    assert steps[:n] == list(range(n)), steps
    assert _same(values[:n], printed), (values, printed)
    assert steps[n:] in ([], [n]) and values[n:] in ([], [printed[-1]]) or math.isnan(printed[-1])
    assert primary_names(pts) == ["Energy"]


def _bar_log(draws: list[tuple[int, float]], total: int) -> bytes:
    return "".join(_bar(c, total, f"loss={v:.4f}", "3.1it/s") for c, v in draws).encode() + b"\n"


def test_one_value_at_zero_is_the_first_units(tmp_path):
    """PyKEEN's epoch bar draws its first loss at 0 before its counter moves, one state there: epoch 1's (its
    counter's first move shows it), no state before the run's units."""
    draws = [(0, 1.02), (1, 1.02), (1, 0.98), (2, 0.98), (2, 0.95), (3, 0.95), (3, 0.91), (4, 0.91)]
    cols = _read(tmp_path, _bar_log(draws, 4))
    assert cols["loss"] == ([1, 2, 3, 4], [1.02, 0.98, 0.95, 0.91]), cols


def test_two_values_at_zero_then_a_move_that_skips_are_units(tmp_path):
    """A bar that skips redraws (pytorch-metric-learning's description set each iteration, drawn at ``0/60`` twice,
    then at ``2/60``) shows units' values at 0: no state before them."""
    draws = [(0, 64.3), (0, 57.7), (2, 57.7), (2, 56.4), (2, 51.9), (5, 51.9), (5, 49.2), (8, 49.2)]
    cols = _read(tmp_path, _bar_log(draws, 8))
    assert cols["loss"][0][0] == 1 and 0 not in cols["loss"][0], cols  # no state before the units


def test_two_values_at_zero_then_a_move_by_one_is_the_state_before_the_units(tmp_path):
    draws = [(0, 2.0), (0, 2.0), (0, 1.5), (1, 1.5), (1, 1.2), (2, 1.2), (2, 1.1), (3, 1.1), (3, 1.1)]
    cols = _read(tmp_path, _bar_log(draws, 3))
    assert cols["loss"] == ([0, 1, 2, 3], [2.0, 1.5, 1.2, 1.1]), cols


def test_a_value_with_its_error_is_the_value():
    assert without_errors("Energy=-8.31 ± 0.12 [σ²=7.6e+00]".encode()) == "Energy=-8.31 [σ²=7.6e+00]".encode()
    assert without_errors(b"loss=0.52+/-0.03, acc=0.5 +/- 10%") == b"loss=0.52, acc=0.5"
    assert without_errors("E=nan ± nan".encode()) == b"E=nan"
    for kept in ("Gain ± 3", "v1.2 +/- foo", "Hannan ± 3", "a ± b"):
        assert without_errors(kept.encode()) == kept.encode()


@pytest.mark.parametrize("line", ["step 4 loss 0.52 +/- 0.03 acc 0.5 ± 0.1", "step 4 loss=0.52±0.03, acc=0.5+/-0.1",
                                  "step 4 | loss = 0.52 ± 0.03 | acc 0.5"])
def test_records_of_values_with_errors(tmp_path, line):
    """``+/-`` is looked for only in a log whose lines showed one (a template planned from them): the file is read
    again from its start knowing it, the same whole and in pieces."""
    head = "".join(f"setting {k}: value {k}\n" for k in range(300))  # (the first values with errors a later read's)
    rows = [line.replace("step 4", f"step {s}").replace("0.52", f"{0.9 - s / 100:.2f}") for s in range(1, 13)]
    cols = whole_as_live(tmp_path, (head + "\n".join(rows) + "\n").encode(), "errors.log")
    assert sorted(cols) == ["acc", "loss"], sorted(cols)
    assert cols["loss"] == (list(range(1, 13)), [round(0.9 - s / 100, 2) for s in range(1, 13)])


def test_bracketed_statistics_of_a_value_are_no_points_other_brackets_stay():
    plan = plan_template(["step 4 loss 0.52 [σ²=7.6e+00, R̂=1.006] acc 0.5".encode()])
    assert plan is not None and sorted(plan.metrics.values()) == ["acc", "loss"], plan
    plan = plan_template([b"[valid] mae=9.9181, loss=143.3494 [e=0 steps=16]"])
    assert plan is not None and "loss" in plan.metrics.values() and plan.step is not None  # tez's position stays
    plan = plan_template([b"step 3 loss 0.5 [var=0.1] lr 0.1"])
    assert plan is not None and sorted(plan.metrics.values()) == ["loss", "lr"], plan


def test_an_energy_is_the_objective_only_when_no_loss_is_logged():
    roles = assign_roles(["Energy", "acceptance"])
    assert roles["Energy"].primary and roles["Energy"].direction == "min"
    roles = assign_roles(["Energy", "loss"])
    assert roles["loss"].primary and not roles["Energy"].primary
    roles = assign_roles(["Energy_RMSE (eV/atom)", "Force_RMSE (eV/A)"])
    assert roles["Energy_RMSE (eV/atom)"].primary  # (an RMSE first, as before)
    roles = assign_roles(["energy", "mse"])
    assert roles["mse"].primary
    assert assign_roles(["kinetic energy"])["kinetic energy"].direction is None


def test_a_negative_energy_is_no_surrogate():
    import pandas as pd
    from training_check.tools.frame import MetricFrame
    from training_check.tools.signals.view import build_view

    e = [-5.0 - 3 * (1 - math.exp(-k / 5)) for k in range(40)]
    frame = MetricFrame({"Energy": pd.Series(e, index=range(40))}, assign_roles(["Energy"]))
    view = build_view(frame)
    assert view.objective == "Energy" and not view.adversarial


def _vmc_json(n: int, complex_mean: bool = False) -> tuple[bytes, list[float]]:
    e = [-8.0 - 2 * (1 - math.exp(-k / 6)) for k in range(n)]
    mean: object = {"real": e, "imag": [0.0] * n} if complex_mean else e
    doc = {"Energy": {"iters": list(range(n)), "Mean": mean, "Variance": [1.0 / (k + 1) for k in range(n)],
                      "Sigma": [0.1] * n, "R_hat": [1.01] * n, "TauCorr": [0.0] * n},
           "acceptance": {"iters": list(range(n)), "value": [0.9] * n},
           "info": {"solver_fallback": {"iters": list(range(n)), "value": [False] * n}}}
    return json.dumps(doc).encode(), e


@pytest.mark.parametrize("complex_mean", [False, True])
def test_netkets_json_log_is_series_at_its_iters(tmp_path, complex_mean):
    data, e = _vmc_json(23, complex_mean)
    cols = _read(tmp_path, data, name="vmc.log")
    assert cols["Energy"] == (list(range(23)), e)
    assert "Energy/Variance" in cols and "acceptance" in cols and "Energy/Mean" not in cols
    assert primary_names(cols) == ["Energy"]


def _truth(run: str) -> list[tuple[int, float]]:
    t = json.loads((ROOT / run / "truth.json").read_text())
    return [(int(s), float(v)) for s, v in t["train_loss"]], t["tolerance"]


@pytest.mark.parametrize("run", NETKET)
def test_the_corpus_files_read_at_the_truths_steps(tmp_path, run):
    pts = whole_as_live(tmp_path, (ROOT / run / "train.log").read_bytes(), f"{run}.log")
    assert primary_names(pts) == ["Energy"]
    got = dict(zip(*pts["Energy"], strict=True))
    truth, tol = _truth(run)
    for s, v in truth:
        assert s in got, (run, s)
        if math.isnan(v):  # (the JSON log's NaN: -inf in the bar at the first failed step)
            assert not math.isfinite(got[s]), (run, s, got[s])
        else:
            assert abs(got[s] - v) <= tol["abs"] + tol["rel"] * abs(v), (run, s, got[s], v)
    assert set(got) - {s for s, _ in truth} <= {len(truth)}  # at most the bar's last move, with the last energy
    cols = _read(tmp_path, (ROOT / run / "vmc.log").read_bytes(), name=f"{run}_vmc.log")
    assert [s for s, v in truth if math.isfinite(v)] == cols["Energy"][0]  # (its NaN written as null: no point)
