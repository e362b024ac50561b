"""How a run ended: the last exception a text log ends with (a Python traceback's final ``Type: message`` line).

Read from a bounded tail of the log (``TAIL_BYTES`` before the read's end, its complete lines only), never the whole
file: the lines are walked back from the end over what may follow a crash (blanks, progress-bar redraws, a tracker's
shutdown lines, an ``Exception ignored in`` block, a Python warning's lines), at most ``MAX_LINES`` of them; the first
other line must be an exception's (a dotted name, then ``: message`` or nothing), with a traceback's frames (indented
lines) or its ``Traceback (most recent call last):`` header right above it or above at most ``MESSAGE_LINES`` lines of
its message. Every step is a plain scan of a capped line (no regular expression): linear in the tail.

The end says: the exception's type, its message (redacted and capped by the caller, ``tools/signals/run_end.py``),
its line number in the file (when the caller knows the count of lines before the tail), and whether it names a
non-finite loss (a NaN/Inf word beside a loss word, or a backward function that "returned nan values"). A log's
final ``Training ended!`` line is no exception: nothing. A last line where the training's own guard stops it on its
loss (``stop_message``: ``Training stopping after epoch 5 because training loss diverged.``, ``Invalid loss,
terminating training``) ends it as such an exception does: the run died of its loss (type ``STOP_TYPE``).
"""

from __future__ import annotations

from .dialect import DIALECT
from .native_errors import native_error

TAIL_BYTES = 64 << 10  # the part of the log looked at, before the read's end
MAX_LINES = 400  # lines of the tail walked back at most
LINE_CAP = 4096  # a line longer than this is no exception's line, no frame, no noise: the walk stops there
MESSAGE_LINES = 12  # lines an exception's message may take below its type
WARNING_LINES = 24  # lines a Python warning printed after a crash may take (its header, message, source line)
TYPE_CAP = 120  # an exception's dotted name is at most this long
TRACEBACK_HEAD = "Traceback (most recent call last):"
IGNORED_HEAD = "Exception ignored in"
NONFINITE_WORDS = frozenset({"nan", "nans", "inf", "infs", "infinity", "infinite", "nonfinite"})
LOSS_WORDS = frozenset({"loss", "losses", "objective", "gradient", "gradients", "optimization", "optimisation"})
# a training's own guard stopping it on its loss (pzflow's ``Training stopping after epoch 5 because training loss
# diverged.``, Keras' TerminateOnNaN ``Batch 12: Invalid loss, terminating training``, Lightning's ``Monitored metric
# val_loss = nan is not finite. ... Signaling Trainer to stop.``): a stop word, a loss word, and a word saying why
STOP_WORDS = frozenset({"stop", "stops", "stopping", "stopped", "terminate", "terminates", "terminating", "terminated",
                        "halt", "halting", "halted", "abort", "aborting", "aborted"})
WHY_WORDS = frozenset({"diverged", "diverging", "diverges", "divergence", "invalid"})
STOP_TYPE = "the training's own stop"  # the ``type`` a stop message is kept under (no exception's dotted name)


def _strip(line: str) -> str:
    """The line as a terminal shows it: after its last ``\\r`` redraw, without ANSI escapes, without a launcher's
    bracketed prefix (``[rank0]: ``, ``[default0]:``)."""
    if "\r" in line:
        parts = [p for p in line.split("\r") if p.strip()]
        line = parts[-1] if parts else ""
    if "\x1b" in line:
        out, i, n = [], 0, len(line)
        while i < n:
            c = line[i]
            if c == "\x1b":
                i += 1
                if i < n and line[i] == "[":
                    i += 1
                    while i < n and (line[i].isdigit() or line[i] in ";?"):
                        i += 1
                i += 1  # the final letter
                continue
            out.append(c)
            i += 1
        line = "".join(out)
    if line.startswith("["):
        close = line.find("]:", 0, 40)
        if close > 0:
            line = line[close + 2:]
            if line.startswith(" "):
                line = line[1:]
    return line.rstrip()


def _is_noise(line: str) -> bool:
    """What may follow a crash without being the run going on: a blank, a progress bar's redraw, a tracker's
    shutdown line."""
    s = line.strip()
    if not s:
        return True
    if s.startswith(DIALECT.end_noise_prefixes):
        return True
    if "%|" in s or "█" in s or "━" in s:
        return True
    return s.endswith("]") and ("it/s" in s or "s/it" in s or "/s]" in s) and "/" in s


def exception_line(line: str) -> tuple[str, str] | None:
    """(type, message) of an exception's final line: ``Type: message`` or a bare ``Type``, the type a dotted name
    of identifiers (``ValueError``, ``torch.OutOfMemoryError``); None for any other line."""
    if not line or line[0] in " \t" or len(line) > LINE_CAP:
        return None
    colon = line.find(":")
    name = line if colon < 0 else line[:colon]
    if not name or len(name) > TYPE_CAP or not (name[0].isalpha() or name[0] == "_"):
        return None
    for part in name.split("."):
        if not part or not (part[0].isalpha() or part[0] == "_") or not all(c.isalnum() or c == "_" for c in part):
            return None
    last = name.rsplit(".", 1)[-1]
    if not last[0].isupper():
        return None  # exception classes are capitalised: `epoch: 3`, `loss: nan` are records
    if colon < 0:
        return name, ""
    rest = line[colon + 1:]
    if rest and rest[0] != " ":
        return None  # `Time:12` is no exception
    return name, rest.strip()


