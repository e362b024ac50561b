"""The 58th blind library corpus (examples/libraries_holdout58), read the way bench/read_corpus.py reads it.

Real runs of a training library nobody on the project had used (paddlenlp, its Trainer; paddleseg, tried second,
was left out: its training loop fails on every Paddle PyPI has for Python 3.11), made by bench/holdout_libraries58/
by a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the
truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout58.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

Its first reading (main at 75a77b6, the reader the set was made against, before its merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout58"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=1, files=14, stop=5, healthy=9, max_mb=10))

# The first reading (main at 75a77b6, before the set's merge): 14/14 files read, STOP 2/5, flagged 4/5, no false or
# early STOP, ESCALATE 2 of 27 healthy checks. Every file read at the Trainer's own steps (`loss: 0.66143286, ...,
# global_step: 2`); missed: a classifier's cross-entropy bouncing between 1 and 9 from a first log of 0.69 at a constant
# LR of 0.5 (CONTINUE: "too few points to judge the trend yet", its bounces "within noise"); escalated, not stopped:
# the warm-up to an LR of 2 and LR 0.3 with accumulation.
FIRST_READING = {"read": 14, "stopped": 2, "flagged": 4,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 2}

# Corrected (a loss held above its first log from its first update on has diverged: tools/signals/divergence.py):
# STOP 4/5 (the constant LR of 0.5 and the warm-up to 2 now STOP), flagged 5/5; LR 0.3 with accumulation still
# ESCALATEs (its loss comes back under its first log now and then). paddlenlp's `progress_or_epoch` is the record's
# epoch (Dialect.epoch_names): its eval lines (`eval_loss: 0.4433, ..., progress_or_epoch: 2.0`) are read at their
# steps, whole and in pieces (before: `avg_eval_loss` at some of them, others in pieces). Two healthy runs whose eval
# loss really rises from step 10 (0.434 -> 0.467 over 5 evals) while the train loss falls ESCALATE as overfitting at
# their last checks (3 of 27 healthy checks).
CORRECTED = {"read": 14, "stopped": 4, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 3}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED),
                                                  exempt=(("the first reading", "healthy_check_escalates"),))
