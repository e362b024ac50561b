"""W&B history pages read by the C kernel (tools/sources/wandb_history.py, tools/parsers/_kernel_wandb.c) give the
row-by-row pass's points, order, names and last step (wandb_api.history_page_rows then _add_rows) on random, odd and
hostile rows, page by page; without the kernel the same."""

from __future__ import annotations

import json
import math
import os
import random

import pytest
from training_check.tools.errors import BadInput
from training_check.tools.limits import MAX_METRICS
from training_check.tools.parsers.kernel import HAVE_KERNEL
from training_check.tools.points import BatchBuilder
from training_check.tools.sources.wandb_api import _add_rows, history_page_rows
from training_check.tools.sources.wandb_history import HistoryPoints

KEYS = ["loss", "lr", "_runtime", "_timestamp", "system/gpu", "system.cpu", "eval/acc", "z", "a", "", "é", "sys"]
VALUES = ["1", "-0", "-0.0", "2.5", "1e400", "-1e400", "1E-400", "12345678901234567890123", "0.1000000000000000055511",
          "NaN", "Infinity", "-Infinity", "null", "true", "false", '"NaN"', '"-nan"', '"+nan"', '"inf"', '"+inf"',
          '"-inf"', '"+Infinity"', '" nan "', '"12"', '"hello"', '"x\\u00e9"', '"caf\u00e9"', '{"_type": "h"}',
          "[1, 2]", "9" * 301, "-" + "9" * 310, "01", "1.", ".5", "+1", "nan", "-NaN", '"\\n"']
STEPS = ["0", "1", "7", "-3", "5.0", "5.5", "1e2", '"5"', "null", "true", "NaN", "-Infinity", "99999999999999999999",
         "123456789012345678", "-123456789012345678", "1234567890123456789"]


def _expected(pages: list[list], after: int) -> tuple[int, list]:
    rows = [row for lines in pages for row in history_page_rows(lines)]
    b = BatchBuilder()
    last = _add_rows(rows, b, after)
    return last, _points(b)


def _points(b: BatchBuilder) -> list:
    return [(k, c.steps.tolist(), [repr(v) for v in c.values.tolist()]) for k, c in b.build().columns.items()]


def _read(pages: list[list], after: int, use_kernel: bool, texts: bool = False) -> tuple[int, list, int | None]:
    """The pages read by HistoryPoints: as lists of lines, or (``texts``) as the answers' JSON text W&B sends."""
    h = HistoryPoints(after, use_kernel=use_kernel)
    for i, lines in enumerate(pages):
        h.add_page(_answer(lines, i) if texts else lines)
    b = BatchBuilder()
    last = h.into(b)
    return last, _points(b), h.resume


def _answer(lines: list, i: int) -> str:
    """A HistoryPage answer's text, spelled a few ways (compact, spaced, non-ASCII as is)."""
    answer = {"project": {"run": {"history": lines}}}
    if i % 3 == 0:
        return json.dumps(answer)
    return json.dumps(answer, separators=(",", ":"), ensure_ascii=i % 3 == 1)


def _line(rng: random.Random, i: int) -> object:
    r = rng.random()
    if r < 0.02:
        return rng.choice([None, 5, b"{}", "", " ", "not json", '"a string"', "[1]", "{}", "{} ", " {}", "{},{}",
                           '{"_step": 1', '{"_step": 1,}', '{"_step": 1} x', '{"_step": 1}\n\t '])
    parts = []
    if rng.random() < 0.95:
        parts.append(("_step", rng.choice(STEPS) if rng.random() < 0.08 else str(rng.choice([i, i, i, rng.randrange(
            -3, 80)]))))
    for key in rng.sample(KEYS, rng.randrange(0, 6)):
        number = rng.choice([rng.random(), rng.randrange(-5, 5), rng.random() * 10 ** rng.randrange(-30, 30)])
        v = rng.choice(VALUES) if rng.random() < 0.2 else repr(number)
        parts.append((key, v))
    if rng.random() < 0.03 and parts:
        parts.append(rng.choice(parts))  # a repeated key
    if rng.random() < 0.3:
        parts.reverse()
    ws = rng.choice(["", "", " ", "\n", "\t", "\r\n "])
    body = ("," + ws).join(f'{json.dumps(k) if rng.random() < 0.97 else chr(34) + k + chr(34)}{ws}:{ws}{v}'
                           for k, v in parts)
    return "{" + ws + body + ws + "}" + rng.choice(["", "", "", " ", "\n"])


