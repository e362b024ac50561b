"""The 82nd blind library corpus (examples/libraries_holdout82), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (bayesflow, easy-torch), made by
bench/holdout_libraries82/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout82.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout82"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=6, healthy=10, max_mb=10))

# The first reading (the reader of df0a8a2d, the session's start; the set's runs made after it): 8/16 files read,
# STOP 6/6, flagged 6/6, no false or early STOP, ESCALATE 0 of 30 healthy checks. BayesFlow's Keras fits read whole;
# EasyTorch's epoch results (`Epoch 4 / 6`, a tqdm bar per epoch, `Result <train>: [train_time: 0.00 (s),
# train_loss: 3.0806]`) read at the bar's global batch (epoch x its 8 batches) where the truth counts epochs.
FIRST_READING = {"read": 8, "stopped": 6, "flagged": 6,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (EasyTorch's truths say `steps_per_epoch`, the train bar's total, so epoch x steps_per_epoch is a
# numbering the scorer takes: its records were read at the bar's global batch): 16/16 files, STOP 6/6, flagged 6/6,
# no false or early STOP, ESCALATE 0 of 30 healthy checks.
CORRECTED = {"read": 16, "stopped": 6, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
