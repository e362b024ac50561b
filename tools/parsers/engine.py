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

import io
import re
from typing import ClassVar

import numpy as np

from .base import Emitter, LineFormat
from .dialect import DIALECT
from .fields import Plan, plan_template
from .lines import split_lines
from .templates import NAN_MARK, group_lines, value_text

MAX_SERIES = 512  # templates read as series per block; more is not a training log
MAX_KNOWN = 2048  # recurring templates remembered between blocks
MAX_PENDING = 64  # one-off lines kept in case their template recurs later (a young log)
PENDING_LINE = 2048
SAMPLES = 4
_TOTAL_STEPS = re.compile(rb"[Tt]otal (?:optimization|training) steps\s{0,8}+[=:]\s{0,8}+([\d,]{1,16}+)")
_EVAL_PREFIX = ("val", "valid", "eval", "test", "dev")


class TextLogFormat(LineFormat):
    """Every text log (see the module docstring)."""

    name: ClassVar[str] = "text"
    detect_re = re.compile(r"\d")
    generic = True
    priority = 0  # among the generic readers, tried last: kept where it keeps clearly more loss points

    def parse(self, text: str, em: Emitter) -> None:
        self.parse_plain(text.encode("utf-8", "replace"), em)

    def parse_plain(self, data: bytes, em: Emitter) -> bool:
        read_block(data, em)
        return True

    def finish(self, em: Emitter) -> None:
        st = _state(em)
        if st.get("by_order") and not st.get("said_order"):
            st["said_order"] = True
            em.notes.append("the log gives no step numbers: points are numbered by line order")


def _state(em: Emitter) -> dict:
    st = em.state.get("eng")
    if st is None:
        st = em.state["eng"] = {"known": [], "pending": [], "epoch": None, "e0": None, "main_n": None,
                                "main_total": None, "prog": None, "last_n": None, "off": 0, "step": None,
                                "order": 0}
    return st


