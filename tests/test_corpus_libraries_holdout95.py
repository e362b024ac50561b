"""The 95th blind library corpus (examples/libraries_holdout95), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (pytorchtrainer, deep-trainer), made by
bench/holdout_libraries95/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout95.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

No first reading yet: someone else makes it.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout95"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=6, healthy=10, max_mb=10))

# First reading (2026-12-07), by main's reader at the session's start (bbfc8e89, before any correction for this
# set): deep-trainer's epoch averages (Avg Train Metrics --- Loss:) unread, its diverged runs ESCALATE only;
# pytorchtrainer's bars read, a stale val loss carried in the bar's postfix ESCALATEs 3 healthy runs.
FIRST_READING = {"read": 8, "stopped": 4, "flagged": 6,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 6}

# After this session's corrections (main at the session's end, 2026-12-07): the reading the set's shapes' fixes
# reached (see the README's blind sets 93 to 97).
CORRECTED = {"read": 16, "stopped": 4, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# (its flagged should-stop runs exempt from the first reading's: 6 of 6 then, deep-trainer's two diverged runs
# ESCALATEd on misread values, a bar's last batch; read right now, one ends WAIT on its 7 epoch means, the jump to
# 21.4 then 3.9 only two logs old)
test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED),
                                                  exempt=(("the first reading", "flagged"),))
