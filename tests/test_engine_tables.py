"""Issue 32, record kinds of the text-log engine: horizontal tables (a header naming columns, rows of numbers),
vertical tables (a block of ``| name | value |`` rows per iteration), counters at line start, and the model summary
that is no series. Each input is written as the library prints it (spaCy's ``spacy train``, stable-baselines3's
``verbose=1`` logger, catboost's ``verbose``, YOLOv5/ultralytics, Keras' ``model.summary()``, torchinfo), read by
the one engine through the real LogFileSource; and the same bytes read in any number of reads give the same
points."""

from __future__ import annotations

import json
import math
import os

import pytest
from training_check.tools.objective import assign_roles
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.engine import TextLogFormat
from training_check.tools.parsers.tables_text import SKIP, align, parse_header
from training_check.tools.roles import infer_role
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource


def _read(tmp_path, data: bytes, name: str = "train.log"):
    p = tmp_path / name
    p.write_bytes(data)
    os.utime(p, (1.0, 1.0))
    res = LogFileSource(LocalFileSystem(), str(p)).read(None)
    return res, {k: (c.steps.tolist(), c.values.tolist()) for k, c in res.batch.columns.items()}


def _in_reads(data: bytes, cuts: list[int]) -> dict[str, tuple[list[int], list[float]]]:
    """``data`` read in parts cut at the line starts ``cuts`` (each read a fresh emitter on the JSON state the read
    before left, as a cursor carries it): the points of all the reads, per metric."""
    out: dict[str, tuple[list[int], list[float]]] = {}
    state: dict = {}
    bounds = [0, *cuts, len(data)]
    for a, b in zip(bounds, bounds[1:], strict=False):
        if a == b:
            continue
        em = Emitter(state)
        fmt = TextLogFormat()
        fmt.parse_plain(data[a:b], em)
        fmt.finish(em)
        for k, c in em.build().columns.items():
            s, v = out.setdefault(k, ([], []))
            s.extend(c.steps.tolist())
            v.extend(c.values.tolist())
        state = json.loads(json.dumps(em.state))
    return out


def _line_starts(data: bytes) -> list[int]:
    return [i + 1 for i, c in enumerate(data[:-1]) if c == 10]


def _same_in_any_reads(data: bytes, every: int = 1) -> dict:
    whole = _in_reads(data, [])
    starts = _line_starts(data)
    for k in range(0, len(starts), every):  # one cut at every line start (a read ending there)
        assert _in_reads(data, [starts[k]]) == whole, f"one cut at byte {starts[k]}"
    assert _in_reads(data, starts[::3]) == whole  # many small reads
    return whole


# -- horizontal tables -------------------------------------------------------------------------------------------

def _spacy(rows: int, header_again: bool = False) -> bytes:
    out = ["\u2139 Saving to output directory: output", "\u2139 Using CPU", "",
           "=========================== Initializing pipeline ===========================",
           "\u2714 Initialized pipeline", "",
           "============================= Training pipeline =============================",
           "\u2139 Pipeline: ['tok2vec', 'textcat']", "\u2139 Initial learn rate: 0.001",
           "E    #       LOSS TOK2VEC  LOSS TEXTCAT  CATS_SCORE  SCORE ",
           "---  ------  ------------  ------------  ----------  ------"]
    for i in range(rows):
        out.append(f"{i // 8:>3}  {i * 200:>6}  {0.0:>12.2f}  {40 / (i + 1):>12.2f}  {50 + i:>10.2f}  "
                   f"{0.5 + i / 100:>6.2f}")
    out.append("\u2714 Saved pipeline to output directory")
    return ("\n".join(out) + "\n").encode()


