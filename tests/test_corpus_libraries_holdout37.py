"""The 37th held-out library corpus (examples/libraries_holdout37), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (torchkeras, arch, kmodes), made by
bench/holdout_libraries37/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout37.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 223b555, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout37"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=20, stop=5, healthy=15, max_mb=10,
                                   made_alongside=("torchkeras",)))

# The first reading (223b555, the set's merge): 0/20 files, STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE
# 10 of 45 healthy checks. torchkeras' per-batch bar postfix (`train_loss=3.85`) read at batch steps, not the epoch's
# value; arch's `Iteration: 1, Func. Count: 6, Neg. LLF: 1744.3` read with no loss (a negative log-likelihood); kmodes'
# `Run: 1, iteration: 1/100, moves: 302, ncost: 3440.2` read with no loss (`ncost`).
FIRST_READING = {"read": 0, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 10}

# Then (issue 32): a bar whose counter never moves under an epoch banner gives no step of its own, its close is the
# epoch's point at the epoch (engine._stale_bars); a negated log-likelihood function (`Neg. LLF`) is an nll; a
# clustering's new cost (`ncost`) a cost: 17/20 files, STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 0 of
# 45 healthy checks. torchkeras' own `plot=True` bar (an epoch bar and a batch bar on one line, `[1/8] ... [best
# train_loss=1.0972 (@epoch 1)]` beside `[16/16] [train_loss=1.0972, ...]`) stays unread (its 3 files).
CORRECTED = {"read": 17, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
