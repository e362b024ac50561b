"""The twentieth held-out library corpus (examples/libraries_holdout20), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (diffusers under accelerate, pacmap, trimap), made by
bench/holdout_libraries20/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout20.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. What gates is
``test_the_first_reading_holds``: the first reading's totals may not get worse.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout20"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=22, stop=7, healthy=15, max_mb=10))


# The first reading (bench/read_corpus.py examples/libraries_holdout20 at 8685325, 2026-12-06: none of it made knowing
# this set): 22/22 files, STOP recall 7/7, flagged 7/7, no false or early STOP, ESCALATE 1 of 45 healthy checks - the
# first blind set to meet every figure issue 32 asks of a first reading. diffusers' DDPM under accelerate (a tqdm bar
# an epoch, `loss`, `lr`, `step` in its postfix) 10/10; pacmap's `Iteration:   10, Loss: 1234.5` 6/6; trimap's
# `Iteration:  100 /  800, Loss: 0.067, Violated triplets: 0.1` 6/6.
FIRST_READING = {"read": 22, "stopped": 7, "flagged": 7, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 1}

# Then (fixh26) a value-less bar (a sampling bar at the log's end) no longer stands for the training step: ESCALATE 0
# of 45.
CORRECTED = {"read": 22, "stopped": 7, "flagged": 7, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
