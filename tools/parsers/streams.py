"""Several processes in one log: each line a launcher's prefix naming its rank, each record read from one rank.

A distributed launch prints every rank's lines into one log, each line led by its rank:

- ``[default0]:`` (``torchrun --tee``: the role and the local rank), ``[rank0]:`` (torch's own prefix on a rank's
  errors), both ``[<word><rank>]:``;
- ``[1,0]<stdout>:`` (``mpirun --tag-output``: the job and the rank);
- ``0: `` (``srun --label``: the task, right-aligned to the widest).

A line without a prefix is the launcher's own (its warnings, a process's unprefixed prints): it is read. Of the
prefixed lines, each kind of record (its template) is read from the lowest rank seen printing it so far, every
other rank's copy not: a record each rank prints is one point, not one per rank, and a record only
one rank prints (Megatron's loss, on the last pipeline stage) is read from that rank. The choice depends only on the
lines before, so the interleaving (at any line) and a read in parts of any size change nothing.

A process may also name itself inside its message instead (``Dialect.process_tag_names``): a tag opening the
message after a logger's preamble (NVFlare's simulator, every federated site through one logger: ``2026-12-07
08:29:42,810 - INFO - site=site-1, Epoch: 0/1, ...``; ``rank=0 step=5 ...``; ``... INFO [worker-2] ...``). Once a line
of the file is known to open so (``engine._process_tags``: a fact pinned, the file read again from its start), every
line's message is looked at (``message_tags``) and a tagged line is a process's line as a prefixed one is, its tag
kept on it.

``srun``'s bare ``N: `` is also how some loops print a counter at a line's start; it is taken as a rank only once the
labels went back to a lower one ``SRUN_BACKS`` times (ranks interleave; a counter only climbs), and until then such
lines are read as they are.

A block is looked at line by line once the log is known to be labelled, or when a few of its first or last lines
start with a prefix (``_marks``); any other costs those few lines. Linear: one pass over the block's line starts.
"""

from __future__ import annotations

import re

import numpy as np

from .base import Emitter
from .dialect import DIALECT

# anchored at a line's start (``match`` at an offset), bounded runs: no backtracking
_TAGGED = re.compile(rb"\[([A-Za-z_]{1,32}+)(\d{1,6}+)\]:")
_MPI = re.compile(rb"\[\d{1,9}+,(\d{1,6}+)\]<std(?:out|err)>: ?+")
_SRUN = re.compile(rb" {0,5}+(\d{1,5}+): ")
HEAD_LINES, TAIL_LINES, HEAD_BYTES = 64, 16, 1 << 16  # the lines a block is first looked at in
SRUN_BACKS = 3  # bare labels going back to a lower one this many times: ranks, not a counter
NONE = -1
WINDOW = 48  # bytes of a line that hold any prefix (``[`` 32 letters 6 digits ``]:``; mpirun's 28)
_CLASS = np.zeros(256, dtype=np.uint8)
_CLASS[list(range(65, 91)) + list(range(97, 123)) + [95]] = 1
_CLASS[48:58], _CLASS[93] = 2, 3
_STDOUT, _STDERR = np.frombuffer(b"<stdout>:", dtype=np.uint8), np.frombuffer(b"<stderr>:", dtype=np.uint8)
MAX_KINDS = 2048  # kinds of record whose lowest rank is remembered
HOLD_LINES = 64  # a rank above 0 is held back for this many lines of a kind, in case a lower one prints it too
MAX_HELD = 256  # lines held back in all, each of at most HOLD_BYTES (a read's state stays small)
HOLD_BYTES = 4096
HOLD_REST = 8
MAX_RANKS = 4096  # ranks remembered as seen  # unlabelled lines held with a held line (its rest, wrapped by a terminal)
_PROCESS_NAMES = b"|".join(re.escape(w.encode()) for w in DIALECT.process_tag_names)
# a process's tag in a message: ``name=value`` / ``name: value`` (a number, or a word and a number: ``site-1``,
# ``gpu0``) or ``[name-N]``; bounded runs, possessive, a lookbehind of one byte: no backtracking
MESSAGE_TAG = re.compile(
    rb"(?<![\w.\-\[])(?:(?:" + _PROCESS_NAMES + rb")[ \t]?+[=:][ \t]?+(?:[A-Za-z]{1,24}+[-_]?+)?+(\d{1,6}+)"
    rb"|\[(?:" + _PROCESS_NAMES + rb")[ \t]?+[-_:#]?+[ \t]?+(\d{1,6}+)\])(?![\w.])", re.I)