def test_spacy_table_multi_word_columns_under_a_rule_at_the_hash_step(tmp_path):
    """``E    #       LOSS TOK2VEC  LOSS TEXTCAT  CATS_SCORE  SCORE``: a column's name is its words (one blank
    apart; columns two apart, the rule row under it gives them exactly); ``#`` is the step, ``E`` the epoch;
    ``CATS_SCORE`` is a column's name, not a config constant. spaCy sums a loss over the updates since the row
    before: the row at ``#`` 0 holds one update's, no point of a loss (its scores are)."""
    res, pts = _read(tmp_path, _spacy(30))
    assert res.cursor["format"] == "text"
    assert set(pts) == {"LOSS TOK2VEC", "LOSS TEXTCAT", "CATS_SCORE", "SCORE"}
    steps, values = pts["LOSS TEXTCAT"]
    assert steps == [200 * i for i in range(1, 30)] and values[0] == 20.0 and values[-1] == pytest.approx(1.33)
    assert pts["SCORE"][1][-1] == pytest.approx(0.79) and pts["CATS_SCORE"][1][0] == 50.0
    assert pts["SCORE"][0][0] == 0
    roles = assign_roles(list(pts))
    assert roles["LOSS TEXTCAT"].role == "train_loss"
    assert roles["SCORE"].direction == "max" and roles["CATS_SCORE"].direction == "max"


def test_a_header_printed_once_and_its_rows_in_later_reads(tmp_path):
    """The header is printed once; its rows come read after read (the header kept in the state, bounded): any cut
    of the bytes into reads gives the same points."""
    data = _spacy(40)
    whole = _same_in_any_reads(data)
    assert whole["LOSS TEXTCAT"][0] == [200 * i for i in range(1, 40)]


def test_header_then_rule_alone_in_one_read_then_rows():
    head, _, rows = _spacy(12).partition(b"------\n")
    got = _in_reads(head + b"------\n" + rows, [len(head) + 7])
    assert got["SCORE"][0] == [200 * i for i in range(12)]


def test_bordered_table_with_ansi_cells_and_rows_between_bar_redraws(tmp_path):
    """A PrettyTable-style grid (``+-----+`` rules, ``|`` borders) redrawn whole each epoch (its earlier rows again),
    colour codes around every cell, and tqdm bars redrawn with ``\\r`` between the tables: one point per row, at
    its step column."""
    out = []
    rows: list[str] = []
    for e in range(1, 7):
        out.append("".join(f"\r{p:3d}%|#####     | {p // 10}/10 [00:01<00:00, 9.1it/s]" for p in (10, 50, 100))
                   + "\n")
        rows.append(f"| \x1b[36m{e * 10:^5}\x1b[0m | \x1b[32m{1 / e:^10.4f}\x1b[0m | {1.2 / e + 0.1:^8.4f} |")
        rule = "+-------+------------+----------+"
        out.append("\n".join([rule, "| step  | train_loss | val_loss |", rule, *rows, rule]) + "\n")
    res, pts = _read(tmp_path, "".join(out).encode())
    assert pts["train_loss"][0] == [10, 20, 30, 40, 50, 60]
    assert pts["train_loss"][1][-1] == pytest.approx(1 / 6, abs=1e-4)
    assert pts["val_loss"][1][0] == pytest.approx(1.3)


def test_cells_that_are_no_numbers_are_skipped_and_a_counter_is_the_epoch(tmp_path):
    """``1/100`` under Epoch is the epoch and its count, ``3.2G`` a number with its unit, a time ``0:01:02`` no
    metric; with no step column named, the rows sit at the epoch."""
    out = ["   Epoch   GPU_mem      time      loss    lr"]
    for e in range(1, 11):
        out.append(f"{e:>4}/100     3.2G   0:0{e - 1}:02    {2 / e:.4f}  0.01")
    res, pts = _read(tmp_path, ("\n".join(out) + "\n").encode())
    assert set(pts) == {"GPU_mem", "loss", "lr"}
    assert pts["loss"][0] == list(range(1, 11)) and pts["GPU_mem"][1][0] == 3.2


def test_without_a_step_column_the_increasing_integer_column_is_the_step(tmp_path):
    out = ["run  updates  train_loss  val_acc", "---  -------  ----------  -------"]
    for i in range(1, 16):
        out.append(f"  7  {i * 50:>7}  {3 / i:>10.4f}  {0.1 + i / 50:>7.3f}")
    res, pts = _read(tmp_path, ("\n".join(out) + "\n").encode())
    assert pts["train_loss"][0] == [50 * i for i in range(1, 16)]
    assert "run" not in pts and "updates" not in pts


