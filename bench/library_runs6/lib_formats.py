"""Write ``FORMATS.md`` for examples/libraries6: per run, 3 representative raw lines of its train.log.

    python bench/library_runs5/lib_formats.py [examples/libraries6]

As bench/holdout_libraries/lib_formats.py: physical lines (split on ``\\n`` only) holding the loss's name (its last
``/`` part: RLlib's ``learners/default_policy/total_loss`` prints ``total_loss``) followed by a digit; the first, a
middle and the last; escaped; a store entry named, not shown.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from holdout_libraries.lib_formats import write_formats  # noqa: E402

INTRO = ["# Raw line formats of the sixth library corpus", "",
         "Written by `bench/library_runs6/lib_formats.py`. Per run: library, label, the loss (or objective) and its",
         "step unit, the settings, and 3 representative physical lines of `train.log` (split on `\\n` only) holding",
         "the name; `\\r`, `\\t`, ANSI `\\x1b` shown escaped, a run of N backspaces as `\\b{N}`, a line over 300",
         "characters as a window (`…` marks the cut ends). A run whose library writes a store lists it too.", ""]


def main(argv: list[str]) -> int:
    return write_formats(Path(argv[0] if argv else "examples/libraries6"), INTRO,
                         lambda truth: truth["loss_name"].rsplit("/", 1)[-1])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
