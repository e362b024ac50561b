"""nanoGPT's two usual lines, read by the one text-log engine (no reader of their own): every block gives the
points its lines hold, and the same points whether it comes whole or a line at a time (a live log)."""

from __future__ import annotations

import math
import re

import pytest
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.engine import TextLogFormat

from tests.helpers import emitted_points, engine_read, same_points


def _plain(n: int, start: int = 0, every: int = 250) -> str:
    lines = []
    for i in range(start, start + n):
        if i % every == 0:
            lines.append(f"step {i}: train loss {3 + (i % 97) / 100:.4f}, val loss {3.2 + (i % 89) / 1000:.4f}\n")
        lines.append(f"iter {i}: loss {3 + (i % 97) / 100:.4f}, time {59 + i % 7:.2f}ms, mfu {6 + (i % 5) / 10:.2f}%\n")
    return "".join(lines)


BLOCKS = {
    "eval first": _plain(600),
    "iter first": _plain(600, start=1),
    "iter only": _plain(200, start=1, every=10**9),
    "eval only": "step 0: train loss 10.9, val loss 10.95\nstep 250: train loss 4.1, val loss 4.25\n",
    "eval every line": _plain(30, every=1),
    "first mfu placeholder": "iter 0: loss 10.9876, time 3456.78ms, mfu -100.00%\n" + _plain(5, start=1),
    "odd numbers": "iter 007: loss 5., time .5ms, mfu +1E-3%\niter 8: loss 1e999, time 1e-400ms, mfu -0%\n",
    "exponents": "step 3: train loss 1e-3, val loss 2E5\niter 3: loss 1e-05, time 2E+3ms, mfu 5e-1%\n"
                 "iter 4: loss 3e0, time 1.5e2ms, mfu -1e+2%\nstep 4: train loss 7e1, val loss 8.5e-1\n",
    "repr floats": "".join(f"iter {i}: loss {i / 7!r}, time {i / 3!r}ms, mfu {i / 11!r}%\n" for i in range(50)),
}
ODD = {  # odd blocks: the same points whole or a line at a time, whatever they are
    "nan loss": _plain(20) + "iter 20: loss nan, time 30.00ms, mfu 5.00%\n" + _plain(5, 21),
    "inf val": "step 0: train loss 3.0, val loss inf\n" + _plain(3, 1),
    "noise line": _plain(10) + "saving checkpoint to out\n" + _plain(10, 10),
    "blank line": _plain(3) + "\n" + _plain(3, 3),
    "missing mfu": "iter 1: loss 3.0, time 30.00ms\niter 2: loss 2.9, time 30.00ms, mfu 5.00%\n",
    "missing time": "iter 1: loss 3.0, mfu 5.00%\n",
    "extra field": "iter 1: loss 3.0, time 30.00ms, mfu 5.00%, lr 1e-3\n",
    "extra eval field": "step 0: train loss 3.0, val loss 3.1, lr 6e-4\n",
    "empty field": "iter 1: loss , time 30.00ms, mfu 5.00%\n",
    "empty val": "step 0: train loss 3.0, val loss \n" + _plain(2, 1),
    "bad number": "iter 1: loss 1.2.3, time 30ms, mfu 5%\niter 2: loss 1-2, time 3e, mfu 5%\n",
    "extra e in a word": "iter 1: loss 3.0, timee 30.00ms, mfu 5.00%\niter 2: loss 3.0, time 3ms, mfu 5%\n",
    "e for a word's e": "iter 1: loss 3.0, tim 3e0ms, mfu 5.00%\n",
    "step not digits": "iter 1.0: loss 3, time 3ms, mfu 5%\niter +2: loss 3, time 3ms, mfu 5%\n"
                       "step 1e3: train loss 3, val loss 3\n",
    "step beyond int64": "iter 99999999999999999999: loss 3, time 3ms, mfu 5%\niter 2: loss 3, time 3ms, mfu 5%\n",
    "digit before a line": "iter 5: loss 3, time 3ms, mfu 5%\n2iter 6: loss 3, time 3ms, mfu 5%\n",
    "prefixed line": "[rank0] iter 1: loss 3.0, time 30.00ms, mfu 5.00%\n",
    "double space": "iter 1:  loss 3.0, time 30.00ms, mfu 5.00%\n",
    "trailing space": "iter 1: loss 3.0, time 30.00ms, mfu 5.00% \n",
    "no final newline": "iter 1: loss 3.0, time 30.00ms, mfu 5.00%",
    "log.txt lines": "0 train 10.95\n0 val 10.9\n" + _plain(2, 1),
    "build-nanogpt line": _plain(2) + "step    10 | loss: 9.412345 | lr 6.0000e-04 | norm: 1.2345 | dt: 312.50ms\n",
}


