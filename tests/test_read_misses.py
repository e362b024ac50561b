"""The reader's known misses of issue 32's held-out libraries (examples/libraries_holdout3, libraries2, holdout),
each fixed as a shape any library can print: one small log of that shape per test, read by the real LogFileSource
(and judged through the store where the verdict is the question)."""

from __future__ import annotations

import json
import os
import random

from training_check.tools.assess import assess_run
from training_check.tools.config import load_config
from training_check.tools.objective import assign_roles
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource
from training_check.tools.store import Store


def _read(tmp_path, data: bytes, name: str = "train.log"):
    p = tmp_path / name
    p.write_bytes(data)
    os.utime(p, (1.0, 1.0))
    res = LogFileSource(LocalFileSystem(), str(p)).read(None)
    return {k: (c.steps.tolist(), c.values.tolist()) for k, c in res.batch.columns.items()}


def _primary(cols: dict) -> list[str]:
    roles = assign_roles(list(cols), counts={k: len(v[0]) for k, v in cols.items()})
    return [k for k, r in roles.items() if r.primary]


def test_a_batch_loss_printed_once_an_epoch_beside_the_epoch_loss_is_no_curve(tmp_path):
    """Avalanche's text logger prints, once an epoch, the epoch's mean loss and the last minibatch's (``Loss_MB``):
    the minibatch's is one sample of the epoch, so the epoch's loss stands for the run. A batch loss logged more often
    than the epoch's (Lightning's ``train_loss_step``) is the finer curve and stays the run's."""
    out = []
    for e in range(8):
        out += [f"Epoch {e} ended.", f"\tLoss_Epoch/train_phase/train_stream = {1.0 / (e + 1):.4f}",
                f"\tLoss_MB/train_phase/train_stream = {0.5 / (e + 1) + 0.01 * (e % 3):.4f}",
                f"\tTop1_Acc_Epoch/train_phase/train_stream = {0.5 + e / 20:.4f}"]
    cols = _read(tmp_path, ("\n".join(out) + "\n").encode())
    assert _primary(cols) == ["Loss_Epoch/train_phase/train_stream"], sorted(cols)
    assert cols["Loss_Epoch/train_phase/train_stream"][0] == list(range(8))
    roles = assign_roles(["train_loss_step", "train_loss_epoch"], counts={"train_loss_step": 40, "train_loss_epoch": 4})
    assert [k for k, r in roles.items() if r.primary] == ["train_loss_step"]


def test_a_tables_wide_values_that_ran_together_are_each_a_number(tmp_path):
    """fastai pads each value to its column (``f'{v:.6f}'``): a value wider than its column (a loss of 3.8e23) runs
    into the next one with no blank, ``381127566817363723550720.00000036742151059038390070542336.0000000.308594``.
    Numbers printed with one fixed number of decimals apart again, each in its column; versions, dates and
    addresses stay as printed."""
    from training_check.tools.parsers.templates import split_run_together

    rows = ["epoch     train_loss  valid_loss  accuracy  time    ",
            "0         381127566817363723550720.00000036742151059038390070542336.0000000.308594  00:00     "]
    rows += [f"{e:<10d}{0.9 / e:<12.6f}{1.1 / e:<12.6f}{0.3 + e / 20:<10.6f}00:00     " for e in range(1, 6)]
    cols = _read(tmp_path, ("\n".join(rows) + "\n").encode())
    steps, values = cols["train_loss"]
    assert steps == list(range(6)) and values[0] == 381127566817363723550720.0, cols
    assert cols["valid_loss"][1][0] == 36742151059038390070542336.0 and cols["accuracy"][1][0] == 0.308594
    for kept in (b"v1.2.3 2024.01.15 192.168.1.1 1.0.20240101 0.5.1234", b"loss 1.2345.6789"):
        assert split_run_together(kept) is kept
    assert split_run_together(b"1 -2.000000-3.5000000.100000 x") == b"1 -2.000000 -3.500000 0.100000 x"