def test_rows_with_empty_columns_go_to_the_columns_they_sit_under(tmp_path):
    """Evaluation columns printed only every few rows: a short row's cells go to the columns their characters
    overlap (``val_loss`` is never read from a train-only row)."""
    out = ["step  train_loss  val_loss  val_acc"]
    for i in range(1, 21):
        row = f"{i * 10:>4}  {2.3 - i / 20:>10.4f}"
        if i % 5 == 0:
            row += f"  {2.4 - i / 25:>8.3f}  {0.2 + i / 50:>7.3f}"
        out.append(row)
    res, pts = _read(tmp_path, ("\n".join(out) + "\n").encode())
    assert pts["train_loss"][0] == [10 * i for i in range(1, 21)]
    assert pts["val_loss"][0] == [50, 100, 150, 200] and pts["val_acc"][1][-1] == pytest.approx(0.6)


def test_header_parsing_and_alignment_of_rows_wider_than_the_header():
    cols = parse_header(b"Step   Training Loss   Validation Loss   Accuracy")
    assert [c[0] for c in cols] == ["Step", "Training Loss", "Validation Loss", "Accuracy"]
    # a row with a time between the columns: the cells still go to the columns they sit under
    names = align(cols, [b" 500   0.4123          0.5234            0.81       0:00:12"])
    assert names[:4] == ["Step", "Training Loss", "Validation Loss", "Accuracy"] and names[4] == ""
    assert parse_header(b"Starting training for 300 epochs...") is None
    assert parse_header(b"loss=0.5  acc=0.9  step=3") is None
    assert parse_header(b"\xe2\x94\x82 epoch \xe2\x94\x82 loss \xe2\x94\x82 acc \xe2\x94\x82") is not None


# -- model summaries: no series -------------------------------------------------------------------------------

YOLOV5_SUMMARY = """\
                 from  n    params  module                                  arguments
  0                -1  1      3520  models.common.Conv                      [3, 32, 6, 2, 2]
  1                -1  1     18560  models.common.Conv                      [32, 64, 3, 2]
  2                -1  1     18816  models.common.C3                        [64, 64, 1]
  3                -1  1     73984  models.common.Conv                      [64, 128, 3, 2]
  4                -1  2    115712  models.common.C3                        [128, 128, 2]
  5                -1  1    295424  models.common.Conv                      [128, 256, 3, 2]
  6                -1  3    625152  models.common.C3                        [256, 256, 3]
  7                -1  1   1180672  models.common.Conv                      [256, 512, 3, 2]
  8                -1  1   1182720  models.common.C3                        [512, 512, 1]
  9                -1  1    656896  models.common.SPPF                      [512, 512, 5]
 10                -1  1    131584  models.common.Conv                      [512, 256, 1, 1]
 11                -1  1         0  torch.nn.modules.upsampling.Upsample    [None, 2, 'nearest']
 12           [-1, 6]  1         0  models.common.Concat                    [1]
 13                -1  1    361984  models.common.C3                        [512, 256, 1, False]
Model summary: 214 layers, 7235389 parameters, 7235389 gradients, 16.6 GFLOPs
"""

KERAS_SUMMARY = """\
Model: "sequential"
\u250f\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2533\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2533\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2513
\u2503 Layer (type)       \u2503 Output Shape  \u2503   Param # \u2503
\u2521\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2547\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2547\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2529
\u2502 dense (Dense)      \u2502 (None, 64)    \u2502     1,344 \u2502
\u251c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u253c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u253c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2524
\u2502 dense_1 (Dense)    \u2502 (None, 64)    \u2502     4,160 \u2502
\u251c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u253c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u253c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2524
\u2502 dense_2 (Dense)    \u2502 (None, 1)     \u2502        65 \u2502
\u2514\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2534\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2534\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2518
 Total params: 5,569 (21.75 KB)
 Trainable params: 5,569 (21.75 KB)
 Non-trainable params: 0 (0.00 B)
"""

