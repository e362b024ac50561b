"""The shapes the reader missed on examples/libraries_holdout17 (issue 32), written as the libraries print them and
read by the one engine, whole and in pieces:

- a boxed table whose step column is named by a step name the usual list lacks (scipy's ``trust-constr`` with
  ``verbose=2``: ``| niter |f evals|CG iter|  obj func   |``): the rows at that column's values, not by order;
- a bar's value first drawn as exactly zero at the bar's first count, before any unit is done (ctgan's TVAE bar set
  to ``Loss: +00.00`` before its first epoch, then each epoch's loss set in the loop's body and drawn at the count
  tqdm last printed): a placeholder, no point; each later drawing is a unit (the windows between counts tell it).
"""

from __future__ import annotations

import random

from .test_read_misses import _live, whole_as_live

FULL = "\u2588"




def test_a_boxed_tables_niter_column_is_its_step(tmp_path):
    rows = ["| niter |f evals|CG iter|  obj func   |tr radius |   opt    |  c viol  |",
            "|-------|-------|-------|-------------|----------|----------|----------|"]
    f = 0.69
    for i in range(1, 26):
        f *= 0.9
        rows.append(f"|  {i:3d}  |  {i:3d}  |  {2 * i:3d}  | {f:+.4e} | 1.00e+00 | 2.52e-01 | 0.00e+00 |")
    text = "\n".join(rows) + "\n\n`gtol` termination condition is satisfied.\n"
    pts = whole_as_live(tmp_path, text.encode(), "trust_constr.log")
    assert pts["obj func"][0] == list(range(1, 26))
    assert "niter" not in pts


def _tvae_bar(losses: list[float], every: int) -> bytes:
    """ctgan's TVAE: ``tqdm(range(epochs))``, its description set to a zero loss first, then each epoch's loss set in
    the loop's body; tqdm redraws at the count it last printed, the count catching up every ``every`` epochs."""
    n = len(losses)

    def bar(desc: str, shown: int) -> str:
        full = 10 * shown // n
        return f"\r{desc}{100 * shown // n:3d}%|{FULL * full}{' ' * (10 - full)}| {shown}/{n} [00:00<00:00, 44.78it/s]"

    out, shown = [bar("", 0), bar("Loss: +00.00: ", 0)], 0
    for ep, loss in enumerate(losses):
        out.append(bar(f"Loss: {loss:+06.2f}: ", shown))
        if (ep + 1) % every == 0 and ep + 1 < n:
            shown = ep + 1
            out.append(bar(f"Loss: {loss:+06.2f}: ", shown))
    out.append(bar(f"Loss: {losses[-1]:+06.2f}: ", n) + "\n")
    return "".join(out).encode()


def test_a_bars_zero_before_its_first_unit_is_a_placeholder(tmp_path):
    rnd = random.Random(17)
    losses, v = [], 12.6
    for _ in range(20):
        v *= 0.8 + 0.3 * rnd.random()
        losses.append(round(v, 2))
    pts = whole_as_live(tmp_path, _tvae_bar(losses, 5), "tvae.log")
    steps, values = pts["Loss"]
    assert 0.0 not in values
    assert steps == list(range(1, 21)) and values == losses


def test_a_bars_units_told_by_a_window_a_read_ended_with(tmp_path):
    """A read that ends right after the last drawing at a stale count (the window's end) leaves the window for the
    next read's first count to close: the same points whatever the redraw the read ends at."""
    losses = [12.2, 9.6, 10.52, 7.8, 9.51, 8.33, 7.64, 7.04, 5.97, 7.85]
    data = _tvae_bar(losses, 9)
    whole = _live(tmp_path, data, [], name="whole_tvae10.log")
    assert whole["Loss"] == (list(range(1, 11)), losses)
    for k, at in enumerate(i for i in range(1, len(data)) if data[i:i + 1] == b"\r"):
        assert _live(tmp_path, data, [at], name=f"cut{k}.log") == whole, at
