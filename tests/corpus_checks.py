"""What the framework corpora's tests check on every run (examples/frameworks, examples/holdout: real runs with
their frameworks' own records as truth), read the way bench/read_corpus.py reads them."""

from __future__ import annotations

import functools
import json
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import read_corpus  # noqa: E402
from read_corpus import ESCALATE, STOP  # noqa: E402

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf", re.I)
_GROUPED = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


class Corpus:
    """A corpus folder: its manifest's runs, each read (and its checks replayed) once."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.entries = [json.loads(ln) for ln in (folder / "manifest.jsonl").read_text().splitlines() if ln.strip()]
        self.runs = [run_id(e["file"]) for e in self.entries]
        self.by_run = dict(zip(self.runs, self.entries, strict=True))

    def truth(self, run: str) -> dict:
        return json.loads((self.folder / self.by_run[run]["truth"]).read_text())

    def frameworks(self) -> set[str]:
        return {self.truth(run)["framework"].split(" ")[0] for run in self.runs}

    def result(self, run: str) -> read_corpus.FileResult:
        return _result(self.folder, json.dumps(self.by_run[run]))

    def assert_truth_printed(self, run: str) -> None:
        """The truth is what the log shows: each value appears as a number of the log within the printed precision."""
        entry = self.by_run[run]
        truth = self.truth(run)
        text = (self.folder / entry["file"]).read_bytes().decode("utf-8", errors="replace")
        # numbers as printed, and with thousands separators taken out ("8,680.19" as river prints it)
        nums = np.array([float(m) for m in _NUMBER.findall(text) + _NUMBER.findall(_GROUPED.sub("", text))])
        finite = np.sort(nums[np.isfinite(nums)])
        assert truth["label"] == entry["label"] and truth["should_stop"] == entry["should_stop"]
        assert len(truth["train_loss"]) == entry["n_points"] > 0
        for step, v in truth["train_loss"]:
            t = float(v)
            if not math.isfinite(t):
                assert np.isnan(nums).any() if math.isnan(t) else (nums == t).any(), (run, step, v)
                continue
            d = read_corpus._tolerance(t, truth["tolerance"])
            i = int(np.searchsorted(finite, t - d))
            assert i < len(finite) and finite[i] <= t + d, f"{run}: truth {v} at step {step} is not in the log"

    def misses(self) -> list[str]:
        """The runs with less than READ_SHARE of the truth's points at the truth's steps, and why."""
        return [f"{run}: {self.result(run).why}" for run in self.runs
                if not (self.result(run).found or 0) >= read_corpus.READ_SHARE * self.result(run).expected]

    def assert_read(self, run: str) -> None:
        """Issue 32's bar, per file: >= READ_SHARE of the truth's train-loss points at the truth's steps."""
        r = self.result(run)
        assert r.found is not None, f"{run}: {r.why}"
        assert r.found >= read_corpus.READ_SHARE * r.expected, f"{run}: {r.why}"

    def totals(self) -> dict[str, int]:
        """The corpus' totals as bench/read_corpus.py tallies them (files read; should-stop files stopped and flagged;
        false and early STOPs; healthy checks escalated)."""
        t = read_corpus.tally([self.result(r) for r in self.runs], [])
        return {"read": t.read, "stopped": t.stopped, "flagged": t.stopped + t.escalated, "false_stops": t.false_stops,
                "early_stops": t.early_stops, "healthy_check_escalates": t.healthy_check_escalates}

    def assert_totals_hold(self, *floors: tuple[str, dict[str, int]], exempt: tuple[tuple[str, str], ...] = ()
                           ) -> None:
        """No total worse than any of ``floors`` ((name, totals)): fewer files read, should-stop files stopped or
        flagged, or more false/early STOPs or escalated healthy checks; ``exempt``: (floor name, key) not held."""
        got = self.totals()
        for name, floor in floors:
            worse = {k: (got[k], v) for k, v in floor.items() if (name, k) not in exempt
                     and (got[k] < v if k in ("read", "stopped", "flagged") else got[k] > v)}
            assert not worse, f"worse than {name}: {worse}"

    def assert_replayed_checks(self, run: str) -> None:
        """The three replayed cron checks never STOP a healthy run and end a should-stop run in STOP or ESCALATE."""
        r = self.result(run)
        if r.should_stop:
            assert r.verdict in (STOP, ESCALATE), f"{run} ({r.label}): {r.verdict} ({r.verdicts}) {r.summary[:200]}"
        elif r.should_stop is False:
            assert r.verdict != STOP, f"{run}: a healthy run was stopped ({r.verdicts}): {r.summary[:200]}"


