"""The shapes the reader missed on examples/libraries_holdout16's stanza runs (issue 32), written as the library
prints them and read by the one engine, whole and in pieces:

- a step counter ``n/N`` after a name of words ending in a step's (the POS tagger's ``Finished STEP 10/60, loss =
  ...``): the run's global step, as ``step 10/60`` would be, in capitals or not;
- a loss logged at every few steps (the lemmatizer's ``step 5/96 (epoch 1/6), loss = 2.818``) beside the epoch's
  ``train_loss`` printed once an epoch: the names are one loss's but for the split word, the one logged several
  times as often is the finer curve and stands for the run.
"""

from __future__ import annotations

import random

from training_check.tools.objective import assign_objective

from .test_read_misses import whole_as_live


def _primary(pts: dict) -> str:
    roles = assign_objective(list(pts), counts={k: len(s) for k, (s, _) in pts.items()}).roles
    (name,) = [k for k, r in roles.items() if r.primary]
    return name


def test_a_step_counter_after_a_verb_is_the_step_in_capitals_or_not(tmp_path):
    rnd = random.Random(16)
    for word in ("STEP", "step"):
        lines, want = ["2026-12-06 07:08:22 INFO: Training tagger..."], {}
        loss = 1.8
        for step in range(5, 155, 5):
            loss *= 0.96 + 0.03 * rnd.random()
            lines.append(f"2026-12-06 07:08:23 INFO: Finished {word} {step}/150, loss = {loss:.6f} "
                         f"(0.050 sec/batch), lr: 0.010000")
            want[step] = float(f"{loss:.6f}")
            if step % 75 == 0:
                lines.append("2026-12-06 07:08:27 INFO: Evaluating on dev set...")
                lines.append(f"2026-12-06 07:08:27 INFO: step {step}: train_loss = {loss * 1.1:.6f}, "
                             f"dev_score = 0.2995")
        pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), f"pos_{word}.log")
        steps, values = pts["loss"]
        assert steps == sorted(want) and values == [want[s] for s in sorted(want)], word
        assert _primary(pts) == "loss"


def test_a_loss_logged_every_few_steps_stands_for_the_run_over_the_epochs_train_loss(tmp_path):
    rnd = random.Random(6)
    lines, want = [], {}
    loss, step = 3.0, 0
    for epoch in range(1, 7):
        losses = []
        for _ in range(16):
            step += 1
            loss *= 0.95 + 0.04 * rnd.random()
            losses.append(loss)
            if step % 5 == 0:
                lines.append(f"2026-12-06 07:01:19 INFO: 2026-12-06 07:01:19: step {step}/96 (epoch {epoch}/6), "
                             f"loss = {loss:.6f} (0.010 sec/batch), lr: 1.000000")
                want[step] = float(f"{loss:.6f}")
        lines.append("2026-12-06 07:01:20 INFO: Evaluating on dev set...")
        lines.append(f"2026-12-06 07:01:20 INFO: epoch {epoch}: train_loss = {sum(losses) / 16:.6f}, "
                     f"dev_score = {0.3 + 0.1 * epoch:.4f}")
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "lemma.log")
    steps, values = pts["loss"]
    assert steps == sorted(want) and values == [want[s] for s in sorted(want)]
    assert "train_loss" in pts and _primary(pts) == "loss"


def test_twins_logged_alike_keep_the_named_order():
    counts = {"loss": 9, "train_loss": 9}
    roles = assign_objective(list(counts), counts=counts).roles
    assert roles["train_loss"].primary and not roles["loss"].primary
    counts = {"loss": 40, "train_loss": 1}  # HF's final summary: dropped as before
    roles = assign_objective(list(counts), counts=counts).roles
    assert roles["loss"].primary
