"""DeepSpeed training logs and the example scripts that print into them.

- DeepSpeed INFO step lines: ``[...] [Rank 0] step=10, skipped=6, lr=[9.6e-06, ...], mom=[...]``
  -> ``skipped_steps`` (the cumulative count of fp16 overflow skips) and ``lr``;
- DeepSpeed-Chat: ``***** Evaluating perplexity, Epoch 1/16 *****`` + ``ppl: X`` -> ``eval_ppl``;
  ``chosen_last_scores (higher is better) : X, acc (higher is better) : Y`` -> ``eval_reward_score``,
  ``eval_acc``; ``Epoch 1/1 with loss L`` -> ``epoch_loss``; PPO ``epoch: 0|step: N|act_loss: ...``
  and ``average reward score: R`` -> ``average_reward``;
- torchvision ImageNet-example ProgressMeter ``Epoch: [e][i/n]\\tLoss 3.4e+00 (avg)\\tAcc@1 ...``
  (train, step ``e * n + i``) and ``val[i/n] ...`` / `` * Acc@1 X Acc@5 Y`` (validation, running average);
- ``iter N | LR [x]| val_acc V`` lines and dict fragments ``'step':N, 'ppl': X, ...``.

Lines without their own step use the last step seen. ``OVERFLOW! Rank 0 Skipping step`` is
benign loss-scale calibration: counted in ``overflow_skips``, never a NaN.
"""

from __future__ import annotations

import re

from .base import Emitter, LineFormat
from .text import to_value

_DS_STEP = re.compile(r"\bstep=(\d+), skipped=(\d+), lr=\[\s*([^\],\s]+)")
_EVAL_BANNER = re.compile(r"Evaluating (perplexity|reward), Epoch (\d+)/(\d+)")
_PPL = re.compile(r"^\s*ppl:\s*(\S+)\s*$")
_REWARD = re.compile(r"chosen_last_scores \(higher is better\) : (\S+), acc \(higher is better\) : (\S+)")
_EPOCH_LOSS = re.compile(r"^Epoch (\d+)/(\d+) with loss (\S+)")
_PIPE_KV = re.compile(r"^\s*epoch: (\d+)\|step: (\d+)\|(.*)$")
_AVG_REWARD = re.compile(r"^\s*average reward score: (\S+)")
_PROGRESS = re.compile(r"Epoch: \[(\d+)\]\[\s*(\d+)/(\d+)\]\t(.*)$")
_VAL_PROGRESS = re.compile(r"^\s*(?:val|Test):?\s*\[\s*(\d+)/(\d+)\]\t(.*)$")
_VAL_SUMMARY = re.compile(r"^\s*\* Acc@1 (\S+) Acc@5 (\S+)")
_METER = re.compile(r"([A-Za-z][\w@ ]*?)\s+(\S+) \(\s*(\S+)\)")
_ITER_LINE = re.compile(r"^iter (\d+) \|(.*)$")
_DICT_FRAG = re.compile(r"^\s*'step':\s*(\d+),(.*)$")
_DICT_PAIR = re.compile(r"'([^']+)':\s*([^,}]+)")
_OVERFLOW = re.compile(r"OVERFLOW! Rank 0 Skipping step|\[Rank 0\] Overflow detected\. Skipping step")
_METER_NAMES = {"Loss": "loss", "Acc@1": "acc1", "Acc@5": "acc5", "Time": "batch_time_s", "Data": "data_time_s"}


class DeepSpeedFormat(LineFormat):
    name = "deepspeed"
    detect_re = re.compile(
        r"\bstep=\d+, skipped=\d+, lr=\[|Evaluating (?:perplexity|reward), Epoch|^\s*epoch: \d+\|step: \d+\||"
        r"Epoch: \[\d+\]\[\s*\d+/\d+\]\t|^\s*'step':\s*\d+,"
    )
    priority = 5

    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        add = em.add
        for line in text.split("\n"):
            if not line:
                continue
            step = int(st.get("step", 0))
            if "step=" in line:
                m = _DS_STEP.search(line)
                if m:
                    step = int(m.group(1))
                    st["step"] = step
                    add(step, "skipped_steps", float(m.group(2)))
                    lr = to_value(m.group(3))
                    if lr is not None:
                        add(step, "lr", lr)
                    continue
            if "OVERFLOW" in line or "Overflow detected" in line:
                if _OVERFLOW.search(line):
                    st["overflows"] = st.get("overflows", 0) + 1
                    add(step, "overflow_skips", float(st["overflows"]))
                continue
            if "[INFO]" in line or "[WARNING]" in line:
                continue
            m = _PROGRESS.search(line)
            if m:
                epoch, i, n = int(m.group(1)), int(m.group(2)), int(m.group(3))
                step = epoch * n + i
                st["step"] = step
                for name, cur, _avg in _METER.findall(m.group(4)):
                    v = to_value(cur)
                    if v is not None:
                        add(step, _METER_NAMES.get(name.strip(), name.strip().lower()), v)
                continue
            m = _VAL_PROGRESS.search(line)
            if m:
                for name, _cur, avg in _METER.findall(m.group(3)):
                    v = to_value(avg)
                    key = _METER_NAMES.get(name.strip(), name.strip().lower())
                    if v is not None and key not in ("batch_time_s", "data_time_s"):
                        add(step, "val_" + key, v)
                continue
            m = _VAL_SUMMARY.search(line)
            if m:
                for key, raw in (("val_acc1", m.group(1)), ("val_acc5", m.group(2))):
                    v = to_value(raw)
                    if v is not None:
                        add(step, key, v)
                continue
            m = _ITER_LINE.search(line)
            if m:
                step = int(m.group(1))
                st["step"] = step
                for part in m.group(2).split("|"):
                    bits = part.strip().split()
                    if len(bits) == 2:
                        name = bits[0]
                        raw = bits[1].strip("[]")
                        v = to_value(raw)
                        if v is not None:
                            add(step, "lr" if name == "LR" else name, v)
                continue
            m = _DICT_FRAG.search(line)
            if m:
                step = int(m.group(1))
                st["step"] = step
                for k, raw in _DICT_PAIR.findall(m.group(2)):
                    v = to_value(raw)
                    if v is not None:
                        add(step, k.strip().replace(" ", "_"), v)
                continue
            m = _PIPE_KV.search(line)
            if m:
                step = int(m.group(2))
                st["step"] = step
                add(step, "epoch", float(m.group(1)))
                for part in m.group(3).split("|"):
                    k, _, raw = part.partition(":")
                    v = to_value(raw)
                    if v is not None and k.strip():
                        add(step, k.strip(), v)
                continue
            m = _AVG_REWARD.search(line)
            if m:
                v = to_value(m.group(1))
                if v is not None:
                    add(step, "average_reward", v)
                continue
            m = _EVAL_BANNER.search(line)
            if m:
                st["eval_kind"] = m.group(1)
                em.config["epochs"] = int(m.group(3))
                continue
            m = _PPL.search(line)
            if m:
                v = to_value(m.group(1))
                if v is not None:
                    add(step, "eval_ppl", v)
                continue
            m = _REWARD.search(line)
            if m:
                for key, raw in (("eval_reward_score", m.group(1)), ("eval_acc", m.group(2))):
                    v = to_value(raw)
                    if v is not None:
                        add(step, key, v)
                continue
            m = _EPOCH_LOSS.search(line)
            if m:
                v = to_value(m.group(3))
                if v is not None:
                    add(step, "epoch_loss", v)
