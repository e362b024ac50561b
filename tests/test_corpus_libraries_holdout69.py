"""The 69th blind library corpus (examples/libraries_holdout69), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (sb3-contrib, pina-mathlab), made by
bench/holdout_libraries69/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout69.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout69"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (main at 81eb57e, this session's reader with every fix above merged, before the set's merge; its
# runs made after it): 10/15 files read, STOP 4/5, flagged 5/5, no false or early STOP, ESCALATE 6 of 30 healthy checks.
# Missed: TRPO's SB3 table judged by its `train/kl_divergence_loss` (a trust region's constraint) where the truth is
# its `train/value_loss`; three PINA runs in batches, Lightning's epoch values read at the global step of their
# epoch's end (metrics.csv's `step`) where the truth numbers them by `epoch`, one of them by its `train_loss_step`
# where the truth is the epoch's. Escalated: TQC's critic loss climbing while its return rises (twice healthy, once
# the lr 0.05 run labelled diverged), a QR-DQN loss wandering 5.1 -> 0.6 -> 5.0.
FIRST_READING = {"read": 10, "stopped": 4, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 6}

# Corrected: PINA's truths carry their metrics.csv's `step` column (record_steps: the same points numbered twice by
# Lightning's record; 10 -> 12 files, no reader change), and a KL divergence among a run's losses is a term, not the
# run's loss (tools/objective.py: TRPO judged by its value loss; 12 -> 14). Left: the run logging `train_loss_step`
# and `train_loss_epoch`, judged by the step's where the truth is the epoch's. The verdicts as first read.
CORRECTED = {"read": 14, "stopped": 4, "flagged": 5,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 6}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
