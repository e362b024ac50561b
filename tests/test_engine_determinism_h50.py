"""Determinism on examples/libraries_holdout50 (issue 32 point 5). A translation trainer's step records (``Epoch   1,
Step:       10, Batch Loss: 18.44, ...``) and its epochs' totals (``Epoch   1, total training loss: 475.81, ...``) are
both losses; a restart is looked for in the one chosen at the first read, in every read: a read holding more epoch
totals than step records no longer looks for it in the totals (steps 1, 2, 3 after step 50: "2 runs")."""

from __future__ import annotations

from .test_engine_holdout50_shapes import _joey
from .test_read_misses import _live, whole_as_live


def _data() -> bytes:
    text, *_ = _joey(6, 25, 10)
    lines = text.splitlines(keepends=True)
    return "".join(x for x in lines if "cfg.training.setting_" not in x or x.rstrip().endswith(" : 0")).encode()


def test_a_read_with_more_epoch_totals_than_step_records_starts_no_run(tmp_path):
    data = _data()
    whole = _live(tmp_path, data, [], name="whole")
    assert whole["Batch Loss"][0][:3] == [10, 20, 30], whole
    cut1 = data.index(b"num. of tokens", data.index(b"Epoch   2, total")) + 30  # mid epoch 2's total line
    cut2 = data.index(b"Batch Acc", data.index(b"Step:       80"))  # mid a step record, epoch 4
    assert _live(tmp_path, data, [cut1, cut2], name="pieces") == whole


def test_the_log_read_in_pieces_reads_as_whole(tmp_path):
    whole_as_live(tmp_path, _data(), "joey")
