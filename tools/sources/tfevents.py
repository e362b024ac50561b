"""TensorBoard event files (TFRecord framing + Event/Summary protobufs), decoded natively.

A record is ``uint64 length | uint32 masked-crc(length) | data | uint32 masked-crc(data)``;
``data`` is an ``Event`` (step = field 2, summary = field 5). Scalars come from
``Summary.Value.simple_value`` (field 2) and from scalar tensors (field 8: a
``TensorProto`` with no dimensions holding one float/double/int/half value).
Reading resumes at record boundaries; a half-written last record stays unread.
Several event files of one run (a resumed run writes a new file) are read in
name order (their names carry the start time) and merged by step (where a step
appears twice the later file's value wins in the frame). CRCs are not checked:
the length is sanity-checked against the file's size instead.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import struct

from ..limits import MAX_PACKED_BYTES, MAX_READ_BYTES, MAX_RECORD_BYTES
from ..points import BatchBuilder
from .base import Progress, ReadResult, RunInfo
from .files import FileSystem
from .protowire import varint

CURSOR_VERSION = 1
CHUNK_BYTES = 8 << 20
HEAD_BYTES = 256
MAX_TAG_BYTES = 1024  # a metric name longer than this is cut
BEHIND_BYTES = 256  # the bytes just before a file's read position, hashed (in-place rewrites)
MAX_RECORD = MAX_RECORD_BYTES  # a bigger record (an image, a tensor dump) is skipped with a note
_NAME = re.compile(r"(?:^|[./])tfevents\.|^events\.out\.tfevents")


def is_tfevents_name(name: str) -> bool:
    """True for TensorBoard event file names (``events.out.tfevents.<time>.<host>...``)."""
    base = name.rsplit("/", 1)[-1]
    return bool(_NAME.search(base)) and not base.endswith((".json", ".txt", ".log"))


def _crc32c_table() -> list[int]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC32C = _crc32c_table()


def masked_crc32c(data: bytes) -> int:
    """TFRecord's checksum: CRC-32C, rotated and offset (``((crc >> 15) | (crc << 17)) + 0xa282ead8``)."""
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC32C[(crc ^ b) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def is_tfevents_head(head: bytes) -> bool:
    """Whether a file's first bytes are a TensorBoard event file, whatever its name: a TFRecord frame whose length
    carries its own checksum, holding an Event whose first record names its version (``brain.Event:``) when it is
    all there."""
    if len(head) < 12:
        return False
    (length,) = struct.unpack_from("<Q", head, 0)
    (crc,) = struct.unpack_from("<I", head, 8)
    if length == 0 or length > MAX_RECORD or masked_crc32c(head[:8]) != crc:
        return False
    data = head[12:12 + length]
    if len(data) < length or b"brain.Event:" in data:
        return True
    try:
        return bool(decode_event(data)[1])
    except (ValueError, IndexError, struct.error):
        return False


# -- protobuf wire format ------------------------------------------------------------------
def _fields(buf: bytes | memoryview):
    """(field number, wire type, value) for each field; length-delimited values are bytes."""
    pos, n = 0, len(buf)
    while pos < n:
        key, pos = varint(buf, pos)
        fno, wt = key >> 3, key & 7
        val: int | bytes | memoryview
        if wt == 0:
            val, pos = varint(buf, pos)
        elif wt == 1:
            val = buf[pos:pos + 8]
            pos += 8
        elif wt == 2:
            ln, pos = varint(buf, pos)
            val = buf[pos:pos + ln]
            pos += ln
        elif wt == 5:
            val = buf[pos:pos + 4]
            pos += 4
        else:
            raise ValueError(f"unsupported wire type {wt}")
        if pos > n:
            raise ValueError("truncated field")
        yield fno, wt, val


def _half(bits: int) -> float:
    return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]


