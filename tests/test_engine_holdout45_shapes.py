"""What examples/libraries_holdout45 showed (issue 32). A topic model's tqdm bar made over its epochs (no total:
``4it [00:00, 41.85it/s]``) whose description is set each epoch to the epoch's record (``Epoch: [4/20]\\t Seen
Samples: [2048/10240]\\tTrain Loss: 318.205...\\tTime: 0:00:00.021740: : 4it [...]``), redrawn now and then with the
same description at the next count (``5it``): the record names its own epoch and is placed there, the bar's count is
only a live view of it, a redraw of the same record no new point. A particle swarm's ``Iter: 4, Best fit:
[4.88189477] at [0.18394586 2.1883224  0.24352361]``: the one-element array is the number, the best fit found so far
the run's objective (minimised: it never rises), the position after ``at`` no metric; the step is ``Iter``."""

from __future__ import annotations

import math

from .test_read_misses import _live, primary_names, whole_as_live


def _epoch_bar(epochs: int, redraw_every: int = 5, pad_every: int = 3,
               seed: float = 333.4) -> tuple[bytes, list[float]]:
    out, losses = ["\r0it [00:00, ?it/s]"], []
    count = 0
    for e in range(1, epochs + 1):
        loss = seed - 40.0 * (1 - math.exp(-0.15 * e)) + 0.37 * (e % 3) + 1e-9 * e
        losses.append(loss)
        count = max(count, e)
        desc = (f"Epoch: [{e}/{epochs}]\t Seen Samples: [{512 * e}/{512 * epochs}]\tTrain Loss: {loss!r}\t"
                f"Time: 0:00:00.0{21000 + e}")
        pad = " " if e % pad_every == 0 else ""
        out.append(f"\r{desc}: : {count}it [00:00, {40 + e / 7:.2f}it/s]{pad}")
        if e % redraw_every == 4 and e < epochs:  # tqdm's clock: the same description at the next count
            count += 1
            out.append(f"\r{desc}: : {count}it [00:00, {41 + e / 7:.2f}it/s]")
    out.append(f"\r{desc}: : {count}it [00:00, 44.34it/s]\n")
    out.append("\r  0%|          | 0/8 [00:00<?, ?it/s]\r100%|##########| 8/8 [00:00<00:00, 701.51it/s]\n")
    out.append("[['w105', 'w235', 'w149'], ['w29', 'w120', 'w42']]\n")
    return "".join(out).encode(), losses


def test_a_bar_whose_description_prints_its_epoch_is_read_one_point_an_epoch_at_that_epoch(tmp_path):
    for epochs, redraw, pad in ((20, 5, 3), (15, 3, 4), (25, 4, 5), (12, 5, 100)):
        data, losses = _epoch_bar(epochs, redraw, pad)
        pts = whole_as_live(tmp_path, data, f"bar{epochs}.log")
        assert primary_names(pts) == ["Train Loss"], pts.keys()
        assert pts["Train Loss"][0] == list(range(1, epochs + 1)), pts["Train Loss"][0]
        assert pts["Train Loss"][1] == losses
    data, losses = _epoch_bar(20)
    for k in range(1, 9):  # cut anywhere: between a record and its redraw too
        pts = whole_as_live(tmp_path, data, f"cut{k}.log", cuts=tuple(k / 9 + j / 19 for j in range(2)))
        assert pts["Train Loss"][0] == list(range(1, 21)), (k, pts["Train Loss"][0])


def test_records_of_one_epoch_with_different_values_are_no_redraws(tmp_path):
    text = "".join(f"Epoch: [{e}/8]\tTrain Loss: {3.0 / (e + b):.6f}\n" for e in range(1, 9) for b in range(3))
    pts = _live(tmp_path, text.encode(), [])  # (read whole: numbered by line order, as before)
    assert pts["Train Loss"][0] == list(range(1, 25)), pts["Train Loss"]


def _swarm(iters: int, dim: int = 3) -> tuple[bytes, list[float]]:
    out, best = [], []
    b = 9.329264
    for i in range(iters):
        if i in (4, 5, 8) or i > 9 and i % 3 != 1:
            b = b * (0.55 if i < 30 else 0.8)
        best.append(float(f"{b:.8g}"))
        arr = "[" + "  ".join(f"{0.66 / (i + 1) * (k + 1):.8f}" for k in range(dim)) + "]"
        out.append(f"Iter: {i}, Best fit: [{b:.8g}] at {arr}\n")
    out.append(f"best_x is [0.1 0.2 0.3] best_y is [{b:.8g}]\n")
    return "".join(out).encode(), best


def test_a_swarms_best_fit_printed_as_an_array_is_its_objective_at_its_iteration(tmp_path):
    data, best = _swarm(60)
    pts = whole_as_live(tmp_path, data, "swarm.log")
    assert len(primary_names(pts)) == 1, pts.keys()
    name = primary_names(pts)[0]
    assert pts[name][0] == list(range(60)), pts[name][0]
    assert [round(v, 12) for v in pts[name][1]] == [round(v, 12) for v in best]
    assert not [k for k in pts if k.startswith(("at", "0", "1", "2"))], pts.keys()