TORCHINFO = """\
==========================================================================================
Layer (type:depth-idx)                   Output Shape              Param #
==========================================================================================
Net                                      [1, 10]                   --
\u251c\u2500Linear: 1-1                            [1, 128]                  100,480
\u251c\u2500ReLU: 1-2                              [1, 128]                  --
\u251c\u2500Linear: 1-3                            [1, 128]                  16,512
\u251c\u2500ReLU: 1-4                              [1, 128]                  --
\u251c\u2500Linear: 1-5                            [1, 10]                   1,290
==========================================================================================
Total params: 118,282
Trainable params: 118,282
"""


@pytest.mark.parametrize("summary", [YOLOV5_SUMMARY, KERAS_SUMMARY, TORCHINFO], ids=["yolov5", "keras", "torchinfo"])
def test_a_model_summary_is_no_series_and_the_training_after_it_is_read(tmp_path, summary):
    train = "".join(f"step {i} loss {2 / i:.4f}\n" for i in range(1, 30))
    res, pts = _read(tmp_path, (summary * 2 + train).encode())
    assert set(pts) == {"loss"}, sorted(pts)
    assert pts["loss"][0] == list(range(1, 30))


def test_a_summary_header_names_no_series():
    assert parse_header(b"                 from  n    params  module                                  arguments")
    from training_check.tools.parsers.tables_text import is_summary

    assert is_summary(parse_header(b"  | Name  | Type   | Params | Mode"))
    assert SKIP != [""]


def test_yolov5_summary_then_its_training_table(tmp_path):
    out = [YOLOV5_SUMMARY]
    for e in range(5):
        out.append("      Epoch    GPU_mem   box_loss   obj_loss   cls_loss  Instances       Size\n")
        out.append(f"        {e}/4         0G    {0.1 - e * 0.01:.5f}    {0.05 - e * 0.003:.5f}    "
                   f"{0.03 - e * 0.002:.5f}         45        640: 100%|##########| 8/8 [00:01<00:00,  1.57s/it]\n")
        out.append("                 Class     Images  Instances          P          R      mAP50   mAP50-95: "
                   "100%|##########| 1/1 [00:00<00:00,  2.00it/s]\n")
        out.append(f"                   all        128        929      {0.6 + e / 100:.3f}      {0.5 + e / 100:.3f}"
                   f"      {0.55 + e / 100:.3f}      {0.35 + e / 100:.3f}\n")
    res, pts = _read(tmp_path, "".join(out).encode())
    assert not [k for k in pts if "models" in k or "Conv" in k]
    assert pts["box_loss"][0] == [0, 1, 2, 3, 4]  # the epoch column ``0/4``: YOLOv5's results.csv counts from 0
    assert pts["val/mAP50-95"][1] == pytest.approx([0.35, 0.36, 0.37, 0.38, 0.39])


def _ultralytics(epochs: int, batches: int = 8) -> bytes:
    """ultralytics 8.4 (``yolo train``, stdout redirected): per epoch a header, the row redrawn by its own bar after
    ``\\r\\x1b[K`` at each batch (0/8 first; the last redraw, at 8/8, holds the epoch's mean losses, which
    results.csv keeps), then the validation table whose ``Box(P  R  mAP50  mAP50-95):`` heads four columns."""
    bar = "\u2501" * 12
    out = [f"Starting training for {epochs} epochs..."]
    for e in range(1, epochs + 1):
        out += ["", "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size"]
        rates = ["  0.8s", " 1.8s/it 1.3s<12.4s"] + [" 2.3it/s 2.7s<1.3s"] * batches  # as the bar prints them
        redraws = [f"\r\x1b[K       {e}/{epochs}         0G      {1.2 - e / 20 + n / 100:.4g}      "
                   f"{1.5 - e / 20 + n / 50:.4g}     {1.3 - e / 30:.4g}         {20 + n}         64: "
                   f"{n * 100 // batches}% {bar} {n}/{batches}{rates[n]}" for n in range(batches + 1)]
        redraws.append(redraws[-1].replace("<1.3s", ""))  # the bar closing: the 100% state drawn once more
        out.append("".join(redraws))
        out.append(f"\r\x1b[K                 Class     Images  Instances      Box(P          R      mAP50  "
                   f"mAP50-95): 100% {bar} 1/1 7.0it/s 0.1s")
        out.append(f"                   all          8         11      {0.6 + e / 100:.3g}      {0.5 + e / 100:.3g}"
                   f"      {0.55 + e / 100:.3g}      {0.4 + e / 100:.3g}")
    return ("\n".join(out) + "\n").encode()