def test_a_count_in_a_note_that_grows_by_a_digit_replaces_the_older_note(tmp_path):
    """Item 5 (deterministic): a note on what the file holds is said by every read, the newer replacing its shape's
    older. A crash's NUL bytes counted 60 by one read and 190 by a later one are one note (``skipped 190 NUL
    byte(s)``), as one read of the whole file says; the count's digits are not part of the note's shape."""
    lines = [f"step {s} loss {1.0 / s:.4f}" for s in range(1, 41)]
    part1 = ("\n".join(lines[:20]) + "\n").encode() + b"\x00" * 60 + b"\n"
    part2 = ("\n".join(lines[20:]) + "\n").encode() + b"\x00" * 130 + b"\nstep 41 loss 0.0244\n"
    p = tmp_path / "train.log"
    p.write_bytes(part1)
    src = LogFileSource(LocalFileSystem(), str(p))
    first = src.read(None)
    with open(p, "ab") as f:
        f.write(part2)
    second = src.read(first.cursor)
    said = [n for n in second.notes if "NUL" in n]
    assert said == ["skipped 190 NUL byte(s) (the lines holding them)"], second.notes
    whole = tmp_path / "whole.log"
    whole.write_bytes(part1 + part2)
    os.utime(whole, (1.0, 1.0))
    assert [n for n in LogFileSource(LocalFileSystem(), str(whole)).read(None).notes if "NUL" in n] == said


def _live(tmp_path, data: bytes, cuts: list[int], name: str = "live.log") -> dict:
    """The points of ``data`` appended in pieces (cut at ``cuts``), a read after each, as a store keeps them: a
    read that resets replaces what the earlier ones gave; a later point at a step replaces an earlier one."""
    p = tmp_path / name
    p.write_bytes(b"")
    src = LogFileSource(LocalFileSystem(), str(p))
    cursor, pts = None, {}
    prev = 0
    for c in [*cuts, len(data)]:
        with open(p, "ab") as f:
            f.write(data[prev:c])
        prev = c
        res = src.read(cursor)
        cursor = res.cursor
        if res.reset:
            pts = {}
        for k, col in res.batch.columns.items():
            pts.setdefault(k, {}).update(zip(col.steps.tolist(), col.values.tolist(), strict=True))
    return {k: (sorted(v), [v[s] for s in sorted(v)]) for k, v in pts.items()}


def primary_names(pts: dict) -> list[str]:
    """The names of the points ``pts`` (a read's, as ``_live`` gives them) the run is judged by (its primary loss)."""
    return [k for k, r in assign_roles(list(pts)).items() if r.primary]


def truth_points(tmp_path, root, run: str) -> tuple[dict, dict]:
    """A corpus run's truth and its primary loss read whole and in pieces (``whole_as_live``) as {step: value},
    the primary loss being the truth's ``loss_name`` and no other."""
    truth = json.loads((root / run / "truth.json").read_text())
    pts = whole_as_live(tmp_path, (root / run / "train.log").read_bytes(), run)
    assert primary_names(pts) == [truth["loss_name"]]
    steps, values = pts[truth["loss_name"]]
    return truth, dict(zip(steps, values, strict=True))


def whole_as_live(tmp_path, data: bytes, name: str, cuts: tuple[float, ...] = (0.03, 0.2, 0.37, 0.55, 0.81)) -> dict:
    """The points of ``data`` read whole, checked equal (NaN as NaN) to its reads while it is appended in pieces (cut
    at ``cuts``, shares of its bytes: mid-line too)."""
    whole = _live(tmp_path, data, [], name=f"whole_{name}")
    live = _live(tmp_path, data, [int(c * len(data)) for c in cuts], name=f"live_{name}")
    assert json.dumps(live) == json.dumps(whole), name
    return whole


def whole_and_pieces(tmp_path, data: bytes, name: str, seed: int = 0, trials: int = 3) -> dict:
    """The points of ``data`` read whole, checked equal (NaN as NaN, whatever the order names first appear in) to
    its reads while it is appended in pieces: random cuts (mid-line too), ``trials`` times, more cuts each time."""
    whole = _live(tmp_path, data, [], name=f"whole_{name}")
    rng = random.Random(seed)
    for t in range(trials):
        cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, 2 + 3 * t)))
        live = _live(tmp_path, data, cuts, name=f"live{t}_{name}")
        assert json.dumps(live, sort_keys=True) == json.dumps(whole, sort_keys=True), (name, cuts)
    return whole


