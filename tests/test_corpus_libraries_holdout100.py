"""The 100th blind library corpus (examples/libraries_holdout100), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (itk-elastix, pyttb), made by
bench/holdout_libraries100/ by a developer who never read the reader's code nor ran it on them. Per file: its train
loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed
cron checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout100.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. No first reading yet: someone else makes it.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout100"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=18, stop=5, healthy=13, max_mb=10))
