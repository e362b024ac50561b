"""The 76th blind library corpus (examples/libraries_holdout76), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (cellpose, scArches), made by
bench/holdout_libraries76/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout76.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout76"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=5, healthy=11, max_mb=10))

# The first reading (the reader of 82623c50, the session's start; the set's runs made after it): 9/16 files read,
# STOP 3/5, flagged 3/5, no false or early STOP, ESCALATE 0 of 23 healthy checks. scArches' trVAE bar (one `\r`
# redraw an epoch, ` |####----| 40.0%  - epoch_loss: 380.6178843180 - ... - val_loss: ...`) read whole; cellpose's
# logging lines (`2026-12-07 11:10:46,972 [INFO] 5, train_loss=1.6262, test_loss=2.3693, LR=0.111111, time 2.52s`, the
# epoch a bare counter opening the message) read as one point at the data-preparation bars' count, so its two
# should-stop runs WAIT.
FIRST_READING = {"read": 9, "stopped": 3, "flagged": 3,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (fixcellpose): a bare counter opening a logger line's message (after its stamp and level) and followed by
# a separator and named values is the record's step: 16/16 files, STOP 5/5, flagged 5/5, no false or early STOP,
# ESCALATE 0 of 33 healthy checks.
CORRECTED = {"read": 16, "stopped": 5, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
