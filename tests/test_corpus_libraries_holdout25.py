"""The 25th held-out library corpus (examples/libraries_holdout25), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (GPy, pygmo, inspyred), made by
bench/holdout_libraries25/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout25.py`` shows it). The corpus itself is checked: it
covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so a miss is
the reader's. What gates is ``test_the_first_reading_holds``: the first reading's totals may not get worse.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout25"

CORPUS = Corpus(FOLDER)
# inspyred: chosen by holdout26's developer too, at the same time (neither saw the other's runs)
globals().update(blind_set_tests(CORPUS, libraries=3, files=21, stop=5, healthy=16, max_mb=10,
                                  made_alongside=("inspyred",)))


# The first reading (bench/read_corpus.py examples/libraries_holdout25 at 1c9dee4, 2026-12-06: none of it made knowing
# this set): 0/21 files, STOP recall 0/5, flagged 1/5, no false or early STOP, ESCALATE 10 of 30 healthy checks. Three
# optimisers' tables, none read: pygmo's (`   Gen:        Fevals:          Best: ...`, names ending in colons),
# inspyred's (header and dash rule reprinted above every row, names one blank apart, `Std Dev`), GPy's `optimize(
# messages=True)` (`  runtime   i     f              |g|`, rows redrawn with `\r`, times `00s00`, `f` the objective).
FIRST_READING = {"read": 0, "stopped": 0, "flagged": 1, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 10}

# Then (fixh21a, fixh25): a table column `Best` is read, `Gen`/`i` name a table's step, a `|g|` column is one name (a
# gradient norm) and a one-letter `f` beside it the function's value, a header name spanning several dash runs of its
# rule is split per run: 21/21 files, STOP 5/5, flagged 5/5, ESCALATE 1 of 48.
CORRECTED = {"read": 21, "stopped": 5, "flagged": 5, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 1}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
