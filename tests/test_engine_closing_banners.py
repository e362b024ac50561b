"""Issue 32, an epoch banner on its own line that closes its epoch: the record with no position of its own printed
before it is that epoch's (``Train loss: 0.68`` ... ``************ Epoch=1 end ************``, its start banner
printed for the first epoch only). Told from a banner whose record follows it (Avalanche's ``Epoch 0 ended.`` then
the epoch's metrics, ``tests/test_engine_banners.py``) by the log's first banner: a record printed before it.

And a record whose next line names only its position, an epoch and a batch within it (FuxiCTR's ``Train loss:
0.68`` then ``Evaluation @epoch 2 - batch 8:``, every ``eval_steps`` batches): the global batch, the epoch's length
said once (``Start training: 32 batches/epoch``); the same with its tqdm bar on stdout, each log line glued to the
bar's last redraw (``94%|...| 30/32 [00:02<00:00, 30.43it/s]2026-12-05 ... INFO Train loss: 0.51``).
Written as the library prints it, read by the one engine; the same bytes read in parts give the same points."""

from __future__ import annotations

import json

from .test_read_misses import _live

SPE = 32  # batches an epoch


def _fuxictr(epochs: int, stamp: bool, start_banner: bool, eval_steps: int = 0, position: bool = False,
             bar: bool = False) -> tuple[bytes, list[int], list[float]]:
    """``BaseModel.fit``: the train loss every ``eval_steps`` batches (0: once an epoch), the evaluation (its
    ``Evaluation @epoch E - batch B:`` line when ``position``), then ``Epoch=E end``; ``bar``: a tqdm bar per epoch
    on stdout, redrawn with ``\\r``, the log lines glued to its last redraw. (steps, losses) as the log has them."""
    pre = "2026-12-05 23:37:53,505 P9087 INFO " if stamp else ""
    out = [f"{pre}Start training: {SPE} batches/epoch"]
    if start_banner:
        out.append(f"{pre}************ Epoch=1 start ************")
    every = eval_steps or SPE
    steps, losses = [], []
    total = 0
    for e in range(1, epochs + 1):
        drawn = ""
        for b in range(1, SPE + 1):
            total += 1
            if bar:
                drawn += f"\r{100 * b // SPE:3d}%|##   | {b}/{SPE} [00:01<00:00, 24.27it/s]"
            if total % every:
                continue
            loss = round(0.7 - 0.001 * total + 0.0001 * (total % 7), 6)
            steps.append(total if eval_steps else e)
            losses.append(loss)
            lines = [f"{pre}Train loss: {loss:.6f}"]
            if position:
                lines.append(f"{pre}Evaluation @epoch {e} - batch {b}: ")
            lines += [f"{pre}[Metrics] AUC: {0.7 + total / 1e4:.6f}", f"{pre}Save best model: monitor(max)=0.7"]
            if bar:
                lines[0], drawn = drawn + lines[0], ""
            out += lines
        out.append(f"{drawn}{pre}************ Epoch={e} end ************")
    out.append(f"{pre}Training finished.")
    return ("\n".join(out) + "\n").encode(), steps, losses


def _same_live(tmp_path, data: bytes, name: str) -> dict:
    whole = _live(tmp_path, data, [], name="whole_" + name)
    for k in (3, 7):
        cuts = [60, *(len(data) * i // k for i in range(1, k))]
        live = _live(tmp_path, data, cuts, name=f"live{k}_" + name)
        assert json.dumps(live) == json.dumps(whole), (name, k)
    return whole


def test_record_before_a_closing_banner_is_that_epochs(tmp_path):
    for epochs, stamp, start in ((6, True, True), (9, False, True), (7, True, False)):
        data, steps, losses = _fuxictr(epochs, stamp, start)
        whole = _same_live(tmp_path, data, f"fx_{epochs}_{stamp}_{start}.log")
        assert whole["Train loss"] == (steps, losses), (epochs, stamp, start, whole)


def test_a_record_takes_the_position_its_next_line_names(tmp_path):
    for epochs, eval_steps, bar in ((6, 10, False), (5, 8, True), (4, 0, False), (4, 0, True)):
        data, steps, losses = _fuxictr(epochs, True, True, eval_steps, position=True, bar=bar)
        whole = _same_live(tmp_path, data, f"fxp_{epochs}_{eval_steps}_{bar}.log")
        want = steps if eval_steps else [e * SPE for e in steps]  # (once an epoch: at the epoch's last batch)
        assert whole["Train loss"] == (want, losses), (epochs, eval_steps, bar, whole["Train loss"])


def test_a_position_line_heading_the_records_after_it_is_not_theirs(tmp_path):
    """``Epoch: 1, Batch: 10`` then ``loss: 0.5``: the log's first position line comes before any record: it heads
    the records after it, and no record takes the position of the line after it."""
    out, losses = [], []
    for k in range(1, 13):
        e, b = (k - 1) // 4 + 1, (k - 1) % 4 * 8 + 8
        losses.append(round(1.0 - k / 50, 4))
        out += [f"Epoch: {e}, Batch: {b}", f"loss: {losses[-1]}"]
    whole = _live(tmp_path, ("\n".join(out) + "\n").encode(), [], name="head.log")
    assert whole["loss"][1] == losses
    assert whole["loss"][0] != [8 * k for k in range(2, 13)]  # never the next line's position