MESSAGE_WINDOW = 192  # bytes of a line a message's tag starts within (a stamp, a logger's name and level before it)
_OPENERS = b"-:|]>)"  # a preamble ending so (``... - INFO -``, ``[INFO]``, ``INFO:``) ends where the message opens
_LEVELS = frozenset(w.encode() for w in DIALECT.level_words)


def message_tag(line: bytes, at: int = 0, end: int | None = None) -> tuple[int, bytes] | None:
    """(the process's number, the tag) of the process tag opening the message of the line ``line[at:end]``: the
    first tag within its first ``MESSAGE_WINDOW`` bytes, where the line's text before it is nothing, or a preamble
    ending in one of ``_OPENERS`` or a log level (``2026-12-07 08:29:42,810 - INFO - site=site-1, ...``,
    ``[2026-12-07 08:29:42][INFO] [site-1] ...``); None else (a tag inside a record, ``loss=0.3 rank=1``, names no
    process here)."""
    stop = len(line) if end is None else end
    m = MESSAGE_TAG.search(line, at, min(stop, at + MESSAGE_WINDOW))
    if m is None:
        return None
    head = line[at:m.start()].rstrip()
    word = head[max(head.rfind(b" "), head.rfind(b"\t")) + 1:]  # (a level right before it: ``... INFO [site-1]``)
    if head and head[-1:] not in _OPENERS and word.lower() not in _LEVELS:
        return None
    return int(m.group(1) or m.group(2)), m.group(0)


def tags_alike(raw: np.ndarray, starts: np.ndarray, ends: np.ndarray, off: int,
               head: bytes) -> tuple[np.ndarray, np.ndarray]:
    """(the process's number, whether read) of each line ``raw[starts[i]:ends[i]]`` holding at ``off`` the tag's head
    ``head`` (``site=site-``, ``[RANK ``) then 1 to 6 digits then no word's byte (``]``, ``,``, a blank, the line's
    end): the lines of one template read a byte column at a time where its first line has its tag (numpy, no line
    loop); a line that holds it elsewhere is not read here."""
    h = len(head)
    pad = np.concatenate((raw, np.zeros(h + 8, dtype=np.uint8)))
    base = starts + off
    ok = (off >= 0) & (base + h < ends)
    for j, b in enumerate(head):
        ok &= pad[base + j] == b
    value = np.zeros(len(starts), dtype=np.int64)
    nd = np.zeros(len(starts), dtype=np.int64)
    run = ok.copy()
    for d in range(6):
        c = pad[base + h + d].astype(np.int64)
        run &= (c >= 48) & (c <= 57) & (base + h + d < ends)
        value = np.where(run, value * 10 + c - 48, value)
        nd += run
    after = pad[base + h + nd]
    word = ((_CLASS[after] > 0) & (after != 93) | (after == 46)) & (base + h + nd < ends)  # a letter, digit, _ or .
    return value, ok & (nd >= 1) & ~word


