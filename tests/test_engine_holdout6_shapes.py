"""Shapes the reader missed on examples/libraries_holdout6 (issue 32), each written as a small log the way a library
prints it (with variants no library of the set prints) and read by the one engine, whole and in parts. Each shape is
general: a terminal's cursor-up and clear (a display redrawn in place between a table's rows), and a batch counter
that restarts each epoch and never says the epoch's length."""

from __future__ import annotations

import time

from training_check.tools.parsers.lines import erase_cleared, hold_display, split_lines
from training_check.tools.parsers.text import clean_text

from .test_engine_records import _in_reads, _same_in_reads

# -- a cursor-up n then a clear to the end of the screen: the n lines above are erased --------------------------------

UP4 = b"\x1b[4A\x1b[J"


def _progress(it: int, epoch: int, epochs: int) -> bytes:
    """pytorch-pfn-extras' ``ProgressBar``: a 4-line display."""
    return (f"     total [{'#' * (it // 4):.<50}] {it / 1.6:5.2f}%\n"
            f"this epoch [{'#' * (it % 20 * 2):.<50}] {it % 20 * 5:5.2f}%\n"
            f"{it:>10} iter, {epoch} epoch / {epochs} epochs\n"
            f"{1000 + it:>10} iters/sec. Estimated time to finish: 0:00:00.1.\n").encode()


