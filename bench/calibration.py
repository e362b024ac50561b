"""The calibration table: every labelled run the project has, replayed as cron checks it, one row per label kind.

    .venv/bin/python bench/calibration.py [FOLDER ...] [--checks 24] [--only TEXT] [--json out.json]

Default folders: ``examples/corpus``, ``examples/causes``, ``examples/stalls``, ``examples/frameworks``,
``examples/holdout``, ``examples/libraries``, ``examples/libraries_holdout``, ``examples/libraries2`` and the
shared corpora beside the checkout (``real-logs``, ``real-logs-2``). Any folder works that holds run folders with
``label.json`` (``label`` and/or ``cause``,
``onset_step``, ``total_steps``, ``source``) or a ``manifest.jsonl`` (``file``, ``label``, optionally
``should_stop``, ``cause``, ``failure_step``); a missing folder is named and skipped.

Every run is replayed by ``bench/detection.py``'s ``replay``: ``--checks`` checks spread over its logged steps,
each ``assess_run(..., as_of_step=S, total_steps=T)`` in one fresh store per run, so the judge sees its earlier
assessments as under cron. What each run must get (its category):

- ``clear`` (nan, diverged, or ``should_stop`` with such a label): a STOP (STOP recall) and a flag;
- ``flag`` (plateau, overfitting, LR schedule, grad explosion, a run of ``examples/causes`` or ``should_stop``
  with another label): a STOP or an ESCALATE;
- ``healthy`` (healthy, spike-recovered, ``should_stop: false``): no STOP ever (a false STOP), few ESCALATEs;
- ``unscored`` (a manifest entry with neither ``should_stop`` nor a label that says either): shown, not counted.

Figures per label kind and in total (totals last): runs; flagged (STOP or ESCALATE at any check, on clear and flag
runs); STOP recall (clear runs); false STOPs (healthy runs with a STOP); early STOPs (a STOP more than 10 % of
the logged span before the labelled onset); delay (median, over runs with an onset, of the steps from the onset to
the first flag at or after it, and the same as a share of the logged span); ESCALATE share of the checks of
healthy runs; cause right (on flagged runs with a known cause, the diagnosis of the first STOP, else the last
ESCALATE, is that cause) and, of the causes given at confidence >= 0.7, the share right.

``FLOORS`` are the totals the code holds (tests/test_calibration.py fails when a change breaks one);
``floor_breaches`` names every broken floor.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_labels import LabelledRun, load_corpus  # noqa: E402
from detection import LONG_BEFORE_FRACTION, Replay, replay  # noqa: E402
from diagnosis import SHARED, corpus_cause  # noqa: E402
from training_check.tools.judge import ESCALATE, STOP  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DEFAULT_FOLDERS = [REPO / "examples" / n for n in (
    "corpus", "causes", "stalls", "frameworks", "holdout", "libraries", "libraries_holdout", "libraries2",
    "libraries3", "libraries_holdout3", "libraries4", "libraries5", "libraries_holdout4", "libraries6",
    "libraries_holdout5", "libraries_holdout6", "libraries_holdout7", "libraries_holdout8", "libraries_holdout9",
    "libraries_holdout10", "libraries_holdout11", "libraries_holdout12", "libraries_holdout13", "libraries_holdout14",
    "libraries_holdout15", "libraries_holdout16", "libraries_holdout17", "libraries_holdout18",
    "libraries_holdout19", "libraries_holdout20", "libraries_holdout21", "libraries_holdout22", "libraries_holdout23",
    "libraries_holdout24", "libraries_holdout25", "libraries_holdout26", "libraries_holdout27", "libraries_holdout28",
    "libraries_holdout29", "libraries_holdout30", "libraries_holdout31", "libraries_holdout32", "libraries_holdout33",
    "libraries_holdout34", "libraries_holdout35", "libraries_holdout36", "libraries_holdout37", "libraries_holdout38",
    "libraries_holdout39", "libraries_holdout40", "libraries_holdout41", "libraries_holdout42", "libraries_holdout43",
    "libraries_holdout44", "libraries_holdout45", "libraries_holdout46", "libraries_holdout47", "libraries_holdout48",
    "libraries_holdout49", "libraries_holdout50", "libraries_holdout51", "libraries_holdout52", "libraries_holdout53",
    "libraries_holdout54", "libraries_holdout55", "libraries_holdout56", "libraries_holdout57", "libraries_holdout58",
    "libraries_holdout60", "libraries_holdout61", "libraries_holdout62", "libraries_holdout63",
    "libraries_holdout64", "libraries_holdout65", "libraries_holdout66", "libraries_holdout67",
    "libraries_holdout68", "libraries_holdout69", "libraries_holdout70", "libraries_holdout71", "libraries_holdout72",
    "libraries_holdout73", "libraries_holdout74", "libraries_holdout75", "libraries_holdout76", "libraries_holdout77",
    "libraries_holdout78", "libraries_holdout79", "libraries_holdout80", "libraries_holdout81", "libraries_holdout82",
    "libraries_holdout83", "libraries_holdout84", "libraries_holdout85", "libraries_holdout86",
    "libraries_holdout87", "libraries_holdout88", "libraries_holdout89", "libraries_holdout90",
    "libraries_holdout91", "libraries_holdout92", "libraries_holdout93", "libraries_holdout94",
    "libraries_holdout95", "libraries_holdout96", "libraries_holdout97", "libraries_holdout99",
    "libraries_holdout101",
    "trackers2")] + [
    # (libraries_holdout59 not yet: uncorrected, openbox's trials read as no loss, each healthy search an ESCALATE;
    # holdout68 to 79 all in, after their corrections. Of 98 to 102, read right after their corrections, not yet:
    # 98 and 100, a healthy run each STOPped once in the table's 24 checks (not in the bench's 3): cyipopt's
    # `adaptive_tol` run at a watchdog row's one-iteration spike, elastix's B-spline run mid-way; 102, jumanji's
    # healthy TSP agents ESCALATE 28 of 148 checks on an eval return falling below the first eval's)
    SHARED / "real-logs", SHARED / "real-logs-2"]
CONFIDENT = 0.7  # a cause given at this confidence or more must be right >= 90 % of the time
CLEAR_LABELS = {"nan", "diverged"}
HEALTHY_LABELS = {"healthy", "spike-recovered"}
LABEL_ALIASES = {"overfit": "overfitting", "spike_recovered": "spike-recovered", "lr_schedule": "lr-schedule",
                 "spike_unrecovered": "spike-unrecovered"}
TOTAL = "TOTAL"

# The totals the code achieves (every default folder, 24 checks, 2026-12-05, 492 runs with examples/libraries2,
# libraries3 and the blind libraries_holdout3: flagged 177/179, STOP recall 113/126, no false STOP, no early STOP,
# ESCALATE 2.5 % of healthy checks, cause right 132/139, at confidence >= 0.7 64/64; before judge3's rules - flair's
# restarting running mean judged by its epochs' means, another loss blown up beside a risen objective, the unlogged
# LR ramp told by the loss's shape -: flagged 175/179, STOP recall 110/126, 2 false STOPs, ESCALATE 2.7 %, cause
# right 117/137): a change that breaks one is a regression. The STOPs missed are short excerpts of an established
# run's glitch (bigscience, 2-8 logs), rises of a few x without non-finite values (ESCALATE by design), RL runs whose
# reward collapsed or never rose (ESCALATE: their losses are no objective), spaCy's loss sums. Tighten these as the
# judgement improves (the bench prints what each floor is at).
FLOORS: dict[str, tuple[str, float]] = {
    # 2026-12-07, the sixteenth session: 2475 runs (holdout99 and 101 added after their corrections: 34 runs, 10
    # should-stop; 98, 100 and 102 not yet, see DEFAULT_FOLDERS). The session's changes moved 21 of the 2441 runs of
    # before (calcmp against the fifteenth session's table, main at 44daf031): holdout17's 18 MACE files (its
    # `Initial: ... loss=6.727` line before `Epoch 0:` now the value at step 0, the epochs counted done: one check
    # more each; the diverged runs STOPped later, g1.5 at its 11th check, not its 7th; none unstopped), holdout53's
    # healthy nh_cudalstm ESCALATE gone, holdout54's t4k diverged run flagged a check sooner, holdout74's metatrain
    # run one check shorter: on the 2441, flagged 804/820, STOP recall 709/766, no false/early STOP, ESCALATE
    # 699/27592, cause right 533/653, confident 147/157 (every total as good or better). With the new sets: flagged
    # 814/830, STOP recall 718/776 (the new sets 9/10: pocomc's diverged run ESCALATEs), ESCALATE 701/27955
    # (2.51 %), cause right 537/658, at confidence >= 0.7 147/157.
    # 2026-12-07, the fifteenth session: 2441 runs (holdout93 to 97 added after their corrections: 80 runs, 26
    # should-stop). The session's changes moved none of the 2361 runs of before (calcmp against the fourteenth
    # session's table: 0 differ). With the new sets: flagged 804/820 (the new sets 23/26: deep-trainer's diverged run
    # WAITs on its 7 epoch means, jenn's on a one-log spike, a VBMC run whose improper ELBO climbs), STOP recall
    # 709/766 (the new sets 22/26), no false/early STOP, ESCALATE 700/27585 (2.54 %; the new sets 18 of 798:
    # auto_arima's fit at its iteration limit, jenn's minibatch run, plateaus), cause right 531/653 (the new sets 6/8),
    # at confidence >= 0.7 147/157 (the new sets none confident).
    # 2026-12-07, the fourteenth session: 2361 runs (holdout87 to 92 added after their corrections: 97 runs, 34
    # should-stop). The session's changes moved 4 of the 2264 runs of before (calcmp against the thirteenth session's
    # table): two healthy MindSpore runs of holdout14 one check shorter (WWWWWWWW -> WWWWWWW, a junk point no
    # longer read), holdout14's diverged MindSpore run STOPped one check sooner, holdout71's diverged modelscope run
    # one ESCALATE fewer before its STOP (its checkpoint clock no longer read as a test loss). With the new sets:
    # flagged 781/794 (the new sets 32/34: lightwood's lr=2 run, a NOMAD search with isolated `inf`), STOP recall
    # 687/740 (the new sets 27/34: deepdow's diverged runs ESCALATE), no false/early STOP, ESCALATE 682/26787 (2.55 %;
    # the new sets 32 of 872: labml's epoch values redrawn at each batch, deepdow's test loss rising), cause right
    # 525/645 (the new sets 21/27), at confidence >= 0.7 147/157 (the new sets 4/4).
    # 2026-12-07, the thirteenth session: 2264 runs (holdout80 to 86 added after their corrections: 113 runs, 40
    # should-stop). The session's reader fixes and its two objective changes (a function value abbreviated `Fnc`, an
    # ELBO named as such) moved none of the 2151 runs of before (calcmp: 0 differ). With the new sets: flagged
    # 749/760, STOP recall 660/706 (the new sets 39/40), no false/early STOP, ESCALATE 650/25915 (2.51 %; the new sets
    # 21 of 1027), cause right 504/618 (the new sets 20/29: GLiNER's warmup to a peak too high said `lr_schedule` at
    # 0.8, the cause labelled `lr_too_high`), at confidence >= 0.7 143/153 (the new sets 8/10).
    # 2026-12-07, the twelfth session: 2151 runs (holdout75 to 79 added after their corrections: 77 runs, 26
    # should-stop). First the session's judge changes on the 2074 runs of before: an eval never finite from its first
    # value while the train loss stays finite is not computed (ESCALATE 653 -> 618 of 24085: holdout43's mxnet gluon
    # runs' NaN val metric; its nan run flagged later, its STOP at the same check), and a Python warning after a crash's
    # traceback no longer hides the crash (nothing moved there). The session's reader fixes moved one run of the 2074
    # (holdout73's QuCumber progress-bar run, now read: WWWWWWW -> WWWWWWWCCC). With the new sets: flagged 709/720,
    # STOP recall 621/666, no false/early STOP, ESCALATE 629/24888 (2.53 %; the new sets 11 of 800), cause right
    # 484/589 (the new sets 24/26), at confidence >= 0.7 135/143.
    # 2026-12-07, the eleventh session: 2074 runs (holdout68 to 74 added after their corrections: 104 runs, 37
    # should-stop; 71 and 72's 30 added last, after fixsites and fixbio, moved nothing on the 2044 runs before them).
    # First the session's judge changes on the 1970 runs of before: an eval that gave back under 5 % of its progress has
    # not degraded (ESCALATE 629 -> 608 of 23073: ten runs' plateaued evals), a reward on its way back from a dip has
    # not collapsed (nothing moved there; 69's QR-DQN false STOP gone). With the new sets: flagged 683/694, STOP recall
    # 596/640, no false/early STOP, ESCALATE 653/24085 (2.71 %: 69's RL runs 28 of the new sets' 45, a TQC return under
    # its first log and QR-DQN's dip), cause right 460/563 (the new sets 25/34: LR growths said lr_too_high where
    # labelled lr_schedule and back), at confidence >= 0.7 125/133.
    # 2026-12-07, the tenth session: 1970 runs (holdout61 to 67 added, after their corrections: 103 runs, 36
    # should-stop; holdout68 and 69, first read at the session's end, left out uncorrected: 68's Ray Train runs read
    # nothing, and one of 69's healthy QR-DQN runs, its reward 20.8 -> 9.7 -> 26.6 and its loss 5.1 -> 0.6 -> 5.0,
    # STOPs at 1 of 23 checks, with its reward under its start and its loss 5x its low). Before the new sets, the
    # session's judge changes (an eval's best level within its window's spread; a bare `scale` a loss scaler's only in
    # powers of two; a KL term no run's loss) moved 6 healthy ESCALATEs away (LightGBM's, 3 yolov5 runs') and nothing
    # else. With them: flagged 646/657, STOP recall 561/603, no false/early STOP, ESCALATE 629/23073 (2.73 %: yolov5's
    # untrained detectors 40 % of theirs), cause right 435/529 (the new sets 19/30: LR growths said lr_too_high), at
    # confidence >= 0.7 119/126.
    # 2026-12-07, the ninth session, later: 1867 runs (holdout57, 58 and 60 added after their corrections: 48 runs;
    # holdout59, uncorrected, left out: its 11 healthy openbox searches read no loss and ESCALATE 93 of 218 checks).
    # A healthy OpenCLIP run (holdout57) STOPped at one of 24 checks: a contrastive loss giving back half its progress
    # for 7 logs (3.21 -> 3.45 after 3.68 at its start, its eval worse too), then falling again; a rise under the run's
    # start now stops on two checks in a row only once held over 10 logs (judge.RISE_LOGS): no false STOP, and 16
    # should-stop runs STOP one check later, none lost. flagged 610/621, STOP recall 527/567, no false/early STOP,
    # ESCALATE 570/22196 (2.57 %), cause right 416/499 (the new sets' 8/11), 114/121 confident.
    # 2026-12-07, the ninth session: 1819 runs (holdout52 to 56 added: 86 runs, 30 should-stop). With them, before the
    # session's judge changes: flagged 594/605, STOP recall 509/551, no false/early STOP, ESCALATE 566/21681, cause
    # right 408/488 (the 1733 earlier runs: 385/458 as before; the new sets' LR-growth runs said lr_too_high: 23/30).
    # Then a bar drawing the run's values counts the run and a flat end at the last step is finished (ESCALATE 566 ->
    # 559: seven last checks of runs that had learned, none of them a should-stop run's only flag), and a loss held
    # above its first log from its first update on (all but a tenth of its later logs, their median and its level now
    # twice it or more) has diverged (STOP recall 509 -> 512; 22 should-stop runs STOP more of their checks; no healthy
    # run moved: a warm simulated annealing coming back down is not held there).
    # 2026-12-07, the eighth session: the same 1733 runs after the plan cache's fix and holdout52-54's reader fixes:
    # flagged 564/575, STOP recall 480/521 (one fewer: flair's lr-10 run, libraries_holdout3, is read by its 8 epoch
    # records now that an epoch's own record makes the per-batch running means a live view; its first replayed checks,
    # which STOPped on the running means of epoch 1, WAIT for 8 points, its later ones ESCALATE as before), no
    # false/early STOP, ESCALATE 547/20779 healthy checks (2.6 %, from 551), cause right 385/458, 103/110 confident.
    # 2026-12-06, the seventh session: the 1733-run table (holdout43 to 51 added, after their reader fixes). On the 1559
    # earlier runs the session's changes moved three diverged runs to STOP (a short run's loss back above its first
    # log after halving it: pythae, spektral, tez; recall 426 -> 429/465) and nothing else. The whole table: flagged
    # 564/575 (98 %: holdout43's Spark gradient-descent runs, unread; a genetic search whose models all diverge; a
    # search that never moves), STOP recall 481/521 (92 %), no false/early STOP, ESCALATE 551/20791 healthy checks
    # (2.7 %), cause right 385/458 (84 %: the new sets' causes right 38/48), at confidence >= 0.7 103/110 (94 %).
    # 2026-12-06, the sixth session: the 1559-run table (holdout35 to 42 added, after their reader fixes). On the 1391
    # earlier runs the session's reader changes moved nothing (flagged 455/463, STOP recall 372/410, cause right
    # 305/357, 76/80 confident; ESCALATE 497 healthy checks, of 17124 since d3rlpy's bar redraws give no points). The
    # whole table: flagged 510/518 (98 %), STOP recall 426/465 (92 %: tez's diverged run of 10 epoch records
    # ESCALATEs), no false/early STOP, ESCALATE 510/18864 healthy checks (2.7 %), cause right 347/410 (85 %: the new
    # sets' causes right 42/53: an LR grown by a schedule said lr_too_high 4 times, bad_batch or numerical 2 each, a
    # rate too high said lr_schedule 3 times), at confidence >= 0.7 86/93 (92 %: imitation's two LR-growth runs said
    # bad_batch at 0.75, one torchkeras LR growth lr_too_high at 0.8).
    # 2026-12-06, the fifth session's end: the 1391-run table (holdout33 and 34 added, after their reader fixes). Their
    # fixes moved nothing else (a solver's scale factor no loss scale; a solver table's cost; capital names keep their
    # words): flagged 455/463 (98 %), STOP recall 372/410 (91 %), no false/early STOP, ESCALATE 497/17165 healthy checks
    # (2.9 %: holdout34's syne-tune searches, unread, escalate as unreadable), cause right 305/357 (85 %), at
    # confidence >= 0.7 76/80 (95 %).
    # 2026-12-06, the day's fifth session: the 1350-run table (examples/libraries_holdout27 to 32 added, the
    # twenty-seventh to thirty-second blind sets, after their reader fixes). On the 1210 earlier runs the session's
    # reader changes moved nothing: flagged 397/402, STOP recall 318/349, cause right 276/321, 75/78 confident. The
    # whole table before judge.py's `_coming_back` (a divergence seen on two checks in a row is no STOP while its
    # newest 5 logs never rise and end lower): 1 false STOP (holdout28's warm-started jMetalPy annealing, its level
    # risen 3.7x by exploration and coming back down, STOPped at 0.67 of 0.42 best), flagged 441/449, STOP recall
    # 360/396, ESCALATE 473/16648; after it: no false STOP (that run ESCALATEs), the rest unchanged. Totals: flagged
    # 441/449 (98 %; keras-tuner's three searches under a too-high LR are read as runs of three epochs: WAIT), STOP
    # recall 360/396 (91 %), no false/early STOP, ESCALATE 474/16648 healthy checks (2.8 %), cause right 302/354
    # (85 %), at confidence >= 0.7 76/80 (95 %).
    # 2026-12-06, the 1210-run table (examples/libraries_holdout18 to 26 added, the eighteenth to twenty-sixth blind
    # sets, after their reader fixes; judgement changes of the day, each judged on the whole table: a gradient norm
    # shrinking at a smooth minimum converged, an objective's value named so is no RL value loss, `episode_rewards` an
    # episode return, a loss left unjudged grown a million-fold blew up): on the 1010 earlier runs flagged 347/349,
    # STOP recall 273 -> 274/296 (libraries3's tianshou), cause right 248 -> 249/287, each folder's ESCALATE share and
    # the rest unchanged; the whole table flagged 397/402, STOP recall 318/349, no false/early STOP, ESCALATE
    # 449/14878 healthy checks (3.0 %: holdout19's optuna/nevergrad searches unread and rlberry's and LibRecommender's
    # short runs asked), cause right 276/321 (86 %), at confidence >= 0.7 75/78 (96 %).
    # 2026-12-06, the same 1010 runs after holdout16's reader fixes (stanza, snorkel, scvi-tools read at their steps):
    # ESCALATE 246 -> 238 of 12154 healthy checks, cause right 249 -> 248/287 (stanza's NaN under an LR too high, read
    # now, said numerical at 0.5), the rest unchanged.
    # 2026-12-06, the 1010-run table (examples/libraries_holdout14 to 17 added, the fourteenth to seventeenth blind
    # sets, after their reader fixes save holdout16's; judge9: an LR logged once, a setting printed before training,
    # tells nothing of what the LR did): flagged 347/349, STOP recall 273/296, no false/early STOP, ESCALATE
    # 246/12154 healthy checks (2.0 %), cause right 243/287 -> 249/287 (87 %: the new sets' LR grown each epoch, no LR
    # logged or logged once, said lr_too_high or numerical at 0.45-0.5, 7 runs), at confidence >= 0.7 75/79 -> 73/73.
    # 2026-12-06, the 913-run table (examples/libraries_holdout12 and 13 added, the twelfth and thirteenth blind sets,
    # read whole at their first reading; judge8's rules: a loss falling through zero is minimised, not a surrogate; a
    # NaN after a log above the start by the whole fall ends a blow-up; an error logged below zero is negated): flagged
    # 313/317 -> 315/317, STOP recall 240/264 -> 242/264, no false/early STOP, ESCALATE 276/11141 -> 237/11141 healthy
    # checks (2.5 % -> 2.1 %), cause right 226/254 -> 227/256 (89 %: the new sets' NaN after an LR grown each epoch,
    # no LR logged, said lr_too_high or numerical at 0.45-0.5), at confidence >= 0.7 72/72.
    # 2026-12-06, the 860-run table (examples/libraries_holdout11 added, after its reader fixes): flagged 298/300, STOP
    # recall 225/247 (pygad's genetic searches under a too-wide mutation: their best loss rising only ESCALATEs, 3 of
    # 7), no false/early STOP, ESCALATE 232/10441 healthy checks (2.2 %), cause right 215/240 (90 %), 71/71 at >= 0.7.
    # 2026-12-06, the 839-run table (examples/libraries_holdout9 and 10 added, the ninth and tenth blind sets, after
    # their reader fixes): flagged 291/293, STOP recall 221/240, no false/early STOP, ESCALATE 232/10167 healthy
    # checks (2.3 %), cause right 212/237 (89 %: the new sets' LR multiplied each epoch from the first, no LR logged,
    # is said lr_too_high at 0.45 on 5 runs more: with the loss climbing from its first logs nothing tells a schedule
    # from a peak too high), at confidence >= 0.7 71/71.
    # 2026-12-06, the 789-run table (examples/libraries_holdout7 and 8 added, the seventh and eighth blind sets, after
    # their reader fixes; judge7's and crash7's rules below merged): flagged 276/278, STOP recall 206/225, no
    # false/early STOP, ESCALATE 230/9471 healthy checks (2.4 %), cause right 202/222 (91 %; the new sets' LR grown by
    # a schedule, no LR logged, said lr_too_high or numerical at 0.45-0.5: 4 of the 5 new wrong causes), at
    # confidence >= 0.7 71/71. Never flagged: PFRL's DDQN and a 2-line bigscience excerpt.
    # 2026-12-06, the 739-run table with the run's end read (crash7: the exception a log ends with): flagged 261/263,
    # STOP recall 190/210 (PyMC's lr-growth run STOPs at its last check: its log ends in `FloatingPointError: NaN
    # occurred in optimization.`, cause lr_schedule, right), no false/early STOP, cause right 192/207, 71/71 at >= 0.7;
    # ESCALATE 229/8965 healthy checks (2.55 %): the one more is real-logs-2's ChatGLM log at its last check, whose
    # training stopped at 6,283/21,600 steps and whose later launch died of an `AssertionError` the log ends with: a
    # dead run is an ESCALATE (run_ended_with_error), not a CONTINUE; the floor moved 0.0255 -> 0.0256 for it.
    # 2026-12-06, the 739-run table after judge7's rule (a loss whose newest logs - 2, and 4 % of the run - each sit at
    # 10x its best and 2x where it started has its progress undone twice over: a divergence STOP): STOP recall 189/210
    # -> 191/210 (NumPyro's lr-growth run, KAN's lr3 run), 13 clear runs stopped a check or two sooner; flagged
    # 260/263, no false/early STOP, ESCALATE 228/8965 healthy checks (2.5 %), cause right 191/206, at confidence >=
    # 0.7 71/71 unchanged. Tried and left: a loss held at 3x its start for a quarter of the run (sustain_min logs),
    # however noisy: it STOPs PyG's noisy lr8 run but also NeuralProphet's one-cycle hump (healthy, 4x its start for
    # 10 logs, then back): a false STOP.
    # 2026-12-06, the 739-run table (examples/libraries_holdout6 added, the sixth blind set, after its reader fixes;
    # the merged reader work of the day: PyMC one point a call, libraries6 29/29): flagged 260/263, STOP recall 189/210,
    # no false/early STOP, ESCALATE 228/8965 healthy checks (2.5 %), cause right 191/206, at confidence >= 0.7 71/71.
    # Never flagged: PFRL's DDQN (its Q estimates climb above any return: no signal yet), PyMC's lr-growth run (7
    # points, one a call now, under the 8 a trend needs; the log ends in the exception), a 2-line bigscience excerpt.
    # 2026-12-06, the 703-run table after judge6's rules (a loss two logs or more at 10x its best and above its start is
    # no fresh swing: ESCALATE, not WAIT; `numerical` from a loss at its level is 0.5 when no grad norm is logged):
    # flagged 249/251, STOP recall 178/198, no false/early STOP, ESCALATE 223/8482 healthy checks, cause right 184/199,
    # at confidence >= 0.7 68/68; before them (main at cd357bf): flagged 248/251, cause right 183/198, 68/70 (NumPyro's
    # and DeepChem's LR grown into a NaN said `numerical` at 0.75 from the loss alone), the rest the same.
    # the 703-run table of 2026-12-06 (examples/libraries6, libraries_holdout5, trackers2 added) after judge5's rules (a
    # term that never moved does not cancel the early-rise rule, pycma's `function value` is no RL value loss, a short
    # log half done that never left its start is a plateau): flagged 242/251, STOP recall 172/198, no false STOP,
    # ESCALATE 218/8274 healthy checks, cause right 176/192, at confidence >= 0.7 68/69; before them: flagged 239/251,
    # STOP recall 170/198, 1 false STOP (neuralprophet_lr_high_onecycle_recovers), ESCALATE 214/8274, cause right
    # 176/191. Most misses left are libraries_holdout5 runs the reader reads few or no points of (numpyro, evotorch,
    # fuxictr, clu's glog lines) and RL runs (PFRL's `R` not taken for a return); the 610-run floors were STOP recall
    # 0.90, flagged 0.99, cause right 0.93.
    "false_stops": ("<=", 0),
    "early_stops": ("<=", 0),
    "stop_recall": (">=", 0.925),  # 718/776 (the 2441 runs before: 709/766, 0.926)
    "flagged_share": (">=", 0.980),  # 814/830 (the 2441 runs before: 804/820, 0.980)
    "escalate_share_healthy": ("<=", 0.0251),  # 701/27955 (the 2441 runs before: 700/27585, 0.0254)
    "cause_right_share": (">=", 0.816),  # 537/658 (the 2441 runs before: 531/653, 0.813)
    "confident_right_share": (">=", 0.936),  # 147/157 (the 2264 runs before: 143/153; the new sets 4/4)
    "confident": (">=", 147),  # as many confident causes as is honest: the ratio is not bought by making all unsure
}


@dataclass
class CalRun(LabelledRun):
    kind: str = ""  # the label kind the table groups by
    cause: str | None = None  # the known cause, when the label names one


def _lr_cause(name: str) -> str | None:
    """A cause a framework corpus names in its run folder's name (``..._lr_huge_nan``, ``..._lr_growth_...``)."""
    n = name.lower()
    if any(w in n for w in ("lr_growth", "lr_ramp", "scheduler_growth")):
        return "lr_schedule"
    if any(w in n for w in ("lr_huge", "eta_huge", "lr_high", "huge_lr", "_lr50_", "warmup_to_lr")):
        return "lr_too_high"
    return None


