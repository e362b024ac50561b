"""What MLflow's three stores (sqlite ``mlflow.db``, the ``mlruns/`` files, a tracking server) share: how a logged
value and step become a point, the run's state, and the sentence that says which run was read.

MLflow keeps a NaN as ``value 0, is_nan 1`` (sqlite, REST) or the word ``nan`` (files), and an infinity as
``±sys.float_info.max`` in sqlite: read back as NaN and ±inf, evidence like any other value. ``log_metric``
without ``step`` logs at step 0: a metric whose points all sit at step 0 is read in logging order (its n-th
step-0 point at step n), so a run logged without steps still has a curve, and the same points come out whatever
the size of the reads (the count per metric travels in the cursor).
"""

from __future__ import annotations

import math
import sys

from ..limits import MAX_METRICS, too_many_metrics
from ..rundata import clean
from .wandb_local import config_subset, total_steps_from_config

FLOAT_MAX = sys.float_info.max
# RunStatus: 1 RUNNING, 2 SCHEDULED, 3 FINISHED, 4 FAILED, 5 KILLED (the file store writes the number)
STATUS_BY_NUMBER = {1: "running", 2: "scheduled", 3: "finished", 4: "failed", 5: "killed"}
__all__ = ["FLOAT_MAX", "StepSequencer", "metric_value", "run_state", "chosen_note", "config_subset",
           "total_steps_from_config"]


def metric_value(value: float, is_nan: object = False) -> float:
    """The value MLflow meant: NaN where it stored ``is_nan``, ±inf where it stored ±float max."""
    if is_nan and str(is_nan).lower() not in ("0", "false"):
        return math.nan
    v = float(value)
    if v >= FLOAT_MAX:
        return math.inf
    if v <= -FLOAT_MAX:
        return -math.inf
    return v


def run_state(status: object) -> str | None:
    """``running`` / ``finished`` / ``failed`` / ``killed`` from MLflow's status (a word or the file store's number)."""
    if isinstance(status, int) or (isinstance(status, str) and status.strip().isdigit()):
        return STATUS_BY_NUMBER.get(int(status))
    return str(status).strip().lower() or None if status is not None else None


class StepSequencer:
    """Steps as MLflow's user meant them: a metric's repeated step-0 points (``log_metric`` without ``step``) in
    logging order. ``state`` (per metric, the step-0 points seen) is kept in the cursor."""

    def __init__(self, state: dict | None = None):
        self.state: dict[str, int] = {k: int(v) for k, v in (state or {}).items()
                                      if isinstance(v, int) and not isinstance(v, bool)}

    def step(self, key: str, step: int) -> int:
        if step != 0:
            return step
        n = self.state.get(key, 0)
        if n == 0 and len(self.state) >= MAX_METRICS:
            raise too_many_metrics()
        self.state[key] = n + 1
        return n

    def note(self) -> str | None:
        """A sentence naming the metrics read in logging order (more than one point at step 0)."""
        names = [k for k, n in self.state.items() if n > 1]
        if not names:
            return None
        shown = ", ".join(clean(n, 60) for n in names[:4]) + (" ..." if len(names) > 4 else "")
        return f"logged without steps (all at step 0), read in logging order: {shown}"


def chosen_note(run_id: str, name: str | None, experiment: str | None, where: str, n_runs: int | None,
                pin: str | None) -> str:
    """Which run of a store was read; ``pin`` (how to name another: ``mlflow.db#<run_id>``) when it was the latest,
    not a run the reference named."""
    bits = [f"{clean(name, 60)!r}"] if name else []
    if experiment:
        bits.append(f"experiment {clean(experiment, 60)!r}")
    what = f"MLflow run {run_id}" + (f" ({', '.join(bits)})" if bits else "")
    if pin is None:
        return f"read {what} of {where}"
    others = f" of {n_runs} runs" if n_runs and n_runs > 1 else ""
    return f"read {what}, the latest{others} in {where}; name another as {pin}"
