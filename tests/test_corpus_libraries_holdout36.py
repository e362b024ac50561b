"""The thirty-sixth held-out library corpus (examples/libraries_holdout36), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (imitation's behavioral cloning, BrainPy's BPTT
trainer), made by bench/holdout_libraries36/ by a developer who never read the reader's code nor ran it on them.
Per file: its train loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps,
and the three replayed cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left
out of the default run; ``pytest -m holdout_score tests/test_corpus_libraries_holdout36.py`` shows it). The corpus
itself is checked: it covers unused libraries and both kinds of run, and every truth value of a log is printed in
that log, so a miss is the reader's. Its first reading (main at 84dc70c, the set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout36"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=24, stop=8, healthy=16, max_mb=10))

# The first reading (84dc70c, the set's merge): 4/24 files, STOP 6/8, flagged 6/8, no false or early STOP, ESCALATE
# 0 of 44 healthy checks. imitation's logger tables (`| bc/ |` then `|    batch | 10 |` ... `|    epoch | 0 |`) read at
# their epoch, not at the batch counter that never restarts; BrainPy's `Train 2 steps, use 1.05 s, loss 2.16` and
# `Train 0 epoch, ...` (a count before its noun, the record's position) read by line order, its test records too.
FIRST_READING = {"read": 4, "stopped": 6, "flagged": 6, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 0}

# Then (fixh36): a vertical table's batch counter that never restarts where the epoch changes is its step
# (`blocks._global_counter`: imitation read at `bc/batch`), and a count of steps or epochs opening a record after a
# split's word is its position (`fields._counted_position`: BrainPy's `Train 2 steps,` / `Test 0 epoch,`): 24/24
# files, STOP 8/8, flagged 8/8, no false or early STOP, ESCALATE 0 of 48 healthy checks.
CORRECTED = {"read": 24, "stopped": 8, "flagged": 8, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