def read_block(data: bytes, em: Emitter) -> None:
    """Read one block of complete lines into ``em`` (see the module docstring)."""
    st = _state(em)
    m = _TOTAL_STEPS.search(data) if b"otal " in data else None
    if m:
        em.total_steps = st["total"] = int(m.group(1).replace(b",", b"") or 0) or None
    split = split_lines(data)
    if split.cut:
        st["cut"] = st.get("cut", 0) + split.cut
        em.notes.append(f"cut {st['cut']} line(s) longer than 16 KB")
    pending = [p.encode("latin-1") for p in st["pending"]]
    lines = pending + split.lines if pending else split.lines
    st["pending"] = []
    if not lines:
        return
    grouping = group_lines(lines)
    known = set(st["known"])
    order = np.argsort(grouping.codes, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(grouping.counts)))
    # A series is decided on the template without blanks (a counter's padding changes its exact template: one
    # series, read per exact template).
    loose = [t.translate(None, b" \t") for t in grouping.templates]
    loose_count: dict[bytes, int] = {}
    for t, c in zip(loose, grouping.counts.tolist(), strict=True):
        loose_count[t] = loose_count.get(t, 0) + c
    plans: list[tuple[Plan, np.ndarray]] = []
    for g in np.argsort(-grouping.counts, kind="stable")[:MAX_SERIES]:
        idx = order[bounds[g]:bounds[g + 1]]
        tmpl = loose[g]
        first = lines[int(idx[0])]
        if not first.strip() or not any(48 <= c <= 57 for c in first[:PENDING_LINE]) and NAN_MARK not in first:
            continue
        key = tmpl.decode("latin-1")
        one_off = loose_count[tmpl] < 2 and key not in known
        if one_off:
            # A line seen once is no series (a banner, a config dump, the final summary) unless it is a record
            # on its face: a printed dict, or a step with a loss (an excerpt, the first line of a young log).
            if len(st["pending"]) >= MAX_PENDING or len(first) > PENDING_LINE:
                continue
            plan = plan_template([first])
            seen = set(st.get("names", ()))
            if plan is None or plan.is_summary or not (
                    plan.is_record or _has_position(plan) and (_has_loss(plan) or seen & set(plan.metrics.values()))):
                st["pending"].append(first.decode("latin-1"))
                continue
        else:
            picks = sorted({int(idx[0]), int(idx[len(idx) // 2]), int(idx[-1]), int(idx[min(1, len(idx) - 1)])})
            plan = plan_template([lines[i] for i in picks][:SAMPLES])
            if plan is None or plan.is_summary:
                continue
        if loose_count[tmpl] >= 2 and len(known) < MAX_KNOWN:
            known.add(key)
        plans.append((plan, idx))
    st["known"] = sorted(known)[:MAX_KNOWN]
    if plans:
        blank = [i for i, t in enumerate(grouping.templates) if not t.strip()]
        _emit(lines, plans, st, em, ~np.isin(grouping.codes, blank))


def _has_position(plan: Plan) -> bool:
    return plan.step is not None or plan.counter is not None


def _has_loss(plan: Plan) -> bool:
    from ..roles import infer_role

    return any(infer_role(n).role in ("train_loss", "eval") for n in plan.metrics.values())


def _read(lines: list[bytes], idx: np.ndarray, cols: list[int]) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """The numbers of fields ``cols`` of the lines ``idx`` (one template), and which lines hold a field that is no
    number (NaN there; such a value is no point)."""
    import pandas as pd

    sel = lines if len(idx) == len(lines) else [lines[i] for i in idx.tolist()]
    text = value_text(sel)
    opts = {"header": None, "usecols": cols, "engine": "c", "na_values": [NAN_MARK.decode()],
            "keep_default_na": False, "skip_blank_lines": False}
    bad = np.zeros(len(idx), dtype=bool)
    try:
        df = pd.read_csv(io.BytesIO(text), dtype=np.float64, **opts)
        return {c: df[c].to_numpy(dtype=np.float64) for c in cols}, bad
    except (ValueError, pd.errors.ParserError):
        pass
    df = pd.read_csv(io.BytesIO(text), dtype=str, **opts)
    out: dict[int, np.ndarray] = {}
    for c in cols:
        raw = df[c]
        vals = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64).copy()
        wrong = np.isnan(vals) & (raw != NAN_MARK.decode()).to_numpy()
        vals[wrong] = np.nan
        out[c] = vals
        bad |= wrong
    return out, bad


def _continue_steps(steps: np.ndarray, epochs: np.ndarray, st: dict) -> np.ndarray:
    """Steps that restart each epoch (``Epoch: 2 | Step: 5000`` after ``Epoch: 1 | Step: 20000``) continue from the
    last step of the epoch before."""
    prev_s = np.concatenate(([st.get("raw_step", -np.inf)], steps[:-1]))
    prev_e = np.concatenate(([st.get("raw_epoch", np.inf)], epochs[:-1]))
    restart = (steps <= prev_s) & (epochs > prev_e)
    add = np.where(restart, prev_s, 0.0)
    add[~np.isfinite(add)] = 0.0
    off = float(st.get("step_off", 0.0)) + np.cumsum(add)
    st["raw_step"], st["raw_epoch"], st["step_off"] = float(steps[-1]), float(epochs[-1]), float(off[-1])
    return steps + off


def _ffill(values: np.ndarray, start: float | None) -> np.ndarray:
    """``values`` with each NaN replaced by the last number before it (``start`` before the first)."""
    have = ~np.isnan(values)
    pos = np.where(have, np.arange(len(values)), -1)
    np.maximum.accumulate(pos, out=pos)
    before = np.nan if start is None else start
    return np.where(pos >= 0, values[np.maximum(pos, 0)], before)


def _emit(lines: list[bytes], plans: list[tuple[Plan, np.ndarray]], st: dict, em: Emitter,
          nonblank: np.ndarray) -> None:
    n = len(lines)
    nan = np.full(n, np.nan)
    explicit = nan.copy()  # explicit steps per line
    epoch = nan.copy()  # epoch given on the line (a banner, or the record's own epoch)
    banner_epoch = nan.copy()
    prog_n, prog_total = nan.copy(), nan.copy()
    reads: list[tuple[Plan, np.ndarray, dict[int, np.ndarray]]] = []
    for plan, idx in plans:
        cols = plan.positions
        got, bad = _read(lines, idx, cols)
        if bad.any():  # a line whose fields are not all numbers is garbage of the same shape: not read
            keep = ~bad
            idx = idx[keep]
            got = {c: v[keep] for c, v in got.items()}
        reads.append((plan, idx, got))
        if plan.step is not None:
            v = got[plan.step]
            if plan.epoch is not None and len(v):
                v = _continue_steps(v, got[plan.epoch], st)
            ok = ~np.isnan(v)
            explicit[idx[ok]] = v[ok]
            if plan.step_total is not None and len(v):
                tot = got[plan.step_total]
                if len(tot) and not np.isnan(tot[-1]):
                    em.total_steps = st["total"] = int(tot[-1])
        if plan.epoch is not None:
            v = got[plan.epoch]
            epoch[idx] = v
            if not plan.metrics or plan.epoch_total is not None:
                banner_epoch[idx] = v
            if plan.epoch_total is not None and len(v):
                st["epochs"] = float(got[plan.epoch_total][-1])
        if plan.counter is not None and not plan.is_eval:
            cn, ct = got[plan.counter[0]], got[plan.counter[1]]
            prog_n[idx], prog_total[idx] = cn, ct
    # The main progress counter: the one with the largest total (an eval bar counts its own, shorter, set).
    totals = prog_total[~np.isnan(prog_total)]
    if len(totals):
        main = st["main_total"] if st["main_total"] in set(totals.tolist()) else float(totals.max())
        st["main_total"] = main
        prog_n[prog_total != main] = np.nan
    is_prog = ~np.isnan(prog_n)
    # the epoch of each line: the banner's or the record's own, carried forward
    ep_line = np.where(np.isnan(epoch), banner_epoch, epoch)
    ep_ff = _ffill(banner_epoch, st["epoch"])
    ep_at = np.where(np.isnan(ep_line), ep_ff, ep_line)
    has_ep = bool(is_prog.any() and not np.all(np.isnan(ep_at[is_prog])))
    glob = nan.copy()
    if is_prog.any():
        pi = np.flatnonzero(is_prog)
        pn = prog_n[pi]
        total = st["main_total"] or 0.0
        if has_ep:
            e = ep_at[pi]
            first = e[~np.isnan(e)]
            if st["e0"] is None and len(first):
                st["e0"] = 0.0 if float(first[0]) == 0 else 1.0
            e0 = st["e0"] or 0.0
            g = np.where(np.isnan(e), np.nan, (np.floor(np.nan_to_num(e)) - e0) * total + pn)
            g = np.where(np.isnan(g), pn, g)
        else:
            # a counter restarting without an epoch: each restart is an epoch of ``total``
            prev = np.concatenate(([st["last_n"] if st["last_n"] is not None else -1.0], pn[:-1]))
            restarts = np.cumsum(pn < prev)
            g = pn + (st["off"] + restarts) * total
            st["off"] = int(st["off"] + (restarts[-1] if len(restarts) else 0))
            st["last_n"] = float(pn[-1])
        glob[pi] = g
        if total and not em.total_steps and not has_ep:
            em.total_steps = int(total)
        elif total and st.get("epochs") and has_ep:
            em.total_steps = int(total * st["epochs"])
    # where a record without a step of its own sits: the counter line right after it, else the last one
    last_prog = _ffill(glob, st["prog"])
    nxt = np.full(n, np.nan)
    nb_idx = np.flatnonzero(nonblank)
    if len(nb_idx) > 1:
        nxt[nb_idx[:-1]] = glob[nb_idx[1:]]
    carried = np.where(np.isnan(nxt), last_prog, nxt)
    if is_prog.any():
        st["prog"] = float(glob[np.flatnonzero(is_prog)[-1]])
    if not np.all(np.isnan(ep_ff)):
        st["epoch"] = float(ep_ff[-1])
    per_key: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
    train_steps: list[tuple[np.ndarray, np.ndarray]] = []
    evals: list[tuple[Plan, np.ndarray, dict[int, np.ndarray]]] = []
    for plan, idx, got in reads:
        if not plan.metrics:
            continue
        if plan.is_eval:
            evals.append((plan, idx, got))
            continue
        steps = explicit[idx]
        need = np.isnan(steps)
        if need.any():
            if plan.counter is not None:
                steps = np.where(need, glob[idx], steps)
            need = np.isnan(steps)
            steps = np.where(need, carried[idx], steps)
            need = np.isnan(steps)
            if need.any() and np.all(need):
                k = int(need.sum())
                steps = st["order"] + 1 + np.arange(k, dtype=np.float64)
                st["order"] += k
                st["by_order"] = True
        train_steps.append((idx, steps))
        _collect(plan, idx, steps, got, per_key, prefix="")
    if train_steps:
        all_idx = np.concatenate([i for i, _ in train_steps])
        all_steps = np.concatenate([s for _, s in train_steps])
        at = nan.copy()
        at[all_idx] = all_steps
        train_ff = _ffill(at, st["step"])
        good = all_steps[~np.isnan(all_steps)]
        if len(good):
            st["step"] = float(all_steps[np.argmax(all_idx * ~np.isnan(all_steps))])
    else:
        train_ff = np.full(n, st["step"] if st["step"] is not None else np.nan)
    for plan, idx, got in evals:
        steps = explicit[idx]
        steps = np.where(np.isnan(steps), carried[idx], steps)
        steps = np.where(np.isnan(steps), train_ff[idx], steps)
        _collect(plan, idx, steps, got, per_key, prefix="val_")
    names = st.setdefault("names", [])
    names.extend(k for k in per_key if k not in names and len(names) < 256)
    for key, parts in per_key.items():
        li = np.concatenate([p[0] for p in parts])
        s = np.concatenate([p[1] for p in parts])
        v = np.concatenate([p[2] for p in parts])
        o = np.argsort(li, kind="stable")
        em.extend(key, s[o].astype(np.int64), v[o])


def _collect(plan: Plan, idx: np.ndarray, steps: np.ndarray, got: dict[int, np.ndarray],
             per_key: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]], prefix: str) -> None:
    ok = ~np.isnan(steps) & (np.abs(steps) < 9e18)
    for f, name in plan.metrics.items():
        key = name
        if prefix and not name.lower().startswith(_EVAL_PREFIX):
            key = prefix + name
        if ok.any():
            per_key.setdefault(key, []).append((idx[ok], np.round(steps[ok]), got[f][ok]))


__all__ = ["DIALECT", "TextLogFormat", "read_block"]
