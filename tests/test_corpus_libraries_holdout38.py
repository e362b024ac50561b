"""The 38th held-out library corpus (examples/libraries_holdout38), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (tez, fastNLP), made by bench/holdout_libraries38/ by
a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the
truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout38.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 55ae388, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout38"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=6, healthy=10, max_mb=10))

# The first reading (55ae388, the set's merge): 12/16 files, STOP 6/6, flagged 6/6, 2 false STOPs, no early STOP,
# ESCALATE 2 of 30 healthy checks. tez prints its epoch records (`[train] mae=8.01, loss=102.77 [e=0 steps=16]`) on a
# block-buffered stdout beside a stderr bar whose postfix holds the epoch's running mean (`epoch=0, loss=85.1`): the
# bar's redraws and the records read as one series, and two slow healthy runs STOPped on the first batch's lucky 85.1;
# fastNLP's `Epoch:2/4, Batch:1, loss:nan, finished 52.08%.` read at the batch of its epoch in one nan run.
FIRST_READING = {"read": 12, "stopped": 6, "flagged": 6, "false_stops": 2, "early_stops": 0,
                 "healthy_check_escalates": 2}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
