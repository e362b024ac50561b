"""Shapes two reader rules met only together (the merge of a lagging bar's logging grid and carried one-off lines
with examples/libraries5's trainer shapes), each written as a small log the way a library prints it."""

from __future__ import annotations

import string

from .test_engine_records import _pykeen_bar, _same_in_reads
from .test_engine_tables import _in_reads, _line_starts, _read


def _final_metrics(n: int) -> bytes:
    """The evaluation a run prints once at its end, one line a metric of its own name (PyKEEN's console tracker:
    ``Metric: validation.both.realistic.median_rank = 7.0``): each line a template seen once."""
    words = [a + b for a in string.ascii_lowercase for b in string.ascii_lowercase][:n]
    return "".join(f"Metric: validation.both.{w}_rank = {k + 0.5}\n" for k, w in enumerate(words)).encode()


def test_a_bars_first_redraw_is_read_when_many_one_off_lines_follow_it(tmp_path):
    # the epoch bar's first redraw (``0/12 [00:00<?, ?epoch/s, loss=1.8, ...]``: a template seen once) shows the
    # first epoch's value before the counter moves; more one-off lines after it in the same read than are carried to
    # the next read must not keep it from being read (then the values would be read one epoch early)
    data = _pykeen_bar(12) + _final_metrics(80)
    _res, pts = _read(tmp_path, data)
    want = [float(f"{1.5 / (e + 1) + 0.3:.3g}") for e in range(12)]
    assert pts["loss"] == (list(range(1, 13)), want)
    assert tuple(_same_in_reads(data, 3)["loss"]) == (list(range(1, 13)), want)


def _trainer_steps(epochs: int, batches: int, every: int) -> bytes:
    """pytorch-accelerated's tqdm batch bar (stderr) and a user's callback printing ``step N: loss=...`` every
    ``every`` steps (stdout) into one file: the first epoch's bar drawn whole before its records, a later epoch's
    value-less first redraw run together with the first record printed after it."""
    out = ["", "Starting training run", ""]
    step = 0
    for e in range(1, epochs + 1):
        out += ["", f"Starting epoch {e}"]
        first = f"\r  0%|          | 0/{batches} [00:00<?, ?it/s]"
        whole = (f"{first}\r  4%|4         | 1/{batches} [00:00<00:02,  9.07it/s]"
                 f"\r100%|##########| {batches}/{batches} [00:00<00:00, 91.77it/s] ")
        bar = first if e > 1 else ""
        if e == 1:
            out.append(whole)
        for _b in range(batches):
            step += 1
            if step % every == 0:
                out.append(f"{bar}step {step}: loss={100.0 / step + step % 3:.6f}")
                bar = ""
        out += ["", f"train_loss_epoch: {10.0 / e}"]
    return ("\n".join(out) + "\n").encode()


def test_records_printing_their_own_step_are_not_put_on_a_bars_grid(tmp_path):
    # ``  0%| | 0/24 [00:00<?, ?it/s]step 26: loss=...``: the bar shows no value of its own, the record its step;
    # a lagging bar's logging grid (values set before its counter moves) is no rule for records with printed steps
    data = _trainer_steps(2, 24, 2)
    _res, pts = _read(tmp_path, data)
    assert pts["loss"][0] == list(range(2, 49, 2))
    for cut in _line_starts(data)[::3]:  # (the loss's points; the epoch's record is another shape)
        assert _in_reads(data, [cut])["loss"][0] == pts["loss"][0], f"one cut at byte {cut}"


def test_a_loss_word_is_a_word_of_the_name_not_any_substring():
    """``apples per bag`` holds ``ppl`` and is no perplexity: a prose line of a model's generated answer
    (``1200 apples / 120 apples per bag = 10 bags``) is no record on its face, whatever the read it falls in."""
    from training_check.tools.parsers.engine import _has_loss
    from training_check.tools.parsers.fields import plan_template

    prose = plan_template([b"1200 apples / 120 apples per bag = 10 bags"])
    assert prose is None or not _has_loss(prose)
    for line in (b"step 3 val_ppl 12.3", b"iter 5 episode_reward 3.0", b"step 2 perplexity: 30"):
        plan = plan_template([line])
        assert plan is not None and _has_loss(plan), line