def _from_label_json(folder: Path) -> list[CalRun]:
    out: list[CalRun] = []
    for d in sorted(p for p in folder.iterdir() if (p / "label.json").is_file()):
        lab = json.loads((d / "label.json").read_text())
        label = LABEL_ALIASES.get(lab.get("label") or lab.get("cause", ""), lab.get("label") or lab.get("cause", ""))
        if "label" in lab:
            category = lab.get("category") or ("clear" if label in CLEAR_LABELS else
                                               "healthy" if label in HEALTHY_LABELS else "flag")
        else:  # examples/causes: every run fails for its cause and must be flagged
            category = "flag"
        why = lab.get("why", "")
        cause = lab.get("cause") or corpus_cause(d.name, label, why)
        out.append(CalRun(
            name=d.name, path=str(d / lab["source"]) if lab.get("source") else str(d), label=label,
            category=category, onset_step=lab.get("onset_step"), should_stop=category in ("clear", "flag"),
            total_steps=lab.get("total_steps"), why=why, corpus=folder.name, kind=lab.get("kind") or label,
            cause=cause if category != "healthy" else None))
    return out


def _from_manifest(folder: Path) -> list[CalRun]:
    entries = {}
    for line in (folder / "manifest.jsonl").read_text().splitlines():
        if line.strip():
            e = json.loads(line)
            entries[e["file"]] = e
    out: list[CalRun] = []
    for r in load_corpus(folder):  # onsets mapped and total steps read by corpus_labels
        e = entries.get(r.name, {})
        label = LABEL_ALIASES.get(e.get("label", r.label), e.get("label", r.label))
        stop = e.get("should_stop")
        if stop is True:
            category = "clear" if label in CLEAR_LABELS else "flag"
        elif stop is False or label in HEALTHY_LABELS:
            category = "healthy"
        elif r.category in ("clear", "flag"):
            category = r.category
        else:
            category = "healthy" if label == "other" else "unscored"
        why = e.get("why") or e.get("justification") or ""
        cause = e.get("cause") or (_lr_cause(r.name) or corpus_cause(r.name, label, why) if category in
                                   ("clear", "flag") else None)
        out.append(CalRun(**{**asdict(r), "label": label, "category": category, "should_stop": category in
                             ("clear", "flag"), "corpus": folder.name, "why": why}, kind=label, cause=cause))
    return out


