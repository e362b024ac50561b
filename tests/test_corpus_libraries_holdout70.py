"""The 70th blind library corpus (examples/libraries_holdout70), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (nnunetv2: nnU-Net v2's planner and trainer on a tiny
2D dataset; cellbender: ``cellbender remove-background`` on a small droplet count matrix), made by
bench/holdout_libraries70/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout70.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout70"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (the reader of a1dfdf7e, this session's start; the set's runs made after it): 15/15 files read,
# STOP 4/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 30 healthy checks. nnU-Net's one-value lines
# (`2026-12-07 08:42:39.244653: train_loss -0.517`, a negative Dice + CE loss) and CellBender's `[epoch 007]  average
# training loss: 302.4939` read whole; CellBender's ambient run at a constant 0.05 (306 -> 1442 at its last epoch,
# once above its first) ESCALATEs at its last check.
FIRST_READING = {"read": 15, "stopped": 4, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