def blind_set_tests(corpus: Corpus, libraries: int, files: int, stop: int, healthy: int, max_mb: int,
                    made_alongside: tuple[str, ...] = ()) -> dict:
    """The tests every blind library set's module holds (examples/libraries_holdout*), by name, for its globals: the
    set covers ``libraries`` libraries no other corpus used (but ``made_alongside``: a library another blind set made
    at the same time also chose, neither knowing the other's runs), ``files`` scored files (``stop`` that should be
    stopped, ``healthy`` not), under ``max_mb``; every truth value is printed in its log (so a miss is the reader's);
    and, marked ``holdout_score`` (left out of the default run), each file read at its truth's steps and its checks
    replayed."""
    folder = corpus.folder
    seen = {json.loads(ln)["framework"].split(" ")[0].lower()
            for m in sorted((REPO / "examples").glob("*/manifest.jsonl")) if m.parent != folder
            for ln in m.read_text().splitlines() if ln.strip()}

    def test_the_corpus_covers_unused_libraries_and_both_kinds_of_run():
        libs = {f.split(" ")[0].lower() for f in corpus.frameworks()}
        assert len(libs) >= libraries and not libs & seen - set(made_alongside), sorted(libs)
        entries = corpus.entries
        assert len(entries) >= files
        assert sum(e["should_stop"] for e in entries) >= stop
        assert sum(not e["should_stop"] for e in entries) >= healthy
        assert sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) < max_mb * 1024 * 1024

    @pytest.mark.parametrize("file", corpus.runs)
    def test_every_truth_value_is_printed_in_its_log(file):
        corpus.assert_truth_printed(file)

    @pytest.mark.holdout_score
    @pytest.mark.parametrize("file", corpus.runs)
    def test_every_file_reads_its_loss_at_the_truths_steps(file):
        """Issue 32's bar, per file: >= 90 % of the truth's train-loss points at the truth's steps."""
        corpus.assert_read(file)

    @pytest.mark.holdout_score
    @pytest.mark.parametrize("file", corpus.runs)
    def test_replayed_checks(file):
        corpus.assert_replayed_checks(file)

    return {t.__name__: t for t in (test_the_corpus_covers_unused_libraries_and_both_kinds_of_run,
                                    test_every_truth_value_is_printed_in_its_log,
                                    test_every_file_reads_its_loss_at_the_truths_steps, test_replayed_checks)}


def dev_set_tests(corpus: Corpus, libraries: set[str], stop: int, healthy: int, max_mb: int,
                  known_misses: dict[str, str], known_check_misses: dict[str, str], max_log_kb: int = 512,
                  max_store_kb: int = 512) -> dict:
    """The tests every development library set's module holds (examples/libraries2 to 6), by name, for its globals:
    the set covers ``libraries``, ``stop`` runs that should be stopped and ``healthy`` that should not, logs under
    ``max_log_kb`` and stores under ``max_store_kb``, the folder under ``max_mb``; every truth value of a log is
    printed in it (so a miss is the reader's); each file is read at its truth's steps and its checks replayed, those
    in ``known_misses`` / ``known_check_misses`` (file -> the shape missed, or why) as non-strict xfails."""
    folder, runs = corpus.folder, corpus.runs
    logs = [run for run in runs if corpus.by_run[run]["file"].endswith("/train.log")]

    def test_the_corpus_covers_its_libraries_and_both_kinds_of_run():
        assert libraries <= corpus.frameworks(), sorted(corpus.frameworks())
        entries = corpus.entries
        assert sum(e["should_stop"] for e in entries) >= stop and sum(not e["should_stop"] for e in entries) >= healthy
        assert all((folder / e["file"]).stat().st_size < (max_store_kb if e.get("source") == "store" else max_log_kb)
                   * 1024 for e in entries)
        assert sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) < max_mb * 1024 * 1024
        assert set(known_misses) <= set(runs) and set(known_check_misses) <= set(runs)

    @pytest.mark.parametrize("run", logs)
    def test_every_truth_value_is_printed_in_its_log(run):
        corpus.assert_truth_printed(run)

    @pytest.mark.parametrize("run", marked(runs, known_misses))
    def test_every_file_reads_its_loss_at_the_truths_steps(run):
        """Issue 32's bar, per file: >= 90 % of the truth's train-loss points at the truth's steps."""
        corpus.assert_read(run)

    @pytest.mark.parametrize("run", marked(runs, known_check_misses))
    def test_replayed_checks(run):
        """A healthy run is never stopped; a should-stop run ends in STOP or ESCALATE."""
        corpus.assert_replayed_checks(run)

    return {t.__name__: t for t in (test_the_corpus_covers_its_libraries_and_both_kinds_of_run,
                                    test_every_truth_value_is_printed_in_its_log,
                                    test_every_file_reads_its_loss_at_the_truths_steps, test_replayed_checks)}


def run_id(file: str) -> str:
    """A manifest entry's name in the tests: its run folder for the run's train.log, else the file's path (a
    tracker's store, e.g. ``mlflow_sqlite_print_every5/mlflow.db``, read as a source of its own)."""
    return file[: -len("/train.log")] if file.endswith("/train.log") else file


@functools.cache
def _result(folder: Path, entry: str) -> read_corpus.FileResult:
    return read_corpus.check_file(folder, json.loads(entry), verdicts=True)


def marked(runs: list[str], known: dict[str, str]) -> list:
    """``runs`` as pytest parameters, those in ``known`` (run -> the shape missed) as non-strict xfails."""
    import pytest

    return [pytest.param(r, marks=pytest.mark.xfail(reason=known[r], strict=False)) if r in known else r
            for r in runs]


def first_reading_test(corpus: Corpus, *floors: tuple[str, dict[str, int]],
                       exempt: tuple[tuple[str, str], ...] = ()):
    """A blind set's gate, for its module's globals: its totals never get worse than its first reading nor than its
    corrected readings (``floors``: (name, totals); ``exempt``: (floor name, key) not held)."""

    def test_the_first_reading_holds():
        """The held-out totals never get worse than the first reading (files read, STOPs and flags on should-stop
        files; false and early STOPs; ESCALATEs of healthy checks)."""
        corpus.assert_totals_hold(*floors, exempt=exempt)

    return test_the_first_reading_holds

