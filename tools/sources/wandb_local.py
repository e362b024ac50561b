"""W&B local runs: the ``.wandb`` transaction log, read natively and incrementally.

The file is a LevelDB-log-style stream: a 7-byte header (``:W&B``, magic
0xBEE1, version 0), then 32 KiB blocks of records, each with a 7-byte header
(crc32 of type byte + data, length, type FULL/FIRST/MIDDLE/LAST), holding
protobuf ``wandb_internal_pb2.Record`` messages. Only history, run, config and
exit records are decoded; every other record is skipped after a look at its
field tag. The cursor is the byte offset where the next unread record starts,
so a record still being written is read again, whole, on the next check.
"""

from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass, field

from ..errors import BadInput, TrainingCheckError, UnknownFormat
from ..limits import MAX_READ_BYTES, MAX_RECORD_BYTES, loads_bounded
from ..points import BatchBuilder
from .base import Progress, ReadResult, RunInfo
from .files import FileSystem
from .protowire import varint

FILE_HEADER = struct.Struct("<4sHB")
FILE_IDENT = b":W&B"
FILE_MAGIC = 0xBEE1
FILE_VERSION = 0
FILE_HEADER_LEN = FILE_HEADER.size  # 7
BLOCK = 32 * 1024
REC_HEADER = struct.Struct("<IHB")
REC_HEADER_LEN = REC_HEADER.size  # 7
FULL, FIRST, MIDDLE, LAST = 1, 2, 3, 4
CHUNK = 8 * 1024 * 1024  # bytes fetched per read_at call (a multiple of BLOCK)
MAX_NOTES = 20  # notes about damaged records kept per read
_TYPE_CRC = {t: zlib.crc32(bytes([t])) for t in range(256)}

# Record field numbers (wandb_internal.proto): the ones this reader decodes.
F_HISTORY, F_CONFIG, F_RUN, F_EXIT, F_PREEMPTING = 2, 5, 17, 18, 23
_WANTED = frozenset((F_HISTORY, F_CONFIG, F_RUN, F_EXIT, F_PREEMPTING))
_SKIP_BEFORE_ONEOF = frozenset((16, 19, 200))  # control, uuid, _info precede the record's payload

# Config keys worth showing (lr, batch size, schedule, total steps), matched on the last dotted part.
_CONFIG_KEY = re.compile(
    r"^(lr|learning_rate|base_lr|max_lr|min_lr|init_lr|peak_lr|lr_schedule|lr_scheduler|lr_scheduler_type|scheduler|"
    r"warmup|warmup_steps|warmup_iters|warmup_ratio|batch_size|train_batch_size|per_device_train_batch_size|"
    r"global_batch_size|micro_batch_size|gradient_accumulation_steps|max_steps|total_steps|num_steps|train_steps|"
    r"num_train_steps|max_iters|num_iterations|total_iters|train_iters|epochs|num_epochs|num_train_epochs|max_epochs|"
    r"optimizer|weight_decay|grad_clip|max_grad_norm|seed|model|model_name|dataset)$",
    re.I,
)
_TOTAL_STEP_KEYS = ("max_steps", "total_steps", "num_train_steps", "train_steps", "num_steps", "max_iters",
                    "num_iterations", "total_iters", "train_iters")


_SKIP_TAGS = frozenset((0x1A, 0x22, 0x3A, 0x4A, 0x52, 0x5A, 0x62, 0x6A))  # summary, output, stats, tbrecord, alert,
# telemetry, metric, output_raw: never metrics for this reader
_DOUBLE = struct.Struct("<d")
# Markers told apart by identity (``is``), never by value: a key decoded from a record is another object.
_SKIP, _STEP = "".join(["\x00", "skip"]), "".join(["\x00", "step"])


def _key_kind(key: str) -> str:
    """The metric name for a history key, or _SKIP (internal and system keys), or _STEP (``_step``)."""
    if key == "_step":
        return _STEP
    if key[:1] == "_" or key[:7] in ("system/", "system."):
        return _SKIP
    return key


