"""The 85th blind library corpus (examples/libraries_holdout85), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (rlcard, leap-ec), made by bench/holdout_libraries85/
by a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of
the truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout85.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout85"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=14, stop=5, healthy=9, max_mb=10))

# The first reading (the reader of 47e0cbee, the session's start's reader moved into modules; the set's runs made
# after it): 6/14 files read, STOP 2/5, flagged 5/5, no false or early STOP, ESCALATE 7 of 24 healthy checks.
# rlcard's `\rINFO - Step 345, rl-loss: 0.47` records read whole; leap-ec's fitness statistics CSV (`step, bsf,
# mean_fitness, std_fitness, min_fitness, max_fitness`) read but no objective found among them (`mean_fitness` the
# population's mean of what it minimises), one with a `#` comment line first read as nothing.
FIRST_READING = {"read": 6, "stopped": 2, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 7}

# Corrected (fixleap: population statistics named statistic-first, `mean_fitness` the run's curve beside `bsf`, a
# comment line before a CSV's header, a row cut by a warning): 14/14 files, STOP 5/5, flagged 5/5, no false or early
# STOP, ESCALATE 3 of 27 healthy checks (rlcard's DQN loss, noisy).
CORRECTED = {"read": 14, "stopped": 5, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 3}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
