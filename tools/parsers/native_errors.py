"""A native (C++) library's exception a log ends with, as the library prints its description: the source location
it was thrown at on a line of its own (``/.../itkElastixRegistrationMethod.hxx:389:``), then ``TAG ERROR: message``
(ITK's ``ExceptionObject``: ``ITK ERROR: ElastixRegistrationMethod(0x55...): Internal elastix error: ...``;
examples/libraries_holdout100's itk-elastix run whose samples left the moving image, the Python call raising with no
traceback in the log). A run that dies so is a dead run as one ending in a Python traceback is (``run_end``): no
healthy run.

The error line: a tag of 1 to 3 upper-case words (``Dialect.native_error_tag``'s length), then `` ERROR: `` and a
message; the line above (blanks aside, at most ``LOOK_UP`` lines) a source file's location, a path whose file has a
native source's extension (``Dialect.native_source_exts``) then ``:N:``. Both needed: a logger's ``ERROR:`` line
alone is no exception. Plain scans of capped lines, no regular expression: linear."""

from __future__ import annotations

from .dialect import DIALECT

LINE_CAP = 4096  # a longer line is neither
LOOK_UP = 2  # blank lines looked past between the location and the error line
MARK = " ERROR: "


def error_line(line: str) -> tuple[str, str] | None:
    """(tag + `` ERROR``, message) of ``ITK ERROR: message``; else None."""
    if len(line) > LINE_CAP or line[:1] in (" ", "\t"):
        return None
    at = line.find(MARK)
    if at <= 0:
        return None
    words = line[:at].split(" ")
    if not 1 <= len(words) <= DIALECT.native_error_tag or not all(
            w and w.isascii() and w.isalnum() and w.isupper() for w in words):
        return None
    return f"{line[:at]} ERROR", line[at + len(MARK):].strip()


def source_location(line: str) -> bool:
    """``path/file.hxx:389:``: a native source file, its line number, a colon ending the line."""
    s = line.strip()
    if len(s) > LINE_CAP or not s.endswith(":"):
        return False
    body = s[:-1]
    colon = body.rfind(":")
    if colon <= 0 or not body[colon + 1:].isdigit():
        return False
    path = body[:colon]
    return " " not in path and path.lower().endswith(DIALECT.native_source_exts)


def native_error(lines: list[str], i: int) -> tuple[str, str] | None:
    """(type, message) when line ``i`` (a terminal's text, ``run_end._strip``'s) is a native exception's error line
    under its source location (see the module's docstring); else None."""
    found = error_line(lines[i])
    if found is None:
        return None
    for j in range(i - 1, max(-1, i - 2 - LOOK_UP), -1):
        if lines[j].strip():
            return found if source_location(lines[j]) else None
    return None