def _frame_line(line: str) -> bool:
    """A traceback's body: an indented line (``  File "...", line 3, in f``, its code, a ``^^^^`` marker)."""
    return bool(line) and line[0] in " \t" and bool(line.strip())


def _message_line(line: str) -> bool:
    """A line that may continue an exception's message below its type: no frame (indented), no progress bar, no
    record (a number right after a ``:`` or ``=``: ``Train loss: 1.87``)."""
    if _frame_line(line) or (line.strip() and _is_noise(line)):
        return False
    for sep in (":", "="):
        at = line.find(sep)
        while at >= 0:
            rest = line[at + 1:at + 4].lstrip()
            if rest[:1].isdigit() or (rest[:1] in "-." and rest[1:2].isdigit()):
                return False
            at = line.find(sep, at + 1)
    return True


def _words(text: str) -> list[str]:
    out, cur = [], []
    for c in text.lower():
        if c.isalnum():
            cur.append(c)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def names_nonfinite_loss(kind: str, message: str) -> bool:
    """Whether an exception names a non-finite loss: a NaN/Inf word (``non-finite`` too) beside a loss word (loss,
    objective, gradient), or a backward function's output that "returned nan values"."""
    words = _words(f"{kind} {message}")
    bad = any(w in NONFINITE_WORDS for w in words) or any(
        a == "non" and b == "finite" for a, b in zip(words, words[1:], strict=False))
    if not bad:
        return False
    if any(w in LOSS_WORDS for w in words):
        return True
    return "returned" in words and any(w.endswith("backward") or w.rstrip("0123456789").endswith("backward")
                                       for w in words)


def stop_message(line: str) -> bool:
    """Whether ``line`` is a training's own guard stopping it on its loss (``STOP_WORDS``): a stop word, a loss word
    and a non-finite (``nan``, ``non-finite``) or divergence word (``WHY_WORDS``). An early stop on a loss that no
    longer improves names none of the latter: no such message."""
    if len(line) > LINE_CAP or not _message_line(line):  # (a record naming its stopping criterion is no message)
        return False
    words = _words(line)
    if not any(w in STOP_WORDS for w in words) or not any(w in LOSS_WORDS or w.endswith("loss") for w in words):
        return False
    return any(w in WHY_WORDS or w in NONFINITE_WORDS for w in words) or any(
        a == "non" and b == "finite" or a == "not" and b == "finite" for a, b in zip(words, words[1:], strict=False))


def find_end(tail: bytes, at_start: bool) -> dict | None:
    """The exception the complete lines of ``tail`` end with: {"type", "message", "from_end" (lines after it in the
    tail), "nonfinite"}; None when the tail ends otherwise. ``at_start``: the tail is the file's start (its first
    line whole)."""
    end = tail.rfind(b"\n")
    if end < 0:
        return None
    text = tail[:end].decode("utf-8", "replace")
    lines = text.split("\n")
    if not at_start:
        lines = lines[1:]  # cut by the tail's start
    i = len(lines) - 1
    walked = 0
    while i >= 0 and walked < MAX_LINES:
        raw = lines[i]
        if len(raw) > LINE_CAP:
            return None
        line = _strip(raw)
        if _is_noise(line):
            i -= 1
            walked += 1
            continue
        found = _exception_at(lines, i)
        native = native_error([_strip(x) for x in lines[max(0, i - 8):i + 1]], min(i, 8)) if found is None else None
        if native is not None:  # a native library's exception (ITK's ``ITK ERROR: ...``: ``native_errors``)
            return {"type": native[0], "message": native[1], "from_end": len(lines) - 1 - i,
                    "nonfinite": names_nonfinite_loss(*native)}
        if found is None and stop_message(line):  # the training stopped itself on its loss: it died of it
            return {"type": STOP_TYPE, "message": line.strip(), "from_end": len(lines) - 1 - i, "nonfinite": True}
        if found is None:
            j = _warning_above(lines, i)
            if j is None:
                return None
            i, walked = j - 1, walked + (i - j) + 1  # a Python warning printed after the crash (by another process,
            continue  # or at the interpreter's exit): no run going on
        kind, message, more, k, head = found
        if head > 0 and _strip(lines[head - 1]).startswith(IGNORED_HEAD):
            i, walked = head - 2, walked + (i - head) + 2  # an exception the process ignored and went on from
            continue
        return {"type": kind, "message": message or more, "from_end": len(lines) - 1 - k,
                "nonfinite": names_nonfinite_loss(kind, f"{message} {more}")}
    return None


