"""The 73rd blind library corpus (examples/libraries_holdout73), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (qucumber, selene-sdk), made by
bench/holdout_libraries73/ by a developer who never read the reader's code nor ran it on them. Per file: its train loss
read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed cron
checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout73.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout73"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (the reader of a1dfdf7e with this session's first judge change, eval_health's give-back share; the
# set's runs made after it): 14/15 files read, STOP 5/5, flagged 5/5, no false or
# early STOP, ESCALATE 0 of 30 healthy checks. QuCumber's evaluator lines (`Epoch: 10\tFidelity = 0.739481\tKL =
# 0.620042`, its KL the objective) and Selene's `- training loss: 0.677...` at its `[STEP 50]` lines read whole.
# Missed: QuCumber with its progress bar, whose `\r` redraws (`Epochs :  62%|...| 31/50`) land inside `Epoch: 30\t...`
# records: read at the bar's count, 6 of 10 points at any step.
FIRST_READING = {"read": 14, "stopped": 5, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (fixqc, the next session): a program's line that a bar's redraw cut into is the program's pieces joined
# (tools/parsers/interrupted.py), and records naming their own epoch under a bar of the run's epochs are at their
# epoch: 15/15 files, STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 30 healthy checks.
CORRECTED = {"read": 15, "stopped": 5, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
