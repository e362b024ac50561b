"""The 56th blind library corpus (examples/libraries_holdout56), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (rsl-rl-lib, netket), made by
bench/holdout_libraries56/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout56.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. Its first reading (main at 46f342f, the set's
merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout56"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=18, stop=6, healthy=12, max_mb=10))

# The first reading (46f342f, the set's merge; the reader of 09d31f1): 0/18 files, STOP 2/6, flagged 5/6, no false or
# early STOP, ESCALATE 6 of 36 healthy checks. rsl-rl's block per iteration (`Learning iteration 3/30` in bold, centred,
# then right-aligned `Mean value loss: 18.6418`, `Mean surrogate loss: -0.0044` ...) read by its surrogate loss at other
# steps; netket's tqdm postfix (`Energy=-9.430 ± 0.083 [σ²=3.5e+00, R̂=1.014]`) read with no loss (an energy,
# minimised).
FIRST_READING = {"read": 0, "stopped": 2, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 6}

# Corrected (fixrslrl, fixnetket): 18/18 files, STOP 5/6 (rsl-rl's AdamW run at a high LR ESCALATEs: its value loss
# swings 54..4168 with no sustained rise), flagged 6/6, no false or early STOP, ESCALATE 4 of 36 healthy checks: four
# netket energies converged by iteration 15 of 30 ESCALATE as a plateau at their last check (their tqdm bar's total is
# the run's length, but a bar's total read live cannot be taken back once the bar restarts: not used).
CORRECTED = {"read": 18, "stopped": 5, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 4}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
