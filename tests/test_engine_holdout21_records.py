"""Shapes the reader missed on examples/libraries_holdout21 (issue 32), written as the libraries print them and read
by the one engine, whole and in pieces:

- one-line key=value records whose position is a key named as a statistic of a step (rlberry's writer in its
  ``one_line`` style: ``[MCValue[worker: 0]] | max_global_step = 3 | loss = 48.71 | episode_rewards = 17.0 |``, each
  step printed twice, the second time with one more tag): the key is the record's position when the record names
  none and it climbs as a step does; one point per step; a statistic of steps beside a step keeps its name;
- a run's closing summary listing a metric's history under a heading (Flower's ``History (loss, distributed):`` then
  ``round N: value`` rows, under the logger's prefix): each row a point of the series the heading names, at N."""

from __future__ import annotations

import math

from .test_engine_tables import _in_reads, _line_starts, _same_in_any_reads
from .test_read_misses import whole_as_live


def _rlberry_one_line(steps: int, worker: int = 0) -> list[str]:
    """rlberry's ``DefaultWriter`` with ``style='one_line'``: a message per scalar written (``loss`` then
    ``episode_rewards``), the first one before any reward."""
    out = []
    reward = None
    for s in range(1, steps + 1):
        loss = 115.44069041775472 / (1 + 0.1 * s) + (s % 3) * 0.37
        tags = f"| max_global_step = {s} | loss = {loss!r} |"
        if reward is not None:
            tags += f" episode_rewards = {reward!r} |"
        out.append(f"\x1b[38;21m[INFO] 09:34: [MCValue[worker: {worker}]] {tags}  \x1b[0m")
        reward = float(10 + (s * 7) % 31)
        out.append(f"\x1b[38;21m[INFO] 09:34: [MCValue[worker: {worker}]] | max_global_step = {s} | loss = {loss!r}"
                   f" | episode_rewards = {reward!r} |  \x1b[0m")
    return out


def _loss(s: int) -> float:
    return 115.44069041775472 / (1 + 0.1 * s) + (s % 3) * 0.37


def test_a_key_named_as_a_steps_statistic_is_the_records_position_one_point_a_step(tmp_path):
    """(Read in pieces as a store keeps the points: a step's record printed again with one more tag in the next
    read replaces the one before, as the last print at a step does in one read.)"""
    head = ["\x1b[38;21m[INFO] 09:34: Running ExperimentManager fit() for MCValue with n_fit = 1 and max_workers = 1."
            " \x1b[0m"]
    data = ("\n".join(head + _rlberry_one_line(24)) + "\n").encode()
    pts = whole_as_live(tmp_path, data, "oneline.log")
    for k, cuts in enumerate([(0.1, 0.5), (0.02, 0.33, 0.61, 0.9), tuple(i / 17 for i in range(1, 17))]):
        assert whole_as_live(tmp_path, data, f"oneline{k}.log", cuts) == pts
    assert pts["loss"][0] == list(range(1, 25))
    assert all(math.isclose(v, _loss(s)) for s, v in zip(range(1, 25), pts["loss"][1], strict=True))
    assert "max_global_step" not in pts


def test_a_steps_statistic_that_goes_back_stays_a_metric(tmp_path):
    """A key named so whose values go back (an episode's length) is no position: read whole, or in pieces whose
    first ones saw it climb (the file read again from its start once it goes back)."""
    lengths = [40 + s for s in range(1, 10)] + [12, 70, 33, 95, 20, 64]
    lines = [f"[INFO] 09:34: [Agent[worker: 0]] | max_episode_step = {n} | loss = {1.0 / s!r} |"
             for s, n in enumerate(lengths, 1)]
    data = ("\n".join(lines) + "\n").encode()
    pts = whole_as_live(tmp_path, data, "lengths.log", cuts=(0.1, 0.3, 0.5, 0.8))
    assert pts["max_episode_step"][1] == [float(n) for n in lengths]
    assert pts["loss"][0] == list(range(1, len(lengths) + 1))  # numbered by line order, as before


