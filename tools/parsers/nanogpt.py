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

from .base import Emitter, LineFormat
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