def config_subset(config: dict, limit: int = 24) -> dict:
    """The run config keys a reader of metrics needs (lr, batch size, schedule, total steps), scalar values only."""
    out: dict = {}
    for key, value in config.items():
        if key.startswith("_") or len(out) >= limit:
            continue
        if isinstance(value, dict) and "value" in value and len(value) <= 2:  # the API's {"value": x, "desc": ...}
            value = value["value"]
        if not _CONFIG_KEY.match(key.rsplit(".", 1)[-1].rsplit("/", 1)[-1]):
            continue
        if isinstance(value, bool) or value is None or isinstance(value, (int, float)):
            out[key] = value
        elif isinstance(value, str) and len(value) <= 80:
            out[key] = value
    return out


def total_steps_from_config(config: dict) -> int | None:
    """The planned number of steps when the config names it (max_steps, total_steps, max_iters, ...)."""
    for key in _TOTAL_STEP_KEYS:
        for k, v in config.items():
            if (k.rsplit(".", 1)[-1].lower() == key and isinstance(v, (int, float)) and not isinstance(v, bool)
                    and v > 0):
                return int(v)
    return None


def _flatten(prefix: str, value, out: dict) -> None:
    if isinstance(value, dict) and not ("value" in value and len(value) <= 2):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    else:
        out[prefix] = value


def _json_value(text: str):
    """The JSON value of a history item; text that is not JSON, or nests past ``limits.MAX_DEPTH``, stays text."""
    try:
        return loads_bounded(text, "a .wandb history value")
    except BadInput:
        return text


def record_payload(d: bytes) -> tuple[int, int, int]:
    """(field number, start, length) of a serialised Record's payload (its ``record_type`` oneof), or (0, 0, 0)."""
    i, n = 0, len(d)
    while i < n:
        tag = d[i]
        i += 1
        if tag & 0x80:
            b2 = d[i]
            if b2 & 0x80:
                tag, i = varint(d, i - 1)
            else:  # two-byte tags (fields 16..2047) are common: _info is 200
                tag = (tag & 0x7F) | (b2 << 7)
                i += 1
        wt = tag & 7
        if wt == 0:
            while d[i] & 0x80:
                i += 1
            i += 1
        elif wt == 2:
            ln = d[i]
            i += 1
            if ln & 0x80:
                ln, i = varint(d, i - 1)
            fn = tag >> 3
            if fn not in _SKIP_BEFORE_ONEOF:
                return fn, i, ln
            i += ln
        elif wt == 1:
            i += 8
        elif wt == 5:
            i += 4
        else:
            raise ValueError(f"bad wire type {wt}")
    return 0, 0, 0


@dataclass
class _Scan:
    """What one pass over the file's new bytes found."""

    builder: BatchBuilder = field(default_factory=BatchBuilder)
    info: RunInfo = field(default_factory=RunInfo)
    config: dict = field(default_factory=dict)
    safe_offset: int = 0  # where the next read starts: after the last complete record (or at a pending one)
    notes: list[str] = field(default_factory=list)
    records: int = 0
    history_rows: int = 0
    columns: dict[str, tuple[list[int], list[float]]] = field(default_factory=dict)  # builder.column(key), cached
    more: bool = False  # stopped after limits.MAX_READ_BYTES at a record boundary: the caller stores, then reads on


