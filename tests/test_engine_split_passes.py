"""Issue 32, a counter's position from its name: a split's name right before ``(n/N)`` counts that split's passes,
the epoch (catalyst's console logger ``train (3/8) loss: 0.52 | ...``); the record printed at that epoch is its point,
not a progress bar's display of a batch's value at the same epoch."""

from __future__ import annotations

from .test_engine_tables import _read


def _split_passes(epochs: int, with_bars: bool) -> bytes:
    """catalyst's console: per epoch (with ``verbose``) a tqdm bar per loader described ``e/E * Epoch (train)``
    whose postfix shows the batch's loss, then ``train (e/E) loss: <the epoch's mean> | lr: ...`` per loader."""
    out = []
    for e in range(1, epochs + 1):
        mean = 1.0 / e
        if with_bars:
            redraws = [f"{e}/{epochs} * Epoch (train): {100 * b // 4:3d}%|##| {b}/4 [00:00<00:00, 9.1it/s, "
                       f"loss={mean + 0.1 * (b - 2):.3f}, lr=0.020]" for b in range(5)]
            out.append("\r" + "\r".join(redraws))
        out.append(f"train ({e}/{epochs}) accuracy01: {0.5 + e / 100} | loss: {mean} | loss/std: 0.05 | lr: 0.02")
        out.append(f"valid ({e}/{epochs}) accuracy01: {0.4 + e / 100} | loss: {mean + 0.1} | lr: 0.02")
        out.append(f"* Epoch ({e}/{epochs}) ")
    return ("\n".join(out) + "\n").encode()


def test_a_splits_pass_counter_is_the_epoch_and_its_record_beats_the_bar(tmp_path):
    """``train (3/8) ... loss: X``: the split's pass n of N is the epoch; the record's loss (the epoch's mean) is the
    point at it, not the bar's display of a batch's loss."""
    for bars in (False, True):
        _res, pts = _read(tmp_path, _split_passes(6, bars))
        assert pts["loss"] == (list(range(1, 7)), [1.0 / e for e in range(1, 7)]), bars
        assert pts["val_loss"][0][-1] == 6 and pts["val_loss"][1][-1] == 1.0 / 6 + 0.1


def test_a_splits_bracketed_counter_stays_a_batch_counter(tmp_path):
    """torchvision's ProgressMeter prints ``val[ 3/40]`` per evaluation batch: no epoch."""
    from training_check.tools.parsers.fields import plan_template

    plan = plan_template([b"val[ 0/40]\tTime  2.986 ( 2.986)\tLoss 3.6274e+00 (3.6274e+00)",
                          b"val[10/40]\tTime  2.051 ( 2.051)\tLoss 3.5924e+00 (3.5924e+00)"])
    assert plan is not None and plan.epoch is None
