"""The 97th blind library corpus (examples/libraries_holdout97), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (jenn, a numpy MLP fitted with its own ADAM loop
printing one line per iteration; sigpy, iterative reconstruction apps drawing tqdm bars with the objective), made by
bench/holdout_libraries97/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout97.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout97"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=17, stop=5, healthy=12, max_mb=10))

# First reading (2026-12-07), by main's reader at the session's start (bbfc8e89, before any correction for this
# set): jenn's minibatch run (an iteration counter restarting per batch) and three sigpy runs (a tqdm postfix set
# before its count advances; a second bar after a MaxEig bar) unread; one jenn diverged run WAITs.
FIRST_READING = {"read": 12, "stopped": 4, "flagged": 4,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 1}

# After this session's corrections (main at the session's end, 2026-12-07): the reading the set's shapes' fixes
# reached (see the README's blind sets 93 to 97).
CORRECTED = {"read": 17, "stopped": 4, "flagged": 4,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 2}

# (its healthy ESCALATEs exempt from the first reading's: 1 of 36 checks then, 2 now that jenn's minibatch run is read
# at its 54 flattened iterations: its cost flat and saw-toothed over the last epoch, judged stalled)
test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED),
                                                  exempt=(("the first reading", "healthy_check_escalates"),))
