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

# Then (fixh38): a record printing its own step is the run's record, a bar's postfix of the same names a live view of
# it, no point (`engine._recorded_names`); a record of a train section then an evaluation's naming the same values
# (`[train] mae=.., loss=.. [valid] mae=.., loss=..`) is the train step's, the second section `val_`
# (`fields._eval_section`); a line glued after a bar's redraw padded with blanks is a line of its own; a record's
# rest wrapped alone after the records naming its values is no initial value at step 0 (fastNLP's nan run's restart):
# 16/16 files, STOP 5/6 (tez's diverged classification run ESCALATEs on its 10 epoch records, 0.35 -> 1.44 for 5
# logs; the first reading STOPped it on the bar's redraws read as points: its STOP count exempt), flagged 6/6, no
# false or early STOP, ESCALATE 0 of 30 healthy checks.
CORRECTED = {"read": 16, "stopped": 5, "flagged": 6, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED),
                                                  exempt=(("the first reading", "stopped"),))
