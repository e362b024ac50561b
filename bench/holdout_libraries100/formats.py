"""Write FORMATS.md for the 100th held-out library corpus: the third set's writer (bench/holdout_libraries3/formats.py,
as the sixth set uses it), with this set's title.

    python bench/holdout_libraries100/formats.py examples/libraries_holdout100
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from holdout_libraries3.formats import main as write  # noqa: E402


def main(root: str) -> int:
    return write(root, "100th", "bench/holdout_libraries100/formats.py")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "examples/libraries_holdout100"))
