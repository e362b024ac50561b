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



def _brainpy(n: int, noun: str, every: int = 1, test_every: int = 0, loss=lambda i: 2.0 * 0.9 ** i) -> str:
    out, t = [], 0
    for i in range(n):
        at = (i + 1) * every if noun == "steps" else i
        out.append(f"Train {at} {noun}, use {1.0567 if i == 0 else 0.0024:.4f} s, loss {loss(i)!r}\n")
        if test_every and (i + 1) % test_every == 0:
            t += every if noun == "steps" else 1
            out.append(f"Test {t if noun == 'steps' else i} {noun}, use 0.0011 s, loss {loss(i) / 2!r}\n")
    return "".join(out)


def test_a_count_before_its_step_noun_opening_the_record_is_its_position(tmp_path):
    pts = whole_as_live(tmp_path, _brainpy(40, "steps", every=2, test_every=4).encode(), "bp_steps.log")
    assert primary_names(pts) == ["loss"], pts.keys()
    assert pts["loss"][0] == list(range(2, 82, 2))
    assert pts["val_loss"][0] == list(range(2, 22, 2))


def test_a_count_before_an_epoch_noun_is_the_epoch(tmp_path):
    pts = whole_as_live(tmp_path, _brainpy(10, "epoch").encode(), "bp_epoch.log")
    assert primary_names(pts) == ["loss"] and "Train" not in pts, pts.keys()
    assert pts["loss"][0] == list(range(10))
    pts = whole_as_live(tmp_path, _brainpy(10, "epoch", test_every=1).encode(), "bp_epoch_test.log")
    assert pts["loss"][0] == list(range(10)) and pts["val_loss"][0] == list(range(10)), pts.keys()


def test_a_count_of_things_or_a_length_in_prose_stays_a_count(tmp_path):
    text = "".join(f"Found 8 images, epoch {e}, loss {1 / (e + 1)!r}\n" for e in range(6))
    text += "".join(f"Training for 100 steps, step {s}, loss {1 / (s + 1)!r}\n" for s in range(6, 12))
    pts = whole_as_live(tmp_path, text.encode(), "counts.log")
    assert pts["loss"][0][:6] == list(range(6)), pts


def test_an_epoch_record_printed_as_a_bars_description_is_read_at_its_epoch(tmp_path):
    """The record as a tqdm bar's description, drawn twice at the bar's close (``Train 0 epoch, use 1.82 s, loss
    0.829: 100%|████| 8/8 [...]``): one point an epoch, at the epoch printed, not the bar's count."""
    full = "\u2588" * 10
    out = []
    for e in range(6):
        v = 0.83 * 0.6 ** e
        rec = f"Train {e} epoch, use {1.823 if e == 0 else 0.0089:.4f} s, loss {v!r}: 100%|{full}| 8/8 "
        out.append(f"\r  0%|          | 0/8 [00:00<?, ?it/s]\r{rec}[00:00<00:00, 894.16it/s]"
                   f"\r{rec}[00:00<00:00, 842.40it/s]\n")
    pts = whole_as_live(tmp_path, "".join(out).encode(), "bp_bar.log")
    assert primary_names(pts) == ["loss"], pts.keys()
    assert pts["loss"][0] == list(range(6)), pts["loss"]
