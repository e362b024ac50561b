"""A JSON document of series kept as parallel arrays, ``{metric: {"steps": [...], "values": [...]}}``: Sacred's
FileStorageObserver writes its ``metrics.json`` so (``log_scalar`` per metric: steps, values, timestamps). Each value
at the step at its index, read through the real LogFileSource."""

from __future__ import annotations

import json
import math

import pytest
from training_check.tools.errors import TrainingCheckError

from .test_engine_tables import _read


def test_series_as_parallel_arrays_each_value_at_its_step(tmp_path):
    doc = {"training.loss": {"steps": [1, 2, 3], "timestamps": ["2026-12-05T20:06:03.27"] * 3,
                             "values": [1.5, 0.75, float("nan")]},
           "validation.loss": {"steps": [2, 4], "timestamps": ["t", "t"], "values": [0.9, None]}}
    _res, pts = _read(tmp_path, json.dumps(doc, indent=2).encode(), name="metrics.json")
    steps, values = pts["training.loss"]
    assert steps == [1, 2, 3] and values[:2] == [1.5, 0.75] and math.isnan(values[2])
    assert pts["validation.loss"] == ([2], [0.9])  # a value that is no number is skipped


def test_arrays_of_unequal_length_are_no_series(tmp_path):
    doc = {"loss": {"steps": [1, 2, 3], "values": [0.5, 0.4]}}
    with pytest.raises(TrainingCheckError, match="unknown shape"):
        _read(tmp_path, json.dumps(doc).encode(), name="metrics.json")
