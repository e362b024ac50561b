"""The fifteenth held-out library corpus (examples/libraries_holdout15), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (torchdyn, tensorflow-recommenders, spektral,
objax), made by bench/holdout_libraries15/ by a developer who never read the reader's code nor ran it on them
(issue 32: the reader judged on runs made after it was built). Per file: its train loss read with >= 90 % of the
truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout15.py`` shows it). What gates is
``test_the_first_reading_holds``: the first reading's totals may not get worse. The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout15"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=4, files=25, stop=9, healthy=16, max_mb=10))


# The first reading (bench/read_corpus.py examples/libraries_holdout15 at main 0227501, 2026-12-06: the reader as it
# stood when the set was made, none of it made knowing this set): 25/25 files read at the library's own steps, STOP
# recall 8/9, flagged 9/9, no false or early STOP, ESCALATE 1 of 48 healthy checks. torchdyn's Lightning bar, Keras
# 2's epoch lines and bar (tensorflow-recommenders, spektral) and objax's `Epoch    3  Loss 0.7090` all read; spektral's
# GCS under a growing Adam rate only ESCALATEs.
FIRST_READING = {"read": 25, "stopped": 8, "flagged": 9, "false_stops": 0, "early_stops": 0,
                 "healthy_check_escalates": 1}


test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
