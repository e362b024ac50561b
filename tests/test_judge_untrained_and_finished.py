"""Two judgements of a run's ends (tools/signals/divergence.py, ``_never_below_first``; tools/signals/loss_trend.py,
a flat end at the run's last step):

- a loss made worse than the untrained model from its first update on and held there (all but a tenth of its later
  logs above its first log, their median twice it or more) has diverged, however wildly it bounces (a classifier's
  cross-entropy between 1 and 9 after a first log of 0.69: holdout58's paddlenlp run at a constant LR of 0.5);
- a run that learned and then sat flat is not stalled at its last planned step: nothing is left to save by stopping it
  nor to ask a reviewer."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from training_check.tools.assess import assess_run
from training_check.tools.judge import CONTINUE, STOP

REPO = Path(__file__).resolve().parents[1]


def _log(tmp_path: Path, values: list[float], name: str = "train.log") -> str:
    path = tmp_path / name
    path.write_text("".join(f"step {i + 1} | loss {v:.5f} | lr 0.5\n" for i, v in enumerate(values)))
    return str(path)


def _bouncing(seed: int, n: int, first: float, low: float, high: float) -> list[float]:
    rng = random.Random(seed)
    return [first] + [math.exp(rng.uniform(math.log(low), math.log(high))) for _ in range(n - 1)]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n", (16, 24, 60))
def test_a_loss_held_above_its_first_log_from_the_first_update_stops(tmp_path, store, config, seed, n):
    values = _bouncing(seed, n, 0.69, 1.5, 9.0)  # (never back down to twice the first)
    got = assess_run(_log(tmp_path, values), store=store, config=config)
    assert got.verdict == STOP, got.summary
    assert "diverged" in got.summary  # (from its first log, or blown up by an order of magnitude when it is so)


def test_a_few_logs_back_under_the_first_still_count_as_held_above(tmp_path, store, config):
    values = _bouncing(7, 30, 0.76, 1.0, 8.0)
    values[12] = values[25] = 0.7  # two of 29 later logs under the first: a tenth at most
    got = assess_run(_log(tmp_path, values), store=store, config=config)
    assert got.verdict == STOP, got.summary


@pytest.mark.parametrize("seed", range(4))
def test_a_noisy_loss_that_learns_is_not_held_above_its_first_log(tmp_path, store, config, seed):
    """Controls: a small batch's noisy loss falling from chance; a warm-up's rise that comes back under the first log;
    a loss whose later logs sit above the first but under twice it (a first log of a lucky batch)."""
    rng = random.Random(seed)
    falling = [0.69 * (0.55 + 0.45 * math.exp(-i / 8)) * math.exp(rng.gauss(0, 0.25)) for i in range(40)]
    warmup = [0.69, 0.8, 1.1, 1.3, 1.2, 1.0] + [0.69 * 0.97 ** i for i in range(30)]
    lucky = [0.5] + [0.69 * 0.99 ** i for i in range(30)]
    for name, values in (("falling", falling), ("warmup", warmup), ("lucky", lucky)):
        got = assess_run(_log(tmp_path, values, f"{name}.log"), store=store, config=config)
        assert got.verdict != STOP, (name, got.summary)
        assert "diverged from its first log" not in got.summary


def _flat_end(tmp_path: Path, total: int, upto: int) -> str:
    """A run of ``total`` planned steps (``step i/total``) that learns for 15 steps (2.0 -> 1.2), then sits flat
    (never near zero: no "converged to a small share of its start"); logged to ``upto``."""
    rng = random.Random(total)
    values = [1.2 + 0.8 * 0.7 ** i for i in range(15)] + [1.2 + rng.gauss(0, 0.002) for _ in range(total - 15)]
    path = tmp_path / f"flat_{total}_{upto}.log"
    path.write_text("".join(f"step {i + 1}/{total} | loss {v:.5f}\n" for i, v in enumerate(values[:upto])))
    return str(path)


def test_a_flat_end_at_the_runs_last_step_is_finished_not_stalled(tmp_path, store, config):
    """A run that learned, then sat flat for most of its planned steps, checked at its last step: nothing is left to
    save by stopping it nor to ask a reviewer about (holdout56's netket energies converge so by iteration 15 of 30)."""
    got = assess_run(_flat_end(tmp_path, 60, 60), store=store, config=config)
    assert got.verdict == CONTINUE, got.summary
    trend = next(f for f in got.findings if f.signal == "loss_trend")
    assert "finished" in trend.message, trend.message


def test_the_same_flat_stretch_before_the_end_is_still_judged(tmp_path, store, config):
    """The same run checked before its end: the plateau is still judged (a stall is only excused at the last step)."""
    for upto in (40, 50):
        got = assess_run(_flat_end(tmp_path, 60, upto), store=store, config=config)
        trend = next(f for f in got.findings if f.signal == "loss_trend")
        assert "finished" not in trend.message, (upto, trend.message)


def test_a_hump_coming_back_down_is_not_held_above_its_first_log(store, config):
    """jmetal's simulated annealing from a warm start (libraries_holdout28, healthy): its current fitness climbs from
    0.42 to 1.55 while the temperature is high, then cools back under its first log. Once its level is back under twice
    the first it is no divergence, however many logs sat above it."""
    path = REPO / "examples" / "libraries_holdout28" / "jmetal_sa_sphere_warm_300ev_f10" / "train.log"
    for step in (200, 250, 300):
        got = assess_run(str(path), store=store, config=config, as_of_step=step)
        assert got.verdict != STOP, (step, got.summary)


def test_a_rise_under_the_start_held_a_few_logs_is_asked_not_stopped_on_two_checks(store, config):
    """holdout57's healthy OpenCLIP run (timm's SGD): its contrastive loss gives back half its progress for 7 logs
    (3.21 -> 3.45 after 3.68 at its start, its eval loss worse too), then falls again for the rest of the run. Checked
    at consecutive steps as cron would, the rise is a reviewer's question on both checks, never a STOP
    (``judge._rise_confirmed``: under its start and held under 10 logs)."""
    path = REPO / "examples" / "libraries_holdout57" / "openclip_timmsgd_n512_val_5ep" / "train.log"
    got = [assess_run(str(path), store=store, config=config, as_of_step=s).verdict for s in (26, 30, 32, 36, 52, 79)]
    assert STOP not in got, got
    assert got[1:3] == ["ESCALATE", "ESCALATE"], got
