"""A training log file as a metric source: format auto-detected, read incrementally from a byte offset.

Only complete lines are parsed: a half-written last line stays unread (the
cursor points at its start) unless the file has not changed for
``settle_seconds`` (a finished log without a final newline). The JSON cursor
holds the format, the parser's state (current epoch, a pending wrapped record,
the run index...) and the file's identity (size, a hash of its first bytes, the
inode where the file system gives one). A file that shrank or whose head changed
was truncated or replaced: it is re-read from the start with ``reset=True``. A
rotated file (``train.log`` -> ``train.log.1`` with the old head) is finished from
the cursor first, then the new file is read from its start: nothing is lost and
nothing is reset. JSON documents (``trainer_state.json``, Megatron golden values)
are small and rewritten in place, so they are re-read whole whenever they change.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass

from .. import limits
from ..errors import BadInput, TrainingCheckError, UnknownFormat
from ..parsers import (
    JSON_DOCUMENT,
    LINE_FORMATS,
    SAMPLE_BYTES,
    TEXT,
    Detected,
    Emitter,
    LineFormat,
    detect_format,
    document_format,
)
from ..parsers.breaks import breaks_within, first_end, record_end
from ..parsers.documents import read_fast
from ..parsers.run_end import TAIL_BYTES, last_line, tail_end
from ..parsers.table import headerless_state
from ..parsers.text import MAX_LINE, clean_block
from ..points import PointBatch
from ..rundata import is_plain_name, safe_excerpt
from .base import Progress, ReadResult, RunInfo
from .files import FileStat, FileSystem

CURSOR_VERSION = 1
CHUNK_BYTES = 8 << 20
PARSE_BYTES = 1 << 20  # lines are parsed in blocks of about this size: a parser's per-line objects stay few
PART_BYTES = 16 << 20  # a read returns after about this many bytes (``more``): the caller stores them, reads on
HEAD_BYTES = 4096
BEHIND_BYTES = 256  # the bytes just before the read position, hashed: a log rewritten in place changes them
DETECT_LIMIT = 4 << 20  # look this far into a file for its first metric lines
ROTATED_SUFFIXES = (".1",)
MAX_SAMPLE_LINES = 200


@dataclass
class _Scan:
    emitter: Emitter
    offset: int  # the cursor: start of the first unread (incomplete) line
    skip_line: bool  # inside a giant line: drop bytes up to the next newline on resume
    bytes_read: int
    dropped_lines: int
    more: bool = False  # stopped after PART_BYTES, before the size seen at stat time
    reread: bool = False  # read again from the file's start with a fact learned late (``Emitter.state["pin"]``)
    lines: int | None = None  # newlines before ``offset`` (None: a cursor of before they were counted)
    tail: bytes = b""  # the last bytes read (at most ``TAIL_BYTES``), from file offset ``tail_from``
    tail_from: int = 0


def _has_loss(batch: PointBatch) -> bool:
    """Whether any column is a train loss (by name, or the objective under another name: huber, nll, rmse...) or an
    eval metric (what the judge can follow)."""
    from ..objective import assign_roles

    roles = assign_roles(list(batch.columns))
    return any(r.role in ("train_loss", "eval") or "ppl" in k.lower() for k, r in roles.items())


def _loss_aside(em: Emitter) -> str:
    """" (N of <loss>)": how many of the set-aside points were train-loss points, for the loss set aside most."""
    from ..roles import infer_role

    losses = [(n, k) for k, n in em.aside_so_far.items() if infer_role(k).role == "train_loss"]
    if not losses:
        return ""
    n, k = max(losses)
    return f" ({n} of {k})"


MAX_STANDING = 16  # notes on what the file holds, kept in the cursor and said by every read
MAX_NAMES_SAID = 8


def _shape(note: str) -> str:
    """A note with each run of digits one ``#``: a count that grew by a digit (``60`` then ``190``) keeps its shape."""
    marked = note.translate(_DIGITS)
    while "##" in marked:
        marked = marked.replace("##", "#")
    return marked


