"""What examples/libraries_holdout38 showed (issue 32): tez prints once an epoch, through ``tqdm.write`` on a
block-buffered stdout, its record ``[train] mae=8.0177, loss=102.7787 [e=0 steps=16]`` (the epoch's mean batch loss
at the global step), beside a stderr tqdm bar over the whole run whose postfix holds the epoch's running mean so far
(``1/192 [..., epoch=0, loss=107, mae=8.6]``, 3 significant digits). The records land after the bar's redraws (all of
them at the file's end without a validation set; glued after the next epoch's redraws with one): read as one series
with the bar, the bar's first redraw (one batch, below every epoch's mean) was the "best" a slow healthy run
"diverged" from. A record printing its own step is the run's record; a bar's postfix of the same names is a live
view of it, no point."""

from __future__ import annotations

import math

from training_check.tools.assess import assess_run

from .test_read_misses import primary_names, whole_as_live


def _sig3(x: float) -> str:
    return f"{x:.3g}"


def _bar(n: int, total: int, post: str) -> str:
    pct = int(100 * n / total)
    return f"\r{pct:3d}%|{'#' * (pct // 10):10s}| {n}/{total} [00:00<00:00, 300.00it/s, {post}]"


def _tez(epochs: int, spe: int, val: bool, first: float = 85.1) -> tuple[str, list[tuple[int, float]]]:
    """A tez run as it lands in ``train.log``: the bar's ``\\r`` redraws (stderr, unbuffered) and the epoch records
    (stdout, buffered: at the end without validation, after the next epoch's first redraws with it)."""
    total = epochs * spe
    bar = [f"\r  0%|          | 0/{total} [00:00<?, ?it/s]"]
    records, truth, out = [], [], []
    step = 0
    for e in range(epochs):
        level = 100.0 - 2.0 * e * e / epochs  # a slow healthy fall of the epoch's mean
        losses = [level * (1 + 0.15 * math.sin(3 * e + k)) for k in range(spe)]
        if e == 0:
            losses[0] = first  # a lucky first batch, below every epoch's mean
        for k in range(spe):
            mean = sum(losses[:k + 1]) / (k + 1)
            post = f"epoch={e}, loss={_sig3(mean)}, mae={_sig3(math.sqrt(mean) * 0.8)}"
            bar.append(_bar(step, total, post))  # set after the batch, drawn before the count moves
            step += 1
        mean = sum(losses) / spe
        truth.append((step, mean))
        rec = f"[train] mae={math.sqrt(mean) * 0.8:.4f}, loss={mean:.4f}"
        if val:
            rec += f" [valid] mae={math.sqrt(mean) * 0.9:.4f}, loss={mean * 1.2:.4f}"
        rec += f" [e={e} steps={step}]\n"
        bar.append("\r" + " " * 78 + "\r" + _bar(step, total, post))
        if val:  # the record glued after the next epoch's redraws, the validation bar below with cursor-up
            pad = " " * (e % 3)  # (a redraw padded with blanks to the width of the one before)
            val_bar = f"\n\r  0%|          | 0/2 [00:00<?, ?it/s]\x1b[A\n\r{' ' * 37}\x1b[A"
            out.append("".join(bar) + pad + rec + val_bar)
            bar = []
        else:
            records.append(rec)
    out.append("".join(bar) + "\n")
    out.extend(records)
    return "".join(out), truth


def _check(tmp_path, store, config, val: bool) -> None:
    text, truth = _tez(12, 16, val)
    pts = whole_as_live(tmp_path, text.encode(), f"tez_{val}.log")
    assert primary_names(pts) == ["loss"], pts.keys()
    assert pts["loss"][0] == [s for s, _ in truth], pts["loss"]
    assert [round(v, 4) for v in pts["loss"][1]] == [round(v, 4) for _, v in truth]
    log = tmp_path / "train.log"
    log.write_text(text)
    for as_of in (96, 144, 192):
        a = assess_run(str(log), store=store, config=config, as_of_step=as_of)
        assert a.verdict != "STOP", (as_of, a.summary)


def test_epoch_records_after_a_bar_of_their_running_means_are_the_series(tmp_path, store, config):
    _check(tmp_path, store, config, val=False)


def test_epoch_records_glued_after_the_next_epochs_redraws_are_the_series(tmp_path, store, config):
    _check(tmp_path, store, config, val=True)


def _rich(line: str, first: bool) -> list[str]:
    """One ``logger.info`` message as fastNLP's rich handler prints it with no terminal: 80 columns, the message cut
    at a word where it passes 45 columns, its rest under it indented 20 spaces."""
    head = "[15:46:19] " if first else " " * 11
    words, cut, width = line.split(" "), [], 0
    for w in words:
        if cut and width + 1 + len(w) > 46:
            break
        width += len(w) + (1 if cut else 0)
        cut.append(w)
    rest = " ".join(words[len(cut):])
    out = [f"{head}INFO     {' '.join(cut):46s} logger.py:108"]
    if rest:
        out.append(f"{' ' * 20}{rest:60s}")
    return out


def test_a_records_rest_wrapped_alone_after_the_records_is_no_initial_value(tmp_path):
    """fastNLP's ``Epoch:1/4, Batch:6, loss:5.074049048424639e+29, finished 37.5%.``: the rich handler puts the whole
    ``loss:... finished 37.5%.`` on the next line. That rest, read once and naming what the records after it name
    (``loss``, ``finished``), came before them: it was read as their initial value, at step 0, a restart that set
    the 17 steps before aside. A line after records printing the loss is no initial value."""
    losses = [150.0 / (1 + k) for k in range(17)] + [5.074049048424639e29, math.inf] + [math.nan] * 29
    lines = []
    for g, x in enumerate(losses):
        e, b = divmod(g, 12)
        if b == 0:
            lines += _rich("", g == 0)[:1] + [f"{' ' * 20}**********Epoch:{e} starts**********{' ' * 26}"]
        value = "nan" if math.isnan(x) else "inf" if math.isinf(x) else repr(round(x, 6))
        lines += _rich(f"Epoch:{e}/4, Batch:{b + 1}, loss:{value}, finished {100 * (g + 1) / 48:.2f}%.", False)
    pts = whole_as_live(tmp_path, ("\n".join(lines) + "\n").encode(), "fastnlp.log")
    steps = pts["loss"][0]
    assert steps[:17] == list(range(1, 18)) and steps[-1] == 48 and len(steps) >= 46, pts["loss"]