def test_ultralytics_bar_rows_are_one_point_an_epoch_at_the_epoch_cell(tmp_path):
    """The row's epoch cell ``n/N`` under ``Epoch`` is its step (results.csv's ``epoch``); the bar's batch counter
    ``8/8`` is no step: the redraws of one epoch are one point, the last redraw's (the epoch's mean)."""
    res, pts = _read(tmp_path, _ultralytics(5))
    assert pts["box_loss"] == ([1, 2, 3, 4, 5], pytest.approx([float(f"{1.2 - e / 20 + 0.08:.4g}")
                                                               for e in range(1, 6)]))
    assert pts["cls_loss"][1] == pytest.approx([float(f"{1.5 - e / 20 + 0.16:.4g}") for e in range(1, 6)])
    assert pts["val/mAP50-95"] == ([1, 2, 3, 4, 5], pytest.approx([0.41, 0.42, 0.43, 0.44, 0.45]))
    assert {"val/P", "val/R", "val/mAP50"} <= set(pts)


def test_ultralytics_rows_read_live_between_redraws_give_the_same_points():
    """A live read stops after any ``\\r`` (a redraw is a record): the redraw shown last is drawn again, so the epoch's
    point waits for its last redraw; reads cut anywhere give the points of one read."""
    data = _ultralytics(3, batches=4)
    whole = _in_reads(data, [])
    assert whole["box_loss"][0] == [1, 2, 3]
    crs = [i + 1 for i, c in enumerate(data) if c == 13]
    for cut in crs:
        assert _in_reads(data, [cut]) == whole, f"a read ending at byte {cut}"
    assert _in_reads(data, crs[::3]) == whole


# -- vertical tables ------------------------------------------------------------------------------------------

def _sb3(iterations: int) -> bytes:
    """stable-baselines3's PPO with ``verbose=1`` (its ``HumanOutputFormat``: keys sorted within a section, the
    section's name alone on a row, both columns padded to the widest, a border of dashes)."""
    out = ["Using cpu device", "Wrapping the env with a `Monitor` wrapper", "Wrapping the env in a DummyVecEnv."]
    for it in range(1, iterations + 1):
        rows = [("rollout/", ""), ("   ep_len_mean", f"{20 + it:.3g}"), ("   ep_rew_mean", f"{20 + it * 1.5:.3g}"),
                ("time/", ""), ("   fps", str(1000 + it)), ("   iterations", str(it)),
                ("   time_elapsed", str(it * 2)), ("   total_timesteps", str(it * 2048))]
        if it > 1:
            rows += [("train/", ""), ("   approx_kl", f"{0.01 / it:.7g}"), ("   clip_fraction", "0.102"),
                     ("   entropy_loss", f"{-0.69 + it / 100:.3g}"), ("   explained_variance", f"{it / 30:.3g}"),
                     ("   learning_rate", "0.0003"), ("   loss", f"{6.31 / it:.3g}" if it != 7 else "nan"),
                     ("   n_updates", str(10 * (it - 1))), ("   policy_gradient_loss", "-0.0168"),
                     ("   value_loss", f"{50.6 / it:.3g}")]
        w1 = max(len(r[0]) for r in rows) + 1
        w2 = max(len(r[1]) for r in rows) + 1
        border = "-" * (w1 + w2 + 5)
        out.append(border)
        out.extend(f"| {k:<{w1}}| {v:<{w2}}|" for k, v in rows)
        out.append(border)
    return ("\n".join(out) + "\n").encode()