def calibration_runs(folder: str | Path) -> list[CalRun]:
    """Every labelled run of one folder (label.json run folders or a manifest.jsonl), with its category and cause."""
    folder = Path(folder)
    if (folder / "manifest.jsonl").is_file():
        return _from_manifest(folder)
    return _from_label_json(folder)


# --------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table: the figures over a group of replayed runs."""

    name: str
    runs: int = 0
    must_flag: int = 0  # clear + flag runs
    flagged: int = 0
    clear: int = 0
    stopped: int = 0
    healthy: int = 0
    false_stops: int = 0
    early_stops: int = 0
    delays_steps: list[int] = field(default_factory=list)
    delays_share: list[float] = field(default_factory=list)
    healthy_checks: int = 0
    healthy_escalates: int = 0
    known_cause: int = 0  # flagged runs with a known cause
    cause_right: int = 0
    confident: int = 0  # ...whose cause was given at confidence >= CONFIDENT
    confident_right: int = 0
    unreadable: int = 0

    def share(self, a: int, b: int) -> float | None:
        return a / b if b else None

    def figures(self) -> dict:
        return {
            "runs": self.runs, "flagged": self.flagged, "must_flag": self.must_flag,
            "flagged_share": self.share(self.flagged, self.must_flag), "stopped": self.stopped, "clear": self.clear,
            "stop_recall": self.share(self.stopped, self.clear), "false_stops": self.false_stops,
            "healthy_runs": self.healthy, "early_stops": self.early_stops,
            "delay_steps": statistics.median(self.delays_steps) if self.delays_steps else None,
            "delay_share": statistics.median(self.delays_share) if self.delays_share else None,
            "healthy_checks": self.healthy_checks, "healthy_escalates": self.healthy_escalates,
            "escalate_share_healthy": self.share(self.healthy_escalates, self.healthy_checks),
            "known_cause": self.known_cause, "cause_right": self.cause_right,
            "cause_right_share": self.share(self.cause_right, self.known_cause), "confident": self.confident,
            "confident_right": self.confident_right,
            "confident_right_share": self.share(self.confident_right, self.confident), "unreadable": self.unreadable,
        }


