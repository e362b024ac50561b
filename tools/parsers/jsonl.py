"""JSON lines: one dict per line (fairseq ``--log-format json``, detectron2 ``metrics.json``,
custom loggers, sweep summaries).

The step is the first of ``step``, ``global_step``, ``iteration``, ``iter``,
``num_updates``, ``update``, ``_step``, ``epoch_num``, ``epoch`` the record has,
else the record's index. Nested dicts flatten to ``a/b``; numeric strings
(fairseq writes ``"loss": "9.12"``) are numbers; the bare ``NaN`` token is NaN.
LLaMA-Factory's ``trainer_log.jsonl`` counts in ``current_steps`` (``total_steps``
is the run's length; ``null`` fields are "not logged"). Records without a metric
(``{"event": "start", ...}``, ``{"event": "abort", "step": N, "reason": ...}``, a
config dump) are skipped, never run boundaries. A new run starts only on explicit
evidence: the step returns to (or before) the run's first step, or repeats a step
with the same metrics, *and* the record
says it is another run (its string settings changed, or a start event came
first); the read's notes count what was set aside. A sweep file of 288
one-record runs shows its last run.
"""

from __future__ import annotations

import hashlib
import json
import math
import re

from .base import Emitter, LineFormat
from .text import to_value

STEP_KEYS = ("step", "global_step", "current_steps", "iteration", "iter", "num_updates", "update", "_step", "epoch_num",
             "epoch")


_CONFIG_KEYS = {"config", "args", "hparams", "hyperparameters", "params", "settings", "cfg", "arguments"}
_EVENT_KEYS = ("event", "type", "kind", "status", "phase")
_LIFECYCLE = {"start", "started", "begin", "end", "ended", "finish", "finished", "done", "abort", "aborted", "stop",
              "stopped", "exit", "error", "crash", "config", "init", "resume", "resumed", "checkpoint", "save", "saved"}


def _flatten(d: dict, prefix: str, out: dict[str, float]) -> None:
    for k, v in d.items():
        if not prefix and isinstance(v, dict) and str(k).lower() in _CONFIG_KEYS:
            continue  # a config dump nested in a record is settings, not metrics
        key = f"{prefix}{k}"
        if isinstance(v, bool) or v is None:
            continue
        if isinstance(v, (int, float)):
            out[key] = float(v)
        elif isinstance(v, str):
            if len(v) <= 40:
                f = to_value(v)
                if f is not None:
                    out[key] = f
        elif isinstance(v, dict):
            _flatten(v, key + "/", out)


_VOLATILE = re.compile(r"time|date|msg|message|log|text|host|stamp", re.I)


_last_signature = ("", hashlib.sha1(b"").hexdigest()[:12])  # (joined settings, their hash): most lines repeat them


def _signature(obj: dict) -> str:
    """The record's string-valued settings (run name, model type...): a change means another run."""
    global _last_signature
    parts = [f"{k}={v}" for k, v in obj.items()
             if isinstance(v, str) and len(v) <= 200 and to_value(v) is None and not _VOLATILE.search(k)]
    joined = "\x00".join(parts)
    last = _last_signature
    if joined == last[0]:
        return last[1]
    sig = hashlib.sha1(joined.encode()).hexdigest()[:12]
    _last_signature = (joined, sig)
    return sig


def _event(obj: dict) -> str | None:
    """The first of the record's event-like fields that holds a string, lower-cased."""
    for k in _EVENT_KEYS:
        v = obj.get(k)
        if isinstance(v, str):
            return v.lower()
    return None


class JsonLinesFormat(LineFormat):
    name = "jsonl"
    detect_re = re.compile(r"^\s*\{\s*\"[^\"]+\"\s*:.*\}\s*$")
    priority = 3

    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        loads = json.loads
        for line in text.split("\n"):
            s = line.strip()
            if not s.startswith("{"):
                continue
            try:
                obj = loads(s)
            except ValueError:
                continue
            if not isinstance(obj, dict):
                continue
            event = _event(obj)
            if event in _LIFECYCLE:
                if event in ("start", "started", "begin", "init", "resume", "resumed"):
                    st["run_start"] = True
                continue  # a lifecycle record: no metrics, and not a run boundary by itself
            rec: dict[str, float] = {}
            _flatten(obj, "", rec)
            total = rec.pop("total_steps", None)
            if total is not None and total > 0 and float(total).is_integer():
                em.total_steps = st["total"] = int(total)
            step = None
            step_key = st.get("step_key")
            if step_key is None:
                for k in STEP_KEYS:
                    if k in rec:
                        step_key = st["step_key"] = k
                        break
                else:
                    step_key = st["step_key"] = ""
            if step_key and step_key in rec:
                v = rec.pop(step_key)  # a float (_flatten): to_step(str(v)) without the round trip
                step = int(v) if math.isfinite(v) else None
            if not rec:
                continue  # a step and nothing else: not a metric record
            if step is None:
                step = int(st.get("n", 0))
            st["n"] = int(st.get("n", 0)) + 1
            last = st.get("last_step")
            sig = _signature(obj)
            changed = sig != st.get("sig", sig)
            st["sig"] = sig
            first = st.get("first_step")
            back_to_start = last is not None and first is not None and (
                step <= first or (step <= last and bool(set(rec) & set(st.get("last_keys", [])))))
            if back_to_start and (changed or st.get("run_start")):
                em.new_run()
                st["last_keys"] = []
                st["first_step"] = step
            st["run_start"] = False
            if first is None:
                st["first_step"] = step
            if step != last:
                st["last_keys"] = []
            st["last_step"] = step
            st["last_keys"] = sorted(set(st.get("last_keys", [])) | set(rec))[:200]
            em.record(step, rec)