def points_at(pts: dict, name: str) -> list[tuple[int, float]]:
    """The (step, value) pairs of one name of ``pts`` (as ``_live`` gives them)."""
    return list(zip(*pts[name], strict=True))


def corpus_runs(folder, prefix: str) -> list[str]:
    """The names of the runs under ``folder`` whose name starts with ``prefix`` and that hold a ``truth.json``: there
    must be some (a set's runs are in the repository: a missing one is a failure, not a skip)."""
    runs = sorted(p.name for p in folder.glob(f"{prefix}*") if (p / "truth.json").is_file())
    assert runs, f"no {prefix}* run under {folder}"
    return runs


def assert_at_truth(got: dict, truth: dict, label: str) -> None:
    """Every point of a corpus run's ``truth.json`` (``train_loss`` [[step, value], ...]) read at its step within the
    truth's tolerance (bench/read_corpus.py's), NaN as NaN and an infinity as itself."""
    import math
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import read_corpus

    for step, v in truth["train_loss"]:
        t = float(v)
        assert step in got, (label, step)
        if math.isnan(t):
            assert math.isnan(got[step]), (label, step)
        elif math.isinf(t):
            assert got[step] == t, (label, step)
        else:
            assert abs(got[step] - t) <= read_corpus._tolerance(t, truth["tolerance"]), (label, step, t, got[step])


def test_a_step_found_stuck_in_a_later_read_numbers_every_record_as_one_read_does(tmp_path):
    """scikit-learn's ``partial_fit`` in a loop prints ``Iteration 1, loss = ...`` at every call. Read whole, the
    step is stuck and the 40 records are numbered by line order; read live, the first reads held fewer than the
    eight records that show it: the records they placed at step 1 are numbered again once it shows (the file read
    again from its start, knowing it), so the points are the same at any read size."""
    data = "".join(f"Iteration 1, loss = {0.75 - k * 0.01:.8f}\n" for k in range(40)).encode()
    whole = _read(tmp_path, data)
    assert whole["loss"][0] == list(range(1, 41)), whole
    line = len(data) // 40
    assert _live(tmp_path, data, [line, 5 * line, 12 * line + 7, 20 * line]) == whole


def _tqdm_description_log(path, steps: int, every: int, values: list[float]) -> list[tuple[int, float]]:
    """A real tqdm bar over ``for _ in pbar`` that skips redraws (``miniters=2``), its description set every ``every``
    units before the bar's count moves, as pykan's ``KAN.fit`` does; the truth: (unit, value) as the library records
    it (``_ + 1``)."""
    from tqdm import tqdm

    truth = []
    with open(path, "w") as f:
        pbar = tqdm(range(steps), desc="description", ncols=100, file=f, miniters=2, mininterval=0)
        for k in pbar:
            if k % every == 0:
                value = values[len(truth)]
                truth.append((k + 1, value))
                pbar.set_description(f"| train_loss: {value:.2e} | test_loss: {value * 1.1:.2e} | ")
        pbar.close()
    return truth


def test_a_bar_value_set_every_d_units_is_at_its_unit_though_the_bar_lags(tmp_path):
    """pykan sets its bar's description every ``log`` steps in a ``for _ in pbar`` loop: tqdm draws it at the count
    it last printed, which lags behind when the bar skips redraws, so a value set at step 15 is drawn at ``14/60``.
    Its changes fall on one grid (every d units from the first): each is at its unit, and a redraw of an unchanged
    value is no point. The same points whatever the read sizes."""
    for steps, every in ((60, 5), (40, 2), (45, 3)):
        values = [round(1.0 / (k + 2) + 0.001 * (k % 3), 5) for k in range(steps)]
        p = tmp_path / f"kan_{every}.log"
        truth = _tqdm_description_log(p, steps, every, values)
        data = p.read_bytes()
        whole = _read(tmp_path, data, name=f"whole_{every}.log")
        got = list(zip(*whole["train_loss"], strict=True))
        assert [s for s, _v in got] == [s for s, _v in truth], (every, got)
        assert all(abs(v - t) <= 0.006 * t for (_s, v), (_u, t) in zip(got, truth, strict=True)), (every, got)
        third = len(data) // 3
        assert _live(tmp_path, data, [third, third + 7, 2 * third], name=f"live_{every}.log") == whole


