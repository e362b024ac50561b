"""What examples/libraries_holdout102 showed of lenskit's JSON records (issue 32, fixlk). LensKit's scripts log through
structlog; with its JSON renderer every event is one object a line on stderr: first events with no count
(``{"event": "creating data set ...", "level": "info", ...}``, Python's sparse-tensor warning with its ``lineno``,
``preparing to train <FlexMFExplicitScorer {\\n ...}>`` with a ``size``), then one ``finished epoch`` record an
epoch, ``{"model": ..., "time": "0.0s", "epoch": 3, "loss": 0.648, "event": "finished epoch", "level": "info",
"logger": "lenskit.training", "timestamp": "..."}``, and ``model training finished`` with the run's ``epochs``. Read as
it is meant:

- a JSON record's step key is chosen on the first record that holds one (``record_steps.choose``), not on the first
  record read: the events before it (no step, a number such as a warning's ``lineno``) are read at their index and
  the epoch records at their ``epoch``; a series already read at an index keeps that numbering (no step key then);
  ``round`` is a step key too (``Dialect.record_step_keys``);
- an infinity glued to letters is no value (``text.to_value``): structlog's ``"level": "info"`` is a word, not +inf.
"""

from __future__ import annotations

import json
import math
import random
import sys

import pytest
from training_check.tools.parsers import record_steps
from training_check.tools.parsers.text import to_value

from .conftest import REPO
from .test_read_misses import _live, assert_at_truth, corpus_runs, primary_names, whole_and_pieces, whole_as_live

_SET = REPO / "examples" / "libraries_holdout102"


def _stamp(r: random.Random) -> str:
    return f"2026-12-07T23:{r.randrange(60):02d}:{r.randrange(60):02d}"


def _structlog_log(epochs: int = 12, seed: int = 0, key: str = "epoch", start: int = 1, loss: str = "loss",
                   warning: bool = True, config: bool = True, finished: bool = True, nan_from: int | None = None,
                   rise: bool = False, extra: int = 0) -> tuple[str, list[int], list[float]]:
    """A training's events as structlog's JSON renderer writes them (lenskit's shape; ``key`` its step's name,
    ``start`` the first count, ``extra`` more count-less events before the first epoch); the steps and losses
    logged."""
    r = random.Random(seed)
    out = [{"event": f"creating data set from 3 x {r.randrange(1000, 9999)} data frame", "level": "info",
            "logger": "pkg.data.adapt", "timestamp": _stamp(r)},
           {"model": "pkg.models.Scorer", "event": "training model", "level": "info", "logger": "pkg.training",
            "timestamp": _stamp(r)}]
    if warning:
        out.append({"category": "UserWarning", "file": "/venv/lib/python3.11/site-packages/pkg/data/rel.py",
                    "lineno": r.randrange(100, 999), "event": "Sparse invariant checks are implicitly disabled. "
                    "Memory errors will occur when operating on a sparse tensor which violates the invariants.",
                    "level": "warning", "logger": "py.warnings", "timestamp": _stamp(r)})
    if config:
        conf = json.dumps({"embedding_size": r.choice([8, 16, 32]), "batch_size": 512, "learning_rate": 0.05,
                           "epochs": epochs}, indent=4)
        out.append({"scorer": "Trainer", "size": r.choice([8, 16]), "device": "cpu",
                    "event": f"preparing to train <Scorer {conf}>", "level": "info", "logger": "pkg.models",
                    "timestamp": _stamp(r)})
    for i in range(extra):
        out.append({"event": f"loaded shard {i}", "rows": r.randrange(100, 900), "level": "debug",
                    "logger": "pkg.data", "timestamp": _stamp(r)})
    steps, values = [], []
    v = r.uniform(0.5, 3.0)
    for e in range(start, start + epochs):
        v = v * (r.uniform(1.2, 1.9) if rise else r.uniform(0.6, 0.98))
        value = math.nan if nan_from is not None and e >= nan_from else v
        out.append({"model": "pkg.models.Scorer", "time": f"{r.uniform(0, 0.3):.1f}s", key: e, loss: value,
                    "event": "finished epoch", "level": "info", "logger": "pkg.training", "timestamp": _stamp(r)})
        steps.append(e)
        values.append(value)
    if finished:
        out.append({"model": "pkg.models.Scorer", "epochs": epochs, "event": "model training finished",
                    "level": "info", "logger": "pkg.training", "timestamp": _stamp(r)})
    return "".join(json.dumps(o) + "\n" for o in out), steps, values


