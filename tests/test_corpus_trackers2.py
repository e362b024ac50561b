"""The tracker-store corpus (examples/trackers2), read the way bench/read_corpus.py reads it.

Short real trainings logged to the offline stores of Comet ML (``OfflineExperiment``'s .zip), Neptune
(``.neptune/offline`` operation logs) and ClearML (an offline session folder and its zip) by the libraries
themselves (bench/tracker_stores/, each store a manifest entry with ``"source": "store"``): per store its train loss
read with >= 90 % of the truth's points (the values handed to the library) at the truth's steps, and the three
replayed cron checks never STOP a healthy run and end a diverged one in STOP or ESCALATE.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .corpus_checks import Corpus

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "trackers2"
CORPUS = Corpus(FOLDER)
RUNS = CORPUS.runs


def test_the_corpus_covers_three_trackers_and_both_kinds_of_run():
    assert {"comet", "neptune", "clearml"} <= CORPUS.frameworks()
    entries = CORPUS.entries
    assert all(e["source"] == "store" for e in entries)
    assert sum(e["should_stop"] for e in entries) == 3 and sum(not e["should_stop"] for e in entries) == 6
    assert sum(p.stat().st_size for p in FOLDER.rglob("*") if p.is_file()) < 1024 * 1024


@pytest.mark.parametrize("run", RUNS)
def test_every_store_reads_its_loss_at_the_truths_steps(run):
    CORPUS.assert_read(run)


@pytest.mark.parametrize("run", RUNS)
def test_replayed_checks(run):
    CORPUS.assert_replayed_checks(run)


# The first reading (bench/read_corpus.py examples/trackers2, 2026-12-05, the readers as first written): what may
# not get worse.
FIRST_READING = {"read": 9, "stopped": 3, "flagged": 3, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 0}


def test_the_totals_hold():
    CORPUS.assert_totals_hold(("the first reading", FIRST_READING))
