"""The seventeenth held-out library corpus (examples/libraries_holdout17), read the way bench/read_corpus.py reads it.

Real runs of libraries nobody on the project had used (scipy.optimize, mace-torch, ctgan), made by
bench/holdout_libraries17/ by a developer who never read the reader's code nor ran it on them (issue 32: the reader
judged on runs made after it was built). Per file: its train loss read with >= 90 % of the truth's points (the
library's own record) at the truth's steps, and the three replayed cron checks never STOP a healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout17.py`` shows it). The corpus itself is checked: the
libraries are unused elsewhere, both kinds of run are there, and every truth value of a log is printed in that log,
so a miss is the reader's. What gates is ``test_the_first_reading_holds``: the first reading's totals may not
get worse.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout17"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=20, stop=5, healthy=15, max_mb=10))


# The first reading (bench/read_corpus.py examples/libraries_holdout17 at main de68012, 2026-12-06: the reader as it
# stood when the set was made, none of it made knowing this set): 18/28 files read at the library's own steps, STOP
# recall 10/10, flagged 10/10, 3 false STOPs, no early STOP, ESCALATE 4 of 53 healthy checks. mace-torch 18/18 (its
# epoch lines and its own log file); scipy.optimize's trust-constr table 0/5 (read one step early: its `niter` column
# counted from 0 where the callback's `nit` is 1); ctgan's TVAE bar 0/5 (`Loss: 0.000` of the bar drawn before its
# first epoch read as a point, the epochs one late): its healthy runs STOPped as "above its best 0".
FIRST_READING = {"read": 18, "stopped": 10, "flagged": 10, "false_stops": 3, "early_stops": 0,
                 "healthy_check_escalates": 4}
# Then corrected in general terms (fix17): a table's column named `niter` is its step (scipy 5/5); a lagging bar's
# value first drawn as exactly zero at its first count, before any unit is done, is its placeholder (TVAE 5/5, the
# false STOPs gone). 28/28 files, STOP recall 10/10, no false or early STOP, ESCALATE 0 of 54 healthy checks.
CORRECTED = {"read": 28, "stopped": 10, "flagged": 10, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}


test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
