"""The thirty-first held-out library corpus (examples/libraries_holdout31), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (swanlab, trackio, EvoX), made by
bench/holdout_libraries31/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout31.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 56a8423, the
set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout31"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=19, stop=7, healthy=12, max_mb=10))

# The first reading (56a8423): swanlab's and trackio's user lines read (12/12), EvoX's user prints (`gen 10
# tensor(6.70)`, `gen 5: min 149.4 mean 340.9`) not: 12/19 files, STOP 5/7, flagged 5/7, no false or early STOP,
# ESCALATE 1 of 21 healthy checks.
FIRST_READING = {"read": 12, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 1}

# Then (fixh27): torch's `tensor(6.7049)` read as its number, `gen` the step, an unnamed value a blank after a named
# position the objective (`gen 10 6.70`): 15/19 files, STOP 7/7, flagged 7/7, no false or early STOP, ESCALATE 1 of 36
# healthy checks. EvoX's `gen 5: min 149.4 mean 340.9` (4 files) reads the generation's mean, not the truth's min: a
# population's lowest value with no highest beside it may be a running best, which hides a divergence the mean shows
# (tools/objective.py `population_best`); its verdicts are right (2 STOPs, 2 CONTINUEs).
CORRECTED = {"read": 15, "stopped": 7, "flagged": 7, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 1}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