_DIGITS = str.maketrans("0123456789", "##########")


def _standing(said: list[str], new: list[str]) -> list[str]:
    """The notes on what the file holds (runs, skipped lines, how its steps are read ...): every read says them all,
    whatever the reads' sizes, a newer note replacing the one of the same shape (its counts grown). Notes on the
    read itself (a re-read, a rotation) are not kept."""
    out = list(said)
    shapes = [_shape(n) for n in out]
    for n in new:
        k = _shape(n)
        if k in shapes:
            out[shapes.index(k)] = n
        elif len(out) < MAX_STANDING:
            out.append(n)
            shapes.append(k)
    return out


def _names_seen(state: dict, batch: PointBatch) -> list[str]:
    """The first metric names read from the file (over every read so far), in the order they came."""
    seen = list(state.get("seen_names") or [])
    for k in batch.columns:
        if len(seen) >= MAX_NAMES_SAID:
            break
        if k not in seen:
            seen.append(k)
    state["seen_names"] = seen
    return seen


class LogFileSource:
    """A log file on any FileSystem (local or SFTP), kind ``"log"``."""

    kind = "log"

    def __init__(self, fs: FileSystem, path: str, *, chunk_bytes: int = CHUNK_BYTES, settle_seconds: float = 60.0,
                 max_line: int = MAX_LINE, rotated_suffixes: tuple[str, ...] = ROTATED_SUFFIXES,
                 part_bytes: int | None = None):
        self.fs = fs
        self.path = path
        self.chunk_bytes = max(4096, int(chunk_bytes))
        self.settle_seconds = settle_seconds
        self.max_line = max_line
        self.rotated_suffixes = rotated_suffixes
        self.part_bytes = max(self.chunk_bytes, int(PART_BYTES if part_bytes is None else part_bytes))
        self.source_id = f"log:{fs.describe(path)}"
        self._bytes = 0
        self._forced = False  # read as if the file had settled (the provisional tail)
        self._without_loss = False  # the last ``_detect`` chose its format on numbers but no loss (``redetect``)

    def describe(self) -> str:
        return f"log file {self.fs.describe(self.path)}"

    # -- helpers -----------------------------------------------------------------------
    def _read_at(self, path: str, offset: int, length: int) -> bytes:
        data = self.fs.read_at(path, offset, length)
        self._bytes += len(data)
        return data

    def _stat(self, path: str) -> FileStat:
        st = self.fs.stat(path)
        if st.is_dir:
            raise BadInput(f"{self.fs.describe(path)} is a directory, not a log file; name a file in it")
        return st

    def _settled(self, st: FileStat) -> bool:
        return self._forced or (time.time() - st.mtime) >= self.settle_seconds

    def _head(self, path: str, size: int) -> tuple[int, str]:
        n = min(HEAD_BYTES, size)
        return n, hashlib.sha1(self._read_at(path, 0, n)).hexdigest()

    def _info(self, em: Emitter, cur: dict, ended: dict | None = None) -> RunInfo:
        name = self.path.rstrip("/").rsplit("/", 1)[-1]
        total = em.total_steps or (None if em.started_new_run else cur.get("total_steps"))
        return RunInfo(name=name, total_steps=total, config=dict(em.config), ended=ended)

    def _ended(self, scan: _Scan, cur: dict) -> dict | None:
        """How the log read so far ends: the exception its complete lines end with (``run_end.find_end`` on its
        last ``TAIL_BYTES``), kept in the cursor and looked for again only when the read moved on."""
        if scan.more:
            return None
        before = cur.get("offset") if "ended" in cur and not scan.reread else None
        if scan.offset == before:
            return cur["ended"]
        start = max(0, scan.offset - TAIL_BYTES)
        if scan.offset <= start:
            return None
        if scan.tail_from <= start:  # this read's own bytes hold the whole tail
            return tail_end(scan.tail[start - scan.tail_from:scan.offset - scan.tail_from], start == 0, scan.lines)
        if isinstance(before, int) and scan.tail_from <= before < scan.offset:
            if last_line(scan.tail[before - scan.tail_from:scan.offset - scan.tail_from]) == "record":
                return None  # the log's last line is a record: no exception ends it
        return tail_end(self._read_at(self.path, start, scan.offset - start), start == 0, scan.lines)

    # -- the read ----------------------------------------------------------------------
    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        """Points after ``cursor`` (all points when None); the new cursor never passes unreturned data.

        While the file has not settled, what its unterminated tail would add is returned as ``provisional``.
        """
        res = self._read(cursor, progress)
        if res.more or self._settled(self._stat(self.path)):
            return res
        self._forced = True
        try:
            tail = self._read(res.cursor, None)
        except TrainingCheckError:  # e.g. a JSON document still cut mid-way: nothing provisional to add
            tail = None
        finally:
            self._forced = False
        if tail is not None and not tail.batch.is_empty():
            res.provisional = tail
        return res

    def _read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        self._bytes = 0
        st = self._stat(self.path)
        cur = cursor if cursor and cursor.get("v") == CURSOR_VERSION else None
        notes: list[str] = []
        if cur and cur.get("kind") == "document":
            return self._read_document(st, cur)
        reset = False
        if cur and cur.get("format"):
            status = self._continuity(st, cur)
            if status != "same":
                rotated = self._find_rotated(cur)
                if rotated is not None:
                    return self._read_rotation(rotated, st, cur, progress)
                what = "shrank (truncated)" if status == "truncated" else "was replaced (its first bytes changed)"
                notes.append(f"{self.fs.describe(self.path)} {what}: re-read from the start")
                cur, reset = None, True
        if cur and cur.get("redetect") is not None and st.size > int(cur["redetect"]):
            cur, reset = self._redetected(st, cur, reset)
        if not cur or not cur.get("format"):
            cur = self._headerless(st)
        if not cur or not cur.get("format"):
            fmt = self._detect(st)
            if fmt is None:
                empty = {"v": CURSOR_VERSION, "kind": "lines", "format": None, "offset": 0}
                em = Emitter()
                if st.size:
                    sample = self._sample_line(st)
                    notes.append("no complete metric line recognised yet; reading again later"
                                 + ("; a sample line is in run_data" if sample else ""))
                    if sample:
                        em.config["log_sample_line"] = sample
                return ReadResult(PointBatch(), empty, reset=reset, info=self._info(em, {}),
                                  bytes_read=self._bytes, notes=notes)
            if fmt == JSON_DOCUMENT:
                res = self._read_document(st, None)
                res.notes = notes + res.notes
                return res
            cur = {"v": CURSOR_VERSION, "kind": "lines", "format": fmt, "offset": 0, "state": {}}
            if self._without_loss and st.size < DETECT_LIMIT:
                cur["redetect"] = st.size
        scan = self._scan(self.path, st, cur, progress)
        return self._result(scan, st, cur, reset, notes)

    def _redetected(self, st: FileStat, cur: dict, reset: bool) -> tuple[dict | None, bool]:
        """A format chosen on numbers but no loss while the file was young (``_detect`` saw fewer bytes than it
        looks at: a config table printed before the first record, ``| Name | Shape |``) is chosen again on the grown
        file while no loss was read: another format (the records' own, as a read of the whole file chooses) reads the
        file again from its start (None: detected afresh); the same one is kept, looked at again as it grows."""
        keep = {k: v for k, v in cur.items() if k != "redetect"}
        if (cur.get("state") or {}).get("loss_seen"):
            return keep, reset
        fmt = self._detect(st)
        if fmt is not None and fmt != cur.get("format"):
            return None, True
        if self._without_loss and st.size < DETECT_LIMIT:
            keep["redetect"] = st.size
        return keep, reset

    def _result(self, scan: _Scan, st: FileStat, cur: dict, reset: bool, notes: list[str],
                prefix: PointBatch | None = None) -> ReadResult:
        em = scan.emitter
        batch = em.build()
        em.count_read(batch)
        if scan.reread:  # every point again, from the file's start: the notes too
            reset, prefix, cur = True, None, {**cur, "said": [], "dropped": 0}
        if em.started_new_run:
            reset = True
        elif prefix is not None:
            batch = prefix.extend(batch)
        if em.runs > 1:
            aside = f"; set aside {em.set_aside} point(s) of the earlier runs{_loss_aside(em)}" if em.set_aside else ""
            notes.append(f"this file holds {em.runs} runs; showing the last one (run {em.runs}){aside}")
        said = _standing(cur.get("said") or [], em.notes)
        if em.state.get("loss_seen") or _has_loss(batch):
            em.state["loss_seen"] = True
        elif st.size:
            sample = self._sample_line(st)
            seen = _names_seen(em.state, batch)
            names = ", ".join(n if is_plain_name(n) else "(a metric with an unusual name)" for n in seen) or "no metric"
            notes.append(f"no loss found yet: read {names}" + ("; a sample line is in run_data" if sample else ""))
            if sample:
                em.config["log_sample_line"] = sample
        dropped = int(cur.get("dropped", 0)) + scan.dropped_lines
        if dropped:
            said = _standing(said, [f"skipped {dropped} line(s) longer than {self.max_line} bytes"])
        notes.extend(n for n in said if n not in notes)
        if cur.get("head_len") == HEAD_BYTES and cur.get("head_hash") and cur.get("offset", 0) > 0:
            head_len, head_hash = HEAD_BYTES, cur["head_hash"]  # verified by _continuity this read
        else:
            head_len, head_hash = self._head(self.path, min(st.size, max(scan.offset, HEAD_BYTES)))
        new = {"v": CURSOR_VERSION, "kind": "lines", "format": cur["format"], "offset": scan.offset,
               "state": em.state, "skip_line": scan.skip_line, "head_len": head_len, "head_hash": head_hash,
               "identity": st.identity, "size": st.size,
               "total_steps": em.total_steps or (None if em.started_new_run else cur.get("total_steps")),
               "said": said, "dropped": dropped, "lines": scan.lines}
        if cur.get("redetect") is not None and not em.state.get("loss_seen"):
            new["redetect"] = cur["redetect"]  # (the format looked at again as the file grows: ``_redetected``)
        new["ended"] = ended = self._ended(scan, cur)
        same_end = scan.offset == cur.get("offset") and cur.get("behind_hash")
        new.update({"behind_hash": cur["behind_hash"]} if same_end else self._behind(scan.offset))
        return ReadResult(batch, new, reset=reset, info=self._info(em, cur, ended), bytes_read=self._bytes,
                          notes=notes, more=scan.more)

    def _sample_line(self, st: FileStat) -> str:
        """A line of the file's start worth showing when no loss was found (the first one with a number), as run
        data: known secrets redacted, key-like tokens masked, control characters escaped, length capped."""
        from ..parsers.detect import sample_line

        text, _ = clean_block(self._read_at(self.path, 0, min(st.size, SAMPLE_BYTES)))
        return safe_excerpt(sample_line(text.split("\n")[:MAX_SAMPLE_LINES]))

    def _continuity(self, st: FileStat, cur: dict) -> str:
        """"same" when it is the same file (inode, where known), still starting as it did, not shorter than the
        cursor."""
        if st.size < int(cur.get("offset", 0)) or st.size < int(cur.get("head_len", 0)):
            return "truncated"
        if cur.get("identity") and st.identity and cur["identity"] != st.identity:
            return "replaced"  # another file now has this name (a restarted run may print the same header)
        n = int(cur.get("head_len", 0))
        if n and hashlib.sha1(self._read_at(self.path, 0, n)).hexdigest() != cur.get("head_hash"):
            return "replaced"
        if cur.get("behind_hash") and self._behind(int(cur.get("offset", 0))).get("behind_hash") != cur["behind_hash"]:
            return "truncated"  # rewritten in place: the bytes just read before the cursor are not there any more
        return "same"

    def _behind(self, offset: int) -> dict:
        """A hash of the bytes just before ``offset`` (the last ones read): an in-place rewrite changes them."""
        n = min(BEHIND_BYTES, offset)
        if n <= 0:
            return {}
        return {"behind_hash": hashlib.sha1(self._read_at(self.path, offset - n, n)).hexdigest()}

    def _find_rotated(self, cur: dict) -> tuple[str, FileStat] | None:
        """The old file renamed aside (``train.log.1``) when its head matches the cursor's."""
        n = int(cur.get("head_len", 0))
        if not n:
            return None
        for suffix in self.rotated_suffixes:
            cand = self.path + suffix
            try:
                st = self.fs.stat(cand)
            except Exception:
                continue
            if st.is_dir or st.size < int(cur.get("offset", 0)) or st.size < n:
                continue
            if hashlib.sha1(self._read_at(cand, 0, n)).hexdigest() == cur.get("head_hash"):
                return cand, st
        return None

    def _read_rotation(self, rotated: tuple[str, FileStat], st: FileStat, cur: dict,
                       progress: Progress | None) -> ReadResult:
        old_path, old_st = rotated
        old = self._scan(old_path, old_st, cur, progress, final=True)
        notes = [f"{self.fs.describe(self.path)} was rotated: read the rest of {old_path.rsplit('/', 1)[-1]} "
                 f"from byte {cur.get('offset', 0)} first, then the new file from its start"]
        prefix: PointBatch | None = old.emitter.build()
        cont = {"v": CURSOR_VERSION, "kind": "lines", "format": cur["format"], "offset": 0,
                "state": old.emitter.state, "skip_line": False, "total_steps": cur.get("total_steps")}
        new = self._scan(self.path, st, cont, progress)
        reset = old.emitter.started_new_run
        if new.emitter.started_new_run:
            prefix = None
        new.bytes_read += old.bytes_read
        return self._result(new, st, cont, reset, notes, prefix=prefix)

    def _headerless(self, st: FileStat) -> dict | None:
        """The cursor of a CSV/TSV table with no header named after its metric (d3rlpy's ``loss.csv``), else None."""
        name = self.path.rsplit("/", 1)[-1]
        stem, dot, ext = name.rpartition(".")
        if not dot or ext.lower() not in ("csv", "tsv") or st.size == 0:
            return None
        head = self._read_at(self.path, 0, min(st.size, 4096))
        nl = head.find(b"\n")
        if nl < 0:
            return None
        state = headerless_state(head[:nl].decode("utf-8", "replace").rstrip("\r"), stem)
        if state is None:
            return None
        return {"v": CURSOR_VERSION, "kind": "lines", "format": "csv", "offset": 0, "state": state}

    def _detect(self, st: FileStat) -> str | None:
        """The format from the first metric lines within ``DETECT_LIMIT`` bytes; None while no line is complete."""
        if st.size == 0:
            return None
        settled = self._settled(st)
        first_error: UnknownFormat | None = None
        no_loss: Detected | None = None
        self._without_loss = False
        window = 0
        while window < min(st.size, DETECT_LIMIT):
            data = self._read_at(self.path, window, SAMPLE_BYTES)
            if window:
                nl = first_end(data)
                data = data[nl:] if nl else b""
            end_of_file = window + SAMPLE_BYTES >= st.size
            if (window == 0 and data.lstrip().startswith(b"{") and b"\n" not in data.strip()
                    and (settled or len(data) >= SAMPLE_BYTES)):
                return JSON_DOCUMENT  # one long JSON line: a compact document (golden values)
            if not (end_of_file and settled):  # age decides only whether the last unterminated record is read
                data = data[:record_end(data)]
            try:
                det = detect_format(data, self.fs.describe(self.path))
            except UnknownFormat as e:
                if window == 0 and "binary" in str(e):
                    raise
                first_error = first_error or e
                det = None
            if det is not None:
                if det.format == JSON_DOCUMENT or det.found > (0, 0):
                    return det.format
                # numbers but no loss in this window (a config dump, a dataset table): look further first
                no_loss = no_loss or det
            window += SAMPLE_BYTES
        if no_loss is not None:  # numbers but no loss (a config dump, a dataset table, a run that logs no loss): read
            self._without_loss = True  # at any age (the read says "no loss found yet"); looked at again as the file
            return no_loss.format  # grows (``redetect``)
        if first_error is not None:
            if st.size < SAMPLE_BYTES:
                return None  # only start-up noise so far: no points yet, not an error (the same at any age)
            raise first_error
        return None

    def _scan(self, path: str, st: FileStat, cur: dict, progress: Progress | None, final: bool = False) -> _Scan:
        """Parse complete lines from the cursor's offset to the size seen at stat time, chunk by chunk."""
        fmt = LINE_FORMATS.get(cur["format"]) or LINE_FORMATS[TEXT]  # a cursor of a reader since folded in
        cr = fmt.cr_records  # a bar's \r redraw ends a record too (breaks.py): a line of any length is read in pieces
        em = Emitter(cur.get("state") or {})
        pos = start = int(cur.get("offset", 0))
        end = st.size
        skip = bool(cur.get("skip_line"))
        pending = b""
        read = dropped = 0
        more = reread = False
        lines = int(cur["lines"]) if isinstance(cur.get("lines"), int) else (0 if start == 0 else None)
        tail = b""
        while pos < end:
            if pos - start >= self.part_bytes and not final and pos - len(pending) > start:
                more = True  # a part's worth (of whole lines: a line longer than a part is read on): the caller
                break  # stores it and reads on from the cursor
            data = self._read_at(path, pos, min(self.chunk_bytes, end - pos))
            if not data:
                break
            read += len(data)
            pos += len(data)
            if lines is not None:
                lines += data.count(b"\n")
            tail = data[-TAIL_BYTES:] if len(data) >= TAIL_BYTES else (tail + data)[-TAIL_BYTES:]
            buf = pending + data if pending else data
            pending = b""
            if skip:
                i = first_end(buf, 0, cr)
                if not i:
                    if progress is not None:
                        progress(float(pos), float(end), f"reading {self.fs.describe(path)}")
                    continue  # still inside the giant line
                buf = buf[i:]
                skip = False
            cut = record_end(buf, 0, None, cr)
            if not cut:
                pending = buf
            else:
                dropped += self._parse_lines(buf, cut, fmt, em)
                em.flush()
                pending = buf[cut:]
                if em.state.pop("reread", None):  # a fact learned late: the file again from its start, knowing it
                    em, pos, start, pending, skip, dropped, reread = Emitter({"pin": em.state["pin"]}), 0, 0, b"", \
                        False, 0, True
                    lines, tail = 0, b""
                    continue
            if len(pending) > self.max_line:
                pending, skip = b"", True
                dropped += 1
            if progress is not None:  # bytes of the file: counts on across the parts of a long read
                progress(float(pos), float(end), f"reading {self.fs.describe(path)}")
        at_end = pos >= end and (final or self._settled(st))
        if pending and at_end:
            # the last record, unterminated: read as if its line ended (the way every other line is read)
            dropped += self._parse_lines(pending + b"\n", len(pending) + 1, fmt, em)
            pending = b""
        fmt.finish(em, at_end=at_end and not pending)
        if lines is not None and pending:
            lines -= pending.count(b"\n")
        return _Scan(em, pos - len(pending), skip, read, dropped, more=more, reread=reread, lines=lines,
                     tail=tail, tail_from=pos - len(tail))

    def _parse_lines(self, buf: bytes, end: int, fmt: LineFormat, em: Emitter) -> int:
        """Parse the complete lines in ``buf[:end]`` in blocks of about PARSE_BYTES; the lines dropped as too long."""
        cr = fmt.cr_records
        if breaks_within(buf, end, max(1, self.max_line // 2), cr) and fmt.parse_plain(buf[:end], em):
            return 0  # the whole chunk at once: a fast path's fixed costs spread over megabytes
        dropped = start = 0
        limit = min(PARSE_BYTES, self.max_line)  # a block within it holds no line too long to keep
        while start < end:
            stop = end
            if end - start > limit:
                stop = record_end(buf, start, start + limit, cr) or first_end(buf, start + limit, cr) or end
                stop = min(stop, end)
            block = buf[start:stop]
            if len(block) > limit or not fmt.parse_plain(block, em):
                text, n = clean_block(block, self.max_line)
                dropped += n
                fmt.parse(text, em)
            start = stop
        return dropped

    # -- whole JSON documents -------------------------------------------------------------
    def _read_document(self, st: FileStat, cur: dict | None) -> ReadResult:
        """A JSON document is re-read whole when its size, mtime or content changed (reset=True with every point)."""
        if cur and cur.get("size") == st.size and cur.get("mtime") == st.mtime:
            return ReadResult(PointBatch(), cur, info=None, bytes_read=self._bytes)
        limits.check_document_size(st.size, self.fs.describe(self.path))  # before a byte is read
        parts, pos = [], 0
        while pos < st.size:
            chunk = self._read_at(self.path, pos, min(self.chunk_bytes, st.size - pos))
            if not chunk:
                break
            parts.append(chunk)
            pos += len(chunk)
        data = b"".join(parts)
        digest = hashlib.sha1(data).hexdigest()
        if cur and cur.get("hash") == digest:
            return ReadResult(PointBatch(), {**cur, "size": st.size, "mtime": st.mtime}, bytes_read=self._bytes)
        where = self.fs.describe(self.path)
        limits.check_containers(data, where)  # caps before the parse: containers, then depth and log_history after
        fast = read_fast(data, where)  # the common shapes from the bytes in C; None: read below as before
        if fast is not None:
            name, em = fast
            return self._document_result(st, cur, digest, name, em)
        try:
            doc = json.loads(data.decode("utf-8", errors="replace"))
        except RecursionError:
            raise BadInput(f"{where} nests JSON deeper than {limits.MAX_DEPTH} levels (the cap): not a metrics "
                           f"document") from None
        except ValueError as e:
            if not self._settled(st):
                keep = cur or {"v": CURSOR_VERSION, "kind": "document", "format": JSON_DOCUMENT}
                return ReadResult(PointBatch(), keep, bytes_read=self._bytes,
                                  notes=[f"{self.fs.describe(self.path)} is being written (not valid JSON yet)"])
            if "Extra data" in str(e):  # several JSON values: JSON lines after all
                det = detect_format(data[:SAMPLE_BYTES], self.fs.describe(self.path))
                if det is not None and det.format != JSON_DOCUMENT:
                    lines_cur = {"v": CURSOR_VERSION, "kind": "lines", "format": det.format, "offset": 0, "state": {}}
                    return self._result(self._scan(self.path, st, lines_cur, None), st, lines_cur, bool(cur), [])
            raise UnknownFormat(f"{self.fs.describe(self.path)} starts like a JSON document but is not valid JSON "
                                f"({e}); pass a complete file") from None
        limits.check_depth(doc, where)
        limits.check_log_history(doc, where)
        f = document_format(doc, self.fs.describe(self.path))
        em = Emitter()
        f.parse_doc(doc, em)
        return self._document_result(st, cur, digest, f.name, em)

    def _document_result(self, st: FileStat, cur: dict | None, digest: str, name: str, em: Emitter) -> ReadResult:
        new = {"v": CURSOR_VERSION, "kind": "document", "format": name, "size": st.size, "mtime": st.mtime,
               "hash": digest, "total_steps": em.total_steps}
        notes = ["JSON document: re-read whole because it changed"] if cur else []
        return ReadResult(em.build(), new, reset=True, info=self._info(em, new), bytes_read=self._bytes, notes=notes)


__all__ = ["LogFileSource"]
