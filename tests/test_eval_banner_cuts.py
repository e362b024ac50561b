"""Issue 32 item 5, records under an evaluation's banner (``***** Evaluating perplexity, Epoch 1/2 *****`` then
``ppl: 2.5``): the same bytes give the same points whatever the reads' sizes. A record seen once in a read is carried
to the next one (its template may recur there); carried so, it is still under the banner it was printed under (a
read cut between the banner and its record read it as a train value, placed at the banner's epoch). Every single cut
of a few small logs with eval banners before their records, and some double and triple cuts, read as one read."""

from __future__ import annotations

import random

import pytest

from .test_parsers_property import _in_parts, _points


def _deepspeed(n: int) -> str:
    """DeepSpeed-Chat's step lines, an evaluation after every fourth (``LOGS["deepspeed"]`` of the property test)."""
    return "".join(f"[2023-04-18 01:46:59,142] [INFO] [logging.py:96:log_dist] [Rank 0] step={i * 10}, "
                   f"skipped=0, lr=[1e-05, 1e-05], mom=[(0.9, 0.95)]\n"
                   + ("***** Evaluating perplexity, Epoch 1/2 *****\nppl: 2.5\n" if i % 4 == 0 else "")
                   for i in range(n))


def _held_out() -> str:
    """An initial evaluation before any training step, then one after each epoch."""
    lines = ["=== Evaluating on held-out set, Epoch 0/3 ===\nperplexity: 95.5\n"]
    for e in range(1, 4):
        lines += [f"update={e * 100 + k} loss={4 - e / 2 - k / 100:.3f}\n" for k in range(3)]
        lines.append(f"=== Evaluating on held-out set, Epoch {e}/3 ===\nperplexity: {90 - e * 10:.1f}\n")
    return "".join(lines)


def _blank_lines() -> str:
    """Blank lines around the banner and between it and its record."""
    out = []
    for i in range(12):
        out.append(f"iter {i * 5} | loss {3 - i / 10:.3f} | lr 0.001\n")
        if i % 3 == 2:
            out.append(f"\n----- Evaluating, Epoch {i // 3 + 1}/4 -----\n\nppl: {20 - i:.2f}\n\n")
    return "".join(out)


LOGS = {"deepspeed": _deepspeed(9), "held_out": _held_out(), "blank_lines": _blank_lines()}
ONE_READ = {  # the evaluations, read in one read: each at the train step it follows (before any: step 0)
    "deepspeed": [(0, 2.5), (40, 2.5), (80, 2.5)],
    "held_out": [(0, 95.5), (102, 80.0), (202, 70.0), (302, 60.0)],
    "blank_lines": [(10, 18.0), (25, 15.0), (40, 12.0), (55, 9.0)],
}


@pytest.mark.parametrize("name", sorted(LOGS))
def test_every_cut_of_a_log_with_eval_banners_reads_as_one_read(name):
    raw = LOGS[name].encode()
    _acc, one = _in_parts(raw, [])
    want = _points(one)
    evals = [k for k in want if k.endswith(("ppl", "perplexity"))]
    assert evals == [next(k for k in want if k.startswith("eval_"))]  # no train ppl beside the eval's
    assert want[evals[0]] == ONE_READ[name]
    rnd = random.Random(name)
    starts = [i + 1 for i, b in enumerate(raw[:-1]) if b == 10]
    cuts = [[c] for c in range(1, len(raw))]
    cuts += [sorted(rnd.sample(range(1, len(raw)), 2)) for _ in range(40)]
    cuts += [sorted(rnd.sample(starts, 3)) for _ in range(20)]
    wrong = [c for c in cuts if _points(_in_parts(raw, c)[0]) != want]
    assert not wrong, f"{len(wrong)} of {len(cuts)} cuts read otherwise, e.g. {wrong[:5]}"
