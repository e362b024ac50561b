"""Shared by the 55th held-out library generators: the sixth set's truth helpers (bench/holdout_libraries6/
h6_truth.py, the third set's: the truth file each run writes, the files it keeps), used as they are, and the reading
of a TensorBoard event file that both libraries here write as their own record.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "holdout_libraries6"))

from h6_truth import dest, keep, seed_all, tol_decimals, tol_sig, write_truth  # noqa: E402

__all__ = ["dest", "keep", "scalars", "seed_all", "tol_decimals", "tol_sig", "write_truth"]


def scalars(logdir: str | Path, tag: str) -> list[tuple[int, float]]:
    """The ``(step, value)`` of the scalar ``tag`` in the TensorBoard event files under ``logdir`` (its own folder,
    not its subfolders), read with TensorBoard's ``EventAccumulator`` (TF 2 summaries keep a scalar as a tensor), in
    step order."""
    import logging

    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from tensorboard.util.tensor_util import make_ndarray

    logging.getLogger("tensorboard").setLevel(logging.WARNING)  # its reading's own INFO lines stay out of the log
    ea = EventAccumulator(str(logdir), size_guidance={"tensors": 0, "scalars": 0})
    ea.Reload()
    tags = ea.Tags()
    if tag in tags.get("tensors", []):
        return sorted((int(e.step), float(make_ndarray(e.tensor_proto))) for e in ea.Tensors(tag))
    if tag in tags.get("scalars", []):
        return sorted((int(e.step), float(e.value)) for e in ea.Scalars(tag))
    return []
