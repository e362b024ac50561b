"""The eighth held-out library corpus (examples/libraries_holdout8), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (equinox, dm-haiku, pyswarms), made by
bench/holdout_libraries8/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout8.py`` shows it). The corpus itself is checked: it covers
unused libraries and both kinds of run, and every truth value of a log is printed in that log, so a miss is the
reader's. What gates is ``test_the_first_reading_holds``: the totals of the first reading may not get worse.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout8"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=20, stop=7, healthy=13, max_mb=10))


# The first reading (bench/read_corpus.py examples/libraries_holdout8 at main 13d67d9, 2026-12-06: the reader as it
# was before the set existed): 17/23 files read at the library's own steps, STOP recall 8/8, flagged 8/8, no false or
# early STOP, ESCALATE 0 of 45 healthy checks. Per library: equinox 9/9 and dm-haiku 8/8 read whole (a print of
# `step=N, train_loss=...` and absl's logged dict); pyswarms 0/6: its tqdm bar redrawn by set_postfix once an
# iteration with its counter stuck at 0/N (tqdm writes the count back only when its interval passes), read one point
# per change of the value, so every repeated best cost shifts the steps after it.
FIRST_READING = {"read": 17, "stopped": 8, "flagged": 8, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 0}
# Then corrected in general terms (fixh8; tests/test_engine_holdout8_shapes.py): a lagging bar redrawn at its stale
# count by a postfix set each unit is each unit, a repeated value included, when the drawings at one count number the
# units up to the next count shown (its sync or its close at N/N): pyswarms 6/6, 23/23 files, STOP recall 8/8, no
# false or early STOP, ESCALATE 0 of 45 healthy checks.
CORRECTED = {"read": 23, "stopped": 8, "flagged": 8, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}


test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
