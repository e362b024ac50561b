"""What libraries_holdout47 showed in the determinism test (issue 32 point 5): the same bytes read whole and in
pieces (a live log read after each piece appended) give the same points.

A trainer that draws a tqdm bar each epoch, its postfix the running loss (``  6%|▋  | 1/16 [00:00<00:00, 63.57it/s,
loss=1.12]``), then prints the epoch's record with an epoch of its own (``Epoch 1/8: loss=1.0377, val_loss=0.9541``):
the records are the run's points, the bar a live view of the same name (as tez's records printing their own step).
Read whole, the bar's redraws were kept as points among the records (and its restarts made a second run); read in
pieces, a read that saw only the bar so far kept them differently. Once a record of the bar's names shows, the file
is read again knowing it: the same points at any read size.
"""

from __future__ import annotations

from .test_read_misses import whole_as_live


def _bar_then_epoch_record(epochs: int = 8, per_epoch: int = 16) -> bytes:
    out = []
    for e in range(1, epochs + 1):
        out.append(f"Training epoch {e}/{epochs}\n")
        draws = [f"  0%|          | 0/{per_epoch} [00:00<?, ?it/s]"]
        for b in range(1, per_epoch + 1):
            pct = 100 * b // per_epoch
            run = 1.2 / (1 + 0.1 * ((e - 1) * per_epoch + b))
            draws.append(f"{pct:3d}%|#         | {b}/{per_epoch} [00:00<00:00, {300 + 7 * b:.2f}it/s, loss={run:.3g}]")
        out.append("\r" + "\r".join(draws) + "\n")
        out.append(f"Epoch {e}/{epochs}: loss={1.1 / (1 + 0.9 * e):.4f}, val_loss={1.0 / (1 + 0.8 * e):.4f}\n")
    out.append("Training finished.\n")
    return "".join(out).encode()


def test_a_bar_before_epoch_records_of_its_names_is_a_live_view_at_any_read_size(tmp_path):
    data = _bar_then_epoch_record()
    for cuts in ((0.03, 0.2, 0.37, 0.55, 0.81), (0.34, 0.66, 0.67, 0.87), (0.05, 0.09)):
        pts = whole_as_live(tmp_path, data, f"bar_epochs_{cuts[0]}", cuts)
        assert pts["loss"][0] == list(range(1, 9)), pts
        assert pts["val_loss"][0] == list(range(1, 9)), pts
