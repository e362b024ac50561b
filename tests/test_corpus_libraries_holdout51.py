"""The 51st blind library corpus (examples/libraries_holdout51), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (sevenn, ktrain), made by bench/holdout_libraries51/
by a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of
the truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout51.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 5d7f2fc, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout51"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (5d7f2fc, the set's merge): 7/15 files, STOP 1/5, flagged 4/5, no false or early STOP, ESCALATE
# 5 of 30 healthy checks. SevenNet's epoch table, a header of metrics with units over one row per split (`trainset
# 0.634456  1.452378  147.098989  0.476454`, `validset ...`) under `Epoch 1/20  lr: 0.005000`, read as no loss;
# ktrain's 1cycle runs whose loss climbs 23x then falls back as the rate drops: one CONTINUE, one STOP then CONTINUE.
FIRST_READING = {"read": 7, "stopped": 1, "flagged": 4, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 5}

# Then: a table row named by a split (`trainset`, `validset`) is that split's record under the header above it, at the
# epoch of the banner above (`Epoch 3/20  lr: 0.004901`, 1-based): 15/15 files, STOP 4/5, flagged 4/5, no false or
# early STOP, ESCALATE 0 of 30 healthy checks. Left: ktrain's 1cycle run whose loss climbs 23x and falls back below its
# start as the rate drops (CONTINUE at its 8 epochs).
CORRECTED = {"read": 15, "stopped": 4, "flagged": 4, "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
