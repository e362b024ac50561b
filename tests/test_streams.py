"""Issue 32 (records, not lines): several processes in one log, counters under an epoch, a bar's logged value, lines
of any length and the same points whatever the file's age or read sizes. Real runs (tests/fixtures/streams: torchrun,
mpirun, Lightning) and real tqdm bars, read through the real LogFileSource."""

from __future__ import annotations

import csv
import functools
import json
import math
import os
import random
import re
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

FIX = Path(__file__).parent / "fixtures" / "streams"
FS = LocalFileSystem()
OLD = (1.0, 1.0)  # an mtime long past: the file has settled


def _points(path: Path, **kw) -> tuple[dict[str, dict[int, float]], list[str]]:
    """Every point of a whole read (its parts too), a later point at a step replacing an earlier one; the notes."""
    src = LogFileSource(FS, str(path), **kw)
    cur, pts, notes = None, {}, []
    while True:
        res = src.read(cur)
        cur = res.cursor
        notes += [n for n in res.notes if n not in notes]
        for k, c in res.batch.columns.items():
            pts.setdefault(k, {}).update(zip(c.steps.tolist(), c.values.tolist(), strict=True))
        if not res.more:
            return pts, notes


def _settled_copy(tmp_path: Path, data: bytes, name: str = "train.log") -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    os.utime(p, OLD)
    return p


def _printed(path: Path, pattern: str) -> dict[int, float]:
    return {int(m.group(1)): float(m.group(2)) for m in re.finditer(pattern, path.read_text())}


# -- 1. streams ----------------------------------------------------------------------------------------------------
def test_torchrun_tee_reads_rank_0_once_and_says_so(tmp_path):
    log = FIX / "torchrun_tee_2ranks.log"
    assert log.read_text().startswith("W1205") and "[default1]:epoch 0 step 5" in log.read_text()
    pts, notes = _points(_settled_copy(tmp_path, log.read_bytes()))
    rank0 = _printed(log, r"\[default0\]:epoch \d+ step (\d+) loss ([\d.]+)")
    assert pts["loss"] == rank0  # (rank 1's first record came first, at the same step: rank 0's replaces it)
    assert len(pts["loss"]) == 40  # not 80: rank 1's copy of each record is no point
    assert any("several processes" in n and "[default1]:" in n and "lowest rank" in n for n in notes)


def test_mpirun_reads_rank_0(tmp_path):
    log = FIX / "mpirun_tag_output_3ranks.log"
    pts, notes = _points(_settled_copy(tmp_path, log.read_bytes()))
    rank0 = _printed(log, r"\[1,0\]<stdout>:iter (\d+): loss ([\d.]+)")
    first = min(rank0)  # another rank's record printed before rank 0's first: read, then rank 0's at its step
    assert {s: v for s, v in pts["loss"].items() if s > first} == {s: v for s, v in rank0.items() if s > first}
    assert len(pts["loss"]) == 40 and not any("runs" in n for n in notes)
    assert any("several processes" in n for n in notes)


def test_lightning_ddp_under_torchrun_reads_every_logged_point_at_its_step(tmp_path):
    log = FIX / "lightning_ddp_torchrun_tee.log"
    assert "[default1]:" in log.read_text()
    truth = {int(r["step"]): float(r["train_loss"])
             for r in csv.DictReader(open(FIX / "lightning_ddp_torchrun_tee.metrics.csv")) if r["train_loss"]}
    pts, notes = _points(_settled_copy(tmp_path, log.read_bytes()))
    for step, v in truth.items():  # rank 0's value (the logger's), as the bar prints it (3 significant digits)
        assert math.isclose(pts["train_loss"][step], v, rel_tol=5e-3), step
    assert max(pts["train_loss"]) == 79 and any("several processes" in n for n in notes)


