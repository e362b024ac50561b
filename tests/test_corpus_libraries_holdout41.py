"""The 41st held-out library corpus (examples/libraries_holdout41), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used, made by bench/holdout_libraries41/ by a developer
who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the truth's points
(the library's own record) at the truth's steps, and the three replayed cron checks never STOP a healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout41.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at b0e868f, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout41"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=32, stop=12, healthy=20, max_mb=10))

# The first reading (b0e868f, the set's merge): 0/32 files, STOP 12/12, flagged 12/12, no false or early STOP, ESCALATE
# 0 of 60 healthy checks. coqui's trainer records (`--> TIME: ... -- STEP: 3/15 -- GLOBAL_STEP: 3` over `| > loss:
# 12.84  (15.35)` rows) read with their values right, at the epoch's counter times its printed total (one short of
# the epoch's length), not at the GLOBAL_STEP they name; sockeye's `Checkpoint [1]\tTrain-ppl=76.44` not taken for
# the loss (its `Time-cost` was), at its `Updates=` count.
FIRST_READING = {"read": 0, "stopped": 12, "flagged": 12, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 0}

# Then (fixh41): a record naming its global step is placed at it (`Dialect.run_step_names`), sockeye's `Time-cost` is a
# duration and its `Train-ppl` the objective, at the checkpoint number, read whole or in pieces: 32/32 files, STOP
# 12/12, flagged 12/12, no false or early STOP, ESCALATE 0 of 60 healthy checks.
CORRECTED = {"read": 32, "stopped": 12, "flagged": 12, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