def _tensor_scalar(buf: bytes | memoryview) -> float | None:
    """The value of a scalar TensorProto (no dims, one numeric value), else None."""
    dtype = 0
    values: list[float] = []
    content = b""
    for fno, wt, val in _fields(buf):
        if fno == 1 and wt == 0:
            dtype = val
        elif fno == 2 and wt == 2:
            if len(val) > MAX_PACKED_BYTES or any(f == 2 for f, _, _ in _fields(val)):
                return None  # has dimensions: not a scalar
        elif fno == 4 and wt == 2:
            content = val
        elif wt == 2 and fno in (5, 6, 7, 10, 13) and len(val) > MAX_PACKED_BYTES:
            return None  # a packed field longer than one value: a tensor, never unpacked (MAX_PACKED_BYTES)
        elif fno == 5:  # float_val
            values += list(struct.unpack(f"<{len(val) // 4}f", val)) if wt == 2 else [struct.unpack("<f", val)[0]]
        elif fno == 6:  # double_val
            values += list(struct.unpack(f"<{len(val) // 8}d", val)) if wt == 2 else [struct.unpack("<d", val)[0]]
        elif fno in (7, 10, 13):  # int_val, int64_val, half_val (packed varints)
            ints = []
            if wt == 2:
                p = 0
                while p < len(val):
                    x, p = varint(val, p)
                    ints.append(x)
            else:
                ints.append(val)
            if fno == 13:
                values += [_half(x) for x in ints]
            else:
                values += [float(x - (1 << 64) if x >= (1 << 63) else x) for x in ints]
        elif fno == 8:
            return None  # string tensor (text summary)
    if content:
        fmt = {1: "<f", 2: "<d", 3: "<i", 9: "<q", 19: "<e"}.get(dtype)
        if fmt is None or len(content) != struct.calcsize(fmt):
            return None
        return float(struct.unpack(fmt, content)[0])
    return values[0] if len(values) == 1 else None


def decode_event(data: bytes | memoryview) -> tuple[int, list[tuple[str, float]]]:
    """(step, [(tag, value)...]) of the scalars in one serialized Event."""
    step = 0
    out: list[tuple[str, float]] = []
    for fno, wt, val in _fields(data):
        if fno == 2 and wt == 0:
            step = val - (1 << 64) if val >= (1 << 63) else val
        elif fno == 5 and wt == 2:
            for vf, vwt, value in _fields(val):
                if vf != 1 or vwt != 2:
                    continue
                tag, scalar = None, None
                for f, w, x in _fields(value):
                    if f == 1 and w == 2:
                        tag = bytes(x[:MAX_TAG_BYTES]).decode("utf-8", errors="replace")
                    elif f == 2 and w == 5:
                        scalar = struct.unpack("<f", x)[0]
                    elif f == 8 and w == 2 and scalar is None:
                        scalar = _tensor_scalar(x)
                if tag is not None and scalar is not None:
                    out.append((tag, scalar))
    return step, out


