"""Which format a log is in, from a sample of its first bytes (noise lines simply match nothing).

Every specific format scores the sample's lines; the highest score wins (ties go
to the format's priority), provided that a trial parse of the sample gives it a
loss (or an eval metric): a format that matches a dataset table or a config dump
in a log's header but reads no loss from it loses to the next one. The generic
formats (``key=value``, ``key value`` pairs, then the tolerant reader in
``generic.py``) are tried when no specific format reads a loss; the one that keeps
the most loss points wins. A pretty-printed JSON document is recognised by its
first line. The one text-log engine (``engine.py``) is tried last, where none of them reads a loss.
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
from .deepspeed import DeepSpeedFormat
from .documents import GoldenValuesFormat, TrainerStateFormat
from .engine import TextLogFormat
from .generic import GenericFormat
from .jsonl import JsonLinesFormat
from .keras import KerasFormat
from .kv import KeyValueFormat, SpacedPairsFormat
from .llmc import LlmcFormat, ModdedNanoGptFormat
from .megatron import MegatronFormat
from .nanogpt import NanoGptFormat
from .pydict import HfDictLinesFormat
from .table import CsvFormat, MarkdownTableFormat
from .text import clean_block, printable_sample
from .wordlm import WordLanguageModelFormat

SAMPLE_BYTES = 64 * 1024
JSON_DOCUMENT = "json_document"
MAX_SAMPLE_LINES = 4000

LINE_FORMATS: dict[str, LineFormat] = {
    f.name: f
    for f in (
        MegatronFormat(), WordLanguageModelFormat(), NanoGptFormat(), LlmcFormat(), ModdedNanoGptFormat(),
        DeepSpeedFormat(), HfDictLinesFormat(), KerasFormat(), MarkdownTableFormat(), JsonLinesFormat(), CsvFormat(),
        KeyValueFormat(), SpacedPairsFormat(),
        GenericFormat(), TextLogFormat(),
    )
}
DOCUMENT_FORMATS: dict[str, DocumentFormat] = {f.name: f for f in (TrainerStateFormat(), GoldenValuesFormat())}


def looks_binary(sample: bytes) -> bool:
    """True when more than 10% of the sample is control bytes or invalid UTF-8 (not a text log)."""
    if not sample:
        return False
    ctrl = sum(1 for b in sample[:8192] if b < 32 and b not in (9, 10, 12, 13, 27))
    bad = sample[:8192].decode("utf-8", errors="replace").count("\ufffd")
    n = min(len(sample), 8192)
    return (ctrl + bad) > 0.10 * n


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
    generic = [n for n, f in LINE_FORMATS.items() if f.generic and (scores[n] > 0 or n == GenericFormat.name)]
    # The tolerant reader is tried first and kept unless an older generic grammar keeps clearly more loss points
    # (it reads eval lines apart and numbers steps as the user does, so it may keep a few fewer on purpose).
    best: tuple[tuple[int, int], str] | None = None
    any_points = False
    for name in sorted(generic, key=lambda n: LINE_FORMATS[n].priority):
        if name == TextLogFormat.name and best is not None:
            break  # the engine is the last resort for now
        train, ev, total = trial_parse(name, body)
        found = (train, ev)
        any_points = any_points or total > 0
        if found > (0, 0) and (best is None or (found[0] > 1.25 * best[0][0] + 2 if best[0][0] else found > best[0])):
            best = (found, name)
    if best is not None:
        return Detected(best[1], scores[best[1]], None, scores, best[0])
    if fallback is not None:
        return fallback
    if any_points:  # metrics, but no loss among them: read, and the read says "no loss found"
        return Detected(GenericFormat.name, 0, sample_line(lines), scores)
    if not any(ch.isdigit() for ch in body):
        raise UnknownFormat(f"{where}: no number in its first {len(lines)} lines to read as a metric; "
                            f"pass a training log with metric lines")
    raise UnknownFormat(f"{where}: no metric recognised: none of its first {len(lines)} lines reads as a name and a "
                        f"number; pass a training log with metric lines")


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
