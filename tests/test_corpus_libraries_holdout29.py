"""The twenty-ninth held-out library corpus (examples/libraries_holdout29), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (nltk, ZOOpt, DeepSpeed on CPU), made by
bench/holdout_libraries29/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout29.py`` shows it). The corpus itself is checked: it
covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so a miss is
the reader's. Its first reading (main at d4ba17b, the set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout29"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=30, stop=10, healthy=20, max_mb=10))

# The first reading (d4ba17b, the set's merge): DeepSpeed's `steps: N loss: X` lines and its csv_monitor files read
# (18/18), nltk's MaxentClassifier table (`Iteration  Log Likelihood  Accuracy`: a log-likelihood, maximised, no loss)
# and ZOOpt's `[zoopt] budget 20, fx result: 0.47` not: 18/30 files, STOP 7/10, flagged 9/10, no false or early STOP,
# ESCALATE 3 of 42 healthy checks.
FIRST_READING = {"read": 18, "stopped": 7, "flagged": 9, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 3}

# Then (fixh29): a log-likelihood named as such is maximised, the run's objective with no loss named (nltk's table);
# `fx` is an objective's value and a budget spent named alone the position (ZOOpt): 30/30 files, STOP 7/10, flagged
# 9/10, no false or early STOP, ESCALATE 0 of 60 healthy checks. DeepSpeed's Adam run under a warmup to a far too high
# LR stays unflagged in its log (a loss swinging 0.4-27 every 5 steps, judged within its own noise) and ESCALATEs in
# its csv_monitor file; its SGD twin's csv file ESCALATEs.
CORRECTED = {"read": 30, "stopped": 7, "flagged": 9, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
