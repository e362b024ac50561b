"""The 102nd blind library corpus (examples/libraries_holdout102), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (lenskit, jumanji), made by
bench/holdout_libraries102/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout102.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout102"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=17, stop=5, healthy=12, max_mb=10))

# First reading (2026-12-07), by main's reader at the session's start (44daf031, before any correction for this
# set): lenskit's logging records (wrapped at 80 columns: `finished epoch` then `[lenskit.training] epoch=3 loss=0.648`)
# read at their epochs; its JSON records (`{"epoch": 1, "loss": 0.98, "event": "finished epoch", ...}`, four files)
# read at line order, not at their epochs (values right, steps wrong); jumanji's `Train >> ... | Total Loss: 55.652 |`
# read at its env steps, two of its three healthy runs ESCALATE on their eval return falling below the first eval's.
FIRST_READING = {"read": 13, "stopped": 4, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 12}
# After this session's corrections (main at the session's end, 2026-12-07): lenskit's JSON records at their epochs
# (fixlk); jumanji's healthy runs still ESCALATE on their eval return falling below the first eval's.
CORRECTED = {"read": 17, "stopped": 4, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 12}
test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
