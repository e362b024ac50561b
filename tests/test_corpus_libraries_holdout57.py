"""The 57th blind library corpus (examples/libraries_holdout57), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (OpenCLIP's `open_clip_train.main`, from
open_clip_torch; MatterSim's `Potential.train_model`, from mattersim), made by bench/holdout_libraries57/ by a developer
who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the truth's points
(the library's own record) at the truth's steps, and the three replayed cron checks never STOP a healthy run. The
per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout57.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

Its first reading (main at 75a77b6, the reader the set was made against, before its merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout57"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=20, stop=6, healthy=14, max_mb=10))

# The first reading (main at 75a77b6, before the set's merge): 10/20 files read, STOP 6/6, flagged 6/6, no false or
# early STOP, ESCALATE 0 of 42 healthy checks. MatterSim's ANSI-coloured loguru epochs (`Epoch: 3 / 12` then `train:
# Loss: 0.6590, MAE(e): ...`) read 10/10 at its 0-based epochs; OpenCLIP's `Train Epoch: 3 [160/256 (62%)] ... Loss:
# 1.1173 (1.1156)` read 0/10 at its steps: at samples (epoch x 256 + 160) where its global step counts batches.
FIRST_READING = {"read": 10, "stopped": 6, "flagged": 6,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (fixclip): 20/20 files. A counter under an epoch followed by its share (`[160/256 (62%)]`) whose moving
# counts are all multiples of the batch size the log's settings name (`batch_size: 32`) counts samples: read in
# batches; a count of batches done on an `i % k == 0` grid (1, k + 1, 2k + 1 ...) numbers them from 0. OpenCLIP's
# log-every-batch and log-every-100 runs read their batches done (1..N), one step after the truth's 0-based steps,
# within the bench's count-done tolerance. The same verdicts: STOP 6/6, no false or early STOP, ESCALATE 0 of 42.
CORRECTED = {"read": 20, "stopped": 6, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
