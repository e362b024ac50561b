"""The 42nd held-out library corpus (examples/libraries_holdout42), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (pytorch-trainer-tensorboard, tomotopy), made by
bench/holdout_libraries42/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout42.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at ed75244, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout42"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (ed75244, the set's merge): 5/15 files, STOP 4/5, flagged 4/5, no false or early STOP, ESCALATE
# 0 of 23 healthy checks. tomotopy's `Iteration: 10\tLog-likelihood: -7.9` read (maximised); pytorch-trainer's
# `0. Training loss = 1.0675868` (the epoch numbered as a list's item, `N. `) read at its bars' counters, one point
# or the epochs x 12.
FIRST_READING = {"read": 5, "stopped": 4, "flagged": 4, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 0}

# Then: a list's item number opening a line (`3. Training loss = 0.84`) is its step (fields._numbered): 15/15 files,
# STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 30 healthy checks.
CORRECTED = {"read": 15, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
