"""Shapes the reader missed on examples/libraries_holdout4 (issue 32, "records, not lines"), each written as a small
log the way a library prints it and read by the one engine; the same bytes read in parts give the same points. Each
shape is general: a rule any library's log can meet, with what is library-specific kept as data in ``dialect.py``."""

from __future__ import annotations

from training_check.tools.parsers.fields import stamp_end

from .test_engine_records import _same_in_reads


def _stamped_epochs(epochs: int, stamp: str) -> bytes:
    """Epoch records behind a logging time stamp whose date is words and numbers (``logging.Formatter`` with
    ``datefmt="%d %b %H:%M"``, RecBole's stdout; ``%a %d %b %Y %H:%M:%S`` its file), an evaluation's line after each."""
    out = []
    for e in range(epochs):
        out.append(f"{stamp}    INFO  epoch {e} training [time: 0.04s, train loss: {7.0 - 0.3 * e:.4f}]")
        out.append(f"{stamp}    INFO  epoch {e} evaluating [time: 0.01s, valid_score: {0.02 * (e + 1):.6f}]")
    return ("\n".join(out) + "\n").encode()


def test_a_day_month_clock_stamp_is_no_step_nor_metric():
    """``05 Dec 20:28    INFO  epoch 0 training [...]``: the day opening the line is no step (it read epochs at
    5, 10, 15 ...) and ``Dec 20`` is no metric; the records sit at their epochs."""
    pts = _same_in_reads(_stamped_epochs(8, "05 Dec 20:28"), every=2)
    assert pts["train loss"][0] == list(range(8))
    assert not {"Dec", "val_Dec"} & set(pts)


def test_a_weekday_date_year_clock_stamp_is_no_metric():
    pts = _same_in_reads(_stamped_epochs(6, "Sat 05 Dec 2026 20:28:13"), every=3)
    assert pts["train loss"][0] == list(range(6))
    assert not {"Sat", "Dec"} & set(pts)


def test_what_is_a_stamp():
    assert stamp_end(b"05 Dec 20:28    INFO  epoch 0") == len(b"05 Dec 20:28")
    assert stamp_end(b"[2026-12-05 20:09:24,782] step 5") == len(b"[2026-12-05 20:09:24,782]")
    # a clock with no date, numbers opening a row or a counter at line start: no stamp
    assert stamp_end(b"0  0.523  0.611  00:05") == 0
    assert stamp_end(b"12:\tlearn: 0.69\ttest: 0.70") == 0
    assert stamp_end(b"20:28:13 step 5 loss 0.3") == 0
