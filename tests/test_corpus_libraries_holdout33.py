"""The thirty-third held-out library corpus (examples/libraries_holdout33), read the way bench/read_corpus.py reads it.

Real runs of iterative solvers of libraries nobody on the project had used (pylops, pyproximal, ModOpt), made by
bench/holdout_libraries33/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout33.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 4d4f8e8, the
set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout33"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=22, stop=9, healthy=13, max_mb=10))

# The first reading (4d4f8e8, the set's merge): 0/22 files, STOP 2/9, flagged 3/9, no false or early STOP, ESCALATE 0
# of 12 healthy checks. pylops' and pyproximal's solver tables (`Itn  x[0]  r2norm  r12norm  xupdate`, `Itn  x[0]  f
# g  J=f+eps*g  tau`) are not read at all; ModOpt's vertical records (` - ITERATION: 1` / ` - COST: 217.84`, the first
# on the line of a tqdm bar) are read from the second iteration, 15 to 59 of 20 to 80 points a file.
FIRST_READING = {"read": 0, "stopped": 2, "flagged": 3, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 0}

# Then (fixh33): `Itn` (an abbreviation of iteration) names a table's step, a column named by a definition (`J=f+eps*g`)
# is a column, a table naming no loss is judged by its cost (`J`, `J=...`), else by the norm of its residual covering
# the most terms (`r12norm`; `r1norm` first among equals), never `x[0]`; numpy's three warnings (six lines) amid a
# table's rows are passed over; a name in capitals keeps its words (`CHANGE IN COST`), a change of a quantity is no
# loss: 22/22 files, STOP 9/9, flagged 9/9, no false or early STOP, ESCALATE 0 of 39 healthy checks.
CORRECTED = {"read": 22, "stopped": 9, "flagged": 9, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