_ITER = re.compile(r"^iter (\d+): loss (\S+), time (\S+)ms, mfu (\S+)%$")
_EVAL = re.compile(r"^step (\d+): train loss (\S+), val loss (\S+)$")


def _expected(text: str) -> dict[str, tuple[list[int], list[float]]]:
    """The points the lines hold, by name: the iteration's loss, time and MFU; the eval's two split losses."""
    out: dict[str, tuple[list[int], list[float]]] = {}
    for line in text.splitlines():
        m, names = _ITER.match(line), ("loss", "time_ms", "mfu")
        if m is None:
            m, names = _EVAL.match(line), ("train loss", "val_loss")
        assert m is not None, line
        for name, raw in zip(names, m.groups()[1:], strict=True):
            steps, values = out.setdefault(name, ([], []))
            steps.append(int(m.group(1)))
            values.append(float(raw))
    return out


@pytest.mark.parametrize("name", list(BLOCKS))
def test_nanogpt_blocks_give_the_points_of_their_lines(name):
    text = BLOCKS[name]
    got = {k: (s, v) for k, s, v in emitted_points(engine_read(text))}
    want = _expected(text)
    assert set(got) == set(want)
    for key, (steps, values) in want.items():
        assert got[key][0] == steps, key
        assert all(a == b or math.isnan(a) and math.isnan(b) for a, b in zip(got[key][1], values, strict=True)), key
    assert same_points(emitted_points(engine_read(text)), emitted_points(engine_read(text, by_line=True)))


# the two where a line at a time differs: a word with an "e" in it ("timee", one template with "time" when read
# together) and a line glued to a digit ("2iter 6": read together, a second record of the same names)
_TEMPLATE_BOUND = {"extra e in a word", "digit before a line"}


@pytest.mark.parametrize("name", [n for n in ODD if n not in _TEMPLATE_BOUND])
def test_nanogpt_odd_blocks_read_alike_whole_or_by_line(name):
    text = ODD[name]
    whole = emitted_points(engine_read(text))
    assert same_points(whole, emitted_points(engine_read(text, by_line=True)))


def test_nanogpt_values_across_blocks():
    em, fmt = Emitter(), TextLogFormat()
    fmt.parse_plain(b"step 0: train loss 10.5, val loss 10.75\niter 0: loss 10.25, time 3456.78ms, mfu -100.00%\n", em)
    fmt.parse_plain(b"iter 1: loss 9.5, time 31.25ms, mfu 21.40%\n", em)
    fmt.parse_plain(b"step 250: train loss 3.8125, val loss 3.875\n", em)
    fmt.finish(em)
    assert emitted_points(em) == [("train loss", [0, 250], [10.5, 3.8125]), ("val_loss", [0, 250], [10.75, 3.875]),
                                  ("loss", [0, 1], [10.25, 9.5]), ("time_ms", [0, 1], [3456.78, 31.25]),
                                  ("mfu", [0, 1], [-100.0, 21.4])]


def test_build_nanogpt_validation_printed_before_the_step_lines():
    em = engine_read("validation loss: 3.5\n" + _plain(3, start=1))
    points = {k: (s, v) for k, s, v in emitted_points(em)}
    assert points["val_loss"] == ([1], [3.5])  # before any step: at the run's first one
    assert points["loss"][0] == [1, 2, 3]
