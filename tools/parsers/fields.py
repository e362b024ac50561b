"""What each field of a template means, read once per template from a few of its lines: the third step of the
engine.

Fields are the runs between separators that ``templates.value_text`` makes (a separator is any byte but a number
character, a letter, ``_`` and non-ASCII). A field is a number when it is one in a sample line (a float literal,
the NaN mark, or inf spelled as a number); its name is the key before it (``loss=``, ``'loss': '``, ``lm loss:``,
``train-rmse:``, ``training's l2:``, up to ``Dialect.name_words`` words); two numbers around a ``/`` are a counter
(``9/94``, ``step:10/5000``, ``Epoch 1/10``); a number in brackets opening the line is an iteration (boosting's
``[15]``). The dialect then says which named numbers are the step, the epoch, or nothing. All work here is per
template, bounded by the line cap: never per line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..roles import infer_role, is_bare_running_best
from ..thresholds import is_threshold
from . import objective_estimates
from .arrow_splits import arrow_metric
from .dialect import DIALECT, Dialect
from .incumbents import keep_best, progress_best
from .tab_tables import numbered_stem, tab_header
from .templates import NAN_MARK, NUMBER_CHARS, VALUE_DELETE, reads_as_float
from .text_tail_rows import text_start

_SEP = bytes(c for c in range(256) if c not in NUMBER_CHARS and c not in VALUE_DELETE and c != 10)
_IS_SEP = [c in _SEP for c in range(256)]
_NAME_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./@-'") | frozenset(
    range(128, 256))
_SKIP_BEFORE = frozenset(b" \t:='\"[(")
_LETTERS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") | frozenset(range(128, 256))
_NAME_START = _LETTERS | frozenset(b"_'")
MAX_FIELDS = 4096  # a template with more fields is not a metric line
NOT_A_NAME = "\x00"  # the words before a number name no metric (a source file, prose): the number is nothing


@dataclass
class Plan:
    """How to read one template's lines."""

    n_fields: int
    metrics: dict[int, str] = field(default_factory=dict)  # field -> metric name
    step: int | None = None  # field of an explicit step (or iteration)
    epoch: int | None = None
    epoch_total: int | None = None  # field of the epoch count (``Epoch 1/10``)
    counter: tuple[int, int] | None = None  # fields (n, N) of a progress counter within an epoch or over the run
    counter_bare: bool = False  # the counter is a nameless [n/N] (not a batch's or an it/s bar's)
    #: the counter is followed by its share in percent in parentheses (``[640/60000 (1%)]``, the PyTorch MNIST
    #: example's family): a count that may be of samples, not batches (``bar_steps.sample_counts``)
    counter_share: bool = False
    step_total: int | None = None  # field of the run's length (``step:10/5000``)
    is_eval: bool = False
    is_summary: bool = False
    is_record: bool = False  # a printed dict/JSON record: a series even when seen once
    bar: bool = False  # a progress bar (tqdm's ``37%||``)
    zero_based: bool = False  # the framework logs step n of a 1-based counter as n - 1 (``Dialect.zero_based``)
    event: str | None = None  # the line is an event counted under this name (``Dialect.event_markers``)
    epoch_end: bool = False  # the record closes its epoch (``end of epoch 3``): it sits at the epoch's last step
    eval_prefix: str = "val_"  # what an eval's names are prefixed with
    per_epoch: bool = False  # a meter of the epoch's running averages (``Dialect.epoch_bar_markers``): step = epoch
    summary: dict[int, str] = field(default_factory=dict)  # field -> a final summary's name (``train_runtime``)
    partial_first: bool = False  # a table summing its losses since the row before: its row at step 0 is no loss point
    epoch_row: bool = False  # a table's row whose step is its ``n/N`` epoch cell: its redraws are one epoch's point
    #: a bar's redraw at its epoch's end whose description names that end (``Epoch 3/10 - Finished: 100%|...|
    #: 20/20 [..., loss=0.15; val_loss=0.22]``): the epoch's record, no bar (``bar_steps.epoch_done_bar``)
    epoch_done: bool = False
    initial: bool = False  # read once before a recurring record naming the same: that series' first point
    under_banner: bool = False  # a named step n/N read as the counter of the epoch banner it is printed under
    updates: int | None = None  # field of the updates count (``Dialect.update_counts``): at 0, a NaN is no value
    #: a line naming only a position, an epoch and a batch within it (FuxiCTR's ``Evaluation @epoch 2 - batch 8:``):
    #: fields (epoch, batch), the position of a record printed right before it (``engine._positions_after``)
    position: tuple[int, int] | None = None
    #: the step is a batch counter under the epoch with no total (``Epoch: 002 | Batch: 015 | Loss: 0.89``): it
    #: restarts each epoch; the epoch's length is inferred from it (``engine._continue_inner``)
    inner: bool = False
    #: a metric's field named as a statistic of a step (rlberry's ``max_global_step``) in a record naming no position:
    #: the record's step when its values climb as a step's do (``engine._step_like``)
    step_like: int | None = None
    #: ``step_like`` is a whole number opening the record under a word naming no metric (``round 3:``): a step only
    #: while its values rise at every record (one repeated is a constant tag, a rank's or a zone's, no position)
    step_like_rises: bool = False
    #: field of a table's worker (or rank) column: the rows of the lowest one seen are the run's (``engine._emit``);
    #: or of a ``worker`` tag (``[MCValue[worker: 0]]``): with ``step_like``, each worker counts its own steps
    worker: int | None = None
    #: a metric's row of a table whose columns are splits (``tables_text.split_named``): the epoch's report, at the
    #: epoch of the banner above it whatever bars the epoch drew between (``banners.records_under_banners``)
    split_table: bool = False
    #: an epoch's summary line whose words name a mean and a phase (``Avg Train Metrics --- Loss: 2.51``): the epoch's
    #: report, placed as a table of splits is and the run's record of what bars beside it draw (``epoch_reports``)
    epoch_report: bool = False
    #: fields of a tag in parentheses opening the record (a partition pair's ``( 1 , 0 ):``, PyTorch-BigGraph's): which
    #: of the things a run works on in turn the line is about, like a rank's or a worker's tag; no value, no step. A
    #: record with no position of its own sits at the counter of the last line of its tag (``engine._tagged_steps``)
    tag: tuple[int, ...] = ()
    #: the record measures the model before its unit of work trains (``Dialect.heading_prefixes``): printed before
    #: any counter, it is the model before training, at step 0
    before: bool = False
    #: an epoch banner's counters after its epoch (``Starting epoch 3 / 8, edge path 1 / 1, edge chunk 2 / 3``): fields
    #: (n, N) of each part the epoch is worked through in, outermost first; the banner opens part ((e - 1) x P + p - 1)
    #: x C + c of the run's E x P x C (``banners.epoch_parts``)
    parts: tuple[tuple[int, int], ...] = ()
    #: two counters ``n/N`` on one record, not both known as an epoch's and a batch's (kornia.x's ``Train: 3/6
    #: Sample: 51/60 Loss: ...``, any words naming them): fields ((n, N) outer, (m, M) inner), read as the epoch and the
    #: batch within it once their counts show it (the outer moves only where the inner goes back or stays, the inner
    #: climbs while the outer stays: ``engine._paired_counters``); until then the plan reads as it would without
    pair: tuple[tuple[int, int], tuple[int, int]] | None = None
    pair_key: str = ""  # the loose template's digest the pair is decided by (set per read block)
    #: the digest of the line template this plan reads, set per read block (``engine._read_block``): the records of
    #: one template sit one under each banner or are never placed by banners (``banners.one_under_each``)
    template: str = ""
    #: fields of counters named a batch's between the epoch and the step, outermost first (jenn's ``epoch = 0, batch =
    #: 1, iter = 7``): the step restarts when any of them moves on (``nested_counters``), no values
    outer: tuple[int, ...] = ()

    @property
    def positions(self) -> list[int]:
        """Every field to read, in order."""
        out = set(self.metrics) | set(self.summary)
        for f in (self.step, self.epoch, self.epoch_total, self.step_total, self.updates, self.worker):
            if f is not None:
                out.add(f)
        if self.position:
            out.update(self.position)
        if self.counter:
            out.update(self.counter)
        out.update(self.tag)
        for part in self.parts:
            out.update(part)
        for pair in self.pair or ():
            out.update(pair)
        out.update(self.outer)
        return sorted(out)


def _spans(line: bytes) -> list[tuple[int, int]]:
    """(start, end) of every field of ``line`` (as value_text splits it)."""
    spans = []
    start = 0
    is_sep = _IS_SEP
    for i, c in enumerate(line):
        if is_sep[c]:
            spans.append((start, i))
            start = i + 1
    spans.append((start, len(line)))
    return spans


_UNIT_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ%")


def _number(seg: bytes) -> bool:
    """A float literal, the NaN mark, or a number with a unit of up to three letters (``216ms``, ``4.89G``: the
    value text drops the letters)."""
    if not seg:
        return False
    if seg.translate(None, NUMBER_CHARS):
        i = len(seg)
        while i > 0 and seg[i - 1] in _UNIT_CHARS and seg[i - 1] not in b"eE":
            i -= 1
        if not 0 < len(seg) - i <= 3 or not seg[:i] or seg[:1] not in b"0123456789.+-":
            return False
        seg = seg[:i]
        if seg.translate(None, NUMBER_CHARS):
            return False
    return reads_as_float(seg)


def _is_setting(name: str) -> bool:
    """A name written as a constant (upper case words joined by ``_``: yacs/detectron2 config dumps)."""
    return "_" in name and name.isupper() and " " not in name


def _share_after(rep: bytes, end: int) -> bool:
    """Whether ``rep[end:]`` opens with a share in percent in parentheses, `` (12%)`` or `` (12.5%)``, a counter's
    (``[ 32/256 (12%)]``): plain byte checks over at most 16 bytes."""
    if rep[end:end + 2] != b" (":
        return False
    close = rep.find(b"%)", end + 2, end + 16)
    share = rep[end + 2:close]
    return close > end + 2 and share[:1].isdigit() and share.replace(b".", b"", 1).isdigit()


def _int(seg: bytes) -> bool:
    return seg.isdigit() and len(seg) <= 18


