"""The 80th blind library corpus (examples/libraries_holdout80), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (LightZero, SPORCO), made by
bench/holdout_libraries80/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout80.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout80"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=17, stop=5, healthy=12, max_mb=10))

# The first reading (the reader of df0a8a2d, the session's start; the set's runs made after it): 0/17 files read,
# STOP 0/5, flagged 3/5, no false or early STOP, ESCALATE 7 of 21 healthy checks. LightZero's records (DI-engine's
# rich logger: `[12-07 14:04:35] INFO     [RANK0]: === Training Iteration 15 Result ===` then tables of `| Name  |
# cur_lr_avg | total_loss_avg | ...` over `| Value | 0.003000 | 34.714985 | ...`, indented under the message, rows
# wider than the terminal wrapped, the source `base_learner.py:360` at the line's end) read as nothing; SPORCO's
# iteration table (`Itn   Fnc       DFid      ℓ1  ...` over rows of `%.2e`) read but its `Fnc` (the functional value
# it minimises) taken for no objective.
FIRST_READING = {"read": 0, "stopped": 0, "flagged": 3,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 7}

# Corrected (fixdiengine: a Name row over a Value row is one record, rows wrapped by the terminal joined, the step
# the rich-handler message's iteration; fixfnc: SPORCO's `Fnc` a function value, the objective): 17/17 files, STOP
# 5/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 36 healthy checks.
CORRECTED = {"read": 17, "stopped": 5, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
