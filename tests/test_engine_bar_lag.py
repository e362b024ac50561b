"""Issue 32, a tqdm bar whose logged value is drawn at a count that lags behind the unit it belongs to (tqdm moves
its count only at its redraw interval; ``set_postfix``/``set_description`` redraw at once with the count it last
showed). Two shapes: a bar per epoch whose value is set once, at the epoch's last batch, and drawn at the count of
the bar's first redraw (torch-rechub's ``loss=``: the epoch's value, at the epoch's end, a value that stays the same
from one epoch to the next a point too); and a description set at every iteration, drawn many times at one count
(pytorch-metric-learning's ``total_loss=``: each drawing is an iteration, the k-th since the count last moved at
count + k). Written as the libraries print them, read by the one engine; the same bytes read in parts give the same
points."""

from __future__ import annotations

import random

from .test_read_misses import _live, whole_as_live

CUTS = (0.2, 0.37, 0.55, 0.81)  # the log appended in pieces (cut at shares of its bytes, mid-line too), read after each



_FULL = "\u2588" * 10


def _per_epoch_bar(epochs: int, per_epoch: int, values: list[float], val: bool) -> bytes:
    """``epoch: N`` (stdout), then a bar whose ``loss=`` is set at its last batch and drawn at 0/N, its close at N/N,
    then an optional validation bar and ``epoch: N validation: auc: ...``."""
    out = []
    for e in range(epochs):
        v = values[e]
        out.append(f"epoch: {e}\n")
        out.append(f"\rtrain:   0%|          | 0/{per_epoch} [00:00<?, ?it/s]"
                   f"\rtrain:   0%|          | 0/{per_epoch} [00:00<?, ?it/s, loss={v:.3g}]"
                   f"\rtrain: 100%|{_FULL}| {per_epoch}/{per_epoch} [00:00<00:00, 109.44it/s, loss={v:.3g}]\n")
        if val:
            out.append(f"\rvalidation:   0%|          | 0/2 [00:00<?, ?it/s]"
                       f"\rvalidation: 100%|{_FULL}| 2/2 [00:00<00:00, 817.92it/s]\n")
            out.append(f"epoch: {e} validation: auc: {0.6 + e / 100}\n")
    out.append("test auc: 0.81\n")
    return "".join(out).encode()


def test_value_set_once_per_epoch_bar_is_the_epochs_at_its_end(tmp_path):
    values = [0.666 - 0.03 * e for e in range(10)]
    pts = whole_as_live(tmp_path, _per_epoch_bar(10, 10, values, val=True), "val", cuts=CUTS)
    assert pts["loss"] == ([10 * (e + 1) for e in range(10)], [float(f"{v:.3g}") for v in values])


def test_value_set_once_per_epoch_bar_repeated_across_epochs_is_a_point_each_epoch(tmp_path):
    values = [0.6, 0.58, 0.84, 0.95, 23.5, 61.3, 59.5, 60.8, 60.8, 60.8, 60.8, 54.2]  # a run saturated for 4 epochs
    pts = whole_as_live(tmp_path, _per_epoch_bar(12, 25, values, val=False), "saturated", cuts=CUTS)
    assert pts["loss"] == ([25 * (e + 1) for e in range(12)], values)


def test_value_set_once_per_epoch_bar_repeated_from_the_first_epochs_is_a_point_each_epoch(tmp_path):
    """Repeats before the redraw rule could tell (``bar_steps.value_changes``'s early repeats, pinned by a read in
    pieces): the grid put the value once per epoch, so each repeat is the epoch's value, with or without validation."""
    values = [0.6, 0.6, 0.6, 0.6, 0.5, 0.5, 0.4, 0.3, 0.3, 0.3, 0.2, 0.2] + [0.19 - e / 100 for e in range(10)]
    for val in (False, True):
        pts = whole_as_live(tmp_path, _per_epoch_bar(22, 25, values, val=val), f"early_{val}", cuts=CUTS)
        assert pts["loss"] == ([25 * (e + 1) for e in range(22)], values), val


