"""Whole-file JSON documents: Hugging Face ``trainer_state.json`` and Megatron-LM golden values.

They are small and rewritten in place, so they are re-read whole whenever the
file changes (the source returns ``reset=True`` with all points).

- ``trainer_state.json``: each ``log_history`` entry at its ``step``; train entries
  give ``loss``, ``learning_rate``, ``grad_norm``...; eval entries ``eval_*``; the
  final summary (``train_runtime``...) is skipped; ``max_steps`` is the total.
- golden values ``{metric: {start_step, end_step, step_interval, values: {"step": v}}}``:
  the STRING ``"nan"`` marks a step that was not recorded (the same steps are
  ``"nan"`` in the memory metrics too), so it is skipped; a JSON number NaN is kept.
"""

from __future__ import annotations

from .base import DocumentFormat, Emitter
from .jsonl import _flatten
from .text import to_step

_SKIP_KEYS = {"step", "total_flos"}


class TrainerStateFormat(DocumentFormat):
    name = "hf_trainer_state"

    def accepts(self, doc: object) -> bool:
        return isinstance(doc, dict) and isinstance(doc.get("log_history"), list)

    def parse_doc(self, doc: object, em: Emitter) -> None:
        assert isinstance(doc, dict)
        for entry in doc["log_history"]:
            if not isinstance(entry, dict) or "train_runtime" in entry:
                continue
            step = to_step(str(entry.get("step")))
            if step is None:
                continue
            rec: dict[str, float] = {}
            _flatten({k: v for k, v in entry.items() if k not in _SKIP_KEYS}, "", rec)
            em.record(step, rec)
        total = doc.get("max_steps") or doc.get("global_step")
        if isinstance(total, (int, float)) and total > 0:
            em.total_steps = int(total)
        for key in ("num_train_epochs", "train_batch_size", "logging_steps", "eval_steps"):
            if isinstance(doc.get(key), (int, float)):
                em.config[key] = doc[key]


class GoldenValuesFormat(DocumentFormat):
    name = "megatron_golden_values"

    def accepts(self, doc: object) -> bool:
        return (isinstance(doc, dict) and bool(doc)
                and all(isinstance(v, dict) and isinstance(v.get("values"), dict) for v in doc.values()))

    def parse_doc(self, doc: object, em: Emitter) -> None:
        assert isinstance(doc, dict)
        end = None
        for metric, spec in doc.items():
            for k, v in spec["values"].items():
                step = to_step(k)
                if step is None or isinstance(v, bool):
                    continue
                if isinstance(v, str):
                    continue  # "nan" string = step not recorded
                if isinstance(v, (int, float)):
                    em.add(step, metric, float(v))
            if isinstance(spec.get("end_step"), int):
                end = max(end or 0, spec["end_step"])
        if end:
            em.total_steps = end

