"""The 50th held-out library corpus (examples/libraries_holdout50), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (neuraloperator, joeynmt), made by
bench/holdout_libraries50/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout50.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 288c201, the
set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout50"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (288c201, the set's merge): 8/15 files, STOP 5/5, flagged 5/5, no false STOP, ESCALATE 0 of 30
# healthy checks, one STOP the bench calls early. joeynmt's `Epoch   1, Step:       10, Batch Loss:    18.44, ...` read
# as nothing: its epoch's `Epoch   1, total training loss: 475.81, ...` taken as the train loss, one point an epoch
# (the early STOP: the epochs' numbering met the truth's steps, the whole run seen at its second check).
FIRST_READING = {"read": 8, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 1,
                 "healthy_check_escalates": 0}

# Then: a loss named `total` logged less often than the same loss at steps (an epoch's sum) is no loss: 15/15 files,
# STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 30 healthy checks.
CORRECTED = {"read": 15, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
