"""Shared by the 100th held-out library generators: the sixth set's truth helpers (bench/holdout_libraries6/
h6_truth.py, the third set's: the truth file each run writes, the files it keeps), used as they are.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "holdout_libraries6"))

from h6_truth import dest, keep, seed_all, tol_decimals, tol_sig, write_truth  # noqa: E402

__all__ = ["dest", "keep", "seed_all", "tol_decimals", "tol_sig", "write_truth"]