def _name_before(line: bytes, start: int, dialect: Dialect) -> str | None:
    """The key just before ``line[start]``: skip ``: = ' "`` and blanks, then up to ``name_words`` words of name
    characters separated by single blanks; each word must hold a letter."""
    i = start - 1
    while i >= 0 and line[i] in _SKIP_BEFORE:
        i -= 1
    if (split_named := _split_named(line, start, i, dialect)) is not None:
        return split_named
    unit = split = ""
    if i >= 0 and line[i] == 0x29:  # ")": a qualifier, "Epoch(train) [2]", names the word before it
        j = line.rfind(b"(", max(0, i - 32), i)
        if j > 0:
            qualifier = line[j + 1:i].decode("utf-8", "replace")
            if qualifier in dialect.time_units:
                unit = f" ({qualifier})"  # a unit stays: "elapsed time per iteration (ms)"
            elif qualifier.lower() in dialect.split_rows:
                split = dialect.split_rows[qualifier.lower()]  # a split: "loss(val)" is val_loss, "loss(train)" loss
            i = j - 1
            while i >= 0 and line[i] in b" \t":
                i -= 1
    words: list[bytes] = []
    while i >= 0 and len(words) < dialect.name_words:
        j = i
        while j >= 0 and line[j] in _NAME_CHARS:
            j -= 1
        word = line[j + 1: i + 1]
        tail = word[word.rfind(b"/") + 1:]
        if word and word[0] not in _NAME_START and tail and tail[0] in _NAME_START:
            words.append(tail)  # "epoch=9/micro_step=10/global_step=4150": the name is after the "/"
            break
        if word[:1] == b"@" and word[1:2] and word[1] in _LETTERS:
            words.append(word[1:])  # "Evaluation @epoch 2": the name after an "at" sign
            break
        if not word or not any(c in _LETTERS for c in word) or not (word[0] in _LETTERS or word[0] in b"_'"):
            break  # a name starts with a letter: "1.00e-04 grad_norm" is a number, then the name
        words.append(word)
        if len(words) == 1:
            head = j + 1  # (where the word right before the value starts)
        if j >= 4 and line[j] == 32 and _nan_word(line, j - 3, j) and len(words) < dialect.name_words:
            words.append(b"nan")  # "number of nan iterations": the word nan was masked as a number
            j -= 4
        if j < 1 or line[j] != 32 or line[j - 1] not in _NAME_CHARS:
            break  # a name's words are one blank apart
        i = j - 1
    if not words:
        return None
    if not unit and not split and words[0].decode("latin-1").lower() in dialect.split_rows:
        metric = arrow_metric(line, head, dialect)  # ``loss -> Train: 3.43 | Validation: 2.56``: the split's loss
        if metric:
            return f"{words[0].decode('latin-1')} {metric}"[:80]
    words.reverse()
    quoted = [k for k, w in enumerate(words[:-1]) if len(w) > 2 and w[:1] == w[-1:] == b"'" and w[1] in _NAME_START]
    if quoted and b" ".join(words[quoted[-1] + 1:]).decode("latin-1").lower() in dialect.value_verbs:
        words = [words[quoted[-1]]]  # a quoted name, then a verb (Lightning's ``'train_loss' reached -0.05``)
    names = [w.decode("utf-8", "replace").strip("'.-/") for w in words]
    names = _without_value_verb(names, dialect)
    capitals = all(n.isupper() for n in names)  # a name written in capitals throughout (``CHANGE IN COST``)
    while len(names) > 1 and (names[0].lower() in dialect.level_words or (
            names[0].isupper() and len(names[0]) > 2 and not capitals) or names[0].lower() in dialect.prose_words):
        names = names[1:]  # "INFO train loss", "Epoch 1/1 with loss": the name is what follows
    name = " ".join(n[:-2] if n.endswith("'s") else n for n in names if n)
    if not name:
        return None
    if not _is_name(name, dialect):
        return NOT_A_NAME
    if split and name.lower() not in dialect.epoch_names | dialect.step_names and not name.lower().startswith(split):
        name = split + name
    return (name + unit)[:80]


MAX_SPLIT_NAME = 96  # bytes of a ``split | quantity`` name before its colon


def _split_named(line: bytes, start: int, end: int, dialect: Dialect) -> str | None:
    """The name of a ``name : value`` line whose name holds a split (a population, a data set) and a quantity apart
    by one `` | `` (pfl's ``    Train population | loss before local training     : 0.895``, ``Central val | loss :
    0.5``): the whole text before the colon, its padding gone, blanks single. Only where the value is the line's
    last token, the colon right after the name (padded or not), the name the line's whole text after its indent, its
    two parts words of a name (each at most ``name_words``, starting with a letter, the first no level or prose
    word). A ``|``-bordered row (``| loss | 0.5 |``) has borders at its ends and no such colon: never one. Else
    None (the name is read as before). One look at the line's head: linear."""
    if end < 1 or end > MAX_SPLIT_NAME + 64 or line[end + 1:start].strip() != b":" or b" " in line[start:].strip():
        return None
    head = line[:end + 1].strip()
    if not 3 < len(head) <= MAX_SPLIT_NAME or head.count(b"|") != 1 or b" | " not in head:
        return None
    parts = [p.split() for p in head.split(b"|")]
    for words in parts:
        if not words or len(words) > dialect.name_words:
            return None
        for w in words:
            if w[0] not in _LETTERS or any(c not in _NAME_CHARS and c not in b"()" for c in w):
                return None
    first = parts[0][0].decode("latin-1").lower()
    if first in dialect.level_words or first in dialect.prose_words:
        return None
    name = " | ".join(" ".join(w.decode("utf-8", "replace") for w in words) for words in parts)
    return name if _is_name(name, dialect) else None


def _step_after_words(low: str, dialect: Dialect) -> bool:
    """A name of words ending in a step's (``finished step``, ``global optimizer step``) before a counter ``n/N``: the
    run's step, as the step's name alone would be; a statistic of it (``max step``), a position (``step of``) and the
    short names (``it``, ``s``, a bar's rate) stay what they are."""
    words = low.split()
    return (len(words) > 1 and len(words[-1]) > 2 and words[-1] in dialect.step_names
            and not set(words) & (dialect.statistic_words | dialect.position_words))


def _metric_at_step(name: str, dialect: Dialect) -> str | None:
    """A metric's name, a preposition, a word that picks the step, then the step's name (``Loss on this step: 19.7``,
    ``loss for the iteration``, ``loss per step``): the metric measured at the step, named by the words before the
    preposition (returned); no step itself. A preposition right before the step's name is a position, the step's
    number after it (``validation loss at iteration 100 |``, ``Average loss at step 2000: 4.52``)."""
    words = name.split()
    at = next((i for i, w in enumerate(words) if w.lower() in dialect.position_words or w.lower() == "per"), 0)
    head = " ".join(words[:at])
    picked = len(words) > at + 2 or at and words[at].lower() == "per"
    if at > 0 and picked and words[-1].lower() in dialect.step_names and infer_role(head).role != "other":
        return head
    return None


def _ends_in_step(low: str, dialect: Dialect) -> bool:
    """A key of joined words ending in a step's name (``max_global_step``, ``total_global_step``): a statistic of
    the step, read as a metric, unless the record names no position of its own and its values climb as a step's
    do (``engine._step_like``): then the record's position. A run's length (``total_steps``, a skip name) and the
    short names (``s``, ``it``) are not."""
    words = low.replace("_", " ").split()
    return (len(words) > 1 and "_" in low and " " not in low and len(words[-1]) > 2 and words[-1] in dialect.step_names
            and words[-1] not in dialect.time_units)


def _without_value_verb(names: list[str], dialect: Dialect) -> list[str]:
    """A metric's name, then a verb that says the value is its (``loss is 1.52``: MindSpore's ``LossMonitor``; ``the
    loss was 0.3``): the name without the verb, when what comes before the verb names a metric by itself (a loss, an
    accuracy, a rate); prose ending in a verb (``but hysteresis is``) stays prose."""
    lowered = [n.lower() for n in names]
    for k in (2, 1):
        if len(names) > k and " ".join(lowered[-k:]) in dialect.value_verbs:
            rest = [n for n in names[:-k] if n.lower() not in dialect.prose_words]
            return names[:-k] if rest and infer_role(" ".join(rest)).role != "other" else names
    return names


def _aside(line: bytes, start: int, name: str, dialect: Dialect) -> bool:
    """The number at ``line[start]`` is named by a word of ``Dialect.aside_words`` right after a ``(`` that follows
    another number (``reached -0.05 (best -0.05)``, ``loss 0.52 (avg: 0.61)``): a statistic of that value."""
    if name.lower() not in dialect.aside_words:
        return False
    p = line.rfind(b"(", max(0, start - 24), start)
    if p < 1 or line[p + 1:start].strip(b" \t:='\"").lower() != name.lower().encode("utf-8", "replace"):
        return False
    before = line[:p].rstrip(b" \t,")
    return bool(before) and (before[-1:].isdigit() or before.endswith((b"%", NAN_MARK)))


def _after_unit(line: bytes, start: int, name: str, dialect: Dialect) -> bool:
    """The number at ``line[start]`` is in parentheses right after a number and its unit of time (PyTorch-BigGraph's
    ``Processed 1454 edges in 1.46 s ( 0.00099 M/sec )``): the unit is the number's before it, no name of this one
    (a rate, a statistic of it); ``s`` there is no step."""
    if name.lower() not in dialect.time_units:
        return False
    p = line.rfind(b"(", max(0, start - 8), start)
    if p < 0 or line[p + 1:start].strip():
        return False
    before = line[max(0, p - 32):p].rstrip()  # (a window: bounded per number)
    word = before[len(before) - len(name):]
    rest = before[:len(before) - len(name)]
    return word.decode("latin-1") == name and rest[-1:] in (b" ", b"\t") and rest.rstrip()[-1:].isdigit()


def _of_estimate(line: bytes, start: int, name: str, dialect: Dialect) -> bool:
    """The number at ``line[start]`` is named by a statistic of an estimate (``Dialect.estimate_statistics``) inside
    a bracket opened right after another number (``Energy=-8.31 [σ²=7.6e+00, R̂=1.006]``, the value's error already
    gone: ``lines.without_errors``): a statistic of that value, no point of its own."""
    if name.lower() not in dialect.estimate_statistics:
        return False
    p = line.rfind(b"[", max(0, start - 96), start)
    if p < 1 or b"]" in line[p:start]:
        return False
    before = line[:p].rstrip(b" \t")
    return bool(before) and (before[-1:].isdigit() or before.endswith(NAN_MARK))


def _is_name(name: str, dialect: Dialect) -> bool:
    """A metric's name, not a source location (``logging.py``), a bar's drawing (``━━━``), prose (``reducing to``)
    or a setting's count (``Total Micro Batches``)."""
    if not any(ch.isalpha() for ch in name):
        return False
    words = name.lower().split()
    if "." in words[-1] and words[-1].rsplit(".", 1)[1] in dialect.source_suffixes:
        return False
    if words[-1] in dialect.prose_words:
        return False
    if _class_path(name):
        return False
    return not (len(words) > 1 and words[0] == "total" and words[-1] in dialect.count_nouns)