def warning_header(line: str) -> bool:
    """A Python warning's first line, ``path/to/file.py:23: UserWarning: message`` (``warnings.showwarning``'s
    format: a file, its line number, a category whose name ends in ``Warning``)."""
    if not line or line[0] in " \t" or len(line) > LINE_CAP:
        return False
    at = line.find(".py:")
    if at < 0:
        return False
    rest = line[at + 4:]
    digits = len(rest) - len(rest.lstrip("0123456789"))
    if not digits or not rest.startswith(": ", digits):
        return False
    rest = rest[digits + 2:]
    colon = rest.find(":")
    kind = rest if colon < 0 else rest[:colon]
    return kind.endswith("Warning") and kind[:1].isupper() and all(c.isalnum() or c == "_" for c in kind)


def _warning_above(lines: list[str], i: int) -> int | None:
    """The index of a Python warning's first line (``warning_header``) at most ``WARNING_LINES`` above ``i``, the
    lines from it to ``i`` being its message and its source line (``  warnings.warn(``); None when there is none."""
    for j in range(i, max(-1, i - WARNING_LINES - 1), -1):
        line = _strip(lines[j])
        if warning_header(line):
            return j
        if exception_line(line) is not None and _traceback_above(lines, j) is not None:
            return None  # an exception's end: no warning's message
    return None


def _exception_at(lines: list[str], i: int) -> tuple[str, str, str, int, int] | None:
    """(type, message on its line, the message's further lines, the exception line's index, the index of the
    traceback's header or first frame) when the lines up to ``i`` end an exception: its ``Type: message`` line at
    ``i`` or at most ``MESSAGE_LINES`` above it (a message over lines), under a traceback's frames."""
    for k in range(i, max(-1, i - MESSAGE_LINES - 1), -1):
        line = _strip(lines[k])
        exc = exception_line(line)
        head = _traceback_above(lines, k) if exc is not None else None
        if exc is None or head is None:
            if not _message_line(line):
                return None  # a frame, a record or a bar: no exception's message, nor one above it
            continue
        kind, message = exc
        more = " ".join(_strip(x).strip() for x in lines[k + 1:i + 1]).strip()
        return kind, message, more, k, head
    return None


def _traceback_above(lines: list[str], k: int) -> int | None:
    """The index of the traceback header above an exception's line at ``k`` (a header glued after a bar's redraw
    counts), or of its first frame when the tail cut the header off; None when no frame is right above it."""
    j = k - 1
    frames = 0
    while j >= 0 and k - j <= MAX_LINES:
        raw = lines[j]
        if len(raw) > LINE_CAP:
            break
        line = _strip(raw)
        if line.endswith(TRACEBACK_HEAD):
            return j if frames else None
        if not _frame_line(line):
            break
        frames += 1
        j -= 1
    if frames and (j < 0 or k - j > MAX_LINES) and any(_strip(x).lstrip().startswith('File "') for x in lines[j + 1:k]):
        return j + 1  # the header is before the tail: frames up to its start
    return None


def last_line(part: bytes) -> str:
    """What the last of the complete lines of ``part`` (bytes a read added, from a line's start) says of the log's
    end: "record" when its last line that is no blank, bar or tracker's talk is a record (no exception ends the log),
    "noise" when it has no other line, else "text" (an exception's line, its message, an indented line: a frame or a
    warning's source line; for both, the tail must be looked at)."""
    end = part.rfind(b"\n")
    if end < 0:
        return "noise"
    lines = part[:end].decode("utf-8", "replace").split("\n")
    for raw in reversed(lines[-MAX_LINES:]):
        if len(raw) > LINE_CAP:
            return "record"
        line = _strip(raw)
        if _is_noise(line):
            continue
        # (an indented line may be a Python warning's source line, ``  warnings.warn(``, printed after a crash whose
        # traceback an earlier read brought: the tail is looked at, a walk that stops at once on a record's line)
        return "text" if exception_line(line) is not None or _message_line(line) or _frame_line(line) else "record"
    return "noise" if len(lines) <= MAX_LINES else "record"


MESSAGE_CAP = 200  # characters of an exception's message kept (redacted first)


def tail_end(tail: bytes, at_start: bool, lines: int | None) -> dict | None:
    """``find_end`` of a log's tail, as kept with the read: {"type", "message" (secrets redacted, key-like tokens
    masked, controls escaped, capped at ``MESSAGE_CAP``), "line" (its number in the file, 1-based; None when the
    count of lines before the tail is unknown), "nonfinite"}. ``lines``: the newlines before the tail's end."""
    from ..rundata import safe_excerpt

    found = find_end(tail, at_start)
    if found is None:
        return None
    line = lines - found["from_end"] if lines is not None and lines - found["from_end"] > 0 else None
    return {"type": found["type"], "message": safe_excerpt(found["message"], MESSAGE_CAP), "line": line,
            "nonfinite": found["nonfinite"]}
