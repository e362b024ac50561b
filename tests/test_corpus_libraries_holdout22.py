"""The 22nd held-out library corpus (examples/libraries_holdout22), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (skglm, mittens, CEBRA, pymanopt), made by
bench/holdout_libraries22/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout22.py`` shows it). The corpus itself is checked: it
covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so a miss is
the reader's. What gates is ``test_the_first_reading_holds``: the first reading's totals may not get worse.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout22"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=4, files=24, stop=5, healthy=19, max_mb=10))


# The first reading (bench/read_corpus.py examples/libraries_holdout22 at b71b204, 2026-12-06: none of it made knowing
# this set): 13/24 files, STOP recall 5/5, flagged 5/5, no false or early STOP, ESCALATE 17 of 57 healthy checks.
# mittens' `\rIteration N: error X` redraws 8/8 (its 5 diverged runs stopped); pymanopt's `Iteration  Cost  Gradient
# norm` table 5/5, 3 of them ESCALATE as vanishing gradients (a solver's norm shrinking at its minimum); skglm's
# `Iteration 1: 1.1198, stopping crit: 2.12e+00` (an unnamed objective after the position) 0/6; CEBRA's bar whose
# description is its losses (`pos: -0.69 neg: 6.11 total: 5.41 temperature: 1.0:   0%|`) 0/5.
FIRST_READING = {"read": 13, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 17}
# Then (4fa6970, a grad_norm change made before the set was seen, its first reading of holdout21): a loss come down
# smoothly to a flat minimum while the norm collapsed converged: pymanopt's ESCALATEs gone, ESCALATE 11 of 57.
# Then (fixh22) an unnamed value right after a record's position is its objective when it names no loss (skglm), and
# a `total` that sums its record's values is its loss (CEBRA): 24/24 files, ESCALATE 3 of 57.
CORRECTED = {"read": 24, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 3}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
