"""What examples/libraries_holdout52 showed of PyTorch-BigGraph (issue 32, fixpbg). A trainer works through each
epoch in parts (edge paths, then edge chunks: ``Starting epoch 3 / 8, edge path 1 / 1, edge chunk 2 / 3``), each
part through buckets (pairs of partitions), and prints per bucket lines opened by the bucket's tag in parentheses
(``( 1 , 0 ): bucket 2 / 4 : Processed 1454 edges in 1.46 s ( 0.00099 M/sec ); io: ...``, then ``( 1 , 0 ): loss:
2.7579 , violators_lhs: ...``, with ``Stats before training`` / ``Stats after training`` evaluations around). The
tag is which unit of work a line is about, like a rank's: no value and no step. A record with no position of its
own sits at the counter the last line of its tag printed in its part; the counter is nested under the banner's
parts: the bucket's step counts from 1 over the run, ((e - 1) x P x C + (p - 1) x C + c - 1) x B + b."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest

from .test_read_misses import primary_names, whole_and_pieces

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout52"
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402


class Stamp:
    """Python logging's default stamp, the clock moving on."""

    def __init__(self, on: bool):
        self.on, self.ms = on, 0

    def __call__(self) -> str:
        if not self.on:
            return ""
        self.ms += 37
        s, ms = divmod(self.ms, 1000)
        return f"2026-12-06 22:{39 + s // 60:02d}:{s % 60:02d},{ms:03d}   [Trainer-0] "


