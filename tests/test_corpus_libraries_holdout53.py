"""The 53rd blind library corpus (examples/libraries_holdout53), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (hippynn, neuralhydrology), made by
bench/holdout_libraries53/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout53.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 09d31f1, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout53"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=17, stop=6, healthy=11, max_mb=10,
                                  made_alongside=("hippynn",)))

# The first reading (09d31f1, the set's merge): 1/17 files, STOP 6/6, flagged 6/6, no false STOP, 1 early STOP, ESCALATE
# 7 of 33 healthy checks. hippynn's transposed epoch table (`Loss : * 11.517 * 12.735` under `train valid`) read at
# wrong steps; neuralhydrology's epoch record (`Epoch 3 average loss: avg_loss: 0.08973, avg_total_loss: 0.08973`) lost
# to its tqdm bar's per-batch `Loss: 0.0234`.
FIRST_READING = {"read": 1, "stopped": 6, "flagged": 6,
                 "false_stops": 0, "early_stops": 1, "healthy_check_escalates": 7}

# Then (fixhippynn, fixepochrec): hippynn's tables as in holdout52; an epoch's own record (`Epoch 3 average loss:
# avg_loss: 0.08973, avg_total_loss: 0.08973`) over the per-batch running view of the same value (the tqdm bar's `Loss:
# 0.0234`): 17/17 files, STOP 6/6, flagged 6/6, no false or early STOP, ESCALATE 1 of 33 healthy checks.
CORRECTED = {"read": 17, "stopped": 6, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 1}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
