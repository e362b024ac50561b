"""The nanoGPT block fast path (pandas' C reader on blocks of the two usual lines) gives the very points and state
of the line-by-line pass; any other block takes that pass unchanged."""

from __future__ import annotations

import pytest
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.nanogpt import NanoGptFormat, _parse_plain

from tests.helpers import emitted_points


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
ODD = {  # each must take the line-by-line pass (same points and state, whatever they are)
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


@pytest.mark.parametrize("name", list(BLOCKS))
def test_nanogpt_fast_path_gives_the_line_points(name):
    text = BLOCKS[name]
    fast, slow = Emitter({"step": -5}), Emitter({"step": -5})
    assert _parse_plain(text.encode(), fast) is True
    NanoGptFormat()._parse_lines(text, slow)
    assert emitted_points(fast) == emitted_points(slow) and emitted_points(fast)
    assert fast.state == slow.state


@pytest.mark.parametrize("name", list(ODD))
def test_nanogpt_odd_blocks_leave_the_fast_path(name):
    text = ODD[name]
    em = Emitter({"step": -5})
    assert _parse_plain(text.encode(), em) is False
    assert len(em) == 0 and em.state == {"step": -5}


def test_nanogpt_fast_path_values_and_state_across_blocks():
    em = Emitter()
    fmt = NanoGptFormat()
    assert fmt.parse_plain(b"step 0: train loss 10.5, val loss 10.75\niter 0: loss 10.25, time 3456.78ms, "
                           b"mfu -100.00%\n", em)
    assert em.state == {"step": 0}
    assert fmt.parse_plain(b"iter 1: loss 9.5, time 31.25ms, mfu 21.40%\n", em)
    # an eval line leaves the step as it was
    assert fmt.parse_plain(b"step 250: train loss 3.8125, val loss 3.875\n", em)
    assert em.state == {"step": 1}
    assert emitted_points(em) == [("train_loss_eval", [0, 250], [10.5, 3.8125]), ("val_loss", [0, 250], [10.75, 3.875]),
                           ("train_loss", [0, 1], [10.25, 9.5]), ("iter_time_ms", [0, 1], [3456.78, 31.25]),
                           ("mfu_pct", [0, 1], [-100.0, 21.4])]


def test_nanogpt_mixed_blocks_keep_the_pending_validation_of_build_nanogpt():
    em = Emitter()
    fmt = NanoGptFormat()
    fmt.parse("validation loss: 3.5\n", em)
    # the fast path: the pending value stays for the build-nanogpt step line
    assert fmt.parse_plain(_plain(3, start=1).encode(), em)
    assert em.state == {"pending_val": 3.5, "step": 3}
