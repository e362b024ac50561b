"""The 99th blind library corpus (examples/libraries_holdout99), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (pocomc, pyabc), made by bench/holdout_libraries99/
by a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of
the truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout99.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout99"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=17, stop=5, healthy=12, max_mb=10))

# First reading (2026-12-07), by main's reader at the session's start (44daf031, before any correction for this
# set): pocomc's epoch lines (`Epoch   3/ 60, train loss:  2.87, val loss:  2.91`) all read, its five high-rate runs
# flagged (one diverged run ESCALATEd, not stopped); pyabc's generations (`ABC INFO: t: 3, eps: 2.56164447e-01.`)
# read as no loss, its 6 files unread.
FIRST_READING = {"read": 11, "stopped": 4, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 1}
# After this session's corrections (main at the session's end, 2026-12-07): pyabc's generations read (fixabc: a
# sentence's full stop after a number, an acceptance threshold the objective when nothing else has a direction).
CORRECTED = {"read": 17, "stopped": 4, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 1}
test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
