"""Shapes whose reading hung on where a read's pieces fell, or on lines after them (issue 32 items 1 and 5, readfix3):
each read through the real LogFileSource whole and appended in pieces, with the same points either way.

- a one-off line's template seen again after more one-off lines than are carried between reads (64): the template's
  digest is remembered, and seeing it again reads the file again knowing it recurs (``engine._remember_once``);
- srun's bare ``N: `` labels, known as ranks only once they went back to a lower one: the lines before are read
  again as ranks' (``streams.select_stream``);
- a bar's postfix value logged every few redraws: its first repeats, kept before the rule could tell, are no points
  once it can (``bar_steps.value_changes``);
- a table between box borders at both ends (``│ 1 │ 0.52 │``), a split qualifier (``loss(val)``), a one-off epoch
  loss among stepped records in a run cut short (pytorch-accelerated's ``train_loss_epoch:``)."""

from __future__ import annotations

import random

from .test_read_shapes_general import _pieces, _read


def _both(tmp_path, data: bytes, cuts: list[int]) -> dict[str, dict[int, float]]:
    path = tmp_path / "whole.log"
    path.write_bytes(data)
    whole, _notes = _read(path)
    pieces = _pieces(tmp_path / "pieces.log", data, cuts)
    assert pieces == whole, {k: (sorted(whole.get(k, {}).items())[:6], sorted(pieces.get(k, {}).items())[:6])
                             for k in set(whole) | set(pieces) if whole.get(k) != pieces.get(k)}
    return whole


def test_a_one_off_template_seen_again_beyond_the_carried_lines_reads_as_one_read_would(tmp_path):
    # (a guard on the rule's outcome; the case it fixed is real-logs-2's PPO log in tests/test_read_determinism.py)
    out = [f"step {i} | loss {1.0 / (i + 1):.4f}" for i in range(1, 30)]
    out.append("{'policy_loss': -0.0123, 'value_loss': 0.0456, 'truncated': [True, False]}")  # a record, once
    out += [f"banner line {k}: setting_{k} = {k * 3}.5 units" for k in range(80)]  # > 64 one-off lines
    out += [f"step {i} | loss {1.0 / (i + 1):.4f}" for i in range(30, 40)]
    out.append("[step 40] avg_loss=0.1000 acc=0.5227")  # a step's record, once: what comes after it is held with it
    out.append("{'policy_loss': -0.0456, 'value_loss': 0.0321, 'truncated': [True, False]}")  # the same template
    out += ["Saved checkpoint to ckpt_epoch10_step110.pt", "==end-of-epoch 10=="]
    data = ("\n".join(out) + "\n").encode()
    first_end = data.index(b"banner line 70")
    pts = _both(tmp_path, data, [first_end])
    assert sorted(pts["policy_loss"].values()) == [-0.0456, -0.0123]


def test_srun_labels_known_late_are_ranks_from_the_first_line(tmp_path):
    rng = random.Random(5)
    out, want = [], {}
    for i in range(1, 16):
        order = [0, 1, 2]
        rng.shuffle(order)
        for r in order:
            out.append(f"{r}: step {10 * i} | loss {1.0 / i + 0.01 * r:.4f}")
        want[10 * i] = round(1.0 / i, 4)
    data = ("\n".join(out) + "\n").encode()
    pts = _both(tmp_path, data, [len(data) // 5, len(data) // 2])
    assert pts["loss"] == want


def test_a_bar_value_logged_every_few_redraws_is_a_point_per_log_only(tmp_path):
    draws, want = [], {}
    for n in range(1, 41):
        if (n - 1) % 5 == 0:
            value = f"{3.0 - 0.05 * n:.4f}"
            want[n] = float(value)
        draws.append(f"Epoch 0: {100 * n // 40:3d}%|#    | {n}/40 [00:01<00:01, 9.9it/s, loss={value}]")
    data = ("Epoch 0:   0%|     | 0/40 [00:00<?, ?it/s]\r" + "\r".join(draws) + "\n").encode()
    pts = _both(tmp_path, data, [len(data) // 3])
    assert pts["loss"] == want


def test_a_table_between_box_borders_at_both_ends(tmp_path):
    out = ["\u2502 epoch \u2502 train loss \u2502 valid loss \u2502"]
    out += [f"\u2502 {e:>5} \u2502 {1 / (e + 1):>10.4f} \u2502 {2 / (e + 1):>10.4f} \u2502" for e in range(1, 9)]
    pts = _both(tmp_path, ("\n".join(out) + "\n").encode(), [200])
    assert pts["train loss"] == {e: round(1 / (e + 1), 4) for e in range(1, 9)}
    assert pts["valid_loss"] == {e: round(2 / (e + 1), 4) for e in range(1, 9)}


def test_a_split_qualifier_names_its_split(tmp_path):
    out = [f"step {i} loss(train) {1 / (i + 1):.4f} loss(val) {2 / (i + 1):.4f}" for i in range(10)]
    pts = _both(tmp_path, ("\n".join(out) + "\n").encode(), [100])
    assert pts["loss"] == {i: round(1 / (i + 1), 4) for i in range(10)}
    assert pts["val_loss"] == {i: round(2 / (i + 1), 4) for i in range(10)}


def test_an_epoch_loss_printed_once_in_a_run_cut_short_is_read(tmp_path):
    out = ["Starting training run", "Starting epoch 1"]
    out += [f"step {s}: loss={40.0 / s:.6f}" for s in range(2, 25, 2)]
    out += ["train_loss_epoch: 40.197566986083984", "Starting eval epoch", "eval_loss_epoch: 58.774818420410156",
            "Starting epoch 2", "step 26: loss=55.718433", "step 28: loss=1081063365.000000",
            "Stopping training due to NaN loss in training step"]
    pts = _both(tmp_path, ("\n".join(out) + "\n").encode(), [150])
    assert pts["train_loss_epoch"] == {24: 40.197566986083984}
    assert pts["eval_loss_epoch"] == {24: 58.774818420410156}
