"""The 77th blind library corpus (examples/libraries_holdout77), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (torch-training-loop, trainloop), made by
bench/holdout_libraries77/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout77.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout77"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (the reader of 82623c50, the session's start; the set's runs made after it): 12/15 files read,
# STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 3 of 30 healthy checks. trainloop's logging lines
# (`INFO:trainer:Step 20/200: ... loss 0.8491 lr/group_0 1.96e-02`) and torch-training-loop's one-line epochs
# (`Epoch 3/10 - Finished: loss=1.9003; mse=1.9003; val_loss=...`) read whole; torch-training-loop's bar files
# (`Epoch 3/10 - Training:  45%|...| 9/20 [..., loss=2.7782; mse=2.7782]` redrawn with `\r`, the epoch's record the
# `Finished` redraw) read per batch, not at the epochs. Escalated: a run with no validation data printing
# `val_mse=nan` at every epoch (an eval never computed read as a broken one).
FIRST_READING = {"read": 12, "stopped": 5, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 3}

# Corrected (fixttl: a bar's redraw whose description names its epoch's end, `Epoch 3/10 - Finished: 100%|...|`, is
# the epoch's record, the in-epoch postfix a live view; fixnf: an eval never finite is not computed, no ESCALATE):
# 15/15 files, STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 30 healthy checks.
CORRECTED = {"read": 15, "stopped": 5, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
