"""Shared by the 57th held-out library generators: the sixth set's truth helpers (bench/holdout_libraries6/
h6_truth.py, the third set's: the truth file each run writes, the files it keeps), used as they are, as set 51 does;
and ``tolerate_cpu_torchvision``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "holdout_libraries6"))

from h6_truth import dest, keep, seed_all, tol_decimals, tol_sig, write_truth  # noqa: E402

__all__ = ["dest", "keep", "seed_all", "tol_decimals", "tol_sig", "tolerate_cpu_torchvision", "write_truth"]


def tolerate_cpu_torchvision() -> None:
    """Let torchvision 0.28 import beside the CPU torch 2.13.

    The only torchvision wheel on the index is built for the CUDA torch: its compiled ``_C`` ops do not load beside
    the CPU torch, and torchvision then fails on import, registering a fake for ``torchvision::nms`` (an unguarded
    ``torch.library.register_fake``). Neither library here uses those ops (OpenCLIP imports torchvision for its
    transforms, MatterSim through torchmetrics), so that registration is skipped for torchvision ops that do not
    exist; nothing else is patched. Call before importing either library."""
    import torch
    import torch.library

    register_fake = torch.library.register_fake

    def tolerant(op: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(op, str) and op.startswith("torchvision::") and not hasattr(torch.ops.torchvision, op[13:]):
            return lambda fn: fn
        return register_fake(op, *args, **kwargs)

    torch.library.register_fake = tolerant
