"""The 24th held-out library corpus (examples/libraries_holdout24), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (casadi's Ipopt, jaxopt, AgileRL), made by
bench/holdout_libraries24/ by a developer who never read the reader's code nor ran it on them. The corpus itself is
checked: it covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so
a miss is the reader's. The per-file reading (>= 90 % of the truth's points at the truth's steps, the replayed cron
checks never STOP a healthy run) carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout24.py`` shows it). What gates is
``test_the_first_reading_holds``: the first reading's totals may not get worse.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout24"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=21, stop=5, healthy=16, max_mb=10))


# The first reading (bench/read_corpus.py examples/libraries_holdout24 at c318b59, 2026-12-06: none of it made knowing
# this set): 16/21 files, STOP recall 2/5, flagged 5/5, no false or early STOP, ESCALATE 4 of 45 healthy checks.
# casadi's Ipopt table 5/5; jaxopt's `INFO: jaxopt.OptaxSolver: Iter: 3 Gradient Norm (stopping criterion): 15.8
# Objective Value:60.7` 11/11, its 3 diverged runs only ESCALATE (`Objective Value` taken for an RL value loss, not
# judged for divergence); AgileRL's Rich report (a `Metric | Agent 0` table under `Global Steps: 1_200`, bold ANSI in
# every name cell) 0/5.
FIRST_READING = {"read": 16, "stopped": 2, "flagged": 5, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 4}
# Then (cb7c0cb) an objective's value named so is the optimiser's objective: jaxopt's diverged runs STOP, 5/5.
# Then (fixh24) a box-drawn table whose first column names metrics is one record at the step its title gives, its
# first value column the run's (AgileRL's report, agent 0): 21/21 files, ESCALATE 4 of 48 (two DQN runs whose TD loss
# climbs after its low point, ESCALATE at their later checks).
CORRECTED = {"read": 21, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 4}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
