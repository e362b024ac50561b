"""The 62nd blind library corpus (examples/libraries_holdout62), read the way bench/read_corpus.py reads it.

Real runs of a training library nobody on the project had used (torchphysics, its PINN Solver trained by a PyTorch
Lightning Trainer), made by bench/holdout_libraries62/ by a developer who never read the reader's code nor ran it on
them. Per file: its train loss read with >= 90 % of the truth's points (the library's own record) at the truth's
steps, and the three replayed cron checks never STOP a healthy run. The per-file reading carries ``holdout_score``
(left out of the default run; ``pytest -m holdout_score tests/test_corpus_libraries_holdout62.py`` shows it). The
corpus itself is checked: every truth value of a log is printed in that log, so a miss is the reader's.
Its first reading (main at 3c1d562, before the set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout62"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=1, files=14, stop=5, healthy=9, max_mb=10))

# The first reading (main at 3c1d562, before the set's merge): 14/14 files read, STOP 5/5, flagged 5/5, no false or
# early STOP, ESCALATE 0 of 27 healthy checks: every figure issue 32 asks. torchphysics' Solver under Lightning: one
# tqdm bar `Epoch 0:  33%|###  | 100/300 [..., v_num=0, train/loss=0.235]` redrawn on one `\r` line, its count the
# step, validation bars nested with cursor-up escapes.
FIRST_READING = {"read": 14, "stopped": 5, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
