"""The plot of a failed run (issue 21): a log axis when values span decades, the onset and the diagnosis' events
marked, and labels that never overlap (measured with matplotlib's own renderer)."""

from __future__ import annotations

from pathlib import Path

import matplotlib  # noqa: F401  (the optional 'plot' extra; the test extra installs it: missing is a failure)
import numpy as np
from matplotlib.lines import Line2D
from training_check.tools.assess import assess_run
from training_check.tools.plot import draw, plot_run

from tests.synthetic import frame_of

CAUSE_RUNS = Path(__file__).resolve().parents[1] / "examples" / "causes"


def _blow_up():
    rng = np.random.default_rng(2)
    steps = np.arange(1, 401)
    loss = np.concatenate([2.0 * np.exp(-steps[:300] / 80) + 0.3, 10.0 ** rng.uniform(1, 12, 100)])
    grad = np.concatenate([np.full(300, 1.0), 10.0 ** np.linspace(1, 11, 100)])
    return frame_of(steps, {"loss": loss, "grad_norm": grad, "lr": np.full(400, 1e-3)})


def test_a_blow_up_is_drawn_on_a_log_axis_with_the_onset_and_events_marked():
    findings = [{"signal": s, "status": st, "steps": [300 + 3 * i, 400]}
                for i, (s, st) in enumerate([("divergence", "critical"), ("spikes", "warn"), ("grad_norm", "warn"),
                                             ("loss_trend", "warn"), ("chance_level", "warn")])]
    diagnosis = {"cause": "lr_too_high", "onset_step": 301,
                 "events": ["step 250: loss at its best level 0.33", "step 301: loss rose above its best level",
                            "step 303: grad norm rose to ~1e11 (~1e11 x its level 1)"]}
    fig, panels, marked = draw(_blow_up(), title="run", findings=findings, verdict="STOP", diagnosis=diagnosis)
    try:
        axes = fig.axes
        assert panels[0] == "training loss" and marked == 5
        loss_ax = axes[panels.index("training loss")]
        grad_ax = axes[panels.index("grad norm")]
        assert loss_ax.get_yscale() == "log" and grad_ax.get_yscale() == "log"  # 1e12 would flatten a linear axis
        onset_lines = [ln for ln in loss_ax.get_lines() if isinstance(ln, Line2D)
                       and list(ln.get_xdata()) == [301.0, 301.0]]
        assert onset_lines  # the onset marked
        texts = [t.get_text() for t in loss_ax.texts]
        assert any(t.startswith("onset 301") and "lr_too_high" in t for t in texts)
        assert {"1", "2", "3"} <= set(texts)  # the events, numbered
        legend = " ".join(t.get_text() for t in fig.texts)
        assert "1: step 250" in legend and "3: step 303" in legend
        renderer = fig.canvas.get_renderer()
        boxes = [t.get_window_extent(renderer) for t in loss_ax.texts]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not a.overlaps(b), (a, b)  # the labels of windows that end together do not overlap
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_a_healthy_range_keeps_a_linear_axis():
    steps = np.arange(1, 201)
    fig, panels, _ = draw(frame_of(steps, {"loss": 2.0 * np.exp(-steps / 80) + 0.5}), title="run")
    try:
        assert fig.axes[0].get_yscale() == "linear"
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_plot_run_marks_the_stored_diagnosis(store, config, tmp_path):
    run = str(CAUSE_RUNS / "bad_batch_1" / "train.jsonl")
    a = assess_run(run, store=store, config=config)
    assert a.diagnosis is not None and a.diagnosis.onset_step == 300
    res = plot_run(run, tmp_path / "bad.png", store=store, config=config)
    assert res.verdict == "STOP" and Path(res.path).is_file()
