"""Shapes read alike whole and in pieces (examples/libraries_holdout82 and 83; fixdet).

- A live display's record drawn right above its bar's line (torchfitter's ``loss -> Train: ... | Validation: ...``
  over ``Epoch 3/15 • ━━━ • 100% • 0:00:00``): the records are at their bar's epoch, so the run is counted in epochs
  and its planned length is the bars' ``N``, said by a read of the whole file as by reads of its pieces.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from .conftest import REPO
from .test_read_determinism import _differs, _read, _read_live
from .test_read_misses import whole_and_pieces, whole_as_live

_BAR = "━" * 40


def _display(rng: random.Random, epochs: int, every: int = 1) -> bytes:
    """A rich live display: a metrics line right above an ``Epoch n/N`` bar line, redrawn every ``every`` epochs."""
    out = ["INFO:ProgressBar:[RANK 0] Starting training process on cpu", ""]
    loss, lr = rng.uniform(2.0, 8.0), 0.05
    for e in range(1, epochs + 1):
        loss *= rng.uniform(0.7, 0.98)
        lr *= 1.2
        if e % every and e != epochs:
            continue
        out += ["INFO:ProgressBar:[RANK 0] ",
                f"loss -> Train: {loss:.2e} | Validation: {loss * 1.1:.2e} • Learning Rate: {lr}",
                f"Epoch {e}/{epochs} • {_BAR} • 100% • 0:00:00"]
    return ("\n".join(out) + "\n").encode()


def _alike(tmp_path: Path, data: bytes, name: str, cuts: list[int]) -> tuple:
    """The reading (points, notes, planned length, verdict) of ``data`` whole, checked equal to its reading in
    pieces cut at ``cuts``."""
    src = tmp_path / f"src_{name}"
    src.write_bytes(data)
    whole = _read(src, tmp_path / f"w_{name}", True)
    live = _read_live(src, tmp_path / f"live_{name}", tmp_path / f"l_{name}", cuts, True)
    assert not _differs(whole, live), (name, cuts, _differs(whole, live))
    return whole


@pytest.mark.parametrize("seed", range(3))
def test_a_display_records_run_is_counted_in_its_bars_epochs_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    epochs = rng.choice((12, 15, 24, 30))
    every = 1 if seed == 0 else rng.choice((2, 3))
    data = _display(rng, epochs, every)
    pts = whole_as_live(tmp_path, data, f"d{seed}")
    whole_and_pieces(tmp_path, data, f"p{seed}", seed=seed)
    assert pts
    for t in range(3):
        cuts = sorted(rng.sample(range(1, len(data)), 2 + 2 * t))
        assert _alike(tmp_path, data, f"r{seed}_{t}", cuts)[2] == epochs


HOLDOUT83 = REPO / "examples" / "libraries_holdout83"


@pytest.mark.parametrize(("run", "planned"), [("torchfitter_cls_rmsprop_lr_growth_bar_diverged", 15),
                                             ("torchfitter_reg_adam_exp09_log2_bar4_24ep", 24)])
def test_holdout83_display_runs_say_their_planned_epochs_whole_and_in_pieces(tmp_path, run, planned):
    data = (HOLDOUT83 / run / "train.log").read_bytes()
    rng = random.Random(run)
    whole_as_live(tmp_path, data, run)
    assert _alike(tmp_path, data, run, sorted(rng.sample(range(1, len(data)), 4)))[2] == planned