class WandbLocalSource:
    """A ``.wandb`` transaction log on a FileSystem (this machine or SSH), read from a byte-offset cursor."""

    kind = "wandb_local"

    def __init__(self, fs: FileSystem, path: str):
        self.fs = fs
        self.path = path
        self.source_id = f"wandb_local:{fs.describe(path)}"
        from wandb.proto import wandb_internal_pb2  # wandb's own record definitions

        self._pb = wandb_internal_pb2
        self._keys: dict[bytes, str] = {}  # an item's key bytes -> its metric name / _SKIP / _STEP

    def describe(self) -> str:
        return f"W&B local run log {self.fs.describe(self.path)}"

    # -- the header --------------------------------------------------------------------------------
    def _check_header(self, head: bytes) -> bool:
        """True when ``head`` is a whole valid file header; False when it is a valid prefix still being written."""
        expected = FILE_HEADER.pack(FILE_IDENT, FILE_MAGIC, FILE_VERSION)
        if len(head) < FILE_HEADER_LEN:
            if expected.startswith(head):
                return False
        elif head[:6] == expected[:6]:
            if head[6] != FILE_VERSION:
                raise UnknownFormat(f"{self.fs.describe(self.path)} is a .wandb log of version {head[6]}, which this "
                                    f"reader does not know (expects {FILE_VERSION}): upgrade training-check")
            return True
        raise UnknownFormat(f"{self.fs.describe(self.path)} is not a W&B transaction log (it does not start with "
                            f"the .wandb header): pass the run's .wandb file, its run folder, or a log file")

    # -- reading -----------------------------------------------------------------------------------
    def read(self, cursor: dict | None, progress: Progress | None = None) -> ReadResult:
        cursor = dict(cursor or {})
        st = self.fs.stat(self.path)
        offset = int(cursor.get("offset", 0))
        reset = False
        notes: list[str] = []
        replaced = bool(cursor.get("identity") and st.identity and cursor["identity"] != st.identity)
        if offset and (st.size < offset or replaced):
            reset, offset = True, 0
            notes.append(f"{self.fs.describe(self.path)} was replaced or truncated: read it again from the start")
        if offset < FILE_HEADER_LEN:
            head = self.fs.read_at(self.path, 0, FILE_HEADER_LEN)
            if not self._check_header(head):
                return ReadResult(BatchBuilder().build(), {"offset": 0, "identity": st.identity}, reset,
                                  None, len(head), notes)
            offset = FILE_HEADER_LEN
        scan = self._scan(offset, st.size, progress)
        info = scan.info
        if scan.config:
            info.config = config_subset(scan.config)
            info.total_steps = total_steps_from_config(scan.config)
        new_cursor = {"offset": scan.safe_offset, "identity": st.identity}
        batch = scan.builder.build()
        res = ReadResult(batch, new_cursor, reset, info if (scan.records or reset) else None,
                         scan.safe_offset - offset, notes + scan.notes)
        res.more = scan.more
        return res

    def _scan(self, start: int, size: int, progress: Progress | None) -> _Scan:
        """Decode the records in [start, size); stop at the first incomplete or damaged one."""
        scan = _Scan(safe_offset=start)
        where = self.fs.describe(self.path)
        buf = b""
        buf_start = start
        pos = start
        pending: list[bytes] = []
        pending_start = -1
        unpack = REC_HEADER.unpack_from
        crc32 = zlib.crc32
        handle = self._handle
        skip_tags = _SKIP_TAGS
        skipped = 0
        blen = 0
        pending_len, oversized = 0, False
        part_end = start + MAX_READ_BYTES
        while True:
            left_in_block = BLOCK - pos % BLOCK
            if left_in_block < REC_HEADER_LEN:  # the writer pads a block's last few bytes with zeros
                pos += left_in_block
                continue
            if pos >= part_end and not pending and not oversized:
                scan.more = True  # a part's worth (memory stays bounded): the rest is the next part
                break
            rel = pos - buf_start
            if rel + REC_HEADER_LEN <= blen:
                crc, length, rtype = unpack(buf, rel)
                if rtype == 0 and not buf[rel + REC_HEADER_LEN - 1:rel + REC_HEADER_LEN + 64].strip(b"\0"):
                    break  # zeros from the header's type byte on: space reserved, the header not (all) written yet
                if length > left_in_block - REC_HEADER_LEN or rtype not in (FULL, FIRST, MIDDLE, LAST):
                    scan.notes.append(f"{where}: damaged record header at byte {pos}; stopped reading there")
                    break
                end = rel + REC_HEADER_LEN + length
            else:
                end = blen + 1
            if end > blen:
                if buf_start + blen >= size:
                    break  # end of what exists: a record still being written waits for the next read
                buf = self._read_fully(pos, min(CHUNK, size - pos))
                buf_start, blen = pos, len(buf)
                if progress:
                    progress(float(pos - start), float(size - start), "reading .wandb log")
                if blen < REC_HEADER_LEN:
                    break
                continue
            data = buf[rel + REC_HEADER_LEN:end]
            if crc32(data, _TYPE_CRC[rtype]) != crc:
                if data[-1:] == b"\0" and not buf[end:end + 16].strip(b"\0"):
                    break  # the record's end is still zeros, like the space after it: not written yet
                scan.notes.append(f"{where}: record at byte {pos} fails its checksum (file damaged); "
                                  f"stopped reading there")
                break
            next_pos = pos + REC_HEADER_LEN + length
            if rtype == FULL:
                if pending:
                    scan.notes.append(f"{where}: a record split across blocks has no end before byte {pos}; skipped it")
                    pending = []
                # a record this reader never uses (summary, output, stats...: a long run's most common), known by
                # its payload's tag after the record number (a varint, 1 to 5 bytes), is counted without a call
                if length > 6 and data[0] == 0x08 and (
                        data[2] if data[1] < 0x80 else data[3] if data[2] < 0x80 else data[4] if data[3] < 0x80
                        else data[5] if data[4] < 0x80 else data[6] if data[5] < 0x80 else -1) in skip_tags:
                    skipped += 1
                else:
                    handle(data, scan)
                scan.safe_offset = next_pos
            elif rtype == FIRST:
                if pending:
                    scan.notes.append(f"{where}: a record split across blocks has no end before byte {pos}; skipped it")
                pending, pending_start, pending_len, oversized = [data], pos, len(data), False
            elif oversized:  # the rest of a record over the cap: skipped unread
                oversized = rtype != LAST
                scan.safe_offset = next_pos
            elif not pending:
                if len(scan.notes) < MAX_NOTES:
                    scan.notes.append(f"{where}: a record fragment at byte {pos} has no start; skipped it")
                scan.safe_offset = next_pos
            else:
                pending.append(data)
                pending_len += len(data)
                if rtype == LAST:
                    handle(b"".join(pending), scan)
                    pending = []
                    scan.safe_offset = next_pos
                elif pending_len > MAX_RECORD_BYTES:
                    scan.notes.append(f"{where}: the record at byte {pending_start} is over the {MAX_RECORD_BYTES} "
                                      f"byte cap per record; skipped it")
                    pending, oversized = [], True
                    scan.safe_offset = next_pos
            pos = next_pos
        if pending:
            scan.safe_offset = pending_start
        scan.records += skipped
        if progress and size > start:
            progress(float(size - start), float(size - start), "read .wandb log")
        return scan

    def _read_fully(self, offset: int, length: int) -> bytes:
        """``length`` bytes from ``offset`` (fewer only at the end of the file), whatever a single read_at returns."""
        parts, got = [], 0
        while got < length:
            part = self.fs.read_at(self.path, offset + got, length - got)
            if not part:
                break
            parts.append(part)
            got += len(part)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def _handle(self, data: bytes, scan: _Scan) -> None:
        # Most records of a long run are history and summary rows: recognise them from their first bytes (the
        # record number, then the payload's tag) and decode history rows by hand (_scan skips the summary rows
        # before calling); anything unusual takes the general path below (protobuf), so the fast path never
        # decides what a record means on its own.
        n = len(data)
        if n > 6 and data[0] == 0x08:
            # past the record number (a varint of up to 5 bytes: 34 billion records; the 2,097,152nd takes 4)
            j = (2 if data[1] < 0x80 else 3 if data[2] < 0x80 else 4 if data[3] < 0x80 else 5 if data[4] < 0x80
                 else 6 if data[5] < 0x80 else n)
            if j < n:
                tag = data[j]
                if tag == 0x12 and j + 2 < n:
                    ln = data[j + 1]
                    if ln < 0x80:
                        k = j + 2
                    elif data[j + 2] < 0x80:  # a row of 128 bytes to 16 KiB: the usual two-byte length
                        ln, k = (ln & 0x7F) | (data[j + 2] << 7), j + 3
                    else:
                        ln, k = varint(data, j + 1)
                    if k + ln <= n and self._history_fast(data, k, k + ln, scan):
                        scan.records += 1
                        return
        scan.records += 1
        try:
            fn, start, length = record_payload(data)
        except (IndexError, ValueError):
            scan.notes.append(f"{self.fs.describe(self.path)}: a record does not decode as a W&B Record; skipped it")
            return
        if fn not in _WANTED:
            return
        payload = data[start:start + length]
        pb = self._pb
        try:
            if fn == F_HISTORY:
                self._history(pb.HistoryRecord.FromString(payload), scan)
            elif fn == F_RUN:
                self._run(pb.RunRecord.FromString(payload), scan)
            elif fn == F_CONFIG:
                self._config_items(pb.ConfigRecord.FromString(payload).update, scan)
            elif fn == F_EXIT:
                code = pb.RunExitRecord.FromString(payload).exit_code
                scan.info.state = "finished" if code == 0 else "failed"
            elif fn == F_PREEMPTING:
                scan.info.state = "preempted"
        except Exception as e:  # protobuf DecodeError: a record that does not parse is skipped, never a crash
            scan.notes.append(f"{self.fs.describe(self.path)}: a record does not decode ({type(e).__name__}); "
                              f"skipped it")

    def _history_fast(self, d: bytes, i: int, end: int, scan: _Scan) -> bool:
        """Decode a HistoryRecord in ``d[i:end]`` without protobuf: items of one key (``key`` or a single
        ``nested_key``) and a ``value_json`` / ``number`` / ``integer`` value, an optional step, ``_info``. False
        (nothing added) for any other shape: the caller decodes the record with protobuf."""
        keys, skip, step_key, double = self._keys, _SKIP, _STEP, _DOUBLE
        step = None
        step_item = None
        row: list[tuple[str, float]] = []
        try:
            while i < end:
                t = d[i]
                if t == 0x0A:  # an item: key (or one nested key), then its value
                    ln = d[i + 1]
                    if ln & 0x80:
                        return False
                    ie = i + 2 + ln
                    ke = i + 4 + d[i + 3]
                    kb = d[i + 2:ke]  # the key field with its tag and length
                    key = keys.get(kb)
                    if key is None:
                        if kb[0] not in (0x0A, 0x12) or kb[1] & 0x80:
                            return False
                        key = keys[kb] = _key_kind(kb[2:].decode())
                    if key is skip:  # _timestamp, _runtime, system/...: whatever its value, not a metric
                        i = ie
                        continue
                    vt = d[ke]
                    if vt == 0x82 and d[ke + 1] == 0x01 and ke + 3 + d[ke + 2] == ie:  # value_json
                        text = d[ke + 3:ie]
                        if key is step_key:
                            step_item = text
                        else:
                            try:
                                row.append((key, float(text)))  # numbers, NaN, Infinity as wandb spells them
                            except ValueError:
                                pass  # strings, booleans, media and tables are not metrics
                    elif vt == 0x31 and ke + 9 == ie:  # number (double)
                        if key is not step_key:
                            row.append((key, double.unpack_from(d, ke + 1)[0]))
                    else:
                        return False
                    i = ie
                elif t == 0x12:  # the step: HistoryStep {num = 1}
                    ln = d[i + 1]
                    if ln & 0x80:
                        return False
                    if ln:
                        if d[i + 2] != 0x08:
                            return False
                        b0 = d[i + 3]
                        if b0 < 0x80:
                            step = b0
                        elif d[i + 4] < 0x80:
                            step = (b0 & 0x7F) | (d[i + 4] << 7)
                        elif d[i + 5] < 0x80:
                            step = (b0 & 0x7F) | ((d[i + 4] & 0x7F) << 7) | (d[i + 5] << 14)
                        else:
                            step, _ = varint(d, i + 3)
                            if step >= 1 << 63:
                                step -= 1 << 64
                    else:
                        step = 0
                    i += 2 + ln
                elif t == 0xC2 and d[i + 1] == 0x0C:  # _info
                    ln, j = varint(d, i + 2)
                    i = j + ln
                else:
                    return False
            if i != end:
                return False
            if step is None and step_item is not None:
                step = int(float(step_item or b"0"))
        except (IndexError, ValueError, UnicodeDecodeError):
            return False
        if step is None:
            step = scan.history_rows
        scan.history_rows += 1
        cols = scan.columns  # BatchBuilder.add_row, inlined: this runs once per history row
        for key, value in row:
            c = cols.get(key)
            if c is None:
                c = cols[key] = scan.builder.column(key)
            c[0].append(step)
            c[1].append(value)
        return True

    def _history(self, rec, scan: _Scan) -> None:
        step = rec.step.num if rec.HasField("step") else None
        values: list[tuple[str, float]] = []
        for it in rec.item:
            nk = it.nested_key
            key = (nk[0] if len(nk) == 1 else ".".join(nk)) if nk else it.key
            if key[:1] == "_":
                if key == "_step" and step is None:
                    step = int(float(it.value_json or it.integer or 0))
                continue
            if key[:7] == "system/" or key[:7] == "system.":
                continue
            text = it.value_json
            if text:
                try:
                    value = float(text)  # numbers, NaN, Infinity, -Infinity as wandb's JSON spells them
                except ValueError:
                    continue  # strings, booleans (true/false), media and tables are not metrics
            else:
                which = it.WhichOneof("value")
                if which == "number":
                    value = it.number
                elif which == "integer":
                    value = float(it.integer)
                else:
                    continue
            values.append((key, value))
        if step is None:
            step = scan.history_rows
        scan.history_rows += 1
        add = scan.builder.add
        for key, value in values:
            add(step, key, value)

    def _run(self, rec, scan: _Scan) -> None:
        info = scan.info
        info.name = rec.display_name or rec.run_id or info.name
        if rec.entity and rec.project and rec.run_id:
            info.url = f"https://wandb.ai/{rec.entity}/{rec.project}/runs/{rec.run_id}"
        if info.state is None:
            info.state = "running"
        self._config_items(rec.config.update, scan)

    def _config_items(self, items, scan: _Scan) -> None:
        for it in items:
            key = ".".join(it.nested_key) if it.nested_key else it.key
            if key.startswith("_"):
                continue
            _flatten(key, _json_value(it.value_json), scan.config)


