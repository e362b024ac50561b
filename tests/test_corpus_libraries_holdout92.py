"""The 92nd blind library corpus (examples/libraries_holdout92), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (pzflow, lpd), made by bench/holdout_libraries92/ by
a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the
truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout92.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout92"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10,
                                  made_alongside=("pzflow",)))  # (sets 88 and 92 both chose pzflow, blind)

# The first reading, by the reader at main 58e269cf (the session's start, before any file of this set was read),
# 2026-12-07.
FIRST_READING = {"read": 3, "stopped": 3, "flagged": 3,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# After this session's corrections (main at the session's end, 2026-12-07): the reading the set's shapes' fixes
# reached (see the README's blind sets 87 to 92).
CORRECTED = {"read": 15, "stopped": 4, "flagged": 4,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
