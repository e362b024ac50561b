"""Shared by the 95th held-out library generators: the 51st set's truth helpers (bench/holdout_libraries51/
h51_truth.py, the third set's: the truth file each run writes, the files it keeps), used as they are.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "holdout_libraries51"))

from h51_truth import dest, keep, seed_all, tol_decimals, tol_sig, write_truth  # noqa: E402

__all__ = ["dest", "keep", "seed_all", "tol_decimals", "tol_sig", "write_truth"]