def test_workers_counting_their_own_steps_are_read_from_the_lowest(tmp_path):
    """Agents fitted side by side (``n_fit`` 2 in threads) print interleaved, each from step 1, tagged ``[worker:
    N]``: worker 0's records are the run's, the other's no points (as a launcher's ranks)."""
    zero, one = _rlberry_one_line(20, 0), _rlberry_one_line(20, 1)
    lines, j = [], 0
    for i, line in enumerate(zero):
        lines.append(line)
        if i % 3 == 1 and j < len(one):
            lines += one[j:j + 2]
            j += 2
    lines += one[j:]
    data = ("\n".join(lines) + "\n").encode()
    pts = whole_as_live(tmp_path, data, "workers.log")
    assert pts["loss"][0] == list(range(1, 21))
    assert all(math.isclose(v, _loss(s)) for s, v in zip(range(1, 21), pts["loss"][1], strict=True))
    late = ("\n".join(one[:6] + zero + one[6:]) + "\n").encode()  # the higher worker prints first
    pts = whole_as_live(tmp_path, late, "late.log", cuts=(0.05, 0.4, 0.7))
    assert pts["loss"][0] == list(range(1, 21))


def _flower_summary(losses: list[float], prefix: str = "\x1b[92mINFO \x1b[0m:      ") -> list[str]:
    out = []
    for r in range(1, len(losses) + 1):
        out += [f"{prefix}", f"{prefix}[ROUND {r}]", f"{prefix}configure_fit: strategy sampled 4 clients (out of 4)",
                f"{prefix}aggregate_fit: received 4 results and 0 failures",
                f"{prefix}configure_evaluate: strategy sampled 4 clients (out of 4)",
                f"{prefix}aggregate_evaluate: received 4 results and 0 failures"]
    out += [f"{prefix}", f"{prefix}[SUMMARY]", f"{prefix}Run finished {len(losses)} round(s) in 11.17s",
            f"{prefix}\tHistory (loss, distributed):"]
    out += [f"{prefix}\t\tround {r}: {v!r}" for r, v in enumerate(losses, 1)]
    out += [f"{prefix}",
            "\x1b[36m(ClientAppActor pid=9491)\x1b[0m \x1b[93mWARNING \x1b[0m:   Manually terminating ClientAppActor"]
    return out


def test_a_closing_summary_lists_the_metrics_history_a_point_a_row():
    losses = [2.6551757037312282, 0.639516735334094, 0.35864602718356725, 0.29896968204029484, 0.2789182919853161,
              0.2701161968505004, 0.2658032329787406, 0.2635808952131628]
    data = ("\n".join(["\x1b[92mINFO \x1b[0m:      Starting Flower ServerApp, config: num_rounds=8, no round_timeout",
                       *_flower_summary(losses)]) + "\n").encode()
    pts = _same_in_any_reads(data)
    assert pts["loss_distributed"] == (list(range(1, 9)), losses)
    assert "round" not in pts


def test_a_closing_history_overflowing_to_inf_and_cut_anywhere():
    losses = [2.5224131298364516e+39, 1.7785064000446006e+78, 1.253991654913548e+117, float("inf"), float("inf")]
    data = ("\n".join(_flower_summary(losses)) + "\n").encode()
    whole = _in_reads(data, [])
    assert whole["loss_distributed"][0] == [1, 2, 3, 4, 5]
    assert whole["loss_distributed"][1][3] == float("inf")
    starts = _line_starts(data)
    at = data.find(b"History")
    for cut in [s for s in starts if s > at - 40][:8]:  # cut right at the heading, and inside the rows
        assert _in_reads(data, [cut]) == whole, cut


def test_rows_of_a_position_with_no_heading_are_left_as_they_were():
    """``step N: value`` lines under no heading ending in ``:`` are no closing summary (left to the engine)."""
    data = ("Training\n" + "".join(f"  step {s}: {1.0 / s!r}\n" for s in range(1, 9))).encode()
    pts = _in_reads(data, [])
    assert not any(k.startswith("Training") for k in pts)
