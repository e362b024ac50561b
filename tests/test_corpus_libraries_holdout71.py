"""The 71st blind library corpus (examples/libraries_holdout71), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (modelscope, nvflare), made by
bench/holdout_libraries71/ by a developer who never read the reader's code nor ran it on them. Per file: its train loss
read with >= 90 % of the truth's points (the library's own record) at the truth's steps, and the three replayed cron
checks never STOP a healthy run. The per-file reading carries ``holdout_score`` (left out of the default run;
``pytest -m holdout_score tests/test_corpus_libraries_holdout71.py`` shows it). The corpus itself is checked: every
truth value of a log is printed in that log, so a miss is the reader's. The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout71"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=15, stop=6, healthy=9, max_mb=10))

# The first reading (the reader of a1dfdf7e, this session's start; the set's runs made after it): 8/15 files read,
# STOP 5/6, flagged 5/6, no false or early STOP, ESCALATE 0 of 27 healthy checks. modelscope's records (`epoch
# [3][8/16]\tlr: 5.000e-02, eta: ..., loss: 0.4629`, `iter [40/128]`) read 8/8, STOP 3/3. nvflare's simulator (two
# sites' client lines `site=site-1, Epoch: 0/1, Iteration: 3, Loss: 0.68` interleaved, each round's iterations
# counted from 1 again, under `Round 1 started.` banners) read 0/7: the sites' losses mixed at the iteration printed,
# not at site-1's global iteration; its diverged run WAITs, its NaN runs STOP.
FIRST_READING = {"read": 8, "stopped": 5, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

# Corrected (fixsites): a process tag opening a line's message after the logger's preamble (`site=site-1,`) names
# its process as a launcher's prefix does (each kind of record read from the lowest process), and a step counter going
# back under a later round (`Round 2 started.`, `current_round=2`) continues where it stopped: 15/15 files, STOP 6/6,
# flagged 6/6, no false or early STOP, ESCALATE 0 of 27 healthy checks.
CORRECTED = {"read": 15, "stopped": 6, "flagged": 6,
             "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 0}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING),
                                                  ("corrected", CORRECTED))
