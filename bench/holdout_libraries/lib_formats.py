"""Write ``FORMATS.md`` for the held-out library corpus: per run, 3 representative raw lines of its train.log.

    python bench/holdout_libraries/lib_formats.py [examples/libraries_holdout]

Lines are physical lines (split on ``\\n`` only) holding the run's loss name followed by a digit: the first, a
middle and the last; shown escaped as in examples/frameworks/FORMATS.md (``\\r``, ``\\t``, ANSI ``\\x1b``,
``\\b{N}``), long lines as a window. A store entry (an event file, an ``mlruns/`` folder) is named, not shown.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "framework_runs"))
from formats import escape, picks, section, window  # noqa: E402

INTRO = ["# Raw line formats of the held-out library corpus", "",
         "Written by `bench/holdout_libraries/lib_formats.py`. Per run: library, label, the loss and its step unit,",
         "the settings, and 3 representative physical lines of `train.log` (split on `\\n` only) holding the loss",
         "name; `\\r`, `\\t`, ANSI `\\x1b` shown escaped, a run of N backspaces as `\\b{N}`, a line over 300",
         "characters as a window (`…` marks the cut ends). A run whose natural source is a store lists it too.", ""]


def _loss_key(truth: dict) -> str:
    """The name the log prints the loss under (a tracker's runs print its last word)."""
    return truth["loss_name"].split(" ")[-1] if truth["framework"].startswith(("tensorboardX", "mlflow")) \
        else truth["loss_name"]


def write_formats(root: Path, intro: list[str], key_of: Callable[[dict], str]) -> int:
    """``root``'s FORMATS.md: ``intro``, then per run its section with 3 lines holding ``key_of(truth)``."""
    entries = [json.loads(ln) for ln in (root / "manifest.jsonl").read_text().splitlines() if ln.strip()]
    doc = list(intro)
    by_run: dict[str, list[dict]] = {}
    for e in entries:
        by_run.setdefault(e["file"].split("/")[0], []).append(e)
    for run, es in by_run.items():
        # a run scored by its store alone (its log holds no series) still shows its log's lines, the store's truth
        log = next((e for e in es if e["file"].endswith("train.log")),
                   {"file": f"{run}/train.log", "truth": es[0]["truth"]})
        truth = json.loads((root / log["truth"]).read_text())
        key = key_of(truth)
        text = (root / run / "train.log").read_bytes().decode("utf-8", errors="replace") if log else ""
        st = {k: v for k, v in truth["settings"].items() if k not in ("label", "should_stop")}
        notes = []
        for e in es:
            if e is not log:
                t = json.loads((root / e["truth"]).read_text())
                notes.append(f"; store `{e['file'].split('/', 1)[1]}` ({t['record']}, {len(t['train_loss'])} points "
                             f"of `{t['loss_name']}`)")
        shown = [escape(window(ln, key)) for ln in picks(text, key)] if log else [
            "(the log prints no loss: only the store is scored)"]
        doc += section(run, truth, st, shown or ["(no line holds the loss name)"], notes)
    (root / "FORMATS.md").write_text("\n".join(doc))
    print(f"wrote {root / 'FORMATS.md'} ({len(by_run)} runs)")
    return 0


def main(argv: list[str]) -> int:
    return write_formats(Path(argv[0] if argv else "examples/libraries_holdout"), INTRO, _loss_key)

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