def _counted_noun(line: bytes, end: int, dialect: Dialect) -> int:
    """Where the counted noun right after a number ending at ``end`` ends (``8 images,``: one blank, then a word of
    ``Dialect.counted_nouns`` (or ``Dialect.length_units``) closed by a blank, a comma, a colon or the line's end,
    and not followed by a number
    it names), else 0."""
    if line[end:end + 1] != b" ":
        return 0
    i = end + 1
    j = i
    while j < len(line) and j - i <= 16 and line[j] in _LETTERS:
        j += 1
    if j == i or j < len(line) and line[j] not in b" \t,:;.)]":
        return 0
    if line[j:j + 1] in (b" ", b"\t") and line[j + 1:j + 2].isdigit():
        return 0  # "epoch 0 batch 9/64": the word names the number after it
    word = line[i:j].decode("latin-1").lower()
    return j if word in dialect.counted_nouns or word in dialect.length_units else 0


def _counted_position(line: bytes, opening: int, start: int, end: int, dialect: Dialect) -> bool:
    """The count at ``line[start:end]`` before a unit of a run's length, singular or plural, closed by a comma or
    a colon, opening the record after at most a split's word (BrainPy's ``Train 2 steps, use 1.05 s, loss 2.16``,
    ``Test 0 epoch, ...``): the record's position, no count in prose (``for 100 steps``, ``until 8 epochs``)."""
    head = line[opening:start].split()
    if len(head) > 1 or line[end:end + 1] != b" ":
        return False
    if head:
        word = head[0].rstrip(b":").decode("latin-1").lower()
        if word not in dialect.bare_names and word not in dialect.eval_words:
            return False
    i = j = end + 1
    while j < len(line) and j - i <= 16 and line[j] in _LETTERS:
        j += 1
    if j == i or line[j:j + 1] not in (b",", b":"):
        return False
    noun = line[i:j].decode("latin-1").lower()
    return noun in dialect.length_units or noun + "s" in dialect.length_units


def _bracketed_length(line: bytes, start: int, noun_end: int, dialect: Dialect) -> bool:
    """The number at ``line[start]`` and its unit of a run's length fill a bracket of their own (snorkel's
    ``[10 epochs]: TRAIN:[loss=0.107]``): a record's position, not a count in prose (``until 8 epochs``)."""
    if line[start - 1:start] != b"[" or line[noun_end:noun_end + 1] != b"]":
        return False
    word = line[line.rfind(b" ", start, noun_end) + 1:noun_end].decode("latin-1").lower()
    return word in dialect.length_units


def _class_path(name: str) -> bool:
    """A Python class by its module path (``models.common.Conv``, ``torch.nn.modules.conv.Conv2d``: a model
    summary's row), not a metric."""
    parts = name.split(".")
    return len(parts) >= 3 and parts[-1][:1].isupper() and all(p.isidentifier() for p in parts)


def _nan_word(line: bytes, a: int, b: int) -> bool:
    """Whether the NaN mark at ``line[a:b]`` is the word nan inside a name (Megatron's ``number of nan iterations:
    0``): a word before it and one after it, one blank apart, the one after it closed by ``:`` or ``=``."""
    if a < 2 or line[a:b] != NAN_MARK or line[a - 1] != 32 or line[a - 2] not in _LETTERS or line[b:b + 1] != b" ":
        return False
    j = b + 1
    while j < len(line) and line[j] in _LETTERS:
        j += 1
    return j > b + 1 and line[j:j + 1] in (b":", b"=")


def _in_name(line: bytes, a: int) -> bool:
    """A number glued after ``@`` to a name is part of it (``Acc@1``, ``R@10``)."""
    return a >= 2 and line[a - 1] == 0x40 and line[a - 2] in _LETTERS


def _progress_mark(line: bytes, a: int) -> bool:
    """The percent at ``line[a]`` (followed by ``%]``) fills its brackets, which follow a word (``Finished [100%]:``,
    ``Sampling [ 50%]``): a progress mark, no metric's value."""
    i = a - 1
    while i >= 0 and line[i] == 32:
        i -= 1
    if i < 1 or line[i] != 0x5B:  # "["
        return False
    i -= 1
    if line[i] == 32:
        i -= 1
    return i >= 0 and line[i] in _LETTERS


def _unit(samples: list[bytes], k: int, dialect: Dialect) -> str:
    """The time unit glued to field ``k``'s number in the samples (``216ms``: ``ms``), or ""."""
    for line in samples:
        sp = _spans(line)
        if k < len(sp):
            seg = line[sp[k][0]:sp[k][1]]
            tail = seg.lstrip(b"0123456789.+-eE")
            if tail and tail != seg and _number(seg):
                unit = tail.decode("ascii", "replace")
                return unit if unit in dialect.time_units else ""
    return ""


def metric_name(name: str, dialect: Dialect = DIALECT, unit: str = "") -> str:
    """The name a metric is read under: a split's bare name is its loss, a framework's abbreviation its usual name
    (``Dialect.aliases``), a time unit glued to the number kept (``train_time_ms``)."""
    low = name.lower()
    if low in dialect.bare_names:
        return str(dialect.bare_names[low])
    name = str(dialect.aliases.get(name, name))
    if unit and not low.endswith(unit) and not name.endswith(")"):
        name = f"{name}_{unit}"
    return name


def header_names(line: bytes) -> list[str] | None:
    """The column names of a table's header row (``Epoch  gpu_mem  box ...``; a progress bar after it is cut), or
    None when the line is no header: three or more blank-separated names, each starting with a letter."""
    bar = line.find(b"%||")
    if bar >= 0 and b"=" in line[bar:]:
        return None  # a bar whose description is words (``Training epochs on cpu: 5%|| 2/40 [.., loss=1.1]``)
    tokens = before_bar(line).split()
    if not 3 <= len(tokens) <= 64 or not all(t[:1].isalpha() and b"=" not in t and b"," not in t and not _is_pair(t)
                                             for t in tokens):
        # a tab-separated header, its cells maybe numbered (``1:ItNr	2:Metric``: ``tab_tables``)
        return tab_header(line) if b"\t" in line and bar < 0 else None
    if says_what_it_names([t.decode("latin-1") for t in tokens]):
        return None
    return [t.decode("utf-8", "replace").rstrip(":") for t in tokens]


def says_what_it_names(words: Sequence[str]) -> bool:
    """Words one blank apart where some, not all, end in a colon and the last does not: a name and what it says
    (CHGNet's ``training targets: e``, ``Begin Training: using cpu device``), no table's header (whose names end in a
    colon all or none: ``Iter: Loss: Acc:``)."""
    colons = sum(w.endswith(":") for w in words)
    return 0 < colons < len(words) and not words[-1].endswith(":")


_BORDER_CELLS = frozenset(ch.encode() for ch in "|\u2502\u2503\u2551\u00a6")  # | │ ┃ ║ ¦


def _mostly_values(row: bytes) -> bool:
    """At least half the blank-separated cells of ``row`` are values (a number, ``n/N``, a bracketed array, a time
    ``0:01:02``, NaN): a table's row, not a line of words that happens to have a header's cell count."""
    cells = [c for c in row.split() if c not in _BORDER_CELLS]  # a table's borders are no cells
    values = sum(1 for c in cells if c[:1] in b"0123456789+-.[" or c.lower() in (b"nan", b"inf", b"-", b"--"))
    return 2 * values >= len(cells)


_RATE_AFTER = re.compile(rb"[ \t]*[A-Za-z_]*/s(?:ec)?\b")


def _rate_after(rep: bytes, end: int) -> bool:
    """A per-second unit right after ``a/b`` (eole's and OpenNMT's ``5060/5992 tok/s``: source and target tokens a
    second): two rates, no progress count ``n/N``."""
    return _RATE_AFTER.match(rep, end, end + 24) is not None


def _is_pair(token: bytes) -> bool:
    """``name:value`` in one token (``step:10/1000``, ``train_loss:3.2``): a record's pair, not a column name."""
    i = token.find(b":")
    return 0 < i < len(token) - 1 and token[:i].replace(b"_", b"").replace(b"/", b"").isalpha() \
        and token[i + 1:i + 2] in b"0123456789+-."


_GLUED_BORDER = re.compile(rb"(?<=[0-9A-Za-z.])\|(?=[-+.0-9]|nan|NaN|inf)")  # a number's cell right after it


def unglued(row: bytes) -> bytes:
    """A table's row with each border glued between a cell and a number's as a blank (POT's ``    0|1.908276e-01|
    0.000000e+00``: ``|`` parts its cells, no blank around it), its bytes at the same positions: cells are apart by
    blanks then. (A progress bar's ``100%|███|`` is no cell and number.)"""
    return _GLUED_BORDER.sub(b" ", row) if b"|" in row else row


def before_bar(line: bytes) -> bytes:
    """A table row without the progress bar after it (``... 1280: 100%|| 213/213``, ultralytics' own ``640: 100%
    ━━━━━━ 8/8 1.4it/s``: the percent goes too)."""
    cut = line.find(b"%||")
    if cut < 0:
        cut = line.find(b"% \xe2\x94\x81")
    if cut < 0:
        return line
    parts = line[:cut].rsplit(None, 1)
    return parts[0] if len(parts) > 1 else b""


def _name_over_position(rep: bytes, spans: list[tuple[int, int]], k: int, plan: Plan,
                        dialect: Dialect) -> str | None:
    """The name of a value that has none of its own after a position: ``Loss after epoch 3: 0.52`` (gensim's
    tutorials), ``Average loss at step 2000: 4.52`` (TensorFlow's word2vec): the words before the position's name,
    a preposition last (``after``, ``at``, ``for``, ``in``, ``of``), name the value after ``N:``. None otherwise."""
    pos = plan.epoch if plan.epoch is not None else plan.step
    if pos is None or pos >= k or plan.metrics or any(spans[j][1] > spans[j][0] for j in range(pos + 1, k)):
        return None  # only empty fields (the separators) between the position and the value
    end, a = spans[pos][1], spans[k][0]
    if rep[end:a].strip() != b":":
        return None
    head = rep[:spans[pos][0]].rstrip()
    words = head.split()  # ... "Loss", "after", "epoch": the position's name last, a preposition before it
    if len(words) < 3 or words[-2].decode("utf-8", "replace").lower() not in dialect.position_words:
        return None
    name = _name_before(head, head.rfind(words[-2]), dialect)
    return None if name == NOT_A_NAME else name


def _of_counter(rep: bytes, spans: list[tuple[int, int]], k: int, numeric: list[bool], dialect: Dialect) -> int | None:
    """The field of ``M`` when field ``k`` opens a counter ``N <noun> from M`` (``of``), the noun one of
    ``Dialect.of_counter_nouns``, both integers, ``N <= M`` (geneticalgorithm2's bar ``2 gen from 25``); else None."""
    a, b = spans[k]
    j = k + 1
    while j < len(spans) and not (numeric[j] and spans[j][1] > spans[j][0]) and j - k < 8:
        j += 1
    if j >= len(spans) or not numeric[j] or not _int(rep[a:b]):
        return None
    c, d = spans[j]
    between = rep[b:c]
    words = between.split()
    if (len(words) != 2 or between[:1] != b" " or between[-1:] != b" " or words[1] not in (b"from", b"of")
            or words[0].decode("latin-1").lower() not in dialect.of_counter_nouns or not _int(rep[c:d])
            or int(rep[a:b]) > int(rep[c:d])):
        return None
    return j


