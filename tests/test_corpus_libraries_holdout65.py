"""The 65th blind library corpus (examples/libraries_holdout65), read the way bench/read_corpus.py reads it.

Real runs of a training library nobody on the project had used (happytransformer), made by bench/holdout_libraries65/
by a developer who never read the reader's code nor ran it on them. Per file: its train loss read with >= 90 % of
the truth's points (the library's own record) at the truth's steps, and the three replayed cron checks never STOP a
healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout65.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout65"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=1, files=15, stop=5, healthy=10, max_mb=10))

# The first reading (main at 9d3dd94, before the set's merge): 15/15 files read, STOP 5/5, flagged 5/5, no false or
# early STOP, ESCALATE 3 of 30 healthy checks (10 %). happytransformer's train() under the Hugging Face Trainer: its
# `{'loss': 3.7341, ..., 'epoch': 0.2}` dicts with no step, read at the optimizer step. Escalated: a classifier's eval
# loss rising 0.00045 -> 0.0064 over 6 evals while its train loss falls (overfitting, at two checks), and a classifier
# held at chance (0.69, ln 2) for half its run before it learns.
FIRST_READING = {"read": 15, "stopped": 5, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 3}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
