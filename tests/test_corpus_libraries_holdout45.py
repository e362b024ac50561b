"""The 45th held-out library corpus (examples/libraries_holdout45), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (gcastle, contextualized-topic-models, scikit-opt),
made by bench/holdout_libraries45/ by a developer who never read the reader's code nor ran it on them. Per file: its
train loss read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three
replayed cron checks never STOP a healthy run.
The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout45.py`` shows it). The corpus itself is checked: it
covers unused libraries and both kinds of run, and every truth value of a log is printed in that log, so a miss is the
reader's. Its first reading (main at 2f18316, the set's merge) is held below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout45"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=3, files=22, stop=6, healthy=16, max_mb=10))

# The first reading (2f18316, the set's merge): 2/22 files, STOP 2/6, flagged 3/6, 4 FALSE STOPs, no early STOP,
# ESCALATE 15 of 48 healthy checks. GOLEM's `[Iter 100] score=18.127, likelihood=18.120, h=5.7e-04`: `score` (which
# GOLEM minimizes) judged as a score that collapsed; CTM's `Epoch: [4/20] ... Train Loss: 318.2 ...: : 4it` read at the
# bar's count; scikit-opt's `Iter: 4, Best fit: [4.88] at [...]` read as nothing.
FIRST_READING = {"read": 2, "stopped": 2, "flagged": 3, "false_stops": 4, "early_stops": 0,
                 "healthy_check_escalates": 15}

# Then: an ambiguous `score` read by its values (never below a likelihood logged beside it: a penalised likelihood,
# minimised; falling from its first log: minimised), a bar's redraw of its epoch record no record, `Best fit` named
# alone the objective: 20/22 files (GOLEM's two nan runs, nan from their second log, give nothing to decide the
# score's direction by), STOP 6/6, flagged 6/6, no false or early STOP, ESCALATE 0 of 48 healthy checks.
CORRECTED = {"read": 20, "stopped": 6, "flagged": 6, "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