def test_stable_baselines3_blocks_one_record_each_at_total_timesteps(tmp_path):
    res, pts = _read(tmp_path, _sb3(12))
    assert any("total_timesteps" in n for n in res.notes)
    steps, values = pts["rollout/ep_rew_mean"]
    assert steps == [2048 * i for i in range(1, 13)] and values[0] == 21.5
    assert pts["train/loss"][0] == [2048 * i for i in range(2, 13)] and math.isnan(pts["train/loss"][1][5])
    assert "time/fps" in pts and "train/value_loss" in pts and "fps" not in pts
    assert infer_role("rollout/ep_rew_mean").direction == "max"


def test_vertical_tables_read_alike_in_any_reads():
    whole = _same_in_any_reads(_sb3(6))
    assert whole["rollout/ep_len_mean"][0] == [2048 * i for i in range(1, 7)]


def test_a_block_of_settings_is_no_series_and_a_growing_row_is_a_step(tmp_path):
    """llm.c prints its settings as one vertical table (no step row): no point. Blocks with no step row
    by name but a whole number that grows block after block are read at it."""
    settings = ["+-----------------------+----------------------------------------------------+",
                "| Parameter             | Value                                              |",
                "+-----------------------+----------------------------------------------------+",
                "| learning rate (LR)    | 6.000000e-04                                       |",
                "| warmup iterations     | 700                                                |",
                "| val_loss_every        | 250                                                |",
                "+-----------------------+----------------------------------------------------+"]
    train = [f"step {i:4d}/100 | train loss {3 / i:.6f} | norm 1.0 | lr 6.00e-04" for i in range(1, 40)]
    res, pts = _read(tmp_path, ("\n".join(settings + train) + "\n").encode())
    assert set(pts) == {"train loss", "grad_norm", "lr"} and res.notes == []
    out = []
    for i in range(1, 6):
        out += ["-" * 24, f"| loss       | {1 / i:<8.4f}|", f"| seen       | {i * 640:<8d}|", "-" * 24]
    res, pts = _read(tmp_path, ("\n".join(out) + "\n").encode(), "blocks.log")
    assert pts["loss"][0] == [640 * i for i in range(1, 6)] and any("at its seen" in n for n in res.notes)


def _ray_result(it: int, loss: float) -> list[str]:
    rows = [("checkpoint_dir_name", ""), ("time_this_iter_s", f"{1.2 + it / 100:.5f}"),
            ("time_total_s", f"{1.2 * it:.5f}"), ("training_iteration", str(it)), ("loss", f"{loss:.5f}"),
            ("accuracy", f"{0.5 + it / 100:.5f}")]
    w = 40
    out = [f"Training finished iteration {it} at 2026-12-05 15:0{it % 10}:00. Total running time: {it * 1.2:.1f}s",
           "\u256d" + "\u2500" * w + "\u256e", "\u2502 Training result" + " " * (w - 16) + "\u2502",
           "\u251c" + "\u2500" * w + "\u2524"]
    out += [f"\u2502 {k:<24}{v:>{w - 26}} \u2502" for k, v in rows]
    out.append("\u2570" + "\u2500" * w + "\u256f")
    return out


def test_ray_train_result_boxes_one_record_each_at_training_iteration(tmp_path):
    """Ray Train/Tune's result box (``│ training_iteration   3 │`` rows between rounded borders): one record per
    box, at its ``training_iteration``; a row with no value (``checkpoint_dir_name``) is no section."""
    out = ["Training started with configuration:"]
    for it in range(1, 13):
        out += _ray_result(it, 2 / it)
    res, pts = _read(tmp_path, ("\n".join(out) + "\n").encode())
    assert pts["loss"][0] == list(range(1, 13)) and pts["loss"][1][-1] == pytest.approx(2 / 12, abs=1e-5)
    assert "accuracy" in pts and not [k for k in pts if "/" in k]
    whole = _same_in_any_reads(("\n".join(out) + "\n").encode(), every=3)
    assert whole["loss"][0] == list(range(1, 13))


