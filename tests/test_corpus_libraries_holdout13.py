"""The thirteenth held-out library corpus (examples/libraries_holdout13), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (dm-sonnet, tensorflow-probability, autogluon),
made by bench/holdout_libraries13/ by a developer who never read the reader's code nor ran it on them. Per file: its
train loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three
replayed cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the
default run; ``pytest -m holdout_score tests/test_corpus_libraries_holdout13.py`` shows it). What gates is
``test_the_first_reading_holds``: the first reading's totals may not get worse. The corpus itself is checked: it
covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so a miss is
the reader's.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout13"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=27, stop=8, healthy=19, max_mb=10))


# The first reading (bench/read_corpus.py examples/libraries_holdout13 at main 7fcefb0, 2026-12-06: the reader as it
# stood when the set was made, none of it made knowing this set): 27/27 files read at the library's own steps, STOP
# recall 7/8, flagged 7/8, no false or early STOP, ESCALATE 6 of 57 healthy checks. Sonnet's `[Epoch 3] train loss:`
# lines, TensorFlow Probability's `tf.print` of `minimize`'s steps, AutoGluon's `Epoch 3 (Update 45).\tTrain loss:`
# in its log and its predictor_log.txt all read; the miss is a GP under a growing Adam rate whose NaN comes after the
# last check, checked with too few points to judge its trend; the ESCALATEs are AutoGluon's regression run (both its
# files, every check) and three single checks.
FIRST_READING = {"read": 27, "stopped": 7, "flagged": 7, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 6}
# Then judged in general terms (judge8): a NaN right after a log above the start by the whole fall ends a blow-up
# (TFP's GP), an error logged below zero at every log is negated (AutoGluon's `Val root_mean_squared_error: -9.28`:
# higher is better). 27/27 files, STOP recall 8/8, flagged 8/8, no false or early STOP, ESCALATE 0 of 57.
CORRECTED = {"read": 27, "stopped": 8, "flagged": 8, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}


test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
