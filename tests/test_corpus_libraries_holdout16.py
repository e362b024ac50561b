"""The sixteenth held-out library corpus (examples/libraries_holdout16), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (stanza, scvi-tools, snorkel), made by
bench/holdout_libraries16/ by a developer who never read the reader's code nor ran it on them (issue 32: the reader
judged on runs made after it was built). Per file: its train loss read with >= 90 % of the truth's points (the
library's own record) at the truth's steps, and the three replayed cron checks never STOP a healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout16.py`` shows it). What gates is
``test_the_first_reading_holds``: the first reading's totals may not get worse. The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout16"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=23, stop=7, healthy=16, max_mb=10))


# The first reading (bench/read_corpus.py examples/libraries_holdout16 at main e2a6624, 2026-12-06: the reader as it
# stood when the set was made, none of it made knowing this set): 2/23 files read at the library's own steps, STOP
# recall 7/7, flagged 7/7, no false STOP, 2 early STOPs (runs read at wrong steps), ESCALATE 0 of 48 healthy checks.
# stanza 1/9: its lemmatizer's `step 20/192 (epoch 2/12), loss = ...` and its tagger's `Finished STEP 10/60, loss =`
# read at wrong steps; scvi-tools 0/7: Lightning's bar over the epochs, `Epoch 3/20: ... train_loss=260`, read one
# epoch early; snorkel 1/7: `INFO:root:[10 epochs]: TRAIN:[loss=0.107]`, the epoch count before its word, read by order.
FIRST_READING = {"read": 2, "stopped": 7, "flagged": 7, "false_stops": 0, "early_stops": 2,
                 "healthy_check_escalates": 0}
# Then corrected in general terms (fixh16a, fixh16b): a step counter after a verb (`Finished STEP 10/60`) is the step;
# of two losses named alike the one logged twice as often stands for the run (stanza 8/9: its lemmatizer logging every
# 20 steps gives as many points as its epoch's train_loss, nothing tells the finer); a number and a length unit
# filling a bracket that heads a record are its position (snorkel 7/7); a bar over the epochs whose description counts
# from 1 is read at its count (scvi-tools 7/7). 22/23 files, STOP recall 7/7, no false or early STOP, ESCALATE 0/48.
CORRECTED = {"read": 22, "stopped": 7, "flagged": 7, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 0}


test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