def test_a_series_first_record_after_a_long_banner_is_carried_to_the_next_read(tmp_path):
    """Item 5: a young log's first record read once (its template recurs only in the next read) is carried to that
    read, as one read of the whole file reads it; a long banner of settings printed once before it (DeepSpeed's
    config dump: more one-off lines than the reader carries, and a timer's lines read already) no longer pushes it out:
    the one-off lines nearest the read's end are the ones carried."""
    import itertools
    import string

    names = ("".join(p) for p in itertools.product(string.ascii_lowercase, repeat=3))
    banner = [f"  {next(names)}_setting ...... {k % 7}" for k in range(150)]
    records = [f"Epoch: [{e}][  0/10]\tTime  1.5 ( 1.5)\tLoss {3.0 / (e + 1):.4e} ({3.0 / (e + 1):.4e})"
               for e in range(6)]
    timer = [f"[INFO] [logging.py:68:log_dist] step={s}, skipped=0, lr=[0.0001], mom=[0.9]" for s in (100, 200)]
    first = ("\n".join([*banner, *timer, records[0]]) + "\n").encode()
    data = first + ("\n".join(records[1:]) + "\n").encode()
    whole = _read(tmp_path, data)
    assert whole["Loss"][0] == [0, 10, 20, 30, 40, 50], whole.get("Loss")
    assert _live(tmp_path, data, [len(first)]) == whole


def test_a_table_printed_again_and_again_is_runs_not_a_stuck_step(tmp_path):
    """A spaCy table printed by many runs in one file (its first row at step 0 each time): each restart is a run,
    the last one shown at its own steps; the rows at step 0 are no stuck step of the other rows (which move)."""
    from pathlib import Path

    one = (Path(__file__).parent / "fixtures" / "records" / "spacy_textcat" / "train.log").read_bytes()
    p = tmp_path / "runs.log"
    p.write_bytes(one * 12)
    os.utime(p, (1.0, 1.0))
    res = LogFileSource(LocalFileSystem(), str(p)).read(None)
    assert any("holds 12 runs" in n for n in res.notes) and not any("line order" in n for n in res.notes), res.notes
    single = _read(tmp_path, one, name="one.log")
    got = {k: (c.steps.tolist(), c.values.tolist()) for k, c in res.batch.columns.items()}
    assert got["LOSS TEXTCAT"] == single["LOSS TEXTCAT"]
    live = _live(tmp_path, one * 12, [len(one) * 9])  # the rows at 0 seen stuck by the first read
    assert live["LOSS TEXTCAT"] == single["LOSS TEXTCAT"], live["LOSS TEXTCAT"]


