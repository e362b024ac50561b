"""The 26th held-out library corpus (examples/libraries_holdout26), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (opacus, simpletransformers, inspyred), made by
bench/holdout_libraries26/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout26.py`` shows it). The corpus itself is checked: the
libraries are unused elsewhere, both kinds of run are there, and every truth value of a log is printed in that log,
so a miss is the reader's. What gates is ``test_the_first_reading_holds``: the first reading's totals may not get
worse.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout26"

CORPUS = Corpus(FOLDER)
# inspyred: chosen by holdout25's developer too, at the same time (neither saw the other's runs)
globals().update(blind_set_tests(CORPUS, libraries=3, files=21, stop=7, healthy=14, max_mb=10,
                                  made_alongside=("inspyred",)))


# The first reading (bench/read_corpus.py examples/libraries_holdout26 at 240f79d, 2026-12-06: none of it made knowing
# this set): 9/21 files, STOP recall 2/7, flagged 6/7, no false or early STOP, ESCALATE 5 of 38 healthy checks.
# opacus' `Train Epoch: 1 \tLoss: 1.6177 Acc@1: 31.1 (ε = 1.09, δ = 1e-05)` 4/6 read (the two printing every N batches
# with no step read at a count of records: right values, unknowable steps), a diverged run only ESCALATE;
# simpletransformers' nested bars (`Epochs 1/5. Running Loss:    0.6753:  44%|`) 4/7, the runs evaluating during
# training one point (its bar cut by `Map:` bars and eval dicts); inspyred's statistics table 0/6.
FIRST_READING = {"read": 9, "stopped": 2, "flagged": 6, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 5}

# Then (fixh25, fixh26): inspyred's header reprinted above every row (a name over several runs of its dash rule is as
# many names) and simpletransformers' training bar read at its own count however other bars (`Map: 128/128`, `Writing
# model shards: 1/1`) cut in - once a bar shows a value, only such bars give the training step: 18/21 files, STOP 5/7,
# flagged 7/7, ESCALATE 1 of 42. Left: opacus' runs printing every N batches with no step (3 files, read at a count
# of records), two diverged runs only ESCALATE.
CORRECTED = {"read": 18, "stopped": 5, "flagged": 7, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 1}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
