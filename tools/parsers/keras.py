"""Keras fit() output: ``Epoch i/N`` then ``67s - loss: 2.48 - acc: 0.22 - val_loss: 2.11 - val_acc: 0.43``
(Keras 1, verbose=2) or ``250/250 [====] - 3s 12ms/step - loss: ... - val_loss: ...`` (Keras 2+).

The step is the epoch. A file can hold several runs (a sweep appending to one
log): a run starts at ``Building and compiling model`` or when the epoch counter
restarts; the last run is the one shown.
"""

from __future__ import annotations

import re

from .base import Emitter, LineFormat
from .text import to_value

_EPOCH = re.compile(r"^\s*Epoch (\d+)/(\d+)\s*$")
_METRICS = re.compile(r"(?:^|\s)-\s+(?:\d+s\s+)?(?:[\d.]+m?s/step\s+-\s+)?(\w+):\s")
_PAIR = re.compile(r"\s-\s(\w+):\s+(\S+)")
_NEW_RUN = re.compile(r"Building and compiling model")


class KerasFormat(LineFormat):
    name = "keras"
    detect_re = re.compile(r"^\s*Epoch \d+/\d+\s*$|\s-\s(?:loss|acc|accuracy|val_loss):\s+\S")
    priority = 4

    def score(self, lines: list[str]) -> int:
        # Both the epoch banner and the metric line are needed: "Epoch 1/3" alone is too common.
        epochs = sum(1 for line in lines if _EPOCH.match(line))
        metrics = sum(1 for line in lines if " - loss: " in line or " - val_loss: " in line)
        return epochs + metrics if epochs and metrics else 0

    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        for line in text.split("\n"):
            m = _EPOCH.match(line)
            if m:
                epoch = int(m.group(1))
                last = st.get("epoch")
                if last is not None and epoch <= last and not st.get("fresh"):
                    em.new_run()
                st["epoch"] = epoch
                st["fresh"] = False
                em.total_steps = int(m.group(2))
                st["total"] = int(m.group(2))
                continue
            if _NEW_RUN.search(line):
                if st.get("epoch") is not None:
                    em.new_run()
                    st["epoch"] = None
                st["fresh"] = True
                continue
            if " - " in line and ": " in line:
                pairs = _PAIR.findall(" " + line)
                if not pairs:
                    continue
                step = st.get("epoch") or 0
                for k, raw in pairs:
                    v = to_value(raw)
                    if v is not None:
                        em.add(step, k, v)
        if st.get("total"):
            em.total_steps = int(st["total"])
