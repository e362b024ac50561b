"""The one reader of text logs: any line-oriented log, in bulk, in linear time.

A block of complete lines goes through four steps (see DESIGN.md, "Reading text logs"):

1. ``lines.split_lines``: physical lines as the terminal log holds them (``\\r`` / ``\\b`` redraws apart, ANSI
   gone, a printed record on a line of its own, bad bytes costing their line);
2. ``templates.group_lines``: each line's template (numbers masked); a template that recurs is a series, one seen
   once (a banner, a config or argument dump, a final summary) is not, unless it is a printed record;
3. ``fields.plan_template``: per template, which fields are numbers, their names, and which is the step, the
   epoch or a progress counter (the dialect, ``dialect.py``); the numbers of all its lines are then read
   column-wise by pandas' C reader;
4. the steps as the framework counts them, in line order across templates: an explicit step (or boosting's
   ``[N]``); a progress counter ``n/N`` with its epoch (global step = (epoch - first epoch) x N + n when it
   restarts each epoch); a record with neither sits at the progress counter printed with it (tqdm redraws its bar
   right after a record it writes: the next counter line, else the last one); else line order, said in the notes.

State between blocks (``Emitter.state["eng"]``, JSON, bounded): the templates known to recur, a few one-off lines
that may yet recur (a young log), the epoch, the main progress counter, the last step and the line-order count.
"""

from __future__ import annotations

import hashlib
import io
import math
import operator
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

import numpy as np

from . import (
    banners,
    bar_ends,
    bar_loops,
    bar_steps,
    boxed_bars,
    epoch_phases,
    epoch_reports,
    live_display,
    marked_rows,
    nested_counters,
    objective_estimates,
    setting_counters,
    tab_tables,
)
from .bare_rows import DECIDE_ROWS, cells, decide
from .base import Emitter, LineFormat
from .blocks import Blocks, hold_rows
from .breaks import record_end
from .dialect import DIALECT
from .evaluations import mark_evaluations, say_evaluations
from .fields import Plan, _spans, before_bar, header_names, plan_template
from .full_stops import without_full_stops
from .headed_rows import headed
from .history_rows import HistoryRows
from .incumbents import IncumbentTable
from .interrupted import hold_piece, rejoined
from .kv_blocks import KeyBlocks, hold_open
from .lines import (
    FIRST_DISPLAY,
    TextLines,
    erase_cleared,
    hold_display,
    join_wrapped,
    line_lengths,
    split_lines,
    without_errors,
)
from .reads import EXPLICIT, PENDING_LINE, Read, ffill, has_position, name_role, series_key, whole_count
from .stat_rows import StatRows
from .streams import MESSAGE_TAG, MESSAGE_WINDOW, message_tag, release_held, select_stream, tags_alike
from .tables_text import SKIP, RowNames, Tables, closes_a_list
from .templates import (
    GROUPED,
    NAN_MARK,
    VALUE_DELETE,
    VALUE_TABLE,
    Grouping,
    group_lines,
    split_run_together_numbers,
    templates_of,
    ungroup_numbers,
    unmark_best,
    value_text,
)
from .transposed import Transposed
from .tree_blocks import TreeBlocks, hold_tree
from .wrapped_tables import unwrap

BLOCK_BYTES = 8 << 20  # the most bytes read as one block
BLOCK_LINES = 1 << 17  # about the most lines read as one block: its arrays of every line stay in the CPU's caches
SAMPLE_BYTES = 1 << 16  # the bytes a block's line density is judged on (its line breaks counted)
SAMPLE_TEMPLATES = 128  # more templates than this in a sample: a log of prose, read in the largest blocks
MAX_SERIES = 512  # templates read as series per block; more is not a training log
MAX_KNOWN = 2048  # recurring templates remembered between blocks
MAX_PENDING = 64  # one-off lines kept in case their template recurs later (a young log)
MAX_ONCE = 2048  # digests of one-off templates not carried (the cap above): if one recurs, the file is read again
MAX_RECUR = 8  # pins of recurring templates a file (each reads the file again from its start: a bounded cost)
SAMPLES = 4
FEW_LINES = 4096  # a template of at most this many lines in a block is read without the C reader's fixed cost
FEW_CELLS = 1 << 16  # ... and of at most this many numbers (a column at a time in Python: a hostile width goes to C)
SUMMARY_REACH = 4  # lines after a summary's marker its report may start at in the next read (a header, pieces)
MAX_SUMMARY_LOOKS = 256  # steps gone back looked at per template and block for a summary's repeated step
MAX_UNJUDGED = 8  # lines with no step held to the next read by ``_unjudged``
MAX_HEAD_CHARS = 1024  # characters of the names a carried row of a table of splits keeps (``_carried_head``)
MAX_EVENTS = 10000  # progress-bar writes waiting for the records a buffered stdout prints later
_TOTAL_STEPS = re.compile(rb"[Tt]otal (?:optimization|training) steps\s{0,8}+[=:]\s{0,8}+([\d,]{1,16}+)")
_LOGGING_STEPS = re.compile(rb"\blogging_steps\s{0,8}+[=:]\s{0,8}+(\d{1,9}+)(?![\d.])")
_NUM_EPOCHS = re.compile(rb"Num Epochs\s{0,8}+[=:]\s{0,8}+([\d,]{1,12}+)")
# the run's batch size in its printed settings (``batch_size: 32``, ``Namespace(batch_size=64, ...)``; not a split's
# own, ``eval_batch_size``): what a counter of samples steps by (``bar_steps.sample_counts``)
_BATCH_SIZE = re.compile(rb"(?<![\w.])(?:" + b"|".join(re.escape(w.encode()) for w in DIALECT.batch_size_names)
                         + rb")[\"']?\s{0,8}+[=:]\s{0,8}+(\d{1,9}+)(?![\d.])")
_PLANNED_STEPS = re.compile(rb"\b(?:total_steps|max_steps|num_training_steps|train_iters)"
                            rb"\s{0,8}+[=:]\s{0,8}+(\d{1,12}+)(?![\d.])")
_LOSS_WORDS = ("ppl", "perplexity", "reward")  # opening a word of the name (`val_ppl`, `rewards`; not `apples`)
_NAME_PARTS = re.compile(r"[^a-z0-9]+")
_EVAL_PREFIX = ("val", "valid", "eval", "test", "dev")
# the batches an epoch holds, said once (FuxiCTR's ``Start training: 32 batches/epoch``, ``steps_per_epoch=32``)
_EPOCH_LENGTH = re.compile(
    rb"(?<![\w.])(\d{1,9}+) (?:batches|steps|iterations|iters)(?:/| per )epoch(?![\w])"
    rb"|(?:batches|steps|iterations|iters)[ _]per[ _]epoch\s{0,8}+[=:]\s{0,8}+(\d{1,9}+)(?![\d.])")
_EPOCH_LENGTH_MARKS = (b"/epoch", b"per epoch", b"per_epoch")  # one of them in every ``_EPOCH_LENGTH`` match


def epoch_length(text: bytes) -> re.Match[bytes] | None:
    """``_EPOCH_LENGTH.search(text)``, searched only around its marks (``_EPOCH_LENGTH_MARKS``, found at memchr-like
    speed): a match holds one, at most 21 bytes after its start and 35 before its end, so the window of each mark, in
    the text's order, holds the first match there is (the lookbehinds see the bytes before the window; a match ending
    at the window's end is a later mark's, found in its own window)."""
    at = [text.find(mark) for mark in _EPOCH_LENGTH_MARKS]
    while True:
        live = [p for p in at if p >= 0]
        if not live:
            return None
        p = min(live)
        m = _EPOCH_LENGTH.search(text, max(0, p - 32), p + 80)
        if m and (m.end() < p + 80 or p + 80 >= len(text)):  # (a match cut by the window's end: a later mark's)
            return m
        at = [text.find(mark, p + 1) if q == p else q for q, mark in zip(at, _EPOCH_LENGTH_MARKS, strict=True)]


_EPOCHS_SETTING = re.compile(rb"(?<![\w.])(?:num_|n_)?+epochs\s{0,8}+[=:]\s{0,8}+(\d{1,9}+)(?![\d.])")
# a phase of a run announced with its length (openTSNE's ``===> Running optimization ... for 250 iterations...``)
_PHASE = re.compile(rb"\bfor (\d{1,9}+) (?:iterations|iters|steps|epochs)\b")
_PHASE_LITERALS = [templates_of(w) for w in (b"for 1 iterations", b"for 1 iters", b"for 1 steps", b"for 1 epochs")]
PHASE_GAP = 8  # nonblank lines at most between a phase's last record and the next one's first (no relaunch between)
MAX_PHASES = 64  # phase banners looked at per block
_EVALISH = re.compile(r"iou|miou|map|acc|prec|recall|f1|bleu|rouge|auc|dice|wer|cer", re.I)  # names, not run text


class TextLogFormat(LineFormat):
    """Every text log (see the module docstring)."""

    name: ClassVar[str] = "text"
    detect_re = re.compile(r"\d")
    generic = True
    cr_records = True  # each \r redraw is a line: a read may stop after one (breaks.py)

    def parse(self, text: str, em: Emitter) -> None:
        self.parse_plain(text.encode("utf-8", "replace"), em)

    def parse_plain(self, data: bytes, em: Emitter) -> bool:
        start = 0
        while start < len(data):  # blocks of about BLOCK_LINES lines: each pass over a block stays in the caches
            size = _block_bytes(data, start)
            end = record_end(data, start, start + size) if start + size < len(data) else 0
            end = end or len(data)
            read_block(data[start:end], em)
            start = end
        return True

    def finish(self, em: Emitter, at_end: bool = False) -> None:
        st = _state(em)
        if at_end and (st.get("up_tail") or st.get("cr_piece") or st.get("wt_tail")):  # a display still shown
            # where the file ends, no cursor-up after it, a piece a bar may have cut in, or a wide table's chunks
            # (``wrapped_tables``): read as it stands, once (the file has settled)
            read_block(b"", em, streams=False, shown=True)
        held = release_held(st)  # another rank's records held back in case a lower rank printed them (streams.py)
        if held:
            read_block(held, em, streams=False)
        _final_evals(st, em)
        st.pop("_read_kept", None)  # (the templates this read planned first: the next read checks them)
        if st.get("in_len") and not st.get("said_inner"):
            st["said_inner"] = True
            n, seen, counted = (st["in_len"] + [False])[:3]
            em.notes.append(
                f"steps: epoch x {n:g} + batch, the epoch's length inferred from the batch counter and the count of "
                "what the run consumed (never printed; its last value + the batches consumed since)" if counted else
                f"steps: epoch x {n:g} + batch, the epoch's length inferred from the batch counter (never printed; its "
                "last value + its interval)" if seen else
                "steps: the epochs (a batch counter printed once an epoch: the epoch's length unknown)")
        if st.get("ph_said") and not st.get("said_phase"):
            st["said_phase"] = True
            em.notes.append(f"steps: the step counter restarted after a banner announcing the run's next phase, the "
                            f"phase before having run its announced length ({st['ph_said']:g}): read as the run going "
                            "on (each phase's steps after the phases before), not a new run")
        if st.get("rd_said") and not st.get("said_round"):
            st["said_round"] = True
            em.notes.append("steps: the step counter restarted under each new round (a unit larger than the step the "
                            "records print: `Round 3 started.`, `current_round=3`, a registration's `Resolution: 1`): "
                            "read as the run going on, each round's steps after the rounds before, not a new run")
        if st.get("eph_aside") and not st.get("said_eph"):
            st["said_eph"] = True
            em.notes.append("steps: a record's epoch count restarted within the run (its phases: a fit on another "
                            "split, an adjustment): read as the run's phases, its longest one its curve; the other "
                            "phases' records set aside, no later steps of it")  # (no counts: a read's own)
        if (late := objective_estimates.late_note(st)) is not None:
            em.notes.append(late)
        if st.get("by_order") and not st.get("said_order"):
            st["said_order"] = True
            em.notes.append("the log gives no step numbers: points are numbered by line order")