def _same(got: list[float], want: list[float]) -> bool:
    return all((math.isnan(a) and math.isnan(b)) or a == b for a, b in zip(got, want, strict=True)) and len(
        got) == len(want)


@pytest.mark.parametrize("kw", [
    {}, {"key": "iteration"}, {"key": "iter", "loss": "train_loss"}, {"key": "round", "start": 0},
    {"warning": False}, {"config": False, "warning": False}, {"finished": False, "epochs": 30, "seed": 3},
    {"extra": 40, "seed": 5}, {"start": 0, "epochs": 7, "seed": 2}, {"epochs": 300, "seed": 4},
])
def test_a_loggers_epoch_records_are_read_at_their_own_count(tmp_path, kw):
    text, steps, values = _structlog_log(**kw)
    pts = whole_and_pieces(tmp_path, text.encode(), "s.log", seed=len(text))
    name = kw.get("loss", "loss")
    assert pts[name][0] == steps
    assert _same(pts[name][1], values)
    assert primary_names(pts) == [name]
    assert "level" not in pts  # "info" is a word
    step_name = kw.get("key", "epoch")
    assert step_name not in pts  # the step is no metric
    assert "timestamp" not in pts and pts["time"][0] == steps  # a stamp is no number; the epoch's time a value of it


def test_a_loggers_records_read_line_by_line_match_the_whole_read(tmp_path):
    text, steps, values = _structlog_log(epochs=40, seed=9, extra=3)
    data = text.encode()
    whole = _live(tmp_path, data, [], name="w.log")
    nl = [i + 1 for i, b in enumerate(data) if b == 10][:-1]
    assert json.dumps(_live(tmp_path, data, nl, name="l.log")) == json.dumps(whole)
    assert whole["loss"][0] == steps


def _json_logger_log(epochs: int, key: str = "epoch", seed: int = 0) -> tuple[str, list[int]]:
    """python-json-logger's records with ``%(lineno)d %(process)d`` in the format (numbers in every record), the
    training's values passed as ``extra``."""
    r = random.Random(seed)
    pid = r.randrange(1000, 99999)

    def rec(line: int, msg: str, **extra) -> str:
        return json.dumps({"asctime": f"2026-12-07 23:20:{r.randrange(60):02d},{r.randrange(1000):03d}",
                           "levelname": "INFO", "name": "train", "lineno": line, "process": pid, "message": msg,
                           **extra}) + "\n"

    out = [rec(31, "loading data"), rec(44, "data ready", rows=r.randrange(100, 999))]
    out += [rec(88, "epoch end", **{key: e, "loss": round(2.0 / (e + 1) + r.random() / 50, 5)})
            for e in range(1, epochs + 1)]
    return "".join(out), list(range(1, epochs + 1))


@pytest.mark.parametrize("epochs,key", [(6, "epoch"), (90, "epoch"), (25, "iteration")])
def test_a_json_formatters_line_numbers_do_not_keep_the_step_at_the_index(tmp_path, epochs, key):
    text, steps = _json_logger_log(epochs, key, seed=epochs)
    pts = whole_and_pieces(tmp_path, text.encode(), "j.log", seed=epochs)
    assert pts["loss"][0] == steps
    assert key not in pts and "levelname" not in pts


def _loguru_log(epochs: int, key: str = "epoch", seed: int = 0) -> tuple[str, list[int], list[float]]:
    """loguru's ``serialize=True`` records: the message's text, then the record (its line, level, process, thread,
    time and elapsed time, all numbers of every record), the values bound by the program under ``extra``."""
    r = random.Random(seed)
    t0 = 1796000000.0 + r.randrange(10000)

    def rec(i: int, line: int, msg: str, **extra) -> str:
        return json.dumps({"text": f"2026-12-07 23:20:{i % 60:02d}.000 | INFO     | __main__:main:{line} - {msg}\n",
                           "record": {"elapsed": {"repr": f"0:00:{i % 60:02d}.000000", "seconds": i + 0.5},
                                      "exception": None, "extra": extra,
                                      "file": {"name": "train.py", "path": "/src/train.py"}, "function": "main",
                                      "level": {"icon": "I", "name": "INFO", "no": 20}, "line": line, "message": msg,
                                      "module": "train", "name": "__main__",
                                      "process": {"id": 4242, "name": "MainProcess"},
                                      "thread": {"id": 139, "name": "MainThread"},
                                      "time": {"repr": "2026-12-07 23:20:00", "timestamp": t0 + i}}}) + "\n"

    out = [rec(0, 12, "start"), rec(1, 20, "data loaded", rows=r.randrange(100, 900))]
    losses = [round(2.0 / (e + 1) + r.random() / 100, 6) for e in range(1, epochs + 1)]
    out += [rec(1 + e, 33, f"epoch {e} done", **{key: e, "loss": v}) for e, v in zip(range(1, epochs + 1), losses,
                                                                                  strict=True)]
    return "".join(out), list(range(1, epochs + 1)), losses


