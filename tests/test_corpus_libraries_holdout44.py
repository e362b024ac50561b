"""The 44th held-out library corpus (examples/libraries_holdout44), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (torchtnt, eole, pytorch-argus), made by
bench/holdout_libraries44/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout44.py`` shows it). The corpus itself is checked: it
covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so a miss is
the reader's. Its first reading (main at 08aad0b, the set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout44"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=26, stop=10, healthy=16, max_mb=10))

# The first reading (08aad0b, the set's merge): 26/26 files, STOP 10/10, flagged 10/10, no false STOP, ESCALATE 0 of
# 48 healthy checks, and one STOP the bench calls early: eole's noam run with a growing rate STOPs at its check of step
# 220 (xent 3.95 at step 200: above its first log, 3.08, and 1.76 x its best, 2.24, rising for 12 logs), while the
# bench dates the problem at the first value twice the lowest (4.45, step 260).
FIRST_READING = {"read": 26, "stopped": 10, "flagged": 10, "false_stops": 0, "early_stops": 1,
                 "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
