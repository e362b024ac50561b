"""A program's line that a progress bar's redraw cut into (``tools/parsers/interrupted.py``), and records naming their
own epoch under a bar of the run's epochs (``engine._bar_of_epochs``): generated variants whole and in pieces, and
the QuCumber run of examples/libraries_holdout73 read at its truth's steps."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from training_check.tools.parsers.interrupted import MAX_PIECE, hold_piece, rejoined

from .test_read_misses import _live, _read, whole_as_live

ROOT = Path(__file__).resolve().parents[1]
QUCUMBER = ROOT / "examples/libraries_holdout73/qucumber_field05_k1_progbar_50ep"


def _bar(n: int, total: int, desc: str = "Epochs : ", width: int = 10) -> bytes:
    fill = "\u2588" * (width * n // total)
    return (f"\r{desc}{100 * n // total:3d}%|{fill:<{width}}| {n}/{total} [00:00<00:00, 298.55it/s]").encode()


def _log(epochs: int, period: int, cut_at: dict[int, tuple[int, bool]], sep: str = "\t", desc: str = "Epochs : ",
         first_bar: bool = True) -> tuple[bytes, list[tuple[int, float]]]:
    """A run printing ``Epoch: e<sep>Fidelity = f<sep>KL = k`` every ``period`` epochs, a bar of its epochs drawn at
    its start and, at each epoch of ``cut_at``, redrawn (at the count given) between the record's first field and the
    rest (closing with its newline when the flag says so)."""
    out = _bar(0, epochs, desc) if first_bar else b""
    truth = []
    for e in range(period, epochs + 1, period):
        kl = round(1.5 / (1 + 0.1 * e), 6)
        truth.append((e, kl))
        head = f"Epoch: {e}{sep}".encode()
        rest = f"Fidelity = {1 - kl / 2:.6f}{sep}KL = {kl:.6f}\n".encode()
        if e in cut_at:
            n, closes = cut_at[e]
            out += head + _bar(n, epochs, desc) + (b"\n" if closes else b"") + rest
        else:
            out += head + rest
    return out + b"Total time elapsed during training:  0.187 s\n", truth


def test_a_piece_cut_by_a_bar_is_written_after_the_bar():
    data = b"Epoch: 25\tKL = 0.3\nEpoch: 30\t" + _bar(31, 50) + b"Fidelity = 0.87\tKL = 0.27\n"
    out = rejoined(data)
    lines = out.split(b"\n")
    assert lines[1].startswith(b"Epochs :  62%|") and lines[1].endswith(b"it/s]"), out
    assert lines[2] == b"Epoch: 30\tFidelity = 0.87\tKL = 0.27", out
    closing = b"Epoch: 50\t" + _bar(50, 50) + b"\nFidelity = 0.94\tKL = 0.10\n"
    assert rejoined(closing).split(b"\n")[1] == b"Epoch: 50\tFidelity = 0.94\tKL = 0.10"
    twice = b"loss: 0.5, " + _bar(3, 9, "") + _bar(4, 9, "") + b"acc: 0.7\n"
    assert rejoined(twice).split(b"\n")[1] == b"loss: 0.5, acc: 0.7"


@pytest.mark.parametrize("data", [
    b"plain redraws: loss 0.5\rloss 0.4\rloss 0.3\n",  # a line's own redraws, no bar: as printed
    _bar(3, 9) + _bar(4, 9) + b"\n",  # a bar's redraws, closed: as printed
    b"a\n" + _bar(3, 9) + b"Epoch: 3 loss 0.5\n",  # a line glued after a bar, no piece before it: as printed
    b"Epoch: 3\t" + _bar(3, 9) + b"\n\n",  # a bar closed, then a blank line: nothing to join
    b"Epoch: 3\t\rno bar here, loss 0.5\n",  # a \r not starting a bar
    b"x" * (MAX_PIECE + 1) + _bar(3, 9) + b"loss 0.5\n",  # no piece that long
])
def test_what_is_no_cut_in_line_stays_as_printed(data):
    assert rejoined(data) == data


def test_a_piece_at_a_reads_end_waits_for_the_next_read():
    assert hold_piece(b"Epoch: 25\tKL = 0.3\nEpoch: 30\t\r", True) == (b"Epoch: 25\tKL = 0.3\n", b"Epoch: 30\t\r")
    assert hold_piece(b"Epoch: 30\t\r", True) == (b"", b"Epoch: 30\t\r")
    assert hold_piece(b"Epoch: 30\t\r", False) == (b"Epoch: 30\t\r", b"")  # the rest of a line: no piece of its own
    for data in (b"a\n" + _bar(3, 9) + b"\r", b"a\nloss 0.5\rloss 0.4\r", b"a\nb\n", b"a\n   \r"):
        assert hold_piece(data, True) == (data, b"")


@pytest.mark.parametrize("seed", range(6))
def test_generated_runs_read_at_their_epochs_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    epochs = rng.choice([30, 50, 80])
    period = rng.choice([2, 5, 10])
    recs = list(range(period, epochs + 1, period))
    cut_at = {e: (min(epochs, e + rng.choice([0, 1])), e == recs[-1]) for e in rng.sample(recs, 3)}
    data, truth = _log(epochs, period, cut_at, sep=rng.choice(["\t", ", ", " | "]),
                       desc=rng.choice(["Epochs : ", "Training: ", ""]), first_bar=rng.random() < 0.8)
    got = whole_as_live(tmp_path, data, f"gen{seed}")
    assert [tuple(p) for p in zip(*got["KL"], strict=True)] == truth, (cut_at, got["KL"])


def test_the_corpus_run_reads_at_its_truths_epochs_whole_and_cut_at_every_break(tmp_path):
    data = (QUCUMBER / "train.log").read_bytes()
    truth = json.loads((QUCUMBER / "truth.json").read_text())["train_loss"]
    got = whole_as_live(tmp_path, data, "qucumber")
    assert got["KL"][0] == [s for s, _ in truth]
    assert got["KL"][1] == pytest.approx([v for _, v in truth], abs=5.1e-7)
    breaks = [i + 1 for i, b in enumerate(data) if b in (10, 13)]
    for k, c in enumerate(breaks):  # a read ending at each break (right after each \r too), then the rest
        for cut in (c - 1, c, c + 1):
            assert _live(tmp_path, data, [cut], name=f"q{k}_{cut}.log") == got, cut


def test_an_unfinished_piece_at_a_settled_files_end_is_read(tmp_path):
    """A file that stops at the ``\\r`` after a piece (the run killed as the bar redrew): the piece is read once the
    file has settled, as the line it is."""
    data, _ = _log(20, 5, {})
    data += b"Epoch: 25\tKL = 0.05 \r"
    cols = _read(tmp_path, data)
    assert cols["KL"][0][-1] == 20


def test_a_batch_bar_ahead_of_the_records_epochs_keeps_its_steps(tmp_path):
    """A bar counting batches (its count far ahead of the epoch a record prints): the records are not moved to their
    epoch numbers by the bar-of-epochs rule (the bar's reading stands)."""
    out = b""
    for e in range(1, 7):
        for n in range(1, 101, 33):
            out += f"\rEpoch {e}: {n}%|#| {n + 100 * (e - 1)}/600 [00:01<00:02, 50it/s, loss={1 / e:.3f}]".encode()
        out += f"\nEpoch: {e}\tKL = {1 / e:.6f}\n".encode()
    cols = _read(tmp_path, out)
    assert cols["KL"][0] != list(range(1, 7)), cols["KL"]


def test_hostile_pieces_read_in_bounded_time():
    """Many pieces and redraws, and a long line of \\r: one pass each (no error, the size bounded)."""
    many = (b"Epoch: 1\t" + _bar(1, 9) + b"loss 0.5\n") * 20000 + (b"x\r" * 200000) + b"\n"
    out = rejoined(many)
    assert out.count(b"Epoch: 1\tloss 0.5") == 20000 and len(out) <= len(many)