def _right_after_position(rep: bytes, spans: list[tuple[int, int]], k: int, plan: Plan, samples: list[bytes]) -> bool:
    """Field ``k`` is a plain number with no name right after the record's position and a colon (or an arrow: NiaPy's
    ``evals:38 => 48.02``; or a blank alone: a hand loop's ``gen 10 6.7049``), before no metric, and ends its line or
    a ``,``/``;``/``|`` follows it (skglm's ``Iteration 3: 0.4054, stopping crit: 5.4e-03``, a hand loop's ``Epoch 3:
    0.2345``, ``step 10: 1.23``), not only integers (a count): the record's unnamed value."""
    if plan.metrics:
        return False
    before = max((j for j in range(k) if spans[j][1] > spans[j][0]), default=None)
    place = {plan.step, plan.step_total, plan.epoch, plan.epoch_total, *(plan.counter or ())} - {None}
    if before is None or before not in place:
        return False
    sep = rep[spans[before][1]:spans[k][0]].strip()
    if sep not in (b":", b"=>", b"") or not sep and not rep[:spans[before][0]].rstrip()[-1:].isalpha():
        return False  # (a blank alone after a named position only: a bare row ``99 1003.1`` is bare_rows')
    after = rep[spans[k][1]:].lstrip(b" ")
    if after and after[:1] not in b",;|\t":
        return False
    whole = False
    for line in samples:
        sp = _spans(line)
        if len(sp) != len(spans):
            continue
        seg = line[sp[k][0]:sp[k][1]]
        if seg != NAN_MARK and (seg.translate(None, NUMBER_CHARS) or not _number(seg)):
            return False  # a unit glued to it (``12.5s``, ``40%``): no objective
        whole = whole or not _int(seg.lstrip(b"+-"))
    return whole


def _knows_any(names: Iterable[str]) -> bool:
    """Whether any of ``names`` is a value the reader knows (a loss, an evaluation, an LR...: a role of its own)."""
    return any(infer_role(n).role != "other" for n in names)


def _numbered(seg: bytes) -> bool:
    """A whole number written as a list's item number, its dot after it (``3.`` of ``3. Training loss = 0.84``)."""
    return len(seg) > 1 and seg[-1:] == b"." and seg[:-1].isdigit()


_STAMP_BYTES = frozenset(b"0123456789-:/.,")


def ungrouped_stamp(head: bytes) -> int:
    """Where a stamp of a date and a clock opening ``head`` ends, and the level in capitals right after it
    (``2026-12-07 08:33:31751 INFO``), 0 when there is none: at most 3 words, brackets around them allowed, each of
    digits and date or clock separators, one with two colons or more (a clock), one with two ``-`` or ``/`` (a
    date); a bare number after both opens the message. One plain scan of ``head``."""
    n, i, end = len(head), 0, 0
    clock = dated = False
    for _ in range(3):
        while i < n and head[i] in b" \t[":
            i += 1
        j = i
        while j < n and head[j] in _STAMP_BYTES:
            j += 1
        if j == i or j < n and head[j] not in b" \t]":
            break
        tok = head[i:j]
        if clock and dated and tok.rstrip(b",").isdigit():
            break  # (a bare number after the stamp opens the message: ``... 08:33:31751 5, loss=...``)
        clock = clock or tok.count(b":") >= 2 and tok[:1].isdigit()
        dated = dated or (tok.count(b"-") == 2 or tok.count(b"/") == 2) and tok[:1].isdigit()
        end = i = j + (j < n and head[j] == 93)
    return end if clock and dated else 0


MAX_PREAMBLE_BYTES = 64  # of a stamp before a record's message
MAX_LEVEL_BYTES = 16  # of a level word after a stamp (``[CRITICAL]``)


def message_start(rep: bytes, opening: int, dialect: Dialect = DIALECT) -> int:
    """Where a logger's message starts after the stamp, ``opening`` the first byte after it: past a level word
    (``Dialect.level_words``) bracketed or not, a colon after it, and a ``-`` or ``|`` around it (``[INFO] ``,
    ``INFO: ``, ``- INFO - ``, ``| INFO | ``); past the blanks at ``opening`` when no level follows. One plain
    scan, bounded."""
    n, i = len(rep), opening
    while i < n and rep[i] in b" \t":
        i += 1
    opening = i
    if rep[i:i + 1] in (b"-", b"|") and rep[i + 1:i + 2] in (b" ", b"\t"):
        i += 1
        while i < n and rep[i] in b" \t":
            i += 1
    j = i + 1 if rep[i:i + 1] == b"[" else i
    e = j
    while e < n and e - j <= MAX_LEVEL_BYTES and (65 <= rep[e] <= 90 or 97 <= rep[e] <= 122):
        e += 1
    if e == j or rep[j:e].decode("latin-1").lower() not in dialect.level_words:
        return opening
    if j > i:
        if rep[e:e + 1] != b"]":
            return opening
        e += 1
    if rep[e:e + 1] == b":":
        e += 1
    while e < n and rep[e] in b" \t":
        e += 1
    if rep[e:e + 1] in (b"-", b"|") and rep[e + 1:e + 2] in (b" ", b"\t"):
        e += 1
        while e < n and rep[e] in b" \t":
            e += 1
    return e if e > i and rep[e - 1:e] in (b" ", b"\t") else opening


def _parenthesised_counter(rep: bytes, a: int, b: int, opening: int) -> bool:
    """Whether the whole number at ``rep[a:b]`` is a counter at line start in parentheses, then a blank or a tab
    (pzflow's ``(3) 2.3386``): the record's opening ``(``, the number, ``)``."""
    return a == opening + 1 and rep[opening:a] == b"(" and rep[b:b + 1] == b")" and rep[b + 1:b + 2] in (b" ", b"\t")


def _counter_separator(rep: bytes, b: int) -> bool:
    """Whether a bare number ending at ``b`` is followed by a counter's separator then the record: a blank or a
    tab, or ``,`` ``:`` ``|`` ``;`` then a blank (``5, train_loss=...``, ``12:\tlearn: ...``, ``7 | loss=...``)."""
    c = rep[b:b + 1]
    if c in (b" ", b"\t"):
        return True
    return c in (b",", b":", b"|", b";") and rep[b + 1:b + 2] in (b" ", b"\t")


def _fraction_in_any(samples: list[bytes], n_spans: int, k: int) -> bool:
    """Whether field ``k`` holds a number with a fraction in any sample of the template's shape (``step = 0.01``:
    ``objective_estimates.has_fraction``)."""
    for line in samples:
        sp = _spans(line)
        if len(sp) == n_spans and objective_estimates.has_fraction(line[sp[k][0]:sp[k][1]]):
            return True
    return False


def _whole_in_all(samples: list[bytes], n_spans: int, k: int) -> bool:
    """Whether field ``k`` holds a whole number in every sample of the template's shape."""
    seen = False
    for line in samples:
        sp = _spans(line)
        if len(sp) != n_spans:
            continue
        if not _int(line[sp[k][0]:sp[k][1]]):
            return False
        seen = True
    return seen


def _same_in_all(samples: list[bytes], n_spans: int, k: int) -> bool:
    """Whether field ``k`` holds the same text in every sample of the template's shape (a run's length)."""
    seen: set[bytes] = set()
    for line in samples:
        sp = _spans(line)
        if len(sp) == n_spans:
            seen.add(line[sp[k][0]:sp[k][1]])
    return len(seen) == 1


def _opening_word(rep: bytes, opening: int, a: int, low: str, dialect: Dialect) -> bool:
    """Whether ``rep[opening:a]`` is one word the reader does not know, opening the record before a counter ``N/M``
    (``Estimator 0/40, Train metric: 3.01``; ``sweep 10/400``): no metric's, split's, length's or skipped name."""
    word = rep[opening:a].rstrip(b" \t:")
    return (bool(word) and word.isalpha() and word.decode("latin-1").lower() == low
            and infer_role(low).role == "other" and low not in dialect.skip_names and low not in dialect.pass_names
            and low not in dialect.eval_words and low not in dialect.level_words and low not in dialect.length_units
            and low not in dialect.inner_names)


def _split_generic(name: str, dialect: Dialect) -> str | None:
    """The prefix of the split a name gives alone with a generic word (``Train metric``: "", ``Validation metric``:
    ``val_``), else None."""
    words = name.lower().split()
    if len(words) == 2 and words[1] in dialect.generic_value_words and words[0] in dialect.split_rows:
        return str(dialect.split_rows[words[0]])
    return None


def _names_objective(name: str) -> bool:
    """A name the record's loss goes by: a loss, or an objective under another name (``cost``, ``error``)."""
    role = infer_role(name)
    return (role.role == "train_loss" or "loss" in name.lower()
            or role.role == "train_metric" and role.direction == "min")


MAX_TERMS = 8  # a total is checked against the sums of at most this many of its record's values


def _half_unit(seg: bytes) -> float:
    """Half a unit of the last digit ``seg`` prints (``5.4159``: 5e-05; ``2.12e+00``: 5e-03)."""
    mantissa, _, exp = seg.lower().partition(b"e")
    dot = mantissa.find(b".")
    decimals = len(mantissa) - dot - 1 if dot >= 0 else 0
    return 0.5 * 10.0 ** ((int(exp) if exp.lstrip(b"+-").isdigit() else 0) - decimals)


def _sum_of_others(samples: list[bytes], n_spans: int, k: int, fields: list[int], every: bool = False) -> bool:
    """Field ``k`` (named ``total``) is, on every sample line, the sum of the same two or more of ``fields`` (within
    the precision they are printed to), the total not only integers (a count of things): CEBRA's ``pos: -0.6943
    neg:  6.1101 total:  5.4159`` (the contrastive loss's two terms and their sum), the record's loss when it names
    none. ``every``: the sum of all of ``fields``, no other subset."""
    fields = [f for f in fields if f != k]
    if not 2 <= len(fields) <= MAX_TERMS:
        return False
    rows = []
    for line in samples:
        sp = _spans(line)
        if len(sp) != n_spans:
            continue
        segs = [line[sp[f][0]:sp[f][1]] for f in (k, *fields)]
        try:
            rows.append(([float(s) for s in segs], [_half_unit(s) for s in segs]))
        except ValueError:
            continue  # a NaN mark, a unit: no check on this line
    if not rows or all(vals[0].is_integer() for vals, _ in rows):
        return False
    for mask in ((1 << len(fields)) - 1,) if every else range(3, 1 << len(fields)):
        terms = [i + 1 for i in range(len(fields)) if mask >> i & 1]
        if len(terms) >= 2 and all(abs(sum(vals[i] for i in terms) - vals[0]) <= 1.001 * (
                units[0] + sum(units[i] for i in terms)) for vals, units in rows):
            return True
    return False


