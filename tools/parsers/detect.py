"""Which format a log is in, from a sample of its first bytes (noise lines simply match nothing).

Every structured format (JSONL, CSV, markdown tables) scores the sample's lines; the highest score wins (ties go
to the format's priority), provided that a trial parse of the sample gives it a loss (or an eval metric): a format
that matches a dataset table or a config dump in a log's header but reads no loss from it loses to the next one. A
pretty-printed JSON document is recognised by its first line. Every other text log is the one text-log engine's
(``engine.py``; Megatron, nanoGPT, llm.c, DeepSpeed, Keras... included: their conventions are ``dialect.py``'s).
Text with metrics in it is never refused: with nothing better, the
tolerant reader reads it (and the read says when no loss is among them). Binary
data, and text where no line reads as a name and a number, raise
``UnknownFormat`` quoting a sample line.
"""

from __future__ import annotations

import json

import numpy as np

from ..errors import UnknownFormat
from .base import Detected, DocumentFormat, Emitter, LineFormat
from .documents import GoldenValuesFormat, SeriesArraysFormat, TrainerStateFormat
from .engine import TextLogFormat
from .jsonl import JsonLinesFormat
from .lines import split_lines
from .table import CsvFormat, MarkdownTableFormat
from .text import clean_block, printable_sample

SAMPLE_BYTES = 64 * 1024
JSON_DOCUMENT = "json_document"
MAX_SAMPLE_LINES = 4000

LINE_FORMATS: dict[str, LineFormat] = {
    f.name: f
    for f in (MarkdownTableFormat(), JsonLinesFormat(), CsvFormat(), TextLogFormat())
}
TEXT = TextLogFormat.name
DOCUMENT_FORMATS: dict[str, DocumentFormat] = {f.name: f for f in (TrainerStateFormat(), GoldenValuesFormat(),
                                                                  SeriesArraysFormat())}


def looks_binary(sample: bytes) -> bool:
    """True when no line of the sample is text (valid UTF-8, nine tenths printable): a bad byte, a block of NULs or
    a progress bar's control codes cost their line, not the file."""
    if not sample:
        return False
    for line in split_lines(sample[:65536]).lines:
        if len(line) < 4:
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if sum(ch.isprintable() or ch == "\t" for ch in text) >= 0.9 * len(text):
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
    scores = {name: f.score(lines) for name, f in LINE_FORMATS.items()}
    body = "\n".join(lines) + "\n"
    specific = sorted(((s, LINE_FORMATS[n].priority, n) for n, s in scores.items()
                       if s > 0 and not LINE_FORMATS[n].generic), reverse=True)
    fallback: Detected | None = None
    for s, _, name in specific:
        train, ev, _ = trial_parse(name, body)
        found = (train, ev)
        if found > (0, 0):
            return Detected(name, s, None, scores, found)
        fallback = fallback or Detected(name, s, None, scores)
    train, ev, total = trial_parse(TEXT, sample)  # the engine reads raw bytes (each redraw is a line)
    if (train, ev) > (0, 0):
        return Detected(TEXT, total, None, scores, (train, ev))
    if fallback is not None:
        return fallback
    if total:  # metrics, but no loss among them: read, and the read says "no loss found"
        return Detected(TEXT, 0, sample_line(lines), scores)
    if not any(ch.isdigit() for ch in body):
        raise UnknownFormat(f"{where}: no number in its first {len(lines)} lines to read as a metric; "
                            f"pass a training log with metric lines")
    raise UnknownFormat(f"{where}: no metric recognised: none of its first {len(lines)} lines reads as a name and a "
                        f"number; pass a training log with metric lines")


def trial_parse(name: str, text: str | bytes) -> tuple[int, int, int]:
    """(train-loss points, eval points, all points) that format ``name`` keeps from ``text``: points of the best-kept
    train loss (steps going back supersede earlier points, as in the frame), of the best eval metric, and the count
    of all points read."""
    from ..objective import assign_roles

    f = LINE_FORMATS[name]
    em = Emitter()
    try:
        if isinstance(text, bytes):
            f.parse_plain(text, em)
        elif not f.parse_plain(text.encode("utf-8", "surrogatepass"), em):  # the fast path gives parse's points
            f.parse(text, em)
        f.finish(em)
    except Exception:  # noqa: BLE001 - a parser that chokes on a foreign format simply does not read it
        return (0, 0, 0)
    best_train = best_eval = 0
    columns = em.build().columns
    roles = assign_roles(sorted(set(columns) | set(em.aside_keys)))  # the objective by name when none is a loss
    for key, found in roles.items():
        role = found.role
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
                        f"(log_history), Megatron golden values or series as arrays ({{name: {{steps, values}}}})")
