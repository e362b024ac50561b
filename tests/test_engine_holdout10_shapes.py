"""The shapes the reader missed on examples/libraries_holdout10 (issue 32), written as the libraries print them and
read by the one engine, whole and in pieces:

- a bar of the run's epochs whose description carries the epoch and its loss (torchkge's README loop:
  ``Epoch 11 | mean loss: 103.72649:  30%|███       | 9/30``), set each epoch and drawn before tqdm counts it, the
  count moving only every 0.1 s: the epoch printed is the step, whatever the count says;
- a bar whose postfix is the best so far (hyperopt's ``best loss: 0.04``), its count exact: each count a point, a
  repeat included (Lightning's loss logged every k steps and redrawn every step keeps one point per change:
  tests/test_engine_holdout8_shapes.py);
- a record of several lines after a line naming its position (scikit-optimize's ``Iteration No: 7 started.``, then
  ``Function value obtained: 0.67`` and ``Current minimum: 0.42``): the values are that position's, and the best so
  far named alone is the run's objective (one evaluation a step is a draw; the search's state is its best)."""

from __future__ import annotations

import math
import random

from training_check.tools.objective import assign_roles
from training_check.tools.roles import is_bare_running_best

from .test_read_misses import _live, whole_as_live

FULL = "\u2588"




def _epoch_bar(losses: list[float], sync: list[int]) -> bytes:
    """torchkge's loop: ``tqdm(range(n), unit='epoch')`` on stderr, ``set_description`` after each epoch (drawn at
    the count tqdm last showed), the count drawn anew after the epochs in ``sync``, the close at N/N."""
    n = len(losses)

    def bar(ep: int | None, loss: float | None, shown: int) -> str:
        full = 10 * shown // n
        desc = "" if ep is None else f"Epoch {ep} | mean loss: {loss:.5f}: "
        rate = "?epoch/s" if not shown else "84.48epoch/s"
        return f"\r{desc}{100 * shown // n:3d}%|{FULL * full}{' ' * (10 - full)}| {shown}/{n} [00:00<00:00, {rate}]"

    out, shown = [bar(None, None, 0)], 0
    for ep, loss in enumerate(losses, start=1):
        out.append(bar(ep, loss, shown))
        if ep in sync:
            shown = ep
            out.append(bar(ep, loss, shown))
    out.append(bar(n, losses[-1], n) + "\n")
    return "".join(out).encode()


def _falling(n: int, seed: int) -> list[float]:
    rnd = random.Random(seed)
    v, out = 240.0, []
    for _ in range(n):
        v *= 0.9 + 0.12 * rnd.random()
        out.append(round(v, 5))
    return out


def test_epoch_printed_in_a_lagging_bar_description_is_the_step(tmp_path):
    """The count 0 for the first 8 epochs, synced at 9 and 20, the close at 30: one point an epoch, at the epoch."""
    losses = _falling(30, 1)
    pts = whole_as_live(tmp_path, _epoch_bar(losses, [9, 20]), "kge_sync")
    assert pts["mean loss"] == (list(range(1, 31)), losses)


def test_epoch_bar_never_synced_before_its_close_nan_from_the_second_epoch(tmp_path):
    """A run that blew up: the count 0 until the close, the loss NaN from its second epoch: each epoch a point."""
    losses = [4857.46221] + [math.nan] * 11
    pts = whole_as_live(tmp_path, _epoch_bar(losses, []), "kge_nan")
    steps, got = pts["mean loss"]
    assert steps == list(range(1, 13))
    assert got[0] == 4857.46221 and all(math.isnan(v) for v in got[1:])


def test_epoch_bar_with_a_climbing_count_keeps_its_steps(tmp_path):
    """A count that climbs with each epoch's description (drawn after tqdm counts): the same steps."""
    losses = _falling(20, 2)
    pts = whole_as_live(tmp_path, _epoch_bar(losses, list(range(1, 21))), "kge_climb")
    assert pts["mean loss"] == (list(range(1, 21)), losses)


