"""Shapes examples/libraries_holdout71 showed of NVFlare's simulator (fixsites), each as a general notion:

1. several processes (federated sites) print into one log through one logger, each line naming its process by a tag
   opening its message (``... - INFO - site=site-1, Epoch: 0/1, Iteration: 3, Loss: 0.68``; ``rank=0``,
   ``[worker-2]``): a process as a launcher's prefix names one (``streams.message_tag``), each kind of record read
   from the lowest process seen, never two processes in one series, said in the notes;
2. a step counter that goes back to its start under a later unit larger than the step (a round: ``Round 2
   started.``, ``current_round=2``) continues where it stopped, as an epoch's batch counter does: the global step
   (``engine._continue_rounds``); one going back with no such unit between is a new run, as before.

Generated logs (sites, rounds, local epochs, print intervals, tag forms) read whole and in pieces, and the corpus
files read at their truth's steps."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from training_check.tools.parsers.streams import message_tag

from tests.test_read_misses import _live, points_at, whole_and_pieces, whole_as_live

SET = Path(__file__).resolve().parents[1] / "examples" / "libraries_holdout71"
TAGS = {"kv": "site=site-{k},", "rank": "rank={k0}", "bracket": "[worker-{k}]", "client": "client: {k}"}


def _stamp(t: int) -> str:
    return f"2026-12-07 08:{t // 60 % 60:02d}:{t % 60:02d},{(t * 37) % 1000:03d}"


def _federated(sites: int, rounds: int, per_round: int, every: int, local_epochs: int = 1, tag: str = "kv",
               banner: bool = True, round_record: bool = True, seed: int = 0, zero_based: bool = False,
               ) -> tuple[bytes, list[tuple[int, float]]]:
    """A federated run's log (``sites`` clients trained in turn each round, one logger) and the first site's loss
    at its global iteration: round x per_round x local_epochs + epoch x per_round + the printed iteration (printed
    every ``every``, 0-based: at i % every == every - 1, or from 0 with ``zero_based``)."""
    rng = random.Random(seed)
    out, truth, t = [f"{_stamp(0)} - INFO - Beginning model controller run."], [], 1
    printed = [i for i in range(per_round) if (i % every == 0 if zero_based else i % every == every - 1)]
    for r in range(rounds):
        if banner:
            out += [f"{_stamp(t)} - INFO - ", "-" * 80, f"Round {r} started.".center(80), "-" * 80, ""]
        out.append(f"{_stamp(t)} - INFO - Sampled clients: {[f'site-{k}' for k in range(1, sites + 1)]}")
        for k in range(1, sites + 1):
            tg = TAGS[tag].format(k=k, k0=k - 1)
            out.append(f"{_stamp(t)} - INFO - start task run() for client: site-{k}")
            if round_record:
                out.append(f"{_stamp(t)} - INFO - {tg} current_round={r}")
            for e in range(local_epochs):
                for i in printed:
                    v = 2.0 * math.exp(-0.03 * (r * per_round * local_epochs + e * per_round + i)) + rng.random() / 50
                    v += 0.3 * k
                    out.append(f"{_stamp(t)} - INFO - {tg} Epoch: {e}/{local_epochs}, Iteration: {i}, Loss: {v!r}")
                    t += 1
                    if k == 1:
                        truth.append(((r * local_epochs + e) * per_round + i, v))
            out.append(f"{_stamp(t)} - INFO - Finished Training for site-{k}")
            out.append(f"{_stamp(t)} - INFO - Aggregated {k}/{sites} results")
    return ("\n".join(out) + "\n").encode(), truth


def _loss(pts: dict) -> list[tuple[int, float]]:
    return points_at(pts, "Loss")


@pytest.mark.parametrize("tag", sorted(TAGS))
def test_each_sites_lines_tagged_in_its_message_read_from_the_first_site_at_its_global_step(tmp_path, tag):
    data, truth = _federated(sites=2, rounds=4, per_round=8, every=2, tag=tag)
    pts = whole_and_pieces(tmp_path, data, f"fed_{tag}.log")
    assert _loss(pts) == truth, tag  # site-1's values only (site-2's are 0.3 higher), at round x 8 + iteration
    assert [s for s, _v in truth] == [r * 8 + i for r in range(4) for i in (1, 3, 5, 7)]


@pytest.mark.parametrize("seed", range(24))
def test_generated_federated_runs_read_at_their_global_steps_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    per_round = rng.choice([4, 8, 12, 16, 30])
    # (printed at least twice a round, every d dividing the round's length: the length is inferred from the prints,
    # as an epoch's batch counter's is, ``engine._continue_inner``)
    every = rng.choice([d for d in (1, 2, 3, 4, 5) if per_round % d == 0 and per_round // d >= 2])
    sites, rounds, local_epochs = rng.randint(1, 3), rng.randint(2, 6), rng.choice([1, 1, 2, 3])
    banner, round_record = rng.choice([(True, True), (True, False), (False, True)])
    data, truth = _federated(sites, rounds, per_round, every, local_epochs, rng.choice(sorted(TAGS)), banner,
                             round_record, seed, zero_based=rng.random() < 0.3)
    pts = whole_as_live(tmp_path, data, f"gen{seed}.log")
    assert _loss(pts) == truth, (seed, sites, rounds, per_round, every, local_epochs, banner, round_record)
    pieces = whole_and_pieces(tmp_path, data, f"gen{seed}_p.log", seed=seed)
    assert _loss(pieces) == truth


def test_the_notes_say_which_process_is_read_and_that_rounds_continue(tmp_path):
    from training_check.tools.sources.files import LocalFileSystem
    from training_check.tools.sources.logfile import LogFileSource

    data, _truth = _federated(sites=3, rounds=3, per_round=8, every=2)
    p = tmp_path / "fed.log"
    p.write_bytes(data)
    notes = LogFileSource(LocalFileSystem(), str(p)).read(None).notes
    assert any("tags opening their messages such as site=site-1" in n for n in notes), notes
    assert any("restarted under each new round" in n for n in notes), notes
    assert not any("runs" in n and "holds" in n for n in notes), notes


def test_a_counter_going_back_with_no_round_between_is_still_a_new_run(tmp_path):
    """Two runs appended to one log, each counting from 1, no larger unit between them: the last run is read (the
    round continuation needs a round that moved on)."""
    lines = [f"{_stamp(s)} - INFO - Epoch: 0/1, Iteration: {s}, Loss: {1 / s:.4f}" for s in range(1, 21)]
    lines += [f"{_stamp(s)} - INFO - Epoch: 0/1, Iteration: {s}, Loss: {2 / s:.4f}" for s in range(1, 21)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "two_runs.log")
    assert _loss(pts) == [(s, float(f"{2 / s:.4f}")) for s in range(1, 21)]


def test_a_round_that_does_not_move_on_continues_nothing(tmp_path):
    """The same round printed again (a relaunch of round 0) before the counter goes back: no later unit, a new run."""
    lines = ["round: 0"] + [f"step {s} loss {1 / s:.4f}" for s in range(1, 11)]
    lines += ["round: 0"] + [f"step {s} loss {3 / s:.4f}" for s in range(1, 11)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "same_round.log")
    assert _loss_of(pts) == [(s, float(f"{3 / s:.4f}")) for s in range(1, 11)]


def _loss_of(pts: dict) -> list[tuple[int, float]]:
    return points_at(pts, "loss")


def test_a_tag_inside_a_record_names_no_process(tmp_path):
    """``rank=`` after a record's values is a value's context, not the line's process: every line is read."""
    assert message_tag(b"2026-12-07 08:00:00,001 - INFO - site=site-2, Loss: 0.5") == (2, b"site=site-2")
    assert message_tag(b"[2026-12-07 08:00:00][INFO] [worker-3] loss 0.5") == (3, b"[worker-3]")
    assert message_tag(b"2026-12-07 08:00:00 INFO rank: 1 step 3 loss 0.5") == (1, b"rank: 1")
    assert message_tag(b"step 3 loss 0.5 rank=1") is None
    assert message_tag(b"2026-12-07 08:00:00 - INFO - lr=0.1, rank=1") is None
    assert message_tag(b"- INFO - site=site-a, loss 0.5") is None  # (no number: no process told apart)
    assert message_tag(b"- INFO - rank=0.5, loss 0.5") is None  # (a value, not a tag)
    lines = [f"step {s} loss {1 / s:.4f} rank={s % 2}" for s in range(1, 21)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "inside.log")
    assert [s for s, _v in _loss_of(pts)] == list(range(1, 21))


