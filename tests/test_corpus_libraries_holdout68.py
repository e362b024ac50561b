"""The 68th blind library corpus (examples/libraries_holdout68), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (pyhealth, ray[train]), made by
bench/holdout_libraries68/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout68.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout68"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=14, stop=5, healthy=9, max_mb=10))

# The first reading (main at 81eb57e, this session's reader with every fix above merged, before the set's merge; its
# runs made after it): 4/14 files read, STOP 2/5, flagged 2/5, no false or early STOP, ESCALATE 3 of 15 healthy checks
# (the 7 Ray runs give no check: nothing read). Missed: pyhealth's runs with validation, whose `--- Eval epoch-0,
# step-8 ---` block's `loss: 0.6724` (a record's split named in its banner) was read as the train loss over the `---
# Train epoch-0, step-8 ---` block's; every Ray Train run, `(RayTrainWorker pid=4503) Reporting training result 1:
# TrainingReport(checkpoint=Checkpoint(...), metrics={'epoch': 1, 'loss': 0.62...}, validation=False) from rank 0`
# (behind ANSI colour codes): a dict inside a repr, read as nothing.
FIRST_READING = {"read": 4, "stopped": 2, "flagged": 2,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 3}

# Corrected: a line naming only an evaluation's split heads the bare `name: value` lines right under it (fixpyhealth:
# the eval record's `loss` is the eval's), and a repr call holding a mapping argument (`metrics={...}`) is that
# mapping's record (fixray): 14/14 files, STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 3 of 27 healthy
# checks (pyhealth's MLP run, its eval loss 0.69 -> 1.77 while its train loss falls: overfitting, now read as such).
CORRECTED = {"read": 14, "stopped": 5, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 3}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