@dataclass
class Outcome:
    """What the replayed checks did to one run."""

    run: CalRun
    timeline: str
    stop: int | None  # the step of the first STOP
    flag: int | None  # the step of the first STOP or ESCALATE
    escalates: int
    checks: int
    cause: str | None  # the diagnosis of the first STOP, else of the last ESCALATE
    confidence: float | None
    delay: int | None  # steps from the onset to the first flag at or after the onset
    span: int | None
    error: str | None = None

    @property
    def early_stop(self) -> bool:
        onset = self.run.onset_step
        return (self.stop is not None and onset is not None and self.span is not None
                and self.stop < onset - LONG_BEFORE_FRACTION * self.span)


def outcome(rep: Replay) -> Outcome:
    run = rep.run
    assert isinstance(run, CalRun)
    if rep.error or rep.span is None:
        return Outcome(run, "", None, None, 0, 0, None, None, None, None, rep.error or "no logged steps")
    stop = next((c for c in rep.checks if c.verdict == STOP), None)
    flag = next((c for c in rep.checks if c.verdict in (STOP, ESCALATE)), None)
    last_esc = next((c for c in reversed(rep.checks) if c.verdict == ESCALATE), None)
    said = stop or last_esc
    delay = None
    if run.onset_step is not None:
        after = next((c for c in rep.checks if c.verdict in (STOP, ESCALATE) and c.step >= run.onset_step), None)
        delay = after.step - run.onset_step if after else None
    return Outcome(run, rep.timeline(), stop.step if stop else None, flag.step if flag else None,
                   sum(c.verdict == ESCALATE for c in rep.checks), len(rep.checks), said.cause if said else None,
                   said.confidence if said else None, delay, max(1, rep.span[1] - rep.span[0]))


