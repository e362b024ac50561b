"""A counter taken for a call's setting while its value stayed (``setting_counters``: the same ``epoch`` before
every record over 3 calls) that a later read sees move is a real epoch after all: the file is read again from its
start knowing it, so a log read in pieces reads as one read of it (libraries_holdout12's chainer JSON log, its first
records all under ``"epoch": 0``; libraries_holdout52's PyTorch-BigGraph, 6 chunks an epoch under ``Starting epoch 1 /
4``: read at one or two steps in pieces before)."""

from __future__ import annotations

import json
import random

import pytest

from .conftest import REPO
from .test_read_misses import whole_as_live


def _pretty_json(epochs: int, per_epoch: int, seed: int) -> bytes:
    rng = random.Random(seed)
    rows = [{"main/loss": 7.0 / (1 + 0.05 * i) + rng.uniform(0, 0.1), "epoch": i // per_epoch,
             "iteration": 5 * (i + 1), "elapsed_time": 0.001 * (i + 1)} for i in range(epochs * per_epoch)]
    return json.dumps(rows, indent=4).encode()


def _chunks(epochs: int, chunks: int, seed: int) -> bytes:
    rng = random.Random(seed)
    out = []
    for e in range(1, epochs + 1):
        for c in range(1, chunks + 1):
            out.append(f"2026-12-06 22:40:40,533   [Trainer-0] Starting epoch {e} / {epochs}, edge path 1 / 1, "
                       f"edge chunk {c} / {chunks}")
            out.append("2026-12-06 22:40:40,536   [Trainer-0] Swapping partitioned embeddings None ( 0 , 0 )")
            loss = 900 / (e + c / 10) + rng.uniform(0, 5)
            out.append(f"2026-12-06 22:40:41,965   [Trainer-0] Stats: loss:  {loss:.2f}"
                       f" , reg:  0.000 , violators_lhs:  {rng.randint(10, 90)} , count:  6000")
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize("seed", range(3))
def test_a_pretty_json_log_whose_epoch_moves_later(tmp_path, seed):
    data = _pretty_json(4 + seed, 4, seed)
    first_epoch_end = data.index(b'"epoch": 1')
    pts = whole_as_live(tmp_path, data, f"pj{seed}", cuts=(first_epoch_end * 0.8 / len(data), 0.6, 0.9))
    assert len(pts["main/loss"][0]) == (4 + seed) * 4


@pytest.mark.parametrize("seed", range(3))
def test_chunks_under_an_epoch_banner(tmp_path, seed):
    data = _chunks(3 + seed, 5 + seed, seed)
    first_epoch_end = data.index(b"Starting epoch 2 ")
    pts = whole_as_live(tmp_path, data, f"ch{seed}", cuts=(first_epoch_end * 0.9 / len(data), 0.7))
    assert len(pts["loss"][0]) == (3 + seed) * (5 + seed)


@pytest.mark.parametrize("rel", ["libraries_holdout12/chainer_reg_adam_iter5_6ep/log",
                                 "libraries_holdout52/pbg_softmax_lr_high_6chunks_diverged/train.log",
                                 "libraries_holdout52/pbg_logistic_lr_high_6chunks_diverged/train.log"])
def test_the_corpus_files(tmp_path, rel):
    data = (REPO / "examples" / rel).read_bytes()
    whole_as_live(tmp_path, data, rel.replace("/", "_"), cuts=(0.05, 0.12, 0.3, 0.6))
