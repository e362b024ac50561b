"""The 66th blind library corpus (examples/libraries_holdout66), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (rectools, recpack), made by bench/holdout_libraries66/
by a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of
the truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout66.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout66"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=5, healthy=11, max_mb=10))

# The first reading (main at 659bdbe, the reader of 9d3dd94, before the set's merge): 7/16 files read, STOP 4/5,
# flagged 5/5, no false or early STOP, ESCALATE 0 of 33 healthy checks. recpack's `Processed epoch 0 in 0.06 s.Batch
# Training Loss = 0.6916` lines read 7/7 at their epochs; rectools' Lightning bar (`Epoch 3: 100%|..| 7/7 [...,
# val_loss=3.280, train_loss=3.660]`) read every epoch's value at the global step of its epoch's last redraw (6, 13
# ...: the `step` column of Lightning's metrics.csv) where the truth numbers it by its `epoch` column: 0/9. Escalated,
# not stopped: GRU4Rec at an SGD rate of 20. Scored at the record's other numbering of the same points (truth.json's
# `record_steps`, from that metrics.csv's `step` column, added after the reading): 16/16 read, the rest alike.
FIRST_READING = {"read": 7, "stopped": 4, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (fixepochval, as holdout64's): a BERT4Rec run's repeated epoch value now a point too (9 -> 10 of 10); 16/16
# files, the verdicts as before.
CORRECTED = {"read": 16, "stopped": 4, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