def _column_of(line: bytes, pos: int) -> int:
    """Which blank-separated column of ``line`` holds byte ``pos``."""
    return len(line[:pos].split()) - (0 if pos == 0 or line[pos - 1:pos].isspace() else 1)


def _header_name(header: list[str], rep: bytes, a: int, dialect: Dialect) -> str | None:
    col = _column_of(rep, a)
    if col >= len(header):
        return None
    name = header[col]
    lower = {h.lower() for h in header}
    if lower & dialect.loss_table_markers and name.lower() in dialect.loss_table_columns:
        return f"train/{name.lower()}_loss"  # YOLOv5's "box obj cls" under "gpu_mem"
    if name.lower() in dialect.counted_nouns:
        return NOT_A_NAME  # a column counting things (ultralytics' Images, Instances): no metric
    if lower & dialect.eval_table_markers and name.lower() not in dialect.epoch_names:
        return f"val/{name}"
    return name


_DIGITS = frozenset(b"0123456789")
_DATE_CHARS = frozenset(b"0123456789-/.,:T")


def _clock(tok: bytes) -> bool:
    """``20:28``, ``20:28:13``, ``20:28:13,123``: digits, a colon, two digits, and so on."""
    parts = tok.split(b":")
    return (1 < len(parts) <= 3 and all(p[:2].isdigit() for p in parts) and parts[0].isdigit()
            and all(len(p) == 2 or p[2:3] in (b".", b",") and p[3:].isdigit() for p in parts[1:]))


def _clock_at(line: bytes, a: int) -> int:
    """Where a clock starting at ``a`` after a blank ends (``00:00:00.018``, ``1:05:09``, two parts at least, as
    ``_clock`` reads one), else 0."""
    if a and line[a - 1] not in b" \t":
        return _unit_duration(line, a) if line[a - 1] in b"[(" else 0
    j = a
    while j < len(line) and j - a <= 24 and line[j] in _CLOCK_CHARS:
        j += 1
    tok = line[a:j].rstrip(b".,")
    return a + len(tok) if b":" in tok and _clock(tok) else _unit_duration(line, a)


def _unit_duration(line: bytes, a: int) -> int:
    """Where a duration in hours, minutes and seconds starting at ``a`` ends (keras-tuner's ``[00h 00m 00s]``: two
    parts at least, each digits glued to its unit, blank-separated), else 0."""
    end, parts, i = 0, 0, a
    for unit in (b"h", b"m", b"s"):
        j = i
        while j < len(line) and j - i < 6 and line[j] in _DIGITS:
            j += 1
        if j == i or line[j:j + 1] != unit or line[j + 1:j + 2] not in (b" ", b"]", b")", b",", b""):
            if parts:
                break
            continue  # (``00m 05s``: no hours)
        parts, end = parts + 1, j + 1
        i = j + 2 if line[j + 1:j + 2] == b" " else j + 1
    return end if parts >= 2 else 0


_CLOCK_CHARS = frozenset(b"0123456789:.,")


def _source_location(tok: bytes, dialect: Dialect) -> bool:
    """``logging_writer.py:48]``: a source file's name with an extension of ``Dialect.source_suffixes``, a colon
    and a line number, closed by a bracket (the end of a log record's header), an ``@`` before the name allowed
    (tensorpack's ``@monitor.py:476]``); or a module's dotted name, a function's and a line number joined by
    colons (logging's ``%(name)s:%(funcName)s:%(lineno)d``, ``baal.modelwrapper:train_on_dataset:85]``:
    ``_module_location``)."""
    if tok[-1:] != b"]" or len(tok) > 160:
        return False
    path, _, line = tok[:-1].removeprefix(b"@").rpartition(b":")
    if len(tok) <= 128 and line.isdigit() and b"." in path and path.rsplit(b".", 1)[1].decode(
            "latin-1").lower() in dialect.source_suffixes:
        return True
    return _module_location(tok[:-1])


MAX_LOCATION = 160  # bytes of a bracketed source location (``source_location_at``)


def source_location_at(rep: bytes, a: int, b: int, dialect: Dialect = DIALECT) -> bool:
    """The number at ``rep[a:b]`` is the line number closing a bracketed source location (``[train.py:42]``,
    ``[baal.modelwrapper:train_on_dataset:85]``, ``_source_location``) wherever it stands in the line: a logger's
    preamble, no field. One bounded look back (``MAX_LOCATION``)."""
    if rep[b:b + 1] != b"]" or rep[a - 1:a] != b":":
        return False
    o = rep.rfind(b"[", max(0, a - MAX_LOCATION), a)
    if o < 0:
        return False
    tok = rep[o + 1:b + 1]
    return not any(c in tok for c in b" \t") and _source_location(tok, dialect)


_LEVELS = frozenset({b"INFO", b"DEBUG", b"WARNING", b"WARN", b"ERROR", b"CRITICAL", b"TRACE", b"SUCCESS"})


def _iso_stamp(tok: bytes) -> bool:
    """ISO 8601's date and clock joined by ``T``, a zone after them allowed (``2026-12-06T12:38:51.830291+0000``)."""
    if not 16 <= len(tok) <= 40 or tok[10:11] not in (b"T", b"t") or tok[4:5] != b"-" or tok[7:8] != b"-":
        return False
    clock = tok[11:].rstrip(b"Zz")
    for sign in (b"+", b"-"):
        if sign in clock:
            clock, _, zone = clock.partition(sign)
            if not zone.replace(b":", b"").isdigit():
                return False
    return tok[:4].isdigit() and tok[5:7].isdigit() and tok[8:10].isdigit() and _clock(clock)


def _module_location(tok: bytes) -> bool:
    """``dehb.optimizers.dehb:_log_job_submission:887``: a module's dotted name, a function's name and a line number
    joined by colons (loguru's ``{name}:{function}:{line}``)."""
    parts = tok.split(b":")
    if len(parts) != 3 or len(tok) > 160 or not parts[2].isdigit():
        return False
    module, func = parts[0], parts[1].strip(b"<>")
    return bool(module and func) and all(w and (w[:1].isalpha() or w[:1] == b"_") and w.replace(b"_", b"").isalnum()
                                         for w in module.split(b".") + [func])


def _level_date(word: bytes) -> bool:
    """glog's (absl's) level letter glued to the month and day: ``I1205``, ``W0107``."""
    return len(word) == 5 and word[:1] in (b"i", b"w", b"e", b"f", b"d") and word[1:].isdigit()


def _month_day(word: bytes) -> bool:
    """A month and a day glued in four digits (``1207``: tensorpack's ``[1207 13:58:21 @base.py:282]``)."""
    return len(word) == 4 and word.isdigit() and 1 <= int(word[:2]) <= 12 and 1 <= int(word[2:]) <= 31


def stamp_end(rep: bytes, dialect: Dialect = DIALECT) -> int:
    """Where a date-time stamp opening ``rep`` ends (0: none). A stamp is blank-separated words from the line's
    start (brackets around it allowed), each a date word (``Dec``, ``Sat``), a day or year (an integer of up to four
    digits), a date (``2026-12-05``) or a clock (``20:28:13``), holding a clock and a date word or a date: its
    numbers are no fields (``05 Dec 20:28    INFO  epoch 0 ...``: the day is no step, ``Dec 20`` no metric).
    glog's header (absl's, TensorFlow's: ``I1205 23:14:41.097795 140390894775168 logging_writer.py:48]``) is one
    too: its level letter glued to the date, after the clock a thread id of any length, and a source location
    closing it; so is a month and a day glued in four digits opening the line, then a clock, closed by a source
    location (tensorpack's ``[1207 13:58:21 @monitor.py:476]``: no step 1207). A number after the level, or after a
    whole date and a clock (``... 11:10:46,972 [INFO] 5, loss=``),
    opens the message: no day or year."""
    i, n, end = 0, len(rep), 0
    clock = dated = glog = leveled = full = False  # (full: a whole date, ``2026-12-05``, seen)
    mmdd = False  # (a month and a day glued, ``1207``, opening it: a date only if a source location closes it)
    while i < n:
        while i < n and rep[i] in b" \t[(":
            i += 1
        j = i
        while j < n and rep[j] not in b" \t":
            j += 1
        tok = rep[i:j].rstrip(b"])")
        if not tok:
            break
        word = tok.rstrip(b",").lower()
        if word.decode("latin-1") in dialect.date_words:
            dated = True
        elif _clock(tok):
            clock = True
        elif word.isdigit() and (len(word) <= 4 or clock and glog) and not leveled and not (clock and full):
            mmdd = mmdd or not end and not clock and _month_day(word)  # (glog's thread id after its clock)
        elif not end and _level_date(word):
            dated = glog = True
        elif not end and word.decode("latin-1") in dialect.level_words and rep[i - 1:i] == b"[":
            pass  # the level opening a bracketed stamp (Ax's ``[INFO 12-06 12:40:35]``)
        elif len(word) == 5 and word[2:3] == b"-" and word[:2].isdigit() and word[3:].isdigit() and not dated:
            dated = True  # a month and a day (``12-06``), a date only beside a clock
        elif clock and (dated or mmdd) and _source_location(rep[i:j], dialect):
            end, dated = j, True
            break
        elif clock and dated and tok in _LEVELS and end == i - 1:
            end, i, leveled = j, j, True  # a level in capitals right after the stamp (``...+0000 INFO 0/30 ...``)
            continue
        elif clock and dated and (tok == b"|" or word.decode("latin-1") in dialect.level_words):
            i, leveled = j, True  # loguru's ``| INFO     |`` between its stamp and its source location (the stamp
            continue  # ends before it unless that location follows)
        elif clock and dated and _module_location(tok) and rep[j:j + 3] == b" - ":
            end = j + 2  # loguru's ``dehb.optimizers.dehb:_log_job_submission:887 - ``: no field
            break
        elif _iso_stamp(tok):
            dated = clock = full = True  # ``2026-12-06T12:38:51.830291+0000``: a date and a clock in one word
        elif (len(word) >= 8 and not set(word) - _DATE_CHARS and word[:1].isdigit()
              and (word.count(b"-") == 2 or word.count(b"/") == 2)):
            dated = full = True  # 2026-12-05, 12/05/2026
        else:
            break
        end, i = j, j
    return end if clock and dated else 0


