"""Shapes the reader missed on examples/libraries_holdout32 (issue 32), written as the library prints them and read by
the one engine, whole and in pieces:

- after a pretty-printed settings dict, one line per log interval with two positions, the micro-batch count and the
  optimizer's steps, a loss named with its split after it, and a split's bare name with no number yet (litgpt's
  ``Epoch 1 | iter 2 step 1 | loss train: 5.867, val: n/a | iter time: 13.86 ms (step)``; ``val:`` a number once an
  evaluation ran): a name whose value is a placeholder (``n/a``) marks no line as an evaluation's, so the train loss
  is read at ``iter`` (the first position named, every line, with or without gradient accumulation) from the first
  line on, whatever the ``val:`` column holds;
- CHGNet's trainer, after lines saying a name and what it is (``training targets: e``, ``Begin Training: using cpu
  device``), prints ``Epoch: [0][4/6] | Time (0.034)(0.010) | Loss 2.1685(2.3425) | MAE e 1.461(1.499)`` every few
  batches, a ``Val: [2/2]`` line and ``*   e_MAE (0.650)`` after each epoch: words some of which end in a colon are no
  table's header over those rows (``fields.says_what_it_names``), so each row is at its epoch x batches + batch."""

from __future__ import annotations

import math

from training_check.tools.objective import assign_roles

from .test_read_misses import primary_names, whole_as_live

_HEAD = """Seed set to 0
{'access_token': None,
 'checkpoint_dir': PosixPath('checkpoints/tiny'),
 'eval': EvalArgs(interval=20,
                  max_new_tokens=8,
                  max_iters=4,
                  initial_validation=False),
 'optimizer': {'class_path': 'torch.optim.AdamW', 'init_args': {'lr': 0.03}},
 'seed': 0,
 'train': TrainArgs(save_interval=100000,
                    log_interval=2,
                    global_batch_size=8,
                    micro_batch_size=4,
                    lr_warmup_steps=1,
                    epochs=2,
                    min_lr=6e-05)}
Number of trainable parameters: 123,200
Verifying settings ...
"""


def _litgpt(iters: int, every: int, accumulate: int, eval_every: int, values: list[float]) -> tuple[str, list]:
    """litgpt's ``finetune_full`` console: a line every ``every`` iterations, ``(step)`` on an optimizer step, a
    validation every ``eval_every`` iterations; the truth: (iter, loss train) as printed."""
    out, truth, val = [_HEAD], [], None
    for it in range(every, iters + 1, every):
        v = values[it - 1]
        step = it // accumulate
        mark = " (step)" if it % accumulate == 0 else ""
        shown = "n/a" if val is None else f"{val:.3f}"
        out.append(f"Epoch {1 + (it - 1) * 2 // iters} | iter {it} step {step} | loss train: {v:.3f}, val: {shown} "
                   f"| iter time: {10 + it % 7 * 1.37:.2f} ms{mark}\n")
        truth.append((it, float(f"{v:.3f}") if math.isfinite(v) else v))
        if it % eval_every == 0:
            val = v * 0.9
            out.append(f"Validating ...\niter {it}: val loss {val:.4f}, val time: 17.68 ms\n")
    out.append("\n| ------\n| Performance\n| - Training Time             :  1.85 s\n| ------\n\nValidating ...\n"
               f"Final evaluation | val loss: {values[-1] * 0.9:.3f} | val ppl: {math.exp(values[-1] * 0.9):.3f}\n")
    return "".join(out), truth


def test_a_loss_named_with_its_split_beside_a_split_with_no_number_yet_is_the_train_loss_at_iter(tmp_path):
    values = [5.867 * 0.97 ** k for k in range(72)]
    text, truth = _litgpt(72, 2, 2, 600, values)  # no validation before the end: ``val: n/a`` on every line
    pts = whole_as_live(tmp_path, text.encode(), "litgpt.log")
    assert list(zip(*pts["loss train"], strict=True)) == truth, pts.keys()
    assert not any(k.startswith("val_") and k != "val_loss" for k in pts), pts.keys()
    assert primary_names(pts) == ["loss train"]