def add(row: Row, o: Outcome) -> None:
    cat = o.run.category
    if cat == "unscored":
        row.runs += 1
        return
    row.runs += 1
    if o.error:
        row.unreadable += 1
    if cat in ("clear", "flag"):
        row.must_flag += 1
        row.flagged += o.flag is not None
        if cat == "clear":
            row.clear += 1
            row.stopped += o.stop is not None
        row.early_stops += o.early_stop
        if o.delay is not None and o.span:
            row.delays_steps.append(o.delay)
            row.delays_share.append(o.delay / o.span)
        if o.run.cause and o.flag is not None:
            row.known_cause += 1
            row.cause_right += o.cause == o.run.cause
            if o.confidence is not None and o.confidence >= CONFIDENT:
                row.confident += 1
                row.confident_right += o.cause == o.run.cause
    else:
        row.healthy += 1
        row.false_stops += o.stop is not None
        row.healthy_checks += o.checks
        row.healthy_escalates += o.escalates


def table(outcomes: list[Outcome]) -> tuple[list[Row], list[Row], Row]:
    """(one row per label kind, one row per folder, the totals)."""
    kinds: dict[str, Row] = {}
    corpora: dict[str, Row] = {}
    total = Row(TOTAL)
    for o in outcomes:
        for rows, key in ((kinds, f"{o.run.kind} ({o.run.category})"), (corpora, o.run.corpus)):
            add(rows.setdefault(key, Row(key)), o)
        add(total, o)
    return sorted(kinds.values(), key=lambda r: r.name), list(corpora.values()), total


