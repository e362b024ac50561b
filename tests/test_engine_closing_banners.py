"""Issue 32, an epoch banner on its own line that closes its epoch: the record with no position of its own printed
before it is that epoch's (FuxiCTR's ``Train loss: 0.68`` ... ``************ Epoch=1 end ************``; its start
banner printed for the first epoch only). Told from a banner whose record follows it (Avalanche's ``Epoch 0 ended.``
then the epoch's metrics, ``tests/test_engine_banners.py``) by the log's first banner: a record printed before it.
Written as the library prints it, read by the one engine; the same bytes read in parts give the same points."""

from __future__ import annotations

import json

from .test_read_misses import _live


def _fuxictr(epochs: int, stamp: bool, start_banner: bool) -> tuple[bytes, list[float]]:
    """``BaseModel.fit`` with ``eval_steps=None``: per epoch the train loss, the evaluation, then ``Epoch=E end``."""
    pre = "2026-12-05 23:37:53,505 P9087 INFO " if stamp else ""
    out = [f"{pre}Start training: 32 batches/epoch"]
    if start_banner:
        out.append(f"{pre}************ Epoch=1 start ************")
    losses = []
    for e in range(1, epochs + 1):
        loss = round(0.7 - 0.03 * e + 0.001 * (e % 3), 6)
        losses.append(loss)
        out += [f"{pre}Train loss: {loss:.6f}", f"{pre}Evaluation @epoch {e} - batch 32: ",
                f"{pre}[Metrics] AUC: {0.7 + e / 100:.6f}", f"{pre}Save best model: monitor(max)={0.7 + e / 100:.6f}",
                f"{pre}************ Epoch={e} end ************"]
    out.append(f"{pre}Training finished.")
    return ("\n".join(out) + "\n").encode(), losses


def test_record_before_a_closing_banner_is_that_epochs(tmp_path):
    for epochs, stamp, start in ((6, True, True), (9, False, True), (7, True, False)):
        data, losses = _fuxictr(epochs, stamp, start)
        name = f"fx_{epochs}_{stamp}_{start}.log"
        whole = _live(tmp_path, data, [], name="whole_" + name)
        assert whole["Train loss"] == (list(range(1, epochs + 1)), losses), (epochs, stamp, start, whole)
        third = len(data) // 3
        live = _live(tmp_path, data, [60, third, 2 * third], name="live_" + name)
        assert json.dumps(live) == json.dumps(whole), (epochs, stamp, start)
