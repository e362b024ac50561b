"""The 39th held-out library corpus (examples/libraries_holdout39), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (pgbm, h2o), made by bench/holdout_libraries39/ by a
developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the
truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout39.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at e8f12f6, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout39"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=5, healthy=11, max_mb=10))

# The first reading (e8f12f6, the set's merge): 1/16 files, STOP 0/5, flagged 0/5, no false or early STOP, ESCALATE
# 0 of 14 healthy checks. pgbm's `Estimator 0/40, Train metric: 3.0154` read as nothing (a counter under a word the
# reader does not know, a value named by its split alone); h2o's `Scoring History:` table (a `---` rule under its
# header, `number_of_trees` 0.0, 1.0 ..., a row of `---` where rows are left out) read as one point.
FIRST_READING = {"read": 1, "stopped": 0, "flagged": 0, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 0}

# Then: a counter `N/M` opening the record under a word the reader does not know is its position while N climbs and M
# stays, and `Train metric` / `Validation metric` each split's value of the run's objective (pgbm); a table's column
# `number_of_<unit>` over whole numbers (h2o's `number_of_trees` 0.0, 1.0 ...) is its step, and an objective printed
# once in a summary (`MSE: 0.26`) does not stand for the run beside its curve: 14/16 files, STOP 5/5, flagged 5/5, no
# false or early STOP, ESCALATE 0 of 33 healthy checks. h2o's deep-learning tables (step `iterations`, a row of NaN
# at iteration 0 before training) stay unread.
CORRECTED = {"read": 14, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