def floor_breaches(totals: dict, floors: dict[str, tuple[str, float]] | None = None) -> list[str]:
    """Every floor the totals break, one line each (none: the code holds them)."""
    out = []
    for key, (op, bound) in (FLOORS if floors is None else floors).items():
        v = totals.get(key)
        if v is None:
            continue
        if (op == "<=" and v > bound) or (op == ">=" and v < bound):
            out.append(f"{key} = {_pct(v) if isinstance(v, float) else v}, floor {op} "
                       f"{_pct(bound) if isinstance(bound, float) else bound}")
    return out


# --------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.0f}%"


def _frac(a: int, b: int) -> str:
    return f"{a}/{b}" if b else "-"


def print_rows(rows: list[Row], out=None, head: str = "kind") -> None:
    out = out or sys.stdout
    print(f"{head:34s} {'runs':>4s} {'flagged':>8s} {'STOP rec':>8s} {'falseS':>6s} {'earlyS':>6s} "
          f"{'delay st':>8s} {'delay %':>7s} {'ESC/hlth':>9s} {'cause':>7s} {'@>=0.7':>7s}", file=out)
    for r in rows:
        f = r.figures()
        delay = "-" if f["delay_steps"] is None else f"{f['delay_steps']:.0f}"
        esc = "-" if not r.healthy_checks else f"{100 * f['escalate_share_healthy']:.1f}%"
        print(f"{r.name[:34]:34s} {r.runs:>4d} {_frac(r.flagged, r.must_flag):>8s} {_frac(r.stopped, r.clear):>8s} "
              f"{r.false_stops if r.healthy else '-':>6} {r.early_stops if r.must_flag else '-':>6} {delay:>8s} "
              f"{_pct(f['delay_share']):>7s} {esc:>9s} {_frac(r.cause_right, r.known_cause):>7s} "
              f"{_frac(r.confident_right, r.confident):>7s}", file=out)


