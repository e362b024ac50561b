"""The 60th blind library corpus (examples/libraries_holdout60), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (scikeras, orion), made by bench/holdout_libraries60/
by a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of
the truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout60.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

Its first reading (906d795, the session's reader, before the set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout60"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=14, stop=5, healthy=9, max_mb=10))

# The first reading (906d795, the session's reader, before the set's merge): 8/14 files read, STOP 3/5, flagged 3/5, no
# false or early STOP, ESCALATE 0 of 15 healthy checks. scikeras' Keras epochs read 8/8 (STOP 3/3); orion's trials
# (`Completed trials with results: [Result(name='objective', type='objective', value=17.84...)]`, no trial number) read
# as nothing: 0/6, UNREADABLE.
FIRST_READING = {"read": 8, "stopped": 3, "flagged": 3,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (fixtrials): 14/14 files, STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 0 of 27 healthy checks. A
# repr of a named value (`Result(name='objective', type='objective', value=17.84)`, MLflow's `Metric(key='loss',
# value=0.3, step=3)`) is the metric its name field names, at its step field if it has one, else one record a line.
CORRECTED = {"read": 14, "stopped": 5, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