def test_the_train_loss_reads_at_iter_on_both_sides_of_the_first_validation(tmp_path):
    """One line an iteration, a validation every 20 (``val:`` ``n/a`` then a number): one series from iter 1."""
    values = [5.867 - 0.03 * k for k in range(108)]
    text, truth = _litgpt(108, 1, 1, 20, values)
    pts = whole_as_live(tmp_path, text.encode(), "litgpt_val.log")
    assert list(zip(*pts["loss train"], strict=True)) == truth, pts.keys()
    assert pts["val_loss"][0][:3] == [20, 40, 60], pts["val_loss"]


def test_with_gradient_accumulation_the_step_is_the_iteration_every_line(tmp_path):
    """``iter 2 step 0``, ``iter 4 step 1 ... (step)``: the two positions differ; the first named, ``iter``, is the
    step of every line, with ``(step)`` or without."""
    values = [5.867 * 0.98 ** k for k in range(144)]
    text, truth = _litgpt(144, 2, 4, 20, values)
    pts = whole_as_live(tmp_path, text.encode(), "litgpt_acc.log")
    assert list(zip(*pts["loss train"], strict=True)) == truth, pts.keys()


def test_a_train_loss_going_nan_is_read_to_its_nan(tmp_path):
    values = [5.867, 5.867, 5.867, 5.867, 147.303, 288.739, 8804984.0, 17609680.0] + [math.nan] * 20
    text, truth = _litgpt(28, 1, 2, 600, values)
    pts = whole_as_live(tmp_path, text.encode(), "litgpt_nan.log")
    steps, vals = pts["loss train"]
    assert steps == list(range(1, 29)), pts.keys()
    assert vals[:8] == [t[1] for t in truth[:8]] and all(math.isnan(v) for v in vals[8:])


def test_a_split_named_with_a_number_still_marks_an_evaluation(tmp_path):
    """The placeholder rule is narrow: ``val: n/a`` names no evaluation, ``val loss 0.5`` or a bare ``eval`` still
    does."""
    lines = [f"step {k} | eval | loss: {1.0 / k:.4f}, acc: n/a" for k in range(1, 15)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "ev.log")
    assert "val_loss" in pts, pts.keys()


def _chgnet(epochs: int, per: int, shown: tuple[int, ...]) -> tuple[str, list[tuple[int, float]]]:
    lines = ["StructureData imported 60 structures", "CHGNet initialized with 14,221 parameters",
             "Begin Training: using cpu device", "training targets: e"]
    truth = []
    for e in range(epochs):
        for i in shown:
            loss = round(3.0 / (1 + e * per + i), 4)
            lines.append(f"Epoch: [{e}][{i}/{per}] | Time (0.034)(0.010) | Loss {loss:.4f}({loss:.4f}) | "
                         f"MAE e {loss / 2:.3f}({loss / 2:.3f})  ")
            truth.append((e * per + i, loss))
        lines += [f"Val: [2/2] | Time (0.014) | Loss 0.1709(0.5345) | MAE e 0.389({0.65 - e / 100:.3f})  ",
                  f"*   e_MAE ({0.65 - e / 100:.3f}) \t"]
    return "\n".join(lines) + "\n", truth


def test_epoch_and_batch_counters_after_lines_saying_what_a_name_is(tmp_path):
    text, truth = _chgnet(8, 6, (1, 2, 4, 6))
    pts = whole_as_live(tmp_path, text.encode(), "chgnet.log")
    assert list(zip(*pts["Loss"], strict=True)) == truth, pts.keys()
    assert assign_roles(list(pts))["Loss"].primary


def test_a_header_of_names_ending_in_colons_all_stays_a_header():
    from training_check.tools.parsers.fields import header_names, says_what_it_names

    assert header_names(b"Iter: Loss: Acc:") == ["Iter", "Loss", "Acc"]
    assert header_names(b"training targets: e") is None
    assert not says_what_it_names(["epoch", "train_loss", "val_loss"])