def _block_bytes(data: bytes, start: int) -> int:
    """How many bytes from ``start`` to read as one block: about ``BLOCK_LINES`` lines, judged on the line breaks
    (newlines, carriage returns, backspaces) of the next ``SAMPLE_BYTES`` (64 KB to ``BLOCK_BYTES``), the rest of
    ``data`` cut in equal parts. A block of millions of one-byte lines costs many times what its bytes in lines of a
    few dozen bytes cost (its arrays spill the caches). A log whose sample holds more than ``SAMPLE_TEMPLATES``
    templates (prose between the records) is read in the largest blocks: each block pays for its templates, whatever
    its size."""
    from .kernel import factorize_templates

    left = len(data) - start
    sample = data[start:start + SAMPLE_BYTES]
    sample = sample[:record_end(sample)] or sample
    if len(factorize_templates(sample)[1]) > SAMPLE_TEMPLATES:
        return BLOCK_BYTES
    breaks = sample.count(b"\n") + sample.count(b"\r") + sample.count(b"\x08") + 1
    size = min(BLOCK_BYTES, max(SAMPLE_BYTES, BLOCK_LINES * len(sample) // breaks))
    parts = -(-left // size)
    return -(-left // parts)


def _state(em: Emitter) -> dict:
    st = em.state.get("eng")
    if st is None:
        st = em.state["eng"] = {"known": [], "pending": [], "epoch": None, "e0": None, "main_total": None,
                                "prog": None, "prog_before": None, "last_n": None, "off": 0, "step": None, "order": 0}
        st.update(em.state.get("pin") or {})  # facts a later part of the file taught a read before this one
        if st.get("total"):
            em.total_steps = int(st["total"])
    say_evaluations(st, em)
    return st


def _revise(st: dict, em: Emitter) -> None:
    """A fact learned late that changes how earlier lines read (the run's length from HF's final summary, a
    terminal's wrap refuted): the reader reads the file again from its start with the fact known (``pin``), so the
    same bytes give the same points whatever the reads' sizes. Each fact is pinned once: no loop."""
    facts = st.pop("revise", None)
    if not facts:
        return
    pins = em.state.setdefault("pin", {})
    if all(pins.get(k) == v for k, v in facts.items()):
        return
    pins.update(facts)
    em.state["reread"] = True


def read_block(data: bytes, em: Emitter, streams: bool = True, shown: bool = False) -> None:
    """Read one block of complete lines into ``em`` (see the module docstring); ``shown``: a display at the block's
    end is read as it is shown, not held for a redraw (the end of a settled file)."""
    st = _state(em)
    whole = data
    if streams:
        data = select_stream(data, st, em)  # several processes' lines: each record from one rank (streams.py)
    # a record cut at the end of the last block (a display: ``lines.hold_display``): read with its rest
    for held in ("up_tail", "wrap_tail", "blk_tail", "kvb_tail", "tr_tail", "wt_tail"):
        tail = st.pop(held, None)
        if tail:
            data = tail.encode("latin-1") + data
    data = _rejoin_pieces(data, st, shown)
    if not data:
        return
    if b"\x1b[" in data:  # a display redrawn in place: erased; the last one, that the next read may erase, waits
        data, up = erase_cleared(data)
        if up:
            st["up_n"] = max(int(st.get("up_n", 0)), up)
        data, display = (data, b"") if shown else hold_display(data, int(st.get("up_n") or FIRST_DISPLAY))
        if display:
            st["up_tail"] = display.decode("latin-1")
            if not data:
                return
    data, rows = hold_rows(data)  # a vertical table's block that may go on in the next read
    if rows:
        st["blk_tail"] = rows.decode("latin-1")
        if not data:
            return
    data, rows = hold_open(data, bool(st.get("kvb_step")))  # a "name: value" block or a dict that may go on
    if rows:
        st["kvb_tail"] = rows.decode("latin-1")
        if not data:
            return
    data, rows = hold_tree(data)  # a tree-drawn block that may go on in the next read (tree_blocks.py)
    if rows:
        st["tr_tail"] = rows.decode("latin-1")
        if not data:
            return
    data, rows = unwrap(data, st, shown)  # a wide table printed in chunks: one record (wrapped_tables.py)
    if rows:
        st["wt_tail"] = rows.decode("latin-1")
        if not data:
            return
    # the read stops in a bar's redraws (a \r after a line the \n before it did not end): the last one shown is
    # drawn again
    st["cr_end"] = data.endswith(b"\r") and bool(data[data.rfind(b"\n") + 1:].strip(b"\r\x1b[K \t"))
    with np.errstate(all="ignore"):  # inf x 0 and the like from hostile numbers: NaN steps, dropped
        _read_block(data, em)
    if st.pop("_tags_replay", None) and streams:  # one process's tagged lines learnt in this block: read alike,
        select_stream(whole, st, Emitter())  # they are noted as the next blocks' will be (its process, its kinds)
    _hold_cut_record(data, st)
    _revise(st, em)
    body = data[-PENDING_LINE:].rstrip()  # (the block's end only: no copy of the block)
    st["marker_end"] = _marker_at_end(body, data, st)  # the next read's first record may be a report


def _rejoin_pieces(data: bytes, st: dict, shown: bool) -> bytes:
    """``data`` with each program line a bar's redraw cut into whole (``interrupted.rejoined``): a piece the read
    before ended in first, and a piece this read ends in held for the next one (unless the file has settled)."""
    piece = st.pop("cr_piece", None)
    at_line_start = not st.get("mid_line") or piece is not None
    if piece:
        data = piece.encode("latin-1") + data
    if not data:
        return data
    st["mid_line"] = data.endswith(b"\r")
    if not shown and (st["mid_line"] or data.endswith(b"]\n")):
        data, held = hold_piece(data, at_line_start)
        if held:
            st["cr_piece"] = held.decode("latin-1")
            st["mid_line"] = False  # (the next read starts with the piece: at a line's start)
    return rejoined(data, at_line_start)


def _hold_cut_record(data: bytes, st: dict) -> None:
    """A terminal-wrapped record cut at the block's end (its last line exactly as wide as the terminal) waits for
    the rest of it: that line is read again, first, with the next block, where its continuation is."""
    width = int(st.get("wrap", 0))
    end = data.rstrip(b"\n")
    last = end[end.rfind(b"\n") + 1:]
    if not width or not width - 2 <= len(last) <= width or last.rstrip().endswith((b"}", b"]")):
        return
    text = last.decode("latin-1")
    pending = st.get("pending", [])
    if pending and isinstance(pending[-1], list) and pending[-1][0] == text:
        pending.pop()  # not a line seen once: the head of a record
        st["wrap_tail"] = text + "\n"
        codes = st.get("eb_carried")  # read first next time: under what it was under (``banners.carry_eval_banners``)
        st["banner_end"] = codes.pop() if codes and len(codes) == len(pending) + 1 else 0


def _read_block(data: bytes, em: Emitter) -> None:
    st = _state(em)
    if st.get("plus_minus"):  # values printed with their error ``v +/- e`` (``_cached_plan``): the values
        data = without_errors(data)
    split = split_lines(data)
    if split.cut:
        st["cut"] = st.get("cut", 0) + split.cut
        em.notes.append(f"cut {st['cut']} line(s) longer than 16 KB")
    if split.controls:  # a crash's block of NULs: the lines it is in are skipped, the rest read
        st["nul"] = st.get("nul", 0) + split.controls
        em.notes.append(f"skipped {st['nul']} NUL byte(s) (the lines holding them)")
    # One-off lines of earlier blocks come first again, each with the steps it was printed at: if its template
    # recurs now, it is read as one read of the whole file would have read it.
    carried = [p for p in st["pending"] if isinstance(p, list)]
    pending = [p[0].encode("latin-1") for p in carried]
    ctx = [(p[1], p[2]) for p in carried]
    ctx_ep = [p[3] if len(p) > 3 and not isinstance(p[3], list) else None for p in carried]  # its epoch printed under
    # a table's row carried on keeps the names its header gave it there, and what the header said of its rows
    # (``_carried_head``; a state of before holds a table of splits' names alone)
    heads = {k: (p[4], str(p[5]) if len(p) > 5 else "s") for k, p in enumerate(carried)
             if len(p) > 4 and isinstance(p[4], list)}
    lengths = line_lengths(split.lines, split.text)
    lines = join_wrapped(split.lines, st, lengths)
    if lines is not split.lines and split.masked:  # a word the wrap cut is whole once joined: masked after the join
        split = split_lines(data, mask=False)
        lengths = line_lengths(split.lines, split.text)
        lines = join_wrapped(split.lines, st, lengths)
    joined = split.text
    # the words are masked already (the kernel, on the block's text), unless a terminal's wrap joined lines again
    # (a word cut by the wrap) or the text was not whole (a line cut at LINE_CAP); carried lines were masked before
    premasked = split.masked and lines is split.lines
    if lines is not split.lines:  # records a terminal had wrapped, joined again
        joined, lengths = None, line_lengths(lines)
    if pending:
        lengths = np.concatenate((line_lengths(pending), lengths))
        if isinstance(lines, TextLines):
            joined = b"\n".join(pending) + b"\n" + lines.text
            lines = TextLines(joined)
        else:
            lines = pending + list(lines)
            joined = None if joined is None else b"\n".join(pending) + b"\n" + joined
    new_pending: list[int] = []
    placed: set[int] = set()  # of new_pending, the lines with a step and a value (a series' first record)
    late: list[int] = []  # such lines beyond the carried MAX_PENDING
    faced: list[int] = []  # of plans, the one-off records on their face with no step of their own
    if not lines:
        return
    if not premasked and isinstance(lines, TextLines):
        lines = list(lines)  # masked in place by group_lines
    grouping = group_lines(lines, joined, premasked=premasked)
    _process_tags(lines, grouping, st, em)
    if any(GROUPED in t for t in grouping.templates):  # River's "[1,000] MAE:": one number, as "[900] MAE:" is
        lines = list(lines)
        if ungroup_numbers(lines, grouping):
            grouping = group_lines(lines, None, premasked=True)
    stopped = without_full_stops(lines, grouping.joined)  # a sentence's full stop after a number (``2.5e-01.``)
    if stopped is not None:
        lines, stopped_text = stopped
        grouping = group_lines(lines, stopped_text, premasked=True)
    apart = split_run_together_numbers(lines, grouping)  # a row's wide values that ran together: a number each
    if apart is not None:
        lines = apart
        grouping = group_lines(lines, None, premasked=True)
    unmarked = unmark_best(lines, grouping, DIALECT.best_marks.encode())  # a table's marks of a new best: blanks
    if unmarked is not None:
        lines = unmarked
        grouping = group_lines(lines, None, premasked=True)
    _run_settings(lines, grouping, len(pending), st, em)
    _phase_banners(lines, grouping, st)
    _round_marks(lines, grouping, len(pending), st)
    blocks = Blocks(lines, grouping, known=bool(st.get("blk")), own=len(pending))  # vertical tables (blocks.py)
    taken = blocks.taken()
    values = BlockValues(lines, grouping.joined)
    if taken:
        st["blk"] = True
        blocks.read(st, em, lambda ls, idx, cols: _read(ls, idx, cols, values))
    elif st.get("blk"):
        blocks.carry_title(st)  # a box's title the read ends under, its rows next
    keyed = KeyBlocks(lines, grouping, st)  # borderless blocks of "name: value" lines: a record per block
    if keyed.taken():
        taken = taken | keyed.taken()
        keyed.read(em)
    trees = TreeBlocks(lines, grouping, joined)  # tree-drawn blocks: a record each, emitted after the lines'
    taken = taken | trees.taken()
    flipped = Transposed(lines, grouping, st, len(pending))  # tables of a Name row over a Value row: a record each
    taken = taken | flipped.taken()
    flipped.read(em)
    stats = StatRows(lines, grouping, st, len(pending))  # a series' running statistics (min, max, cur) under headings
    if stats.taken():
        taken = taken | stats.taken()
        stats.read(em, lambda ls, idx, cols: _read(ls, idx, cols, values))
    history = HistoryRows(lines, grouping, st, len(pending))  # a closing summary: a metric's history under a heading
    if history.taken():
        taken = taken | history.taken()
        history.read(em, lambda ls, idx, cols: _read(ls, idx, cols, values))
    solver = IncumbentTable(lines, grouping, st, len(pending))  # a solver's incumbent at its table's marked rows
    if solver.taken():
        taken = taken | solver.taken()
        solver.read(em)
    tables = Tables(lines, grouping, len(pending), st)  # horizontal tables: a row's cells named by its header
    known = set(st["known"])
    # the lines of each template in line order (a radix sort: the codes are small integers)
    order = np.argsort(grouping.codes.astype(np.int16 if len(grouping.templates) < 32768 else np.int64),
                       kind="stable")
    bounds = np.concatenate(([0], np.cumsum(grouping.counts)))
    # A series is decided on the template without blanks (a counter's padding changes its exact template: one
    # series, read per exact template).
    loose = [t.translate(None, b" \t\x01") for t in grouping.templates]
    loose_count: dict[bytes, int] = {}
    for t, c in zip(loose, grouping.counts.tolist(), strict=True):
        loose_count[t] = loose_count.get(t, 0) + c
    plans: list[tuple[Plan, np.ndarray]] = []
    bare: list[int] = []  # of plans, rows of bare numbers under no header
    series_at: list[tuple[int, frozenset[str]]] = []  # the first line and the names of each recurring record
    stepped_series: list[tuple[Plan, np.ndarray]] = []  # the recurring records with a step, and their lines
    once, recur = set(st.get("once", ())), set(st.get("recur", ()))
    climbed = dict(st.get("steplike_last") or {})  # where the keys named as a step's statistic were, reads before
    lost: list[str] = []  # of this block's one-off templates with metrics, the ones not carried to the next read
    again: set[str] = set()  # templates seen once in an earlier read, not carried, seen again here
    for g in _series_order(grouping.counts)[:MAX_SERIES]:
        if taken and int(g) in taken:
            continue
        idx = order[bounds[g]:bounds[g + 1]]
        tmpl = loose[g]
        first = lines[int(idx[0])]
        if not first.strip() or not any(48 <= c <= 57 for c in first[:PENDING_LINE]) and NAN_MARK not in first:
            continue
        key = tmpl.decode("latin-1")
        digest = _digest(tmpl) if key not in known and (once or recur or loose_count[tmpl] < 2) else ""
        if digest and digest in once and digest not in recur and int(idx[-1]) >= len(pending):
            again.add(digest)
        one_off = loose_count[tmpl] < 2 and key not in known and not (digest and digest in recur)
        kind_stepped = False
        if one_off:
            # A line seen once is no series (a banner, a config dump, the final summary) unless it is a record
            # on its face: a printed dict, or a step with a loss (an excerpt, the first line of a young log).
            if len(first) > PENDING_LINE:
                continue
            header = tables.header_for(int(idx[0]), [first]) if int(idx[0]) >= len(pending) else _carried_head(
                heads.get(int(idx[0])))
            if header is SKIP:
                continue  # a model summary's row
            if header is None and int(idx[0]) >= len(pending):
                header = headed(lines, int(idx[0]), len(pending), st)  # a row under a heading (``headed_rows``)
            plan = plan_template([first], header=header)
            if objective_estimates.ends_run(plan, DIALECT):  # ``Final f-est: 29.77``: the run's end
                st["_end_at"] = min(int(idx[0]), st.get("_end_at", int(idx[0])))
            if plan is not None and plan.pair is not None:
                plan = _paired_plan(plan, _digest(tmpl), st)
            if plan is not None and getattr(header, "splits", False):
                plan = replace(plan, split_table=True)
                once_split = st.setdefault("_split_once", [])
                if len(once_split) < MAX_PENDING * 4:
                    once_split.append(int(idx[0]))
            if isinstance(header, RowNames) and int(idx[0]) >= len(pending) and len(heads) < MAX_PENDING * 4 and (
                    sum(len(h) + 1 for h in header) <= MAX_HEAD_CHARS):
                heads[int(idx[0])] = _head_kept(header)  # (kept with the line if it is carried on)
            seen = set(st.get("names", ())) if int(idx[0]) >= len(pending) else set()
            if plan is not None and header is not None and has_position(plan) and plan.metrics:
                plan.is_record = True  # a table's row under its header: a record on its face (a young log)
            shows = _shown(plan)
            if shows and _is_display(first):
                if _closed_by(lines, int(idx[0]), shows, len(pending), st):
                    continue  # a bar's final state whose closing line follows: that line is the record
            elif shows and plan is not None and _closes(lines, int(idx[0]), shows, len(pending), st):
                plan.is_record = True  # the line closing a bar's final state: the record (``_closed_displays``)
            if plan is not None and plan.metrics and not plan.is_record and not set(plan.metrics.values()) & set(
                    st.get("names", ())) and (_before_its_series(  # (no first value of what earlier reads read)
                    int(idx[0]), set(plan.metrics.values()), series_at) or _initial_value(
                    int(idx[0]), plan, stepped_series, lines, values)):
                plan.is_record = plan.initial = True  # the first of a series printed otherwise (an initial test)
            # a line opened by a tag (``Plan.tag``) that counts its unit of work, or a record of a tag once tags'
            # counters were read: read even once, its records placed at its tag's counter (``_tagged_steps``)
            tagged = plan is not None and bool(plan.tag) and bool(plan.metrics) and (
                has_position(plan) or bool(st.get("tags")))
            tagged = tagged or plan is not None and bool(plan.parts)  # (a banner of an epoch's parts: the part
            # its lines are in, known in the read they are read in)
            kind_stepped = plan is not None and _opener_of_stepped_kind(plan, st)  # (read now, as in one read)
            if plan is None or not (plan.is_record or tagged or kind_stepped or has_position(plan) and (
                    _has_loss(plan) or _has_objective(plan) or seen & set(plan.metrics.values()))):
                stepped = plan is not None and has_position(plan) and bool(plan.metrics)
                if len(new_pending) < MAX_PENDING:  # (the block's last one-offs: ``_series_order``)
                    new_pending.append(int(idx[0]))
                    if stepped:
                        placed.add(int(idx[0]))
                elif stepped and len(late) < MAX_PENDING:
                    late.append(int(idx[0]))  # beyond the cap, but a step's record: carried before a banner's lines
                if plan is not None and plan.metrics:
                    lost.append(digest)  # (taken out below for the lines carried after all)
                continue
            if not has_position(plan) and not kind_stepped:
                faced.append(len(plans))  # a record on its face placed by the records before it
                if plan.metrics:  # (placed otherwise when its template recurs: a series' record)
                    lost.append(digest)
        else:
            picks = sorted({int(idx[0]), int(idx[len(idx) // 2]), int(idx[-1]), int(idx[min(1, len(idx) - 1)])})
            samples = [lines[i] for i in picks][:SAMPLES]
            own = idx[idx >= len(pending)]  # a line carried from the block before has its header there, not here
            header = tables.header_for(int(own[0]), [lines[int(own[0])], *samples]) if len(own) and int(
                idx[0]) < len(pending) else (_carried_head(heads.get(int(idx[0]))) if int(idx[0]) in heads else (
                    tables.header_for(int(idx[0]), samples)))
            if header is SKIP:
                continue  # a model summary's rows (a table with no step, printed once)
            if header is None:
                header = _header_before(lines, int(idx[0]), st, len(pending))
            plan = _cached_plan(grouping.templates[g], samples, header, st)
            if plan is not None and plan.pair is not None:
                plan = _paired_plan(plan, _digest(tmpl), st)
            if header is None and plan is not None and not plan.metrics and plan.step is not None and (
                    plan.epoch is None and plan.counter is None and cells(first) is not None):
                bare.append(len(plans))  # a row of bare numbers no header names (``_bare_rows``)
            if plan is not None and getattr(header, "partial_first", False) and not plan.partial_first:
                plan = replace(plan, partial_first=True)
            if plan is not None and getattr(header, "evaluations", False):
                mark_evaluations(st, em, plan.metrics.values())
            if plan is not None and getattr(header, "splits", False) and not plan.split_table:
                plan = replace(plan, split_table=True)
            if plan is not None and header is None and not plan.epoch_report and epoch_reports.is_epoch_report(
                    samples[0], plan):
                plan = replace(plan, epoch_report=True)
            if plan is None or not has_position(plan) and plan.epoch is None and not plan.is_record and (
                    plan.position is None) and (not _has_role(plan) or len(plan.metrics) == 1 and not (
                    _has_loss(plan) or _has_objective(plan))) and not _threshold_opener(plan):
                continue  # no position, and no metric's name or one setting: a warning or a config dump, repeated
        steps_now = plan.step_like is not None and not (one_off and plan.step_like_rises and not kind_stepped)
        if steps_now and _threshold_opener(plan) and not has_position(plan) and plan.epoch is None and not (
                plan.is_record) and plan.position is None and not _has_role(plan):
            # read for its threshold only while the number opening it is its step: decided before the record counts
            # as a series (a model's printed layers, ``LayerNorm((64,), eps=1e-05, ...)``, are none)
            plan, idx = _step_like(plan, lines, idx, values, st, climbed, _digest(tmpl))
            if not len(idx) or plan.step is None:
                continue
        if loose_count[tmpl] >= 2 and len(known) < MAX_KNOWN:
            known.add(key)
        if not one_off and plan.metrics and len(series_at) < MAX_SERIES:
            series_at.append((int(idx[0]), frozenset(plan.metrics.values())))
            if plan.step is not None and not plan.is_eval:
                stepped_series.append((plan, idx))
        elif one_off and plan.metrics and plan.step is not None and not plan.is_eval and (
                len(stepped_series) < MAX_SERIES):
            stepped_series.append((plan, idx))  # a series' first record on its face (a read ending after it)
        if plan.step_like is not None and not (one_off and plan.step_like_rises and not kind_stepped):
            # (a number opening a line seen once, a setting's ``depth 0`` in a printed dict, is no step)
            plan, idx = _step_like(plan, lines, idx, values, st, climbed, _digest(tmpl))
            if not len(idx):
                continue
        plans.append((replace(plan, template=_digest(grouping.templates[g])), idx))
    st["known"] = sorted(known)[:MAX_KNOWN]
    if bare or st.get("bare_read"):
        plans = _bare_rows(lines, plans, bare, grouping.codes, loose, st)
    if faced and (placed or late):  # after a carried step's record: carried with it, read when it is read
        lead = min([*placed, *late])
        held = {k for k in faced if int(plans[k][1][0]) > lead}
        for k in sorted(held):
            new_pending.append(int(plans[k][1][0]))
            placed.add(int(plans[k][1][0]))
        plans = [pl for k, pl in enumerate(plans) if k not in held]
    _defer_phases(st, len(pending), new_pending, placed, late)
    _defer_phases(st, len(pending), new_pending, placed, late, key="rd")
    tables.keep_last()
    at: tuple[np.ndarray, _Filled] | None = None
    blank = [i for i, t in enumerate(grouping.templates) if not t.strip()]
    nonblank = ~np.isin(grouping.codes, blank)
    # (records under a banner naming their split: ``banners._eval_banner_marks``)
    st["_tb"] = banners.split_banners(lines, grouping)
    plans = objective_estimates.after_the_end(plans, st)  # (another stream's block printed after the run's end)
    plans, open_at = _closed_displays(lines, plans, nonblank, st, len(pending), new_pending)
    if plans:
        at = _emit(lines, plans, st, em, nonblank, ctx, lengths, values, ctx_ep)
    else:
        bar_steps.tail_of_unread(lengths, nonblank, len(pending), st)
    trees.read(em)  # (after the lines' records: at one step the block's value is the run's, a bar's a display)
    if "_ph_at" in st:  # phase banners in a read with no record: the next record's phase announced
        _phases([], nonblank, len(pending), st)
    if "_rd_at" in st:  # a larger unit named in a read with no stepped record: the next record's unit
        _continue_rounds([], st)
    _display_open(open_at, at, ctx, st)
    for i in st.pop("pa_held", None) or ():  # a record whose position the next line names, in the next read
        new_pending.append(int(i))
        placed.add(int(i))
    new_pending = _carried(new_pending, placed, late)
    ep_lines = st.pop("_ep_lines", None)
    st["pending"] = [[lines[i].decode("latin-1"), *_context(i, at, ctx, st), _epoch_at(i, ep_lines, ctx_ep, st),
                      *(list(heads[i]) if i in heads else [])]
                     for i in sorted(new_pending)]
    _aside_carried(st, [p[0] for p in carried], sorted(new_pending), lines)
    _remember_once(st, lost, again, {_digest(loose[grouping.codes[i]]) for i in new_pending})
    banners.carry_eval_banners(st, sorted(new_pending), len(lines), nonblank, len(pending))
    st.pop("_split_once", None)  # (this block's lines: no later block's)
    under = st.pop("_ub_lines", None)
    st["ub_carried"] = None if under is None else [None if np.isnan(under[i]) else float(under[i])
                                                   for i in sorted(new_pending)]
    if len(st.get("events", ())) > MAX_EVENTS:
        st["events"] = st["events"][-MAX_EVENTS:]


_DISPLAY_GLYPHS = tuple(g.encode() for g in "█▉▊▋▌▍▎▏━╸╺■")
_PERCENT_DONE = re.compile(rb"\d%")
MAX_BLANKS = 8  # blank lines looked past between a bar's final state and the line that closes it


def _is_display(line: bytes) -> bool:
    """A progress bar's state: its percent done drawn with bar glyphs (rich's ``Fitting: ━━━━ 100% 0:00:00 Average
    Loss = 1,179.8``) or tqdm's (``37%||``)."""
    line = line[:PENDING_LINE]
    return b"%||" in line or bool(_PERCENT_DONE.search(line)) and any(g in line for g in _DISPLAY_GLYPHS)


def _shown(plan: Plan | None) -> frozenset[str] | None:
    """The quantity a record with no position of its own names (a bar's final state, or a line that may close one)."""
    if (plan is None or not plan.metrics or has_position(plan) or plan.epoch is not None or plan.is_eval
            or plan.is_summary):
        return None
    return frozenset(plan.metrics.values())


def _nonblank_near(lines: Sequence[bytes], i: int, step: int) -> int:
    """The first nonblank line from ``i`` on in direction ``step`` (at most ``MAX_BLANKS`` blanks looked past),
    else -1."""
    for _ in range(MAX_BLANKS + 1):
        if not 0 <= i < len(lines):
            return -1
        if lines[i].strip():
            return i
        i += step
    return -1


def _closed_by(lines: Sequence[bytes], i: int, shows: frozenset[str], first: int, st: dict) -> bool:
    """Whether the bar's final state at line ``i`` is closed by the next nonblank line: a line that is no bar naming
    at least what the bar shows (``Finished [100%]: Average Loss = 1,176.5`` after ``Fitting: ━━━━ 100% ...
    Average Loss = 1,179.8``). A bar carried from an earlier read (``i < first``) is closed across the reads only
    when it ended its read (``disp_open``)."""
    j = _nonblank_near(lines, i + 1, 1)
    if j < 0 or i < first <= j and not st.get("disp_open") or _is_display(lines[j]):
        return False
    names = _shown(plan_template([lines[j][:PENDING_LINE]]))
    return bool(names and shows <= names)


def _closes(lines: Sequence[bytes], i: int, names: frozenset[str], first: int, st: dict) -> bool:
    """Whether the line ``i`` (no bar, naming ``names``) closes the bar's final state right before it: that line's,
    or, first in its read, the one that ended the last read (``disp_open``)."""
    j = _nonblank_near(lines, i - 1, -1)
    if j >= first and _is_display(lines[j]):
        shows = _shown(plan_template([lines[j][:PENDING_LINE]]))
        return bool(shows and shows <= names)
    if j < first and _nonblank_near(lines, first, 1) == i and st.get("disp_open"):
        return set(st["disp_open"]["names"]) <= names
    return False


def _closed_displays(lines: Sequence[bytes], plans: list[tuple[Plan, np.ndarray]], nonblank: np.ndarray, st: dict,
                     first: int, pending: list[int]) -> tuple[list[tuple[Plan, np.ndarray]], int]:
    """A bar's final state then a line of the same quantity that closes it (PyMC: its rich bar's ``Fitting: ━━━━
    100% 0:00:00 Average Loss = 1,179.8``, then its logger's ``Finished [100%]: Average Loss = 1,176.5``) is one
    record, the closing line's value: the bar's line is no point. A closing line first in its read after a bar that
    ended the last read (``disp_open``) takes that bar's number (``_display_open``); the plans, and the block's last
    nonblank line when it is a bar's state that may yet be closed (else -1)."""
    nb = np.flatnonzero(nonblank)
    open_in = st.pop("disp_open", None)
    shows = [_shown(p) for p, _idx in plans]
    display = [bool(q) and _is_display(lines[int(idx[-1])]) for q, (_p, idx) in zip(shows, plans, strict=True)]
    closing = [k for k, q in enumerate(shows) if q and not display[k]]
    last = int(nb[-1]) if len(nb) else -1
    out = plans
    if any(display) and closing:
        owner = np.full(len(lines), -1)
        for k in closing:
            owner[plans[k][1]] = k
        out = list(plans)
        for k, (p, idx) in enumerate(plans):
            q = shows[k]
            if not display[k] or q is None:
                continue
            good = np.zeros(len(plans) + 1, dtype=bool)  # (the last: no closing line)
            for c in closing:
                good[c] = q <= shows[c]  # type: ignore[operator]
            at = np.searchsorted(nb, idx, side="right")
            nxt = np.where(at < len(nb), nb[np.minimum(at, len(nb) - 1)] if len(nb) else -1, -1)
            closed = (nxt >= 0) & good[np.where(nxt >= 0, owner[np.maximum(nxt, 0)], -1)]
            if not open_in:
                closed &= ~((idx < first) & (nxt >= first))
            if closed.any():
                out[k] = (p, idx[~closed])
        out = [pl for pl in out if len(pl[1])]
    if open_in and open_in.get("order") is not None and st.get("order") == open_in["order"]:
        head = int(nb[np.searchsorted(nb, first)]) if first <= last else -1
        for p, idx in out:
            q = _shown(p)
            if head >= 0 and q and set(open_in["names"]) <= q and head in idx and not _is_display(lines[head]):
                st["order"] -= 1  # closing the bar that ended the last read: its number (``_display_open``)
                break
    if last < 0 or not _is_display(lines[last]):
        return out, -1
    for k, (_p, idx) in enumerate(out):
        if last in idx and _shown(out[k][0]):
            st["_disp_names"] = sorted(_shown(out[k][0]) or ())
            return out, last
    if last in pending:  # a bar's final state read once: carried to the next read, closed there maybe
        names = _shown(plan_template([lines[last][:PENDING_LINE]]))
        if names:
            st["disp_open"] = {"names": sorted(names), "order": None}
    return out, -1


def _display_open(at_line: int, at: tuple[np.ndarray, _Filled] | None, ctx: list, st: dict) -> None:
    """A bar's final state ended the read (``_closed_displays``): its names, and its line-order number when it was
    the last one given, so that the line closing it in the next read takes its number (its point then replaced)."""
    names = st.pop("_disp_names", None)
    if at_line < 0 or names is None:
        return
    step = _context(at_line, at, ctx, st)[1]
    order = st.get("order")
    st["disp_open"] = {"names": names, "order": order if step is not None and step == order else None}


_TAG_HINTS = re.compile(b"|".join(re.escape(templates_of(w.encode()).lower()) for w in DIALECT.process_tag_names))


def _process_tags(lines: Sequence[bytes], grouping: Grouping, st: dict, em: Emitter) -> None:
    """A line whose message opens with a process's tag (``streams.message_tag``: NVFlare's ``... - INFO -
    site=site-1, Epoch: ...``): several processes may print into the log through one logger. Learnt once (pinned,
    ``msg_tags``), every line's message is looked at from then on (``streams.select_stream``); where the lines so far
    name several processes, the file is read again from its start knowing it, as a read of any size would (the lines
    of one process read alike either way: its block's process is only noted, ``_tags_replay``). A template's letters
    are its lines': only the templates holding a tag's name are looked at (one pass over the block's templates), by
    their first line, then their lines' tags where the first line has its."""
    if st.get("msg_tags") or not grouping.templates:
        return
    low = b"\n".join(grouping.templates).lower()
    if _TAG_HINTS.search(low) is None:
        return
    ends = np.cumsum([len(t) + 1 for t in grouping.templates])
    hit = sorted({int(np.searchsorted(ends, m.start(), side="right")) for m in _TAG_HINTS.finditer(low)})
    kinds, first = np.unique(grouping.codes, return_index=True)
    at = dict(zip(kinds.tolist(), first.tolist(), strict=True))
    seen: set[int] = set()
    text = lines.text if isinstance(lines, TextLines) else None
    for k in hit:
        line = lines[at[k]] if k in at else b""
        if message_tag(line) is None:
            continue
        m = MESSAGE_TAG.search(line, 0, MESSAGE_WINDOW)
        if m is None:
            continue
        idx = np.flatnonzero(grouping.codes == k)
        rest = idx.tolist()
        if text is not None and isinstance(lines, TextLines):  # a byte column at a time where the first line has it
            digits = m.start(1) if m.group(1) is not None else m.start(2)
            value, ok = tags_alike(np.frombuffer(text, dtype=np.uint8), lines.starts[idx], lines.ends[idx],
                                   m.start(), line[m.start():digits])
            seen.update(np.unique(value[ok]).tolist())
            rest = idx[~ok].tolist()
        for i in rest:
            tag = message_tag(lines[i])
            if tag is not None:
                seen.add(tag[0])
        if len(seen) > 1:
            break
    if not seen:
        return
    if len(seen) > 1:  # several processes' lines read as they came: again, knowing it
        st.setdefault("revise", {})["msg_tags"] = True
        return
    st["msg_tags"] = st["_tags_replay"] = True
    em.state.setdefault("pin", {})["msg_tags"] = True  # (a later read from the start knows it too)


def _digest(template: bytes) -> str:
    """A short, stable digest of a loose template (the state keeps these, not the lines)."""
    return hashlib.blake2b(template, digest_size=6).hexdigest()


def _aside_carried(st: dict, before: list[str], kept: list[int], lines: Sequence[bytes]) -> None:
    """One-off lines carried on from a run this read or an earlier one set aside (a run started after them): should
    a later read place one (its template recurs there), it lands in the run shown, where one read of the whole file
    counts it with its own run, set aside. So the file is read again from its start (``_revise``, pinned once: bounded),
    as one read of it reads them. ``before``: the lines carried into this read; ``kept``: those carried on."""
    cut = st.pop("_cut_first", None)
    old = set(st.pop("aside_pending", None) or ())
    if old:
        now = {lines[i].decode("latin-1") for i in kept}
        if any(t not in now for t in before if t in old):  # an old run's line read now (placed): read again
            st.setdefault("revise", {})["aside_carried"] = True
        old &= now
    if cut is not None:
        old |= {lines[i].decode("latin-1") for i in kept if i < cut}
    if old:
        st["aside_pending"] = sorted(old)


def _remember_once(st: dict, lost: list[str], again: set[str], carried: set[str]) -> None:
    """Templates seen once and not carried to the next read (beyond ``MAX_PENDING``, or read as a record on its face)
    are remembered by digest (at most ``MAX_ONCE``, the newest). When one is seen again in a later read, one read of
    the whole file would have read both lines as a series: the template is pinned as recurring and the file is read
    again from its start knowing it (``_revise``), at most ``MAX_RECUR`` times a file. So which one-off lines are a
    series does not depend on where the reads' pieces fall."""
    recur = list(st.get("recur", ()))
    if again and len(recur) < MAX_RECUR:
        st.setdefault("revise", {})["recur"] = sorted(set(recur) | set(sorted(again)[:MAX_RECUR - len(recur)]))
    new = [d for d in dict.fromkeys(lost) if d and d not in carried]
    if new or again:
        once = [d for d in st.get("once", ()) if d not in again and d not in carried]
        st["once"] = [*once, *[d for d in new if d not in once]][-MAX_ONCE:]


def _head_kept(names: RowNames) -> tuple[list[str], str]:
    """What a row's header said of it, kept with the row carried on to the next read: its cells' names, and the
    flags of ``RowNames`` (``s``: a table of splits, ``p``: partial first, ``n``: its step named, ``e``: its step a
    search's evaluations)."""
    return list(names), ("s" * names.splits + "p" * names.partial_first + "n" * names.named_step
                         + "e" * names.evaluations)


def _carried_head(kept: tuple[list, str] | None) -> RowNames | None:
    """The names a table's header gave a row carried on from an earlier read (its header is there, not here)."""
    if kept is None:
        return None
    names, flags = kept
    out = RowNames(str(n) for n in names)
    out.splits, out.partial_first, out.named_step = "s" in flags, "p" in flags, "n" in flags
    out.evaluations = "e" in flags
    return out


def _carried(pending: list[int], placed: set[int], late: list[int]) -> list[int]:
    """The one-off lines carried to the next read, at most ``MAX_PENDING``: every one with a step and a value first
    (``placed`` of ``pending``, then ``late``: those the cap left out), then the others nearest the block's end
    (``pending`` is in that order). A series' first record is carried wherever a long banner of one-off lines puts
    it (before it: DeepSpeed's ``step=0`` line; after it: the first epoch's), as one read of both reads would read
    it. A one-off record on its face with no step of its own after such a line (a printed dict of settings) is
    ``placed`` too: held back with it, it is placed once that line's template is known to recur or not."""
    if not late and len(pending) <= MAX_PENDING:
        return pending
    first = [i for i in pending if i in placed] + late
    return (first + [i for i in pending if i not in placed])[:MAX_PENDING]


def _series_order(counts: np.ndarray) -> np.ndarray:
    """The order templates are looked at in: the most lines first, then (a line seen once each) the block's last
    one-off lines first: the ``MAX_PENDING`` carried to the next read are the ones nearest its end (a young series'
    first record after a long banner, whose template recurs in the next read), as one read of both would read them."""
    order = np.argsort(-counts, kind="stable")
    ones = counts[order] == 1
    if not ones.any():
        return order
    return np.concatenate((order[~ones], order[ones][::-1]))


# HF's run header, and a config line naming the planned length (``total_steps=4500``, HF's header after it wins):
# (pattern, literals one of which its line holds, the setting it gives)
_SETTINGS = (
    (_PLANNED_STEPS, (b"total_steps", b"max_steps", b"num_training_steps", b"train_iters"), "total"),
    (_TOTAL_STEPS, (b"otal optimization steps", b"otal training steps"), "total"),
    (_LOGGING_STEPS, (b"logging_steps",), "log_every"),
    (_NUM_EPOCHS, (b"Num Epochs",), "epochs"),
    (_BATCH_SIZE, tuple(w.encode() for w in DIALECT.batch_size_names), "batch"),
)
_SETTING_LITERALS = [(pattern, [templates_of(lit) for lit in lits], key) for pattern, lits, key in _SETTINGS]
MAX_SETTING_LINES = 64  # lines of one setting's templates looked at per block


def _run_settings(lines: Sequence[bytes], grouping: Grouping, first: int, st: dict, em: Emitter) -> None:
    """The run's settings from HF's header (``Total optimization steps = 300``, ``logging_steps=10``, ``Num Epochs =
    3``): the first line of the block (from line ``first``: the lines before were carried over) that gives each. Only
    the lines whose template holds the setting's words are looked at (a search over the block's distinct templates,
    not its bytes)."""
    joined = b"\n".join(grouping.templates)
    starts: np.ndarray | None = None
    for pattern, literals, key in _SETTING_LITERALS:
        ks: set[int] = set()
        for lit in literals:
            at = joined.find(lit)
            while at >= 0 and len(ks) < MAX_SETTING_LINES:
                if starts is None:
                    starts = np.cumsum([0] + [len(t) + 1 for t in grouping.templates])
                k = int(np.searchsorted(starts, at, side="right")) - 1
                ks.add(k)
                at = joined.find(lit, int(starts[k + 1]))
        if not ks or (key == "batch" and st.get(key)):  # (the first batch size printed is the run's)
            continue
        for i in np.flatnonzero(np.isin(grouping.codes, sorted(ks))).tolist():
            if i < first:
                continue
            m = pattern.search(lines[i])
            if m:
                value = int(m.group(1).replace(b",", b"") or 0) or None
                st[key] = value
                if key == "total":
                    em.total_steps = value
                break


def _phase_banners(lines: Sequence[bytes], grouping: Grouping, st: dict) -> None:
    """The lines announcing a phase of the run with its length (``for 250 iterations``), with that length, for
    ``_defer_phases``: only the lines whose template holds ``for N <unit>`` are looked at (a bounded number)."""
    marks = [k for k, t in enumerate(grouping.templates) if any(lit in t for lit in _PHASE_LITERALS)]
    if not marks:
        return
    out = []
    for i in np.flatnonzero(np.isin(grouping.codes, marks))[:4 * MAX_PHASES].tolist():
        m = _PHASE.search(lines[i])
        if m:
            out.append((i, float(m.group(1))))
            if len(out) >= MAX_PHASES:
                break
    if out:
        st["_ph_at"] = out


_OUTER_WORDS = b"|".join(re.escape(w.encode()) for w in sorted(DIALECT.outer_unit_words))
# a larger unit's position in a template (its number masked, \x01) and on a line: ``Round 3 started.``,
# ``current_round=3``, ``round: 3``; not ``rounds`` (a count), nor ``around``
_OUTER_MASKED = _OUTER_WORDS.replace(b"e", b"\x01")  # (a template masks a word's ``e``: ``R\x01solution``)
_OUTER_TEMPLATE = re.compile(rb"(?<![A-Za-z\x01])(?:" + _OUTER_MASKED + rb")[ \t]?+[=:#]?+[ \t]?+\x01", re.I)
_OUTER_LINE = re.compile(rb"(?<![A-Za-z])(?:" + _OUTER_WORDS + rb")[ \t]?+[=:#]?+[ \t]?+(\d{1,9}+)(?![\d.])", re.I)
MAX_OUTER = 4096  # lines naming a larger unit looked at per block


def _round_marks(lines: Sequence[bytes], grouping: Grouping, first: int, st: dict) -> None:
    """The lines naming a unit larger than a record's step (``Dialect.outer_unit_words``: a federated round's banner
    ``Round 3 started.``, a client's ``current_round=3``), with that unit's number, for ``_continue_rounds``: only the
    lines whose template names one are looked at (a bounded number), of a one-off template too; of the lines carried
    from the read before (before ``first``), ``_defer_phases`` takes only those it deferred."""
    marks = [k for k, t in enumerate(grouping.templates) if _OUTER_TEMPLATE.search(t)]
    if not marks:
        return
    out = []
    at = np.flatnonzero(np.isin(grouping.codes, marks))
    for i in np.concatenate((at[at < first][-MAX_OUTER:], at[at >= first][:MAX_OUTER])).tolist():
        m = _OUTER_LINE.search(lines[i])
        if m:
            out.append([i, float(m.group(1))])
    if out:
        st["_rd_at"] = out


def _continue_rounds(reads: list, st: dict) -> None:
    """A step counter that goes back under a later unit larger than the step (``_round_marks``: NVFlare's clients
    print ``Iteration: 1, 3, 5, 7`` every round, each round under ``Round 2 started.`` and ``current_round=2``)
    continues the run where it stopped, as an epoch's batch counter does (``_continue_inner``): the round before held
    its last step + d - f (d the counter's interval, f the new round's first step; its last + 1 - f with one print a
    round), so a round's records sit at the global step. A step going back with no later unit between is a new run
    (``bar_steps.run_starts``), as is one under the first unit named after records that none preceded (a setting
    naming the word in a restarted run's config dump, detectron2's ``POOLER_RESOLUTION: 7``: no stage of the run).
    The explicit steps of ``reads`` changed in place; the state kept in ``st["rd"]``."""
    marks = st.pop("_rd_at", None) or []
    rd = st.get("rd")
    if not marks and not rd:
        return
    rd = rd or {"off": 0.0, "last": None, "gap": None, "at": None, "now": None}
    stepped = [r for r in reads if r[0].step is not None and EXPLICIT in r[2] and len(r[1])]
    lines = np.concatenate([r[1] for r in stepped]) if stepped else np.zeros(0, dtype=np.int64)
    steps = np.concatenate([r[2][EXPLICIT] for r in stepped]) if stepped else np.zeros(0)
    order = np.argsort(lines, kind="stable")
    order = order[~np.isnan(steps[order])]
    at, raw = lines[order], steps[order]
    add = np.zeros(len(raw))
    off, last, gap, was, now = float(rd["off"]), rd["last"], rd["gap"], rd["at"], rd["now"]
    bounds = [int(np.searchsorted(at, b, side="right")) for b, _v in marks] + [len(at)]
    start = 0
    for j, end in enumerate(bounds):
        if start < end:
            seg = raw[start:end]
            s0 = float(seg[0])
            if last is not None and s0 <= last and now is not None and was is not None and now > was:
                off += last + (gap or 1.0) - s0  # a later round: the run goes on where the round before stopped
                st["rd_said"] = True
            elif last is not None and s0 > last and was == now:
                gap = s0 - last  # (the same round's records, a mark of it between)
            steps_up = np.diff(seg)
            if (steps_up > 0).any():
                gap = float(steps_up[steps_up > 0][-1])
            add[start:end] = off
            last, was = float(seg[-1]), now
            start = end
        if j < len(marks):
            now = marks[j][1]
    st["rd"] = {"off": off, "last": last, "gap": gap, "at": was, "now": now}
    _add_in_order(add, order, len(steps), stepped)


def _defer_phases(st: dict, first: int, new_pending: list[int], placed: set[int], late: list[int],
                  key: str = "ph") -> None:
    """The phase banners this read takes (``_phases``): of the lines carried from the read before (before ``first``),
    only the banners it deferred (the last ``ph_defer`` of them; the others it took); a banner after a line carried to
    the next read with a step (a series' first record, read there) waits with it: carried too, taken there in its
    place among the records. ``key`` "rd": the same of the lines naming a larger unit (``_round_marks``)."""
    found = st.pop(f"_{key}_at", None) or []
    n_old = int(st.pop(f"{key}_defer", 0) or 0)
    old = [b for b in found if b[0] < first]
    take = (old[len(old) - n_old:] if n_old else []) + [b for b in found if b[0] >= first]
    lead = min([*placed, *late]) if placed or late else None
    wait = [b for b in take if lead is not None and b[0] > lead]
    if wait:
        st[f"{key}_defer"] = len(wait)
        for i, _n in wait:
            if i not in new_pending:
                new_pending.append(i)
            placed.add(i)
        take = [b for b in take if b not in wait]
    if take:
        st[f"_{key}_at"] = take


def _phases(reads: list, nonblank: np.ndarray, n_ctx: int, st: dict) -> None:
    """A step counter that restarts right after a banner announcing the next phase of the run with its length (openTSNE:
    ``... for 250 iterations...``, ``Iteration 50 .. 250``, then ``... for 500 iterations...``, ``Iteration 50`` again),
    the phase before having reached the length its banner announced, with at most ``PHASE_GAP`` lines between (no
    relaunch, config or header): the run goes on, the new phase's steps after the phase before (offset by its length),
    said in a note. A restart with no such banner is a new run (``bar_steps.run_starts``): the offset ends there. The
    explicit steps of ``reads`` (with no epoch of their own) changed in place; the phase's state kept in ``st``."""
    banners = st.pop("_ph_at", None) or []
    if not banners and not st.get("ph_off") and st.get("ph_next") is None and st.get("ph_len") is None:
        return  # no phase announced so far: nothing to look at
    lines = np.concatenate([rd[1] for rd in reads]) if reads else np.zeros(0, dtype=np.int64)
    steps = np.concatenate([rd[2][EXPLICIT] for rd in reads]) if reads else np.zeros(0)
    ok = ~np.isnan(steps)
    order = np.argsort(lines, kind="stable")
    order = order[ok[order]]
    at, raw = lines[order], steps[order]
    add = np.zeros(len(raw))
    off, plen, nxt = float(st.get("ph_off", 0.0)), st.get("ph_len"), st.get("ph_next")
    top, last, gap = st.get("ph_top"), st.get("ph_last"), st.get("ph_gap")
    last_line = None
    bounds = [int(np.searchsorted(at, b, side="right")) for b, _n in banners] + [len(at)]
    start = 0
    for j, end in enumerate(bounds):
        while start < end:
            s0 = float(raw[start])
            back = last is not None and s0 <= last
            if nxt is not None:  # the first record after a phase's banner
                between = (int(nonblank[last_line + 1:int(at[start])].sum()) if last_line is not None
                           else int(nonblank[n_ctx:int(at[start])].sum()) + int(gap or 0))
                if back and plen is not None and top is not None and plen - (st.get("ph_step") or 1) < top <= plen \
                        and between <= PHASE_GAP:
                    off += plen  # the phase before ran its announced length: this one continues the run
                    st["ph_said"] = st.get("ph_said") or plen
                elif back:
                    off = 0.0  # a new run (``bar_steps.run_starts``)
                plen, nxt, top = nxt, None, (None if back else top)
            elif back:
                off, plen, top = 0.0, None, None  # restarted with no phase announced: a new run
            stop = end  # up to the next drop of the counter, or the segment's end
            if off or plen is not None:
                drops = np.flatnonzero(raw[start + 1:end] <= raw[start:end - 1])
                stop = start + 1 + int(drops[0]) if len(drops) else end
            seg = raw[start:stop]
            add[start:stop] = off
            top = float(seg.max()) if top is None else max(top, float(seg.max()))
            if len(seg) > 1:
                st["ph_step"] = float(seg[-1] - seg[-2])
            last, last_line = float(seg[-1]), int(at[stop - 1])
            start = stop
        if j < len(banners):
            nxt = banners[j][1]
    gap = (int(nonblank[last_line + 1:].sum()) if last_line is not None
           else int(nonblank[n_ctx:].sum()) + int(gap or 0))
    st.update(ph_off=off, ph_len=plen, ph_next=nxt, ph_top=top, ph_last=last, ph_gap=gap)
    _add_in_order(add, order, len(steps), reads)


def _add_in_order(add: np.ndarray, order: np.ndarray, n: int, reads: list) -> None:
    """Add the offsets ``add`` (in line order, ``order`` the reads' steps sorted so) to the reads' explicit steps."""
    if not add.any():
        return
    full = np.zeros(n)
    full[order] = add
    k = 0
    for _plan, idx, got, _bad in reads:
        got[EXPLICIT] = got[EXPLICIT] + full[k:k + len(idx)]
        k += len(idx)


def _context(i: int, at: tuple[np.ndarray, _Filled] | None, ctx: list[tuple[float | None, float | None]],
             st: dict) -> list[float | None]:
    """The progress counter and the train step at line ``i``, kept with a one-off line (carried again: the step a
    carried value read now before it gives it, ``_Filled``)."""
    if i < len(ctx):
        if at is None:
            return list(ctx[i])
        step = float(at[1][np.array([i])][0])
        return [ctx[i][0], None if np.isnan(step) else step]
    if at is None:
        return [st.get("prog"), st.get("step")]
    got = [float(at[0][i]), float(at[1][np.array([i])][0])]
    return [None if np.isnan(x) else x for x in got]


def _epoch_at(i: int, ep_lines: np.ndarray | None, ctx_ep: list[float | None], st: dict) -> float | None:
    """The epoch line ``i`` was printed under (the banners' before it), kept with a one-off line: a counter line
    carried to a later read counts within that epoch, not the one the read before ended under."""
    if i < len(ctx_ep):
        return ctx_ep[i]
    if ep_lines is None or i >= len(ep_lines):
        return st.get("epoch")
    return None if np.isnan(ep_lines[i]) else float(ep_lines[i])


def _drawn_bar(line: bytes) -> bool:
    """A progress bar's state drawn on the line (its percent then the bar: ``100%|| 1/1``, ``100% ━━━━``)."""
    return b"%||" in line or b"% \xe2\x94\x81" in line


def _header_before(lines: Sequence[bytes], i: int, st: dict, first: int) -> list[str] | None:
    """The header row just above line ``i`` (a table's column names); above the block's first line (``first``: the
    lines before it were carried from earlier blocks), the last header of as many columns seen before."""
    if _all_named(lines[i]) or closes_a_list(lines[i]):
        return None  # each number has its name on the line (``Loss: 0.53``): a record, no table's row
    j = i - 1
    while j >= first and not lines[j].strip():
        j -= 1
    if _drawn_bar(lines[i]) and before_bar(lines[i])[:1].isalpha():
        return None  # a bar described by words (``Epochs 2/5. Running Loss: 0.41: 100%|| 32/32``) is named by its
        # own, not by the words above it (another bar's, ``Writing model shards: 100%|| 1/1``, an INFO line); a
        # table's row drawing a bar starts with its values (YOLO's ``  0/299  2.5G  0.1 ...: 100%||``)
    names = header_names(lines[j]) if j >= first else None
    if names is not None and _drawn_bar(lines[j]) and len(before_bar(lines[i]).split()) != len(names):
        names = None  # a bar's description (``Total test samples: 100%|| 64/64``) names the row below only as a
        # table's header drawing its bar does, cell for cell (YOLOv5's ``Class Images ... mAP50-95: 100%||``): not a
        # logger's line of other cells, which a read starting at that line reads unnamed as well
    if names is None:
        heading = headed(lines, i, first, st)  # a heading naming only a row's first value (``Loss:``)
        if heading is not None:
            return heading
    headers = st.setdefault("headers", {})
    if names is not None:
        if len(headers) < 16 or tab_tables.key(names) in headers:
            headers[tab_tables.key(names)] = names  # (a tab-separated one apart: ``tab_tables.TabNames``)
        return names
    if j >= first:
        return None
    tabbed = tab_tables.row_key(lines[i])
    if tabbed is not None and tabbed in headers:
        return tab_tables.TabNames(headers[tabbed])
    return headers.get(str(len(before_bar(lines[i]).split())))


MAX_BARE = 16  # row templates of bare numbers whose reading is kept between reads


def _bare_rows(lines: Sequence[bytes], plans: list[tuple[Plan, np.ndarray]], bare: list[int], codes: np.ndarray,
               loose: list[bytes], st: dict) -> list[tuple[Plan, np.ndarray]]:
    """``plans`` with the rows of bare numbers no header names (``bare``, indices of ``plans``) given their value's
    name (``bare_rows.decide``), in place. The name is decided once per row template (its blanks aside) on its first
    ``DECIDE_ROWS`` rows in file order: rows seen in an earlier read are kept until then (``bare`` in the state), and
    a template decided after its first rows were read with nothing has the file read again knowing it (``_revise``).
    Such rows never take over a log with a named loss or objective: once a plan names one, every bare row stays
    unread, and a log whose bare rows were read before is read again knowing it."""
    them = set(bare)
    named = any(_has_loss(p) or _has_objective(p) for k, (p, _) in enumerate(plans) if k not in them)
    if named and not st.get("named_obj"):
        st["named_obj"] = True
        if st.get("bare_read"):
            st["revise"] = {**st.get("revise", {}), "named_obj": True}
    if st.get("named_obj") or not bare:
        return plans
    firsts: dict[str, list[int]] = {}  # per template, its first rows in this read
    for k in bare:
        key = _bare_key(lines, plans[k][1], codes, loose)
        firsts[key] = sorted([*firsts.get(key, []), *plans[k][1][:DECIDE_ROWS].tolist()])[:DECIDE_ROWS]
    known = dict(st.get("bare") or {})  # (a new dict: the pinned one stays as pinned)
    for key, rows in firsts.items():
        got = known.get(key)
        if got is None and len(known) >= MAX_BARE:
            continue
        if got is None or got[0] == "?":
            seen = [c.encode("latin-1").split() for c in (got or ["?"])[1:]]
            seen += [c for c in (cells(lines[i]) for i in rows) if c is not None]
            seen = seen[:DECIDE_ROWS]
            if len(seen) < DECIDE_ROWS:
                known[key] = ["?", *(b" ".join(c).decode("latin-1") for c in seen)]
                continue
            name = decide(seen)
            known[key] = ["=", name or ""]
            if name and got is not None:  # its first rows were read before, with nothing: read again knowing it
                st["revise"] = {**st.get("revise", {}), "bare": dict(known)}
    st["bare"] = known
    for k in bare:
        plan, idx = plans[k]
        got = known.get(_bare_key(lines, idx, codes, loose))
        if not got or got[0] != "=" or not got[1]:
            continue
        spans = _spans(lines[int(idx[0])])
        value = next((f for f in range((plan.step or 0) + 1, len(spans)) if spans[f][1] > spans[f][0]), None)
        if value is not None:
            plans[k] = (replace(plan, metrics={value: got[1]}), idx)
            st["bare_read"] = True
    return plans


def _bare_key(lines: Sequence[bytes], idx: np.ndarray, codes: np.ndarray, loose: list[bytes]) -> str:
    """A row template of bare numbers, its blanks aside, with its count of cells (its template holds no number)."""
    return f"{len(lines[int(idx[0])].split())}:{loose[int(codes[int(idx[0])])].decode('latin-1')}"


def _all_named(line: bytes) -> bool:
    """Whether every number cell of ``line`` comes right after a name ending in ``:`` or ``=`` (``INFO:__main__:
    Loss: 0.5301`` under ``INFO:__main__:📊 Evaluation Results:``): a record of named values, which a line of words
    above does not name."""
    tokens = before_bar(line[:PENDING_LINE]).split()
    named = False
    for k, tok in enumerate(tokens):
        if not tok[:1].isdigit() and not (tok[:1] in b"-+." and tok[1:2].isdigit()):
            continue
        prev = tokens[k - 1] if k else b""
        if not (prev[-1:] in (b":", b"=") and any(c.isalpha() for c in prev.decode("latin-1"))):
            return False
        named = True
    return named


_PLANS: dict[tuple[bytes, tuple[str, ...] | None, tuple[bytes, ...]], Plan] = {}
MAX_CACHED_PLANS = 4096
MAX_KEPT_SAMPLES = 256  # templates whose samples a log's state keeps
MAX_KEPT_BYTES = 1 << 16  # and their bytes in all


def _cached_plan(template: bytes, samples: list[bytes], header: list[str] | None, st: dict) -> Plan | None:
    """A template's plan, made from the samples of the log's read that first planned it: later blocks and reads of
    the same log plan it from those samples again (a plan depends on its samples, not on its template alone), so a
    log's plans are its own whatever other logs the process read before, and they outlive the process in the log's
    cursor. Made once per process for the same template, header and samples (a long read meets the same templates
    in every block). A template whose samples name no number yet is planned again next time (a field may hold a
    number later)."""
    head = tuple(header) if header else None
    kept = st.setdefault("plan_samples", {})
    name = hashlib.blake2b(b"\x00".join((template, *(h.encode("utf-8", "replace") for h in head or ()))),
                           digest_size=12).hexdigest()
    now = samples
    st.setdefault("_read_kept", [])  # (the templates this read planned first: ``_contradicted``)
    if name in kept:
        samples = [s.encode("latin-1") for s in kept[name]]
    plan = _plan_of(template, head, samples, header)
    _contradicted(name, plan, samples, now, template, head, header, st)
    if not st.get("plus_minus") and any(b"+/-" in s for s in samples):
        # a value printed with its error ``v +/- e`` (``lines.without_errors``): known once a template shows one (no
        # block is searched for it), the file read again from its start knowing it
        st.setdefault("revise", {})["plus_minus"] = True
    if plan is not None and name not in kept and len(kept) < MAX_KEPT_SAMPLES:
        size = sum(len(s) for s in samples)
        if st.get("plan_bytes", 0) + size <= MAX_KEPT_BYTES:
            kept[name] = [s.decode("latin-1") for s in samples]
            st["plan_bytes"] = st.get("plan_bytes", 0) + size
    return plan


def _plan_of(template: bytes, head: tuple[str, ...] | None, samples: list[bytes], header: list[str] | None
             ) -> Plan | None:
    """The plan of ``template`` from ``samples`` (made once per process for the same template, header, samples)."""
    key = (template, head, tuple(samples))
    plan = _PLANS.get(key)
    if plan is None:
        plan = plan_template(samples, header=header)
        if plan is not None and len(template) <= 4096:
            if len(_PLANS) >= MAX_CACHED_PLANS:
                _PLANS.clear()  # (a long-lived server reading many logs: made again when met again)
            _PLANS[key] = plan
    return plan


MAX_PLAN_FIXES = 4  # templates whose plan a file's later read contradicts (each reads the file again, once)


def _contradicted(name: str, plan: Plan | None, kept: list[bytes], now: list[bytes], template: bytes,
                  head: tuple[str, ...] | None, header: list[str] | None, st: dict) -> None:
    """A template an earlier read planned from the lines it held (its first two, its middle, its last), met again in
    a later read, planned otherwise: under a header its samples there named otherwise (nequip's per-batch rows
    ``5  2  0.121 ...`` first met in one epoch, their epoch column constant, no step; rising in the later read's, the
    step), or from its first two lines and this read's middle and last (as one read of the whole file takes its
    samples) with other fields the step, the epoch or the values. The file is then read again from its start
    (``_revise``, pin ``plan_fix``: the template's digest), as one read of it plans the template, at most
    ``MAX_PLAN_FIXES`` templates a file."""
    if plan is None:
        return
    this_read = st["_read_kept"]
    digest = _digest(template)
    sigs = st.setdefault("plan_sig", {})
    sig = repr((plan.step, plan.epoch, sorted(plan.metrics.items())))
    if digest not in sigs:
        if len(sigs) < MAX_KEPT_SAMPLES:
            sigs[digest] = sig
        if len(this_read) < MAX_KEPT_SAMPLES:
            this_read.append(digest)  # (planned by this read: its later blocks plan as it did)
        return
    fixes = list(st.get("plan_fix") or ())
    if digest in this_read or digest in fixes or len(fixes) >= MAX_PLAN_FIXES:
        return
    other = sig != sigs[digest]
    if not other and name in (st.get("plan_samples") or {}):
        alt = list(dict.fromkeys([*kept[:2], *now[-2:]]))[:SAMPLES]
        alt_plan = _plan_of(template, head, alt, header) if alt != kept else plan
        other = alt_plan is not None and repr((alt_plan.step, alt_plan.epoch,
                                               sorted(alt_plan.metrics.items()))) != sig
    if other:
        st.setdefault("revise", {})["plan_fix"] = sorted([*fixes, digest])


def _before_its_series(line: int, names: set[str], series_at: list[tuple[int, frozenset[str]]]) -> bool:
    """Whether a line read once names exactly what a recurring record names, two names or more, before that record's
    first line: the first of the series printed in other words (tianshou's ``Initial test step: test_reward: 10.6,
    best_reward: ...`` before its ``Epoch #1: test_reward: 9.0, best_reward: ...``). A line after the series (a final
    or best summary) is none, nor one naming a part of it (``Namespace(epochs=3, lr=20)``: a setting), nor one after
    another series naming any of its names (fastNLP's ``loss:5.07e+29, finished 37.5%.``, a record's rest a terminal
    wrapped alone, after the records that printed the loss alone: no initial value; an earlier read's names: the
    caller)."""
    return len(names) >= 2 and any(line < first and names == have for first, have in series_at) and not any(
        first < line and names & have for first, have in series_at)


MAX_PLACED_NAMES = 64  # names kept for ``_placed_late``


def _view_name(name: str, means: bool = True) -> str:
    """The quantity a metric's name shows, as a live view and a record of it are compared: its words in lower case;
    for a bar (``means``), its mean words dropped (``Dialect.mean_words``: an epoch's ``avg_loss`` records what a bar
    draws as ``Loss``, its evaluation's ``eval_avg_loss`` what the evaluation's bar draws as ``eval_loss``)."""
    parts = [w for w in _NAME_PARTS.split(name.lower()[:256]) if w]
    kept = [w for w in parts if w not in DIALECT.mean_words] if means else parts
    return "_".join(kept or parts)


def _live_view(plan: Plan) -> bool:
    """A per-batch display of values within the epoch: a progress bar's redraws (``\\r`` or a line an update), or
    lines under a count within the epoch with no step of their own (a Keras-like meter ``16/16 [=====] - 0:00
    3ms/step - loss: 4.1383``, logged progress ``Train | Epoch 7 | 15/16 | 2260.32 it/sec | loss 1.677``)."""
    return plan.bar or plan.counter is not None and plan.step is None


def _shown_names(plan: Plan, names: Sequence[str] | None = None, means: bool = True) -> list[str]:
    """The quantities a record's values are of (``_view_name``), an evaluation's under its prefix."""
    prefix = plan.eval_prefix if plan.is_eval else ""
    return [_view_name(prefix + n, means) for n in (plan.metrics.values() if names is None else names)]


def _viewed(plan: Plan, recorded: tuple[set[str], set[str]]) -> list[bool]:
    """Which of a live view's values a record gives (``_recorded_names``): a bar's (a display: whatever it draws is
    the run's record's when one names it, or its mean), else a line's under a count within the epoch whose very name a
    record printing its own epoch gives (the epoch's running view: flashy's ``Train | Epoch 7 | 15/16 | ... | loss
    1.677`` before its ``Train Summary | Epoch 7 | loss=1.189``; a batch's ``Loss: 0.59`` logged beside an epoch's
    ``Avg loss: 0.20``, another quantity, stays the run's record of each batch)."""
    if plan.bar:
        return [v in recorded[0] for v in _shown_names(plan)]
    return [v in recorded[1] for v in _shown_names(plan, means=False)]


def _per_batch(plan: Plan) -> bool:
    """A train record placed finer than its epoch: at a step of its own, a count within the epoch, a bar's."""
    return plan.bar or plan.step is not None or plan.counter is not None


def _once_an_epoch(plan: Plan, got: dict[int, np.ndarray], st: dict) -> bool:
    """Whether a record printing its own epoch and no count within it, naming a train loss (``Epoch 3 average loss:
    avg_loss: 0.0897``, ``Train Summary | Epoch 12 | loss=1.189``, ``Finish Epoch: 3/10 - loss: 3.5011``), is printed
    once an epoch: its whole epochs rise line after line, across reads too (its last epoch kept per record kind); a
    kind whose epoch once repeated or went back is none, for good."""
    if plan.epoch is None or plan.counter is not None or plan.bar or not any(
            name_role(n) == "train_loss" for n in plan.metrics.values()):
        return False
    ep = got[plan.epoch]
    seen = st.setdefault("ep_once", {})
    key = ",".join(sorted(_shown_names(plan, means=False)))[:128]
    last = seen.get(key)
    if last is False:
        return False
    seq = ep if last is None else np.concatenate(([float(last)], ep))
    # (an epoch's end redrawn: its record again; a bar's redraws at its epoch's end are that epoch's by what they
    # are, in whichever of their templates they fall (tqdm's rate padded ``  7.48it/s``: two, interleaved))
    rising = np.ones(len(seq) - 1, dtype=bool) if plan.epoch_done else np.diff(seq) > 0
    ok = bool(len(ep)) and not bool(np.isnan(ep).any()) and bool((ep % 1 == 0).all()) and bool(rising.all())
    if key in seen or len(seen) < MAX_EPOCH_KINDS:
        seen[key] = float(ep[-1]) if ok else False
    return ok


def _recorded_names(reads: list[Read], kinds: list[int], st: dict) -> tuple[tuple[set[str], set[str]], set[int]]:
    """The quantities (``_view_name``) that records printing a position of their own give, in this read or an earlier
    one, and which of this read's records print their own epoch, once an epoch (``_once_an_epoch``). A record
    printing its step (tez's ``[train] mae=8.0177, loss=102.7787 [e=0 steps=16]``) or its epoch (``Epoch 1/8:
    loss=1.0377``, ``Epoch 3 average loss: avg_loss: 0.0897``) is the run's record of its values; a per-batch series
    of the same quantity within the epoch (``_live_view``: tez's bar ``1/192 [..., epoch=0, loss=107]``, the epoch's
    running mean so far; a bar's ``Loss: 0.0234``, the batch's) is a live view of it, no point, wherever its lines
    land among the records (a block-buffered stdout puts them after the bar's). Quantities a live view gave points of
    in an earlier read: the file is read again from its start knowing them (``_revise``), as one read of it all
    reads them. ``kinds``: the reads of train and evaluation records (an evaluation's quantities under its
    prefix). The quantities as a bar is compared with them, and the names records printing their own epoch give
    (``_viewed``)."""
    known = [_view_name(n) for n in st.get("recorded") or ()]  # (a cursor of a version that kept names as printed)
    named = list(st.get("ep_named") or ())
    new: list[str] = []
    new_named: list[str] = []
    by_epoch: set[int] = set()  # (train records only)
    for r in kinds:
        plan, idx, got, _bad = reads[r]
        if plan.bar or not plan.metrics or not len(idx):
            continue
        if plan.epoch_report:  # an epoch's report (``Avg Train Metrics --- Loss: 2.51``) under its banner
            new_named.extend(v for v in _shown_names(plan, means=False) if v not in named and v not in new_named)
            if not plan.is_eval:
                by_epoch.add(r)
        elif plan.step is None:  # an epoch of its own (``Epoch 1/8: loss=1.0377, val_loss=0.9541`` after the bar)
            if plan.epoch is None or bool(np.isnan(got[plan.epoch]).all()):
                continue
            once = _once_an_epoch(plan, got, st)
            if plan.epoch_total is None and not once:
                continue
            if once:
                new_named.extend(v for v in _shown_names(plan, means=False) if v not in named and v not in new_named)
            if once and not plan.is_eval:
                by_epoch.add(r)
        else:
            steps = got.get(EXPLICIT)
            if steps is None or bool(np.isnan(steps).all()):
                continue  # (a step found stuck: records placed otherwise)
        new.extend(v for v in _shown_names(plan) if v not in known and v not in new)
    if new:
        shown = {_view_name(n) for n in (*(st.get("carried") or ()), *(st.get("viewed") or ()))}
        drawn = shown & set(new)  # drawn by a live view in an earlier read
        known = sorted({*known, *new})[:MAX_PLACED_NAMES]
        st["recorded"] = known
        if drawn:
            st.setdefault("revise", {})["recorded"] = known
    if new_named:
        named = sorted({*named, *new_named})[:MAX_PLACED_NAMES]
        st["ep_named"] = named
        if set(st.get("viewed") or ()) & set(new_named):
            st.setdefault("revise", {})["ep_named"] = named
    return (set(known), set(named)), by_epoch


def _unviewed(plan: Plan, recorded: tuple[set[str], set[str]], st: dict) -> Plan:
    """A live view's plan with only the values no record gives (``_viewed``); the quantities it gives points of kept
    (``viewed``, a train bar's as ``carried``): recorded later, the file is read again knowing them."""
    kept = {f: n for (f, n), seen in zip(plan.metrics.items(), _viewed(plan, recorded), strict=True) if not seen}
    if kept and (plan.is_eval or not plan.bar):
        viewed = st.setdefault("viewed", [])
        viewed.extend(v for v in _shown_names(plan, list(kept.values()), means=False) if v not in viewed
                      and len(viewed) < MAX_PLACED_NAMES)
    return plan if len(kept) == len(plan.metrics) else replace(plan, metrics=kept)


def _by_epoch_mode(reads: list[Read], train: list[int], recorded: tuple[set[str], set[str]], by_epoch: set[int],
                   st: dict, em: Emitter) -> set[int]:
    """Whether the run is counted in epochs, and the live views it then leaves out: a record printing its own epoch,
    once an epoch (``_recorded_names``), is the run's record of what a per-batch series within the epoch shows beside
    it (a bar, a Keras-like meter, logged progress lines); where every per-batch series is such a live view (none
    gives a point), the records are the run's only train points and their epochs its steps, the run's length its
    epoch count. Decided on the log so far (kept in ``st``): records placed otherwise before the live view showed,
    the file is read again knowing it; a per-batch point shown after, read again knowing that (``_revise``)."""
    live = {r for r in train if _live_view(reads[r][0]) and all(_viewed(reads[r][0], recorded))}
    if any(r not in live and _per_batch(reads[r][0]) for r in train) and not st.get("batch_pts"):
        st["batch_pts"] = True  # a train point finer than the epoch: the run counts its batches
        if st.get("ep_mode"):
            st.setdefault("revise", {})["batch_pts"] = True
    if by_epoch:
        st["ep_recs"] = True
    if live:
        st["ep_views"] = True
    if st.get("batch_pts"):
        if by_epoch:
            st["ep_other"] = True  # epoch records placed as the run's batches
        return set()
    if st.get("ep_recs") and st.get("ep_views") and not st.get("ep_mode"):
        st["ep_mode"] = True
        if st.get("ep_other"):
            st.setdefault("revise", {})["ep_mode"] = True
        em.config.pop("steps_per_epoch", None)
        _epoch_total(st, em)
    if not st.get("ep_mode"):
        if by_epoch:
            st["ep_other"] = True
        return set()
    return live


def _placed_late(placed: set[str], st: dict) -> None:
    """Names a counted record (a step or an epoch of its own) gives in this read that an earlier read gave to records
    with no position, read under their own names (NeuralProphet's bar postfix ``train_loss=0.0027`` each epoch, then
    its metrics table with an epoch column printed at the run's end): read together, those records are a summary of
    the counted ones (``avg_``); so the file is read again from its start knowing the names (``_revise``), as one read
    of it all reads them."""
    late = placed & set(st.get("bare_names") or ()) - set(st.get("placed_names") or ())
    if late:
        names = sorted({*(st.get("placed_names") or ()), *late})[:MAX_PLACED_NAMES]
        st.setdefault("revise", {})["placed_names"] = names


def _has_objective(plan: Plan) -> bool:
    """A quantity the run minimises under another name than a loss (``Cost``, ``mse``: ``roles.infer_role``'s
    lower-is-better train metrics): with a step, a line read once holding one is a record on its face, as one with
    a loss is (mlxtend's first ``Iteration: 1/20 | Cost 41.37`` with a warning glued after it)."""
    from ..roles import infer_role, names_best_so_far

    return any(infer_role(n).role == "train_metric" and (infer_role(n).direction == "min" or names_best_so_far(n))
               for n in plan.metrics.values())  # (a best so far: a search's objective, whichever way it goes)


def _threshold_opener(plan: Plan) -> bool:
    """Whether the record opens with a number under a word naming no metric (``Plan.step_like_rises``) before a
    sampler's acceptance threshold (pyabc's ``t: 3, eps: 2.56e-01``: ``thresholds.py``): read while that number
    rises at every record (its step, ``_step_like``), else nothing (a model's printed layers, ``(1):
    BatchNorm1d(32, eps=1e-05, momentum=0.1, ...)``, a setting's ``eps`` under a layer's index)."""
    from ..thresholds import is_threshold

    k = plan.step_like
    return k is not None and plan.step_like_rises and any(is_threshold(n) for f, n in plan.metrics.items() if f != k)


def _initial_value(line: int, plan: Plan, series: list[tuple[Plan, np.ndarray]], lines: Sequence[bytes],
                   values: BlockValues) -> bool:
    """Whether a line read once with no position, naming the run's loss or objective (a name minimised) and nothing a
    recurring record with a step does not name, comes before that record's first line, whose step is 1: the value
    before the first step, at step 0 (TensorLy's ``reconstruction error=0.449`` before ``iteration 1, reconstruction
    error: 0.29, decrease = ...``)."""
    from ..roles import infer_role

    names = set(plan.metrics.values())
    if has_position(plan) or plan.is_eval or not any(
            infer_role(n).direction == "min" and infer_role(n).role in ("train_loss", "train_metric") for n in names):
        return False
    for rec, idx in series:
        if line < int(idx[0]) and names <= set(rec.metrics.values()) and rec.step is not None:
            first = _read(lines, idx[:1], [rec.step], values)[0][rec.step]
            return bool(len(first)) and float(first[0]) == 1.0
    return False


def _best_so_far(name: str) -> bool:
    from ..roles import names_best_so_far

    return names_best_so_far(name)


def _has_role(plan: Plan) -> bool:
    from ..roles import infer_role

    return plan.is_record or any(infer_role(n).role != "other" for n in plan.metrics.values())


def _has_loss(plan: Plan) -> bool:
    """A loss, an eval metric, a perplexity (a loss, exponentiated) or a reward (RL's objective) among the plan's
    metrics."""
    from ..roles import infer_role

    return any(infer_role(n).role in ("train_loss", "eval") or any(
        part.startswith(_LOSS_WORDS) for part in _NAME_PARTS.split(n.lower())) for n in plan.metrics.values())


class BlockValues:
    """The numbers of a block's lines, read per template. With the C kernel (``kernel.py``): each template's fields
    straight from the block's text, by the lines' offsets in it. Without it: the value text
    (``templates.value_text``) made once when a template holds most of the lines, that template's rows then cut
    from it in runs (a few slices, not a gather of every line), and read by numpy or pandas' C reader (``_read``)."""

    def __init__(self, lines: Sequence[bytes], joined: bytes | None):
        self.lines = lines
        self.joined = joined  # b"\n".join(lines), when at hand
        self._whole: tuple[bytes, np.ndarray, np.ndarray] | None = None
        self._bounds: tuple[np.ndarray, np.ndarray] | None = None
        if isinstance(lines, TextLines) and lines.text is joined:
            self._bounds = (lines.starts, lines.ends)

    def fields(self, idx: np.ndarray, cols: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """(values (n, k), bad (n, k)) of fields ``cols`` of the lines ``idx``, by the kernel (read-only arrays)."""
        from .kernel import line_bounds, read_fields

        if self.joined is None:
            self.joined = b"\n".join(self.lines)
        if self._bounds is None:
            self._bounds = line_bounds(self.joined)
        starts, ends = self._bounds
        return read_fields(self.joined, starts[idx], ends[idx], cols)

    def text(self, idx: np.ndarray) -> bytes:
        n = len(self.lines)
        if len(idx) * 2 < n:
            return value_text(_pick(self.lines, idx))
        if self._whole is None:
            vt = (b"\n".join(self.lines) if self.joined is None else self.joined).translate(VALUE_TABLE, VALUE_DELETE)
            nl = np.flatnonzero(np.frombuffer(vt, dtype=np.uint8) == 10)
            self._whole = (vt, np.concatenate(([0], nl + 1)), np.append(nl, len(vt)))
        vt, starts, ends = self._whole
        keep = np.zeros(n + 2, dtype=np.int8)
        keep[idx + 1] = 1
        edges = np.flatnonzero(np.diff(keep))  # runs of kept lines: [a, b)
        a, b = edges[0::2], edges[1::2]
        return b"\n".join([vt[s:e] for s, e in zip(starts[a].tolist(), ends[b - 1].tolist(), strict=True)]) + b"\n"


def _read(lines: Sequence[bytes], idx: np.ndarray, cols: list[int],
          values: BlockValues | None = None) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    """The numbers of fields ``cols`` of the lines ``idx`` (one template), and per field the lines where it holds no
    number (NaN there: no point; ``216ms`` is 216, ``nanms`` is nothing; an empty field is none). The NaN mark is a
    NaN value (a point)."""
    from .kernel import HAVE_KERNEL

    values = values or BlockValues(lines, None)
    if HAVE_KERNEL:
        vals, wrong = values.fields(idx, cols)
        got = {c: vals[:, j].copy() for j, c in enumerate(cols)}  # columns of their own, writable
        return got, {c: wrong[:, j].copy() for j, c in enumerate(cols) if wrong[:, j].any()}
    import pandas as pd

    text = values.text(idx)
    if len(idx) <= FEW_LINES and len(idx) * len(cols) <= FEW_CELLS:
        return _read_few(text, len(idx), cols)
    opts = {"header": None, "usecols": cols, "engine": "c", "na_values": [NAN_MARK.decode()],
            "keep_default_na": False, "skip_blank_lines": False}
    try:
        df = pd.read_csv(io.BytesIO(text), dtype=np.float64, **opts)
        return {c: df[c].to_numpy(dtype=np.float64) for c in cols}, {}
    except (ValueError, pd.errors.ParserError):
        pass
    opts["na_filter"] = False  # the NaN mark stays itself: a NaN, not a field that holds no number
    df = pd.read_csv(io.BytesIO(text), dtype=str, **opts)
    out: dict[int, np.ndarray] = {}
    bad: dict[int, np.ndarray] = {}
    for c in cols:
        raw = df[c]
        vals = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64).copy()
        wrong = np.isnan(vals) & (raw != NAN_MARK.decode()).to_numpy()
        vals[wrong] = np.nan
        out[c] = vals
        if wrong.any():
            bad[c] = wrong
    return out, bad


def _pick(lines: Sequence[bytes], idx: np.ndarray) -> list[bytes]:
    """``[lines[i] for i in idx]``, gathered in C."""
    if len(idx) == 1:
        return [lines[int(idx[0])]]
    return list(operator.itemgetter(*idx.tolist())(lines))


def _read_few(text: bytes, n: int, cols: list[int]) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    """``_read`` for a template of a few thousand lines at most (the C reader's fixed cost is per call), with the
    same answer: each field column converted at once by numpy, field by field only when one is no number."""
    rows = [line.split(b",") for line in text.split(b"\n")[:n]]
    out: dict[int, np.ndarray] = {}
    wrong: dict[int, np.ndarray] = {}
    for c in cols:
        col = [fields[c] if c < len(fields) else b"" for fields in rows]
        try:
            out[c] = np.array(col, dtype=np.bytes_).astype(np.float64)
            continue
        except ValueError:  # an empty field, the NaN mark or number characters that are no number
            pass
        vals = np.full(n, np.nan)
        bad = np.zeros(n, dtype=bool)
        for i, f in enumerate(col):
            if f == NAN_MARK:
                continue
            try:
                vals[i] = float(f)
            except ValueError:
                bad[i] = True
        out[c] = vals
        if bad.any():
            wrong[c] = bad
    return out, wrong


def _after_summary(lines: Sequence[bytes], idx: np.ndarray, steps: np.ndarray, before: float | None, first: int,
                   marker_before: bool) -> np.ndarray:
    """Which of the lines ``idx`` (their steps ``steps``) print a step again right after a line announcing a summary
    (``Dialect.summary_markers``), or after it and one line more (the table's header printed again under it: PDLP's
    ``Final solution stats:``). Only a line whose step went back or repeats (from the one before it, or for the
    first from ``before``, the last step of the reads before) can be one: those are looked at, a few lines up."""
    out = np.zeros(len(idx), dtype=bool)
    back = np.flatnonzero(steps[1:] <= steps[:-1]) + 1
    if before is not None and len(steps) and steps[0] <= before:
        back = np.concatenate(([0], back))
    for k in back[:MAX_SUMMARY_LOOKS].tolist():
        j = int(idx[k]) - 1
        while j >= first and j > idx[k] - 8 and not lines[j].strip():
            j -= 1
        if j >= first and (_marks_summary(lines[j]) or (_marks_summary(lines[j - 1]) if j - 1 >= first
                                                          else marker_before)) or j < first and marker_before:
            out[k] = True  # (the lines before ``first`` were carried from earlier reads: the one just before is the
            # last read's end, ``_marker_at_end``)
    return out


def _without_companions(lines: Sequence[bytes], reads: list, st: dict, first: int) -> list:
    """``reads`` without the rows of a marked table that are companions of the step's first row
    (``marked_rows.companions``: PDLP's current iterate ``C`` after its average ``A``), nor a step printed again
    under a summary's marker by another template than the rows before it (``_after_summary`` over every stepped
    template in line order: PDLP's ``Final solution stats:`` row, its numbers' widths unlike the table's last row's)."""
    stepped = [r for r, rd in enumerate(reads) if rd[0].step is not None]
    if not stepped:
        return reads
    pairs = [(reads[r][1], reads[r][2][reads[r][0].step]) for r in stepped]
    masks = marked_rows.companions(lines, pairs, st)
    if len(stepped) > 1:
        at = np.concatenate([idx for idx, _s in pairs])
        order = np.argsort(at, kind="stable")
        steps = np.concatenate([np.asarray(s, dtype=float) for _i, s in pairs])[order]
        again = np.zeros(len(at), dtype=bool)
        again[order] = _after_summary(lines, at[order], steps, st.get("step"), first, bool(st.get("marker_end")))
        ends = np.cumsum([len(idx) for idx, _s in pairs])
        masks = [m | a for m, a in zip(masks, np.split(again, ends[:-1]), strict=True)]
    out = list(reads)
    for r, drop in zip(stepped, masks, strict=True):
        if drop.any():
            plan, idx, got, bad = reads[r]
            keep = ~drop
            out[r] = (plan, idx[keep], {c: v[keep] for c, v in got.items()}, {c: v[keep] for c, v in bad.items()})
    return [rd for rd in out if len(rd[1])]


def _marker_at_end(body: bytes, data: bytes, st: dict) -> bool:
    """Whether a line announcing a summary came at most ``SUMMARY_REACH`` lines before the block's end (``body``:
    its end; ``data``: the block), counted over the reads in ``st["since_mark"]``: the next read's first record, or
    the one under a table's header printed again (PDLP's ``Final solution stats:``, its header, its row, which a
    read may cut anywhere and hand on in pieces), may be the report."""
    end = len(body)
    for k in range(SUMMARY_REACH):
        start = body.rfind(b"\n", 0, end) + 1
        if _marks_summary(body[start:end]):
            st["since_mark"] = k
            return True
        if start == 0:
            break
        end = start - 1
    since = st.pop("since_mark", None)
    if since is None:
        return False
    since += data.count(b"\n") + (not data.endswith(b"\n"))
    if since > SUMMARY_REACH:
        return False
    st["since_mark"] = since
    return True


def _marks_summary(line: bytes) -> bool:
    return any(m in line[:PENDING_LINE].lower() for m in DIALECT.summary_markers)


def _continued_steps(reads: list, st: dict) -> dict[int, np.ndarray]:
    """The steps of the reads that give a step and an epoch, continued across epochs (``_continue_steps``) in line
    order over all of them: one record printed by several templates (``Epoch:  9/20 ...`` and ``Epoch: 10/20 ...``
    align differently) is one sequence. By read index."""
    with_epoch = [r for r, rd in enumerate(reads) if rd[0].step is not None and (rd[0].epoch is not None
                                                                                 or rd[0].outer)]
    if not with_epoch:
        return {}
    lines = np.concatenate([reads[r][1] for r in with_epoch])
    steps = np.concatenate([reads[r][2][reads[r][0].step] for r in with_epoch])
    nested = max(len(reads[r][0].outer) for r in with_epoch)
    if nested:  # counters nested between the epoch and the step: one position, lexicographic (``nested_counters``)
        cols = [nested_counters.outer_columns(reads[r][0], reads[r][2], len(reads[r][1])) for r in with_epoch]
        cols = [c + [np.full(len(c[0]), np.nan)] * (nested + 1 - len(c)) for c in cols]
        table = np.concatenate([np.column_stack(c) for c in cols])
    else:
        epochs = np.concatenate([reads[r][2][reads[r][0].epoch] for r in with_epoch])
    order = np.argsort(lines, kind="stable")
    if nested:
        epochs = np.empty(len(steps))
        epochs[order] = nested_counters.outer_positions(list(table[order].T), st)
    out = np.empty(len(steps))
    inner = any(reads[r][0].inner for r in with_epoch)
    if inner:
        names = {m for r in with_epoch if reads[r][0].inner for m in reads[r][0].metrics.values()}
        st["in_names"] = sorted(names | set(st.get("in_names", [])))  # (an epoch's own record of these: ``_emit``)
        consumed = np.concatenate([_consumed(reads[r][0], reads[r][2], len(reads[r][1])) for r in with_epoch])
        out[order] = _continue_inner(steps[order], epochs[order], st, consumed[order])
    else:
        out[order] = _continue_steps(steps[order], epochs[order], st)
    bounds = np.cumsum([0] + [len(reads[r][1]) for r in with_epoch])
    return {r: out[bounds[k]:bounds[k + 1]] for k, r in enumerate(with_epoch)}


def _continue_steps(steps: np.ndarray, epochs: np.ndarray, st: dict) -> np.ndarray:
    """Steps that restart each epoch (``Epoch: 2 | Step: 5000`` after ``Epoch: 1 | Step: 20000``) continue from the
    last step of the epoch before. A counter printed every d steps whose new epoch's first print f is below d (a
    0-based counter, or one printed at i % d == d - 1: ``Iteration: 1``, ``3``, then ``1`` again; d the gap between
    the epoch's last two prints) continues as ``_continue_inner`` does: the epoch held its last value + d - f steps (no
    two epochs' records at one step); f = d (a 1-based counter) is the same step either way."""
    prev_s = np.concatenate(([st.get("raw_step", -np.inf)], steps[:-1]))
    prev_e = np.concatenate(([st.get("raw_epoch", np.inf)], epochs[:-1]))
    restart = (steps <= prev_s) & (epochs > prev_e)
    add = np.where(restart, prev_s, 0.0)
    if restart.any():  # the gap between the last two prints before each restart, within one epoch
        two = [np.nan if x is None else x for x in st.get("raw_2") or [None, None]]  # (the step and epoch before
        # the last one of the reads before)
        before_s = np.concatenate(([two[0]], prev_s[:-1]))
        before_e = np.concatenate(([two[1]], prev_e[:-1]))
        gap = np.where(before_e == prev_e, prev_s - before_s, np.nan)
        finer = restart & (gap > 0) & (steps >= 0) & (steps < gap)
        add = np.where(finer, prev_s + gap - steps, add)
    add[~np.isfinite(add)] = 0.0
    off = float(st.get("step_off", 0.0)) + np.cumsum(add)
    two = [float(steps[-2]), float(epochs[-2])] if len(steps) > 1 else [st.get("raw_step"), st.get("raw_epoch")]
    st["raw_2"] = [x if x is not None and math.isfinite(x) else None for x in two] if any(
        x is not None and math.isfinite(x) for x in two) else None
    st["raw_step"], st["raw_epoch"], st["step_off"] = float(steps[-1]), float(epochs[-1]), float(off[-1])
    return steps + off


def _consumed(plan: Plan, got: dict[int, np.ndarray], n: int) -> np.ndarray:
    """The values of ``plan``'s count of what the run consumed (``Dialect.consumed_names``), NaN where it has none."""
    for f, m in plan.metrics.items():
        if plan.inner and m.lower() in DIALECT.consumed_names:
            return got[f]
    return np.full(n, np.nan)


def _continue_inner(steps: np.ndarray, epochs: np.ndarray, st: dict, consumed: np.ndarray) -> np.ndarray:
    """A batch counter that restarts each epoch and never says the epoch's length (``Epoch: 002 | Batch: 015``):
    step = the batches of the epochs before + the batch. An epoch's length N is inferred from the counter's own
    pattern: printed every d batches from f (d the gap between its last two values; 1 when an epoch printed one, f
    the next epoch's first value), N = its last value + d - f (0, 5, 10, 15: 20; 5, 10, ..., 20: 20), so a 0-based
    counter reads E x N + B. Where the record also counts what the run consumed and never restarts (``[Epoch 1][Batch
    0][Samples 672]``: ``consumed``, NaN where none), d across the restart is what it counts: the consumed since the
    last print over the consumed per batch (told by two prints of one epoch; a partial last batch counts as one), the
    largest batch printed under-counting an epoch whose length d does not divide. Kept in ``st`` across reads; said
    once in the notes (a guess without that count: an epoch whose length d does not divide reads longer)."""
    out = np.empty(len(steps))
    last, ep, gap, off = st.get("in_last"), st.get("in_epoch"), st.get("in_gap"), float(st.get("in_off", 0.0))
    c_last, per = st.get("in_c_last"), st.get("in_c_per")
    st["inner"] = True  # (records of the epoch alone are then at its last step: ``_emit``)
    for i, (s, e, c) in enumerate(zip(steps.tolist(), epochs.tolist(), consumed.tolist(), strict=True)):
        if s != s or e != e:  # NaN: no position
            out[i] = np.nan
            continue
        run = None  # the batches since the last print, told by the consumed count
        if per and c == c and c_last is not None and c > c_last:
            run = float(math.ceil((c - c_last) / per - 1e-6))
        if last is not None and e > ep and s <= last:  # the counter restarted with the epoch: the epoch before
            length = last + (run or gap or 1.0) - s  # held its last value + d - the first value (the new epoch's: a
            off += length  # run resumed mid-epoch starts its first epoch late)
            st.setdefault("in_len", [length, bool(gap or run), bool(run)])  # the first epoch's, for the note
        elif last is not None and e == ep and s > last:
            gap = s - last
            if c == c and c_last is not None and c > c_last:
                per = (c - c_last) / gap
        last, ep = s, e
        c_last = c if c == c else None
        out[i] = off + s
    st["in_last"], st["in_epoch"], st["in_gap"], st["in_off"] = last, ep, gap, off
    st["in_c_last"], st["in_c_per"] = c_last, per
    return out


class _Filled:
    """``ffill(values, start)`` of the values ``numbers`` at lines ``have`` (ascending) and NaN elsewhere, looked up
    only where asked (a search among the lines that hold a number), the first ``len(head)`` lines (carried from an
    earlier block) holding ``head``'s value where ``values`` has none."""

    def __init__(self, have: np.ndarray, numbers: np.ndarray, start: float | None, head: list[float]):
        self.have = have
        self.numbers = numbers
        self.start = np.nan if start is None else start
        self.head = np.array(head, dtype=np.float64)
        # the block's own lines before its first own value: the latest step known before them, the last read's or a
        # carried line's read as a value now (printed before them, placed first: no later than the last read's)
        old = self.numbers[self.have < len(self.head)] if len(self.head) and len(self.have) else self.numbers[:0]
        self.lead = float(np.nanmax([self.start, *old.tolist()])) if len(old) and not np.isnan(
            np.append(old, self.start)).all() else self.start

    def __getitem__(self, idx: np.ndarray) -> np.ndarray:
        k = np.searchsorted(self.have, idx, side="right") - 1
        at = self.have[np.maximum(k, 0)] if len(self.have) else np.zeros_like(k)
        out = np.where(k >= 0, self.numbers[np.maximum(k, 0)] if len(self.numbers) else np.nan, self.start)
        if self.lead is not self.start:  # (carried values read now: an own line after them is after the last read)
            out = np.where((idx >= len(self.head)) & (k >= 0) & (at < len(self.head)), self.lead, out)
        carried = (idx < len(self.head)) & ~((k >= 0) & (at == idx))
        if carried.any():
            head = self.head[np.minimum(idx, max(len(self.head) - 1, 0))]
            # a carried line after a carried value read now, printed under the same step (nothing read between
            # them then): after that value, as one read of both lines reads it (a table's train row then its
            # validation row, both carried: the validation at the train row's epoch)
            prior = self.head[np.minimum(at, max(len(self.head) - 1, 0))] if len(self.have) else head
            after = carried & (k >= 0) & (at < idx) & ((prior == head) | np.isnan(prior) & np.isnan(head)) & ~np.isnan(
                out)
            out = np.where(carried & ~after, head, out)
        return out

    def last(self) -> float | None:
        """The step after the block: its last own value, else the latest before it (``lead``); None when none."""
        if len(self.have) and self.have[-1] >= len(self.head):
            return float(self.numbers[-1])
        return None if not len(self.have) else float(self.lead)


def _other_workers(workers: np.ndarray, st: dict) -> np.ndarray:
    """The rows of a table's worker column (``Plan.worker``) that are not the lowest worker's seen so far: the
    workers' rows interleave, each counting its own steps; the lowest's stand for the run (as the lowest rank's
    lines, ``streams.py``)."""
    low = st.get("worker_low")
    seen = workers[~np.isnan(workers)]
    if len(seen):
        low = float(seen.min()) if low is None else min(float(low), float(seen.min()))
        st["worker_low"] = low
    return workers != low if low is not None else np.zeros(len(workers), dtype=bool)


def _emit(lines: Sequence[bytes], plans: list[tuple[Plan, np.ndarray]], st: dict, em: Emitter,
          nonblank: np.ndarray, ctx: list[tuple[float | None, float | None]],
          lengths: np.ndarray, values: BlockValues | None = None,
          ctx_ep: list[float | None] | None = None) -> tuple[np.ndarray, _Filled]:
    """Read the plans' lines into ``em``; (the progress step, the train step) at each line."""
    n = len(lines)
    plans = banners.counters_under_banners(plans, st)
    nan = np.full(n, np.nan)
    nan.flags.writeable = False  # shared by the arrays no plan writes (a block without steps, epochs or counters)
    no = np.zeros(n, dtype=bool)
    no.flags.writeable = False
    epochs_given, counters_given = (any(getattr(p, a) is not None for p, _ in plans) for a in ("epoch", "counter"))
    any_explicit = False
    epoch = nan.copy() if epochs_given else nan  # the epoch a line gives
    banner_epoch = nan.copy() if epochs_given else nan  # ... when the line is an epoch banner (carried after it)
    prog_n, prog_total = (nan.copy(), nan.copy()) if counters_given else (nan, nan)
    zero = no.copy() if counters_given else no
    share = no.copy() if counters_given else no  # a counter followed by its share in percent
    # (``bar_steps.sample_counts``)
    bar_line = no.copy() if counters_given else no
    valued = no.copy() if counters_given else no  # a bar's line drawing a value (the run's bar, not a bar of its own)
    other_bar = no.copy() if counters_given else no  # any counter line (the main one's are taken out below)
    boxed = no.copy() if counters_given else no  # a bar drawn as a box before its percent drawing a value
    reads: list[tuple[Plan, np.ndarray, dict[int, np.ndarray], dict[int, np.ndarray]]] = []
    _epochs_setting(lines, st)
    first_value = (n, False)  # the first line where a bar's postfix holds a value, and whether its counter reads 0
    recur = setting_counters.recurring(plans, n) if epochs_given else None
    ends_before = bar_ends.names_before(plans, st)  # (bars naming more at their epoch's end: ``bar_ends``)
    for k_plan, (plan, idx) in enumerate(plans):
        got, bad = _read(lines, idx, plan.positions, values) if plan.positions else ({}, {})
        _negative_nans(lines, idx, got, bad)
        pos_bad = np.zeros(len(idx), dtype=bool)
        for c, mask in bad.items():
            if c not in plan.metrics and c not in plan.summary:
                pos_bad |= mask  # a position that is no number: the line is not this template's record
        if plan.worker is not None and plan.step_like is None and len(idx):  # (a tag's worker: ``_step_like``)
            pos_bad |= _other_workers(got[plan.worker], st)
        if pos_bad.any():
            keep = ~pos_bad
            idx = idx[keep]
            got = {c: v[keep] for c, v in got.items()}
            bad = {c: v[keep] for c, v in bad.items()}
        before = st.get("step")
        if plan.step is not None and len(idx) and ((np.diff(got[plan.step]) <= 0).any() or (
                before is not None and got[plan.step][0] <= before)):
            # a step printed again under "best iteration is:" (lightgbm's early stopping): a report, no point (the
            # step it went back from, or repeats, may be an earlier read's)
            again = _after_summary(lines, idx, got[plan.step], before, len(ctx), bool(st.get("marker_end")))
            if again.any():
                idx, got, bad = idx[~again], {c: v[~again] for c, v in got.items()}, \
                    {c: v[~again] for c, v in bad.items()}
        if not len(idx):
            continue
        if recur is not None and plan.epoch is not None and setting_counters.is_setting(
                plan, idx, got[plan.epoch], recur, len(ctx), st):  # a call's setting (``epoch=1`` at each call)
            if not _has_loss(plan):
                continue  # the call's header: no record
            plan = replace(plan, epoch=None)
        if bar_steps.epoch_done_bar(plan, lines[int(idx[0])], got) or \
                bar_ends.epoch_end_bar(plan, got, ends_before.get(k_plan, []), st):
            plan = replace(plan, bar=False, counter=None, epoch_done=True)
        if plan.parts:
            banners.epoch_parts(plan, got, st)  # (the banner's epoch in its parts: the part it opens, of the run's)
        reads.append((plan, idx, got, bad))
        if plan.is_summary:
            _summary_length(plan, got, st, em)
        if plan.epoch is not None:
            v = got[plan.epoch]
            epoch[idx] = v
            if not plan.metrics or plan.epoch_total is not None:
                banner_epoch[idx] = banners.past_banners(v, idx, len(ctx), st.get("epoch"))
            if plan.epoch_total is not None and not np.isnan(got[plan.epoch_total][-1]):
                st["epochs"] = float(got[plan.epoch_total][-1])
        if plan.counter is not None:
            other_bar[idx] = True
            if plan.epoch is not None or not plan.bar:
                st["epoch_counter"] = True  # a counter under an epoch, or not a bar's: ``_epoch_by_epoch`` stays off
            if not plan.is_eval and _counts_progress(got[plan.counter[0]], got[plan.counter[1]]):
                prog_n[idx], prog_total[idx] = got[plan.counter[0]], got[plan.counter[1]]
                st["bare_counter"] = st.get("bare_counter") or plan.counter_bare
                zero[idx] = plan.zero_based
                share[idx] = plan.counter_share
                bar_line[idx] = plan.bar
                valued[idx] = plan.bar and bool(plan.metrics)
                boxed[idx] = not plan.bar and bool(plan.metrics) and boxed_bars.boxed_bar(lines[int(idx[0])])
                if plan.bar and plan.metrics and not plan.zero_based and "first_state" not in st:
                    first_value = min(first_value, bar_steps.postfix_first(plan, idx, got))
    reads = _without_companions(lines, reads, st, len(ctx))
    loops = bar_loops.loop_starts(bar_loops.descriptions(reads, lines, n), prog_n, valued, st) \
        if counters_given else []
    lag_before = None  # (the lag of the loop before the read's last new loop, for the lines before it)
    if loops:  # a new loop: whether its values are set before its counter moves decided on its own lines
        lag_before = bool(st.get("first_state")) if "first_state" in st else first_value[0] < n and first_value[1]
        st.pop("first_state", None)
        first_value = (n, False)
        for plan, idx, got, _b in reads:
            sel = idx >= loops[-1]
            if plan.bar and plan.metrics and not plan.zero_based and plan.counter is not None and sel.any() \
                    and not plan.is_eval:
                first_value = min(first_value, bar_steps.postfix_first(plan, idx[sel], {
                    c: v[sel] for c, v in got.items()}))
    if first_value[0] < n:
        st["first_state"] = first_value[1]
    bar_ends.settle(st)
    _paired_counters(reads, st)
    initial = bar_steps.state_before_units(reads, n, st)
    redraws = bar_line  # a line carried from an earlier read (a one-off then) drew its bar before the lines that read
    if ctx and counters_given:  # gave: its count is no redraw after them
        redraws = bar_line.copy()
        redraws[:len(ctx)] = False
    _bars_restart(prog_n, redraws, st)
    continued = _continued_steps(reads, st)
    stepped = [rd[1] for rd in reads if rd[0].step is not None]
    stepped_at = np.sort(np.concatenate(stepped)) if stepped else np.zeros(0, dtype=np.int64)
    for r, (plan, idx_r, got, _bad) in enumerate(reads):
        if plan.step is not None:
            v = continued.get(r, got[plan.step])
            if not plan.epoch_row and _stuck_step(plan, v, st, _between(stepped_at, idx_r)):  # (an epoch's
                # redraws share its step)
                v = np.full(len(v), np.nan)  # no step: the records are placed as records without one
            got[EXPLICIT] = v  # the read's own steps, kept with its columns (split with them, below)
            any_explicit = any_explicit or not bool(np.isnan(v).all())
            if plan.step_total is not None and not np.isnan(got[plan.step_total][-1]):
                em.total_steps = st["total"] = whole_count(got[plan.step_total][-1])
    _phases([rd for rd in reads if rd[0].step is not None and rd[0].epoch is None], nonblank, len(ctx), st)
    _continue_rounds(reads, st)
    reads = banners.under_eval_banners(reads, n, nonblank, st, len(ctx))
    reads, short = banners.shorter_counts_eval(reads, prog_total, st)
    if len(short):
        prog_n[short], prog_total[short] = np.nan, np.nan
    if any_explicit:
        st["explicit"] = True  # records carry their own steps
    at_epoch = banners.banner_epochs(reads, n, st, len(ctx), ctx_ep)
    stale = _stale_bars(prog_n, prog_total, valued, at_epoch, st)
    if any(p.is_record and p.epoch is not None and p.step is None and p.metrics for p, _i, _g, _b in reads):
        st["run_bar"] = True  # records with a fractional epoch and no step (HF's): the bar counts the whole run
    train = [r for r, (plan, _i, _g, _b) in enumerate(reads)
             if plan.metrics and not plan.is_eval and not plan.is_summary]
    recorded, by_epoch = _recorded_names(reads, [r for r, rd in enumerate(reads) if rd[0].metrics and (
        rd[0].is_eval or r in train)], st)
    views = _by_epoch_mode(reads, train, recorded, by_epoch, st, em)  # (the run counted in epochs: its live views)
    by_ep = bool(st.get("ep_mode")) and not st.get("batch_pts")
    length = em.total_steps
    if counters_given:
        prog_n, prog_total = bar_steps.sample_counts(prog_n, prog_total, share, st)
    clears = bar_steps.bar_clears(lengths, nonblank, len(ctx), other_bar, prog_total, st) if counters_given else None
    if clears is not None:
        bar_steps.written_bars(prog_n, prog_total, bar_line, clears, st)
    else:
        # (no counter in the block: its clears kept all the same)
        bar_steps.tail_of_unread(lengths, nonblank, len(ctx), st)
    glob = bar_steps.progress_steps(prog_n, prog_total, epoch, banner_epoch, st, em, valued, ctx_ep, loops)
    bar_end = bar_steps.bar_at_end(prog_n, prog_total, valued, len(ctx), st) if counters_given else None
    if bar_end is not None and (boxed.any() or "box_end" in st):  # (where a boxed bar stood: ``boxed_bars``)
        bar_end = boxed_bars.box_ends(prog_n, prog_total, boxed, len(ctx), bar_end, st)
    if by_ep:  # the bars count batches, the run its epochs: no length of theirs
        em.total_steps = length
        em.config.pop("steps_per_epoch", None)
    lags = st.get("first_state") and not st.get("ctr_epochs")  # (a bar's own epoch printed: no lag to undo)
    lag_line = None  # (a new loop in the read: its lines lag as it does, the lines before as the loop before)
    if loops and lag_before != bool(lags) and not st.get("ctr_epochs"):
        lag_line = np.zeros(n, dtype=bool)
        lag_line[:loops[-1]] = bool(lag_before)
        lag_line[loops[-1]:] = bool(lags)
        lags = True
    drawn = redraws & (prog_n < prog_total)  # (each loop's redraws walked apart: ``bar_loops.per_loop``)
    ahead = bar_loops.per_loop(bar_steps.redrawn_ahead, loops, drawn, glob, st) if lags else no
    set_logs = no  # the bar's sets of a unit's value, each a log (``bar_steps.set_logs``)
    if lags:  # (a refresh of the state shown, the next unit's set after it at that count: no next unit's state)
        states = bar_steps.bar_states(reads, n)
        ahead = ahead & ~bar_loops.per_loop(bar_steps.refreshes, loops, drawn, glob, states, st)
        set_logs = bar_loops.per_loop(bar_steps.set_logs, loops, drawn, glob, ahead, states, st)
    if lags:  # a value drawn at 0 before the counter moves is the first unit's (unless it is the state before
        ahead = (ahead | (bar_line & (prog_n == 0) & (prog_n < prog_total))) & ~initial  # any:
        # ``bar_steps.state_before_units``)
    if lag_line is not None:
        ahead = ahead & lag_line
        set_logs = set_logs & lag_line
    bar_at = np.flatnonzero(bar_line & ~np.isnan(glob))  # the bar's redraws and the counts they show
    bar_counts = glob[bar_at]
    if not st.get("ctr_epochs"):
        glob[(prog_n == 0) & bar_line & ~ahead & ~initial] = np.nan  # a bar at 0 has done nothing yet: what it
        # shows is stale (but the state before any unit, ``bar_steps.state_before_units``: at 0)
    glob[ahead] += 1
    if not st.get("ctr_own"):
        glob[zero] -= 1
    if stale:  # a bar whose counter never moves counts nothing: its close is at the epoch, its redraws nowhere
        on = bar_line & ~np.isnan(at_epoch) & ~np.isnan(prog_n)
        glob[on] = np.where(prog_n[on] >= prog_total[on], at_epoch[on], np.nan)
    is_prog = ~np.isnan(glob)
    other_bar = other_bar & ~is_prog
    if st["main_total"] is not None:  # the main bar at 0 (a stale redraw) is no other bar
        other_bar = other_bar & (prog_total != st["main_total"])
    last_prog = ffill(glob, st["prog"])
    bar_step = bar_steps.steps_from_bar(reads, n, st)
    for i, (prog, step) in enumerate(ctx):  # lines carried from an earlier block: the step they were printed at
        last_prog[i] = np.nan if prog is None else prog
        if bar_step is not None:  # (not the step of this block's first bar: a validation's row printed before it)
            bar_step[i] = np.nan if step is None else step
    st["prog_before"] = st["prog"]
    if is_prog.any():
        st["prog"] = float(glob[np.flatnonzero(is_prog)[-1]])
    # tqdm.write: the bar is cleared (a line of blanks), the record printed, the bar redrawn. With stdout redirected
    # and buffered, the record comes later: the redraw right after a clear is then the step of the next record.
    after_clear: np.ndarray | None = None  # lines right after a clear, and the progress step at the next line
    next_prog: np.ndarray | None = None
    events = np.zeros(0, dtype=np.int64)
    if is_prog.any() and clears is not None:  # no bar in the block: no write event in it
        after_clear, before, tail_kind = clears
        nb_idx = np.flatnonzero(nonblank)
        next_prog = nan.copy()
        if len(nb_idx) > 1:
            next_prog[nb_idx[:-1]] = glob[nb_idx[1:]]
        # ... unless the clear was another bar's (an eval bar closing): then only a redraw at the same step is a write
        # (the line before the clear in the read before: ``bar_steps.bar_clears``' kind of it, a counter's total or
        # None)
        cand = np.flatnonzero(is_prog & after_clear)
        own = before[cand] < 0
        own[~own] = ~other_bar[before[cand][~own]]
        own[before[cand] == bar_steps.TAIL] = tail_kind is None or tail_kind == st["main_total"]
        prior = ffill(np.concatenate(([np.nan], glob[:-1])), st["prog_before"])
        events = cand[own | (glob[cand] == prior[cand])]
    # steps of the records
    needs: list[tuple[np.ndarray, int, np.ndarray]] = []  # (lines, read index, rows) of records with no step
    steps_of: list[np.ndarray] = []
    stale_lines: np.ndarray | None = None  # a stale bar's redraws (``_stale_bars``): no points, no records
    for plan, idx, got, _bad in reads:
        r = len(steps_of)
        explicit = got.get(EXPLICIT)
        steps = np.full(len(idx), np.nan) if explicit is None else explicit.copy()
        if plan.counter is not None and not plan.is_eval:
            steps = np.where(np.isnan(steps), glob[idx], steps)
            if plan.per_epoch and not np.isnan(at_epoch[idx]).all():  # Keras' meter: the epoch's record
                steps = np.where(True if explicit is None else np.isnan(explicit), at_epoch[idx], steps)
                _epoch_total(st, em)
                if st.get("meter_counted"):  # an earlier read, before the epoch's banner was known, placed the
                    st["revise"] = {**(st.get("revise") or {}), "meter_epochs": True}  # meter at its batches
            elif plan.per_epoch and plan.metrics:
                st["meter_counted"] = True  # (read again from the start once the banner places it: ``_revise``)
            elif stale and plan.bar and plan.metrics:  # a bar whose counter never moves: its close is the epoch's
                ep = at_epoch[idx]  # record, at the epoch; its redraws at 0 are no points (``_stale_bars``)
                free = ~np.isnan(ep) if explicit is None else ~np.isnan(ep) & np.isnan(explicit)
                closed = prog_n[idx] >= prog_total[idx]
                steps = np.where(free & closed, ep, steps)
                stale_lines = free & ~closed
        if (plan.metrics or plan.is_summary) and after_clear is not None and next_prog is not None:
            inter = np.isnan(steps) & after_clear[idx] & ~np.isnan(next_prog[idx])
            steps = np.where(inter, next_prog[idx], steps)  # printed right between a clear and the redraw
        if stale_lines is not None:
            keep = ~stale_lines
            idx, got, steps, stale_lines = idx[keep], {c: v[keep] for c, v in got.items()}, steps[keep], None
            reads[r] = (plan, idx, got, {c: v[keep] for c, v in _bad.items()})
        if (plan.metrics or plan.is_summary) and (plan.is_record or plan.is_summary):
            missing = np.flatnonzero(np.isnan(steps))
            if len(missing):
                needs.append((idx[missing], r, missing))
        steps_of.append(steps)
    if needs:
        bar_steps.match_write_events(needs, events, glob, [rd[0] for rd in reads], [rd[2] for rd in reads], steps_of,
                                     st)
    elif len(events):
        st["events"] = (list(st.get("events", [])) + glob[events].tolist())[-MAX_EVENTS:]
    per_key: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]] = {}
    if views:  # no point, no step: the run's steps are its epoch records'
        train = [r for r in train if r not in views]
    placed = {name for r in train if has_position(reads[r][0]) or reads[r][0].epoch is not None
              for name in reads[r][0].metrics.values()}
    for r in train:  # a line with both a step and a fractional epoch gives the steps per epoch
        plan, idx, got, _bad = reads[r]
        if plan.epoch is not None:
            ep, steps = got[plan.epoch], steps_of[r]
            known = ~np.isnan(steps) & (ep > 0) & (ep % 1 != 0)
            if known.any():
                st["spe"] = float(steps[known][-1] / ep[known][-1])
    spe = st.get("spe") or (st["total"] / st["epochs"] if st.get("total") and st.get("epochs") else None)
    unplaced: list[tuple[np.ndarray, int]] = []  # (lines, read) of records placed by line order
    tabled: list[tuple[int, np.ndarray]] = []  # (read, its lines placed at a banner) of tables of splits
    under = banners.records_under_banners(reads, n, len(ctx), st, last_prog[:len(ctx)])
    after = _positions_after(lines, reads, n, nonblank, st)
    shown = live_display.bar_positions(lines, reads, n, nonblank, st)  # a record drawn right above its bar
    if shown is not None:
        after = shown if after is None else np.where(np.isnan(after), shown, after)
        if np.isfinite(shown).any():
            _epoch_total(st, em)  # (records at their bar's epoch: the run counted in epochs, ``Epoch n/N``'s N)
    tagged = _tagged_steps(reads, glob, at_epoch, n, st, len(ctx))
    hold = st.pop("_pa_hold", None)
    if hold:  # carried to the next read, read there with the line naming its position (``_read_block``)
        for r in train:
            plan, idx, got, bad = reads[r]
            keep = ~np.isin(idx, hold)
            if banners.has_no_position(plan) and not keep.all():
                reads[r] = (plan, idx[keep], {c: v[keep] for c, v in got.items()},
                            {c: v[keep] for c, v in bad.items()})
                steps_of[r] = steps_of[r][keep]
        st["pa_held"] = hold
    one_each = banners.one_under_each(reads, train, steps_of, under, after, st) if under is not None and not st.get(
        "epoch_counter") else set()
    done = objective_estimates.done_names(reads, train, st)  # epochs counted done after an initial value
    for r in train:
        plan, idx, got, _bad = reads[r]
        steps = steps_of[r]
        if (st.get("inner") and plan.epoch is not None and plan.step is None and plan.counter is None
                and set(plan.metrics.values()) & set(st.get("in_names", [])) and np.isnan(steps).any()):
            # the epoch's own record (``[Epoch 0] Finished in 0.066s, training loss: 0.9481``) of what its batch
            # lines print (``[Epoch 0][Batch 15][Samples 512] ... training loss: 0.9859``): no batch point (its last
            # printed batch is not its last; where it ends is known only once the next epoch starts)
            keep = ~np.isnan(steps)
            reads[r] = (plan, idx[keep], {c: v[keep] for c, v in got.items()}, {c: v[keep] for c, v in _bad.items()})
            plan, idx, got, _bad = reads[r]
            steps = steps[keep]
        if after is not None and banners.has_no_position(plan) and not plan.bar:
            steps = np.where(np.isnan(steps), after[idx], steps)  # the position the next line names
        if tagged is not None and plan.tag and banners.has_no_position(plan) and not plan.bar:
            steps = np.where(np.isnan(steps), tagged[idx], steps)  # the counter its tag's line before it printed
        if under is not None and banners.has_no_position(plan) and not plan.bar and not st.get("epoch_counter"):
            # (not where records count their batches under epochs of their own, ``Epoch: 1/8, Iter: 3/8``: a record
            # there sits at the current global step, not at a banner's epoch)
            u = under[idx]  # right under an epoch banner (``Epoch 3 ended.`` then ``\tLoss = 0.43``): that epoch's
            has = np.isnan(steps) & ~np.isnan(u)
            if has.any() and (plan.template or series_key(plan)) in one_each:  # (one record an epoch)
                steps = np.where(has, u, steps)
                if plan.split_table:
                    tabled.append((r, has))
        if plan.epoch is not None and plan.epoch_end and st["main_total"] and st["e0"] is not None:  # "end of epoch 3"
            steps = np.where(np.isnan(steps), (got[plan.epoch] - st["e0"] + 1) * st["main_total"], steps)
        if plan.epoch is not None and np.isnan(steps).any():
            ep = got[plan.epoch]
            if (ep % 1 != 0).any():
                st["frac_epochs"] = True  # epochs counted in fractions: 1.0 too is a point within the run
            frac = np.isnan(steps) & ((ep % 1 != 0) | bool(st.get("frac_epochs")) & (ep > 0))
            if spe and frac.any():
                at = ep * spe
                if st.get("log_every"):  # the epoch is rounded in print: snap to the logging grid
                    at = np.maximum(1, np.round(at / st["log_every"])) * st["log_every"]
                steps = np.where(frac, np.round(at), steps)
            whole = np.isnan(steps) & (ep % 1 == 0) & ~frac
            again = bar_steps.redrawn_record(plan, got, whole)  # (a bar's redraw of its description: the same record)
            its_own = whole.any() and (by_ep and r in by_epoch or not st.get("inner") and (np.isnan(
                last_prog[idx]).all() or _epoch_by_epoch(ep[whole], plan, lines[int(idx[0])], st)
                or not plan.bar and _bar_of_epochs(ep[whole], last_prog[idx][whole], st)))
            phased = epoch_phases.kept_phase(ep, _digest(plan.template.encode()) if plan.template else series_key(
                plan), st) if (
                its_own and whole.all() and not again.any() and not plan.bar and not by_ep and not st.get("inner")
                and np.isnan(last_prog[idx]).all()) else None  # (an epoch count restarting: the run's phases)
            if phased is not None and not phased.all():  # another phase's records: set aside
                reads[r] = (plan, idx[phased], {c: v[phased] for c, v in got.items()},
                            {c: v[phased] for c, v in _bad.items()})
                plan, idx, got, _bad = reads[r]
                steps, ep = steps[phased], ep[phased]
                whole = whole[phased]
            if its_own and (phased is not None or len(np.unique(ep[whole])) == int((whole & ~again).sum())):
                steps = np.where(whole, ep, steps)  # one record per epoch: the epoch is the step
                if by_ep:
                    _epoch_total(st, em)
        if (plan.step is None and plan.counter is None and plan.epoch is None and not plan.is_record
                and np.isnan(last_prog[idx]).all() and np.isnan(steps).all()):
            ep = at_epoch[idx]  # under epoch banners, one record an epoch: the epoch is its step
            if not np.isnan(ep).any() and (np.diff(ep) != 0).all():
                steps = np.where(np.isnan(steps), ep, steps)
                _epoch_total(st, em)
        if done and plan.epoch is not None and plan.step is None and plan.counter is None and not plan.initial and (
                set(plan.metrics.values()) & done):  # ``Epoch k``'s value after an initial one: k + 1 epochs done
            steps = np.where(steps == got[plan.epoch], steps + 1, steps)
        if plan.initial and (st.get("step") is None or objective_estimates.before_its_series(plan, st)):
            # before any training step, or any record of its own series: at step 0
            steps = np.where(np.isnan(steps) & np.isnan(last_prog[idx]), 0.0, steps)
        if plan.before:  # the model before its unit trains, printed before any counter: before training, at 0
            steps = np.where(np.isnan(steps) & np.isnan(last_prog[idx]), 0.0, steps)
        miss = np.flatnonzero(np.isnan(steps))
        if len(miss) and not by_ep:  # (counted in epochs: at the epoch record before, not at the bar's count)
            steps = steps.copy()
            steps[miss] = last_prog[idx[miss]] if bar_step is None else np.where(
                np.isnan(bar_step[idx[miss]]), last_prog[idx[miss]], bar_step[idx[miss]])
            miss = miss[np.isnan(steps[miss])]
        steps_of[r] = steps
        if len(miss):
            unplaced.append((idx[miss], r))
    if tabled:
        banners.first_table(reads, steps_of, tabled, st)
    n_now = sum(int((~np.isnan(steps_of[r])).sum()) for r in train)  # records placed in this read
    if unplaced or st.get("first_step") is None:
        placed_at = nan.copy()
        for r in train:
            placed_at[reads[r][1]] = steps_of[r]
        have = np.flatnonzero(~np.isnan(placed_at))
        if len(have) and st.get("first_step") is None:  # the log's first step (a line carried from before it)
            st["first_step"] = float(placed_at[have[0]])
        if len(have) and not st.get("positioned") and st.get("order_first"):  # an earlier read numbered by line
            st["revise"] = {**(st.get("revise") or {}), "order_first": True}  # order what positions place: again
        st["positioned"] = bool(st.get("positioned")) or bool(len(have))
    if unplaced:
        # In a log whose records have positions, a record without one sits at the current step; in a log with none,
        # records are numbered by line order (and the read says so).
        current = ffill(placed_at, st["step"]) if st["positioned"] else nan
        if st["positioned"]:  # before the first placed record: at the first one
            current = np.where(np.isnan(current), ffill(placed_at[::-1], None)[::-1], current)
            first = st.get("first_step")  # a line carried from before the log's first step: at that step
            for i, (_prog, step) in enumerate(ctx):
                if step is not None or first is not None:
                    current[i] = first if step is None else step
        n_placed = int((~np.isnan(placed_at)).sum())
        u_line = np.concatenate([u[0] for u in unplaced])
        u_read = np.concatenate([np.full(len(u[0]), u[1]) for u in unplaced])
        o = np.argsort(u_line, kind="stable")
        u_line, u_read = u_line[o], u_read[o]
        sizes = np.array([len(rd[1]) for rd in reads])
        # a record of a small series sits at the current step; the run's main series is numbered by line order;
        # in a read holding placed records, judged on the log so far too (``_series_so_far``)
        before = _series_so_far(reads, st)
        small = ~np.isnan(current[u_line]) & ((sizes[u_read] <= max(n_placed, 1)) | bool(n_placed) & (
            (before + sizes)[u_read] <= int(st.get("placed_n", 0)) + n_placed))
        numbered = ~small
        wait = _unjudged(u_line[numbered], reads, train, steps_of, st)
        if len(wait):  # read with the records after them, in the next read
            keep = ~np.isin(u_line, wait)
            u_line, u_read, numbered, small = u_line[keep], u_read[keep], numbered[keep], small[keep]
            for r in train:
                plan, idx, got, bad = reads[r]
                k = ~np.isin(idx, wait)
                if not k.all():
                    reads[r] = (plan, idx[k], {c: v[k] for c, v in got.items()}, {c: v[k] for c, v in bad.items()})
                    steps_of[r] = steps_of[r][k]
            st["pa_held"] = [*(st.get("pa_held") or ()), *wait.tolist()]
        placed_steps = np.where(small, current[u_line], st["order"] + np.cumsum(numbered))
        for r in np.unique(u_read).tolist():
            sel = u_read == r
            steps_of[r][bar_steps.positions(reads[r][1], u_line[sel])] = placed_steps[sel]
        has_loss = np.array([_has_loss(rd[0]) for rd in reads])
        if (numbered & has_loss[u_read]).any():
            st["by_order"] = True
        st["order"] += int(numbered.sum())
        if numbered.any() and not st["positioned"]:
            st["order_first"] = True  # (a later read placing records by their positions reads the file again)
    _count_series(reads, train, st, n_now)
    bar_sources: set[int] = set()  # the records that are bars' postfixes (a display) and those that are not
    line_sources: set[int] = set()
    stepped_sources: set[int] = set()  # the records that print a step of their own (``step 26: loss=55.7``)
    drawn_sources: set[int] = set()  # the records drawn right above a bar (``live_display``)
    _placed_late(placed, st)
    counted = st.setdefault("counted_names", [])  # names counted records gave in this read or an earlier one: one
    counted.extend(sorted(n for n in placed if n not in counted)[:max(0, MAX_PLACED_NAMES - len(counted))])
    placed |= set(st.get("placed_names") or ()) | set(counted)  # read of the whole file reads them all together
    for r in train:
        plan, idx, got, bad = reads[r]
        if not len(idx):
            continue  # (its lines carried to the next read)
        if _live_view(plan):
            plan = _unviewed(plan, recorded, st)
            if not plan.metrics:
                continue  # a live view of what records printing their position give: no point
        prefix = ""
        # (a record drawn right above its bar, ``live_display``: placed at the bar's epoch, a counted record)
        at_bar = shown is not None and bool(np.isfinite(shown[idx]).any())
        if at_bar:
            drawn_sources.add(hash(tuple(sorted(plan.metrics.values()))))
        if not has_position(plan) and plan.epoch is None and not at_bar and not placed & set(plan.metrics.values()):
            bare = st.setdefault("bare_names", [])  # names of records placed otherwise, read as they are
            bare.extend(n for n in plan.metrics.values() if n not in bare and len(bare) < MAX_PLACED_NAMES)
        if (not has_position(plan) and plan.epoch is None and not plan.initial and not at_bar
                and placed & set(plan.metrics.values())):
            # the names of counted records again, without a counter: a summary or an eval of them
            prefix = "val_" if any(_EVALISH.search(n) for n in plan.metrics.values()) else "avg_"
        _collect(plan, idx, steps_of[r], got, bad, per_key, prefix=prefix, rename_all=bool(prefix))
        if plan.step is not None:
            stepped_sources.add(hash(tuple(sorted(plan.metrics.values()))))
        if plan.bar and not prefix:
            bar_sources.add(hash(tuple(sorted(plan.metrics.values()))))
        elif plan.metrics:
            line_sources.add(hash(tuple(sorted(plan.metrics.values()))))
        if plan.bar or boxed_bars.boxed_bar(lines[int(idx[0])]):  # a value in a bar's postfix is redrawn with
            # every step until it is logged again: only its changes are points, each at the step it changed at
            # (Lightning's bar, tqdm's set_postfix; a bar drawn as a box before its percent: ``boxed_bars``)
            carried = st.setdefault("carried", [])
            carried.extend(k for k in (prefix + n if prefix else n for n in plan.metrics.values())
                           if k not in carried and len(carried) < 64)
    held = bar_steps.held_epoch(reads, train, steps_of, nonblank, st)
    have, numbers = bar_steps.train_steps_of(reads, train, steps_of, n)
    train_ff = _Filled(have, numbers, st["step"], [np.nan if step is None else step for _prog, step in ctx])
    if len(numbers):
        st["step"] = train_ff.last()
    for r, (plan, idx, got, bad) in enumerate(reads):
        if not plan.is_eval or not plan.metrics:
            continue
        if _live_view(plan):  # (an evaluation's bar or progress lines beside its epoch's record: ``Valid Summary``)
            plan = _unviewed(plan, recorded, st)
            if not plan.metrics:
                continue
        steps = steps_of[r]
        steps = np.where(np.isnan(steps), train_ff[idx], steps)
        if plan.eval_prefix != "val_":  # an evaluation announced before any training step: the initial one
            steps = np.where(np.isnan(steps), 0.0, steps)
        _collect(plan, idx, steps, got, bad, per_key, prefix=plan.eval_prefix)
    events_at: dict[str, list[np.ndarray]] = {}
    for plan, idx, _got, _bad in reads:
        if plan.event is not None:
            events_at.setdefault(plan.event, []).append(idx)
    for event, at in events_at.items():
        _count_events(event, np.sort(np.concatenate(at)), train_ff, st, per_key)
    names = st.setdefault("names", [])
    _known_again(lines, plans, st, set(names))
    names.extend(k for k in per_key if k not in names and len(names) < 256)
    columns = {}
    source: dict[str, np.ndarray] = {}  # which record (template) each point comes from
    for key, parts in per_key.items():
        if len(parts) == 1:  # one template's lines: in line order already
            li, s_, v_, src_ = parts[0]
            columns[key] = (li, s_, v_)
            source[key] = np.full(len(li), src_)
            continue
        li = np.concatenate([p[0] for p in parts])
        o = np.argsort(li, kind="stable")
        columns[key] = (li[o], np.concatenate([p[1] for p in parts])[o], np.concatenate([p[2] for p in parts])[o])
        source[key] = np.concatenate([np.full(len(p[0]), p[3]) for p in parts])[o]
    columns = dict(sorted(columns.items(), key=lambda kv: int(kv[1][0][0])))  # metrics in the order they appear
    # the run's loss, the most logged: a restart shows in it
    losses = [k for k in columns if name_role(k) == "train_loss" and not k.startswith(("val_", "avg_"))]
    losses = [k for k in losses if not _best_so_far(k)] or losses  # (a best so far is a report: ``reach best loss``)
    if losses and st.get("run_key") is None:  # the loss a restart is looked for in: the same in every read
        st["run_key"] = max(losses, key=lambda k: len(columns[k][0]))
    for key, (li, s, v) in columns.items():  # a display's record redrawing what a logger printed at its step
        if drawn_sources or key == st.get("run_key"):
            drop = live_display.redrawn(key, s, source[key], drawn_sources, st)
            if drop.any():
                columns[key], source[key] = (li[~drop], s[~drop], v[~drop]), source[key][~drop]
    main_li, main_steps = columns[st["run_key"]][:2] if st.get("run_key") in losses else (  # (a read without it: no
        np.zeros(0, np.int64), np.zeros(0))  # other loss's steps checked against its own: an epoch's, a step's)
    # each new run sets aside what came before
    cuts = np.array(bar_steps.run_starts(main_li, main_steps, st, len(ctx)), dtype=np.int64)
    if len(cuts):
        st["_cut_first"] = int(cuts[-1])  # (the lines carried on from before it: ``_aside_carried``)
    last_run = len(cuts)
    per_run: list[dict[str, tuple[np.ndarray, np.ndarray]]] = [{}, {}]  # before the first cut, after the last
    between: dict[str, int] = {}  # points of the runs between the first and the last cut (set aside unread)
    shown_last: set[str] = set()  # keys whose last point is of this read's last run
    bar_only = bar_sources - line_sources
    lagging = bar_sources - stepped_sources  # a bar's values with no step printed beside them: drawn where it lags
    for key, (li, s, v) in columns.items():
        src_k = source[key]
        if bar_only and len(src_k) > 1 and bool((src_k != src_k[0]).any()) and key in st.get("carried", ()):
            # a record printed with its step (d3rlpy's epoch record) and a bar's postfix at that step: the record is
            # the value logged, the bar a display of it (a running mean, rounded)
            on_bar = np.isin(source[key], list(bar_only))
            drop = on_bar & np.isin(s, s[~on_bar])
            if drop.any():
                li, s, v, source[key] = li[~drop], s[~drop], v[~drop], source[key][~drop]
        src = source[key]  # (another record's point at the same step is a point)
        if lagging:
            li, s, v, src = bar_steps.without_placeholder(key, li, s, v, src, np.isin(src, list(lagging)), st)
        by_unit = np.zeros(len(s), dtype=bool)  # points the grid put one per unit (no redraws among them)
        if ((st.get("first_state") or lag_line is not None) and lagging and key in st.get("carried", ())
                and not st.get("ctr_epochs") and not st.get("stale_bar")):  # (a stale bar's values: at their epochs)
            on_bar = np.isin(src, list(lagging))  # a value set every d units, drawn by a lagging bar: its grid
            if lag_line is not None:
                on_bar &= lag_line[li]  # (a new loop in the read: the lines of a loop that does not lag, none)
            if on_bar.any():
                li, s, v, src = bar_steps.on_log_grid(key, li, s, v, src, on_bar, (bar_at, bar_counts), st, ahead)
                by_unit = bar_steps.one_per_unit(key, st) & np.isin(src, list(lagging))
        run = np.searchsorted(cuts, li, side="right") if last_run else np.zeros(len(li), dtype=np.int64)
        last = np.ones(len(s), dtype=bool)  # a bar redrawn at the same step: its last state holds
        moved = (s[1:] != s[:-1]) | (run[1:] != run[:-1]) | (src[1:] != src[:-1])
        if lag_line is not None and key in st.get("carried", ()):  # (a new loop in the read: each line as its loop)
            first_own = lag_line[li]
            last[1:] = np.where(first_own[1:], moved, True)
            last[:-1] &= np.where(first_own[:-1], True, moved)
        elif st.get("first_state") and key in st.get("carried", ()):
            last[1:] = moved  # a postfix drawn before its counter moves: a step's first state is its own
        else:
            last[:-1] = moved
        if not last.all():
            s, v, run, li, src, by_unit = s[last], v[last], run[last], li[last], src[last], by_unit[last]
        if held is not None and key in held[1]:
            keep = s != held[0]  # the epoch's row still redrawn: its last redraw comes with the next read
            s, v, run, li, src, by_unit = s[keep], v[keep], run[keep], li[keep], src[keep], by_unit[keep]
        n_kept = len(s)
        s, v, run, li = bar_steps.same_state_as_before(key, s, v, run, li, src, st)
        if last_run and len(run) and run[-1] == last_run:
            shown_last.add(key)  # (its last state is the run shown's)
        by_unit = by_unit[n_kept - len(s):]  # (the points it drops open the block)
        if key in st.get("carried", ()):  # an evaluation drawn before any was made: no point (``boxed_bars``)
            keep = boxed_bars.before_measured(key, s, v, run, st)
            if not keep.all():
                s, v, run, li, src, by_unit = s[keep], v[keep], run[keep], li[keep], src[keep], by_unit[keep]
        if key in st.get("carried", ()):
            changed = by_unit.copy()  # (a value the grid placed once per unit repeats as it was set: each a point)
            logged = set_logs[li[~by_unit]] if st.get("first_state") or lag_line is not None else None  # (a unit's
            # set: a log)
            ends = None if bar_end is None else bar_end[li[~by_unit]]  # (where the bar stood: ``bar_steps.bar_at_end``)
            changed[~by_unit] = bar_steps.value_changes(v[~by_unit], st, key, run[~by_unit], s[~by_unit], logged, ends)
            s, v, run = s[changed], v[changed], run[changed]
        for side, sel in enumerate((run == 0, run == last_run) if last_run else (run == 0,)):
            if sel.any():
                per_run[side][key] = (s[sel], v[sel])
        inside = int(((run > 0) & (run < last_run)).sum())
        if inside:
            between[key] = inside
    for key, (s, v) in per_run[0].items():
        em.extend(key, s.astype(np.int64), v)
    if last_run:  # a key's last state of a run set aside (this read's last run shows none of it): no later redraw
        last_states = st.get("last_state") or {}
        for key in [k for k in last_states if k not in shown_last]:
            del last_states[key]
        length = em.total_steps  # (the read's epochs counted: ``Epoch 3/3``'s 3, the last run's as a read of it alone)
        em.new_run()
        em.skip_runs(last_run - 1, between)
        st["events"], st["order"] = [], 0
        if st.get("total") and per_run[1]:  # the last run's lines gave its length too (``step 5/150``)
            em.total_steps = int(st["total"])
        elif length and per_run[1] and st.get("epochs") and length == whole_count(st["epochs"]):
            em.total_steps = length
        for key, (s, v) in per_run[1].items():
            em.extend(key, s.astype(np.int64), v)
    return last_prog, train_ff


MAX_PAIRS = 16  # templates of two counters a log's state follows (``_paired_counters``)


def _paired_plan(plan: Plan, key: str, st: dict) -> Plan:
    """A plan of two counters ``n/N`` on one record (``Plan.pair``), keyed by its loose template: once their counts
    showed the outer to be the epoch and the inner the batch within it (``_paired_counters``), read so (the epoch and
    the counter under it: ``bar_steps.progress_steps`` gives (epoch - first) x M + m); refuted, as it reads without
    them; undecided, as without, the counts followed."""
    decided = (st.get("pairs") or {}).get(key)
    if decided is False:
        return replace(plan, pair=None)
    if not decided:
        return replace(plan, pair_key=key)
    assert plan.pair is not None
    (o, ot), inner = plan.pair
    own = plan.counter == inner  # (a batch's counter already: its own marks kept)
    return replace(plan, epoch=o, epoch_total=ot, counter=inner, step=None, step_total=None,
                   counter_bare=plan.counter_bare and own,
                   counter_share=plan.counter_share and own, parts=(), step_like=None, step_like_rises=False,
                   pair_key=key)


def _paired_counters(reads: list[tuple[Plan, np.ndarray, dict[int, np.ndarray], dict[int, np.ndarray]]],
                     st: dict) -> None:
    """Whether each record's two counters (``Plan.pair``: ``Train: 3/6  Sample: 51/60``) are an epoch and a batch
    within it, on their counts in line order over the reads: both totals constant, each count within its total; the
    outer never goes back, and moves only where the inner goes back (the next epoch's first batch printed) or stays
    at its first count or its total (one print an epoch, at its first batch or its last: ``Sample: 1/15``; a count
    held elsewhere, an evaluation's ``Samples: [128/1536]`` beside each epoch, is none); while the outer stays, the
    inner climbs. Decided True at the
    outer's first move with nothing against it (pinned, the file read again from its start knowing it: the lines
    before were read without it); False at the first count against it (after a True: pinned and read again). The
    last counts of each pair kept in ``st["pair_last"]`` (at most ``MAX_PAIRS``; decisions at most 4 x as many)."""
    rows: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    for plan, idx, got, _bad in reads:
        if plan.pair is None or not plan.pair_key:
            continue
        (o, ot), (i, it) = plan.pair
        rows.setdefault(plan.pair_key, []).append((idx, np.column_stack([got[o], got[ot], got[i], got[it]])))
    if not rows:
        return
    pairs = dict(st.get("pairs") or {})
    last = st.setdefault("pair_last", {})
    for key, parts in rows.items():
        if pairs.get(key) is False or key not in last and (len(last) >= MAX_PAIRS or len(pairs) >= 4 * MAX_PAIRS):
            continue  # (refuted; or past the caps: a hostile log of many such templates reads them as without)
        idx = np.concatenate([p[0] for p in parts])
        c = np.concatenate([p[1] for p in parts])[np.argsort(idx, kind="stable")]
        c = c[~np.isnan(c).any(axis=1)]
        if not len(c):
            continue
        before = last.get(key)
        if before is not None:
            c = np.vstack((np.array(before[:4], dtype=float), c))
        o, ot, i, it = c.T
        do, di = np.diff(o), np.diff(i)
        against = bool((ot != ot[0]).any() or (it != it[0]).any() or (o > ot).any() or (i > it).any() or (
            do < 0).any() or ((do == 0) & (di <= 0)).any() or ((do > 0) & (di > 0)).any() or (
            (do > 0) & (di == 0) & (i[1:] > 1) & (i[1:] != it[1:])).any())
        moved = bool(before is not None and before[4]) or bool((do > 0).any())
        last[key] = [*(float(x) for x in c[-1]), moved]
        if against:
            if pairs.get(key):  # read as an epoch and its batch: read again knowing they are not
                st["revise"] = {**(st.get("revise") or {}), "pairs": {**pairs, key: False}}
            pairs[key] = False
            last.pop(key, None)
        elif moved and not pairs.get(key):
            pairs[key] = True
            st["revise"] = {**(st.get("revise") or {}), "pairs": dict(pairs)}
    st["pairs"] = pairs


MAX_TAGS = 64  # tags whose last counter ``_tagged_steps`` keeps between reads


def _tagged_steps(reads: list[Read], glob: np.ndarray, at_epoch: np.ndarray, n: int, st: dict,
                  first: int) -> np.ndarray | None:
    """The step of each line opened by a tag (``Plan.tag``: PyTorch-BigGraph's partition pair ``( 1 , 1 ):``) at the
    counter the last line of the same tag printed before it, within the same epoch or part (``at_epoch``, the
    banner's): the record of a unit of work whose counter line came first (``( 1 , 1 ): bucket 2 / 4 : Processed
    ...`` then ``( 1 , 1 ): loss: 2.75 , ...``), whatever other tags' lines come between (processes or parts
    worked on side by side); NaN where no such line came before it in its part (``( 1 , 1 ): Stats before training:
    ...``, printed before its unit's counter: placed as any record with no position, at the last step), or with no
    tag; None when no line of the read has a tag. Each tag's last counter and its part are kept in ``st`` (at most
    ``MAX_TAGS``, the newest). The lines before ``first`` (carried from the read before) keep the step they were
    printed at."""
    parts = [(idx, np.column_stack([got[f] for f in plan.tag]), plan.counter is not None and not plan.is_eval)
             for plan, idx, got, _bad in reads if plan.tag and len(idx)]
    if not parts:
        return None
    width = max(p[1].shape[1] for p in parts)
    line = np.concatenate([p[0] for p in parts])
    tags = np.vstack([np.pad(p[1], ((0, 0), (0, width - p[1].shape[1])), constant_values=-1.0) for p in parts])
    is_ctr = np.concatenate([np.full(len(p[0]), p[2]) for p in parts])
    keys, inv = np.unique(np.nan_to_num(tags, nan=-2.0), axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    order = np.lexsort((line, inv))
    line, inv, is_ctr = line[order], inv[order], is_ctr[order]
    step = np.where(is_ctr, glob[line], np.nan)
    part = np.where(is_ctr, at_epoch[line], np.nan)
    have = ~np.isnan(step)
    mem: dict = st.get("tags") or {}
    start = np.concatenate(([True], inv[1:] != inv[:-1]))
    seed = np.flatnonzero(start & ~have)
    if mem and len(seed):  # a tag's first lines here before its counter: its counter from the reads before
        row_of = {tuple(float(x) for x in name.split(",")): was for name, was in mem.items()}
        for k in seed.tolist():
            was = row_of.get(tuple(x for x in keys[int(inv[k])].tolist() if x != -1.0))
            if was is not None:
                step[k], part[k] = was[0], np.nan if was[1] is None else was[1]
    valid = have | start
    pos = np.maximum.accumulate(np.where(valid, np.arange(len(line)), 0))
    prev_step, prev_part = step[pos], part[pos]
    own = at_epoch[line]
    same = (prev_part == own) | (np.isnan(prev_part) & np.isnan(own))
    out = np.full(n, np.nan)
    out[line] = np.where(same, prev_step, np.nan)
    out[:first] = np.nan
    h = np.flatnonzero(have)  # each tag's last counter line (a tag's lines are together, in line order)
    last = h[np.concatenate((inv[h][1:] != inv[h][:-1], [True]))] if len(h) else h
    for k in last[np.argsort(line[last], kind="stable")][-MAX_TAGS:].tolist():  # (the newest only are kept)
        name = ",".join(str(int(x)) for x in keys[int(inv[k])].tolist() if x != -1.0)  # (whole numbers: read so)
        mem.pop(name, None)
        mem[name] = [float(step[k]), None if np.isnan(part[k]) else float(part[k])]
    while len(mem) > MAX_TAGS:
        mem.pop(next(iter(mem)))
    st["tags"] = mem
    return out


EPOCH_LENGTH_SCAN = 4 << 20  # bytes of a log searched for its epoch's length (``_positions_after``)


def _unjudged(lines: np.ndarray, reads: list[Read], train: list[int], steps_of: list[np.ndarray],
              st: dict) -> np.ndarray:
    """Of the lines of records with no position about to be numbered by line order (``lines``), the ones held to
    the next read: in a log whose records have steps, a read whose placed records are a first one only or none (no
    series placed recurs in it yet, by a step of its own or a bar's) cannot tell a few lines with no step
    (openTSNE's phase banner ``Running optimization with exaggeration=12.00, lr=16.67``, printed before its records)
    from the run's main series; read with the records after them, they sit at the current step as one read of the
    whole file places them. A few only (``MAX_UNJUDGED``): the main series is numbered as it comes. (Lines small
    over the log so far, ``_series_so_far``, are placed, not held.)"""
    if not st.get("positioned") or not len(lines) or len(lines) > MAX_UNJUDGED or any(
            int((~np.isnan(steps_of[r])).sum()) >= 2 for r in train):
        return np.zeros(0, dtype=np.int64)
    return lines.astype(np.int64)


def _series_so_far(reads: list[Read], st: dict) -> np.ndarray:
    """Each read's records of its series in the reads before (0 for a series not counted): with this read's, set
    against the records placed so far (``st["placed_n"]``), a series of lines with no step is small over the log
    so far as one read of it judges it (MindSpore's TimeMonitor line ``Train epoch time: 625.888 ms``, one an
    epoch, twice in a read holding one epoch's record)."""
    seen = st.get("series_n") or {}
    return np.array([int(seen.get(series_key(plan), 0)) if plan.metrics else 0 for plan, _i, _g, _b in reads])


def _count_series(reads: list[Read], train: list[int], st: dict, n_now: int) -> None:
    """Keep the counts ``_series_so_far`` reads: the records placed so far and each series' (at most
    ``MAX_COUNTED`` series; lines held to the next read are counted there)."""
    st["placed_n"] = int(st.get("placed_n", 0)) + n_now
    seen = st.setdefault("series_n", {})
    for r in train:
        key = series_key(reads[r][0])
        if key in seen or len(seen) < MAX_COUNTED:
            seen[key] = int(seen.get(key, 0)) + len(reads[r][1])


MAX_COUNTED = 64  # series counted by ``_count_series``


def _positions_after(lines: Sequence[bytes], reads: list[Read], n: int, nonblank: np.ndarray,
                     st: dict) -> np.ndarray | None:
    """The step of each record with no position of its own whose next line names only a position, an epoch and a
    batch within it (FuxiCTR's ``Train loss: 0.68`` then ``Evaluation @epoch 2 - batch 8:``): the global batch
    (epoch - first epoch) x batches per epoch + batch, the epoch's length said once (``32 batches/epoch``,
    ``_EPOCH_LENGTH``; unknown: the first epoch's records only); NaN elsewhere; None when the log has no such line
    yet. Decided at the log's first such line (kept in ``st``; pinned and the file read again when an earlier read
    placed records): only when a record with no position came before it (a position line that heads the records
    after it, ``Epoch: 1, Batch: 10`` then ``loss: 0.5``, is not this). Such a record at the block's end (its next
    line the last, a young file's unfinished one) is held (``st["_pa_hold"]``): carried to the next read, where its
    position line comes."""
    if st.get("epoch_len") is None and st.get("pa") is not False and st.get("el_scan", 0) < EPOCH_LENGTH_SCAN:
        text = lines.text if isinstance(lines, TextLines) else b"\n".join(lines)
        st["el_scan"] = st.get("el_scan", 0) + len(text)
        m = epoch_length(text) if b"epoch" in text else None
        if m:
            st["epoch_len"] = int(m.group(1) or m.group(2)) or None
    pos_e, pos_b = np.full(n, np.nan), np.full(n, np.nan)
    rec = np.zeros(n, dtype=bool)
    kind = np.full(n, -1)  # which record each line is (an index into ``kinds``)
    kinds: list[str] = []
    for plan, idx, got, _bad in reads:
        if plan.position is not None:
            pos_e[idx], pos_b[idx] = got[plan.position[0]], got[plan.position[1]]
        elif plan.metrics and banners.has_no_position(plan) and not plan.bar and not plan.is_eval:
            rec[idx] = True
            kind[idx] = len(kinds)
            kinds.append(",".join(sorted(plan.metrics.values()))[:128])
    at = np.flatnonzero(~np.isnan(pos_e))
    if st.get("pa") is None:
        if not len(at):
            st["pa_rec"] = bool(st.get("pa_rec")) or bool(rec.any())
            return None
        st["pa"] = bool(st.get("pa_rec")) or bool(rec[:at[0]].any())
        st["pa_e0"] = float(pos_e[at[0]])
        if st["pa"] and st.get("pa_rec"):  # an earlier read placed its records otherwise: read again knowing it
            st["revise"] = {**(st.get("revise") or {}), "pa": True, "pa_e0": st["pa_e0"]}
    if not st["pa"]:
        return None
    spe = st.get("epoch_len")
    nb = np.flatnonzero(nonblank)
    nxt = np.full(n, -1)
    nxt[nb[:-1]] = nb[1:]
    out = np.full(n, np.nan)
    r = np.flatnonzero(rec & (nxt >= 0))
    j = nxt[r]
    named = st.setdefault("pa_kinds", [])  # the records a position line has followed
    for k in np.unique(kind[r[~np.isnan(pos_e[j])]]).tolist():
        if kinds[k] not in named and len(named) < MAX_EPOCH_KINDS:
            named.append(kinds[k])
    last = nb[-1] if len(nb) else -1
    end = rec & np.isin(kind, [k for k, name in enumerate(kinds) if name in named]) & ((nxt < 0) | (nxt == last))
    end &= (nxt < 0) | np.isnan(pos_e[np.maximum(nxt, 0)])  # (its position line here already: placed now)
    st["_pa_hold"] = np.flatnonzero(end).tolist() or None
    e, b = pos_e[j], pos_b[j]
    if spe:
        out[r] = (e - float(st["pa_e0"])) * float(spe) + b
    else:  # the epoch's length unknown: the first epoch's records only
        out[r] = np.where(e == float(st["pa_e0"]), b, np.nan)
    return out


MAX_EPOCH_KINDS = 64  # record kinds whose epochs ``_epoch_by_epoch`` follows


def _stale_bars(prog_n: np.ndarray, prog_total: np.ndarray, valued: np.ndarray, at_epoch: np.ndarray,
                st: dict) -> bool:
    """Whether the run's bars draw their values at a counter that never moves (torchkeras' tqdm bar under its
    ``Epoch 3 / 8`` banner: ``0/16 [..., train_loss=0.784]`` redrawn each batch, then ``16/16 [..., train_loss=0.197]``
    its close): such a redraw has no step of its own (issue 32: a bar's redraws give one point per change of the
    logged value at its step; this count shows none), and the close holds the value the run keeps for the epoch (a
    running mean, or the epoch's own record set at its last batch). Decided at the first close of a bar that drew
    values, under an epoch banner known by then: stale if two or more values were drawn at 0 since the close before
    and none at a count between 0 and the total (kept in ``st``; a read before the decision placed the redraws
    otherwise: the file is read again knowing it)."""
    if "stale_bar" in st:
        return bool(st["stale_bar"])
    at = np.flatnonzero(valued & ~np.isnan(prog_n))
    if not len(at):
        return False
    pn, pt, ep = prog_n[at], prog_total[at], at_epoch[at]
    moved = (pn > 0) & (pn < pt)
    ends = np.flatnonzero(moved | (pn >= pt) & ~np.isnan(ep))  # (a close under no known banner yet tells nothing)
    closes = np.flatnonzero(pn >= pt)
    seen = bool(st.get("stale_seen"))
    st["stale_seen"] = True
    if not len(ends):
        last = int(closes[-1]) + 1 if len(closes) else 0
        st["stale_zeros"] = (0 if len(closes) else int(st.get("stale_zeros", 0))) + int((pn[last:] == 0).sum())
        return False
    k = int(ends[0])
    prior = closes[closes < k]
    zeros = int((pn[int(prior[-1]) + 1 if len(prior) else 0:k] == 0).sum()) + (
        0 if len(prior) else int(st.get("stale_zeros", 0)))
    st["stale_bar"] = stale = bool(not moved[k] and zeros >= 2)
    if stale and seen:
        st["revise"] = {**(st.get("revise") or {}), "stale_bar": True}
    return stale


def _bars_restart(prog_n: np.ndarray, bar_line: np.ndarray, st: dict) -> None:
    """Whether progress bars start again (a bar per call: a counter that goes back), kept in ``st`` with the last
    bar count; learnt after a record ``_epoch_by_epoch`` would have placed at its epoch, it is pinned and the file read
    again from its start (the same points whatever the reads' sizes)."""
    if st.get("bars_restart"):
        return
    at = np.flatnonzero(bar_line & ~np.isnan(prog_n))
    if not len(at):
        return
    seq = prog_n[at]
    last = st.get("bar_n")
    if last is not None:
        seq = np.concatenate(([float(last)], seq))
    if (np.diff(seq) < 0).any():
        st["bars_restart"] = True
        if st.get("ebe_waits"):
            st["revise"] = {**(st.get("revise") or {}), "bars_restart": True}
    else:
        st["bar_n"] = float(seq[-1])


def _epoch_by_epoch(ep: np.ndarray, plan: Plan, line: bytes, st: dict) -> bool:
    """A record opening with its own whole epoch as an integer, one an epoch counted by one (``Epoch 3 | J: -91.6``;
    ``line``: one of its lines), with only progress bars of no epoch drawn between the records (an RL library's
    rollouts and evaluation episodes, restarting per call): the epoch it prints is its step, not the bars' running
    count. Not where a counter under an epoch was seen (``Epoch[1] Iteration[10/30]``: the run counts batches in
    epochs; ``st["epoch_counter"]``). Kept in ``st`` per record kind across reads (its last epoch, and whether every
    epoch so far came one after the other)."""
    if plan.bar or plan.counter is not None or not len(ep) or st.get("epoch_counter") or plan.epoch is None or (
            plan.metrics and plan.epoch > min(plan.metrics)):
        return False  # (a record that opens with its epoch: HF's dict names its epoch last, where a bar wrote it)
    spans = _spans(line[:4096])
    if plan.epoch >= len(spans) or b"." in line[spans[plan.epoch][0]:spans[plan.epoch][1]]:
        return False  # an epoch printed with a decimal point (HF's ``'epoch': 2.0``) counts in fractions
    if not st.get("bars_restart"):
        st["ebe_waits"] = True  # placed by the bars until they restart: then read again (``_bars_restart``)
        return False
    seen = st.setdefault("ebe", {})
    key = ",".join(sorted(plan.metrics.values()))[:128]
    last, ok = seen.get(key, (None, True))
    seq = ep if last is None else np.concatenate(([last], ep))
    ok = bool(ok) and bool((np.diff(seq) == 1).all())
    if key in seen or len(seen) < MAX_EPOCH_KINDS:
        seen[key] = (float(ep[-1]), ok)
    return ok


def _bar_of_epochs(ep: np.ndarray, prog: np.ndarray, st: dict) -> bool:
    """Records each naming their own whole epoch under a bar that counts the run's epochs (tqdm over the epochs,
    ``Epochs :  62%|...| 31/50``, the records every few epochs, ``Epoch: 30\tFidelity = 0.87``): the bar's count
    before each record is never ahead of the epoch it prints by more than the one the loop has begun, the bar has
    moved and never restarted (no bar of each epoch's batches), and its total holds every epoch printed. The epoch
    printed is the step; the bar's count is no step of the records (redrawn when tqdm's clock says, not at each
    record). Not for a bar's own records (its postfix)."""
    total = st.get("main_total")
    known = ~np.isnan(prog)
    if not total or st.get("bars_restart") or not known.any() or float(ep.max()) > float(total):
        return False
    return bool((prog[known] <= ep[known] + 1).all() and (prog[known] >= 1).any())


def _collect(plan: Plan, idx: np.ndarray, steps: np.ndarray, got: dict[int, np.ndarray], bad: dict[int, np.ndarray],
             per_key: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]], prefix: str,
             rename_all: bool = False) -> None:
    ok = ~np.isnan(steps) & (np.abs(steps) < 9e18)
    # one record's lines, whatever their padding; Keras' meter is one record an epoch, its last redraw with the evals
    source = -2 if plan.per_epoch else hash(tuple(sorted(plan.metrics.values())))
    for f, name in plan.metrics.items():
        key = name
        if prefix and (rename_all or not name.lower().startswith(_EVAL_PREFIX)):
            key = prefix + name
        keep = ok & ~bad[f] if f in bad else ok
        if plan.partial_first and name_role(name) == "train_loss":
            keep = keep & (steps != 0)  # one update's loss among sums of many (spaCy's first row)
        if name in DIALECT.zero_is_absent:
            keep = keep & (got[f] != 0)  # printed as zero when it was not computed
        if plan.updates is not None and plan.updates != f:
            keep = keep & ~(np.isnan(got[f]) & (got[plan.updates] == 0))  # a mean over no update yet: no value
        if keep.all():  # (no copy of what every line keeps)
            per_key.setdefault(key, []).append((idx, np.round(steps), got[f], source))
        elif keep.any():
            per_key.setdefault(key, []).append((idx[keep], np.round(steps[keep]), got[f][keep], source))


def _known_again(lines: Sequence[bytes], plans: list[tuple[Plan, np.ndarray]], st: dict, seen: set[str]) -> None:
    """A record read once in this block whose names were read in an earlier one recurs across blocks: its template
    is known, as one read of both blocks would know it (a live log read in parts keeps the cursor of one read)."""
    known = st["known"]
    for plan, idx in plans:
        if len(idx) != 1 or not plan.metrics or len(known) >= MAX_KNOWN:
            continue
        if all(n in seen or "val_" + n in seen for n in plan.metrics.values()):
            key = templates_of(lines[int(idx[0])]).translate(None, b" \t\x01").decode("latin-1")
            if key not in known:
                known.append(key)
                known.sort()


def _negative_nans(lines: Sequence[bytes], idx: np.ndarray, got: dict[int, np.ndarray],
                   bad: dict[int, np.ndarray]) -> None:
    """C's ``-nan`` (a NaN with its sign bit set) is a NaN: the fields read as no number that hold it, in place."""
    for c, mask in bad.items():
        for row in np.flatnonzero(mask)[:MAX_EVENTS].tolist():
            line = lines[int(idx[row])]
            if b"-" + NAN_MARK not in line:
                continue
            spans = _spans(line)
            if c < len(spans) and line[spans[c][0]:spans[c][1]] == b"-" + NAN_MARK:
                got[c][row], mask[row] = np.nan, False


def _summary_length(plan: Plan, got: dict[int, np.ndarray], st: dict, em: Emitter) -> None:
    """The run's length from HF's final summary when nothing else gave it (no header, no bar: ``disable_tqdm``):
    ``train_runtime`` x ``train_steps_per_second`` steps over its ``epoch`` epochs; the records' fractional epochs
    are then steps (``epoch`` x steps per epoch)."""
    fields = {name: f for f, name in plan.summary.items()}
    runtime, rate = fields.get("train_runtime"), fields.get("train_steps_per_second")
    if runtime is None or rate is None or plan.epoch is None or st.get("total"):
        return
    steps, epochs = float(got[runtime][-1] * got[rate][-1]), float(got[plan.epoch][-1])
    if math.isfinite(steps) and steps >= 1 and math.isfinite(epochs) and epochs > 0:
        em.total_steps = st["total"] = round(steps)
        st["epochs"] = st.get("epochs") or epochs
        if st.get("order"):  # records of earlier reads numbered by line order: they are at epoch x steps per epoch
            st.setdefault("revise", {}).update({"total": st["total"], "epochs": st["epochs"]})


MAX_STUCK = 64  # records' step fields remembered as stuck
MAX_STEP_LIKE = 64  # keys named as a step's statistic remembered


def _opener_of_stepped_kind(plan: Plan, st: dict) -> bool:
    """Whether a line seen once opens with a number under a word naming no metric (``Plan.step_like_rises``) whose
    kind of record (that name over the same other names) another template already has as its step (``_step_like``,
    ``steplike_last``) and never saw go back: pyabc's DEBUG ``New eps, t=1, eps=10.73...`` before its INFO ``t: 1,
    eps: 1.07e+01.``, each kind's record at ``t``. Read in the read it is in (never carried to the next, whose points
    would come after the later line's at that step), as one read of the file reads it."""
    k = plan.step_like
    if not plan.step_like_rises or k is None or k not in plan.metrics:
        return False
    name = plan.metrics[k]
    kind = ",".join(sorted(m for f, m in plan.metrics.items() if f != k))
    if not kind:
        return False
    track = name + "\x00" + kind
    back = st.get("steplike_back") or ()
    if name in back or track in back:
        return False
    return any(t == track or t.startswith(track + "\x00") and t not in back for t in st.get("steplike_last") or {})


def _step_like(plan: Plan, lines: Sequence[bytes], idx: np.ndarray, values: BlockValues, st: dict,
               climbed: dict[str, float], template: str = "") -> tuple[Plan, np.ndarray]:
    """A key named as a statistic of a step (rlberry's ``| max_global_step = 3 | loss = ... |``) in a record naming
    no position of its own: the record's step while its values are whole numbers that never go back, over the reads
    so far (``climbed``: where each such key was when this read began); a step printed again with one more tag is the
    same record (the last print at a step holds). Once they go back (an episode's length), a metric: learned after
    earlier reads placed records at it, the file is read again from its start knowing it (``_revise``). Records
    tagged by a worker (``[worker: 1]``: agents fitted side by side, each counting its own steps) are read from the
    lowest worker seen printing them, as a launcher's ranks are (``streams.py``): the others' lines are no points
    (a lower one seen after reads that placed a higher one's: pinned, the file read again). A number opening the
    record under a word naming no metric (``Plan.step_like_rises``) must rise at every record of its template
    (``template``, its digest): two templates of one kind (pyabc's ``t: 3, eps: ...`` and its DEBUG ``New eps, t=3,
    eps=...`` before it) each rise on their own, whatever read each falls in."""
    k = plan.step_like
    name = plan.metrics.get(k) if k is not None else None
    back = list(st.get("steplike_back") or ())
    # each kind of record on its own (its other names): an eval report's count going back (ParlAI's final `valid:`
    # of the best model, `total_train_updates` of its checkpoint) leaves the train records' count their step
    kind = ",".join(sorted(m for f, m in plan.metrics.items() if f != k))
    track = name + "\x00" + kind if name is not None else ""  # (where a kind of record was in the reads before: a
    # whole read knows no other)
    if plan.step_like_rises and template:
        track += "\x00" + template  # (an opening number: its template's records alone, as one read sees them)
    if k is None or name is None or name in back or track in back or name + "\x00" + kind in back:
        return plan, idx
    every = idx
    if plan.worker is not None:
        got, bad = _read(lines, idx, [plan.worker], values)
        w = got[plan.worker]
        if len(w) and not (plan.worker in bad and bad[plan.worker].any()):
            lows = dict(st.get("steplike_worker") or {})
            low = float(np.min(w))
            if name in lows and low < lows[name] and any(t.split("\x00")[0] == name
                                                         for t in st.get("steplike_last") or {}):
                st.setdefault("revise", {})["steplike_worker"] = {**lows, name: low}
                return plan, idx[w == low]  # (read again from the file's start: this read's points are not kept)
            if name in lows or len(lows) < MAX_STEP_LIKE:
                lows[name] = min(low, lows.get(name, low))
                st["steplike_worker"] = lows
            idx = idx[w == lows.get(name, low)]
            if not len(idx):
                return plan, idx
    got, bad = _read(lines, idx, [k], values)
    v = got[k]
    rises = plan.step_like_rises  # (an opening number: no value repeated, in this read or from the one before)
    # (an opening number rises record by record of one template: ``Checkpoint [4]\tTrain-ppl=`` then ``Checkpoint
    # [4]\tValidation-ppl=`` is no step gone back, whatever read each falls in)
    before = climbed.get(track)
    if k in bad and bad[k].any() or not len(v) or not bool(np.isfinite(v).all()) or bool(
            (v != np.floor(v)).any() or (v < 0).any() or (np.diff(v) <= 0 if rises else np.diff(v) < 0).any()) or (
            before is not None and (float(v[0]) <= before if rises else float(v[0]) < before)):
        if len(back) < MAX_STEP_LIKE:
            st["steplike_back"] = [*back, track]
            if before is not None:  # earlier reads placed records at it
                st.setdefault("revise", {})["steplike_back"] = st["steplike_back"]
        return plan, every
    last = st.setdefault("steplike_last", {})
    if track in last or len(last) < MAX_STEP_LIKE:
        last[track] = max(float(v[-1]), last.get(track, 0.0))
    return replace(plan, step=k, metrics={f: m for f, m in plan.metrics.items() if f != k}, step_like=None), idx


def _between(stepped_at: np.ndarray, idx: np.ndarray) -> tuple[int, int, int]:
    """How many lines of other records with a step of their own come before ``idx``'s first line, between its lines,
    and after its last line in the block (``stepped_at``: every such line, ``idx``'s among them)."""
    if not len(idx):
        return 0, 0, 0
    lo, hi = int(np.searchsorted(stepped_at, idx[0])), int(np.searchsorted(stepped_at, idx[-1], side="right"))
    return lo, hi - lo - len(idx), len(stepped_at) - hi


def _stuck_step(plan: Plan, steps: np.ndarray, st: dict, others: tuple[int, int, int] = (0, 0, 0)) -> bool:
    """Whether a template's step field never moves from its start: scikit-learn's ``partial_fit`` called in a loop
    prints ``Iteration 1, loss = ...`` at every call. Eight records or more at one step of 0 or 1, over the reads so
    far (or any number of them once that was seen); then the records have no step of their own. Seen after earlier
    reads placed some of them at that step, it is a fact learned late: the file is read again from its start knowing
    it (``_revise``), so that its records are numbered as one read of the whole file numbers them. Only records
    printed one after the other count: another record with a step of its own between them (``others``: such lines
    before, between and after them in the block) means the run goes on around them (a run restarted in the same
    log, its evaluation at step 0 each time), and the count starts again."""
    if plan.is_eval or not plan.metrics or not len(steps):
        return False
    ident = "\x00".join(sorted(plan.metrics.values()))
    seen = st.setdefault("stuck_seen", {})  # per record's names: [its one step, records at it so far]
    if not (steps == steps[0]).all() or abs(steps[0]) > 1:
        seen.pop(ident, None)
        return False
    stuck = st.setdefault("stuck", [])
    if ident in stuck:
        return True
    if others[1]:  # other records with steps among them: no stuck step
        seen.pop(ident, None)
        return False
    before = seen.get(ident)
    if before is not None and (before[0] != float(steps[0]) or others[0]):
        before = None
    n = len(steps) + (int(before[1]) if before is not None else 0)
    if n < 8:
        if others[2]:
            seen.pop(ident, None)
        elif ident in seen or len(seen) < MAX_STUCK:
            seen[ident] = [float(steps[0]), n]
        return False
    seen.pop(ident, None)
    if len(stuck) < MAX_STUCK:
        stuck.append(ident)
    if before is not None:  # earlier reads placed some of these records at that step
        st.setdefault("revise", {})["stuck"] = list(stuck)
    return True


def _counts_progress(n: np.ndarray, total: np.ndarray) -> bool:
    """Whether ``n/total`` counts progress. Not when the count stays while the "total" moves (``0/200``, ``0/400``,
    ``0/600``: DeepSpeed's timer prints epoch/step), nor when most lines have a total of their own (``5/6``,
    ``6/7``: a running pair, no bar): the bars of one template (a run's, its evaluation's) have a few totals."""
    totals = len(np.unique(total))
    if len(n) >= 3 and bool((n == n[0]).all()) and totals > 2:
        return False
    return not (len(total) >= 8 and totals > max(8, len(total) // 4))


def _epoch_total(st: dict, em: Emitter) -> None:
    """Records counted in epochs: the run's length is its epoch count."""
    if st.get("epochs"):
        em.total_steps = whole_count(st["epochs"])


def _count_events(name: str, idx: np.ndarray, train_ff: _Filled, st: dict,
                  per_key: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]]) -> None:
    """Event lines (``Dialect.event_markers``) counted, cumulatively over the log, at the train step they happen at
    (the first step before any)."""
    counts = st.setdefault("counts", {})
    before = int(counts.get(name, 0))
    counts[name] = before + len(idx)
    steps = train_ff[idx]
    per_key.setdefault(name, []).append((idx, np.where(np.isnan(steps), 0.0, steps),
                                         before + np.arange(1, len(idx) + 1, dtype=np.float64), -1))


def _epochs_setting(lines: Sequence[bytes], st: dict) -> None:
    """The run's epoch count from the settings printed at its start (``Namespace(..., epochs=12, ...)``): read once,
    from the first block (bounded)."""
    if st.get("epochs") or st.get("settings_read"):
        return
    st["settings_read"] = True
    head = b"\n".join(lines[:MAX_PENDING])[:1 << 16]
    m = _EPOCHS_SETTING.search(head) if b"epochs" in head else None
    if m:
        st["epochs"] = int(m.group(1)) or None


def _epoch_loss(name: str) -> bool:
    """A train loss named an epoch's (``train_loss_epoch``, ``epoch_loss``): among records with steps of their own,
    a one-off line of it is the epoch's mean at the step it was printed at (a run cut short in its second epoch)."""
    return name_role(name) == "train_loss" and "epoch" in _NAME_PARTS.split(name.lower())


def _final_evals(st: dict, em: Emitter) -> None:
    """One-off lines that are an evaluation's result (``| End of training | test loss 4.74 | test ppl 114.6``) or an
    epoch's train loss among stepped records (``_epoch_loss``): points at the step they were printed at, once the read
    ends (a line seen once is otherwise no series)."""
    keep = []
    lines = [p for p in st.get("pending", []) if isinstance(p, list)]
    codes = st.get("eb_carried") or [0] * len(lines)  # what each sits under (``banners.carry_eval_banners``)
    code_of = {id(p): c for p, c in zip(lines, codes, strict=False)}
    for p in st.get("pending", []):
        at = p[2] if isinstance(p, list) and p[2] is not None else st.get("run_first")  # before any: the first
        if not isinstance(p, list) or at is None:
            keep.append(p)
            continue
        line = p[0].encode("latin-1")
        plan = plan_template([line])
        if plan is not None and any(n.lower().startswith(("best", "final")) for n in plan.metrics.values()):
            keep.append(p)  # a report of an earlier point ("Best val accuracy"), not an evaluation
            continue
        summary = plan is not None and plan.epoch_total is not None and bool(st.get("explicit")) and _has_loss(plan)
        if plan is None or has_position(plan) or plan.is_summary or not plan.metrics or not summary and not all(
                name_role(n) == "eval" and ("loss" in n or "ppl" in n or _EVALISH.search(n))
                or _epoch_loss(n) and bool(st.get("explicit")) for n in plan.metrics.values()):
            keep.append(p)
            continue
        got, bad = _read([line], np.zeros(1, dtype=np.int64), plan.positions)
        for f, name in plan.metrics.items():
            if f not in bad:  # an epoch's summary among records with steps: "Epoch 1/1 with loss 0.57"
                em.add(int(at), "epoch_" + name if summary else name, float(got[f][0]))
    if len(keep) < len(st.get("pending", ())):
        kept = [p for p in keep if isinstance(p, list)]
        if st.get("banner_end") == 2 and (not kept or kept[-1] is not lines[-1]):
            st["banner_end"] = 0  # the last read's last line, read now: no banner
        codes = [code_of.get(id(p), 0) for p in kept]
        st["eb_carried"] = codes if any(codes) else None
    st["pending"] = keep


__all__ = ["DIALECT", "TextLogFormat", "read_block"]
