"""nanoGPT and build-nanogpt console lines.

karpathy/nanoGPT ``train.py``::

    iter 100: loss 4.2345, time 31.20ms, mfu 21.40%
    step 250: train loss 3.8123, val loss 3.9001

karpathy/build-nanogpt ``train_gpt2.py``::

    step    10 | loss: 9.412345 | lr 6.0000e-04 | norm: 1.2345 | dt: 312.50ms | tok/sec: 16777.22
    validation loss: 3.4567          (printed just before the step line of the same step)

and its ``log/log.txt`` (``<step> train <loss>``, ``<step> val <loss>``, ``<step> hella <acc>``).

Names follow tools/roles.py: ``train_loss``, ``val_loss``, ``lr``, ``grad_norm``; the eval-time estimate of the
train split's loss becomes ``train_loss_eval`` (an eval metric, not the per-step loss).
"""

from __future__ import annotations

import re

import numpy as np

from .base import Emitter, LineFormat
from .fastpath import DIGITS, NUMBER_CHARS, read_fields, two_shapes, words
from .text import to_value

_ITER = re.compile(r"\biter (\d+): loss (\S+?),(?: time (\S+?)ms,)?(?: mfu (\S+?)%)?")
_EVAL = re.compile(r"\bstep (\d+): train loss (\S+?), val loss (\S+?)(?:,|\s|$)")
_BUILD = re.compile(r"^\s*step\s+(\d+)\s*\|\s*loss:\s*(\S+)(.*)$")
_BUILD_FIELD = re.compile(r"\|\s*([A-Za-z/ ]+?):?\s+([-+0-9.eE]+|nan|inf|-inf|NaN)\s*(ms|s)?(?=\s*\||\s*$)")
_BUILD_VAL = re.compile(r"^\s*validation loss:\s*(\S+)")
_LOGTXT = re.compile(r"^(\d+) (train|val|hella) (\S+)\s*$")
_LOGTXT_NAMES = {"train": "train_loss", "val": "val_loss", "hella": "val_hellaswag_acc"}
_BUILD_NAMES = {"lr": "lr", "norm": "grad_norm", "dt": "step_time_ms", "tok/sec": "tokens_per_sec"}


class NanoGptFormat(LineFormat):
    """karpathy/nanoGPT and build-nanogpt training lines; the step is the iteration number."""

    name = "nanogpt"
    detect_re = re.compile(r"^\d+ (?:train|val) [-+0-9.eEnaif]+\s*$|\biter \d+: loss \S+, time "
                           r"|\bstep \d+: train loss \S+, val loss |^\s*step\s+\d+\s*\|\s*loss:")
    priority = 5

    def parse(self, text: str, em: Emitter) -> None:
        """Line by line; the reader tries ``parse_plain`` on a block first."""
        self._parse_lines(text, em)

    def parse_plain(self, data: bytes, em: Emitter) -> bool:
        """A block of only nanoGPT's two usual lines, read by pandas' C reader: the points and state of
        ``_parse_lines``."""
        return _parse_plain(data, em)

    def _parse_lines(self, text: str, em: Emitter) -> None:
        """Any block, line by line (the fallback of ``_parse_plain``)."""
        state = em.state
        for line in text.split("\n"):
            if line[:1].isdigit():
                m = _LOGTXT.match(line)
                if m:
                    v = to_value(m.group(3))
                    if v is not None:
                        em.add(int(m.group(1)), _LOGTXT_NAMES[m.group(2)], v)
                    continue
            m = _ITER.search(line)
            if m:
                step = int(m.group(1))
                for key, raw in (("train_loss", m.group(2)), ("iter_time_ms", m.group(3)), ("mfu_pct", m.group(4))):
                    v = to_value(raw) if raw is not None else None
                    if v is not None:
                        em.add(step, key, v)
                state["step"] = step
                continue
            m = _EVAL.search(line)
            if m:
                step = int(m.group(1))
                for key, raw in (("train_loss_eval", m.group(2)), ("val_loss", m.group(3))):
                    v = to_value(raw)
                    if v is not None:
                        em.add(step, key, v)
                continue
            m = _BUILD_VAL.match(line)
            if m:
                v = to_value(m.group(1))
                if v is not None:
                    state["pending_val"] = v  # belongs to the step line that follows
                continue
            m = _BUILD.match(line)
            if m:
                step = int(m.group(1))
                v = to_value(m.group(2))
                if v is not None:
                    em.add(step, "train_loss", v)
                for name, raw, _unit in _BUILD_FIELD.findall(m.group(3)):
                    key = _BUILD_NAMES.get(name.strip(), name.strip().replace(" ", "_"))
                    fv = to_value(raw)
                    if fv is not None:
                        em.add(step, key, fv)
                if "pending_val" in state:
                    em.add(step, "val_loss", state.pop("pending_val"))
                state["step"] = step


