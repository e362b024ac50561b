"""The 75th blind library corpus (examples/libraries_holdout75), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (OpenNMT-tf, stardist), made by
bench/holdout_libraries75/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout75.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout75"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=6, healthy=9, max_mb=10))

# The first reading (the reader of 82623c50, the session's start; the set's runs made after it): 15/15 files read,
# STOP 5/6, flagged 5/6, no false or early STOP, ESCALATE 2 of 27 healthy checks. OpenNMT-tf's absl lines (`I
# runner.py:310] Step = 20 ; steps/s = ... ; Learning rate = 0.002000 ; Loss = 2.379491`) and StarDist's Keras meter
# (`10/10 ... - loss: 1.6947 - prob_loss: ... - val_loss: ...` after backspaces and `\r`) read whole. Missed: the SGD
# run whose loss went 2.5 -> 11.5 -> 4.4e8 in its last two logs and died of OpenNMT-tf's `RuntimeError: Model
# diverged with loss = NaN.`, a Python warning (TensorFlow Addons' end-of-life notice) printed after the traceback
# hiding the crash: WAIT.
FIRST_READING = {"read": 15, "stopped": 5, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 2}

# Corrected (fixnf's run_end: a Python warning printed after the crash is walked over, the error stays the log's
# end): 15/15 files, STOP 6/6, flagged 6/6, no false or early STOP, ESCALATE 2 of 27 healthy checks.
CORRECTED = {"read": 15, "stopped": 6, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 2}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
