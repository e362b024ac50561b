"""The 59th blind library corpus (examples/libraries_holdout59), read the way bench/read_corpus.py reads it.

Real runs of libraries nobody on the project had used (openbox, DFO-LS), made by bench/holdout_libraries59/ by a
developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the
truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout59.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.

Its first reading (906d795, the session's reader, before the set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout59"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=5, healthy=11, max_mb=10))

# The first reading (906d795, the session's reader, before the set's merge): 0/16 files read, STOP 0/5, flagged 5/5, no
# false or early STOP, ESCALATE 8 of 33 healthy checks. openbox's trials (`Iter 5, objectives: [0.2455...],
# resource_ratio: 1.000`) read with no loss (`objectives`, plural, a one-element list, not taken for the objective:
# every run ESCALATEs with no loss at its last check); DFO-LS's evaluations (`Function eval 7 at point 7 has obj =
# 3.3786 at x = [...]`) read as `has obj` at every evaluation, where its own record is the best so far (`fk` at `nf`): 7
# to 51 of 45 to 96 points at the truth's steps.
FIRST_READING = {"read": 0, "stopped": 0, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 8}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