def report(outcomes: list[Outcome], out=None) -> dict:
    out = out or sys.stdout
    kinds, corpora, total = table(outcomes)
    print_rows(kinds, out)
    print("", file=out)
    print_rows(corpora, out, head="folder")
    print("", file=out)
    print_rows([total], out, head="")
    t = total.figures()
    print(f"\ntotals: flagged {_frac(total.flagged, total.must_flag)} ({_pct(t['flagged_share'])}), STOP recall "
          f"{_frac(total.stopped, total.clear)} ({_pct(t['stop_recall'])}), false STOPs {total.false_stops}, early "
          f"STOPs {total.early_stops}, ESCALATE {total.healthy_escalates}/{total.healthy_checks} healthy checks "
          f"({100 * (t['escalate_share_healthy'] or 0):.1f}%), cause right "
          f"{_frac(total.cause_right, total.known_cause)}, at confidence >= {CONFIDENT}: "
          f"{_frac(total.confident_right, total.confident)}", file=out)
    misses = [o for o in outcomes if o.run.category in ("clear", "flag") and o.flag is None]
    wrong_stops = [o for o in outcomes if (o.run.category == "healthy" and o.stop is not None) or o.early_stop]
    wrong_causes = [o for o in outcomes if o.run.cause and o.flag is not None and o.cause != o.run.cause]
    noisy = sorted((o for o in outcomes if o.run.category == "healthy" and o.escalates), key=lambda o: -o.escalates)
    for title, items, fmt in (
            ("never flagged", misses, lambda o: f"{o.run.kind}: {o.timeline}{' ' + o.error if o.error else ''}"),
            ("false or early STOPs", wrong_stops, lambda o: f"{o.run.kind}: STOP at {o.stop} (onset "
                                                            f"{o.run.onset_step}) {o.timeline}"),
            ("wrong causes", wrong_causes, lambda o: f"known {o.run.cause}, said {o.cause} ({o.confidence})"),
            ("healthy runs that ESCALATE", noisy[:12], lambda o: f"{o.escalates}/{o.checks} {o.timeline}")):
        if items:
            print(f"\n{title}:", file=out)
            for o in items:
                print(f"  {o.run.corpus}/{o.run.name[:60]}: {fmt(o)}", file=out)
    breaches = floor_breaches(t)
    print("\nfloors: " + ("all held" if not breaches else "BROKEN: " + "; ".join(breaches)), file=out)
    return {"kinds": {r.name: r.figures() for r in kinds}, "folders": {r.name: r.figures() for r in corpora},
            "totals": t, "breaches": breaches}