# -- the source ------------------------------------------------------------------------------
class TfEventsSource:
    """One run's TensorBoard event files, kind ``"tfevents"``."""

    kind = "tfevents"

    def __init__(self, fs: FileSystem, paths: list[str], *, chunk_bytes: int = CHUNK_BYTES):
        if not paths:
            raise ValueError("TfEventsSource needs at least one event file")
        self.fs = fs
        self.paths = sorted(paths, key=lambda p: p.rsplit("/", 1)[-1])
        self.chunk_bytes = max(4096, int(chunk_bytes))
        where = self.paths[0] if len(self.paths) == 1 else posixpath.dirname(self.paths[0]) or "."
        self.source_id = f"tfevents:{fs.describe(where)}"
        self.notes: list[str] = []  # the current read's notes (records skipped over the cap)
        self._budget: int | None = None  # bytes this read may still fetch (limits.MAX_READ_BYTES)

    def describe(self) -> str:
        if len(self.paths) == 1:
            return f"TensorBoard events {self.fs.describe(self.paths[0])}"
        return f"TensorBoard events ({len(self.paths)} files) in {self.fs.describe(posixpath.dirname(self.paths[0]))}"

    def read(self, cursor: dict | None = None, progress: Progress | None = None) -> ReadResult:
        """New scalars of every event file since the cursor (per-file byte offsets at record boundaries)."""
        files = dict((cursor or {}).get("files", {})) if (cursor or {}).get("v") == CURSOR_VERSION else {}
        reset = False
        notes: list[str] = []
        self.notes = notes
        self._budget = MAX_READ_BYTES
        builder = BatchBuilder()
        total_read = 0
        stats = [(p, self.fs.stat(p)) for p in self.paths]
        for path, st in stats:
            fc = files.get(path)
            head = self.fs.read_at(path, 0, min(HEAD_BYTES, st.size))
            total_read += len(head)
            head_hash = hashlib.sha1(head).hexdigest()
            if fc and (st.size < fc["offset"] or (fc.get("head_len") == len(head) and fc.get("head_hash") != head_hash)
                       or (fc.get("head_len", 0) > len(head))
                       or (fc.get("behind_hash") and self._behind(path, fc["offset"]) != fc["behind_hash"])):
                notes.append(f"{path.rsplit('/', 1)[-1]} was truncated or replaced: re-read all event files")
                fresh = self.read(None, progress)
                fresh.reset = True
                fresh.notes = notes + fresh.notes
                return fresh
            offset = fc["offset"] if fc else 0
            offset, n = self._read_file(path, st.size, offset, builder, progress)
            total_read += n
            files[path] = {"offset": offset, "head_len": len(head), "head_hash": head_hash,
                           "behind_hash": self._behind(path, offset)}
        res = ReadResult(builder.build(), {"v": CURSOR_VERSION, "files": files}, reset=reset,
                         info=RunInfo(name=posixpath.basename(posixpath.dirname(self.paths[0])) or None),
                         bytes_read=total_read, notes=notes)
        res.more = self._budget is not None and self._budget <= 0  # a part: the caller stores it, then reads on
        if len(self.paths) > 1 and not cursor:
            res.notes.append(f"merged {len(self.paths)} event files by step")
        return res

    def _behind(self, path: str, offset: int) -> str | None:
        """A hash of the bytes just before ``offset`` (the last ones read): a file rewritten in place whose first
        bytes did not change (same header) still changes them."""
        n = min(BEHIND_BYTES, offset)
        return hashlib.sha1(self.fs.read_at(path, offset - n, n)).hexdigest() if n > 0 else None

    def _read_file(self, path: str, size: int, offset: int, builder: BatchBuilder,
                   progress: Progress | None) -> tuple[int, int]:
        """(new offset, bytes read): complete records from ``offset``; a partial record stays unread."""
        pos, nread, buf = offset, 0, b""
        add = builder.add
        while True:
            p = 0
            while p + 12 <= len(buf):
                (length,) = struct.unpack_from("<Q", buf, p)
                if length > MAX_RECORD:  # skipped unread when all of it is there, else left for a later read
                    end = pos + p + 16 + length
                    if end > size:
                        return pos + p, nread
                    self.notes.append(f"skipped a {length} byte record at byte {pos + p} of "
                                      f"{path.rsplit('/', 1)[-1]} (over the {MAX_RECORD} byte cap per record)")
                    pos, buf, p = end, b"", 0
                    break
                if p + 16 + length > len(buf):
                    break
                try:
                    step, scalars = decode_event(memoryview(buf)[p + 12:p + 12 + length])
                except (ValueError, IndexError, struct.error):
                    scalars = []
                for tag, value in scalars:
                    add(step, tag, value)
                p += 16 + length
            pos += p
            buf = buf[p:]
            fetch_at = pos + len(buf)
            if fetch_at >= size:
                return pos, nread
            chunk = self.fs.read_at(path, fetch_at, min(self.chunk_bytes, size - fetch_at))
            if not chunk:
                return pos, nread
            nread += len(chunk)
            buf += chunk
            builder.flush()  # the points so far as compact arrays (16 bytes a point), not Python lists
            if self._budget is not None:
                self._budget -= len(chunk)
                if self._budget <= 0:  # this part's share is spent: the rest is the next part (cursor)
                    return pos, nread
            if progress is not None:
                progress(float(pos), float(size), f"reading {path.rsplit('/', 1)[-1]}")