def _best_bar(losses: list[float]) -> bytes:
    """hyperopt's fmin bar on stderr: the count moved each trial, the postfix the best loss so far (``str`` of the
    float), the 100 % bar twice at the close, then the best point printed on stdout."""
    n = len(losses)

    def bar(shown: int, best: str) -> str:
        full = 10 * shown // n
        rate = "?trial/s" if not shown else "4.41trial/s"
        sep = "=" if best == "?" else ": "
        return (f"\r{100 * shown // n:3d}%|{FULL * full}{' ' * (10 - full)}| {shown}/{n} [00:00<00:02, {rate}, "
                f"best loss{sep}{best}]")

    out, best = [bar(0, "?")], math.inf
    for i, v in enumerate(losses, start=1):
        best = min(best, v)
        out.append(bar(i, repr(best)))
    out.append(bar(n, repr(best)) + "\n")
    out.append("{'alpha': np.float64(0.0119881831218696), 'width': np.int64(0)}\n")
    return "".join(out).encode()


def test_running_best_in_a_bar_postfix_is_each_count_repeats_included(tmp_path):
    rnd = random.Random(3)
    losses = [0.02 + 0.1 * rnd.random() for _ in range(25)]
    best = [min(losses[:i + 1]) for i in range(25)]
    assert len(set(best)) < 10  # mostly repeats: one point per change would miss most trials
    pts = whole_as_live(tmp_path, _best_bar(losses), "hyperopt")
    assert pts["best loss"] == (list(range(1, 26)), best)


def _skopt(values: list[float], n_random: int = 5) -> bytes:
    """scikit-optimize's VerboseCallback: 5 lines a call, the position line first."""
    out, best = [], math.inf
    for i, v in enumerate(values, start=1):
        best = min(best, v)
        if i <= n_random:
            out += [f"Iteration No: {i} started. Evaluating function at random point.",
                    f"Iteration No: {i} ended. Evaluation done at random point."]
        else:
            out += [f"Iteration No: {i} started. Searching for the next optimal point.",
                    f"Iteration No: {i} ended. Search finished for the next optimal point."]
        out += [f"Time taken: {0.1 + 0.01 * i:.4f}", f"Function value obtained: {v:.4f}",
                f"Current minimum: {best:.4f}"]
    return ("\n".join(out) + "\n").encode()


def test_values_after_a_position_line_are_that_positions_and_the_best_is_the_objective(tmp_path):
    rnd = random.Random(4)
    values = [round(0.4 + 2 * rnd.random(), 4) for _ in range(25)]
    best = [min(values[:i + 1]) for i in range(25)]
    data = _skopt(values)
    pts = whole_as_live(tmp_path, data, "skopt")
    assert pts["Function value obtained"] == (list(range(1, 26)), values)
    assert pts["Current minimum"] == (list(range(1, 26)), best)
    roles = assign_roles(list(pts))
    assert roles["Current minimum"].primary and roles["Current minimum"].role == "train_loss"
    for k in range(8):  # cut at each of the first calls' lines
        at = [i for i, c in enumerate(data) if c == 0x0A][3 * k + 1]
        assert _live(tmp_path, data, [at, at + 17], name=f"skopt_{k}") == pts, k


def test_a_best_named_with_its_quantity_or_a_per_step_value_is_not_a_bare_best():
    roles = assign_roles(["Function value obtained", "Current minimum"])
    assert roles["Current minimum"].primary
    roles = assign_roles(["loss", "best loss"])
    assert not roles["best loss"].primary
    assert not any(is_bare_running_best(n) for n in ("min", "best loss", "best_eval", "value best", "lr min"))
    assert all(is_bare_running_best(n) for n in ("Current minimum", "best so far", "best", "best value"))


def test_a_per_epoch_bar_drawn_before_its_epoch_is_printed_keeps_counting_batches(tmp_path):
    """ignite's bar: each epoch's bar drawn first at ``[1/6]`` with no epoch, then ``Epoch [2/3]: [1/6]``: a
    restart at the epoch change, not a count lagging the epochs (the global batch, as before)."""
    out, k = [], 0
    for ep in range(1, 4):
        out.append("\r[1/6]   16%|#          [00:00<?]")
        for b in range(1, 7):
            k += 1
            out.append(f"\rEpoch [{ep}/3]: [{b}/6]  {100 * b // 6:3d}%|#         , loss={1.0 / k:.3g} [00:00<00:00]")
        out.append("\n")
    pts = whole_as_live(tmp_path, "".join(out).encode(), "ignite")
    steps, _ = pts["loss"]
    assert steps[-1] == 18 and steps == sorted(steps)
