"""What examples/libraries_holdout43 showed (issue 32). A module trainer's log: a running value printed every k
batches (``INFO:root:Epoch[0] Batch [0-5]\\tSpeed: 72952.35 samples/sec\\tcross-entropy=1.149369``), then the epoch's
records (``Epoch[0] Train-cross-entropy=1.052720``, ``Epoch[0] Time cost=0.109``, ``Epoch[0]
Validation-cross-entropy=0.98``): a cross-entropy is a loss, and the epoch's ``Train-<name>`` record, not the running
value, is the run's train series. An estimator's log: ``[Epoch 1][Batch 5][Samples 832] ... training loss: 0.7947``
every k batches, then ``[Epoch 0] Finished in 0.066s, ... training loss: 0.9481`` at the epoch's end: the batch lines
are placed at the global batch E x steps_per_epoch + B, the epoch's length told by the ``Samples`` counter that never
restarts (the largest batch printed under-counts it); the epoch-end record is no batch point."""

from __future__ import annotations

import json
import math

from training_check.tools.objective import assign_roles
from training_check.tools.roles import infer_role, is_regulariser

from .test_read_misses import _live, primary_names


def _whole_and_live(tmp_path, data: bytes, name: str, keys: tuple[str, ...]) -> dict:
    """The points of ``data`` read whole, the series ``keys`` checked equal (NaN as NaN) to their reads while it is
    appended in pieces (cut mid-line too). (The module's running value, its batch range read by line order, and the
    order the names first show are not compared.)"""
    whole = _live(tmp_path, data, [], name=f"whole_{name}")
    live = _live(tmp_path, data, [int(c * len(data)) for c in (0.03, 0.2, 0.37, 0.55, 0.81)], name=f"live_{name}")
    for k in keys:
        assert json.dumps(live.get(k)) == json.dumps(whole.get(k)), (name, k)
    assert primary_names(live) == primary_names(whole), name
    return whole


def _module(epochs: int, per_epoch: int, every: int, metric: str = "cross-entropy", val: bool = True,
            nan_from: int | None = None) -> tuple[str, list[float]]:
    out, records = ["[18:45:45] ../src/executor/graph_executor.cc:1991: Subgraph backend MKLDNN is activated.\n"], []
    g = 0
    for e in range(epochs):
        total, n = 0.0, 0
        win, wn = 0.0, 0
        for b in range(per_epoch):
            loss = 1.2 * math.exp(-0.02 * g) + 0.05 * (g % 3)
            if nan_from is not None and e >= nan_from:
                loss = float("nan")
            total, n, win, wn = total + loss, n + 1, win + loss, wn + 1
            if every and (b + 1) % every == 0:
                out.append(f"INFO:root:Epoch[{e}] Batch [{b + 1 - every}-{b + 1}]\tSpeed: {70000 + 13 * g:.2f} "
                           f"samples/sec\t{metric}={win / wn:.6f}\n")
                win, wn = 0.0, 0
            g += 1
        records.append(float(f"{total / n:.6f}"))
        out.append(f"INFO:root:Epoch[{e}] Train-{metric}={total / n:.6f}\n")
        out.append(f"INFO:root:Epoch[{e}] Time cost={0.02 + 0.001 * (e % 4):.3f}\n")
        if val:
            out.append(f"INFO:root:Epoch[{e}] Validation-{metric}={0.9 * total / n:.6f}\n")
    return "".join(out), records


def test_a_cross_entropy_is_a_loss_whatever_its_separator():
    for name in ("cross-entropy", "cross_entropy", "crossentropy", "Cross Entropy", "Train-cross-entropy"):
        assert not is_regulariser(name), name
        assert infer_role(name).direction == "min", name
        assert infer_role(name).role in ("train_metric", "train_loss"), name
    assert infer_role("Validation-cross-entropy").role == "eval"
    assert infer_role("Validation-cross-entropy").direction == "min"
    assert is_regulariser("entropy") and is_regulariser("policy entropy")  # an entropy alone stays a diagnostic


def test_the_epochs_train_record_is_the_train_series_beside_its_running_value():
    names = ["Speed", "cross-entropy", "Train-cross-entropy", "Time cost", "Validation-cross-entropy"]
    assert [n for n, r in assign_roles(names).items() if r.primary] == ["Train-cross-entropy"]
    names = ["Speed", "mse", "Train-mse", "Time cost", "Validation-mse"]
    assert [n for n, r in assign_roles(names).items() if r.primary] == ["Train-mse"]
    # a loss named so stays the objective; a metric printed alone stays the objective
    assert [n for n, r in assign_roles(["loss", "mse", "Train-mse"]).items() if r.primary] == ["loss"]
    assert [n for n, r in assign_roles(["mse", "mae"]).items() if r.primary] == ["mse"]


