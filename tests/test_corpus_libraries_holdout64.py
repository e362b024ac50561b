"""The 64th blind library corpus (examples/libraries_holdout64), read the way bench/read_corpus.py reads it.

Real runs of a training library nobody on the project had used (matgl: tiny MEGNet / M3GNet models trained by its
Lightning module), made by bench/holdout_libraries64/ by a developer who never read the reader's code nor ran it on
them (torchgeo and asteroid were tried and left out: see the set's README). Per file: its train loss read with >= 90 %
of the truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP
a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout64.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout64"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=1, files=14, stop=5, healthy=9, max_mb=10))

# The first reading (main at 9d3dd94, before the set's merge): 0/14 files read, STOP 5/5, flagged 5/5, no false or
# early STOP, ESCALATE 2 of 27 healthy checks. matgl's Lightning bar `Epoch 3: 100%|##| 4/4 [..., val_Total_Loss=2.390,
# ..., train_Total_Loss=2.430]`: every epoch's value read, at the global step of its epoch's last redraw (3, 7, 11 ...:
# the `step` column of Lightning's own metrics.csv), while the truth numbers them by its `epoch` column (0, 1, 2 ...);
# an epoch's value printed as its previous epoch's (`0.222` twice) made no point of its own. Scored at the record's
# other numbering of the same points (truth.json's `record_steps`, taken from that metrics.csv after the reading): 13/14
# read, the one miss that repeated value (10 of 12 points).
FIRST_READING = {"read": 0, "stopped": 5, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 2}

# Corrected (fixepochval: a bar's train value whose every change came at an epoch's end is an epoch's value, one point
# at every epoch's end, a repeat of the last epoch's print too): 14/14 files, the verdicts as before.
CORRECTED = {"read": 14, "stopped": 5, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 2}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
