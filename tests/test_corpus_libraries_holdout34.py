"""The thirty-fourth held-out library corpus (examples/libraries_holdout34), read the way bench/read_corpus.py reads
it.

Real runs of libraries nobody on the project had used (neurolab, pyrenn, syne-tune), made by
bench/holdout_libraries34/ by a developer who never read the reader's code nor ran it on them. The corpus itself is
checked: it covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so
a miss is the reader's.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout34.py`` shows it). Its first reading (main at 26a8e9e, the
set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout34"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=19, stop=5, healthy=14, max_mb=10))

# The first reading (26a8e9e, the set's merge): 14/19 files, STOP 3/5, flagged 4/5, 1 false STOP, no early STOP,
# ESCALATE 1 of 42 healthy checks. neurolab's `Epoch: 10; Error: 0.51;` and pyrenn's `Iteration:  3 \t\tError:  12.1
# \tscale factor: 0.01` read; pyrenn's Levenberg-Marquardt damping, `scale factor`, read as an fp16 loss scale that
# collapsed (the false STOP); syne-tune's trial lines read as one point.
FIRST_READING = {"read": 14, "stopped": 3, "flagged": 4, "false_stops": 1, "early_stops": 0,
                 "healthy_check_escalates": 1}

# Then: a solver's `scale factor` (damping) is no loss scale (roles._DAMPING): 14/19 files, STOP 3/5, flagged 4/5, no
# false or early STOP, ESCALATE 1 of 42 healthy checks. syne-tune's searches stay unread (its trial lines, `Trial 0
# completed!`, hold no value; its closing `Resource summary` table is read as one point).
CORRECTED = {"read": 14, "stopped": 3, "flagged": 4, "false_stops": 0, "early_stops": 0,
             "healthy_check_escalates": 1}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
