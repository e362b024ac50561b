"""The nineteenth held-out library corpus (examples/libraries_holdout19), a blind set: made after the reader was built.

Real runs of training libraries nobody on the project had used (optuna, nevergrad, mealpy), made by
bench/holdout_libraries19/ by a developer who never read the reader's code nor ran it on them. Checked here: the set
covers libraries no other corpus used and both kinds of run, and every truth value of a log is printed in that log
(so a miss is the reader's). The per-file reading (its train loss read with >= 90 % of the truth's points at the
truth's steps, the replayed cron checks) carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout19.py`` shows it). No first reading is recorded here:
someone else makes it (see the project README).
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout19"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=22, stop=7, healthy=15, max_mb=10))
