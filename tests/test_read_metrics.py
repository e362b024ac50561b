"""read_metrics: small answers whatever the run's length, spikes and non-finite points kept, filters, errors."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from training_check.tools.downsample import downsample
from training_check.tools.errors import BadInput, RunNotFound
from training_check.tools.read_metrics import read_metrics

from tests.helpers import whole


def write_jsonl(path, n, spike_at=None, nan_at=None):
    rng = np.random.default_rng(0)
    with open(path, "w") as f:
        for s in range(1, n + 1):
            loss = 2 + 5 / np.sqrt(s) + rng.normal(0, 0.02)
            if s == spike_at:
                loss += 50
            rec = {"step": s, "loss": "NaN" if s == nan_at else loss, "lr": 3e-4, "grad_norm": 1 + rng.random(),
                   "tokens_per_sec": 1e5 + s % 100, "loss_scale": 65536.0}
            if s % 100 == 0:
                rec["eval_loss"] = loss + 0.1
            f.write(json.dumps(rec).replace('"NaN"', "NaN") + "\n")


@pytest.mark.parametrize("n", [1_000, 100_000])
def test_default_answer_for_six_metrics_stays_under_8kb(tmp_path, store, config, n):
    log = tmp_path / "m.jsonl"
    write_jsonl(log, n, spike_at=n // 3, nan_at=n // 2)
    r = read_metrics(str(log), store=store, config=config)
    d = r.to_dict()
    assert len(json.dumps(d)) < 8 * 1024
    assert r.last_step == n and len(r.metrics) == 6
    loss = next(m for m in r.metrics if m.name == "loss")
    assert loss.role == "train_loss" and loss.nan_count == 1 and len(loss.series) <= 50
    series = dict(loss.series)
    assert series[n // 2] == "nan"  # the NaN point is in the series
    spike = json.loads(log.read_text().splitlines()[n // 3 - 1])
    assert spike["step"] == n // 3 and series[n // 3] == float(f"{spike['loss']:.5g}")  # so is the spike (5 digits)


def test_keys_since_step_and_max_points(tmp_path, store, config):
    log = tmp_path / "m.jsonl"
    write_jsonl(log, 2000)
    r = read_metrics(str(log), store=store, config=config, keys=["eval_*"], since_step=1000, max_points=5)
    assert [m.name for m in r.metrics] == ["eval_loss"]
    m = r.metrics[0]
    assert m.count == 10 and len(m.series) <= 5 and m.series[0][0] > 1000
    with pytest.raises(BadInput, match=whole(f"none of the keys ['bleu'] is logged in {log}; logged metrics: loss, lr, "
                                             f"grad_norm, tokens_per_sec, loss_scale, eval_loss")):
        read_metrics(str(log), store=store, config=config, keys=["bleu"])
    with pytest.raises(BadInput, match=whole("max_points must be a whole number from 0 to 1000, got 1000000000")):
        read_metrics(str(log), store=store, config=config, max_points=10**9)


def test_missing_file_is_a_clear_error(tmp_path, store, config):
    missing = tmp_path / "nope.log"
    with pytest.raises(RunNotFound,
                       match=whole(f"no such file: {missing}; check the path (run references: see README)")):
        read_metrics(str(missing), store=store, config=config)


def test_downsample_keeps_extremes_and_every_nonfinite_stretch():
    rng = np.random.default_rng(1)
    n = 1_000_000
    v = rng.random(n)
    v[123_456] = 99.0
    v[500_000:500_010] = np.nan
    v[777_777] = -np.inf
    idx = downsample(np.arange(n), v, 50)
    assert len(idx) <= 50 and idx[0] == 0 and idx[-1] == n - 1
    kept = v[idx]
    assert 123_456 in idx and 777_777 in idx and 500_000 in idx and 500_009 in idx
    assert math.isnan(kept[list(idx).index(500_000)])
