"""What examples/libraries_holdout50 showed (issue 32). A translation trainer prints, per logging interval, a record at
the run's update step (``Epoch   2, Step:       40, Batch Loss:    17.620428, Batch Acc: 0.170664, Tokens per Sec:
11344, Lr: 0.027000``) and, at each epoch's end, the epoch's SUM over its batches (``Epoch   2, total training loss:
448.34, num. of seqs: 400, num. of tokens: 2688, 0.2258[sec]``), growing with the epoch's size: the step records are
the run's train series, the epoch's total never the loss beside them. A total logged as often as the losses beside
it (a sum of terms at each step) still stands for the run; an epoch's ``Train-<name>`` record still wins over
running batch-range values with no step of their own (holdout43)."""

from __future__ import annotations

import math

from training_check.tools.objective import assign_roles

from .test_read_misses import _live, whole_as_live

_T = "2026-12-06 19:51:31,518"
_P = f"{_T} - INFO - joeynmt.training - "


def _joey(epochs: int, batches: int, every: int, val_every: int = 0,
          grow: float = 1.0) -> tuple[str, list[int], list[float], list[float]]:
    """A run's log as printed; its step records' steps and losses and its epochs' totals."""
    out = [f"{_T} - INFO - root - Hello! This is Joey-NMT (version 2.3.0).\n",
           *(f"{_T} - INFO - joeynmt.config -         cfg.training.setting_{k:02d} : {k}\n" for k in range(70)),
           f"{_T} - INFO - joeynmt.builders - Adam(lr=0.003, weight_decay=0.0, betas=[0.9, 0.999])\n"]
    steps, losses, totals = [], [], []
    g, lr = 0, 0.003
    for e in range(1, epochs + 1):
        out.append(f"{_P}EPOCH {e}\n")
        total = 0.0
        lr *= grow
        for _ in range(batches):
            g += 1
            loss = 18.0 * math.exp(-0.004 * g) + 0.3 * (g % 3) + (0.05 * g * g if grow > 1 and e > epochs // 2 else 0)
            total += loss
            if g % every == 0:
                out.append(f"{_P}Epoch {e:3d}, Step: {g:8d}, Batch Loss: {loss:12.6f}, Batch Acc: "
                           f"{0.1 + 0.001 * g:.6f}, Tokens per Sec: {11000 + 37 * (g % 7):8d}, Lr: {lr:.6f}\n")
                steps.append(g)
                losses.append(float(f"{loss:.6f}"))
            if val_every and g % val_every == 0:
                out.append(f"{_T} - INFO - joeynmt.prediction - Evaluation result (greedy): bleu:   1.07, "
                           f"loss:  {loss * 0.9:.2f}, ppl:  12.62, acc:   0.25, 0.0024[sec]\n")
                out.append(f"{_P}Hooray! New best validation result [loss]!\n")
        out.append(f"{_P}Epoch {e:3d}, total training loss: {total:.2f}, num. of seqs: 400, num. of tokens: 2688, "
                   f"0.2258[sec]\n")
        totals.append(float(f"{total:.2f}"))
    out.append(f"{_P}Training ended after {epochs:3d} epochs.\n")
    return "".join(out), steps, losses, totals


def _primary(pts: dict) -> list[str]:
    """The primary loss of ``pts`` weighed by how often each name is logged (as a run's frame weighs them)."""
    counts = {k: len(v[0]) for k, v in pts.items()}
    return [k for k, r in assign_roles(list(pts), None, counts).items() if r.primary]


def test_step_records_are_the_train_series_not_the_epochs_total(tmp_path):
    text, steps, losses, totals = _joey(6, 25, 10)
    pts = whole_as_live(tmp_path, text.encode(), "joey.log")
    assert pts["Batch Loss"] == (steps, losses)
    assert pts["total training loss"][1] == totals
    assert _primary(pts) == ["Batch Loss"], pts.keys()


def test_step_records_win_with_validation_reports_and_an_interval_that_splits_epochs(tmp_path):
    # 13 batches an epoch, a record every 4 updates, a validation every 40 (between two step records)
    text, steps, losses, _ = _joey(10, 13, 4, val_every=40)
    pts = whole_as_live(tmp_path, text.encode(), "joey_val.log")
    assert pts["Batch Loss"] == (steps, losses)
    assert _primary(pts) == ["Batch Loss"]


def test_a_diverging_run_is_judged_by_its_step_records_from_its_first_epoch(tmp_path):
    text, steps, losses, _ = _joey(6, 25, 10, grow=3.0)
    data = text.encode()
    first_total = data.index(b"total training loss")
    end = data.index(b"\n", first_total) + 1
    pts = _live(tmp_path, data[:end], [end // 2])
    assert _primary(pts) == ["Batch Loss"]  # 2 step records beside the first epoch's total
    pts = whole_as_live(tmp_path, data, "joey_grow.log")
    assert pts["Batch Loss"] == (steps, losses)
    assert _primary(pts) == ["Batch Loss"]


def test_a_total_logged_as_often_as_its_terms_stays_the_loss():
    names = ["ce loss", "kl loss", "total loss"]
    roles = assign_roles(names, None, dict.fromkeys(names, 40))
    assert [n for n, r in roles.items() if r.primary] == ["total loss"]
    # an epoch's total beside a step loss logged as often: no finer curve, the total stays
    roles = assign_roles(["Batch Loss", "total training loss"], None, {"Batch Loss": 6, "total training loss": 6})
    assert [n for n, r in roles.items() if r.primary] == ["total training loss"]
    roles = assign_roles(["Batch Loss", "total training loss"], None, {"Batch Loss": 15, "total training loss": 6})
    assert [n for n, r in roles.items() if r.primary] == ["Batch Loss"]
    # ... and no loss at all: no signal watches the epoch's sum (at its epochs) as one
    assert roles["total training loss"].role == "train_metric"


def test_an_epochs_train_record_still_wins_over_running_batch_values():
    names = ["Speed", "mse", "Train-mse", "Time cost", "Validation-mse"]
    roles = assign_roles(names, None, {"Speed": 40, "mse": 40, "Train-mse": 5, "Time cost": 5, "Validation-mse": 5})
    assert [n for n, r in roles.items() if r.primary] == ["Train-mse"]