def test_value_set_once_per_epoch_bar_read_ending_after_its_epoch_banner(tmp_path):
    """A read that ends after ``epoch: N`` and before its bar: the banner's epoch carries to the next read's bar."""
    values = [0.666 - 0.03 * e for e in range(10)]
    data = _per_epoch_bar(10, 10, values, val=True)
    whole = _live(tmp_path, data, [], name="banner_whole")
    for e in (2, 5, 9):  # (a cut in the first epoch, its lines still one-offs, may read otherwise: not yet)
        at = data.index(f"epoch: {e}\n".encode()) + len(f"epoch: {e}\n")
        assert _live(tmp_path, data, [at - 40, at], name=f"banner_{e}") == whole, e


def _lagging_descriptions(epochs: int, iters: int, seed: int, nan_from: int | None = None) -> tuple[bytes, list]:
    """``TRAINING EPOCH e``, then per epoch a bar: each iteration sets the description (``total_loss=...``) and it is
    drawn at the count tqdm last showed; now and then (a random interval) the count moves to the iteration, redrawn
    with the same description; the bar's close at N/N. (the log, the iterations' losses)"""
    rnd = random.Random(seed)
    out, losses = [], []
    for e in range(1, epochs + 1):
        out.append(f"INFO:PML:TRAINING EPOCH {e}\n")
        shown = 0
        bar = [f"  0%|          | 0/{iters} [00:00<?, ?it/s]"]
        for i in range(1, iters + 1):
            g = (e - 1) * iters + i
            v = float("nan") if nan_from is not None and g >= nan_from else round(2.0 / (1 + 0.05 * g)
                                                                                   + rnd.random() * 0.01, 5)
            losses.append(v)
            d = f"total_loss={v:.5f}"
            bar.append(f"{d}: {100 * shown // iters:3d}%|          | {shown}/{iters} [00:00<00:00, 70.00it/s]")
            if i == iters or rnd.random() < 0.15:
                shown = i
                bar.append(f"{d}: {100 * shown // iters:3d}%|#         | {shown}/{iters} [00:00<00:00, 70.00it/s]")
        out.append("\r".join(bar) + "\n")
    return "".join(out).encode(), losses


def test_description_drawn_every_iteration_at_a_lagging_count_is_each_iteration(tmp_path):
    data, losses = _lagging_descriptions(3, 60, seed=4)
    pts = whole_as_live(tmp_path, data, "pml", cuts=CUTS)
    assert pts["total_loss"] == (list(range(1, 181)), losses)


def test_description_read_while_its_first_window_is_drawn_is_each_iteration(tmp_path):
    """A read that ends among the drawings at one stale count (the log appended mid-bar): the window goes on in the
    next read, its drawings counted across both (``bar_steps._unit_windows``), so the same points at any cut."""
    data, losses = _lagging_descriptions(3, 60, seed=4)
    whole = _live(tmp_path, data, [], name="pml_whole")
    assert whole["total_loss"] == (list(range(1, 181)), losses)
    first = data.index(b"total_loss=")
    for k, at in enumerate(range(first + 40, first + 2000, 97)):
        assert _live(tmp_path, data, [at], name=f"pml_cut{k}") == whole, at
        assert _live(tmp_path, data, [first + 5, at, at + 300], name=f"pml_cuts{k}") == whole, at


def test_description_drawn_every_iteration_other_sizes(tmp_path):
    for epochs, iters, seed in ((2, 40, 1), (4, 30, 7)):
        data, losses = _lagging_descriptions(epochs, iters, seed)
        pts = whole_as_live(tmp_path, data, f"pml_{seed}", cuts=CUTS)
        assert pts["total_loss"] == (list(range(1, epochs * iters + 1)), losses), (epochs, iters, seed)


def test_description_that_stays_nan_is_a_point_each_iteration(tmp_path):
    data, losses = _lagging_descriptions(3, 40, seed=3, nan_from=70)
    steps, values = whole_as_live(tmp_path, data, "pml_nan", cuts=CUTS)["total_loss"]
    assert steps == list(range(1, 121))
    assert values[:69] == losses[:69] and all(v != v for v in values[69:])
