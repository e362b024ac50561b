"""The nineteenth held-out library corpus (examples/libraries_holdout19), a blind set: made after the reader was built.

Real runs of training libraries nobody on the project had used (optuna, nevergrad, mealpy), made by
bench/holdout_libraries19/ by a developer who never read the reader's code nor ran it on them. Checked here: the set
covers libraries no other corpus used and both kinds of run, and every truth value of a log is printed in that log
(so a miss is the reader's). The per-file reading (its train loss read with >= 90 % of the truth's points at the
truth's steps, the replayed cron checks) carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout19.py`` shows it). What gates is
``test_the_first_reading_holds``: the first reading's totals may not get worse.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout19"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=22, stop=7, healthy=15, max_mb=10))


# The first reading (bench/read_corpus.py examples/libraries_holdout19 at main 4135ff2, 2026-12-06: the reader as it
# stood when the set was made, none of it made knowing this set): 0/22 files, STOP recall 0/7, flagged 5/7, no false
# or early STOP, ESCALATE 12 of 30 healthy checks. Three optimisers whose truth is one evaluation a step: optuna's
# `Trial 5 finished with value: 0.12 and parameters: {...}. Best is trial 3 with value: 0.1.` (the value before
# `and parameters` not read; the reader's principle takes the search's best so far for the run, not each trial's
# value), nevergrad's per-evaluation lines (nothing read), mealpy's per-epoch `Current best: ..., Global best: ...`
# lines (read as runtime only).
FIRST_READING = {"read": 0, "stopped": 0, "flagged": 5, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 12}
# Then one shape corrected (fix19): a best named with a qualifier (mealpy's `Current best: 81.5, Global best: ...`) is
# a metric, the search's objective, not an aside's statistic skipped (mealpy 7/7). 7/22 files, STOP recall 1/7,
# flagged 5/7, ESCALATE 7 of 30.
CORRECTED = {"read": 7, "stopped": 1, "flagged": 5, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 7}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
