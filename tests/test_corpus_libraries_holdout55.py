"""The 55th blind library corpus (examples/libraries_holdout55), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (jaxline, and Orbit from tf-models-official), made by
bench/holdout_libraries55/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout55.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at ca9ba16, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout55"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=17, stop=6, healthy=11, max_mb=10))

# The first reading (ca9ba16, the set's merge; the reader of 09d31f1): 17/17 files, STOP 6/6, flagged 6/6, no false or
# early STOP, ESCALATE 0 of 33 healthy checks: every figure issue 32 asks, with no correction.
FIRST_READING = {"read": 17, "stopped": 6, "flagged": 6,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