def _ppe(epochs: int = 8, per_epoch: int = 20, bar_every: int = 5) -> tuple[bytes, list[int], list[float]]:
    """``PrintReport``'s table (a header, rows of ``{:<10g}`` cells, ``lr`` and ``val/loss`` at epoch ends) with the
    ``ProgressBar``'s display redrawn by ``ESC[4A ESC[J`` before each next display or row."""
    out = [b"epoch       iteration   train/loss  lr          val/loss    elapsed_time\n"]
    steps, losses = [], []
    drawn = False
    for it in range(bar_every, epochs * per_epoch + 1, bar_every):
        if it % per_epoch == 0:
            loss = round(1.3 / (1 + it / 40), 5)
            steps.append(it)
            losses.append(loss)
            row = f"{it // per_epoch:<12}{it:<12}{loss:<12g}{0.1:<12g}{loss + 0.1:<12g}{0.01 * it:<14g}\n"
            out.append((UP4 if drawn else b"\x1b[J") + row.encode())
            drawn = False
        out.append((UP4 if drawn else b"\x1b[J") + _progress(it, it // per_epoch, epochs))
        drawn = True
    return b"".join(out), steps, losses


def _shown(data: bytes) -> bytes:
    """What the terminal shows of ``data`` (the clears ``erase_cleared`` leaves for ``hold_display`` gone)."""
    return erase_cleared(data)[0].replace(b"\x1b[J", b"")


def test_a_cursor_up_and_clear_erases_the_lines_above():
    assert _shown(b"a\nb\nc\nd\ne\n" + UP4 + b"row\n") == b"a\nrow\n"
    assert erase_cleared(b"a\nb\nc\nd\ne\n" + UP4 + b"row\n" + b"\x1b[2A\x1b[Jx\n")[1] == 4  # the largest count
    assert _shown(b"a\nb\n\x1b[2F\x1b[0Jc\n") == b"c\n"  # ESC[nF: to the line's start; ESC[0J the same clear
    assert _shown(b"a\nbar 1\n\x1b[A\x1b[Jbar 2\n") == b"a\nbar 2\n"  # no count: one line
    # the cursor keeps its column: text before the codes on the current line sets it (and is erased with the rest)
    assert _shown(b"head\nabcdef\nxy\x1b[1A\x1b[JZ\n") == b"head\nabZ\n"
    # up past the data's start: it stops there (the read's block reaches no further)
    assert _shown(b"a\nb\n\x1b[9A\x1b[Jc\n") == b"c\n"
    # a cursor-up alone (no clear) and a clear alone erase nothing (the codes go later, with the others)
    for keep in (b"a\nb\n\x1b[1Ac\n", b"a\n\x1b[Jb\n", b"plain\n"):
        assert erase_cleared(keep) == (keep, 0)
    # the cleaned lines and the str cleaning agree
    data, _, losses = _ppe(epochs=2)
    lines = [bytes(ln) for ln in split_lines(data, mask=False).lines]
    assert lines[0] == b"epoch       iteration   train/loss  lr          val/loss    elapsed_time"
    assert [ln.split()[:3] for ln in lines[1:3]] == [[b"1", b"20", b"%g" % losses[0]],
                                                     [b"2", b"40", b"%g" % losses[1]]]
    assert b"total [" in lines[3] and len(lines) == 3 + 4 + 1  # the last display stays (and the final newline)
    assert clean_text(data.decode()).split("\n")[:4] == [ln.decode() for ln in lines[:3]] + [
        "     total [" + "#" * 10 + "." * 40 + "] 25.00%"]  # (the bar's glyphs are kept there)


def test_the_display_a_later_cursor_up_may_erase_waits_for_the_next_read():
    """After a clear at a line's start, the lines to the end (more than one, at most the largest cursor-up): held;
    a row alone after its clear is read; a display further back than the cursor-up reaches is read."""
    shown = b"\x1b[Jtotal 1\nepoch 1\n5 iter\n1 it/s\n"
    assert hold_display(b"hdr\n\x1b[J1 20 0.5\n" + shown, 4) == (b"hdr\n\x1b[J1 20 0.5\n", shown)
    assert hold_display(b"hdr\n\x1b[J1 20 0.5\n", 4) == (b"hdr\n\x1b[J1 20 0.5\n", b"")
    assert hold_display(b"hdr\n" + shown, 3) == (b"hdr\n" + shown, b"")
    assert hold_display(b"hdr\n" + shown + b"x\n" * 100, 4)[1] == b""
def test_erasing_is_linear():
    """Hostile runs of codes: many cursor-ups on one long line, a huge count, many lines: all in linear time."""
    for data in (b"x" * 200_000 + b"\x1b[1A\x1b[J" * 100_000, b"a\n" * 100_000 + b"\x1b[9999A\x1b[J" * 50_000,
                 (b"abcdefgh" * 4 + b"\n" + b"y" * 30 + b"\x1b[1A\x1b[J") * 50_000):
        t = time.perf_counter()
        erase_cleared(data)
        hold_display(data, 64)
        assert time.perf_counter() - t < 2.0


def test_a_table_under_a_redrawn_progress_display_reads_as_a_table():
    """pytorch-pfn-extras' ``PrintReport`` with ``ProgressBar``: the header and the rows are what the terminal
    shows; the display between them is erased before each row. Read whole and in parts."""
    data, steps, losses = _ppe()
    pts = _same_in_reads(data, every=1)
    assert pts["train/loss"] == (steps, losses)
    assert pts["val/loss"][0] == steps
    data, steps, losses = _ppe(epochs=15, per_epoch=20, bar_every=10)  # the display once an iteration or two
    assert _in_reads(data, [])["train/loss"] == (steps, losses)


# -- a batch counter restarting each epoch, its epoch's length never printed ------------------------------------------


def _ensemble(epochs: int, batches: int, every: int, first: int = 0, val: str | None = "Validation Loss"
              ) -> tuple[bytes, list[int]]:
    """torchensemble's logger: ``Epoch: 000 | Batch: 005 | Loss: 1.09794`` every ``every`` batches of each epoch
    (numbered from ``first``), then an epoch's validation line."""
    out, steps = [], []
    for e in range(epochs):
        for b in range(first, batches + first, every):
            steps.append(e * batches + b)
            out.append(f"2026-12-06 01:48:41,{b:03d} - INFO: Epoch: {e:03d} | Batch: {b:03d} | "
                       f"Loss: {2.0 / (1 + e * batches + b):.5f} | Correct: {b % 32}/32")
        if val:
            out.append(f"2026-12-06 01:48:42,000 - INFO: Epoch: {e:03d} | {val}: {1.0 / (e + 1):.5f} | "
                       f"Historical Best: {1.0 / (e + 1):.5f}")
    return ("\n".join(out) + "\n").encode(), steps


def test_a_restarting_batch_counter_numbers_epoch_major():
    """``Epoch: E | Batch: B``, every d batches from 0: step E x N + B with N = the last batch + d (the epoch's
    length is never printed); the validation line of an epoch at that epoch's last step; the read says so."""
    data, steps = _ensemble(6, 20, 5)
    pts = _same_in_reads(data, every=4)
    assert pts["Loss"][0] == steps
    assert pts["Validation Loss"][0] == [e * 20 + 15 for e in range(6)]
    assert _in_reads(_ensemble(5, 20, 2, val=None)[0], [])["Loss"][0] == _ensemble(5, 20, 2, val=None)[1]
    # a 1-based counter printed at multiples of d (5, 10, ..., 20): N = its last value
    data, steps = _ensemble(4, 20, 5, first=5, val=None)
    assert _in_reads(data, [])["Loss"][0] == steps
    # a run resumed mid-epoch: its first epoch starts late; the epoch's length from the next epoch's first value
    data, steps = _ensemble(3, 20, 5, val=None)
    cut = data.index(b"Batch: 010")
    data = data[data.rindex(b"\n", 0, cut) + 1:]
    assert _same_in_reads(data, every=2)["Loss"][0] == steps[2:]
    # every batch
    data, steps = _ensemble(3, 7, 1, val="Validation Acc")
    assert _same_in_reads(data, every=3)["Loss"][0] == steps


def test_a_batch_counter_printed_once_an_epoch_reads_by_epoch():
    """One line an epoch (``Batch: 000`` only): the epoch's length cannot be known; the steps are the epochs."""
    data, _ = _ensemble(10, 10, 10, val=None)
    assert _same_in_reads(data, every=3)["Loss"][0] == list(range(10))


def test_a_batch_field_without_an_epoch_is_unchanged():
    """No epoch in the line: the batch field is read as before (the new reading needs an epoch above it)."""
    data = b"".join(f"batch: {b} loss: {1.0 / (b + 1):.4f}\n".encode() for b in range(10))
    pts = _in_reads(data, [])
    assert "loss" in pts and len(pts["loss"][0]) == 10
