"""The 52nd blind library corpus (examples/libraries_holdout52), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (torchbiggraph, hippynn), made by
bench/holdout_libraries52/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout52.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 09d31f1, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout52"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=18, stop=6, healthy=12, max_mb=10,
                                  made_alongside=("hippynn",)))

# The first reading (09d31f1, the set's merge): 3/18 files, STOP 3/6, flagged 3/6, no false or early STOP, ESCALATE 0 of
# 28 healthy checks. PyTorch-BigGraph's bucket records (`( 1 , 1 ): loss: 2.7579 , ...` after `( 1 , 1 ): bucket 1 / 4 :
# Processed ...`, under `Starting epoch 3 / 8, ..., edge chunk 1 / 3`) read as one point unless one bucket an epoch (its
# 3 should-stop runs WAIT); hippynn's transposed epoch table (`Loss : * 1.9689 * 2.0663` under `train valid`, `*` a best
# mark) read at few epochs, one off.
FIRST_READING = {"read": 3, "stopped": 3, "flagged": 3,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Then (fixhippynn, fixpbg): a table of a metric per row and a split per column (`Loss  :    *    1.9689   *    2.0663`
# under `train  valid`, a `*` a best mark) is its epoch's report at the banner's epoch; a tag in parentheses opening a
# record (`( 1 , 0 ):`) is no value nor step, its record at the counter its tag's last line printed, an epoch banner's
# further counters (`edge chunk 2 / 3`) parts of the epoch: 18/18 files, STOP 6/6, flagged 6/6, no false or early STOP,
# ESCALATE 1 of 36 healthy checks (hippynn's 12-epoch run, now read whole: its valid loss rises over its last two
# epochs, 0.241 -> 0.343 -> 0.432; held as corrected, not as the first reading's 0).
CORRECTED = {"read": 18, "stopped": 6, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 1}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED),
                                                  exempt=(("the first reading", "healthy_check_escalates"),))
