"""The 67th blind library corpus (examples/libraries_holdout67), read the way bench/read_corpus.py reads it.

Real runs of a library nobody on the project had used (scs, the Splitting Conic Solver, its own Python binding),
made by bench/holdout_libraries67/ by a developer who never read the reader's code nor ran it on them. Per file: its
train loss (SCS's primal residual) read with >= 90 % of the truth's points (the library's own record) at the truth's
steps, and the three replayed cron checks never STOP a healthy run. The per-file reading carries ``holdout_score``
(left out of the default run; ``pytest -m holdout_score tests/test_corpus_libraries_holdout67.py`` shows it). The
corpus itself is checked: every truth value of a log is printed in that log, so a miss is the reader's.
The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout67"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=1, files=16, stop=6, healthy=10, max_mb=10))

# The first reading (main at 659bdbe, the reader of 9d3dd94, before the set's merge): 0/16 files read, STOP 0/6,
# flagged 5/6, no false or early STOP, ESCALATE 2 of 30 healthy checks. SCS's table (` iter | pri res | dua res | gap
# | obj | scale | time (s)`, a row every 250 iterations) read whole at its iterations, but its `obj` (the conic
# objective, which a solver need not lower) taken as the run's objective where the truth is the primal residual
# `pri res`; the infeasible and unbounded problems, their residual 1e2-1e9 x their start from the first row on,
# ESCALATE (one CONTINUEs: "too few points").
FIRST_READING = {"read": 0, "stopped": 0, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 2}

# Corrected (fixscs: a primal-dual solver's table, a primal residual beside a dual residual or a gap, has its primal
# residual for the objective, its objective column no direction; a blown-up check's best floored at 1e-7 of the first
# log, a solver's rounding residue no best): 16/16 files, STOP 6/6, no false or early STOP, ESCALATE 2 of 30 healthy
# checks (a QP's residual 9.4e-16 -> 1.6e-7 -> 4e-8 from 1.0 escalated as "above its best").
CORRECTED = {"read": 16, "stopped": 6, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 2}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
