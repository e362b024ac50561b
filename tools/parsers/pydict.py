"""Hugging Face Trainer console lines: printed Python dicts ``{'loss': 0.0, 'grad_norm': nan, 'learning_rate': ...,
'epoch': 0.01}`` and ``{'eval_loss': ..., 'epoch': ...}``.

These dicts carry no step: the step is the count of training-log dicts so far
(the k-th logged train dict is step k), or the dict's own ``step``/``global_step``
when it has one; eval dicts sit at the current step. The end-of-training summary
(``train_runtime``...) is skipped: its ``train_loss`` is an average, not a point.
"""

from __future__ import annotations

import re

from .base import Emitter, LineFormat
from .text import to_step, to_value

_DICT = re.compile(r"\{\s*'[^']+':\s*[^{}]*\}")
_PAIR = re.compile(r"'([^']+)':\s*([^,}]+)")


class HfDictLinesFormat(LineFormat):
    name = "hf_dict_lines"
    detect_re = re.compile(r"\{'(?:loss|eval_loss|train_loss|learning_rate|grad_norm|epoch)':\s")
    priority = 5

    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        for line in text.split("\n"):
            if "{'" not in line:
                continue
            for m in _DICT.finditer(line):
                pairs = _PAIR.findall(m.group(0))
                rec: dict[str, float] = {}
                step = None
                for k, raw in pairs:
                    if k in ("step", "global_step"):
                        step = to_step(raw.strip())
                        continue
                    v = to_value(raw.strip())
                    if v is not None:
                        rec[k] = v
                if not rec or "train_runtime" in rec:
                    continue
                is_eval = any(k.startswith(("eval_", "test_")) for k in rec)
                if step is None:
                    if not is_eval:
                        st["n"] = st.get("n", 0) + 1
                    step = int(st.get("n", 0))
                st["step"] = step
                em.record(step, rec)