def test_module_logs_read_with_the_epochs_train_record(tmp_path):
    for metric, every, val in (("cross-entropy", 5, True), ("cross-entropy", 10, False), ("mse", 4, True),
                               ("mse", 0, False)):
        text, records = _module(8, 20, every, metric, val)
        pts = _whole_and_live(tmp_path, text.encode(), f"module_{metric}_{every}.log", (f"Train-{metric}",))
        name = f"Train-{metric}"
        assert primary_names(pts) == [name], (metric, every, list(pts))
        assert pts[name][0] == list(range(8)), (metric, every, pts[name][0])
        assert pts[name][1] == records


def test_a_module_log_turning_nan_reads_its_nans(tmp_path):
    text, records = _module(12, 20, 0, "cross-entropy", False, nan_from=9)
    pts = _whole_and_live(tmp_path, text.encode(), "module_nan.log", ("Train-cross-entropy",))
    assert primary_names(pts) == ["Train-cross-entropy"]
    assert pts["Train-cross-entropy"][0] == list(range(12))
    assert all(math.isnan(v) for v in pts["Train-cross-entropy"][1][9:])


def _estimator(epochs: int, n: int, batch: int, every: int, acc: bool = True,
               val: bool = True) -> tuple[str, list[int], list[float]]:
    per_epoch = -(-n // batch)
    out = ["Training begin: using optimizer SGD with current learning rate 0.0500 \n", f"Train for {epochs} epochs.\n"]
    steps, losses = [], []
    g, samples, vloss = 0, 0, float("nan")
    for e in range(epochs):
        out.append(f"[Epoch {e}] Begin, current learning rate: 0.0500\n")
        total, cnt = 0.0, 0
        for b in range(per_epoch):
            size = min(batch, n - b * batch)
            samples += size
            loss = 1.1 * math.exp(-0.01 * g) + 0.03 * (g % 5)
            total, cnt = total + loss * size, cnt + size
            if b % every == 0:
                a = "training accuracy: 0.5000, " if acc else ""
                v = (", validation accuracy: nan" if acc else "") + f", validation loss: {vloss:.4f}"
                out.append(f"[Epoch {e}][Batch {b}][Samples {samples}] time/interval: 0.005s {a}training loss: "
                           f"{total / cnt:.4f}{v}\n")
                steps.append(g)
                losses.append(float(f"{total / cnt:.4f}"))
            g += 1
        if val:
            vloss = 0.9 * total / cnt
            out.append(f"Validation Begin\n[Epoch 0] Finished in 0.004s, validation loss: {vloss:.4f}\n")
        a = "training accuracy: 0.5422, " if acc else ""
        out.append(f"[Epoch {e}] Finished in 0.066s, {a}training loss: {total / cnt:.4f}, validation loss: "
                   f"{vloss:.4f}\n")
    return "".join(out), steps, losses


def test_estimator_batches_at_the_global_batch_the_epoch_end_no_batch_point(tmp_path):
    for epochs, n, batch, every, acc, val in ((4, 640, 32, 5, True, True), (6, 640, 16, 10, True, False),
                                              (8, 640, 32, 10, True, False)):
        text, steps, losses = _estimator(epochs, n, batch, every, acc, val)
        pts = _whole_and_live(tmp_path, text.encode(), f"est_{batch}_{every}.log", ("training loss",))
        assert "training loss" in primary_names(pts), list(pts)
        got = dict(zip(*pts["training loss"], strict=True))
        assert all(got.get(s) == v for s, v in zip(steps, losses, strict=True)), (every, got, steps, losses)


def test_estimator_epoch_length_from_the_samples_counter(tmp_path):
    # printed at batches 0, 4, 8 of 10: the largest batch printed (8) under-counts the epoch; Samples says 10
    for epochs, n, batch, every in ((5, 640, 64, 4), (5, 650, 64, 4), (3, 700, 32, 6)):
        text, steps, losses = _estimator(epochs, n, batch, every, acc=False)
        pts = _whole_and_live(tmp_path, text.encode(), f"est_s_{n}_{batch}_{every}.log",
                              ("training loss",))
        got = dict(zip(*pts["training loss"], strict=True))
        assert all(got.get(s) == v for s, v in zip(steps, losses, strict=True)), (n, every, got, steps)
