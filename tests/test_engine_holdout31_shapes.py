"""Shapes the reader missed on examples/libraries_holdout31 (issue 32), written as a user's loop prints them and read
by the one engine, whole and in pieces:

- a torch scalar printed as it is (``print(f"loss: {loss}")``: ``loss: tensor(2.3017, grad_fn=<NllLossBackward0>)``,
  EvoX's monitor ``gen 10 tensor(6.7049)``, a dict of them ``{'loss': tensor(0.52), 'acc': tensor(0.81)}``): the
  number inside the repr, named by what comes before it (``Dialect.wrapper_reprs``), never ``tensor``;
- ``gen`` as the step's name (a generation), and an unnamed value a blank after the position (``gen 10 6.7049``,
  ``Epoch 3 0.5234``): the record's objective, as after a colon."""

from __future__ import annotations

import random

from .test_read_misses import primary_names, whole_as_live


def _losses(n: int, seed: int, start: float = 2.3) -> list[float]:
    rnd = random.Random(seed)
    out, v = [], start
    for _ in range(n):
        out.append(round(v, 4))
        v *= 0.9 + 0.09 * rnd.random()
    return out


def test_a_torch_scalar_printed_as_it_is_is_read_under_its_name(tmp_path):
    values = _losses(30, 1)
    lines = [f"step {10 * k} loss: tensor({v:.4f}, grad_fn=<NllLossBackward0>)" for k, v in enumerate(values, 1)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "tensor.log")
    assert "tensor" not in pts, pts.keys()
    assert list(zip(*pts["loss"], strict=True)) == [(10 * k, v) for k, v in enumerate(values, 1)]
    assert primary_names(pts) == ["loss"]


def test_a_dict_of_torch_scalars_reads_each_under_its_key(tmp_path):
    losses, accs = _losses(20, 2), [round(0.3 + 0.03 * k, 4) for k in range(20)]
    lines = [f"{{'step': {k}, 'loss': tensor({v:.4f}), 'acc': tensor({a:.4f})}}"
             for k, (v, a) in enumerate(zip(losses, accs, strict=True), 1)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "dict.log")
    assert pts["loss"][1] == losses and pts["acc"][1] == accs, pts.keys()
    assert "tensor" not in pts


def test_an_unnamed_value_a_blank_after_the_generation_is_the_objective(tmp_path):
    values = _losses(11, 3, start=12.2999)
    lines = [f"gen {10 * k} tensor({v:.4f})" for k, v in enumerate(values)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "evox.log")
    assert list(zip(*pts["objective"], strict=True)) == [(10 * k, v) for k, v in enumerate(values)], pts.keys()
    assert primary_names(pts) == ["objective"]


def test_a_count_a_blank_after_the_position_is_no_objective(tmp_path):
    """``Epoch 3 120 batches`` / ``Epoch 3 12.5s``: a count with its noun, a time with its unit: no objective."""
    lines = [f"Epoch {k} {12.5 + k}s loss: {1.0 / k:.4f}" for k in range(1, 15)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "units.log")
    assert "objective" not in pts and pts["loss"][0] == list(range(1, 15)), pts.keys()
