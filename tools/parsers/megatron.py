"""Megatron-LM / Megatron-DeepSpeed iteration lines (bigscience style).

``iteration N/ M | consumed samples: ... | learning rate: 9.850E-05 | lm loss: 2.77E+00 |
loss scale: 32768.0 | grad norm: 0.000 | ... | number of nan iterations: 0 |`` plus
``validation loss at iteration N | lm loss value: X | lm loss PPL: P |`` blocks.

Field names are kept (``lm loss``, ``learning rate``, ``grad norm``, ``loss scale``...).
Records hard-wrapped over several physical lines are joined; a record missing a
field (tr8-104B 9027 has no ``lm loss``) just lacks that point. ``grad norm: 0.000``
is what Megatron prints when the norm was not computed: such zeros are dropped (a
true global gradient norm of exactly zero does not happen in a training run).
DeepSpeed ``OVERFLOW! ... Skipping step`` lines are counted in ``overflow_skips``
(cumulative), never recorded as a NaN loss.
"""

from __future__ import annotations

import re

from .base import Emitter, LineFormat
from .text import norm_key, to_value

_START = re.compile(r"\biteration\s+(\d+)\s*/\s*(\d+)\s*\|(.*)$")
_VALID = re.compile(r"\b(?:validation|valid) loss at iteration\s+(\d+)\s*\|(.*)$")
_OVERFLOW = re.compile(r"OVERFLOW! Rank 0 Skipping step|Overflow detected\. Skipping step")
_FIELD = re.compile(r"([A-Za-z][^|:]*?):\s*([^|]+?)\s*(?=\||$)")
_PREFIX = re.compile(r"^\[[^\]]*\]:\s?")  # [default7]: rank prefixes
_COMPLETE = re.compile(r"number of\s+nan\s+iterations:\s*\d+\s*(?:\|.*)?$")
_VALID_NAMES = {"lm loss value": "val_lm_loss", "lm loss PPL": "val_lm_loss_ppl"}


class MegatronFormat(LineFormat):
    name = "megatron"
    detect_re = re.compile(r"\biteration\s+\d+\s*/\s*\d+\s*\|")
    priority = 6

    def _emit(self, record: str, em: Emitter) -> None:
        m = _START.search(record)
        if not m:
            return
        step = int(m.group(1))
        em.total_steps = int(m.group(2))
        em.state["step"] = step
        for name, raw in _FIELD.findall(m.group(3)):
            key = norm_key(name)
            v = to_value(raw)
            if v is None:
                continue
            if key == "grad norm" and v == 0.0:
                continue  # "not computed"
            em.add(step, key, v)

    def parse(self, text: str, em: Emitter) -> None:
        state = em.state
        pending: str | None = state.pop("pending", None)
        for line in text.split("\n"):
            if not line.strip():
                continue
            m = _START.search(line)
            if m:
                if pending is not None:
                    self._emit(pending, em)
                    pending = None
                body = line[m.start():].rstrip()
                if _COMPLETE.search(body):
                    self._emit(body, em)
                else:
                    pending = body
                continue
            v = _VALID.search(line)
            if v:
                if pending is not None:
                    self._emit(pending, em)
                    pending = None
                step = int(v.group(1))
                for name, raw in _FIELD.findall(v.group(2)):
                    val = to_value(raw)
                    if val is not None:
                        em.add(step, _VALID_NAMES.get(norm_key(name), "val_" + norm_key(name)), val)
                continue
            if _OVERFLOW.search(line):
                state["overflows"] = state.get("overflows", 0) + 1
                em.add(int(state.get("step", 0)), "overflow_skips", float(state["overflows"]))
                continue
            if pending is not None:
                cont = _PREFIX.sub("", line)
                if "|" in cont or ":" in cont:
                    pending = pending + (cont if cont[:1].isspace() else " " + cont)
                    if _COMPLETE.search(pending.rstrip()):
                        self._emit(pending.rstrip(), em)
                        pending = None
                    continue
                self._emit(pending, em)
                pending = None
        if pending is not None:
            state["pending"] = pending[:65536]

    def finish(self, em: Emitter) -> None:
        """A pending record with its last field complete is emitted at once, so the newest step is not held back."""
        pending = em.state.get("pending")
        if pending and re.search(r"\|\s*$", pending) and "lm loss" in pending:
            self._emit(em.state.pop("pending"), em)