@pytest.mark.parametrize("epochs,key", [(6, "epoch"), (40, "iteration")])
def test_a_step_a_program_bound_in_logurus_records_is_their_step(tmp_path, epochs, key):
    text, steps, losses = _loguru_log(epochs, key, seed=epochs)
    pts = whole_and_pieces(tmp_path, text.encode(), "g.log", seed=epochs)
    assert pts["record/extra/loss"] == (steps, losses)
    assert f"record/extra/{key}" not in pts
    assert primary_names(pts) == ["record/extra/loss"]


def test_a_nan_loss_in_a_loggers_records_is_read_at_its_epoch(tmp_path):
    text, steps, values = _structlog_log(epochs=12, seed=11, nan_from=6)
    pts = whole_as_live(tmp_path, text.encode(), "n.log")
    got = dict(zip(*pts["loss"], strict=True))
    assert sorted(got) == steps
    assert all(math.isnan(got[s]) for s in steps if s >= 6) and all(math.isfinite(got[s]) for s in steps if s < 6)


def test_the_records_before_the_first_count_are_at_their_index(tmp_path):
    text, steps, _ = _structlog_log(epochs=5, seed=1)
    pts = whole_as_live(tmp_path, text.encode(), "i.log")
    assert pts["lineno"][0] == [0] and pts["size"][0] == [1]  # the warning and the config: their index
    assert pts["loss"][0] == steps


def test_a_series_read_at_its_index_keeps_that_numbering(tmp_path):
    """Negative: records of a loss with no step, then records of the same loss that hold an epoch: the epoch is not
    made the step halfway (the series would mix two numberings); the records stay at their index."""
    lines = [json.dumps({"loss": 1.0 - i / 100, "lr": 0.1}) for i in range(6)]
    lines += [json.dumps({"epoch": e, "loss": 0.5 - e / 100}) for e in range(1, 5)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "m.log")
    assert pts["loss"][0] == list(range(10))
    assert pts["epoch"][0] == [6, 7, 8, 9]  # no step key: the epoch a metric as before


def test_records_without_any_count_stay_at_their_index(tmp_path):
    """Negative: no record names a step: every record at its index, ``time`` a value, never the step."""
    lines = [json.dumps({"event": "batch done", "level": "info", "time": f"{0.1 * i:.1f}s", "loss": 2.0 / (i + 1)})
             for i in range(8)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "c.log")
    assert pts["loss"][0] == list(range(8))
    assert "level" not in pts