def message_tags(data: bytes, starts: np.ndarray, ends: np.ndarray, rows: np.ndarray,
                 codes: np.ndarray) -> tuple[np.ndarray, bytes]:
    """(the process's number of each line ``rows`` of ``data``, NONE where its message opens with no tag; the first
    tag seen), ``codes`` each line's template (``kernel.factorize_templates``): a template's letters and separators
    are its lines', so only the lines of a template whose first line opens with a tag (``message_tag``) are read,
    each by the tag's pattern right where its template's first line has it (searched for where that misses)."""
    out = np.full(len(rows), NONE, dtype=np.int64)
    first = b""
    if not len(rows):
        return out, first
    c = codes[rows]
    kinds, at = np.unique(c, return_index=True)
    raw = np.frombuffer(data, dtype=np.uint8)
    for kind, k0 in zip(kinds.tolist(), at.tolist(), strict=True):
        i0 = int(rows[k0])
        a0 = int(starts[i0])
        m = _first_tag(data, a0, int(ends[i0]))
        if m is None:
            continue
        first = first or m.group(0)
        ks = np.flatnonzero(c == kind)
        digits = m.start(1) if m.group(1) is not None else m.start(2)
        value, ok = tags_alike(raw, starts[rows[ks]], ends[rows[ks]], m.start() - a0, data[m.start():digits])
        out[ks[ok]] = value[ok]
        for k in ks[~ok].tolist():  # (its tag elsewhere on the line: a number before it of another width)
            again = message_tag(data, int(starts[rows[k]]), int(ends[rows[k]]))
            out[k] = NONE if again is None else again[0]
    return out, first


def _first_tag(data: bytes, a: int, e: int) -> re.Match[bytes] | None:
    """``message_tag``'s match on the line ``data[a:e]``, or None."""
    got = message_tag(data, a, e)
    return None if got is None else MESSAGE_TAG.search(data, a, min(e, a + MESSAGE_WINDOW))


def select_stream(data: bytes, st: dict, em: Emitter) -> bytes:
    """``data`` (a block: whole lines, or a line's rest after a ``\\r`` the block before ended at) with only the lines
    read as the run: the launcher's own and, of each kind of record, the lowest rank's (a bracketed prefix stays, a
    bare label goes), held-back lines let go where they are taken. ``st`` (JSON) carries each kind's lowest rank, the
    lines held back, the rank of a line left open at the block's end and the bare labels' history."""
    s = st.get("streams")
    tagged, bare = _marks(data, s)
    tags = bool(st.get("msg_tags"))  # lines seen opening their message with a process's tag (pinned)
    if not (tagged or bare or tags or s and s.get("open") is not None):
        return data
    fresh = s is None
    if s is None:  # (``srun``: pinned when an earlier read of the file learned the bare labels are ranks)
        s = {"low": None, "open": None, "srun": bool(st.get("srun")), "last": None, "backs": 0, "example": None}
    out = _select(data, s, em, tagged, bare, tags)
    if s["srun"] and not st.get("srun"):
        # bare labels known as ranks only now: the lines before were read as they are (a rank's copy as a point);
        # the file is read again from its start knowing it (engine._revise, once), as a read of any size would
        st.setdefault("revise", {})["srun"] = True
    if s["low"] is not None:
        s["tagged"] = s.get("tagged") or tagged
    if fresh and (s["low"] is not None or s["last"] is not None):
        st["streams"] = s  # a labelled log: every block after is looked at
    return out


def _marks(data: bytes, s: dict | None) -> tuple[bool, bool]:
    """(whether ``data`` is looked at for bracketed prefixes, for bare ``N: `` labels): in a log seen with them, every
    block; else a block one of whose first ``HEAD_LINES`` or last ``TAIL_LINES`` lines starts with one (a launcher
    prefixes every line of its processes: a few of its own lines come first). No pass over the whole block."""
    tagged = s is not None and s.get("tagged", False)
    bare = s is not None and s.get("last") is not None
    if tagged and bare:
        return True, True
    head = data[:HEAD_BYTES].split(b"\n")[:HEAD_LINES]
    tail = data[-HEAD_BYTES:].split(b"\n")[-TAIL_LINES:] if len(data) > HEAD_BYTES else []
    for line in head + tail:
        if not tagged and line[:1] == b"[" and (_TAGGED.match(line) or _MPI.match(line)):
            tagged = True
        elif not bare and _SRUN.match(line):
            bare = True
    return tagged, bare


