"""The thirty-second held-out library corpus (examples/libraries_holdout32), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (CHGNet, litgpt), made by bench/holdout_libraries32/
by a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the
truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout32.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at cc4fcf8, the set's
merge) and its corrected one (fixh32) are held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout32"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=17, stop=7, healthy=10, max_mb=10))

# The first reading (cc4fcf8, the set's merge): 0/17 files, STOP 4/7, flagged 4/7, no false or early STOP, ESCALATE
# 0 of 30 healthy checks. CHGNet's truth is its epoch's mean `MAE e` (its record keeps no loss), while the reader takes
# the printed `Loss` column, the training loss, at each printed batch: right series, not the truth's (its 3 diverged
# runs STOP, its 5 healthy ones CONTINUE). litgpt's `Epoch 1 | iter 2 step 1 | loss train: 5.867, val: n/a | iter
# time: 13.86 ms (step)` is read on 2 files of 9 (the train loss from iter 21 on), on the others only its final
# `val_loss`.
FIRST_READING = {"read": 0, "stopped": 4, "flagged": 4, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 0}

# Then (fixh32): a name whose value is a placeholder (`val: n/a`) marks no evaluation record, so litgpt's line keeps
# its names: `loss train` at `iter` (the micro-batch count, the first position named; `step` counts optimizer steps)
# on 9/9 litgpt files from their first line: 9/17 files (CHGNet's 8 stay unread: their truth is the `MAE e` mean),
# STOP 7/7, flagged 7/7, no false or early STOP, ESCALATE 0 of 30 healthy checks.
CORRECTED = {"read": 9, "stopped": 7, "flagged": 7, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
