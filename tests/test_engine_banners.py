"""Issue 32, records under an epoch banner printed on its own line: a step counter ``n/N`` under ``Epoch e/E``
(PaddlePaddle hapi's ``step 10/20 - loss: ...``) is the global step (e - 1) x N + n, an evaluation's counter over a
shorter set between epochs is that evaluation's; a block of ``name = value`` lines under ``Epoch N ended.``
(Avalanche's text logger) is epoch N's record. Each input written as the library prints it, read by the one engine;
the same bytes read in parts give the same points."""

from __future__ import annotations

from .test_engine_records import _same_in_reads


def _hapi(epochs: int, per_epoch: int, every: int, evals: bool) -> bytes:
    """``Model.fit(verbose=2)``: the banner, a line every ``every`` steps, an eval block after each epoch."""
    out = ["The loss value printed in the log is the current step, and the metric is the average value of previous"
           " steps."]
    for e in range(1, epochs + 1):
        out.append(f"Epoch {e}/{epochs}")
        for n in range(every, per_epoch + 1, every):
            g = (e - 1) * per_epoch + n
            out.append(f"step {n:{len(str(per_epoch))}d}/{per_epoch} - loss: {2.0 / g:.4f} - acc: 0.5000 - 12ms/step")
        if evals:
            out += ["Eval begin...", f"step 5/5 - loss: {1.0 + e:.4f} - acc: 0.6000 - 3ms/step", "Eval samples: 320"]
    return ("\n".join(out) + "\n").encode()


def test_counter_under_epoch_banners_is_the_global_step_and_the_eval_block_is_eval():
    pts = _same_in_reads(_hapi(3, 20, 5, evals=True), every=3)
    assert pts["loss"][0] == list(range(5, 61, 5))
    assert pts["loss"][1][-1] == round(2.0 / 60, 4)
    assert pts["val_loss"] == ([20, 40, 60], [2.0, 3.0, 4.0])


def test_counter_under_epoch_banners_padded_every_step():
    pts = _same_in_reads(_hapi(2, 12, 1, evals=False), every=5)
    assert pts["loss"][0] == list(range(1, 25))
    assert "val_loss" not in pts


def _avalanche(experiences: int, epochs: int, bars: bool) -> bytes:
    """The text/interactive logger: tqdm's bar over the epoch's batches (interactive), then ``Epoch N ended.`` and
    the epoch's metrics indented, ``name = value``; epochs counted again from 0 for each experience, an eval after."""
    out = ["-- >> Start of training phase << --"]
    for x in range(experiences):
        for e in range(epochs):
            if bars:
                out.append("".join(f"\r{100 * b // 8:3d}%|#         | {b}/8 [00:00<00:00, 90.00it/s]"
                                   for b in range(1, 9)))
            g = x * epochs + e
            out += [f"Epoch {e} ended.", f"\tLoss_Epoch/train_phase/train_stream = {1.0 / (g + 1):.4f}",
                    f"\tTop1_Acc_Epoch/train_phase/train_stream = {0.5 + g / 100:.4f}"]
        out += ["-- >> End of training phase << --", "-- >> Start of eval phase << --",
                f"> Eval on experience {x} from test stream ended.",
                f"\tLoss_Exp/eval_phase/test_stream/Exp00{x} = 0.0100"]
    return ("\n".join(out) + "\n").encode()


def test_record_block_under_epoch_end_banner_is_at_that_epoch_counted_over_experiences():
    pts = _same_in_reads(_avalanche(2, 4, bars=False), every=2)
    assert pts["Loss_Epoch/train_phase/train_stream"] == (list(range(8)), [round(1.0 / g, 4) for g in range(1, 9)])


def test_record_block_under_epoch_end_banner_after_bars():
    pts = _same_in_reads(_avalanche(1, 5, bars=True), every=2)
    assert pts["Loss_Epoch/train_phase/train_stream"][0] == [0, 1, 2, 3, 4]
