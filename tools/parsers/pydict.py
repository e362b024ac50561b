"""Hugging Face Trainer console lines: printed Python dicts ``{'loss': 0.0, 'grad_norm': nan, 'learning_rate': ...,
'epoch': 0.01}`` and ``{'eval_loss': ..., 'epoch': ...}``.

These dicts carry no step; the optimizer step is, in order: the dict's own
``step``/``global_step``; the tqdm counter printed on the same line before the dict
(`` 40%|####  | 400/1000 [..]{'loss': ...}``); ``epoch x steps per epoch``, the steps
per epoch taken from a line holding both a counter and an epoch, else from the
header (``Total optimization steps = N`` / ``Num Epochs = E``), snapped to the
``logging_steps`` grid of the TrainingArguments dump; else the count of train dicts
times ``logging_steps`` (or the count alone, said in the notes). Eval dicts sit at
the current step. The end-of-training summary (``train_runtime``...) is skipped: its
``train_loss`` is an average, not a point.
"""

from __future__ import annotations

import re

from .base import Emitter, LineFormat
from .text import to_step, to_value

_DICT = re.compile(r"\{\s*'[^']+':\s*[^{}]*\}")
_PAIR = re.compile(r"'([^']+)':\s*([^,}]+)")
_LOG_KEYS = {"loss", "learning_rate", "epoch", "grad_norm", "train_loss", "lr"}
_BAR = re.compile(r"\|\s*(\d+)/\d+\s*\[")
_TOTAL = re.compile(r"Total optimization steps\s*=\s*([\d,]+)")
_EPOCHS = re.compile(r"Num Epochs\s*=\s*([\d,]+)")
_LOGGING_STEPS = re.compile(r"\blogging_steps\s*[=:]\s*([\d.]+)")


class HfDictLinesFormat(LineFormat):
    name = "hf_dict_lines"
    detect_re = re.compile(r"\{'(?:loss|eval_loss|train_loss|learning_rate|grad_norm|epoch)':\s")
    priority = 5

    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        for line in text.split("\n"):
            if "{'" not in line:
                if "steps" in line or "Epochs" in line:
                    self._header(line, st, em)
                continue
            bar = _BAR.findall(line[: line.find("{'")])
            counter = int(bar[-1]) if bar else None
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
                if not rec or "train_runtime" in rec or not any(k in _LOG_KEYS or k.startswith(("eval_", "test_"))
                                                                for k in rec):
                    continue  # the end-of-training summary, or a settings dict (fsdp_config={...})
                is_eval = any(k.startswith(("eval_", "test_")) for k in rec)
                if step is None:
                    if is_eval:
                        step = int(st.get("step", 0))
                    else:
                        st["n"] = st.get("n", 0) + 1
                        step = self._train_step(rec.get("epoch"), counter, st, em)
                st["step"] = step
                em.record(step, rec)

    @staticmethod
    def _header(line: str, st: dict, em: Emitter) -> None:
        m = _TOTAL.search(line)
        if m:
            em.total_steps = st["total"] = int(m.group(1).replace(",", ""))
            if st.get("train_step"):
                st["restart"] = True  # the trainer's banner again: a new run if the steps start over
            return
        m = _EPOCHS.search(line)
        if m:
            st["epochs"] = int(m.group(1).replace(",", ""))
            return
        m = _LOGGING_STEPS.search(line)
        if m and float(m.group(1)) >= 1:
            st["log_every"] = int(float(m.group(1)))

    @staticmethod
    def _train_step(epoch: float | None, counter: int | None, st: dict, em: Emitter) -> int:
        """The optimizer step of a train dict (see the module docstring)."""
        last = int(st.get("train_step", 0))
        every = int(st.get("log_every", 0))
        if counter is not None:
            step = counter
            if epoch:
                st["spe"] = counter / epoch
        else:
            spe = st.get("spe")
            if spe is None and st.get("total") and st.get("epochs"):
                spe = st["total"] / st["epochs"]
            if epoch and spe:
                step = round(epoch * spe)
                if every:
                    step = max(every, round(step / every) * every)
            else:
                step = int(st["n"]) * every if every else int(st["n"])
                if not every and not st.get("by_count"):
                    st["by_count"] = True
                    em.notes.append("HF Trainer dicts carry no step and the log gives no way to place them: "
                                    "numbered by their count")
        if step <= last and st.pop("restart", False):
            em.new_run()  # the banner printed again and the steps start over: another run in the same log
            em.total_steps = st.get("total")
            for k in ("spe", "by_count"):
                st.pop(k, None)
            st["n"] = 1
        elif step <= last and counter is None:
            step = last + (every or 1)
        st["train_step"] = step
        return step