def test_a_first_record_holding_a_step_chooses_it_as_before(tmp_path):
    lines = [json.dumps({"step": 10 * i, "loss": 1.0 / (i + 1), "epoch": i // 3}) for i in range(9)]
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "f.log")
    assert pts["loss"][0] == [10 * i for i in range(9)]
    assert pts["epoch"][0] == [10 * i for i in range(9)]  # ``step`` first: the epoch is a value


def test_the_choice_is_made_once():
    st: dict = {}
    assert record_steps.choose(st, {"size"}) == ""
    record_steps.read_at_index(st, ["size"])
    assert record_steps.is_open(st) and record_steps.peek(st, {"epoch", "loss"}) is None
    assert record_steps.choose(st, {"epoch", "loss"}) == "epoch"
    assert record_steps.choose(st, {"step", "loss"}) == "epoch"
    st2: dict = {"index_keys": ["loss"]}
    assert record_steps.choose(st2, {"epoch", "loss"}) == "" and not record_steps.is_open(st2)
    assert record_steps.choose(st2, {"step", "acc"}) == ""
    st3: dict = {"index_keys": ["lineno", "record/line", "record/time/timestamp"]}  # a logger's own numbers
    assert record_steps.choose(st3, {"record/extra/epoch", "record/extra/loss", "record/line"}) == "record/extra/epoch"
    assert record_steps.first_key({"train/epoch", "loss"}) == ""  # a nested count of another name is no step key


@pytest.mark.parametrize("text,value", [
    ("info", None), ("INFO", None), ("inform", None), ("infms", None), ("nanms", None), ("inf", math.inf),
    ("-inf", -math.inf), ("Infinity", math.inf), ("0.0s", 0.0), ("12.5ms", 12.5)])
def test_an_infinity_glued_to_letters_is_no_value(text, value):
    got = to_value(text)
    assert got == value


def test_the_corpus_runs_are_all_here():
    assert len(corpus_runs(_SET, "lenskit_")) == 11
    assert len([r for r in corpus_runs(_SET, "lenskit_") if "json" in r]) == 4


@pytest.mark.parametrize("run", [r for r in corpus_runs(_SET, "lenskit_") if "json" in r])
def test_the_corpus_json_runs_read_at_the_truths_steps(tmp_path, run):
    folder = _SET / run
    truth = json.loads((folder / "truth.json").read_text())
    data = (folder / "train.log").read_bytes()
    pts = whole_as_live(tmp_path, data, "c.log")
    got = dict(zip(*pts["loss"], strict=True))
    assert sorted(got) == [s for s, _ in truth["train_loss"]], run
    assert_at_truth(got, truth, run)
    assert primary_names(pts) == ["loss"]
    assert "level" not in pts


@pytest.mark.parametrize("run", [r for r in corpus_runs(_SET, "lenskit_") if "json" in r])
def test_the_corpus_json_runs_verdicts(run):
    sys.path.insert(0, str(REPO / "bench"))
    import read_corpus

    entry = next(e for e in map(json.loads, (_SET / "manifest.jsonl").read_text().splitlines())
                 if e["file"] == f"{run}/train.log")
    res = read_corpus.check_file(_SET, entry)
    assert res.read, run
    if res.should_stop:
        assert res.verdict == "STOP" and not res.early_stop, (run, res.verdicts)
    else:
        assert res.verdict != "STOP" and "S" not in res.verdicts, (run, res.verdicts)


def _plain_records(header: int, epochs: int, key: str = "epoch", seed: int = 0, nulls: bool = False) -> tuple[
        str, list[int]]:
    """Flat records of numbers only (the block paths' shape): ``header`` count-less records (``rows``, ``size``),
    then one record an epoch holding its count; ``nulls``: every record of one key order, the fields a record does
    not log ``null`` (a run of the kernel then holds both)."""
    r = random.Random(seed)
    none = {key: None, "loss": None, "acc": None} if nulls else {}
    lines = [json.dumps({**none, "rows": r.randrange(100, 999), "size": r.randrange(1, 64)}) for _ in range(header)]
    tail = {"rows": None, "size": None} if nulls else {}
    lines += [json.dumps({key: e, "loss": round(r.uniform(0.1, 3.0), 6), "acc": round(r.random(), 4), **tail})
              for e in range(1, epochs + 1)]
    return "\n".join(lines) + "\n", list(range(1, epochs + 1))


@pytest.mark.parametrize("in_c", [True, False])
@pytest.mark.parametrize("header,epochs,key,nulls", [
    (1, 5, "epoch", False), (3, 80, "epoch", False), (40, 200, "iteration", False), (2, 60, "round", False),
    (1, 5, "epoch", True), (3, 80, "epoch", True), (40, 200, "iteration", True), (2, 60, "round", True)])
def test_the_block_paths_choose_the_step_as_the_record_pass(tmp_path, monkeypatch, in_c, header, epochs, key, nulls):
    """The kernel's runs (a run holding count-less records then stepped ones, all of one key order:
    ``record_steps.first_stepped``) and the pandas block paths (``peek``) read what the record pass reads, whole and
    in pieces."""
    from training_check.tools.parsers import kernel

    if in_c and not kernel.HAVE_KERNEL:
        pytest.skip("the C kernel is not built")
    monkeypatch.setattr(kernel, "HAVE_KERNEL", in_c)
    calls: list[int | None] = []
    first = record_steps.first_stepped

    def spy(keys, num):
        calls.append(first(keys, num))
        return calls[-1]

    monkeypatch.setattr(record_steps, "first_stepped", spy)
    text, steps = _plain_records(header, epochs, key, seed=header, nulls=nulls)
    pts = whole_and_pieces(tmp_path, text.encode(), f"b{in_c}.log", seed=epochs)
    assert pts["loss"][0] == steps and pts["acc"][0] == steps
    assert pts["rows"][0] == list(range(header))
    assert key not in pts
    if in_c and nulls and epochs > 5:
        assert any(c is not None for c in calls)  # a kernel's run met the first stepped record
