"""The 72nd blind library corpus (examples/libraries_holdout72), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (ai2-olmo-core, biotrainer), made by
bench/holdout_libraries72/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout72.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout72"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (the reader of a1dfdf7e, this session's start; the set's runs made after it): 8/15 files read,
# STOP 2/5, flagged 3/5, no false or early STOP, ESCALATE 0 of 26 healthy checks. ai2-olmo-core's records (a
# `[step=5/40,epoch=1,eta=1m]` header over indented `train/CE loss=4.318` lines) read 8/8. biotrainer's epochs (`INFO
# Epoch 3`, `INFO Training results`, `INFO \tloss: 0.91` ..., `INFO Validation results`, `INFO \tloss: 0.94` ...)
# read one point or none: 0/7, its two should-stop runs WAIT. The Lion run at a constant 0.2 ESCALATEs.
FIRST_READING = {"read": 8, "stopped": 2, "flagged": 3,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (fixbio): a record's lines may each carry the logger's preamble (a stamp and the level after it): a
# split's banner (`INFO Validation results`) heads the bare `name: value` lines under it whatever preamble they share,
# each record at its `Epoch N`: 15/15 files, STOP 4/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 30 healthy
# checks (the Lion run at a constant 0.2 still ESCALATEs).
CORRECTED = {"read": 15, "stopped": 4, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