def _is_run_dir_name(name: str) -> bool:
    return name.startswith(("run-", "offline-run-")) and not name.endswith(".wandb")


def _run_sort_key(entry) -> tuple[str, float]:
    # run-YYYYMMDD_HHMMSS-<id> / offline-run-YYYYMMDD_HHMMSS-<id>: the timestamp in the name, then mtime
    stamp = entry.name.split("run-", 1)[-1].rsplit("-", 1)[0]
    return stamp, entry.mtime


def _wandb_in_run_dir(fs: FileSystem, path: str, entries) -> str | None:
    files = sorted((e for e in entries if not e.is_dir and e.name.endswith(".wandb")), key=lambda e: (e.mtime, e.name))
    return fs.join(path, files[-1].name) if files else None


def find_wandb_file(fs: FileSystem, dir_path: str) -> str | None:
    """The .wandb file of a run folder, of a ``wandb/`` folder's latest run (``latest-run`` link, else the newest
    ``run-*``/``offline-run-*`` folder), or of a project folder holding ``wandb/``; None when there is none."""
    return _find(fs, dir_path, depth=0)


def _resolve_latest(fs: FileSystem, path: str, runs) -> str | None:
    """The .wandb file ``latest-run`` points at, named through its real run folder (a stable source id)."""
    latest = fs.join(path, "latest-run")
    try:
        if not fs.stat(latest).is_dir:
            return None
        linked = _wandb_in_run_dir(fs, latest, fs.listdir(latest))
        if not linked:
            return None
        name = linked.rsplit("/", 1)[-1]
        target = fs.stat(linked)
        for run in runs:
            candidate = fs.join(path, run.name, name)
            try:
                st = fs.stat(candidate)
            except TrainingCheckError:
                continue
            same = (st.identity == target.identity) if (st.identity and target.identity) else \
                (st.size, st.mtime) == (target.size, target.mtime)
            if same:
                return candidate
        return linked
    except TrainingCheckError:  # a dangling link: fall back to the newest run folder
        return None


def _find(fs: FileSystem, path: str, depth: int) -> str | None:
    if depth > 2:
        return None
    entries = fs.listdir(path)
    own = _wandb_in_run_dir(fs, path, entries)
    if own:
        return own
    names = {e.name: e for e in entries}
    runs = sorted((e for e in entries if e.is_dir and _is_run_dir_name(e.name)), key=_run_sort_key, reverse=True)
    if "latest-run" in names:
        found = _resolve_latest(fs, path, runs)
        if found:
            return found
    for run in runs:
        run_path = fs.join(path, run.name)
        found = _wandb_in_run_dir(fs, run_path, fs.listdir(run_path))
        if found:
            return found
    if "wandb" in names and names["wandb"].is_dir:
        return _find(fs, fs.join(path, "wandb"), depth + 1)
    return None
