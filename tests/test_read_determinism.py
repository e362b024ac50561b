"""Issue 32 item 5: the same bytes give the same points, notes and verdict whatever the file's age or the size of the
reads they came in. Every run file of every corpus the project has (examples/frameworks, holdout, libraries,
libraries_holdout, corpus, causes, stalls, and the shared real-logs and real-logs-2 at TRAINING_CHECK_CORPUS) is
read three ways through ``load_run`` and judged by ``assess_run``, each in a fresh store (with libraries6,
libraries_holdout5, libraries_holdout7 to 11 and the text files of trackers2' tracker folders):

(a) whole, as an old file (its mtime long past: settled);
(b) whole, as a fresh file (mtime now: its last unterminated record is provisional);
(c) live: appended in pieces of random sizes (cut mid-line, mid-record), a read after each piece, then judged.

The points (names, steps, values; a later point at a step replacing an earlier one, as the frame does), the notes on
what the file holds, the planned length and the verdict must be the same. Age may only decide whether the last
unterminated record counts, provisionally; a file written in full ends with its records complete or is read the
same young or old.

Files known to differ still (each with why) are listed in ``KNOWN``: the test fails when another file differs, and
when a listed one reads the same now (the list only shrinks).
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import time
from pathlib import Path

import pytest
from training_check.tools.assess import assess_run
from training_check.tools.config import load_config
from training_check.tools.errors import TrainingCheckError
from training_check.tools.reading import load_run
from training_check.tools.store import Store

from tests.conftest import CORPUS, REPO, require

EXAMPLES = ("frameworks", "holdout", "libraries", "libraries_holdout", "corpus", "causes", "stalls", "libraries6",
            "libraries_holdout5", "libraries_holdout7", "libraries_holdout8", "libraries_holdout9",
            "libraries_holdout10", "libraries_holdout11", "libraries_holdout12", "libraries_holdout13",
            "libraries_holdout14", "libraries_holdout15", "libraries_holdout16", "libraries_holdout17",
            "libraries_holdout18", "libraries_holdout19", "libraries_holdout20", "libraries_holdout21",
            "libraries_holdout22", "libraries_holdout23", "libraries_holdout24", "libraries_holdout25",
            "libraries_holdout26", "libraries_holdout27", "libraries_holdout28", "libraries_holdout29",
            "libraries_holdout30", "libraries_holdout31", "libraries_holdout32", "libraries_holdout33",
            "libraries_holdout34", "libraries_holdout35", "libraries_holdout36", "libraries_holdout37",
            "libraries_holdout38", "libraries_holdout39", "libraries_holdout40", "libraries_holdout41",
            "libraries_holdout42", "libraries_holdout43", "libraries_holdout44", "libraries_holdout45",
            "libraries_holdout46", "libraries_holdout47", "libraries_holdout48", "libraries_holdout49",
            "libraries_holdout50", "libraries_holdout51", "libraries_holdout52", "libraries_holdout53",
            "libraries_holdout54", "libraries_holdout55", "libraries_holdout56", "libraries_holdout57",
            "libraries_holdout58", "libraries_holdout59", "libraries_holdout60", "libraries_holdout61",
            "libraries_holdout62", "libraries_holdout63", "libraries_holdout64", "libraries_holdout65",
            "libraries_holdout66", "libraries_holdout67", "libraries_holdout68", "libraries_holdout69",
            "libraries_holdout70", "libraries_holdout71", "libraries_holdout73", "libraries_holdout74",
            "libraries_holdout75", "libraries_holdout76", "libraries_holdout77", "libraries_holdout78",
            "libraries_holdout79", "libraries_holdout80", "libraries_holdout81", "libraries_holdout82",
            "libraries_holdout83", "libraries_holdout84", "libraries_holdout85", "libraries_holdout86",
            "libraries_holdout87", "libraries_holdout88", "libraries_holdout89", "libraries_holdout90",
            "libraries_holdout91", "libraries_holdout92", "libraries_holdout93", "libraries_holdout94",
            "libraries_holdout95", "libraries_holdout96", "libraries_holdout97", "libraries_holdout98",
            "libraries_holdout99", "libraries_holdout100", "libraries_holdout101", "libraries_holdout102")
# a tracker's run folders (trackers2, swanlab's and trackio's in libraries_holdout31), keras-tuner's trial folders
# (libraries_holdout30), syne-tune's run metadata (libraries_holdout34): only the text files a run appends to (the
# files whose names end so)
TEXT_ONLY = {"trackers2": (".log", ".jsonl"), "libraries_holdout30": (".log",), "libraries_holdout31": (".log",),
             "libraries_holdout34": (".log",),
             # (Ray Train's checkpoint_manager_snapshot.json: a document written whole again, no file appended to;
             # pyhealth's own log.txt holds the records of train.log without its bars)
             "libraries_holdout68": (".log",),
             # (netket's own ``vmc.log`` is a JSON document its JsonLog writes whole again, not a file appended to)
             "libraries_holdout56": ("train.log",),
             # (StarDist's config.json / thresholds.json and scArches' trainer_logs.json: documents written whole once
             # at the end, no file appended to; OpenNMT-tf's model_description.py: code)
             "libraries_holdout75": (".log",), "libraries_holdout76": (".log",),
             # (tensorpack's stats.json: its JSONWriter writes the document whole again each epoch)
             "libraries_holdout84": (".log",),
             # (labml's configs.yaml, run.yaml, indicators.yaml and log.jsonl: its own files, no text log)
             "libraries_holdout87": (".log",)}
DOCS = {"manifest.jsonl", "README.md", "FORMATS.md", "MANIFEST.md", "label.json", "truth.json"}
STORES = ("mlruns", "dvclive")  # folders read as a whole, not files appended to
PIECES = 4  # cuts per file (random, mid-line): five reads
# notes on the read itself, not on what the file holds
READ_NOTES = ("no complete metric line recognised yet", "the file's last, unterminated part was read provisionally",
              "JSON document: re-read whole because it changed")

# file (relative to its corpus root) -> why it still reads differently in the test's pieces (a known limit, each to
# fix). The same shapes show in other files for other cuts (HF's write events, line-order numbering, the terminal
# wrap): 66 of 451 files differed with these cuts before issue 32's fixes, 7 at main 078aa55. One-off lines beyond the
# 64 carried are remembered by their template's digest: one seen again reads the file again knowing it recurs
# (engine._remember_once); that fixed two of the three "one-off lines beyond the carried 64"; the third (a
# detectron2 log holding several runs) differs now at a run boundary only.
KNOWN = {
    # (fixdet: 13 files read alike since a later read placing what an earlier one numbered or counted otherwise
    # reads the file again: keras_v1_many_batches, sktime's, four MACE files, opacus', three Ax files, scikeras',
    # one pyhealth, one physicsnemo)
    # (HF's tqdm write events across reads, frameworks/hf_eval_steps50, read the same since fixhfcut: a clear that
    # ends a read is kept for the next read's first redraw, ``bar_steps.bar_clears``)
    # a multi-run file whose run boundary is seen differently when a piece ends near it (real-logs-2's 22, hard-wrapped,
    # reads the same since a terminal wrap is not decided on rests that start as the log's short records do: left7)
    "real-logs-2/11_detectron2-fewshot-log.txt": "run boundary at a read's end",
    "real-logs/bigscience/tr11-176B_throughput-drop_wrapped_L257-271.log": "terminal wrap decided on a short read",
    # added with libraries6, libraries_holdout5 and trackers2 (text files): 18 of their 105 files differed, 2 fixed
    # (a lagging bar's window cut by a read, an epoch banner read without its bar), 7 more (CLU's metric lines, read
    # by line order or named avg_/val_ on a read holding no step yet) by reading glog's header as a stamp, 3 more
    # (PyMC's bar and its closing "Finished" line, ordered by the read) by reading them as one record, 1 more
    # (pycma's list printed over two lines read as a table's row when a read holds its end only); the last 5 (left7):
    # NeuralProphet's 4 (its bar's postfix names read again in its epoch table at the end: the file read again
    # knowing them) and MONAI's 1 (ignite's ``until 8 epochs`` no metric, a clock no value) read the same now
    # added with libraries_holdout7 to 10: 9 files differed, 2 read the same now (det7: TensorLy's initial value before
    # a first numbered record the read ends after). NeuralForecast's 5 read the same now (det8): the epoch loss in
    # Lightning's bar, its repeats taken for redraws (``value_changes``) when half its points so far are repeats at a
    # read's end: 4 of 7 at a read's end within the file, 19 of 39 at the file's end, so the whole read keeps the
    # first repeat (a point more). Told at any point of a block instead, the 5 read the same, but widedeep's loss was
    # pinned too (a point fewer, its early verdicts CCC -> WWC); kept at a read's end, but untold at a later read's
    # end where the share is under half again (the file read again unpinned), and a read's last point at a step the
    # next read's first point is at (the bar's state at the read's end, redrawn after) counted once, the share at the
    # file's end is the whole read's. openTSNE's 2 read the same now
    # (det8: its phase banner's values, ``exaggeration=12.00, lr=16.67``, placed whole at the step of the records
    # around it, were numbered 1, 2 in a read holding no recurring stepped record yet: such lines are held to the next
    # read, ``engine._unjudged``; one carried from before the log's first step is at that step)
    # added with libraries_holdout12 to 15: 2 of their 111 files differ. Keras 3's bar (sktime's estimators) redrawn
    # with backspaces, a read ending inside an epoch's first redraws: the run boundary seen in pieces (as keras_v1
    # above). (AutoGluon's settings before its first epoch, listed here before det8, read the same now; so does
    # MindSpore's TimeMonitor line, ``Train epoch time: 625.888 ms, per step time: 15.647 ms``, no step, twice in a
    # read holding one stepped record: held to the next read by ``engine._unjudged`` and lost, it is judged small on
    # the log so far now, ``engine._series_so_far``, det9)
    # added with libraries_holdout17: 6 of its 37 files differ, all mace-torch's: its optimizer's settings printed
    # before training (``Param group 0: lr = 1.0`` ... ``Param group 4: ...``, a count and a setting, no step) placed at
    # step 0 whole (the last kept), numbered 1..5 by a read ending among them or before the first record; the loss
    # and the verdict read the same
    "libraries_holdout17/mace_lj_lr_growth_g1.8_diverged/lj_mace_run-1.log": "settings before the first record "
                                                                              "numbered",
    "libraries_holdout17/mace_lj_lr_high_diverged/train.log": "settings before the first record numbered",
    # added with libraries_holdout18 to 26: 1 of their 214 files differs. opacus' `Train Epoch: 8 \tLoss: 1285.79
    # ...` printed every 4 batches, an epoch and no step: counted 1..32 whole, but a read ending after a few of them
    # places a later epoch's record at an earlier count in pieces (the diverged run's verdict reads the same)
    # added with libraries_holdout27 to 32 (their text logs: keras-tuner's trial folders and the trackers' stores
    # aside, TEXT_ONLY): 15 of their 217 files differ. Ax's trial lines (`Completed trial 3 with data: {'loss': ..}`,
    # no step the reader knows: numbered by line order, a read ending between a trial's two lines shifts the count)
    # and its closing pandas table of trials; keras-tuner's searches, each trial's Keras epochs restarting at `Epoch
    # 1/3` read as a new run, so how many earlier runs are set aside depends on where a read ends; one swanlab loop
    # (its points read in pieces differ; not yet looked at).
    **{f"libraries_holdout30/{name}/train.log": "Ax's trials numbered by line order" for name in (
        "ax_bo_reg_10t",)},  # (ax_bo_cls_8t, ax_sweep_cls_lr_high_nan, ax_sweep_cls_momentum_6t: alike since fixdet)
    # (keras-tuner's ten searches, each trial's Keras epochs restarting at `Epoch 1/3` read as a new run, read the
    # same since fixdet2: a read's first point at the step the read before ended at counted once in the set-aside
    # points, lines carried from a run set aside read the file again, a set-aside run's last state no redraw)
    "libraries_holdout31/swanlab_reg_adam_val_p5_8ep/train.log": "points differ in pieces (not yet looked at)",
    # added with libraries_holdout33 and 34: 1 of their 60 files differs, a syne-tune search (its trial lines and its
    # closing `Resource summary` table of trials, read as runs and a summary by where a read ends; unread whole too)
    "libraries_holdout34/syne_asha_10trials_print1/train.log": "syne-tune's trial table read by the read's end",
    # added with libraries_holdout35 to 42: 2 of their 183 files differ, an h2o deep learning model's scoring table
    # (its `iterations` column no step the reader takes: unread whole too) and a coqui trainer's evaluation block
    # (`--> EVAL PERFORMANCE` / `| > avg_loss: 0.49`, no step of its own) placed at the step before it whole, at the
    # step after it when a read ends right after it (its loss and its verdict the same)
    "libraries_holdout41/coqui_cls_sgd_step_lr_growth_diverged/train.log": "an eval block placed by the read's end",
    # added with libraries_holdout43 to 51: 12 of their files differed; 5 read the same now (an epoch record of its own
    # makes a bar of its names a live view; a restart looked for in the loss chosen at the first read). A fix of the 7
    # below (each series' way judged on the log so far) lost LibRecommender's later points in pieces: reverted
    "libraries_holdout43/mxnet_module_cls_sgd_speedo5_val_8ep/train.log":
        "a running batch-range series judged by each read's lines",
    "libraries_holdout43/mxnet_module_reg_momentum_speedo4_val_8ep/train.log":
        "a running batch-range series judged by each read's lines",
    "libraries_holdout43/mxnet_module_reg_poly_lr_growth_nan/train.log":
        "a running batch-range series judged by each read's lines",
    "libraries_holdout43/spark_mlp_lbfgs_40it/train.log":
        "a line-search line read once, recurring after line-order records",
    # (libraries_holdout44's three eole files read the same since fixdet3: two rates around a slash, ``5060/5992
    # tok/s``, no progress count: ``fields._rate_after``; a cut between its evaluation's lines still differs)
    # added with libraries_holdout52 to 54 (fixhippynn, fixpbg, fixepochrec): their hippynn, PyTorch-BigGraph,
    # neuralhydrology, torch4keras and flashy files read the same at any read size
    # added with libraries_holdout57 (fixclip): its OpenCLIP and MatterSim files read the same at any read size
    # added with libraries_holdout59 and 60 (fixtrials): their openbox, DFO-LS and orion files read the same at any
    # read size; one scikeras file differs as it did before fixtrials' changes (its text holds no repr nor verb they
    # touch): a first read of 193 bytes holding epoch 1's Keras record alone leaves that epoch unread
    # added with libraries_holdout63 (fixkornia): its kornia.x files (two counters, the epoch and its batch) read the
    # same at any read size
    # added with libraries_holdout68 (fixpyhealth): two pyhealth files differ as they did before fixpyhealth's changes
    # (the same two, the same first points): a first read of its first epoch alone, whose bar lines are seen once
    # there, places that epoch's records by line order (steps 0, 1) before the bars recur
    "libraries_holdout68/pyhealth_rnn_binary_val_10ep/train.log":
        "a first read of the first epoch alone, its bar lines seen once",
    # added with libraries_holdout71 (fixsites): 10 of its 67 files differed before; its NVFlare logs (several sites'
    # lines in one, tagged in their messages; steps restarting each round) read the same at any read size since, but
    # one site's own log, whose two one-off lines naming `time` land at the same step (a round's upload, the next
    # round's download); modelscope's four read the same since fixdet3 (a logger's line under its evaluation bar
    # ``Total test samples: 100%|| 64/64`` no row the bar's words name: ``engine._header_before``)
    "libraries_holdout71/nvflare_cls_sgd_b8_3rounds/site-1_log.txt":
        "two one-off lines naming one value at one step, ordered by the read",
    # added with libraries_holdout73 and 74: PhysicsNeMo's first epoch's execution-time line (two lines naming it at
    # one step) and its mini-batch losses (`[50.00%] Mini-Batch Losses: loss = ...`) placed by what a read holds
    # (QuCumber's progress bar redrawn inside its `Epoch: 30\t...` records reads alike since fixqc)
    "libraries_holdout74/physicsnemo_spectral_adam_b8_every_batch_6ep/train.log":
        "mini-batch records between the epochs' placed by what a read holds",
    # added with libraries_holdout75 to 79 (after their corrections; StarDist's Keras meter cut by a read within
    # its first epoch, and cellpose's settings dict a young read placed at step 1, read alike since fixdet: the file
    # read again once a later read places what an earlier one counted otherwise); nequip's per-batch tables
    # (`# Epoch batch  loss ...`) read in pieces as running means beside its `! Train` summaries (the summaries, the
    # run's points, alike)
    # (their seven nequip files read the same since fixdet2: a template a later read plans otherwise than an earlier
    # one did, its per-batch rows under a header its samples there named otherwise, reads the file again)
    # added with libraries_holdout87 to 92 (after their corrections): 12 of their 98 files differ, 10 of them as the
    # session-start reader (58e269cf) read them in pieces too: guild's records over lines (`step: 3` / `loss: 1.9` /
    # `val_loss: ...`, and its logging's `epoch 1 step 4 loss`) placed by where a read ends; lpd's per-batch bar
    # redraws (a postfix of 3 digits, its repeats taken for redraws by the share at a read's end); baal's active-
    # learning bar counting rounds it does not redraw at each. Two read since by new notions: deepdow's benchmark
    # table before its first bar, pzflow's rows under its `Loss:` heading beside a tqdm bar (each read's heading)
    **{f"libraries_holdout89/{run}": "guild's records over lines placed by a read's end" for run in (
        "guild_lines_adam_reg_val_12ep/guild_output", "guild_lines_adam_reg_val_12ep/train.log",
        "guild_lines_sgd_cls_noval_15ep/guild_output", "guild_lines_sgd_cls_noval_15ep/train.log",
        "guild_lines_sgd_lr_growth_diverged/guild_output", "guild_lines_sgd_lr_growth_diverged/train.log",
        "guild_logging_momentum_every4_b16/train.log")},
    **{f"libraries_holdout92/{run}/train.log": "lpd's per-batch bar redraws: repeats judged at a read's end"
       for run in ("lpd_cls_adam_val_10ep", "lpd_reg_adamw_tqdm_b64_8ep")},
    "libraries_holdout87/baal_al_bald_cls_5ep_6rounds/train.log": "an outer bar counting rounds it does not redraw",
    "libraries_holdout88/deepdow_linear_rmsprop_bench_metrics_8ep/train.log":
        "a benchmark table before the first bar, its names read by the read's end",
    "libraries_holdout88/pzflow_moons_adamw_bar_10ep/train.log": "rows under a `Loss:` heading beside a tqdm bar",
    # added with libraries_holdout90 (fixaz): kauldron's 9 train.logs (absl's header, a markdown table of the
    # model's parameters, then its metric writer's lines) read in pieces held no point at all: a young file's format
    # chosen on that table (numbers, no loss) was kept for good; it is chosen again as the file grows while no loss
    # was read (``LogFileSource._redetected``): alike since
    # added with libraries_holdout98 to 102 (the sixteenth session): lenskit's DEBUG lines between its epochs
    # (`adding 1 record batches`, the trainer's `size=8` in a settings line) read as side series numbered by line
    # order, a read ending among them shifting them (and a phase note); its loss and verdict read the same
    "libraries_holdout102/lenskit_explicit_noreg_verbose_b1024_8ep/train.log": "DEBUG side series numbered by line "
                                                                                 "order",
    # and PDLP's table (fixpdlp's `Final solution stats:` report rule): a read starting inside the header repeated
    # before the last rows (`960`, `992`, `1000`) loses those three rows in pieces; found by this test at the merge
    "libraries_holdout101/ortools_pdlp_lp_adaptive_32/train.log": "rows after a header cut by a read lost in "
                                                                  "pieces",
    # (libraries_holdout93's torchmate bars, one template per bar state, met once an epoch, read the same since a line
    # carried from the read before is under the epoch it was printed under, ``banners.banner_epochs``, and no step
    # going back when read late, ``bar_steps.run_starts``: a later read's epochs were numbered again from 1)
}

# files that read alike or not by what the process read before them (the plans it cached from other files' lines of
# the same template): neither a new difference nor one fixed, whichever this run sees; not yet looked into. NOMAD's
# every-evaluation table (alike read alone, as det_sets reads each file; not after the other corpora in one process
# on one machine, alike in CI's); h2o's deep-learning scoring table (in KNOWN before, alike in CI's run now)
CACHE_DEPENDENT = {
    "libraries_holdout89/nomad_linreg_ortho_alleval_50/train.log": "in pieces after other files: a cached plan",
    "libraries_holdout39/h2o_dl_16x16_5ep/train.log": "h2o's deep-learning scoring table read by the read's end",
}


def _roots() -> list[tuple[str, Path]]:
    roots = [(name, REPO / "examples" / name) for name in dict.fromkeys((*EXAMPLES, *TEXT_ONLY))]  # (each once)
    shared = [("real-logs", CORPUS), ("real-logs-2", CORPUS.parent / "real-logs-2")]
    for _name, path in shared:
        require(path.is_dir(), f"the shared corpus at {path} (set TRAINING_CHECK_CORPUS)")
    return roots + shared


def _run_files() -> list[tuple[str, Path]]:
    out = []
    for name, root in _roots():
        for p in sorted(root.rglob("*")):
            if (p.is_file() and p.name not in DOCS and not (p.name.startswith("truth") and p.suffix == ".json")
                    and not any(s in p.parts for s in STORES) and p.suffix != ".db"
                    and p.name.endswith(TEXT_ONLY.get(name, (p.suffix,)))):
                out.append((f"{name}/{p.relative_to(root)}", p))
    return out


def _fresh(tmp: Path):
    tmp.mkdir(parents=True, exist_ok=True)
    config = load_config(cwd=str(tmp), env={"TRAINING_CHECK_HOME": str(tmp)})
    return config, Store(config.store_path)


def _reading(data, notes: list[str], verdict: str | None) -> tuple:
    """What a check says of the file: points, notes on the file, planned length, verdict."""
    pts: dict[str, dict[int, object]] = {}
    for k, c in data.raw().columns.items():
        pts.setdefault(k, {}).update(zip(c.steps.tolist(), [v if v == v else "nan" for v in c.values.tolist()],
                                         strict=True))
    said = sorted({n for n in notes if not n.startswith(READ_NOTES)})
    return pts, said, data.info.total_steps, verdict


def _read(path: Path, tmp: Path, judge: bool) -> tuple:
    config, store = _fresh(tmp)
    try:
        data = load_run(str(path), store=store, config=config)
    except TrainingCheckError as e:
        return ("error", type(e).__name__, str(e).replace(str(path), "FILE"))
    verdict = assess_run(str(path), store=store, config=config).verdict if judge else None
    return _reading(data, data.notes, verdict)


def _read_live(src: Path, path: Path, tmp: Path, cuts: list[int], judge: bool) -> tuple:
    data = src.read_bytes()
    path.write_bytes(b"")
    config, store = _fresh(tmp)
    prev, last = 0, None
    for c in [*cuts, len(data)]:
        with open(path, "ab") as f:
            f.write(data[prev:c])
        prev = c
        try:
            last = load_run(str(path), store=store, config=config)
        except TrainingCheckError as e:
            last = ("error", type(e).__name__, str(e).replace(str(path), "FILE"))
    if isinstance(last, tuple):
        return last
    verdict = assess_run(str(path), store=store, config=config).verdict if judge else None
    return _reading(last, last.notes, verdict)


def _cuts(rel: str, size: int) -> list[int]:
    rng = random.Random(int(hashlib.sha1(rel.encode()).hexdigest()[:8], 16))
    return sorted(rng.randrange(1, size) for _ in range(PIECES)) if size > 1 else []


def _differs(a: tuple, b: tuple) -> str:
    if a == b:
        return ""
    if a[0] == "error" or b[0] == "error":
        return f"{a if a[0] == 'error' else 'read'} vs {b if b[0] == 'error' else 'read'}"
    what = ["points", "notes", "planned length", "verdict"]
    return "; ".join(f"{w}: {x!r:.300} vs {y!r:.300}" for w, x, y in zip(what, a, b, strict=True) if x != y)


@pytest.mark.timeout(1800)  # every corpus file (3,147) read three ways and judged: 300 s idle, 900 s loaded
def test_every_corpus_file_reads_the_same_at_any_age_and_read_size(tmp_path):
    files = _run_files()
    assert len(files) > 400  # every corpus is there
    differ: dict[str, str] = {}
    for i, (rel, src) in enumerate(files):
        work = tmp_path / str(i)
        work.mkdir()
        path = work / src.name
        shutil.copyfile(src, path)
        os.utime(path, (1.0, 1.0))
        old = _read(path, work / "a", True)
        now = time.time()
        os.utime(path, (now, now))
        fresh = _read(path, work / "b", False)  # judged only when read differently (the verdict is the reading's)
        fresh = old if fresh[:3] == old[:3] else _read(path, work / "b2", True)
        live = _read_live(src, work / f"live_{src.name}", work / "c", _cuts(rel, src.stat().st_size), True)
        why = [f"{m}: {d}" for m, d in (("fresh", _differs(old, fresh)), ("in pieces", _differs(old, live))) if d]
        if why:
            differ[rel] = " | ".join(why)
        shutil.rmtree(work)
    print(f"\n{len(differ)} of {len(files)} corpus files read differently by age or read size")  # the figure (-s)
    new = {k: v for k, v in differ.items() if k not in KNOWN and k not in CACHE_DEPENDENT}
    fixed = sorted(k for k in KNOWN if k not in differ)
    assert not new, f"{len(new)} file(s) read differently by age or read size:\n" + "\n".join(
        f"{k}: {v}" for k, v in new.items())
    assert not fixed, f"read the same now, remove from KNOWN: {fixed}"


if __name__ == "__main__":  # pragma: no cover - the figure for a report
    pytest.main([__file__, "-q"])