def test_an_evaluation_at_step_0_of_each_run_restarted_in_one_log_is_no_stuck_step(tmp_path):
    """A job restarted ten times appending to its log (modded-nanogpt's ``step:0/50 val_loss:...`` before each run's
    training): the records at step 0 come with other records between them whose steps move, so their step is no
    stuck one; each restart is a run, the last one at its own steps, at any read size."""
    one = ["step:0/50 val_loss:10.8254 train_time:0ms"]
    one += [f"step:{s}/50 train_loss:{10 / s:.4f} train_time:{s * 90}ms step_avg:90.00ms" for s in range(1, 51)]
    one += ["step:50/50 val_loss:3.2811 train_time:4500ms"]
    data = ("\n".join(one * 10) + "\n").encode()
    p = tmp_path / "runs.log"
    p.write_bytes(data)
    os.utime(p, (1.0, 1.0))
    res = LogFileSource(LocalFileSystem(), str(p)).read(None)
    assert not any("line order" in n for n in res.notes), res.notes
    whole = {k: (c.steps.tolist(), c.values.tolist()) for k, c in res.batch.columns.items()}
    assert whole["val_loss"][0][-1] == 50 and whole["train_loss"][0] == list(range(1, 51)), whole["val_loss"]
    live = _live(tmp_path, data, [len(data) // 3, len(data) // 2])
    assert [live[k] for k in ("val_loss", "train_loss")] == [whole[k] for k in ("val_loss", "train_loss")]


def test_a_named_value_under_a_line_of_words_is_no_table_row(tmp_path):
    """python logging's ``INFO:__main__:   Loss: 0.5301`` under ``INFO:__main__:📊 Evaluation Results:``: the value has
    its name on its line, so the words above are no table header naming it ``Results``; read as one read of the whole
    file and as reads in pieces read it."""
    out = []
    for e in range(3):
        out += [f"INFO:__main__:Epoch {e} | Step {s:4d}/100 | Loss: {2.0 / (e * 100 + s + 1):.4f} | PPL: 1.70"
                for s in range(0, 101, 10)]
        out += ["INFO:__main__:📊 Evaluation Results:", f"INFO:__main__:   Loss: {0.5 - e * 0.01:.4f}",
                f"INFO:__main__:   Perplexity: {1.7 - e * 0.01:.2f}"]
    data = ("\n".join(out) + "\n").encode()
    whole = _read(tmp_path, data)
    assert "Results" not in whole and any(k != "Loss" and "Loss" in k for k in whole), sorted(whole)
    assert _live(tmp_path, data, [len(data) // 2 + 5]) == whole


def test_a_value_at_step_0_before_a_long_banner_is_read_in_pieces_as_whole(tmp_path):
    """Item 5: DeepSpeed prints its timer's first record (``step=0, skipped=0, lr=[0.0001], mom=[0.9]``) before a
    config dump longer than the one-off lines the reader carries, then a printed dict of the optimizer's settings;
    its next timer record comes only in the next read. The record with a step is carried before the dump's lines,
    and the dict after it with it: read in two pieces, the LR's first point is at step 0 and the dict's values are
    placed as one read of the whole file places them."""
    import itertools
    import string

    names = ("".join(p) for p in itertools.product(string.ascii_lowercase, repeat=3))
    timer = "[INFO] [logging.py:68:log_dist] [Rank 0] step={}, skipped=0, lr=[0.0001], mom=[0.9]"
    banner = [f"  {next(names)}_setting ...... {k % 7}" for k in range(80)]
    banner += [f'    "{next(names)}_size": {k + 2}, ' for k in range(80)]
    settings = "[INFO] [config.py:999:print]   optimizer_params {'lr': 0.0001, 'eps': 1e-08, 'weight_decay': 3e-07}"
    epochs = [f"Epoch: [{e}][  0/10]\tTime  1.5 ( 1.5)\tLoss {3.0 / (e + 1):.4e} ({3.0 / (e + 1):.4e})"
              for e in range(6)]
    first = ("\n".join([timer.format(0), *banner, settings, *banner[:3]]) + "\n").encode()
    rest = [line for e, ep in enumerate(epochs) for line in (ep, timer.format(200 * (e + 1)))]
    data = first + ("\n".join(rest) + "\n").encode()
    whole = _read(tmp_path, data)
    assert whole["lr"][0][:2] == [0, 200], whole.get("lr")
    assert _live(tmp_path, data, [len(first)]) == whole


def judged_in_pieces(tmp_path, data: bytes, name: str, cuts: tuple[float, ...] = ()) -> tuple[str, str]:
    """(verdict, summary) of ``assess_run`` on ``data`` appended in pieces (cut at ``cuts``, shares of its bytes), a
    check after each piece, in a fresh store: the cron checks of a run as it grows."""
    home = tmp_path / f"home_{name}"
    home.mkdir()
    config = load_config(cwd=str(home), env={"TRAINING_CHECK_HOME": str(home)})
    store = Store(config.store_path)
    p = tmp_path / f"{name}.log"
    p.write_bytes(b"")
    prev, a = 0, None
    for c in [*[int(x * len(data)) for x in cuts], len(data)]:
        with open(p, "ab") as f:
            f.write(data[prev:c])
        prev = c
        a = assess_run(str(p), store=store, config=config)
    assert a is not None
    return a.verdict, a.summary
