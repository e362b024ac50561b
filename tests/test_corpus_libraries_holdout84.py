"""The 84th blind library corpus (examples/libraries_holdout84), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (tensorpack, kymatio), made by
bench/holdout_libraries84/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout84.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout84"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=17, stop=7, healthy=10, max_mb=10))

# The first reading (the reader of df0a8a2d, the session's start; the set's runs made after it): 9/17 files read,
# STOP 4/7, flagged 4/7, no false or early STOP, ESCALATE 4 of 30 healthy checks. tensorpack's epoch blocks (`[1207
# 13:58:21 @base.py:282] Epoch 4 (global_step 64) finished`, then one `[1207 13:58:21 @monitor.py:476]
# cross_entropy_loss: 0.26671` line per statistic) read as one point at step 1207 (the stamp's month and day);
# kymatio's Keras and scikit-learn fits read whole.
FIRST_READING = {"read": 9, "stopped": 4, "flagged": 4,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 4}

# Corrected (fixtensorpack: a `[MMDD HH:MM:SS @file:line]` stamp is a preamble, a total cost beside a regulariser
# the run's loss): 17/17 files, STOP 6/7, flagged 7/7, no false or early STOP, ESCALATE 4 of 30 healthy checks
# (kymatio's Keras runs whose validation loss climbs 9.6 -> 30 with accuracy stuck, and one 0.08 -> 0.15).
CORRECTED = {"read": 17, "stopped": 6, "flagged": 7,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 4}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
