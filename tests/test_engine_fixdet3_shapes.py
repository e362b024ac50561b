"""Shapes read alike whole and in pieces (examples/libraries_holdout71's modelscope, libraries_holdout44's eole;
fixdet3).

- A logger's line right under a progress bar described by words (modelscope's evaluation bar ``Total test samples:
  100%|| 64/64 [...]`` then ``2026-12-07 08:28:12,984 - modelscope - INFO - Saving checkpoint at 1 epoch``): the
  bar's words name the row below only as a table's header drawing its bar does, cell for cell (YOLOv5's ``Class
  Images ... mAP50-95: 100%||`` over ``all 128 929 ...``). A logger's line of other cells is no row of theirs: read
  whole, its clock was a ``test_loss`` series (the bar's ``test``), which a read starting at that line never read.
- Two rates around a ``/`` (eole's and OpenNMT's ``5060/5992 tok/s``: source and target tokens a second) are no
  progress count ``n/N`` (``fields._rate_after``): taken for one, the records after an evaluation's lines sat at the
  rate a read's last record printed (``Train perplexity`` at step 16561), or at the step, by where the reads fell.
"""

from __future__ import annotations

import random
import re
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


def _eole(rng: random.Random, steps: int, every: int, valid: int) -> bytes:
    """An eole (OpenNMT-py) training log: ``Step n/ N; acc: ...; ... a/b tok/s; s sec;`` records, and every
    ``valid`` steps the train and validation statistics, one a line, and a corpus reload block now and then."""
    out = ["[2026-12-06 18:50:27,837 INFO] Start training loop and validate every 200 steps..."]
    t, acc, ppl = 1, 10.0, 24.0
    for s in range(every, steps + 1, every):
        acc, ppl = min(99.0, acc * rng.uniform(1.0, 1.15)), max(1.1, ppl * rng.uniform(0.8, 1.02))
        src = rng.randint(4000, 17000)
        out.append(f"[2026-12-06 18:50:28,{s % 1000:03d} INFO] Step {s}/{steps:>5}; acc: {acc:.1f}; ppl: {ppl:5.2f}; "
                   f"xent: {rng.uniform(1, 3):.2f}; lr: 1.00e-02; sents:     640; bsz:  {rng.randint(170, 250)}/ "
                   f"{rng.randint(200, 280)}/32; {src}/{src + rng.randint(500, 2500)} tok/s; {1 + s // 60:>6} sec;")
        if rng.random() < 0.2:
            t += 1
            out += ["[2026-12-06 18:50:29,178 INFO] Weighted corpora loaded so far:", f"\t\t\t* corpus_1: {t}"]
        if s % valid == 0:
            out += ["[2026-12-06 18:50:31,881 INFO] valid stats calculation",
                    f"[2026-12-06 18:50:31,881 INFO] Train perplexity: {ppl * 1.3:.4f}",
                    f"[2026-12-06 18:50:31,881 INFO] Train accuracy: {acc * 0.8:.4f}",
                    f"[2026-12-06 18:50:31,881 INFO] Validation perplexity: {ppl * 1.1:.4f}",
                    f"[2026-12-06 18:50:31,881 INFO] Validation accuracy: {acc * 0.9:.4f}"]
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize("seed", range(3))
def test_two_rates_around_a_slash_are_no_progress_count(tmp_path, seed):
    rng = random.Random(seed)
    steps, every = rng.choice(((400, 20), (300, 10), (200, 10)))
    valid = steps // 2
    data = _eole(rng, steps, every, valid)
    # cut within the step records (mid-line too), a rate's pair among them: a cut between an evaluation's lines
    # (``Train perplexity`` read at a read's end, the rest in the next) is a shape left (tests/test_read_determinism)
    at = [m.start() for m in re.finditer(rb"Step \d+/", data)]
    ends = [data.index(b"\n", a) for a in at]
    for t in range(4):
        cuts = sorted({rng.randrange(a, e) for a, e in rng.sample(list(zip(at, ends, strict=True)), 2 + 2 * t)})
        whole = _alike(tmp_path, data, f"er{seed}_{t}", cuts)
        assert sorted(whole[0]["Validation perplexity"]) == [valid, steps], whole[0]["Validation perplexity"]


@pytest.mark.parametrize("name", ["eole_rnn_reverse_val_300st", "eole_transformer_adam_b64_val_200st",
                                  "eole_transformer_noam_val_400st"])
def test_eole_corpus_files_read_alike(tmp_path, name):
    data = (REPO / "examples" / "libraries_holdout44" / name / "train.log").read_bytes()
    whole_and_pieces(tmp_path, data, name)
    rng = random.Random(name)
    for t in range(3):
        cuts = sorted(rng.sample(range(1, len(data)), 2 + 2 * t))
        _alike(tmp_path, data, f"{name}_{t}", cuts)
