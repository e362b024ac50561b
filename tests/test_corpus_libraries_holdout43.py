"""The 43rd held-out library corpus (examples/libraries_holdout43), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (MXNet's Module and Gluon Estimator, POT, Spark
MLlib through pyspark), made by bench/holdout_libraries43/ by a developer who never read the reader's code nor ran it
on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout43.py`` shows it). The corpus itself is checked: it
covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so a miss is
the reader's. Its first reading (main at 28eb55d, the set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout43"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=26, stop=7, healthy=19, max_mb=10))

# The first reading (28eb55d, the set's merge): 3/26 files, STOP 3/7, flagged 5/7, no false or early STOP, ESCALATE
# 11 of 36 healthy checks. mxnet's `Epoch[0] Train-cross-entropy=1.05` (cross-entropy not known as a loss) and its
# batch lines `Epoch[0] Batch [0-5]\tSpeed: ...\tmse=1.98` taken over the epoch's `Train-mse`; Gluon's `[Epoch 1][Batch
# 5][Samples 832]` logged every k batches placed with a wrong epoch length; POT's `It.  |Loss        |...` tables read
# as nothing; Spark's `LBFGS: Val and Grad Norm: 0.495 (rel: 0.285) 0.0977` read as a gradient norm only, and its
# gradient descent's one line of `Last 10 stochastic losses a, b, ...` as nothing.
FIRST_READING = {"read": 3, "stopped": 3, "flagged": 5, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 11}

# Then: a cross-entropy by any separator a loss, a `Train-<name>` epoch record the train series over its running twin,
# an estimator's epoch length told by its `Samples` count; a table with `|` glued between its cells, `It.` its
# iteration, `Err` named alone the objective; `Val and Grad Norm: v (rel: r) g` the objective's value v: 22/26 files,
# STOP 4/7, flagged 5/7, no false or early STOP, ESCALATE 6 of 54 healthy checks. Left: Spark's gradient descent (its
# one line of the last 10 losses; its two should-stop runs missed), an L-BFGS log whose line-search lines share its
# line order (steps one off), a diverged run that never halved its first loss (ESCALATE).
CORRECTED = {"read": 22, "stopped": 4, "flagged": 5, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 6}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
