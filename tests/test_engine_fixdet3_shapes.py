"""Shapes read alike whole and in pieces (examples/libraries_holdout71's modelscope; fixdet3).

- A logger's line right under a progress bar described by words (modelscope's evaluation bar ``Total test samples:
  100%|| 64/64 [...]`` then ``2026-12-07 08:28:12,984 - modelscope - INFO - Saving checkpoint at 1 epoch``): the
  bar's words name the row below only as a table's header drawing its bar does, cell for cell (YOLOv5's ``Class
  Images ... mAP50-95: 100%||`` over ``all 128 929 ...``). A logger's line of other cells is no row of theirs: read
  whole, its clock was a ``test_loss`` series (the bar's ``test``), which a read starting at that line never read.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from .conftest import REPO
from .test_engine_fixdet2_shapes import _alike
from .test_read_misses import whole_and_pieces, whole_as_live


def _modelscope(rng: random.Random, epochs: int, iters: int, every: int) -> bytes:
    """A modelscope trainer's log: per epoch its iteration records, the evaluation's bar, the checkpoint line and
    the evaluation's record, each logger line with its clock."""
    out, ms, loss = ["2026-12-07 08:28:12,343 - modelscope - INFO - Checkpoints will be saved to /tmp/work"], 350, 3.0
    block = "\u2588" * 10

    def clock() -> str:
        nonlocal ms
        ms += rng.randint(1, 600)
        return f"2026-12-07 08:{28 + ms // 60000:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"

    for e in range(1, epochs + 1):
        for i in range(every, iters + 1, every):
            loss *= rng.uniform(0.7, 1.02)
            out.append(f"{clock()} - modelscope - INFO - epoch [{e}][{i}/{iters}]\tlr: 5.000e-02, eta: 0:00:00, "
                       f"iter_time: 0.00{rng.randint(0, 2)}, data_load_time: 0.000, loss: {loss:.4f}")
        out.append(f"\rTotal test samples:   0%|          | 0/64 [00:00<?, ?it/s]\rTotal test samples: 100%|{block}| "
                   f"64/64 [00:00<00:00, {rng.uniform(9000, 99000):.2f}it/s]")
        out.append(f"{clock()} - modelscope - INFO - Saving checkpoint at {e} epoch")
        out.append(f"{clock()} - modelscope - INFO - epoch(eval) [{e}][2]\tevaluation/loss: {loss * 0.9:.4f}")
    out.append(f"{clock()} - modelscope - INFO - Train finished. Uploading models, waiting...")
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize("seed", range(3))
def test_a_logger_line_under_a_bar_of_words_is_no_row_of_its_header(tmp_path, seed):
    rng = random.Random(seed)
    data = _modelscope(rng, rng.choice((4, 6, 8)), 16, rng.choice((4, 8)))
    whole = whole_as_live(tmp_path, data, f"m{seed}")
    assert not any("test" in k for k in whole), sorted(whole)  # the clock is no test loss
    whole_and_pieces(tmp_path, data, f"mp{seed}", seed=seed)
    for t in range(3):
        cuts = sorted(rng.sample(range(1, len(data)), 2 + 2 * t))
        _alike(tmp_path, data, f"mr{seed}_{t}", cuts)


@pytest.mark.parametrize("name", ["modelscope_reg_adam_byiter_8ep", "modelscope_reg_sgd_val_6ep",
                                  "modelscope_cls_adam_lr_growth_diverged", "modelscope_reg_adamw_b8_exp_decay_5ep"])
def test_modelscope_corpus_files_read_alike(tmp_path, name):
    data = (REPO / "examples" / "libraries_holdout71" / name / "train.log").read_bytes()
    whole = whole_as_live(tmp_path, data, name)
    assert "loss" in whole and not any(k.startswith("test") for k in whole)
    rng = random.Random(name)
    for t in range(3):
        cuts = sorted(rng.sample(range(1, len(data)), 2 + 2 * t))
        _alike(tmp_path, data, f"{name}_{t}", cuts)


def test_a_bar_headers_row_cell_for_cell_is_still_named(tmp_path: Path):
    """YOLOv5's validation table: its header drawing the bar names the row below it (the same count of cells)."""
    lines = []
    for e in range(3):
        lines.append(f"      {e}/2     1.2G    0.05{e}    0.02{e}    0.01{e}        12       640: 100%|##########| 8/8")
        lines.append("               Class     Images  Instances          P          R      mAP50   mAP50-95: "
                     "100%|##########| 1/1")
        lines.append(f"                 all        128        929      0.{6 + e}1      0.5{e}      0.6{e}      0.4{e}")
    data = ("\n".join(lines) + "\n").encode()
    whole = whole_as_live(tmp_path, data, "yolo")
    assert any("mAP50" in k for k in whole), sorted(whole)