def _select(data: bytes, s: dict, em: Emitter, tagged: bool, bare_marks: bool, tags: bool = False) -> bytes:
    from .kernel import line_bounds

    starts, ends = line_bounds(data)
    raw = np.frombuffer(data, dtype=np.uint8)
    n = len(starts)
    first = np.full(n, 10, dtype=np.uint8)  # the first byte of each line (a newline for an empty one)
    nonempty = starts < ends
    first[nonempty] = raw[starts[nonempty]]
    look = (first == 91) if tagged else np.zeros(n, dtype=bool)  # "["
    if bare_marks:
        look |= (first == 32) | ((first >= 48) & (first <= 57))  # " ", a digit
    ranks = np.full(n, NONE, dtype=np.int64)
    cut = np.zeros(n, dtype=np.int64)  # the prefix's length, where it is cut off
    skip = np.zeros(n, dtype=np.int64)  # ... where the line's kind starts (after any prefix)
    bare = np.zeros(n, dtype=bool)
    brackets = np.flatnonzero(look & (first == 91))
    if len(brackets):  # every line at once (numpy): the prefixes' ranks and lengths
        ranks[brackets], skip[brackets] = bracketed(raw, starts[brackets], ends[brackets])
    for i in np.flatnonzero(look & (first != 91)).tolist():  # bare labels, line by line (srun's logs only)
        at = int(starts[i])
        m = _SRUN.match(data, at)
        if m is None:
            continue
        ranks[i] = int(m.group(1))
        bare[i] = True
        skip[i] = cut[i] = m.end() - at  # a bare label goes (it reads as a counter); a bracketed prefix stays, the
        # line as long as it was (a terminal's wrap is found by lines' lengths), its rank masked with the numbers
    if s.get("example") is None and (ranks != NONE).any():
        i = int(np.flatnonzero(ranks != NONE)[0])  # the log's first prefix: the note names it
        s["example"] = data[int(starts[i]):int(starts[i] + skip[i])].decode("latin-1").strip()
    pre = None  # (the block's templates, when made for the tags: made once)
    if tags:  # a process's tag opening a line's message (no launcher's prefix before it): the line is its
        from .kernel import factorize_templates

        rows = np.flatnonzero(ranks == NONE)
        pre = factorize_templates(data)
        got, tag = message_tags(data, starts, ends, rows, pre[0])
        ranks[rows] = got
        if tag:
            s["in_message"] = True
            if s.get("example") is None:
                s["example"] = tag.decode("latin-1")
    opened = s.get("open")
    keep = np.ones(n, dtype=bool)
    labelled = np.flatnonzero(ranks != NONE)
    inserts: dict[int, bytes] = {}  # held lines let go, before the line that let them go
    if len(labelled):
        keep, ranks = _keep(data, starts, ends, skip, ranks, bare, labelled, s, inserts, pre)
        cut[ranks == NONE] = 0  # a bare counter not (yet) known as a rank: the line as it is
    if opened is not None and n:  # the block starts in a line the block before opened (it ended at a \r): its rest
        ranks[0], cut[0], keep[0] = int(opened[0]), 0, bool(opened[1])
    s["open"] = None if not n or data.endswith(b"\n") or ranks[-1] == NONE else [int(ranks[-1]), bool(keep[-1])]
    if not (~keep).any() and not cut.any() and not inserts:
        return data
    if s.get("copies") and s.get("in_message"):
        em.notes.append(f"the log interleaves several processes' lines (tags opening their messages such as "
                        f"{s['example']}): each record is read from the lowest process printing it; other processes' "
                        f"copies are not points")
    elif s.get("copies"):
        em.notes.append(f"the log interleaves several processes' lines (launcher prefixes such as {s['example']}): "
                        f"each record is read from the lowest rank printing it; other ranks' copies are not points")
    return _joined(data, starts, ends, keep, cut, inserts)


