"""Training-log parsers: format detection from a sample, one module per format family.

``detect_format(sample)`` names the format; ``LINE_FORMATS[name].parse(text, emitter)``
turns complete cleaned lines into points (state kept in ``emitter.state`` between
blocks); ``DOCUMENT_FORMATS`` parse whole JSON documents; ``parse_bytes`` does all of
it at once for a whole file's bytes.
"""

from __future__ import annotations

import json

from .base import Detected, DocumentFormat, Emitter, LineFormat
from .detect import DOCUMENT_FORMATS, JSON_DOCUMENT, LINE_FORMATS, SAMPLE_BYTES, detect_format, document_format
from .text import clean_block

__all__ = ["Detected", "DocumentFormat", "Emitter", "LineFormat", "DOCUMENT_FORMATS", "JSON_DOCUMENT", "LINE_FORMATS",
           "SAMPLE_BYTES", "detect_format", "document_format", "parse_bytes"]


def parse_bytes(data: bytes, fmt: str | None = None, where: str = "the log") -> tuple[str | None, Emitter]:
    """(format name, emitter with every point) for a whole file's bytes, last line included."""
    if fmt is None:
        det = detect_format(data[:SAMPLE_BYTES], where)
        if det is None:
            return None, Emitter()
        fmt = det.format
    em = Emitter()
    if fmt == JSON_DOCUMENT:
        try:
            doc = json.loads(data.decode("utf-8", errors="replace"))
        except ValueError as e:
            from ..errors import UnknownFormat

            raise UnknownFormat(f"{where} is not valid JSON ({e}); wait until it is fully written") from None
        f = document_format(doc, where)
        f.parse_doc(doc, em)
        return f.name, em
    text, _ = clean_block(data)
    LINE_FORMATS[fmt].parse(text, em)
    LINE_FORMATS[fmt].finish(em)
    return fmt, em
