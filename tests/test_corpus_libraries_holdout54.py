"""The 54th blind library corpus (examples/libraries_holdout54), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (flashy, torch4keras), made by
bench/holdout_libraries54/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout54.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

Its first reading (main at 09d31f1, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout54"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=6, healthy=10, max_mb=10))

# The first reading (09d31f1, the set's merge): 2/16 files, STOP 6/6, flagged 6/6, no false or early STOP, ESCALATE 4 of
# 30 healthy checks. flashy's epoch summary (`Train Summary | Epoch 12 | loss=1.189 | duration=0.007`) and torch4keras'
# (`Finish Epoch: 3/10 - loss: 3.5011`) lost to the per-batch running values before them (`Train | Epoch 7 | 15/16 | ...
# | loss 1.677`; Keras-like bar lines, one a line: ` 1/16 [>....] - ETA: 0:00<0:00 - loss: 3.5525`).
FIRST_READING = {"read": 2, "stopped": 6, "flagged": 6,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 4}

# Then (fixepochrec): an epoch's own record (`Train Summary | Epoch 12 | loss=1.189`, `Finish Epoch: 3/10 - loss:
# 3.5011`) over the per-batch running values of the same name (progress lines under an in-epoch counter, bar lines one a
# line): 16/16 files, STOP 6/6, flagged 6/6, no false or early STOP, ESCALATE 5 of 30 healthy checks: three flashy runs
# labelled healthy by their train loss, now read, ESCALATE as overfitting (`val_loss worsened to 3.323 from its best
# level 2.813 at step 6, 6 evals ago while the train loss keeps falling`: true of their valid loss; held as corrected,
# not as the first reading's 4).
CORRECTED = {"read": 16, "stopped": 6, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 5}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED),
                                                  exempt=(("the first reading", "healthy_check_escalates"),))
