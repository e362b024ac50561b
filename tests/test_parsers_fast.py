"""Block fast paths (pandas' C reader on blocks of one exact shape) give the very points of the regex pass."""

from __future__ import annotations

import numpy as np
import pytest
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.llmc import LlmcFormat, _parse_plain


def _points(em: Emitter) -> list[tuple[str, list[int], list[float]]]:
    b = em.build()
    return [(k, c.steps.tolist(), c.values.tolist()) for k, c in b.columns.items()]


def _same(a, b) -> bool:
    """Equal points, NaN equal to NaN, keys in the same order."""
    if [k for k, _, _ in a] != [k for k, _, _ in b]:
        return False
    for (_, sa, va), (_, sb, vb) in zip(a, b, strict=True):
        if sa != sb or not np.array_equal(np.array(va), np.array(vb), equal_nan=True):
            return False
    return True


def _plain_llmc(n: int, start: int = 0) -> str:
    lines = []
    for i in range(start, start + n):
        lines.append(f"s:{i} trl:{3 + (i % 97) / 100:.4f} lr:{3e-4 * (1 - (i % 1000) / 2000):.4e} norm:{1 + i % 13}\n")
        if i % 7 == 0:
            lines.append(f"s:{i} tel:{3.2 + (i % 89) / 1000}\n")
    return "".join(lines)


LLMC_BLOCKS = {
    "plain": _plain_llmc(300),
    "train only": "".join(f"s:{i} trl:{i / 3!r} lr:1e-3 norm:.5\n" for i in range(50)),
    "eval only": "s:0 tel:4.1\ns:250 tel:3.9\n",
    "odd numbers": "s:007 trl:5. lr:+1E-3 norm:-0.25\ns:8 trl:1e999 lr:0 norm:1e-400\n",
}
LLMC_ODD = {  # each must take the regex pass (same points, whatever they are)
    "nan value": _plain_llmc(20) + "s:20 trl:nan lr:1e-3 norm:inf\n" + _plain_llmc(5, 21),
    "NaN word": "s:1 trl:NaN lr:1e-3 norm:1\n",
    "noise line": _plain_llmc(10) + "step 10 checkpoint saved\n" + _plain_llmc(10, 10),
    "blank line": _plain_llmc(3) + "\n" + _plain_llmc(3, 3),
    "eval mixed with extras": _plain_llmc(5) + "s:5 trl:3.1 lr:1e-3 norm:1.2 tok/s:12000\n",
    "fields swapped": "s:1 trl:3.0 norm:1.0 lr:1e-3\n",
    "no norm": "s:1 trl:3.0 lr:1e-3\ns:2 trl:2.9 lr:1e-3 norm:1\n",
    "empty field": "s:1 trl: lr:1e-3 norm:1\n",
    "empty eval": "s:1 tel:\ns:2 trl:2.9 lr:1e-3 norm:1\n",
    "bad number": "s:1 trl:1.2.3 lr:1e-3 norm:1\ns:2 trl:1-2 lr:1e-3 norm:1\n",
    "step not digits": "s:1.0 trl:3 lr:1e-3 norm:1\ns:+2 trl:3 lr:1e-3 norm:1\ns:1e3 tel:3\n",
    "step beyond int64": "s:99999999999999999999 trl:3 lr:1e-3 norm:1\ns:2 trl:3 lr:1e-3 norm:1\n",
    "digit in a key": "s:1 t1rl:3 lr:1e-3 norm:1\n",
    "leading digits": "12s:1 trl:3 lr:1e-3 norm:1\n",
    "double space": "s:1  trl:3 lr:1e-3 norm:1\n",
    "trailing space": "s:1 trl:3 lr:1e-3 norm:1 \n",
    "no final newline": "s:1 trl:3 lr:1e-3 norm:1",
}


@pytest.mark.parametrize("name", list(LLMC_BLOCKS))
def test_llmc_fast_path_gives_the_regex_points(name):
    text = LLMC_BLOCKS[name]
    fast, slow = Emitter(), Emitter()
    assert _parse_plain(text, fast) is True
    LlmcFormat()._parse_lines(text, slow)
    assert _points(fast) == _points(slow) or _same(_points(fast), _points(slow))
    assert _points(fast)  # not vacuous


@pytest.mark.parametrize("name", list(LLMC_ODD))
def test_llmc_odd_blocks_leave_the_fast_path(name):
    text = LLMC_ODD[name]
    em = Emitter()
    assert _parse_plain(text, em) is False
    assert len(em) == 0
    whole, slow = Emitter(), Emitter()
    LlmcFormat().parse(text, whole)
    LlmcFormat()._parse_lines(text, slow)
    assert _same(_points(whole), _points(slow))


def test_llmc_fast_path_values():
    em = Emitter()
    assert _parse_plain("s:1 trl:3.5 lr:1e-3 norm:2\ns:1 tel:3.75\ns:2 trl:3.25 lr:5e-4 norm:1.5\n", em)
    assert _points(em) == [("train_loss", [1, 2], [3.5, 3.25]), ("val_loss", [1], [3.75]),
                           ("lr", [1, 2], [1e-3, 5e-4]), ("grad_norm", [1, 2], [2.0, 1.5])]
