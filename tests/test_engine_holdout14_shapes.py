"""The shapes the reader missed on examples/libraries_holdout14 (issue 32), written as the libraries print them and
read by the one engine, whole and in pieces:

- a metric's name, then a verb that says the value is its (MindSpore's ``LossMonitor``: ``epoch: 1 step: 5, loss is
  1.448``), the step counted within its epoch: the name is the metric's, the step global (a counter that restarts
  as the epoch moves); prose ending in a verb (``but hysteresis is 3``) stays prose;
- the objective by its long name (GPBoost's LightGBM-style ``[12]\\ttrain's Negative log-likelihood: 332.811``): the
  run's loss, as its short name (``nll``) would be.
"""

from __future__ import annotations

import random

from training_check.tools.objective import assign_roles
from training_check.tools.roles import short_name

from .test_read_misses import whole_as_live


def test_a_value_after_is_names_the_metric_and_the_epochs_step_is_global(tmp_path):
    rnd = random.Random(14)
    lines, want = [], {}
    loss = 1.6
    for epoch in range(1, 5):
        for step in range(5, 25, 5):
            loss *= 0.97 + 0.02 * rnd.random()
            lines.append(f"epoch: {epoch} step: {step}, loss is {loss!r}")
            want[(epoch - 1) * 20 + step] = loss
        lines.append("Train epoch time: 498.539 ms, per step time: 24.927 ms")
    lines.append("but hysteresis is 3")
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "mindspore.log")
    steps, values = pts["loss"]
    assert steps == sorted(want) and values == [want[s] for s in sorted(want)]
    assert not any("hysteresis" in k for k in pts), sorted(pts)


def test_the_objective_by_its_long_name_is_the_loss(tmp_path):
    text = "".join(f"[{i}]\ttrain's Negative log-likelihood: {846.5 - 19.1 * i:.3f}\n" for i in range(1, 31))
    pts = whole_as_live(tmp_path, text.encode(), "gpboost.log")
    (name,) = pts
    assert pts[name][0] == list(range(1, 31))
    assert assign_roles([name])[name].primary
    assert short_name("train's Negative log-likelihood") == "train's nll"