@pytest.mark.parametrize("use_kernel,texts", [(True, False), (True, True), (False, False), (False, True)])
def test_pages_give_the_row_by_row_points_names_order_and_last_step(use_kernel, texts):
    if use_kernel and not HAVE_KERNEL:
        if os.environ.get("CI") == "true":
            pytest.fail("the C kernel is not built")
        pytest.skip("the C kernel is not built")
    rng = random.Random(11)
    for case in range(400):
        n = rng.randrange(0, 120)
        lines = [_line(rng, i) for i in range(n)]
        if texts:
            lines = [x.decode() if isinstance(x, bytes) else x for x in lines]
        cuts = sorted(rng.sample(range(n + 1), min(n + 1, rng.randrange(1, 4))))
        pages = [lines[a:b] for a, b in zip([0, *cuts], [*cuts, n], strict=True)]
        after = rng.choice([-1, -1, 5, 30])
        got = _outcome(lambda p=pages, a=after: _read(p, a, use_kernel, texts)[:2])
        assert got == _outcome(lambda p=pages, a=after: _expected(p, a)), (case, pages)


def _outcome(read):
    """What a read gives, or the error it raises (a NaN or infinite step: int() refuses it in both passes)."""
    try:
        return read()
    except (ValueError, OverflowError) as e:
        return type(e).__name__


def test_an_answer_of_another_shape_is_read_by_json_and_one_naming_no_run_says_so():
    lines = [json.dumps({"_step": i, "loss": 1.0 / (i + 1)}) for i in range(3)]
    expected = _expected([lines], -1)
    for text in (json.dumps({"project": {"run": {"history": lines, "more": 1}}}),
                 json.dumps({"project": {"run": {"history": lines + [None, 5]}}}),
                 ' {"project" :{ "run":{"history" : ' + json.dumps(lines) + ' } } }\n'):
        h = HistoryPoints(-1)
        assert h.add_page(text) == len(json.loads(text)["project"]["run"]["history"])
        b = BatchBuilder()
        assert (h.into(b), _points(b)) == expected
    for gone in ('{"project": {"run": null}}', '{"project": null}', "null"):
        with pytest.raises(LookupError, match="could not find run"):
            HistoryPoints(-1).add_page(gone)
    with pytest.raises(ValueError):
        HistoryPoints(-1).add_page('{"project": {"run": {"history": ["{}"]}}')


def test_a_retry_resumes_after_the_last_row_with_a_step():
    lines = [json.dumps({"_step": i, "loss": 1.0}) for i in range(5)] + ['{"loss": 2}', "not json"]
    assert _read([lines], -1, True)[2] == 4
    assert _read([lines[:2] + ['{"_step": 7.0, "loss": {"a": 1}}', "{}"]], -1, True)[2] == 7
    assert _read([["{}"]], -1, True)[2] is None


def test_points_of_a_clean_page_are_the_json_values():
    lines = [json.dumps({"_step": i, "train_loss": 1 / (i + 1), "lr": 0.1, "n": i, "bad": "NaN", "_runtime": 3.5})
             for i in range(2000)]
    last, points, _ = _read([lines[:1000], lines[1000:]], 10, True)
    assert last == 1999
    assert [p[0] for p in points] == ["train_loss", "lr", "n", "bad"]
    assert points[0][1] == list(range(11, 2000)) and points[0][2] == [repr(1 / (i + 1)) for i in range(11, 2000)]
    assert all(math.isnan(float(v)) for v in points[3][2])


def test_too_many_metric_names_is_refused_in_one_line():
    h = HistoryPoints(-1)
    lines = [json.dumps({"_step": 1, **{f"m{i}": 1.0 for i in range(k, k + 1000)}})
             for k in range(0, MAX_METRICS + 1000, 1000)]
    with pytest.raises(BadInput, match="metric"):
        h.add_page(lines)
        h.into(BatchBuilder())