# -- counters at line start -----------------------------------------------------------------------------------

def test_catboost_iteration_at_line_start_is_the_step(tmp_path):
    """``0:\\tlearn: 0.69\\ttest: 0.70\\tbest: 0.70 (0)\\ttotal: 57ms\\tremaining: 57s`` every ``verbose`` iterations:
    the step is the printed iteration; ``best`` is a report of another point, the times are no metrics."""
    out = ["Learning rate set to 0.5"]
    for i in [*range(0, 100, 10), 99]:
        out.append(f"{i}:\tlearn: {0.69 / (1 + i / 20):.7f}\ttest: {0.70 / (1 + i / 25):.7f}\tbest: "
                   f"{0.70 / (1 + i / 25):.7f} ({i})\ttotal: {i * 5 + 57}ms\tremaining: {(100 - i) * 5}ms")
    out += ["", "bestTest = 0.2", "bestIteration = 99", "", "Shrink model to first 100 iterations."]
    res, pts = _read(tmp_path, ("\n".join(out) + "\n").encode())
    assert set(pts) == {"train_loss", "test_loss"}
    assert pts["train_loss"][0] == [*range(0, 100, 10), 99] and pts["train_loss"][1][0] == 0.69


# -- real runs (tests/fixtures/records, made by its generate.py) -----------------------------------------------

RECORDS = os.path.join(os.path.dirname(__file__), "fixtures", "records")


@pytest.mark.parametrize("run", ["sb3_ppo", "sb3_a2c", "sb3_dqn"])
def test_stable_baselines3_stdout_read_as_its_csv_logger_writes_it(tmp_path, run):
    """Every value its stdout logger printed, at ``time/total_timesteps``, equals its CSV logger's (to the printed
    precision: three significant digits)."""
    import pandas as pd

    folder = os.path.join(RECORDS, run)
    res, pts = _read(tmp_path, open(os.path.join(folder, "train.log"), "rb").read())
    truth = pd.read_csv(os.path.join(folder, "progress.csv"))
    steps = truth["time/total_timesteps"].astype(int)
    assert set(pts) == set(truth.columns)
    for key in truth.columns:
        col = truth[key]
        want_steps = steps[col.notna()].tolist()
        assert pts[key][0] == want_steps, key
        assert pts[key][1] == pytest.approx(col.dropna().tolist(), rel=6e-3, abs=1e-9), key
    roles = assign_roles(list(pts))
    assert roles["rollout/ep_rew_mean"].direction == "max"


def test_catboost_stdout_read_at_its_iterations_as_its_error_files_say(tmp_path):
    import pandas as pd

    folder = os.path.join(RECORDS, "catboost_logloss")
    res, pts = _read(tmp_path, open(os.path.join(folder, "train.log"), "rb").read())
    learn = pd.read_csv(os.path.join(folder, "learn_error.tsv"), sep="\t").set_index("iter")["Logloss"]
    test = pd.read_csv(os.path.join(folder, "test_error.tsv"), sep="\t").set_index("iter")["Logloss"]
    steps, values = pts["train_loss"]
    assert steps == [*range(0, 200, 10), 199]
    assert values == pytest.approx(learn.loc[steps].tolist(), abs=1e-7)
    assert pts["test_loss"][1] == pytest.approx(test.loc[steps].tolist(), abs=1e-7)
    assert set(pts) == {"train_loss", "test_loss"}


def test_spacy_textcat_table_as_printed(tmp_path):
    res, pts = _read(tmp_path, open(os.path.join(RECORDS, "spacy_textcat", "train.log"), "rb").read())
    assert set(pts) == {"LOSS TEXTCAT", "CATS_SCORE", "SCORE"}
    steps, values = pts["LOSS TEXTCAT"]
    assert steps == list(range(25, 601, 25)) and values[:2] == [5.01, 3.08]
    from training_check.tools.frame import MetricFrame

    assert MetricFrame.from_batch(res.batch).primary_loss == "LOSS TEXTCAT"
