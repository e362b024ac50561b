"""The 78th blind library corpus (examples/libraries_holdout78), read the way bench/read_corpus.py reads it.

Real runs of training libraries nobody on the project had used (nni: one-shot NAS through its Lightning evaluators;
torch-ecg: its BaseTrainer and LoggerManager), made by bench/holdout_libraries78/ by a developer who never read the
reader's code nor ran it on them. Per file: its train loss read with >= 90 % of the truth's points (the library's own
record) at the truth's steps, and the three replayed cron checks never STOP a healthy run. The per-file reading
carries ``holdout_score`` (left out of the default run; ``pytest -m holdout_score
tests/test_corpus_libraries_holdout78.py`` shows it). The corpus itself is checked: every truth value of a log is
printed in that log, so a miss is the reader's.


The first reading is below.
"""

from __future__ import annotations

from pathlib import Path

from .corpus_checks import Corpus, blind_set_tests, first_reading_test

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "examples" / "libraries_holdout78"

CORPUS = Corpus(FOLDER)
globals().update(blind_set_tests(CORPUS, libraries=2, files=16, stop=5, healthy=11, max_mb=10))

# The first reading (the reader of 82623c50, the session's start; the set's runs made after it): 16/16 files read,
# STOP 5/5, flagged 5/5, no false or early STOP, ESCALATE 1 of 33 healthy checks. NNI's one-shot NAS under
# Lightning's `\r` bar (`Epoch 2:  62%|...| 5/8 [..., v_num=0, train_loss=0.453, train_acc=0.875]`, ANSI in NNI's own
# lines) and torch-ecg's logger blocks (`Epoch 0 / Step 8: train/loss : 0.6443`, its bar cut into them) read whole.
# Escalated: one check of a GumbelDARTS run whose per-batch loss dips to 0.086 and comes back.
FIRST_READING = {"read": 16, "stopped": 5, "flagged": 5,
                 "false_stops": 0, "early_stops": 0, "healthy_check_escalates": 1}

test_the_first_reading_holds = first_reading_test(CORPUS, ("the first reading", FIRST_READING))
