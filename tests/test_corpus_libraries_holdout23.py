"""The 23rd held-out library corpus (examples/libraries_holdout23), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (neuromancer, LibRecommender, ampligraph), made by
bench/holdout_libraries23/ by a developer who never read the reader's code nor ran it on them. What is checked by
default is the corpus itself: the libraries are unused elsewhere, both kinds of run are there, and every truth value
of a log is printed in that log, so a miss is the reader's. The per-file reading (>= 90 % of the truth's points at
the truth's steps, and the three replayed cron checks never STOP a healthy run) carries ``holdout_score`` (left out
of the default run; ``pytest -m holdout_score tests/test_corpus_libraries_holdout23.py`` shows it).
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout23"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=15, stop=5, healthy=10, max_mb=10))
