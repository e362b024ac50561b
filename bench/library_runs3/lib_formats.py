"""Write ``FORMATS.md`` for examples/libraries3: per run, 3 representative raw lines of its train.log.

    python bench/library_runs3/lib_formats.py [examples/libraries3]

As bench/holdout_libraries/lib_formats.py: physical lines (split on ``\\n`` only) holding the loss's name (its last
``/`` part: RLlib's ``learners/default_policy/total_loss`` prints ``total_loss``) followed by a digit; the first, a
middle and the last; escaped; a store entry named, not shown.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "framework_runs"))
from formats import escape, picks, section, window  # noqa: E402


def main(argv: list[str]) -> int:
    root = Path(argv[0] if argv else "examples/libraries3")
    entries = [json.loads(ln) for ln in (root / "manifest.jsonl").read_text().splitlines() if ln.strip()]
    doc = ["# Raw line formats of the third library corpus", "",
           "Written by `bench/library_runs3/lib_formats.py`. Per run: library, label, the loss (or objective) and its",
           "step unit, the settings, and 3 representative physical lines of `train.log` (split on `\\n` only) holding",
           "the name; `\\r`, `\\t`, ANSI `\\x1b` shown escaped, a run of N backspaces as `\\b{N}`, a line over 300",
           "characters as a window (`…` marks the cut ends). A run whose library writes a store lists it too.", ""]
    by_run: dict[str, list[dict]] = {}
    for e in entries:
        by_run.setdefault(e["file"].split("/")[0], []).append(e)
    for run, es in by_run.items():
        log = next(e for e in es if e["file"].endswith("train.log"))
        truth = json.loads((root / log["truth"]).read_text())
        key = truth["loss_name"].rsplit("/", 1)[-1]
        text = (root / log["file"]).read_bytes().decode("utf-8", errors="replace")
        st = {k: v for k, v in truth["settings"].items() if k not in ("label", "should_stop")}
        notes = []
        for e in es:
            if e is not log:
                t = json.loads((root / e["truth"]).read_text())
                notes.append(f"; store `{e['file'].split('/', 1)[1]}` ({t['record']}, {len(t['train_loss'])} points "
                             f"of `{t['loss_name']}`)")
        doc += section(run, truth, st, [escape(window(ln, key)) for ln in picks(text, key)
                                        or ["(no line holds the loss name)"]], notes)
    (root / "FORMATS.md").write_text("\n".join(doc))
    print(f"wrote {root / 'FORMATS.md'} ({len(by_run)} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
