"""Shapes of examples/libraries_holdout36 (issue 32, fixh36).

imitation's behavioral cloning logs through stable-baselines3's logger: a table between dashed borders each
``log_interval`` batches, a section row then indented keys (``| bc/ |`` / ``|    batch | 10 |`` / ``|    epoch | 0
|``), each table after a tqdm bar's prefix on the same line (``0batch [00:00, ?batch/s]-----``). Its ``batch`` never
restarts when the epoch changes: a counter is per epoch only if it resets there, a global counter is the step (read
at the epoch, one point an epoch, before).

BrainPy's trainer prints ``Train 2 steps, use 1.0567 s, loss 2.1616`` / ``Test 2 steps, ...`` and ``Train 0 epoch,
use 0.7330 s, loss 1.3099``: the count before its noun is the record's position (read by line order before), the
split word its split (``Test``: an evaluation).
"""

from __future__ import annotations

from .test_read_misses import primary_names, whole_as_live

_BORDER_PAD = " " * 24


def _sb3_table(rows: list[tuple[str, str]]) -> str:
    w = max(len(k) for k, _ in rows) + 2
    cells = [f"| {k:<{w}}| {v:<10}|" for k, v in rows]
    rule = "-" * len(cells[0])
    return f"{_BORDER_PAD}0batch [00:00, ?batch/s]{rule}\n" + "\n".join(cells) + f"\n{rule}\n"


def _imitation(batches_per_epoch: int, epochs: int, every: int, loss=lambda b: 0.7 * 0.99 ** b) -> tuple[str, list]:
    out = ["4 expert episodes, 2000 transitions\n"]
    truth = []
    for b in range(0, batches_per_epoch * epochs, every):
        v = round(loss(b), 3)
        truth.append((b, v))
        out.append(_sb3_table([("batch_size", "32"), ("bc/", ""), ("   batch", str(b)),
                               ("   ent_loss", "-0.000693"), ("   epoch", str(b // batches_per_epoch)),
                               ("   l2_loss", "0"), ("   loss", repr(v)), ("   neglogp", repr(v)),
                               ("   samples_so_far", str(32 * (b + 1)))]))
    out.append(f"{_BORDER_PAD}{batches_per_epoch}batch [00:00, 900batch/s]\n")
    return "".join(out), truth


def test_a_logger_tables_batch_that_never_restarts_at_the_epochs_change_is_its_step(tmp_path):
    text, truth = _imitation(63, 4, 10)
    pts = whole_as_live(tmp_path, text.encode(), "bc.log")
    assert primary_names(pts) == ["bc/loss"], pts.keys()
    assert pts["bc/loss"] == ([b for b, _ in truth], [v for _, v in truth])


def test_a_table_an_epoch_at_a_global_batch_is_read_at_the_batch(tmp_path):
    """The default interval (500 batches) logs once in an epoch or less: every table at a new epoch, its batch
    climbing on."""
    text, truth = _imitation(313, 8, 500)
    pts = whole_as_live(tmp_path, text.encode(), "bc_default.log")
    assert pts["bc/loss"][0] == [0, 500, 1000, 1500, 2000, 2500]


def test_a_batch_that_restarts_each_epoch_is_no_step(tmp_path):
    """A per-epoch batch index (it goes back where the epoch changes) is not the step: the epoch stays."""
    out = []
    for e in range(4):
        for b in (0, 10, 20):
            out.append(_sb3_table([("train/", ""), ("   batch", str(b)), ("   epoch", str(e)),
                                   ("   loss", repr(round(1 / (1 + e * 3 + b / 10), 3)))]))
    pts = whole_as_live(tmp_path, "".join(out).encode(), "per_epoch.log")
    assert set(pts["train/loss"][0]) <= {0, 1, 2, 3}, pts["train/loss"]

