"""The thirty-fourth held-out library corpus (examples/libraries_holdout34), read the way bench/read_corpus.py reads
it.

Real runs of libraries nobody on the project had used (neurolab, pyrenn, syne-tune), made by
bench/holdout_libraries34/ by a developer who never read the reader's code nor ran it on them. The corpus itself is
checked: it covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so
a miss is the reader's.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout34.py`` shows it). No first reading is recorded here:
someone else makes it.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout34"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=19, stop=5, healthy=14, max_mb=10))
