"""Training-log parsers: format detection from a sample, one module per format family.

``detect_format(sample)`` names the format; ``LINE_FORMATS[name].parse(text, emitter)``
turns complete cleaned lines into points (state kept in ``emitter.state`` between
blocks); ``DOCUMENT_FORMATS`` parse whole JSON documents. The one pipeline that runs
them on a file is ``sources.logfile.LogFileSource``.
"""

from __future__ import annotations

from .base import Detected, DocumentFormat, Emitter, LineFormat
from .detect import DOCUMENT_FORMATS, JSON_DOCUMENT, LINE_FORMATS, SAMPLE_BYTES, TEXT, detect_format, document_format

__all__ = ["Detected", "DocumentFormat", "Emitter", "LineFormat", "DOCUMENT_FORMATS", "JSON_DOCUMENT", "LINE_FORMATS",
           "SAMPLE_BYTES", "TEXT", "detect_format", "document_format"]
