"""The shapes the reader missed on examples/libraries_holdout16 (issue 32), written as the libraries print them and
read by the one engine, whole and in pieces:

- a record headed by its position as a number and a unit of the run's length in a bracket of their own (snorkel's
  ``INFO:root:[10 epochs]: TRAIN:[loss=0.107]``, the first glued after a tqdm bar's first draw): the number is the
  record's step, not a count in prose (ignite's ``epoch 0 until 8 epochs`` stays one);
- a bar over the epochs under a description counting from 1 over as many epochs (scvi-tools' Lightning bar
  ``Epoch 2/20:  10%|...| 2/20 [..., v_num=1, train_loss=189]``): the count is the epochs done, the value's step,
  not Lightning's step - 1; Lightning's own ``Epoch 0:`` bars keep theirs.
"""

from __future__ import annotations

from .test_read_misses import whole_as_live


def _snorkel(epochs: int, every: int, bar: bool) -> tuple[bytes, dict[int, float]]:
    lines = ["INFO:root:Computing O...", "INFO:root:Estimating \\mu..."]
    want: dict[int, float] = {}
    head = f"\r  0%|          | 0/{epochs} [00:00<?, ?epoch/s]" if bar else ""
    for e in range(0, epochs, every):
        loss = round(1.359 * 0.93 ** e + 0.004, 3)
        want[e] = loss
        lines.append(f"{head if e == 0 else ''}INFO:root:[{e} epochs]: TRAIN:[loss={loss:.3f}]")
    if bar:
        lines.append(f"\r100%|██████████| {epochs}/{epochs} [00:00<00:00, 2154.75epoch/s]")
    lines += ["INFO:root:Finished Training", "label model accuracy: 0.889"]
    return ("\n".join(lines) + "\n").encode(), want


def test_a_number_and_a_length_unit_in_their_own_bracket_head_the_record(tmp_path):
    for epochs, every, bar in ((100, 10, True), (80, 5, True), (200, 20, False), (40, 1, True)):
        data, want = _snorkel(epochs, every, bar)
        pts = whole_as_live(tmp_path, data, f"snorkel_{epochs}_{every}.log")
        assert pts["loss"] == (sorted(want), [want[s] for s in sorted(want)]), (epochs, every)


def test_a_length_unit_in_prose_stays_a_count(tmp_path):
    text = "".join(f"Epoch[{e}] loss: {1.0 / e:.4f} (epoch {e - 1} until 8 epochs)\n" for e in range(1, 9))
    pts = whole_as_live(tmp_path, text.encode(), "prose.log")
    assert pts["loss"][0] == list(range(1, 9)), pts
    assert not any("until" in k for k in pts), sorted(pts)


def _scvi(epochs: int) -> tuple[bytes, dict[int, float]]:
    losses = {e: float(round(192 - 2.7 * (e - 1))) for e in range(1, epochs + 1)}
    draws = ["\rTraining:   0%|          | 0/{m} [00:00<?, ?it/s]",
             "\rEpoch 1/{m}:   0%|          | 0/{m} [00:00<?, ?it/s]"]
    for e in range(1, epochs + 1):
        pct = 100 * e // epochs
        if e > 1:  # the description set for the next epoch, the count still the epochs done
            was = 100 * (e - 1) // epochs
            draws.append(f"\rEpoch {e}/{{m}}: {was:3d}%|#   | {e - 1}/{{m}} [00:00<00:01, 10.08it/s, "
                         f"v_num=1, train_loss={losses[e - 1]:.0f}]")
        draws.append(f"\rEpoch {e}/{{m}}: {pct:3d}%|#   | {e}/{{m}} [00:00<00:01, 16.28it/s, v_num=1, "
                     f"train_loss={losses[e - 1] if e > 1 else losses[e]:.0f}]")
        draws.append(f"\rEpoch {e}/{{m}}: {pct:3d}%|#   | {e}/{{m}} [00:00<00:01, 16.28it/s, v_num=1, "
                     f"train_loss={losses[e]:.0f}]")
    text = "Seed set to 0\nGPU available: False, used: False\n" + "".join(draws).format(m=epochs)
    text += f"`Trainer.fit` stopped: `max_epochs={epochs}` reached.\n"
    return text.encode(), losses


def test_a_bar_of_the_epochs_under_a_one_based_description_is_at_its_count(tmp_path):
    for epochs in (12, 20, 30):
        data, want = _scvi(epochs)
        pts = whole_as_live(tmp_path, data, f"scvi_{epochs}.log")
        steps, values = pts["train_loss"]
        assert steps == sorted(want) and values == [want[s] for s in sorted(want)], (epochs, pts["train_loss"])


def test_lightnings_own_epoch_bar_keeps_its_step(tmp_path):
    """Lightning's bar of one batch an epoch, its epoch from 0 and no count of epochs in the description: its
    logged step is the count - 1, as before."""
    draws = []
    for e in range(12):
        draws.append(f"\rEpoch {e}:   0%|          | 0/1 [00:00<?, ?it/s]")
        draws.append(f"\rEpoch {e}: 100%|##########| 1/1 [00:00<00:00, 50.0it/s, v_num=0, "
                     f"train_loss={2.0 - 0.1 * e:.3f}]")
    data = ("".join(draws) + "\n").encode()
    pts = whole_as_live(tmp_path, data, "lightning.log")
    assert pts["train_loss"][0] == list(range(12)), pts["train_loss"]
