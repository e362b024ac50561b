"""What examples/libraries_holdout41 showed (issue 32). A trainer's multi-line record ``--> TIME: ... -- STEP: 3/15 --
GLOBAL_STEP: 3`` over ``| > loss: 12.84  (15.35)`` rows names both a counter within the epoch (``STEP: s/N``, its N
one short of the epoch's length) and the global step: the record is placed at the global step it names (the counter
within the epoch is only a fallback). A translation trainer's checkpoint lines (``Checkpoint [1]\\tUpdates=20 Epoch=0
Samples=640 Time-cost=0.546 Updates/sec=36.651``, then ``Checkpoint [1]\\tTrain-ppl=76.44``): ``Time-cost`` is a
duration, never an objective; the train perplexity is the run's objective when nothing else is."""

from __future__ import annotations

import math

from training_check.tools.objective import assign_roles
from training_check.tools.roles import infer_role

from .test_read_misses import primary_names, whole_as_live


def _trainer(epochs: int, per_epoch: int, every: int = 3) -> tuple[str, list[int], list[float]]:
    out, steps, losses = [" > Training Environment:\n | > Backend: Torch\n\n"], [], []
    g, avg_n, avg = 0, 0, 0.0
    for e in range(epochs):
        out.append(f"\x1b[4m\x1b[1m > EPOCH: {e}/{epochs - 1}\x1b[0m\n --> /tmp/run\n\n")
        out.append("\x1b[1m > TRAINING (2026-12-06 16:26:10) \x1b[0m\n\n")
        for s in range(per_epoch):
            loss = 17.0 * math.exp(-0.03 * g) + 0.1 * (g % 4)
            avg_n += 1
            avg += (loss - avg) / avg_n
            if g % every == 0:
                out.append(f"\x1b[1m   --> TIME: 2026-12-06 16:26:10 -- STEP: {s}/{per_epoch - 1} -- GLOBAL_STEP: "
                           f"{g}\x1b[0m\n")
                out.append(f"     | > current_lr: 0.005  (0.005)\n     | > loss: {loss!r}  ({avg!r})\n"
                           f"     | > grad_norm: 0.0  (0.0)\n     | > step_time: 0.0004  (0.0005772113800048828)\n"
                           f"     | > loader_time: 0.0002  (0.00020082791646321615)\n\n\n")
                steps.append(g)
                losses.append(loss)
            g += 1
        out.append(f"  \x1b[1m--> EVAL PERFORMANCE\x1b[0m\n     | > avg_loader_time: 0.0001 \x1b[0m(+0.0)\n"
                   f"     | > avg_loss: {avg!r} \x1b[0m(+0.0)\n\n > BEST MODEL : /tmp/run/best_model_{g}.pth\n\n")
    return "".join(out), steps, losses


def test_a_record_naming_its_global_step_is_placed_there_not_at_its_epoch_counter(tmp_path):
    text, steps, losses = _trainer(5, 16)
    pts = whole_as_live(tmp_path, text.encode(), "trainer.log")
    assert pts["loss"][0] == steps, pts["loss"][0]
    assert pts["loss"][1] == losses
    assert "loss" in primary_names(pts)


def _checkpoints(n: int, every: int) -> str:
    out = ["[2026-12-06:16:29:43:INFO:sockeye.loss:__init__] Loss: cross-entropy | weight=1.00 | metric: perplexity "
           "(ppl) | output_name: 'logits' | label_name: 'target_label'\n"]
    ppl = 76.4
    for c in range(1, n + 1):
        p = "[2026-12-06:16:29:44:INFO:sockeye.training:"
        out.append(f"{p}_create_checkpoint] Checkpoint [{c}]\tUpdates={c * every} Epoch={c - 1} Samples={c * 640} "
                   f"Time-cost={0.09 + 0.01 * (c % 3):.3f} Updates/sec={200 + c:.3f}\n")
        out.append(f"{p}_create_checkpoint] Checkpoint [{c}]\tTrain-ppl={ppl:.6f}\n")
        out.append(f"{p}_evaluate] Checkpoint [{c}]\tValidation-ppl={ppl * 0.9:.6f}\n")
        out.append(f"{p}_adjust_learning_rate] Checkpoint [{c}]\tLearning-rate=0.000200\n")
        ppl = ppl * 0.85 + 3
    return "".join(out)


def test_a_time_cost_is_a_duration_and_a_train_perplexity_the_objective_alone():
    assert infer_role("Time-cost").direction is None and infer_role("time cost").direction is None
    assert infer_role("cost").role == "train_metric" and infer_role("Train-ppl").direction == "min"
    roles = assign_roles(["Checkpoint", "Samples", "Time-cost", "Updates/sec", "Train-ppl", "Validation-ppl",
                          "Learning-rate", "ppl"])
    assert [n for n, r in roles.items() if r.primary] == ["Train-ppl"]
    # a loss named beside a perplexity stays the objective
    roles = assign_roles(["lm loss", "ppl", "Train-ppl"])
    assert [n for n, r in roles.items() if r.primary] == ["lm loss"]


def test_checkpoint_records_read_with_the_train_perplexity_as_the_objective(tmp_path):
    pts = whole_as_live(tmp_path, _checkpoints(8, 20).encode(), "ckpt.log")
    assert primary_names(pts) == ["Train-ppl"], pts.keys()
    assert pts["Train-ppl"][0] == list(range(1, 9))
