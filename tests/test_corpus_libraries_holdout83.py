"""The 83rd blind library corpus (examples/libraries_holdout83), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (gliner, torchfitter), made by
bench/holdout_libraries83/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout83.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout83"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=17, stop=5, healthy=12, max_mb=10))

# The first reading (the reader of df0a8a2d, the session's start; the set's runs made after it): 15/17 files read,
# STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 36 healthy checks. GLiNER's Trainer dicts read whole;
# torchfitter's rich display (a line `loss -> Train: 3.43e+00 | Validation: 2.56e+00 • Learning Rate: 0.05 • ...`
# drawn right above its bar `Epoch 3/30 • ━━━ • 100%`, both redrawn together) read at line order, beside its
# logger's `Epoch 5/30 | Train loss: 2.04e+00 | ...` every 5 epochs.
FIRST_READING = {"read": 15, "stopped": 5, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (fixtorchfitter: a record drawn right above its bar's line in one redraw is at the bar's epoch; `name ->
# Train: x | Validation: y` each split's value): 17/17 files, STOP 5/5, flagged 5/5, no false or early STOP,
# ESCALATE 0 of 36 healthy checks.
CORRECTED = {"read": 17, "stopped": 5, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
