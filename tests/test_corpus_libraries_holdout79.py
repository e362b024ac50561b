"""The 79th blind library corpus (examples/libraries_holdout79), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (pfl, Apple's federated-learning simulator, and
nequip 0.6, an equivariant interatomic potential's trainer), made by bench/holdout_libraries79/ by a developer who
never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the truth's points
(the library's own record) at the truth's steps, and the three replayed cron checks never STOP a healthy run. The
per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout79.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.


The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout79"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (the reader of 82623c50, the session's start; the set's runs made after it): 0/15 files read,
# STOP 4/5, flagged 5/5, 3 false STOPs, no early STOP, ESCALATE 10 of 30 healthy checks. pfl's blocks (`Metrics at
# iteration 3 ():` then `    Train population | loss before local training     : 0.8950387054244003`, one per line)
# read at their iterations but under made-up names (`train_loss_metric_1`: the ` | ` inside a name taken for a
# column's border), its objective then the loss after local training; nequip's summary rows (`! Train  1  0.845  0.01
# 0.992 ...` under `  Train  #  Epoch  wal  LR  loss_f  loss  f_mae`, the `#` column empty) read shifted by one column
# (the epoch as the loss: three false STOPs).
FIRST_READING = {"read": 0, "stopped": 4, "flagged": 5,
                 "false_stops": 3, "early_stops": 0, "healthy_check_escalates": 10}

# Corrected (fixpfl: a `name : value` name may hold one ` | ` between a split and a quantity, and a loss "before
# local training" is the run's beside its "after" twin; fixnequip: a row's cells go to the header columns they line up
# with, a column left empty too): 15/15 files, STOP 4/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 30
# healthy checks (the FedProx run at a central rate too high, 3.5-5x its best over its last 3 logs, ESCALATEs).
CORRECTED = {"read": 15, "stopped": 4, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
