"""The reader's known leftovers (issue 32: records, not lines; the same points whatever a read's size), each shape
written as a small log the way a library prints it and read by the one engine, whole and in pieces: a number
followed by a unit of a run's length in prose (ignite's ``epoch 0 until 8 epochs``) is a count, no metric's value.
Each rule is general; what is library-specific is data in ``dialect.py``."""

from __future__ import annotations

from .test_engine_records import _same_in_reads


def _ignite_workflow(epochs: int, iters: int) -> bytes:
    """MONAI's workflow on ignite: the trainer's and each epoch's evaluator's ``Engine run resuming from iteration 0,
    epoch E until N epochs`` banner, MONAI's ``Epoch: e/N, Iter: i/M -- train_loss: x`` and the epoch's metrics."""
    out = [f"INFO:ignite.engine.engine.SupervisedTrainer:Engine run resuming from iteration 0, epoch 0 until {epochs} "
           "epochs"]
    for e in range(1, epochs + 1):
        for i in range(1, iters + 1):
            out.append(f"2026-12-05 23:19:16,050 - INFO - Epoch: {e}/{epochs}, Iter: {i}/{iters} -- train_loss: "
                       f"{_loss(e, i):.4f} ")
        out.append(f"INFO:ignite.engine.engine.SupervisedEvaluator:Engine run resuming from iteration 0, epoch {e - 1} "
                   f"until {e} epochs")
        out.append(f"2026-12-05 23:19:16,175 - INFO - Epoch[{e}] Metrics -- val_acc: {_acc(e):.4f} ")
        out.append(f"INFO:ignite.engine.engine.SupervisedEvaluator:Epoch[{e}] Complete. Time taken: 00:00:00.018")
        out.append(f"INFO:ignite.engine.engine.SupervisedTrainer:Epoch[{e}] Complete. Time taken: 00:00:00.155")
    out.append("INFO:ignite.engine.engine.SupervisedTrainer:Engine run finished. Time taken: 00:00:01.203")
    return ("\n".join(out) + "\n").encode()


def _loss(e: int, i: int) -> float:
    return round(0.9 / e + 0.01 * i, 4)


def _acc(e: int) -> float:
    return round(0.5 + 0.05 * e, 4)


def test_a_number_before_a_unit_of_the_runs_length_is_a_count():
    pts = _same_in_reads(_ignite_workflow(6, 8), every=3)
    assert "until" not in pts, sorted(pts)
    assert pts["train_loss"] == ([*range(1, 49)], [_loss(e, i) for e in range(1, 7) for i in range(1, 9)])
    assert pts["val_acc"] == ([8 * e for e in range(1, 7)], [_acc(e) for e in range(1, 7)])


def test_a_length_unit_naming_the_number_after_it_is_no_count():
    pts = _same_in_reads(b"".join(b"step %d loss %.2f epochs 3\n" % (s, 1.0 / s) for s in range(1, 9)), every=2)
    assert pts["loss"] == ([*range(1, 9)], [round(1.0 / s, 2) for s in range(1, 9)])
