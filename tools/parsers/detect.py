"""Which reader a log needs, from a sample of its first bytes.

Structured files have their own readers: a JSON document (recognised by its first line), JSON lines, a CSV/TSV
table with a header, a markdown table. Every other text log goes to the one text-log engine (``engine.py``),
which needs no format of its own. A bad byte costs its line: the sample is "binary" only when no text line with a
number is in it; text with no number at all is refused quoting no byte of it.
"""

from __future__ import annotations

import json

import numpy as np

from ..errors import UnknownFormat
from .base import Detected, DocumentFormat, Emitter, LineFormat
from .documents import GoldenValuesFormat, TrainerStateFormat
from .engine import TextLogFormat
from .jsonl import JsonLinesFormat
from .lines import split_lines
from .table import CsvFormat, MarkdownTableFormat
from .text import clean_block, printable_sample

SAMPLE_BYTES = 64 * 1024
JSON_DOCUMENT = "json_document"
MAX_SAMPLE_LINES = 4000

LINE_FORMATS: dict[str, LineFormat] = {
    f.name: f for f in (MarkdownTableFormat(), JsonLinesFormat(), CsvFormat(), TextLogFormat())
}
TEXT = TextLogFormat.name
DOCUMENT_FORMATS: dict[str, DocumentFormat] = {f.name: f for f in (TrainerStateFormat(), GoldenValuesFormat())}


def looks_binary(sample: bytes) -> bool:
    """True when no line of the sample is text with a digit in it (a bad byte costs its line, not the file)."""
    if not sample:
        return False
    for line in split_lines(sample[:65536]).lines:
        if not line or not any(48 <= c <= 57 for c in line):
            continue
        ctrl = sum(1 for c in line if c < 32 and c != 9)
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if not ctrl and sum(1 for c in line if 32 <= c < 127) >= 0.8 * len(line):
            return False
    return True


def sample_line(lines: list[str]) -> str:
    """A representative line to quote: the first non-empty line with a digit in it, else the first non-empty one."""
    nonempty = [ln for ln in lines if ln.strip()]
    for ln in nonempty:
        if any(ch.isdigit() for ch in ln):
            return printable_sample(ln)
    return printable_sample(nonempty[0]) if nonempty else ""


def detect_format(sample: bytes, where: str = "the file") -> Detected | None:
    """The format of a sample of complete lines; None when the sample holds no line yet.

    Raises UnknownFormat for binary data or text no parser recognises.
    """
    if not sample.strip():
        return None
    if looks_binary(sample):
        raise UnknownFormat(f"{where} looks binary, not a training log; "  # never quote the bytes: any file

                            f"pass a text log, a .wandb file or TensorBoard events")
    text, _ = clean_block(sample)
    lines = text.split("\n")[:MAX_SAMPLE_LINES]
    first = next((ln.strip() for ln in lines if ln.strip()), "")
    if first.startswith("{") and not first.endswith("}"):
        try:
            json.loads(first)
        except ValueError:
            return Detected(JSON_DOCUMENT, 1, first)  # a pretty-printed document opens with a lone "{"
    scores = {name: f.score(lines) for name, f in LINE_FORMATS.items() if not f.generic}
    body = "\n".join(lines) + "\n"
    for s, _, name in sorted(((s, LINE_FORMATS[n].priority, n) for n, s in scores.items() if s > 0), reverse=True):
        train, ev, _ = trial_parse(name, body)
        if (train, ev) > (0, 0):
            return Detected(name, s, None, scores, (train, ev))
    train, ev, total = trial_parse(TEXT, body)
    if total:
        return Detected(TEXT, total, None if (train, ev) > (0, 0) else sample_line(lines), scores, (train, ev))
    if not any(ch.isdigit() for ch in body):
        raise UnknownFormat(f"{where}: no number in its first {len(lines)} lines to read as a metric; "
                            f"pass a training log with metric lines")
    return Detected(TEXT, 0, sample_line(lines), scores)


def trial_parse(name: str, text: str) -> tuple[int, int, int]:
    """(train-loss points, eval points, all points) that format ``name`` keeps from ``text``: points of the best-kept
    train loss (steps going back supersede earlier points, as in the frame), of the best eval metric, and the count
    of all points read."""
    from ..roles import infer_role

    f = LINE_FORMATS[name]
    em = Emitter()
    try:
        f.parse(text, em)
        f.finish(em)
    except Exception:  # noqa: BLE001 - a parser that chokes on a foreign format simply does not read it
        return (0, 0, 0)
    best_train = best_eval = 0
    columns = em.build().columns
    for key in set(columns) | set(em.aside_keys):
        role = infer_role(key).role
        if role not in ("train_loss", "eval") and not (role == "train_metric" and "ppl" in key.lower()):
            continue
        steps = columns[key].steps if key in columns else np.zeros(0, dtype=np.int64)
        if len(steps) > 1:
            later_min = np.minimum.accumulate(steps[::-1])[::-1]
            kept = int(np.count_nonzero(steps[:-1] < later_min[1:])) + 1
        else:
            kept = len(steps)
        kept += em.aside_keys.get(key, 0)  # earlier runs of the file are read too, only set aside
        if role == "eval":
            best_eval = max(best_eval, kept)
        else:
            best_train = max(best_train, kept)
    return (best_train, best_eval, sum(len(c) for c in columns.values()) + sum(em.aside_keys.values()))


def document_format(doc: object, where: str = "the file") -> DocumentFormat:
    """The document format that accepts a parsed JSON document."""
    for f in DOCUMENT_FORMATS.values():
        if f.accepts(doc):
            return f
    keys = f"an object with {len(doc)} keys" if isinstance(doc, dict) else f"a JSON {type(doc).__name__}"
    raise UnknownFormat(f"{where} is a JSON document of unknown shape ({keys}); expected trainer_state.json "
                        f"(log_history) or Megatron golden values")