MAX_PARTS = 4  # counters of an epoch's parts on its banner (``Plan.parts``)
MAX_TAG_NUMBERS = 8  # whole numbers in a record's opening tag ``( 1 , 0 ):``
MAX_TAG_NAME = 64  # bytes of a logger's bracketed name before it (``[Trainer-0]``)
MAX_STAMP_WORDS = 4  # words of a time stamp before it
_STAMP_CHARS = frozenset(b"0123456789-:.,/")


def opening_tag(rep: bytes, opening: int) -> tuple[int, int]:
    """A tag in parentheses opening the record at ``rep[opening:]``, after any bracketed names (a logger's
    ``[Trainer-0]``): ``(`` whole numbers parted by commas ``)`` then a colon (PyTorch-BigGraph's partition pair
    ``( 1 , 0 ): loss: ...``, as a rank's or a worker's tag names which process or part a line is about).
    (where the tag's ``(`` is, where the record after it opens); (0, 0) when there is none. One plain scan, bounded."""
    n, i = len(rep), opening
    for _ in range(MAX_STAMP_WORDS):  # a time stamp ``stamp_end`` did not take (its clock's milliseconds ungrouped:
        j = i  # ``22:39:37141``): words of digits and date or clock separators
        while j < n and rep[j] in _STAMP_CHARS:
            j += 1
        if j == i or j < n and rep[j] not in b" \t" or not rep[i:j].strip(b"0123456789"):
            break  # (a bare number opening the line is no stamp: ``3 (0, 1): ...`` opens with it)
        i = j
        while i < n and rep[i] in b" \t":
            i += 1
    while i < n and rep[i] == 0x5B:  # "[": a bracketed name, its blanks after it
        j = rep.find(b"]", i, i + MAX_TAG_NAME)
        if j < 0:
            return 0, 0
        i = j + 1
        while i < n and rep[i] in b" \t":
            i += 1
    if i >= n or rep[i] != 0x28:  # "("
        return 0, 0
    start, i, count = i, i + 1, 0
    while True:
        while i < n and rep[i] in b" \t":
            i += 1
        j = i
        while j < n and j - i <= 9 and 48 <= rep[j] <= 57:
            j += 1
        if j == i or j - i > 9:
            return 0, 0
        count += 1
        i = j
        while i < n and rep[i] in b" \t":
            i += 1
        if i < n and rep[i] == 0x2C and count < MAX_TAG_NUMBERS:  # ","
            i += 1
            continue
        break
    if i >= n or rep[i] != 0x29:  # ")"
        return 0, 0
    i += 1
    while i < n and rep[i] in b" \t":
        i += 1
    if i >= n or rep[i] != 0x3A:  # ":"
        return 0, 0
    i += 1
    while i < n and rep[i] in b" \t":
        i += 1
    return start, i


def _pair_after(rep: bytes, spans: list[tuple[int, int]], k: int, samples: list[bytes]) -> int | None:
    """The field of the second of two integers written as a pair ``(a, b)`` whose first is field ``k``; None when
    field ``k`` opens no such pair (in every sample)."""
    a, b = spans[k]
    if rep[a - 1:a] != b"(" or not _int(rep[a:b]):
        return None
    j = k + 1
    while j < len(spans) and spans[j][0] == spans[j][1] and j - k < 4:
        j += 1  # empty fields: the separators around the ","
    if j >= len(spans) or rep[b:spans[j][0]].strip() != b"," or rep[spans[j][1]:spans[j][1] + 1] != b")":
        return None
    for line in samples:
        sp = _spans(line)
        if len(sp) == len(spans) and not (_int(line[sp[k][0]:sp[k][1]]) and _int(line[sp[j][0]:sp[j][1]])):
            return None
    return j


def _eval_section(rep: bytes, spans: list[tuple[int, int]], plan: Plan, dialect: Dialect) -> bool:
    """A record of two sections naming the same values, the second headed by an evaluation's word (tez's ``[train]
    mae=8.3966, loss=108.8418 [valid] mae=9.5617, loss=133.9106 [e=0 steps=16]``): the values after that word are
    the evaluation's (``val_`` names), those before it the train step's. Whether it is one (the plan renamed)."""
    names = list(plan.metrics.values())
    if len(set(names)) == len(names):
        return False
    low = rep.lower()
    cut = -1
    start = -1
    for i in range(len(low) + 1):  # the first evaluation word (a run of letters) after a value
        letter = i < len(low) and 97 <= low[i] <= 122
        if letter and start < 0:
            start = i
        elif not letter and start >= 0:
            if low[start:i].decode("latin-1") in dialect.eval_words and any(spans[f][1] <= start for f in plan.metrics):
                cut = start
                break
            start = -1
    if cut < 0:
        return False
    before = {n for f, n in plan.metrics.items() if spans[f][1] <= cut}
    after = {f: n for f, n in plan.metrics.items() if spans[f][0] > cut}
    if not before & set(after.values()):
        return False  # no value named again after the word: no second section
    for f, n in after.items():
        plan.metrics[f] = n if n.lower().startswith(_EVAL_NAMES) else plan.eval_prefix + n
    return True


_EVAL_NAMES = ("val", "eval", "test", "valid")


def _placeholder_named(text: str, dialect: Dialect) -> set[str]:
    """The names in ``text`` whose value is a placeholder (``val: n/a``, ``eval=-``): names of nothing measured."""
    toks = text.split()
    out: set[str] = set()
    for i, tok in enumerate(toks):
        for j, ch in enumerate(tok):
            if ch in ":=":
                value = tok[j + 1:] or (toks[i + 1] if i + 1 < len(toks) else "")
                if j and value.rstrip(",;|") in dialect.placeholder_values:
                    out.add(tok[:j])
                break
    return out


def _paired(counters: list[tuple[int, int, str]], plan: Plan, table: bool) -> tuple[
        tuple[int, int], tuple[int, int]] | None:
    """The two counters ``n/N`` of a record that may be an epoch and a batch within it, outer first (``Plan.pair``):
    exactly two on the line, the record naming a value and no step, not both already known as an epoch's and a
    batch's: two named by words the reader does not take as either (``Train: 3/6  Sample: 51/60``, ``Round 2/5
    Client 3/10``), one of them before a batch's or a step's counter (``Train: 3/6  Batch: 51/60``) or after an epoch's
    (``Epoch: 3/6  Sample: 51/60``). A process's tag (``rank 0/4``, ``gpu 1/8``) is none. None otherwise."""
    if len(counters) != 2 or table or not plan.metrics or plan.position is not None:
        return None
    (o, ot, outer), (i, it, inner) = counters
    if plan.step is not None and (inner != "step" or plan.step != i):
        return None
    free = ("loose", "opener")
    if (outer in free and inner in free and plan.epoch is None and plan.counter is None
            or outer in free and inner in ("counter", "step") and plan.epoch is None
            or outer == "epoch" and inner == "loose" and plan.counter is None):
        return (o, ot), (i, it)
    return None