_ITER_SHAPE = b"itr : loss , tim ms, mfu %\n"  # an iter line without its number characters (the "e"s are some)
_EVAL_SHAPE = b"stp : train loss , val loss \n"
# once the shape is proven: the spaces, ":", "%" and the "m"s become commas, the other letters but "e" go (the "e"s
# of iter, time and step stay as words of their own). Every number has a field, and so has every gap between the
# words, which must stay empty: a number character glued into a word lands in one of them (or makes an "e" field
# something else than "e").
# iter lines  e,N,,,X,,,e,T,,,,,M,     (N 1, X 4, "e" of time 7, T 8, M 13; the rest empty)
# eval lines  e,N,,,,X,,,,Y            (N 1, X 5, Y 9; the rest empty or absent)
_TO_CSV = bytes.maketrans(b" :%m", b",,,,")
_NOT_CSV = b"itrlosfuanvp"
_WIDTH = 15
_FIELDS: dict[int, object] = {j: np.float64 for j in range(_WIDTH)} | {0: "category", 1: np.int64, 7: "category"}
_ITER_NUMBERS, _EVAL_NUMBERS = (4, 8, 13), (5, 9)
_GAPS = tuple(j for j in range(2, _WIDTH) if j != 7 and j not in _ITER_NUMBERS + _EVAL_NUMBERS)


def _parse_plain(data: bytes, em: Emitter) -> bool:
    """The points of a block whose every line is exactly ``iter N: loss X, time Tms, mfu M%`` or
    ``step N: train loss X, val loss Y`` (plain numbers, no nan/inf words, single spaces), as the line-by-line pass
    gives them, with its state (the last iter line's step); False (nothing emitted) for any other block.

    The proof (tools/parsers/fastpath.py): without its number characters every line is one of the two shapes;
    without its digits every line starts ``iter :`` or ``step :`` (the step is plain digits, as the line parser's
    ``\\d+`` wants); pandas' C reader then reads every field of the CSV above: the numbers as numbers, the "e"s as
    words that must be exactly "e" where the shape has one, the gaps as numbers that must all be empty. A field
    that is empty or not a number, or a step beyond int64: False."""
    n = data.count(b"\n")
    if not n or not data.endswith(b"\n") or not (data.startswith(b"iter ") or data.startswith(b"step ")):
        return False
    no_digits = data.translate(None, DIGITS)
    counts = two_shapes(no_digits.translate(None, NUMBER_CHARS), n, _ITER_SHAPE, _EVAL_SHAPE)
    if counts is None:
        return False
    n_iter, n_eval = counts
    heads = no_digits.count(b"\niter : ") + no_digits.count(b"\nstep : ")
    if heads != n - 1 or not (no_digits.startswith(b"iter : ") or no_digits.startswith(b"step : ")):
        return False
    df = read_fields(data.translate(_TO_CSV, _NOT_CSV), _WIDTH, _FIELDS)
    if df is None or len(df) != n:
        return False
    first_e, time_e = words(df[0], ("e",)), words(df[7], ("e",))
    if first_e is None or time_e is None or (first_e != 0).any():
        return False
    is_iter = time_e == 0
    if int(is_iter.sum()) != n_iter:
        return False
    is_eval = ~is_iter
    nan = {j: np.isnan(df[j].to_numpy(dtype=np.float64)) for j in _GAPS + _ITER_NUMBERS + _EVAL_NUMBERS}
    if any(not nan[j].all() for j in _GAPS):
        return False  # a number character glued into a word
    for own, other, rows in ((_ITER_NUMBERS, _EVAL_NUMBERS, is_iter), (_EVAL_NUMBERS, _ITER_NUMBERS, is_eval)):
        if any(nan[j][rows].any() for j in own) or any(not nan[j][rows].all() for j in other):
            return False  # an empty number, or a number where the line's shape has none
    steps = df[1].to_numpy(dtype=np.int64)
    loss, t, mfu, tle, vl = (df[j].to_numpy(dtype=np.float64) for j in _ITER_NUMBERS + _EVAL_NUMBERS)
    if not n_eval:
        groups = [("train_loss", steps, loss), ("iter_time_ms", steps, t), ("mfu_pct", steps, mfu)]
    else:
        es = steps[is_eval]
        evals = [("train_loss_eval", es, tle[is_eval]), ("val_loss", es, vl[is_eval])]
        iters = []
        if n_iter:
            s_ = steps[is_iter]
            iters = [("train_loss", s_, loss[is_iter]), ("iter_time_ms", s_, t[is_iter]), ("mfu_pct", s_, mfu[is_iter])]
        groups = evals + iters if is_eval[0] else iters + evals  # the keys in the order they first appear
    for key, ss, vv in groups:
        em.extend(key, ss, vv)
    if n_iter:
        em.state["step"] = int(steps[is_iter][-1])
    return True
