"""PyTorch examples word_language_model stdout.

``| epoch   1 |   200/ 2983 batches | lr 20.00 | ms/batch 11.61 | loss  5.93 | ppl   376.02``,
``| end of epoch   1 | time: 35.58s | valid loss  5.53 | valid ppl   252.1`` and
``| End of training | test loss  4.74 | test ppl   114.6``.

The step is a global batch index ``(epoch - 1) * batches_per_epoch + batch``; the
end-of-epoch validation sits at ``epoch * batches_per_epoch``. ``loss   nan`` is a real NaN.
"""

from __future__ import annotations

import re

from .base import Emitter, LineFormat
from .text import to_value

_BATCH = re.compile(r"\|\s*epoch\s+(\d+)\s*\|\s*(\d+)\s*/\s*(\d+) batches\s*\|(.*)$")
_END = re.compile(r"\|\s*end of epoch\s+(\d+)\s*\|(.*)$")
_TEST = re.compile(r"\|\s*End of training\s*\|(.*)$")
_PART = re.compile(r"^(.*?)[:\s]\s*(\S+)$")
_EPOCHS = re.compile(r"\bepochs=(\d+)")
_NAMES = {"ms/batch": "ms/batch", "valid loss": "valid_loss", "valid ppl": "valid_ppl",
          "test loss": "test_loss", "test ppl": "test_ppl", "time": "epoch_time_s"}


def _fields(rest: str) -> list[tuple[str, float]]:
    out = []
    for part in rest.split("|"):
        part = part.strip()
        if not part:
            continue
        m = _PART.match(part)
        if not m:
            continue
        name = m.group(1).strip().rstrip(":")
        v = to_value(m.group(2))
        if v is None:
            continue
        out.append((_NAMES.get(name, name.replace(" ", "_")), v))
    return out


class WordLanguageModelFormat(LineFormat):
    name = "word_language_model"
    detect_re = re.compile(r"\|\s*epoch\s+\d+\s*\|\s*\d+\s*/\s*\d+ batches\s*\||\|\s*end of epoch\s+\d+\s*\|")
    priority = 6

    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        for line in text.split("\n"):
            if "|" not in line:
                if "epochs=" in line and line.startswith("Namespace("):
                    m = _EPOCHS.search(line)
                    if m:
                        st["epochs"] = int(m.group(1))
                continue
            m = _BATCH.search(line)
            if m:
                epoch, batch, per = int(m.group(1)), int(m.group(2)), int(m.group(3))
                st["per"] = per
                step = (epoch - 1) * per + batch
                st["step"] = step
                for k, v in _fields(m.group(4)):
                    em.add(step, k, v)
                continue
            m = _END.search(line)
            if m:
                epoch = int(m.group(1))
                batches = st.get("per")
                step = epoch * batches if batches else epoch
                st["step"] = step
                for k, v in _fields(m.group(2)):
                    em.add(step, k, v)
                continue
            m = _TEST.search(line)
            if m:
                step = int(st.get("step", 0))
                for k, v in _fields(m.group(1)):
                    em.add(step, k, v)
        if st.get("epochs") and st.get("per"):
            em.total_steps = int(st["epochs"]) * int(st["per"])
