"""The thirtieth held-out library corpus (examples/libraries_holdout30), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (DEHB, keras-tuner, Ax), made by
bench/holdout_libraries30/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout30.py`` shows it). The corpus itself is checked: it
covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so a miss is
the reader's. Its first reading (main at 55a5c73, the set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout30"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=26, stop=7, healthy=19, max_mb=10))

# The first reading (55a5c73, the set's merge): 2/26 files, STOP 4/7, flagged 4/7, 5 false STOPs and 1 early STOP,
# ESCALATE 6 of 42 healthy checks. DEHB's loguru lines (`... | INFO | dehb.optimizers.dehb:_log_job_submission:883 -
# Best score seen/Incumbent score: 41.88`) read the source line 883 as a value, and the incumbent `score`, falling as it
# improves, as a score that collapsed (the five false STOPs); keras-tuner's trial summaries and Ax's trial lines were
# not read at their trials.
FIRST_READING = {"read": 2, "stopped": 4, "flagged": 4, "false_stops": 5, "early_stops": 1,
                 "healthy_check_escalates": 6}

# Then (fixh30): loguru's `| LEVEL | module.path:function:line - ` header closes the stamp (no field), `K/N function
# evaluation(s) done` is the position of the best so far after it, which is the search's objective and minimised as
# its values say: DEHB's ten logs read (its dehb.log too: its ISO stamp `2026-12-06T12:38:51.852036+0000` and the level
# `INFO` after it the header), no false STOP. Ax's `[INFO 12-06 12:40:35]` stamp is no field, but `Completed trial N`
# is not its position yet (two of six read, by count); keras-tuner's trial records are not read at their trials (the
# Keras epochs, which restart at each trial, number them): 12/26 files, STOP 4/7, flagged 4/7, no false STOP, 1 early
# STOP, ESCALATE 0 of 57 healthy checks.
CORRECTED = {"read": 12, "stopped": 4, "flagged": 4, "false_stops": 0, "early_stops": 1,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