def _keep(data: bytes, starts: np.ndarray, ends: np.ndarray, skip: np.ndarray, ranks: np.ndarray, bare: np.ndarray,
          labelled: np.ndarray, s: dict, inserts: dict[int, bytes],
          pre: tuple[np.ndarray, list[bytes]] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(which lines are read, each line's rank as taken): the unlabelled, and each labelled one whose rank is the
    lowest seen so far printing its kind of record (its template: ``_kinds``). Bare ``N: `` labels count as ranks from
    the line where they went back ``SRUN_BACKS`` times (carried in ``s``)."""
    n = len(ranks)
    all_codes, kinds = _kinds(data, starts, ends, labelled, pre)
    if bare[labelled].any():
        b = labelled[bare[labelled]]
        labs = ranks[b]
        prev = np.concatenate(([NONE if s.get("last") is None else int(s["last"])], labs[:-1]))
        backs = int(s.get("backs", 0)) + np.cumsum((labs < prev) & (prev != NONE))
        # ... or once one label led the same kind of record on consecutive lines SRUN_BACKS times: a counter numbers
        # each record anew, a task's label stays (a task printing all its lines before the next one's, as a buffered
        # stdout flushed at exit leaves them, never goes back)
        codes_b = all_codes[bare[labelled]]
        same = np.concatenate(([kinds[int(codes_b[0])].decode("latin-1") == s.get("last_kind")],
                               codes_b[1:] == codes_b[:-1])) & (labs == prev)
        repeats = int(s.get("repeats", 0)) + np.cumsum(same)
        on = np.ones(len(b), dtype=bool) if s.get("srun") else (backs >= SRUN_BACKS) | (repeats >= SRUN_BACKS)
        s["last"], s["backs"] = int(labs[-1]), min(int(backs[-1]), SRUN_BACKS)
        s["repeats"] = min(int(repeats[-1]), SRUN_BACKS)
        s["last_kind"] = kinds[int(codes_b[-1])].decode("latin-1")[:HOLD_BYTES]
        s["srun"] = bool(s.get("srun")) or bool(on[-1])
        ranks = ranks.copy()
        ranks[b[~on]] = NONE  # not (yet) known as ranks: a counter's line, read as it is
        all_codes = all_codes[ranks[labelled] != NONE]
        labelled = np.flatnonzero(ranks != NONE)
    keep = np.ones(n, dtype=bool)
    if not len(labelled):
        return keep, ranks
    codes = all_codes
    lows = s.setdefault("lows", {})  # kind -> [its lowest rank so far, whether that rank is taken (no more held)]
    r = ranks[labelled]
    ok = np.zeros(len(labelled), dtype=bool)
    order = np.argsort(codes, kind="stable")
    bounds = np.flatnonzero(np.diff(codes[order])) + 1
    open_last = not data.endswith(b"\n")
    seen = s.setdefault("ranks", [])  # the ranks seen so far (a few)
    new = [x for x in dict.fromkeys(r.tolist()) if x not in seen]
    firsts = {x: int(np.argmax(r == x)) for x in new[:MAX_RANKS]}
    # how many ranks were seen up to each labelled line: holding back needs two (a log of one rank's lines, a
    # Megatron excerpt's last stage, is read as it comes)
    many = len(seen) + np.searchsorted(np.sort(np.array(list(firsts.values()), dtype=np.int64)), np.arange(len(r)),
                                       side="right") >= 2
    # the lowest rank seen up to each labelled line: of processes named in their messages (numbered from 1 as often
    # as from 0: ``site-1``), that one is taken at once, as rank 0 is
    lowest = np.minimum.accumulate(np.concatenate(([min(seen) if seen else int(r[0])], r)))[1:] if s.get(
        "in_message") else None
    seen.extend(list(firsts)[:max(0, MAX_RANKS - len(seen))])
    gone: list[int] = []  # unlabelled lines held with the labelled one they go on (a terminal's wrap)
    for group in np.split(order, bounds):  # per kind of record, in line order: the lowest rank so far
        kind = kinds[int(codes[group[0]])].decode("latin-1")
        if kind not in lows and len(lows) >= MAX_KINDS:
            lows[kind] = [int(r[group].min()), True]  # (more kinds than are remembered: no holding back)
        at = _hold(data, starts + np.where(bare, skip, 0), ends, labelled, group, r, many, kind, lows, s, inserts,
                   open_last, ranks, gone, lowest)
        rest = group[at:]
        if not len(rest):
            continue
        low = np.minimum.accumulate(r[rest])
        if kind in lows:
            low = np.minimum(low, int(lows[kind][0]))
        ok[rest] = r[rest] <= low
        lows[kind] = [int(low[-1]), True]
    keep[labelled] = ok
    keep[gone] = False
    s["copies"] = int(s.get("copies", 0)) + int((~ok).sum()) - int(s.pop("held_now", 0))
    s["low"] = int(r.min()) if s.get("low") is None else min(int(s["low"]), int(r.min()))
    return keep, ranks


def _hold(data: bytes, starts: np.ndarray, ends: np.ndarray, labelled: np.ndarray, group: np.ndarray, r: np.ndarray,
          many: np.ndarray, kind: str, lows: dict, s: dict, inserts: dict[int, bytes], open_last: bool,
          ranks: np.ndarray, gone: list[int], lowest: np.ndarray | None = None) -> int:
    """The lines of ``group`` (one kind, in line order) up to the one where the kind's rank is taken: until then a
    rank above 0 is held back (``s["held"]``), as another, lower rank may print the same record a little later (rank
    1's first lines before rank 0's: they are dropped then); its ``HOLD_LINES``-th line of the kind takes it (the
    held ones go in before that line: Megatron's loss, printed by the last stage only). Rank 0 is taken at once, and
    so is a rank while it is the only one seen (``many``: a log of one rank's lines reads as it comes), and a process
    named in its message that is the lowest seen so far (``lowest``, per line: ``site-1`` of sites numbered from 1).
    Returns where the taken part of ``group`` starts (all of it once the kind is taken)."""
    state = lows.get(kind)
    if state is not None and state[1]:
        return 0
    held = s.setdefault("held", [])
    low = NONE if state is None else int(state[0])
    n = len(starts)
    for k, g in enumerate(group.tolist()):
        rank, line = int(r[g]), int(labelled[g])
        if low != NONE and rank > low:
            continue  # another rank's copy
        if low == NONE or rank < low:
            held[:] = [h for h in held if h[0] != kind]  # a lower rank prints it: the held lines were copies
            low = rank
        mine = [h for h in held if h[0] == kind]
        last_open = open_last and line == n - 1  # a line the next block goes on with: never held
        long = int(ends[line]) - int(starts[line]) > HOLD_BYTES
        alone = not many[g]  # the only rank seen so far: nothing to hold it back for
        first = rank == 0 or lowest is not None and rank <= int(lowest[g])
        if first or alone or len(mine) + 1 >= HOLD_LINES or last_open or long or len(held) >= MAX_HELD:
            if mine:
                inserts[line] = inserts.get(line, b"") + b"".join(h[1].encode("latin-1") for h in mine)
                held[:] = [h for h in held if h[0] != kind]
            lows[kind] = [low, True]
            return k
        stop = line + 1  # the unlabelled lines right after it are its rest (a terminal's wrap): held with it
        while stop < n - 1 and ranks[stop] == NONE and stop - line <= HOLD_REST and \
                int(ends[stop]) - int(starts[line]) < HOLD_BYTES:
            stop += 1
        gone.extend(range(line + 1, stop))
        held.append([kind, data[int(starts[line]):int(ends[stop - 1]) + 1].decode("latin-1")])
        s["held_now"] = int(s.get("held_now", 0)) + 1
        lows[kind] = [low, False]
    return len(group)


def release_held(st: dict) -> bytes:
    """The lines still held back at the end of a read (``_hold``), in their order: the rank that printed them is taken
    (no lower one printed the same record)."""
    s = st.get("streams")
    if not s or not s.get("held"):
        return b""
    lows = s.setdefault("lows", {})
    for kind, _line in s["held"]:
        if kind in lows:
            lows[kind][1] = True
    out = b"".join(h[1].encode("latin-1") for h in s["held"])
    s["held"] = []
    return out


def bracketed(raw: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rank, prefix length) of each line ``raw[starts[i]:ends[i]]`` (each starting with ``[``) that ``_TAGGED`` or
    ``_MPI`` matches at its start; (NONE, 0) for the others. The lines shaped as the first one that matches (one
    launcher's one role or job: nearly all of them) are read a byte column at a time (``_shaped``); the rest by
    ``_bracketed``."""
    rank = np.full(len(starts), NONE, dtype=np.int64)
    length = np.zeros(len(starts), dtype=np.int64)
    rest = np.arange(len(starts))
    for i in range(min(len(starts), 8)):
        line = raw[int(starts[i]):int(ends[i])].tobytes()
        m = _TAGGED.match(line) or _MPI.match(line)
        if m is not None:
            tagged = m.re is _TAGGED
            head = line[:m.start(2 if tagged else 1)]  # "[default" / "[1,"
            suffixes = (b"]:",) if tagged else (b"]<stdout>:", b"]<stderr>:")
            r, n, done = _shaped(raw, starts, ends, head, suffixes, space=not tagged)
            rank[done], length[done] = r[done], n[done]
            rest = np.flatnonzero(~done)
            break
    if len(rest):
        rank[rest], length[rest] = _bracketed(raw, starts[rest], ends[rest])
    return rank, length


def _shaped(raw: np.ndarray, starts: np.ndarray, ends: np.ndarray, head: bytes, suffixes: tuple[bytes, ...],
            space: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rank, length, matched) of the lines that start with ``head``, then 1 to 6 digits, then one of ``suffixes``
    (and one optional space, for mpirun's): a few comparisons of one byte of every line at a time."""
    k, h = len(starts), len(head)
    pad = np.concatenate((raw, np.zeros(h + 32, dtype=np.uint8)))
    ok = ends - starts >= h + 1 + min(len(x) for x in suffixes)
    for j, b in enumerate(head):
        ok &= pad[starts + j] == b
    rank = np.zeros(k, dtype=np.int64)
    length = np.zeros(k, dtype=np.int64)
    done = np.zeros(k, dtype=bool)
    value = np.zeros(k, dtype=np.int64)
    digits = ok.copy()
    for d in range(1, 7):
        c = pad[starts + h + d - 1]
        digits &= (c >= 48) & (c <= 57)
        if not digits.any():
            break
        value = value * 10 + c.astype(np.int64) - 48
        for suffix in suffixes:
            hit = digits & ~done
            for j, b in enumerate(suffix):
                hit &= pad[starts + h + d + j] == b
            rank[hit], length[hit] = value[hit], h + d + len(suffix)
            done |= hit
    if space:
        length += done & (pad[starts + length] == 32) & (starts + length < ends)
    return rank, length, done


def _bracketed(raw: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rank, prefix length) of each line ``raw[starts[i]:ends[i]]`` (each starting with ``[``) that ``_TAGGED`` or
    ``_MPI`` matches at its start; (NONE, 0) for the others. The patterns' answers, for all lines at once: each line's
    first ``WINDOW`` bytes as a row (a view's rows gathered), its first ``]``, the digits before it, what is before
    them and after it (no pattern crosses a newline: a newline is neither a letter, a digit nor a comma)."""
    k = len(starts)
    rows = np.arange(k)
    padded = np.concatenate((raw, np.zeros(WINDOW + 16, dtype=np.uint8)))
    win = np.lib.stride_tricks.sliding_window_view(padded, WINDOW + 11)[starts]
    cls = _CLASS[win[:, :WINDOW]]  # 1 a letter, 2 a digit, 3 "]", 0 any other byte
    c = (cls == 3).argmax(1)  # the first "]" (0 when none: byte 0 is "[")
    dig = cls == 2
    rank = np.zeros(k, dtype=np.int64)
    ndig = np.zeros(k, dtype=np.int64)
    run = c > 1
    for d in range(1, 7):  # the digits right before "]", from the last: at most 6
        p = np.maximum(c - d, 0)
        run &= (c - d >= 1) & dig[rows, p]
        rank += np.where(run, (win[rows, p].astype(np.int64) - 48) * 10 ** (d - 1), 0)
        ndig += run
    head = c - ndig  # where the rank's digits start
    first_other = (cls[:, 1:] != 1).argmax(1) + 1  # the first byte after "[" that is no letter
    tagged = (ndig >= 1) & (head - 1 >= 1) & (head - 1 <= 32) & (first_other == head) & (win[rows, c + 1] == 58)
    first_nondig = (cls[:, 1:] != 2).argmax(1) + 1  # "[" digits "," digits "]<stdout>:"
    job = first_nondig - 1
    after = win[:, :, None][rows[:, None], c[:, None] + 1 + np.arange(9), 0]
    std = (after == _STDOUT).all(1) | (after == _STDERR).all(1)
    mpi = (ndig >= 1) & (job >= 1) & (job <= 9) & (head - 2 == job) & (win[rows, first_nondig] == 44) & std
    space = win[rows, c + 10] == 32
    length = np.where(tagged, c + 2, np.where(mpi, c + 10 + space, 0))
    return np.where(tagged | mpi, rank, NONE), length


def _kinds(data: bytes, starts: np.ndarray, ends: np.ndarray, labelled: np.ndarray,
           pre: tuple[np.ndarray, list[bytes]] | None = None) -> tuple[np.ndarray, list[bytes]]:
    """(a code per labelled line, the kinds): each line's template (numbers masked, the rank in its prefix too: one
    kind whatever the rank; ``kernel.factorize_templates``, the block's lines at once); a line holding a ``\\r`` (a
    bar's redraws) by its start up to the first one: ranks print the same record alike."""
    from .kernel import factorize_templates

    codes, kinds = factorize_templates(data) if pre is None else (pre[0], list(pre[1]))
    codes = codes[labelled]
    if b"\r" not in data:
        return codes, kinds
    cr = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 13)
    lines = np.unique(np.searchsorted(ends, cr))  # the lines holding a \r
    at = np.flatnonzero(np.isin(labelled, lines))
    if not len(at):
        return codes, kinds
    heads = []
    for i in labelled[at].tolist():
        a = int(starts[i])
        heads.append(data[a:data.find(b"\r", a, int(ends[i]))])
    head_codes, head_kinds = factorize_templates(b"\n".join(heads))
    index = {k: j for j, k in enumerate(kinds)}
    for k in head_kinds:
        if k not in index:
            index[k] = len(kinds)
            kinds.append(k)
    remap = np.array([index[k] for k in head_kinds], dtype=np.int64)
    codes = codes.copy()
    codes[at] = remap[head_codes[:len(at)]]
    return codes, kinds


def _joined(data: bytes, starts: np.ndarray, ends: np.ndarray, keep: np.ndarray, cut: np.ndarray,
            inserts: dict[int, bytes]) -> bytes:
    """The kept lines, each without a bare label, joined as they were (a newline after each but an open last one),
    the held lines let go before the line that let them go."""
    last = len(starts) - 1
    if not inserts and not cut.any():  # runs of kept lines, each one slice
        edges = np.flatnonzero(np.diff(np.concatenate(([0], keep.view(np.int8), [0]))))
        first_kept, last_kept = edges[0::2], edges[1::2] - 1  # runs of lines kept
        stop = np.minimum(ends[last_kept] + 1, len(data))
        return b"".join([data[x:y] for x, y in zip(starts[first_kept].tolist(), stop.tolist(), strict=True)])
    pieces = []
    for i in np.flatnonzero(keep).tolist():
        if i in inserts:
            pieces.append(inserts[i])
        a, e = int(starts[i]) + int(cut[i]), int(ends[i])
        pieces.append(data[a:e + 1] if i < last else data[a:e])
    return b"".join(pieces)
