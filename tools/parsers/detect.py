"""Which format a log is in, from a sample of its first bytes (noise lines simply match nothing).

Every specific format scores the sample's lines; the highest score wins (ties go
to the format's priority). The generic ``key=value`` format is used only when no
specific format matched a single line. A pretty-printed JSON document is
recognised by its first line. Binary data and unrecognised text raise
``UnknownFormat`` quoting a sample line.
"""

from __future__ import annotations

import json

from ..errors import UnknownFormat
from .base import Detected, DocumentFormat, LineFormat
from .deepspeed import DeepSpeedFormat
from .documents import GoldenValuesFormat, TrainerStateFormat
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
        MegatronFormat(), WordLanguageModelFormat(), NanoGptFormat(), LlmcFormat(), ModdedNanoGptFormat(), DeepSpeedFormat(),
        HfDictLinesFormat(), KerasFormat(), MarkdownTableFormat(), JsonLinesFormat(), CsvFormat(), KeyValueFormat(), SpacedPairsFormat(),
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
    specific = [(s, LINE_FORMATS[n].priority, n) for n, s in scores.items() if s > 0 and not LINE_FORMATS[n].generic]
    if specific:
        s, _, name = max(specific)
        return Detected(name, s, None, scores)
    generic = [(s, n) for n, s in scores.items() if s > 0 and LINE_FORMATS[n].generic]
    if generic:
        s, name = max(generic)
        return Detected(name, s, None, scores)
    raise UnknownFormat(f"{where}: no known log format recognised in its first {len(lines)} lines; "
                        f"supported: nanoGPT, llm.c, modded-nanogpt, Megatron, HF Trainer, Keras, DeepSpeed, JSONL, CSV, key=value")


def document_format(doc: object, where: str = "the file") -> DocumentFormat:
    """The document format that accepts a parsed JSON document."""
    for f in DOCUMENT_FORMATS.values():
        if f.accepts(doc):
            return f
    keys = f"an object with {len(doc)} keys" if isinstance(doc, dict) else f"a JSON {type(doc).__name__}"
    raise UnknownFormat(f"{where} is a JSON document of unknown shape ({keys}); expected trainer_state.json "
                        f"(log_history) or Megatron golden values")
