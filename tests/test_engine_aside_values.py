"""A metric's value followed by a statistic of it in parentheses (Lightning's ModelCheckpoint, which GluonTS prints:
``Epoch 3, global step 80: 'train_loss' reached -0.05511 (best -0.05511), saving model to '...' as top 1``; an
AverageMeter's ``loss 0.52 (avg 0.61)``): the value is the metric's point at the record's step, the parenthesised
``best`` / ``avg`` / ``running`` value is no second point, ``top 1`` (checkpoints kept) no metric, and a quoted
name followed by a verb (``'train_loss' reached``) is named by the quoted words. The same bytes read in parts give
the same points."""

from __future__ import annotations

from .test_engine_records import _same_in_reads


def _checkpoint_log(epochs: int, batches: int, improved: set[int], monitor: str = "train_loss") -> tuple[bytes, list]:
    """GluonTS' stdout: a warning between batches, then ModelCheckpoint's line at each epoch's end (a new best, or
    ``was not in top 1``)."""
    out, truth, best = [], [], float("inf")
    for e in range(epochs):
        for _b in range(2):
            out.append("/venv/site-packages/gluonts/torch/util.py:205: UserWarning: Using a non-tuple sequence")
            out.append("  return a[idx]")
        step = (e + 1) * batches
        value = 1.3 - 0.21 * e if e in improved else 2.0 + e
        if e in improved:
            best = min(best, value)
            path = f"/tmp/run-x/lightning_logs/version_0/checkpoints/epoch={e}-step={step}.ckpt"
            out.append(f"Epoch {e}, global step {step}: '{monitor}' reached {value:.5f} (best {best:.5f}), saving "
                       f"model to '{path}' as top 1")
            truth.append((step, round(value, 5)))
        else:
            out.append(f"Epoch {e}, global step {step}: '{monitor}' was not in top 1")
    out.append("`Trainer.fit` stopped: `max_epochs=10` reached.")
    return ("\n".join(out) + "\n").encode(), truth


def test_a_checkpoint_line_gives_the_monitored_value_at_its_step_and_nothing_else():
    data, truth = _checkpoint_log(10, 20, improved={0, 1, 2, 4, 5, 7, 9})
    pts = _same_in_reads(data, every=3)
    assert set(pts) == {"train_loss"}, sorted(pts)  # no "train_loss reached", no "top", no "best"
    assert list(zip(*pts["train_loss"], strict=True)) == truth


def test_a_val_metric_monitored_keeps_its_name():
    data, truth = _checkpoint_log(6, 15, improved={0, 1, 3}, monitor="val_loss")
    pts = _same_in_reads(data, every=2)
    assert set(pts) == {"val_loss"} and list(zip(*pts["val_loss"], strict=True)) == truth


def test_a_parenthesised_running_value_is_no_second_point():
    for word in ("avg", "running", "best", "mean", "ema"):
        lines = [f"step {10 * i} loss {1.0 / (i + 1):.4f} ({word} {2.0 / (i + 1):.4f}) lr 1e-3" for i in range(12)]
        pts = _same_in_reads(("\n".join(lines) + "\n").encode(), every=4)
        assert set(pts) == {"loss", "lr"}, (word, sorted(pts))
        assert pts["loss"] == ([10 * i for i in range(12)], [float(f"{1.0 / (i + 1):.4f}") for i in range(12)])


def test_a_quoted_name_keeps_its_words_when_no_verb_of_value_follows():
    # DeepXDE's "'train' took 1.32 s": a timing, never the train loss
    lines = [f"Epoch {e}: loss {1.0 / (e + 1):.4f}" for e in range(6)] + ["'train' took 1.323569 s"]
    pts = _same_in_reads(("\n".join(lines) + "\n").encode(), every=2)
    assert "train" not in pts and "train_loss" not in pts
