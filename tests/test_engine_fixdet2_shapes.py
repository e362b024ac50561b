"""Shapes read alike whole and in pieces (examples/libraries_holdout30's keras-tuner, libraries_holdout79's nequip;
fixdet2).

- A search printing its trials one after the other into one log (keras-tuner: ``Search: Running Trial #3``, each
  trial's Keras fit restarting at ``Epoch 1/3``, then ``Trial 3 Complete``, ``loss: 0.52``, ``Best loss So Far:
  0.41``): each trial is a run, the last one shown, the points of the earlier ones set aside and counted in the
  notes. Counted as one read of the whole file counts them whatever the reads' sizes: a read's first point at the
  step the read before ended at is that point redrawn, one point (``Emitter.count_read``, ``Emitter.new_run``); a
  one-off line carried on from a run a read set aside, placed by a later read, has the file read again from its
  start (``engine._aside_carried``); a run set aside leaves no last state a later read's first point is a redraw of
  (``bar_steps.same_state_as_before``); names counted records gave in an earlier read make a later read's bare record
  of them a summary (``avg_``) as in one read; the last run's epoch count (``Epoch 3/3``) is its planned length.
- A table printed anew each epoch whose template an earlier read planned from the lines it held (nequip's per-batch
  rows ``      5     2        0.121 ...`` under ``# Epoch batch  loss ...``, first met within one epoch: its epoch
  column constant, no step, the rows a summary of the ``! Train`` records' names): a later read planning it otherwise
  (the epoch column rising: the step) has the file read again from its start (``engine._contradicted``), as one read
  of it plans the template.
"""

from __future__ import annotations

import random
import re

import pytest

from .conftest import REPO
from .test_engine_fixdet_shapes import _alike
from .test_read_misses import whole_and_pieces, whole_as_live


def _tuner(rng: random.Random, trials: int, epochs: int, batches: int) -> bytes:
    """A keras-tuner search: per trial its hyperparameter table, a Keras fit (``Epoch e/E``, the meter redrawn per
    batch with ``\\b`` and ANSI), ``Trial n Complete``, the trial's objective and the best so far."""
    out, best = [], float("inf")
    bar = "\u2501"
    for t in range(1, trials + 1):
        lr = rng.choice((0.001, 0.003, 0.01, 0.03, 0.1))
        out += ["", f"Search: Running Trial #{t}", "", "Value             |Best Value So Far |Hyperparameter",
                f"{lr:<18}|{0.001:<18}|learning_rate", ""]
        loss = rng.uniform(5.0, 20.0)
        for e in range(1, epochs + 1):
            out.append(f"Epoch {e}/{epochs}")
            line, prev = "", 0
            for b in range(1, batches + 1):
                loss *= rng.uniform(0.85, 1.05)
                done = bar * (20 * b // batches)
                body = (f"\x1b[1m{b}/{batches}\x1b[0m \x1b[32m{done}\x1b[0m\x1b[37m{bar * (20 - len(done))}\x1b[0m "
                        f"\x1b[1m0s\x1b[0m 2ms/step - loss: {loss:.4f}")
                line += ("\b" * prev) + "\r" + body
                prev = len(body)
            out.append(line)
        best = min(best, loss)
        out += [f"\x1b[2K\r\x1b[2K\rTrial {t} Complete [00h 00m 00s]", f"loss: {loss!r}", "",
                f"Best loss So Far: {best!r}", f"Total elapsed time: 00h 00m 0{t % 10}s"]
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize("seed", range(3))
def test_a_searchs_trials_are_runs_counted_alike_whole_and_in_pieces(tmp_path, seed):
    rng = random.Random(seed)
    trials, epochs = rng.choice((4, 5, 7)), rng.choice((3, 4))
    data = _tuner(rng, trials, epochs, rng.choice((4, 8)))
    whole_as_live(tmp_path, data, f"t{seed}")
    whole_and_pieces(tmp_path, data, f"tp{seed}", seed=seed)
    for t in range(4):
        cuts = sorted(rng.sample(range(1, len(data)), 2 + 2 * t))
        whole = _alike(tmp_path, data, f"tr{seed}_{t}", cuts)
        assert [n for n in whole[1] if f"holds {trials} runs" in n], whole[1]
        assert whole[2] == epochs


HOLDOUT30 = REPO / "examples" / "libraries_holdout30"


@pytest.mark.parametrize("run", ["kt_grid_sgd_reg_5t", "kt_hyperband_cls_val_9ep", "kt_grid_adam_reg_lr_high_diverged",
                                 "kt_grid_sgd_reg_lr_high_nan"])
def test_holdout30_keras_tuner_searches_read_alike_in_pieces(tmp_path, run):
    data = (HOLDOUT30 / run / "train.log").read_bytes()
    rng = random.Random(run)
    whole_and_pieces(tmp_path, data, run)
    for t in range(3):
        _alike(tmp_path, data, f"{run}_{t}", sorted(rng.sample(range(1, len(data)), 3 + t)))


HOLDOUT79 = REPO / "examples" / "libraries_holdout79"


def _nequip(rng: random.Random, run: str) -> bytes:
    """A variant of a nequip ``log``: its lines as they are, each printed value's digits after its point drawn anew
    (the widths, the epochs, the tables as nequip prints them)."""
    text = (HOLDOUT79 / run).read_text()
    return re.sub(r"(?<=\d\.)\d+", lambda m: "".join(rng.choice("0123456789") for _ in m.group(0)), text).encode()


@pytest.mark.parametrize("seed", range(3))
def test_a_per_epoch_table_planned_from_one_epochs_rows_reads_as_whole(tmp_path, seed):
    rng = random.Random(seed)
    data = _nequip(rng, "nequip_adam_forces_10ep/log")
    # a read ending inside epoch 4's training table (the next read's first rows of a new width, within one epoch),
    # then a later one
    inside = data.index(b"      4     6") - rng.randrange(5, 30)
    whole = _alike(tmp_path, data, f"nr{seed}", [rng.randrange(100, inside - 800), inside,
                                                 rng.randrange(inside + 1500, len(data) - 100)])
    assert not [k for k in whole[0] if k.startswith("avg_")], list(whole[0])


@pytest.mark.parametrize(("run", "cuts"), [("nequip_adam_forces_10ep/log", [420, 1134, 2103, 4374]),
                                           ("nequip_adam_b2_batchlog_8ep/log", [3067, 3250, 3991, 5395]),
                                           ("nequip_adam_energy_plateau_12ep/train.log", None)])
def test_holdout79_nequip_tables_read_alike_in_pieces(tmp_path, run, cuts):
    data = (HOLDOUT79 / run).read_bytes()
    rng = random.Random(run)
    whole_as_live(tmp_path, data, run.replace("/", "_"))
    whole = _alike(tmp_path, data, run.replace("/", "_"), cuts or sorted(rng.sample(range(1, len(data)), 4)))
    assert run.endswith("train.log") or not [k for k in whole[0] if k.startswith("avg_")], list(whole[0])