def plan_template(samples: list[bytes], dialect: Dialect = DIALECT, header: list[str] | None = None) -> Plan | None:
    """The plan for a template from a few of its (masked) lines; None when no field is a number. ``header``: the
    names of a table's columns, for numbers with no name of their own."""
    rep = samples[0]
    if header_names(rep) is not None or b" ....." in rep:
        return None  # a header row: names, not numbers; a settings dump ("lr ......... 0.0001")
    spans = _spans(rep)
    if len(spans) > MAX_FIELDS:
        return None
    numeric = [False] * len(spans)
    for line in samples:
        sp = spans if line is rep else _spans(line)
        if len(sp) != len(spans):
            continue
        for k, (a, b) in enumerate(sp):
            if not numeric[k] and _number(line[a:b]):
                numeric[k] = True
    if not any(numeric):
        return None
    plan = Plan(len(spans), is_record=rep.lstrip()[:1] == b"{",
                zero_based=any(m in rep for m in dialect.zero_based_markers), bar=b"%||" in rep)
    for marker, event in dialect.event_markers:
        if marker in rep:  # an event: its numbers (a loss scale, a timestamp) are no metrics
            plan.event, plan.is_record = event, True  # counted even when it happens once
            return plan
    # a table row: the header names it (a line as many words as a header above it is one only when its cells are
    # mostly values: ``Starting epoch 3`` under ``Starting training run`` names its own number)
    cols = unglued(rep) if header is not None else rep  # (cells parted by borders glued between them)
    table = header is not None and len(before_bar(cols).split()) == len(header) and _mostly_values(before_bar(cols))
    used_words: set[str] = set()
    unnamed: int | None = None  # a value with no name right after the record's position
    totals: list[int] = []  # fields named ``total`` alone
    bare: dict[int, str] = {}  # field -> the split's bare name it was read under a loss for (``Train:``)
    first_field = next(i for i, a in enumerate(spans) if a[1] > a[0])
    k = 0
    stripped = len(rep) - len(rep.lstrip())
    opening_step = False
    at_iteration = False  # the step is named an iteration (``At iterate 3``): ``Dialect.iteration_objective_names``
    counted_end = 0  # where the last count's noun ended ("0 corrupt: 100%": ``corrupt`` names no number after it)
    epoch_cell = False  # the table's epoch column holds an ``n/N`` cell
    step_like: int | None = None  # a metric's field named as a statistic of a step (``_ends_in_step``)
    opener: int | None = None  # a whole number opening the record under a word naming no metric (``round 3:``)
    counter_opener: int | None = None  # a counter ``N/M`` opening the record under a word the reader does not know
    counter_name = ""
    numbered = False  # the step is a list's item number (``3. Training loss = 0.84``)
    parts: list[tuple[int, int]] = []  # counters ``n/N`` named otherwise after the epoch's (``Plan.parts``)
    counters: list[tuple[int, int, str]] = []  # every counter ``n/N`` of the record: fields and what it was taken as
    stamp = stamp_end(rep, dialect)  # a date-time stamp opening the line: its numbers are no fields
    opening = stamp + len(rep[stamp:]) - len(rep[stamp:].lstrip()) if stamp else stripped  # the record's start
    tag_at, tag_end = opening_tag(rep, opening)  # a tag opening it (``( 1 , 0 ):``): the record opens after it
    if tag_end:
        plan.tag = tuple(f for f, (a, b) in enumerate(spans) if tag_at < a and b <= tag_end and numeric[f])
        opening = tag_end
    pre = stamp or ungrouped_stamp(rep[:MAX_PREAMBLE_BYTES])  # (its milliseconds ungrouped as the engine holds it)
    message = message_start(rep, pre, dialect) if pre and not tag_end else 0  # past the level after the stamp
    opened = False  # the step is a bare counter opening the message (``_counter_separator``)
    held_best: int | None = None  # a field named ``best`` (``incumbents.progress_best``)
    while k < len(spans):
        if not numeric[k] or spans[k][0] < stamp or _nan_word(rep, *spans[k]) or _in_name(rep, spans[k][0]) or (
                spans[k][0] < tag_end) or source_location_at(rep, *spans[k], dialect):  # (a tag's numbers, and
            # what is before it, are no fields of the record; nor a source location's line, ``[mod:func:85]``)
            k += 1
            continue
        a, b = spans[k]
        if rep[b:b + 3] == b"%||" or rep[b:b + 2] == b"%]" and _progress_mark(rep, a):
            k += 1  # a progress bar's percent; a percent filling its brackets after a word (``Finished [100%]:``)
            continue
        clock = _clock_at(rep, a)
        if clock:  # a duration printed as a clock (``Time taken: 00:00:00.018``): its parts are no values
            while k < len(spans) and spans[k][0] < clock:
                k += 1
            continue
        if plan.step is None and not table and _int(rep[a:b]) and _counted_position(rep, opening, a, b, dialect):
            plan.step = k  # ``Train 2 steps, use ...``: a count of steps or epochs opening the record, its position
            k += 1
            continue
        noun = _counted_noun(rep, b, dialect)
        if noun and _int(rep[a:b]) and plan.step is None and _bracketed_length(rep, a, noun, dialect) and not any(
                numeric[i] for i in range(first_field, k) if spans[i][0] >= stamp):
            plan.step = k  # ``[10 epochs]: TRAIN:[loss=0.107]``: the record's position, heading it, no count in prose
            k += 1
            continue
        if noun and _int(rep[a:b]):  # "8 images": a count of things, no metric's value; its noun names nothing after
            counted_end = noun
            k += 1
            continue
        if not table and rep[a - 1:a] == b"[" and rep[b:b + 1] == b",":
            k += 1  # the first of a list (``policy_weights: [0.0, 2.0, ...]``): no value of the name before it
            continue
        name = _header_name(header, cols, a, dialect) if table and header else _name_before(rep, a, dialect)
        if name and not table and (stamp and not rep[opening:a].strip() or a == message):
            name = None  # the record opens with this number: a word of the stamp's header (its level) names nothing
        if name and not table and _after_unit(rep, a, name, dialect):
            k += 1  # ``in 1.46 s ( 0.00099 M/sec )``: a time's unit names no number in parentheses after it
            continue
        if name and not table and rep[b:b + 1] == b"%" and name.lower() in dialect.bare_names:
            k += 1  # a split's bare name over a percent (labml's section ``Train   12%``): its progress, no loss
            continue
        if name and not table and (_aside(rep, a, name, dialect) or _of_estimate(rep, a, name, dialect)):
            k += 1  # ``loss 0.52 (avg 0.61)``, ``E=-8.3 [σ²=7.6]``: a statistic of the value before it, no point
            continue
        if name == NOT_A_NAME or name and counted_end and not rep[counted_end:a].strip(b" \t:='\""):
            k += 1
            continue
        if name is None and header is not None and not 0 <= rep.find(b"%||") < a:
            # (a number of a progress bar after its percent, ``| 0/8 [00:00<00:00, 68.53it/s]``, is the bar's, never
            # a column the line above names: a header of words over a bar redrawn in a later read)
            name = _header_name(header, rep, a, dialect)
            if name == NOT_A_NAME:
                k += 1
                continue
        if name is None and not table:
            name = _name_over_position(rep, spans, k, plan, dialect)
        low = name.lower() if name else ""
        of = None if name or plan.step is not None else _of_counter(rep, spans, k, numeric, dialect)
        if of is not None:  # ``2 gen from 25``: the step and the run's length
            plan.step, plan.step_total = k, of
            k = of + 1
            continue
        # a counter: two integers around a "/"
        j = k + 1
        while j < len(spans) and spans[j][0] == spans[j][1] and j - k < 4:
            j += 1  # empty fields: the separators around the "/"
        if (j < len(spans) and numeric[j] and _int(rep[a:b]) and _int(rep[spans[j][0]:spans[j][1]])
                and rep[b:spans[j][0]].strip() == b"/" and int(rep[a:b]) <= int(rep[spans[j][0]:spans[j][1]])
                and rep[a - 1:a] != b"/" and rep[spans[j][1]:spans[j][1] + 1] != b"/"):  # not a date
            n_total = j
            taken = "loose"
            if low in dialect.epoch_names or low.endswith(" epoch") or (
                    low in dialect.pass_names and rep[a - 2:a] == b" (" and rep[spans[n_total][1]:][:1] == b")"):
                plan.epoch, plan.epoch_total = k, n_total
                epoch_cell = epoch_cell or table
                taken = "epoch"
            elif low in dialect.step_names or _step_after_words(low, dialect):
                plan.step, plan.step_total = k, n_total  # ``step 5/96``; ``Finished STEP 10/60``
                taken = "step"
            elif (plan.step is None and plan.counter is None and counter_opener is None and not table and low
                  and _opening_word(rep, opening, a, low, dialect) and _whole_in_all(samples, len(spans), k)
                  and _same_in_all(samples, len(spans), n_total)):
                counter_opener = k  # ``Estimator 0/40, ...``: the record's position if N climbs and M stays
                counter_name = name or ""
                taken = "opener"
            elif plan.counter is None and (not low or low in dialect.inner_names or low.split()[-1] in ("it",)) and (
                    not _rate_after(rep, spans[n_total][1])):
                plan.counter = (k, n_total)
                # a nameless [120/4500]: the run's own steps, its total the run's length while it never starts again
                plan.counter_bare = (not low and rep[a - 1:a] == b"["
                                     and rep[spans[n_total][1]:spans[n_total][1] + 1] == b"]")
                plan.counter_share = _share_after(rep, spans[n_total][1])
                taken = "counter"
            elif plan.epoch is not None and low and len(parts) < MAX_PARTS:
                parts.append((k, n_total))  # ``edge chunk 2 / 3`` after ``epoch 1 / 8``: a part of the epoch
            if len(counters) <= 2:
                counters.append((k, n_total, taken if low not in dialect.skip_names | dialect.worker_names
                                 else "tag"))
            k = j + 1
            continue
        if a == opening + 1 and rep[opening:opening + 1] == b"[" and rep[b:b + 1] == b"]" and _int(rep[a:b]):
            plan.step = plan.step if plan.step is not None else k  # boosting's [15]; absl's "...py:48] [100] loss="
            k += 1
            continue
        if (not name and k == first_field and plan.step is None and (_int(rep[a:b]) or _numbered(rep[a:b]))
                and (rep[b:b + 1] in (b" ", b"\t") or rep[b:b + 1] == b":" and rep[b + 1:b + 2] in (b" ", b"\t")
                     or _parenthesised_counter(rep, a, b, opening))
                and b"%||" not in rep):
            # a line that opens with its step: "12 train 2.31", catboost's "12:\tlearn: 0.69", a numbered item's
            # "3. Training loss = 0.84", pzflow's "(3) 2.3386" (its values named by a heading: ``headed_rows``)
            plan.step = k
            numbered = _numbered(rep[a:b])
            opening_step = True  # ... unless a field named a step follows (srun --label's "0: step 20 loss ...")
            k += 1
            continue
        if (plan.step is None and not table and _int(rep[a:b]) and b"%||" not in rep
                and (k == first_field or message and a == message) and _counter_separator(rep, b)):
            # a bare counter opening the record's message, after any logger preamble, then a separator (cellpose's
            # "... [INFO] 5, train_loss=1.63, ..."; "7 | loss=0.3"): its step, if the record names a value the reader
            # knows (below)
            plan.step = k
            opened = opening_step = True
            k += 1
            continue
        if name and table and low in dialect.worker_names and plan.worker is None:
            plan.worker = k  # (a column named so is no metric)
        if not name and unnamed is None and _right_after_position(rep, spans, k, plan, samples):
            unnamed = k  # ``Iteration 3: 0.4054, stopping crit: 5.4e-03``: the record's objective, if it names no loss
        if name and low in dialect.update_counts and plan.updates is None:
            plan.updates = k  # (and read as what it otherwise is)
        if name:
            if len(low.split()) > 1 and low.split()[-1] in dialect.number_words:
                low = low.rsplit(None, 1)[0]  # ``Iteration No: 7``: the iteration
            elif (stem := numbered_stem(name, dialect.number_words)) is not None:
                low = stem  # ``ItNr`` (elastix's table): the iteration (``tab_tables``)
            if low in dialect.step_names and _fraction_in_any(samples, len(spans), k):
                plan.metrics[k] = dialect.step_size_name  # ``step = 0.01``: a step size, no counter
            elif (low in dialect.step_names or low in dialect.evaluation_counts or (
                    low.split()[-1] in dialect.step_names and not (
                    low.split()[0] in dialect.statistic_words and not set(low.split()) & dialect.position_words)
                    and _metric_at_step(low, dialect) is None)) \
                    and not (table and low in dialect.time_units):  # a table's column ``s``/``S``: no step
                if plan.step is None or opening_step:
                    plan.step, opening_step = k, False
                    at_iteration = not table and low.split()[-1] in dialect.iteration_words
                elif plan.step_total is not None and low in dialect.run_step_names:
                    # (``STEP: 2/15 -- GLOBAL_STEP: 18``: the counter restarts each epoch; the global step is the
                    # record's position)
                    plan.step, plan.step_total = k, None
            elif low in dialect.epoch_names or low.split()[-1] in dialect.epoch_names:
                if plan.epoch is None:
                    plan.epoch = k
                    plan.epoch_end = low.startswith("end of")
            elif low in dialect.summary_names:
                plan.is_summary = True
                plan.summary[k] = low
            elif _is_setting(name) and not table:
                pass  # BASE_LR, BG_CLS_LOSS_WEIGHT: a config dump's constant, not a metric
            elif low == "total" and not table:
                totals.append(k)  # a count (``total: 1000``), unless it sums the record's values (below)
            elif low == "worker" and not table and _int(rep[a:b]):
                plan.worker = k if plan.worker is None else plan.worker  # ``[worker: 0]``: which agent prints it
            elif held_best is None and progress_best(rep, a, low, table, dialect):
                held_best = k  # a progress line's best so far, if nothing else is known (``incumbents.keep_best``)
            elif (low not in dialect.skip_names or table and is_bare_running_best(low)) and (
                    low.split()[-1] not in dialect.skip_names or (len(low.split()) > 1 or table)
                    and is_bare_running_best(low)):  # a table's column ``Best``: a search's running best
                at_step = _metric_at_step(name, dialect)  # ``Loss on this step``: the loss
                if (opener is None and not plan.metrics and plan.step is None and plan.epoch is None
                        and plan.counter is None and not table and not plan.is_record and " " not in low
                        and at_step is None
                        and infer_role(name).role == "other" and _whole_in_all(samples, len(spans), k)):
                    opener = k  # ``round 3: objective value 0.41``: the record's position if its values climb
                plan.metrics[k] = metric_name(at_step or name, dialect, _unit(samples, k, dialect))
                if step_like is None and _ends_in_step(low, dialect):
                    step_like = k  # (``max_global_step``: the step if the record names none and it climbs)
                if low in dialect.bare_names:
                    bare[k] = name
                used_words.update(low.replace("/", " ").replace("_", " ").replace("-", " ").replace(".", " ").split())
        k += 1
    keep_best(plan.metrics, held_best, plan.step is not None, any(
        infer_role(n).role != "other" for n in plan.metrics.values()))
    if opened and plan.step is not None and not _knows_any(plan.metrics.values()):
        plan.step = None  # (a bare number opening prose, ``... INFO 3, as planned``: no record's counter)
    if numbered and plan.step is not None and not _knows_any(plan.metrics.values()):
        plan.step = None  # a list's item in prose (a model's numbered answer, ``1. **Price:** ... $5 * 2 = $10``)
    two = _paired(counters, plan, table)
    if two is not None:
        plan.pair = two
        if counter_opener in (two[0][0], two[1][0]):
            counter_opener = None  # (one of two counters: decided as the pair, not as the record's position)
    # (a number that opens the record, its name no step's, before a value the reader knows: ``objective value``)
    # (or before a sampler's acceptance threshold, the objective of a run logging no loss: pyabc's ``t: 3, eps: ...``,
    # ``thresholds.py``)
    after = [n for f, n in plan.metrics.items() if f != opener]
    rises = step_like is None and opener is not None and (_knows_any(after) or any(map(is_threshold, after)))
    step_like = step_like if step_like is not None else opener if rises else None
    if (step_like is None and counter_opener is not None and plan.step is None and plan.counter is None
            and plan.epoch is None and plan.metrics):
        step_like, rises = counter_opener, True  # (``engine._step_like``: a step while it rises at every record)
        plan.metrics[counter_opener] = counter_name
    if step_like is not None and plan.step is None and plan.counter is None and plan.position is None and (
            plan.epoch is None or not rises):
        plan.step_like = step_like  # (``engine._step_like``: the position, if its values climb)
        plan.step_like_rises = rises
    if bare and any(k not in bare and infer_role(n).role == "train_loss" for k, n in plan.metrics.items()):
        # a bare split's name next to a field named a loss (PyTorch Geometric's "Loss: 1.58, Train: 0.30, Val: 0.27"
        # where Train/Val are accuracies) is no loss: read under its own name, its direction unknown
        plan.metrics.update(bare)
    if plan.epoch_end:  # "| end of epoch 3 | time: 35.58s |": the time is the epoch's
        plan.metrics = {k: "epoch_" + n if n.split("_")[0].lower() == "time" else n for k, n in plan.metrics.items()}
    plan.per_epoch = plan.counter is not None and any(m in rep for m in dialect.epoch_bar_markers)
    if epoch_cell and plan.step is None and plan.epoch is not None:
        # a table's row under an epoch column ``n/N`` (ultralytics' ``1/15  0G  1.234 ... 640: 100% ━━ 8/8``): the
        # epoch is the row's step, the bar's batch counter after it is no step; the redraws of one epoch are one point
        plan.step, plan.step_total, plan.epoch, plan.epoch_total = plan.epoch, plan.epoch_total, None, None
        plan.counter, plan.counter_bare, plan.epoch_row = None, False, True
    if plan.step_total is not None and plan.epoch is not None and plan.counter is None and plan.step is not None:
        plan.counter, plan.step, plan.step_total = (plan.step, plan.step_total), None, None  # restarts each epoch
    if (plan.epoch is not None and plan.epoch_total is None and plan.step is None and plan.counter is None
            and len(plan.metrics) == 1 and not plan.summary):
        (f, m), = plan.metrics.items()
        if m.lower() in dialect.inner_names and f > plan.epoch:  # ``@epoch 2 - batch 8:``: a position, no value
            plan.position, plan.metrics, plan.epoch = (plan.epoch, f), {}, None
    if plan.epoch is not None and plan.step is None and plan.counter is None and len(plan.metrics) > 1:
        inner = [f for f, m in plan.metrics.items() if m.lower() in dialect.inner_names and f > plan.epoch
                 and _whole_in_all(samples, len(spans), f)]
        if len(inner) == 1:  # a batch counter with no total under the epoch: the position within the epoch
            plan.step, plan.inner = inner[0], True
            del plan.metrics[inner[0]]
    if plan.step is not None and plan.counter is None and not plan.inner:
        outer = tuple(f for f, m in sorted(plan.metrics.items()) if m.lower() in dialect.inner_names and f < plan.step
                      and (plan.epoch is None or f > plan.epoch) and _whole_in_all(samples, len(spans), f))
        if outer and set(plan.metrics) - set(outer):  # counters nested between the epoch and the step: positions
            plan.outer = outer  # (``nested_counters``)
            for f in outer:
                del plan.metrics[f]
    if plan.step is not None and plan.epoch is None and plan.counter is None:
        pair = _pair_after(rep, spans, plan.step, samples)
        if pair is not None and set(plan.metrics) - {pair}:  # a record's step named with a pair ``(a, b)``
            # (hiddenlayer's ``Step (1, 5):``): (epoch, batch), the batch restarting when the epoch moves
            # (``engine._continue_inner``; one that never restarts reads as it is); a setting's (``STEPS: (30, 60)``)
            plan.epoch, plan.step, plan.inner = plan.step, pair, True  # names no value: no position
            plan.metrics.pop(pair, None)
    text_at = text_start(rep) if header is not None else -1  # a table row's free-text cells name no split
    context = (rep if text_at < 0 else rep[:text_at]).decode("utf-8", "replace").lower()
    waiting = _placeholder_named(context, dialect)  # ``val: n/a``: a split not measured yet, no evaluation's mark
    context = context.replace("(s)", "s")  # ``function evaluation(s) done``: a plural, a count of them, no split
    for ch in "[](){}|:=,;'\"-/\t":
        context = context.replace(ch, " ")
    words = set(context.split()) - used_words - waiting
    plan.is_eval = bool(words & dialect.eval_words)
    if plan.is_eval and _eval_section(rep, spans, plan, dialect):
        plan.is_eval = False  # a train section, then an evaluation's: the record is the train step's
    fit = objective_estimates.fit_field(plan.metrics, dialect)
    if fit is not None:
        plan.metrics[fit] = dialect.fit_name  # ``f = 0.79 f-delta = 0.79``: a decomposition's fit, maximised
    if (len(plan.metrics) == 1 and plan.step is None and plan.epoch is None and plan.counter is None
            and objective_estimates.initial_of(next(iter(plan.metrics.values())).lower(), dialect)):
        plan.metrics = {next(iter(plan.metrics)): "objective"}  # ``Initial f-est: 540.6``: the value at step 0
        plan.is_record = plan.initial = True
    estimates = [f for f, n in plan.metrics.items() if objective_estimates.is_estimate(n.lower(), dialect)]
    if len(estimates) == 1 and not plan.is_eval and "objective" not in plan.metrics.values() and (
            plan.step is not None or plan.epoch is not None or plan.counter is not None):
        plan.metrics[estimates[0]] = "objective"  # ``Epoch 0: f-est = 54.6``: an estimate of the objective
    if not plan.is_eval and not any(_names_objective(n) for n in plan.metrics.values()):
        by_name = [k for k, n in plan.metrics.items() if n.lower() in dialect.objective_names
                   or at_iteration and plan.step is not None and n.lower() in dialect.iteration_objective_names
                   or len(plan.metrics) == 1 and n.lower() in dialect.sole_objective_names]
        split_generic = {f: pre for f, n in plan.metrics.items() for pre in [_split_generic(n, dialect)]
                         if pre is not None}
        if unnamed is not None:
            plan.metrics[unnamed] = "objective"
        elif "" in split_generic.values() and list(split_generic.values()).count("") == 1 and all(
                infer_role(n).role == "other" for f, n in plan.metrics.items() if f not in split_generic):
            # ``Train metric: 3.01, Validation metric: 3.05``: each split's value of the run's objective
            plan.metrics.update({f: pre + "objective" for f, pre in split_generic.items()})
        elif len(by_name) == 1 and (plan.step is not None or plan.epoch is not None or plan.counter is not None):
            plan.metrics[by_name[0]] = "objective"  # jMetalPy's ``Evaluations: 80. fitness: [38.26]``
        else:
            summed = [k for k in totals if _sum_of_others(samples, len(spans), k, sorted(plan.metrics))]
            if len(summed) == 1:
                plan.metrics[summed[0]] = "total_loss"
    elif not plan.is_eval and totals and not any(
            infer_role(n).role == "train_loss" or "loss" in n.lower() for n in plan.metrics.values()):
        # a total beside its terms, none named a loss but one read as an objective (open_spiel's ``Losses(total:
        # 2.191, policy: 1.824, value: 0.354, l2: 0.013)``, its ``l2`` a weight decay's term): the sum of every other
        # value the record prints is the record's loss, its terms the parts it sums (beside terms named losses, a
        # total stays no metric: test_engine_holdout22_shapes)
        summed = [k for k in totals if _sum_of_others(samples, len(spans), k, sorted(plan.metrics), every=True)]
        if len(summed) == 1:
            plan.metrics[summed[0]] = "total_loss"
    if plan.metrics:
        head = rep[opening:spans[min(plan.metrics)][0]].lower()
        for phrase, prefix in dialect.heading_prefixes.items():
            if phrase.encode() in head:  # ``Stats before training: pos_rank: ...``: measured before the unit trains
                plan.metrics = {f: prefix + n for f, n in plan.metrics.items()}
                plan.before = True
                break
    if parts and plan.epoch_total is not None and not plan.metrics and plan.step is None and plan.counter is None and (
            plan.position is None):
        plan.parts = tuple(parts)  # an epoch banner worked through in parts (``_epoch_parts``)
    if plan.is_record and plan.step is None and plan.epoch is None and not any(
            infer_role(n).role != "other" for n in plan.metrics.values()):
        plan.is_record = False  # a printed dict of settings ({'block_size': 1048576, ...}): no record on its face
    if plan.step is None and plan.epoch is None and plan.counter is None and any(
            n.lower() in dialect.criterion_names for n in plan.metrics.values()):
        plan.metrics = {}  # a candidate of a search over models (``ARIMA(2,1,2)(0,0,0)[0] : AIC=1030.672``): no series
        plan.is_record = False
    named = [f for f in sorted(plan.metrics) if f > (plan.step if plan.step is not None else len(spans))]
    if plan.step is not None and not plan.is_eval and len(named) >= 3 and plan.step < min(plan.metrics):
        plan.is_record = True  # a step then three named metrics after it: a record on its face, even seen once
    return plan