def run_folders(folders: list[Path], n_checks: int = 24, only: str | None = None,
                progress: bool = True) -> list[Outcome]:
    runs: list[CalRun] = []
    for folder in folders:
        if not folder.is_dir():
            print(f"(skipped {folder}: not found)", file=sys.stderr)
            continue
        runs += calibration_runs(folder)
    if only:
        runs = [r for r in runs if only in f"{r.corpus}/{r.name}"]
    outcomes = []
    for run in runs:
        t0 = time.perf_counter()
        o = outcome(replay(run, n_checks))
        outcomes.append(o)
        if progress:
            print(f"  {run.corpus}/{run.name[:60]} [{run.category}] {o.timeline} -> {o.cause} "
                  f"({time.perf_counter() - t0:.1f}s)", file=sys.stderr, flush=True)
    return outcomes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="The calibration table: every labelled run replayed, per label kind.")
    ap.add_argument("folders", nargs="*", help="corpus folders (default: every labelled folder the project has)")
    ap.add_argument("--checks", type=int, default=24, help="replayed checks per run")
    ap.add_argument("--only", help="only runs whose folder/name contains this")
    ap.add_argument("--json", dest="json_out", help="write the figures and every run's outcome here")
    ap.add_argument("--quiet", action="store_true", help="no per-run progress lines")
    args = ap.parse_args(argv)
    folders = [Path(f) for f in args.folders] if args.folders else DEFAULT_FOLDERS
    outcomes = run_folders(folders, args.checks, args.only, progress=not args.quiet)
    result = report(outcomes)
    if args.json_out:
        result["runs"] = [{**asdict(o.run), "timeline": o.timeline, "stop": o.stop, "flag": o.flag,
                           "escalates": o.escalates, "checks": o.checks, "cause_said": o.cause,
                           "confidence": o.confidence, "delay": o.delay, "span": o.span, "error": o.error}
                          for o in outcomes]
        Path(args.json_out).write_text(json.dumps(result, indent=1, default=str))
    return 1 if result["breaches"] else 0


if __name__ == "__main__":
    os.environ.setdefault("TRAINING_CHECK_HOME", tempfile.gettempdir() + "/tc-bench-home")
    raise SystemExit(main())
