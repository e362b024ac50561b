"""The 74th blind library corpus (examples/libraries_holdout74), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (nvidia-physicsnemo: its LaunchLogger and
PythonLogger around a tiny custom model; metatrain: `mtt train` on a tiny PET), made by bench/holdout_libraries74/ by
a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the
truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout74.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout74"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=6, healthy=9, max_mb=10))

# The first reading (the reader of a1dfdf7e with this session's two judge changes, eval_health's give-back share and
# divergence's reward coming back; the set's runs made after it): 15/15 files read, STOP 6/6, flagged 6/6, no false
# or early STOP, ESCALATE 2 of 27 healthy checks. PhysicsNeMo's LaunchLogger lines (`Epoch 3 Metrics: Learning Rate =
# 1.000e-03, loss =  2.359e-01` under three prefixes) and metatrain's one-line epochs (`Epoch:    3 | learning rate:
# ... | training loss: 2.379e+03 | ... | validation loss: ...`) read whole. Escalated: a metatrain energy run whose
# validation loss rose 0.94 -> 1.12 over 7 epochs while its train loss fell (overfitting).
FIRST_READING = {"read": 15, "stopped": 6, "flagged": 6,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 2}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
