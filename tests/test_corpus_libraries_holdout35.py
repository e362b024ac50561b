"""The thirty-fifth held-out library corpus (examples/libraries_holdout35), read the way bench/read_corpus.py reads
it.

Real runs of training libraries nobody on the project had used (torchkeras, cyanure, snapml), made by
bench/holdout_libraries35/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout35.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 90b7b0a, the set's
merge) is held below. torchkeras is also in the 37th set, made at the same time by another developer.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout35"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=23, stop=7, healthy=16, max_mb=10,
                                   made_alongside=("torchkeras",)))

# The first reading (90b7b0a, the set's merge): 13/23 files, STOP 7/7, flagged 7/7, no false or early STOP, ESCALATE
# 0 of 48 healthy checks. cyanure's and snapml's tables read; torchkeras' per-batch bar postfix (`train_loss=3.85`)
# read at batch steps, not the epoch's value the library keeps.
FIRST_READING = {"read": 13, "stopped": 7, "flagged": 7, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
