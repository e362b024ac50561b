"""The 81st blind library corpus (examples/libraries_holdout81), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (parlai, deeppavlov), made by
bench/holdout_libraries81/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout81.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout81"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=6, healthy=10, max_mb=10))

# The first reading (the reader of df0a8a2d, the session's start; the set's runs made after it): 0/16 files read,
# STOP 3/6, flagged 4/6, no false or early STOP, ESCALATE 0 of 30 healthy checks. ParlAI's reports (a logger line
# `time:0s total_exs:128 total_steps:8 epochs:0.26` then pandas' one-row table wrapped in pieces, each header row
# ending in ` \`, numbers like `.9624`) read as nothing or one point; DeepPavlov's JSON reports (`{"train": {...,
# "epochs_done": 3, "batches_seen": 30, ..., "loss": 0.71}}`, `{"valid": ...}` between them) read at line order.
FIRST_READING = {"read": 0, "stopped": 3, "flagged": 4,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (fixparlai: a table wrapped in chunks is one record, at the step of the line before it; fixdeeppavlov: a
# JSON record nested under a split's key is that split's, at its own counters): 16/16 files, STOP 4/6, flagged 6/6,
# no false or early STOP, ESCALATE 0 of 30 healthy checks (two ParlAI runs whose loss climbs 1.7x and, at the last
# log only, 4x ESCALATE).
CORRECTED = {"read": 16, "stopped": 4, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
