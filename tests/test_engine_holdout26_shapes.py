"""The shape the reader missed on examples/libraries_holdout26 (issue 32), written as the library prints it and read by
the one engine, whole and in pieces: a training bar nested under an epoch bar (``Epochs 2/5. Running Loss:
0.6753:  44%|...| 14/32 [...]\\x1b[A``, redrawn with ``\\r``: the loss set, then the count moved), cut every N steps
by an evaluation: an INFO line, a bar over the evaluation's examples (``Map: 128/128 [... examples/s]``), the
metrics dict (twice), a bar writing the model (``Writing model shards: 100%|| 1/1``), then the training bar goes
on. The other bars count units of their own, more than the training bar's (128 examples, 512 before training):
they never give the training record's step; the dict between two redraws is an evaluation at the training bar's
step; the words of a bar just above the training bar name none of its values."""

from __future__ import annotations

import math

from .test_read_misses import _live, whole_as_live

FULL = "\u2588"
CUTS = (0.03, 0.11, 0.2, 0.37, 0.5, 0.55, 0.81, 0.93)


def _bar(desc: str, n: int, total: int, unit: str = "it/s", up: int = 0) -> str:
    full = 10 * n // total
    rate = "?, ?" if n == 0 else "00:00, 80.00"
    return f"\r{desc}: {100 * n // total:3d}%|{FULL * full}{' ' * (10 - full)}| {n}/{total} [00:00<{rate}{unit}]" \
        + "\x1b[A" * up


def _loss(g: int) -> float:
    return round(0.69 * math.exp(-g / 60) + 0.02 * math.sin(g), 4)


def _eval(g: int) -> tuple[str, dict[str, float]]:
    m = {"mcc": round(1 - 1 / g, 6), "accuracy": round(1 - 0.5 / g, 6), "eval_loss": round(0.7 / math.sqrt(g), 6)}
    line = "INFO:simpletransformers.classification.classification_model:{" + ", ".join(
        f"'{k}': {v!r}" for k, v in m.items()) + "}\n"
    return line, m


def _run(epochs: int, per_epoch: int, every: int) -> tuple[bytes, dict[int, float], dict[int, dict[str, float]]]:
    """The log, the loss at each global step and the evaluations' metrics at their steps (every ``every`` steps and
    at each epoch's end). The inner bar (tqdm's ``position=1``) is redrawn as ``\\n\\r{bar}\\x1b[A``: its loss set
    first (drawn at the count before), then its count moved; an evaluation comes in between."""
    info = "INFO:simpletransformers.classification.classification_utils: Converting to features started.\n"
    out = [_bar("Writing model shards", 0, 1), _bar("Writing model shards", 1, 1) + "\n", info,
           _bar("Map", 0, 512, " examples/s"), _bar("Map", 512, 512, " examples/s") + "\n",
           _bar("Epoch", 0, epochs), "INFO:simpletransformers.classification.classification_model:   Starting "
           "fine-tuning.\n"]
    losses: dict[int, float] = {}
    evals: dict[int, dict[str, float]] = {}

    def evaluation(g: int, mid: bool) -> None:
        line, m = _eval(g)
        evals[g] = m
        if mid:
            out.append(info + "\n\n" + _bar("Map", 0, 128, " examples/s", 2) + _bar("Map", 128, 128, " examples/s")
                       + "\n" + line + line + "\n\n" + _bar("Writing model shards", 0, 1, up=2)
                       + _bar("Writing model shards", 1, 1) + "\n\n")
        else:
            out.append(info + "\n" + _bar("Map", 0, 128, " examples/s", 1) + _bar("Map", 128, 128, " examples/s")
                       + "\n" + line + line)

    for e in range(1, epochs + 1):
        out.append(_bar(f"Epoch {e} of {epochs}", e - 1, epochs) + "\n")
        out.append(_bar(f"Running Epoch {e} of {epochs}", 0, per_epoch, up=1))
        for k in range(1, per_epoch + 1):
            g = (e - 1) * per_epoch + k
            losses[g] = _loss(g)
            desc = f"Epochs {e}/{epochs}. Running Loss: {losses[g]:9.4f}"
            out.append("\n" + _bar(desc, k - 1, per_epoch, up=1))
            if g % every == 0:
                evaluation(g, True)
            else:
                out.append("\n")
            out.append(_bar(desc, k, per_epoch, up=1))
        out.append(_bar(desc, per_epoch, per_epoch) + "\n")
        evaluation(e * per_epoch, False)
    out.append(_bar(f"Epoch {epochs} of {epochs}", epochs, epochs) + "\n")
    out.append(_bar("Writing model shards", 0, 1) + _bar("Writing model shards", 1, 1) + "\n")
    out.append("INFO:simpletransformers.classification.classification_model: Training of bert model complete.\n")
    return "".join(out).encode(), losses, evals


def test_a_training_bar_cut_by_evaluations_is_read_at_its_own_steps_whole_and_in_pieces(tmp_path):
    for epochs, per_epoch, every in ((5, 32, 16), (5, 32, 20), (4, 32, 8), (3, 40, 7)):
        data, losses, evals = _run(epochs, per_epoch, every)
        got = whole_as_live(tmp_path, data, f"st_{epochs}_{per_epoch}_{every}.log", CUTS)
        steps, values = got["Running Loss"]
        assert steps == sorted(losses), (every, steps[:20])
        assert values == [losses[s] for s in steps], every
        for name in ("mcc", "accuracy", "eval_loss"):
            assert got[name] == (sorted(evals), [evals[s][name] for s in sorted(evals)]), (every, name)
        assert set(got) == {"Running Loss", "mcc", "accuracy", "eval_loss"}, sorted(got)  # (no bar's words as names)


def test_the_evaluations_bars_alone_in_a_first_read_do_not_hold_the_step(tmp_path):
    """A live read that ends before the training bar's first redraw saw only the bars of their own (the examples'
    ``Map: 512/512``): the later reads still step the records by the training bar."""
    data, losses, _evals = _run(3, 32, 16)
    first = data.index(b"Starting fine-tuning")
    got = _live(tmp_path, data, [first, first + 40])
    assert got["Running Loss"][0] == sorted(losses)