def pbg_log(epochs: int, paths: int, chunks: int, parts: int, seed: int, stamp: bool = True, tight: bool = False,
            evals: bool = True, nan_from: int | None = None) -> tuple[str, list[tuple[int, float]]]:
    """A PyTorch-BigGraph run's log and its loss at each bucket's global step (1-based). ``tight``: tags printed
    ``(1, 0)``; ``nan_from``: the loss NaN from that step on."""
    rng = random.Random(seed)
    st = Stamp(stamp)
    buckets = parts * parts
    out = ["Looking up relation types in the edge files...\n- Found 4 relation types\n",
           f"- Edges will be partitioned in {parts} x {parts} buckets.\n- Processed 6000 edges in total\n",
           f"{st()}Loading entity counts...\n{st()}Creating workers...\n{st()}Initializing global model...\n"]
    truth: list[tuple[int, float]] = []
    loss = 9.2 + rng.random()
    step = 0

    def tag(i: int, j: int) -> str:
        return f"({i}, {j})" if tight else f"( {i} , {j} )"

    def stats(when: str, pair: str, n: int) -> str:
        r = rng.uniform(100, 900)
        return (f"{st()}{pair}: Stats {when} training: pos_rank:  {r:.6g} , mrr:  {rng.random() / 20:.6g} , r1:  0 , "
                f"r10:  {rng.random() / 10:.6g} , r50:  {rng.random() / 3:.6g} , auc:  {rng.uniform(0.6, 0.95):.6g} "
                f", count:  {n}\n")

    for e in range(1, epochs + 1):
        for p in range(1, paths + 1):
            for c in range(1, chunks + 1):
                out.append(f"{st()}Starting epoch {e} / {epochs}, edge path {p} / {paths}, edge chunk {c} / "
                           f"{chunks}\n{st()}Edge path: data/edges_partitioned_{p}\n")
                pairs = [(i, j) for i in range(parts) for j in range(parts)]
                rng.shuffle(pairs)
                prev = "None"
                for b, (i, j) in enumerate(pairs, start=1):
                    step += 1
                    pair = tag(i, j)
                    out.append(f"{st()}still in queue: {buckets - b}\n{st()}Swapping partitioned embeddings {prev} "
                               f"{pair}\n{st()}{pair}: Loading entities\n")
                    if e == 1 and b == 1 and p == 1 and c == 1:
                        out.append("/venv/lib/python3.11/site-packages/torchbiggraph/train.py:136: UserWarning: "
                                   "Converting a tensor with requires_grad=True to a scalar\n  loss=float(loss),\n")
                    n = rng.randrange(300, 6000)
                    if evals:
                        out.append(stats("before", pair, n // 20))
                    t = rng.uniform(0.01, 1.5)
                    out.append(f"{st()}{pair}: bucket {b} / {buckets} : Processed {n} edges in {t:.2f} s "
                               f"( {n / t / 1e6:.2g} M/sec ); io: {t / 3:.2f} s "
                               f"( {rng.uniform(0.1, 30):.2f} MB/sec )\n")
                    loss = loss * rng.uniform(0.9, 1.02)
                    v = float("nan") if nan_from is not None and step >= nan_from else float(f"{loss:.6g}")
                    out.append(f"{st()}{pair}: loss:  {v:.6g} , violators_lhs:  {rng.uniform(5, 50):.6g} , "
                               f"violators_rhs:  {rng.uniform(5, 50):.6g} , count:  {n}\n")
                    truth.append((step, v))
                    if evals:
                        out.append(stats("after", pair, n // 20))
                    prev = pair
                out.append(f"{st()}Swapping partitioned embeddings {prev} None\n{st()}Writing partitioned embeddings\n"
                           f"{st()}Finished epoch {e} / {epochs}, edge path {p} / {paths}, edge chunk {c} / {chunks}\n"
                           f"{st()}Writing the metadata\n{st()}Writing the training stats\n"
                           f"{st()}Writing the checkpoint\n{st()}Switching to the new checkpoint version\n")
    out.append(f"{st()}Exiting\n")
    return "".join(out), truth


def _equal(got: list[float], want: list[float]) -> bool:
    return len(got) == len(want) and all(a == b or math.isnan(a) and math.isnan(b) for a, b in zip(got, want,
                                                                                                   strict=True))


@pytest.mark.parametrize(("epochs", "paths", "chunks", "parts", "stamp", "tight", "evals"), [
    (8, 1, 1, 2, True, False, True),  # the corpus' 2 x 2 buckets an epoch
    (6, 1, 3, 1, True, False, True),  # one bucket a chunk, three chunks an epoch
    (4, 1, 6, 1, True, False, False),
    (3, 2, 2, 2, True, True, True),  # two edge paths of two chunks, tags printed tight
    (2, 1, 2, 3, False, False, True),  # no stamp: 9 buckets a chunk
    (12, 1, 1, 1, False, True, False),  # one bucket an epoch: the epoch is the step
])
def test_a_tagged_record_sits_at_its_buckets_global_step(tmp_path, epochs, paths, chunks, parts, stamp, tight, evals):
    text, truth = pbg_log(epochs, paths, chunks, parts, seed=epochs * 100 + parts, stamp=stamp, tight=tight,
                          evals=evals)
    pts = whole_and_pieces(tmp_path, text.encode(), "pbg.log", seed=parts)
    assert pts["loss"][0] == [s for s, _ in truth], pts["loss"][0][:12]
    assert _equal(pts["loss"][1], [v for _, v in truth])
    assert pts["violators_lhs"][0] == [s for s, _ in truth]
    assert primary_names(pts) == ["loss"]
    assert not any("(" in k or k.lower().startswith("swapping") for k in pts)  # the tags are no values
    assert "s" not in pts and "0" not in pts  # (a rate after a time and its unit names nothing)


def test_the_evaluations_around_a_bucket(tmp_path):
    """``Stats after training`` is the bucket's, at its step; ``Stats before training`` measures the model the
    bucket before left (at that step; at 0 before the first), a series of its own (``before_``)."""
    text, truth = pbg_log(3, 1, 1, 2, seed=5)
    pts = whole_and_pieces(tmp_path, text.encode(), "evals.log", seed=9)
    steps = [s for s, _ in truth]
    assert pts["pos_rank"][0] == steps
    assert pts["before_pos_rank"][0] == [0, *steps[:-1]]
    after = [float(ln.split("pos_rank:")[1].split(",")[0]) for ln in text.splitlines() if "after training" in ln]
    assert pts["pos_rank"][1] == after


def test_a_nan_run_reads_its_nans_at_their_buckets(tmp_path):
    text, truth = pbg_log(2, 1, 1, 4, seed=3, nan_from=3)
    pts = whole_and_pieces(tmp_path, text.encode(), "nan.log", seed=4)
    assert pts["loss"][0] == list(range(1, 33))
    assert _equal(pts["loss"][1], [v for _, v in truth])
    assert math.isnan(pts["loss"][1][-1]) and not math.isnan(pts["loss"][1][1])


def test_records_of_tags_side_by_side_each_sit_at_their_own_tags_counter(tmp_path):
    """Two units worked on side by side (their lines interleaved): each record at the counter of its own tag's line
    before it, not at the last counter printed."""
    out = []
    step = 0
    want: list[tuple[int, float]] = []
    for e in (1, 2, 3):
        out.append(f"Starting epoch {e} / 3, edge chunk 1 / 1\n")
        for b in (1, 3):
            out.append(f"( 0 , {b} ): bucket {b} / 4 : Processed 100 edges in 0.01 s ( 0.01 M/sec )\n"
                       f"( 1 , {b} ): bucket {b + 1} / 4 : Processed 100 edges in 0.01 s ( 0.01 M/sec )\n")
            for k in (0, 1):
                v = round(5.0 - e / 10 - b / 100 - k / 1000, 4)
                out.append(f"( {k} , {b} ): loss:  {v} , count:  100\n")
                want.append((step + b + k, v))
        step += 4
    pts = whole_and_pieces(tmp_path, "".join(out).encode(), "side.log", seed=2)
    got = dict(zip(*pts["loss"], strict=True))
    assert got == dict(want)


def test_parts_of_an_epoch_each_with_one_record(tmp_path):
    """A banner with its epoch's parts, one record with no position under each part: the part's number is its step."""
    out, want = [], []
    for e in (1, 2, 3, 4):
        for c in (1, 2, 3):
            v = round(3.0 - e / 5 - c / 50, 4)
            out.append(f"Starting epoch {e} / 4, edge chunk {c} / 3\nloss:  {v} , count:  200\nWriting stats\n")
            want.append(((e - 1) * 3 + c, v))
    pts = whole_and_pieces(tmp_path, "".join(out).encode(), "parts.log", seed=1)
    assert list(zip(*pts["loss"], strict=True)) == want


def _pbg_runs() -> list[str]:
    return sorted(p.name for p in FOLDER.glob("pbg_*") if (p / "truth.json").is_file())


@pytest.mark.parametrize("run", _pbg_runs())
def test_the_corpus_runs_read_at_the_truths_steps(tmp_path, run):
    folder = FOLDER / run
    truth = json.loads((folder / "truth.json").read_text())
    pts = whole_and_pieces(tmp_path, (folder / "train.log").read_bytes(), "train.log", seed=len(run), trials=2)
    got = dict(zip(*pts["loss"], strict=True))
    for step, v in truth["train_loss"]:
        assert step in got, (run, step)
        t = float(v)
        if math.isnan(t):
            assert math.isnan(got[step]), (run, step)
        else:
            assert abs(got[step] - t) <= read_corpus._tolerance(t, truth["tolerance"]), (run, step, got[step], t)
    assert sorted(got) == [s for s, _ in truth["train_loss"]]
    assert primary_names(pts) == ["loss"]