def test_a_hostile_line_of_tags_reads_in_linear_time(tmp_path):
    import time

    line = ("- INFO - " + "site=site-" * 2000 + "1, loss 0.5\n").encode()
    t = time.perf_counter()
    for _ in range(200):
        message_tag(line)
    assert time.perf_counter() - t < 1.0
    data = (b"- INFO - site=site-1, step 1 loss 0.5\n" + line * 50 + b"- INFO - site=site-2, step 1 loss 0.7\n")
    _live(tmp_path, data, [len(data) // 3], name="hostile.log")


def _truth(run: Path) -> list[tuple[int, float]]:
    t = json.loads((run / "truth.json").read_text())
    return [(int(s), float(v)) for s, v in t["train_loss"]]


@pytest.mark.parametrize("run", sorted(p.name for p in SET.glob("nvflare_*")) if SET.exists() else [])
def test_holdout71_nvflare_runs_read_at_the_truths_steps(tmp_path, run):
    data = (SET / run / "train.log").read_bytes()
    pts = whole_as_live(tmp_path, data, f"{run}.log")
    got = dict(_loss(pts))
    truth = _truth(SET / run)
    for s, v in truth:
        assert s in got, (run, s)
        assert got[s] == pytest.approx(v, rel=1e-6) or math.isnan(v) and math.isnan(got[s]), (run, s, got[s], v)
    assert sorted(got) == [s for s, _v in truth], run
