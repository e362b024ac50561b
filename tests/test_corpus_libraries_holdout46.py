"""The 46th held-out library corpus (examples/libraries_holdout46), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (pyunlocbox, sklearn-genetic-opt, aeon), made by
bench/holdout_libraries46/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout46.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 9b29f0a, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout46"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=21, stop=7, healthy=14, max_mb=10))

# The first reading (9b29f0a, the set's merge): 21/21 files, STOP 5/7, flagged 6/7, no false or early STOP, ESCALATE
# 2 of 42 healthy checks. Missed: a genetic search whose fitness never moves in 9 generations (`flat`: too few points
# to judge a trend); ESCALATE, not STOP: a search where every model diverges (fitness -1.3e34 rising to -7.3e30, every
# value absurd, but improving at each generation).
FIRST_READING = {"read": 21, "stopped": 5, "flagged": 6, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 2}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