def test_a_rank_s_line_of_redraws_read_in_pieces_stays_that_rank_s(tmp_path):
    data = _fixture_bytes("prefixed_bars")
    pts = _split_read(tmp_path / "p.log", data, [len(data) // 7 * k for k in range(1, 7)], chunk_bytes=4096,
                      part_bytes=4096)
    assert len(pts["loss"]) > 850 and max(pts["loss"].values()) < 9  # rank 1's loss=9... is never read


def _interleave(ranks: dict[int, list[str]], seed: int) -> list[str]:
    """The ranks' lines merged at random (each rank's in its order): any interleaving a launcher may write."""
    rng = random.Random(seed)
    heads = {r: 0 for r in ranks}
    out = []
    while heads:
        r = rng.choice(sorted(heads))
        out.append(ranks[r][heads[r]])
        heads[r] += 1
        if heads[r] == len(ranks[r]):
            del heads[r]
    return out


def test_any_interleaving_of_ranks_reads_the_same_points(tmp_path):
    lines = (FIX / "torchrun_tee_2ranks.log").read_text().splitlines(keepends=True)
    ranks = {r: [ln for ln in lines if ln.startswith(f"[default{r}]:")] for r in (0, 1)}
    want, _ = _points(_settled_copy(tmp_path, (FIX / "torchrun_tee_2ranks.log").read_bytes(), "a.log"))
    for seed in range(5):
        got, _ = _points(_settled_copy(tmp_path, "".join(_interleave(ranks, seed)).encode(), f"s{seed}.log"))
        assert got == want


def test_srun_labels_are_ranks_and_a_counter_at_line_start_is_not(tmp_path):
    """srun --label writes ``%*d: `` (the task, right-aligned) before each line; a loop's own ``N: `` counter at a
    line's start climbs and is never taken for ranks."""
    lines = (FIX / "torchrun_tee_2ranks.log").read_text().splitlines(keepends=True)
    ranks = {r: [ln.replace(f"[default{r}]:", "") for ln in lines if ln.startswith(f"[default{r}]:")] for r in (0, 1)}
    labelled = [f"{r}: {ln}" for r, ln in zip(*_label_order(ranks), strict=True)]
    pts, notes = _points(_settled_copy(tmp_path, "".join(labelled).encode(), "srun.log"))
    want = {int(m.group(1)): float(m.group(2)) for m in (re.search(r"step (\d+) loss ([\d.]+)", ln)
                                                          for ln in ranks[0]) if m}
    assert {s: v for s, v in pts["loss"].items() if s >= 20} == {s: v for s, v in want.items() if s >= 20}
    assert any("several processes" in n and re.search(r"such as \d+:", n) for n in notes)
    counter = "".join(f"{i}: loss {1 / (i + 1):.4f}\n" for i in range(200))
    pts, notes = _points(_settled_copy(tmp_path, counter.encode(), "counter.log"))
    assert len(pts["loss"]) == 200 and not any("processes" in n for n in notes)


def test_srun_labels_of_tasks_that_print_one_after_the_other_are_ranks(tmp_path):
    """``srun --label -n 2`` over a script whose stdout is a file: each task's buffered lines come in one piece at its
    exit, task 0's then task 1's, so the labels never go back; a label leading the same record on line after line is
    still a task's (a counter numbers each record anew). Task 0's records are the run, task 1's copies are not read
    as a second run, in one read or in parts."""
    lines = (FIX / "torchrun_tee_2ranks.log").read_text().splitlines(keepends=True)
    ranks = {r: [ln.replace(f"[default{r}]:", "") for ln in lines if ln.startswith(f"[default{r}]:")] for r in (0, 1)}
    want = {int(m.group(1)): float(m.group(2)) for m in (re.search(r"step (\d+) loss ([\d.]+)", ln)
                                                          for ln in ranks[0]) if m}
    data = "".join(f"{r}: {ln}" for r in (0, 1) for ln in ranks[r]).encode()
    pts, notes = _points(_settled_copy(tmp_path, data, "srun.log"))
    assert pts["loss"] == want
    assert any("several processes" in n and re.search(r"such as \d+:", n) for n in notes)
    pts, _ = _points(_settled_copy(tmp_path, data, "srun_parts.log"), chunk_bytes=777)
    assert pts["loss"] == want
    # a counter at line start that leads two kinds of line each (a train and an eval line per iteration) climbs:
    # no ranks, every iteration read at its number
    counter = "".join(f"{i}: loss {1 / (i + 1):.4f}\n{i}: val_loss {2 / (i + 1):.4f}\n" for i in range(50))
    pts, notes = _points(_settled_copy(tmp_path, counter.encode(), "counter.log"))
    assert sorted(pts["loss"]) == list(range(50)) and not any("processes" in n for n in notes)


def _label_order(ranks: dict[int, list[str]]) -> tuple[list[int], list[str]]:
    merged = _interleave({r: [(r, ln) for ln in v] for r, v in ranks.items()}, 7)  # type: ignore[misc]
    return [r for r, _ in merged], [ln for _, ln in merged]


# -- 2. a counter under an epoch -----------------------------------------------------------------------------------
def test_a_counter_that_climbs_across_epochs_is_the_global_step(tmp_path):
    text = "".join(f"Epoch [{e + 1}/8], Step [{e * 100 + i}/800], Loss: {1 / math.sqrt(e * 100 + i):.4f}\n"
                   for e in range(8) for i in range(10, 101, 10))
    pts, _ = _points(_settled_copy(tmp_path, text.encode()))
    assert sorted(pts["Loss"]) == list(range(10, 801, 10))  # not 6,400 = 7 x 800 + 800


def test_a_counter_that_restarts_each_epoch_is_per_epoch(tmp_path):
    text = "".join(f"Epoch [{e + 1}/8], Step [{i}/100], Loss: {1 / math.sqrt(e * 100 + i):.4f}\n"
                   for e in range(8) for i in range(10, 101, 10))
    pts, _ = _points(_settled_copy(tmp_path, text.encode()))
    assert sorted(pts["Loss"]) == list(range(10, 801, 10))


# -- 3. a bar's logged value ---------------------------------------------------------------------------------------
def test_lightning_epoch_value_in_the_bar_is_one_point_per_change_at_its_step(tmp_path):
    log = FIX / "lightning_epoch_loss_in_bar.log"
    truth = {int(r["step"]): float(r["train_loss"]) for r in csv.DictReader(open(FIX / (log.stem + ".metrics.csv")))}
    pts, _ = _points(_settled_copy(tmp_path, log.read_bytes()))
    got = pts["train_loss"]
    # 750 redraws: one point per redraw once; then one per change (37: a converged run prints 0.009 epoch after
    # epoch); now one per epoch's end, as the logger records it: a value whose every change came at an epoch's end is
    # the epoch's, its repeats at the ends included (fixepochval)
    assert sorted(got) == sorted(truth)
    for step, v in got.items():  # each at the logger's step, with the logged value (as printed: 3 digits)
        assert math.isclose(v, truth[step], rel_tol=5e-3, abs_tol=5e-4), (step, v)


def test_tqdm_postfix_set_every_10_steps_gives_one_point_per_set(tmp_path):
    from tqdm import tqdm

    p = tmp_path / "bar.log"
    with open(p, "w") as f:
        bar = tqdm(total=200, desc="train", file=f, mininterval=0, miniters=1)
        for step in range(1, 201):
            if step % 10 == 1:
                bar.set_postfix(loss=f"{2.0 / step:.4f}", refresh=False)
            bar.update(1)
        bar.close()
    os.utime(p, OLD)
    pts, _ = _points(p)
    # one point per set: the first repeats (steps 2 and 3, kept until repeats were half the points) are dropped once
    # the repeats show the value is set less often than the bar redraws (the file read again knowing it)
    assert sorted(pts["loss"]) == [1, *range(11, 201, 10)]
    assert pts["loss"][11] == round(2.0 / 11, 4)


# -- 4. any line length --------------------------------------------------------------------------------------------
def _bar_log(path: Path, epochs: int, steps: int) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from bar_log import write_bar_log

    write_bar_log(str(path), epochs, steps)
    os.utime(path, OLD)


def test_a_bar_log_with_one_newline_an_epoch_is_read_in_pieces(tmp_path):
    """Each epoch one line of 1,000 \\r redraws (83 KB): more than a chunk, read in pieces of 4 KB all the same."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from bar_log import loss_at

    p = tmp_path / "bars.log"
    _bar_log(p, 6, 1000)
    seen: list[float] = []
    src = LogFileSource(FS, str(p), chunk_bytes=4096, part_bytes=4096, max_line=16384)
    cur, pts = None, {}
    while True:
        res = src.read(cur, progress=lambda d, t, m: seen.append(d))
        cur = res.cursor
        for k, c in res.batch.columns.items():
            pts.setdefault(k, {}).update(zip(c.steps.tolist(), c.values.tolist(), strict=True))
        if not res.more:
            break
    # every step's value (one printed as the step before by chance too: it changes with almost every step)
    assert pts["loss"] == {s: loss_at(s) for s in range(1, 6001)}
    assert len(seen) > 100 and not any("skipped" in n for n in res.notes)


def test_a_file_without_any_line_break_costs_no_hang_and_no_memory(tmp_path):
    p = tmp_path / "blob.log"
    with open(p, "wb") as f:
        f.write(b"step 1 loss 2.0\n")
        for _ in range(64):
            f.write(b"x" * (1 << 16))  # 4 MB with no \n and no \r
        f.write(b"\nstep 2 loss 1.5\n")
    os.utime(p, OLD)
    seen: list[float] = []
    t = time.monotonic()
    res = LogFileSource(FS, str(p), chunk_bytes=1 << 16, max_line=1 << 16).read(None, progress=lambda d, t_, m:
                                                                              seen.append(d))
    assert time.monotonic() - t < 60 and len(seen) > 10
    assert res.batch.columns["loss"].steps.tolist() == [1, 2]
    assert any("skipped 1 line" in n for n in res.notes)


# -- 5. the same bytes, the same points ----------------------------------------------------------------------------
def test_the_same_bytes_read_the_same_at_any_age(tmp_path):
    """A bar log whose only newline is yet to come: young or old, the redraws are read (age decides only whether the
    last unterminated redraw counts, provisionally)."""
    p = tmp_path / "bars.log"
    _bar_log(p, 1, 1000)
    closed = p.read_bytes()[:-1]  # the epoch not closed yet: no \n at all

    def points(*batches) -> dict[int, float]:  # a later point at a step replaces an earlier one (as the frame does)
        return {s: v for b in batches for s, v in zip(b.columns["loss"].steps.tolist(),
                                                     b.columns["loss"].values.tolist(), strict=True)}

    # the bar's last redraw at 1000/1000 not yet redrawn on close, then redrawn (the state at 1000 again)
    for data, again in ((closed[:closed.rindex(b"\r")], False), (closed, True)):
        p.write_bytes(data)
        young = LogFileSource(FS, str(p), settle_seconds=3600).read(None)
        os.utime(p, OLD)
        old = LogFileSource(FS, str(p), settle_seconds=3600).read(None)
        # young: the last, unterminated redraw is provisional; one redrawing the state already read adds no point
        assert (young.provisional is None) == again
        assert points(young.batch, *([young.provisional.batch] if young.provisional else [])) == points(old.batch)
        assert sorted(points(old.batch)) == list(range(1, 1001)) and young.notes == old.notes


def test_a_young_log_of_noise_waits_and_the_same_old_log_waits_too(tmp_path):
    p = tmp_path / "train.log"
    p.write_bytes(b"Loading the dataset...\nbuilding the model\n")
    young = LogFileSource(FS, str(p), settle_seconds=3600).read(None)
    os.utime(p, OLD)
    old = LogFileSource(FS, str(p), settle_seconds=3600).read(None)
    assert young.notes == old.notes and young.batch.is_empty() and old.batch.is_empty()


def _split_read(path: Path, data: bytes, cuts: list[int], **kw) -> dict[str, dict[int, float]]:
    """``data`` appended to ``path`` piece by piece (a live run), read after each piece by a young-file reader
    (only complete records count), then once the file settled: every point, later ones replacing earlier ones (a
    read that reset, the file read again from its start, replacing all)."""
    path.write_bytes(b"")
    src = LogFileSource(FS, str(path), settle_seconds=3600, **kw)
    cur, pts = None, {}
    prev = 0
    for c in [*sorted(set(cuts)), len(data)]:
        with open(path, "ab") as f:
            f.write(data[prev:c])
        prev = c
        if c == len(data):
            os.utime(path, OLD)
        while True:
            res = src.read(cur)
            cur = res.cursor
            assert json.loads(json.dumps(cur)) == cur  # the cursor survives the store (JSON) as it is
            if res.reset:  # the file read again from its start (a fact learned late): its points replace all
                pts = {}
            for k, col in res.batch.columns.items():
                pts.setdefault(k, {}).update(zip(col.steps.tolist(), col.values.tolist(), strict=True))
            if not res.more:
                break
    return pts


@functools.cache
def _fixture_bytes(name: str) -> bytes:
    if name == "tqdm_bars":  # 3 epochs of 300 \\r redraws, one \\n each (a real tqdm's bytes)
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "bars.log"
            _bar_log(p, 3, 300)
            return p.read_bytes()
    if name == "prefixed_bars":  # each rank's epoch line of \\r redraws behind its prefix (a launcher that prefixes
        # each \\n line), rank 1's lines between rank 0's
        lines = _fixture_bytes("tqdm_bars").split(b"\n")[:-1]
        return b"".join(b"[default0]:" + ln + b"\n[default1]:" + ln.replace(b"loss=", b"loss=9") + b"\n"
                        for ln in lines)
    return (FIX / name).read_bytes()


_LOGS = ["torchrun_tee_2ranks.log", "mpirun_tag_output_3ranks.log", "lightning_epoch_loss_in_bar.log", "tqdm_bars",
         "lightning_ddp_torchrun_tee.log", "prefixed_bars"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.sampled_from(_LOGS), cuts=st.lists(st.floats(0, 1), min_size=1, max_size=6),
       chunk=st.sampled_from([4096, 8192, 1 << 16]))
def test_split_reads_give_the_points_of_one_read(tmp_path, which, cuts, chunk):
    data = _fixture_bytes(which)
    once, _ = _points(_settled_copy(tmp_path, data, "once.log"))
    got = _split_read(tmp_path / "split.log", data, [int(c * len(data)) for c in cuts], chunk_bytes=chunk,
                      part_bytes=chunk)
    assert got == once


@given(data=st.binary(max_size=64).map(lambda b: b.translate(bytes.maketrans(b"\x00\x01\x02", b"\r\n\r"))),
       start=st.integers(0, 70), stop=st.integers(0, 70))
def test_a_record_ends_after_a_newline_or_a_lone_carriage_return(data, start, stop):
    from training_check.tools.parsers.breaks import first_end, record_end

    def is_end(i: int, upto: int) -> bool:  # data[i] ends a record, the byte after it known when before ``upto``
        return data[i:i + 1] == b"\n" or data[i:i + 1] == b"\r" and i + 1 < upto and data[i + 1:i + 2] != b"\n"

    stop = min(stop, len(data))
    ends = [i + 1 for i in range(start, stop) if is_end(i, stop)]
    assert record_end(data, start, stop) == (ends[-1] if ends else 0)
    firsts = [i + 1 for i in range(start, len(data)) if is_end(i, len(data))]
    assert first_end(data, start) == (firsts[0] if firsts else 0)
    assert record_end(data, start, stop, cr=False) == data.rfind(b"\n", start, stop) + 1


@given(lines=st.lists(st.one_of(
    st.builds(lambda role, r, rest: f"[{role}{r}]:{rest}", st.sampled_from(["default", "rank", "trainer", "a_b", "x"]),
              st.integers(0, 10**7), st.text("ab 1]:[<", max_size=12)),
    st.builds(lambda j, r, which, sp, rest: f"[{j},{r}]<std{which}>:{sp}{rest}", st.integers(0, 10**10),
              st.integers(0, 10**7), st.sampled_from(["out", "err", "in"]), st.sampled_from(["", " "]),
              st.text("ab 1]", max_size=8)),
    st.text("[]:,<>dstoure0123456789 ab", max_size=50)), min_size=1, max_size=20))
def test_prefixes_read_in_bulk_as_the_patterns_read_them(lines):
    import numpy as np
    from training_check.tools.parsers.kernel import line_bounds
    from training_check.tools.parsers.streams import _MPI, _TAGGED, NONE, bracketed

    data = "\n".join(lines).encode()
    starts, ends = line_bounds(data)
    sel = np.array([i for i in range(len(starts)) if data[starts[i]:starts[i] + 1] == b"["], dtype=np.int64)
    if not len(sel):
        return
    ranks, lengths = bracketed(np.frombuffer(data, dtype=np.uint8), starts[sel], ends[sel])
    for i, r, n in zip(sel.tolist(), ranks.tolist(), lengths.tolist(), strict=True):
        line = data[starts[i]:ends[i]]
        m = _TAGGED.match(line) or _MPI.match(line)
        assert (r, n) == ((int(m.group(m.lastindex or 1)), m.end()) if m else (NONE, 0)), line
