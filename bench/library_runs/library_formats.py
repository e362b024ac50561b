"""Write ``FORMATS.md`` for the library corpus: per run, 3 representative raw lines of its train.log.

    .venv/bin/python bench/library_runs/library_formats.py [examples/libraries]

A "line" is a physical line (split on ``\\n`` only, so ``\\r`` redraws stay inside it), shown escaped as in
``bench/framework_runs/formats.py``. Picked: the first, a middle and the last line holding a number equal to one
of the truth's train-loss values (within the truth's tolerance), and before them the line naming the loss when
the rows do not (a table's header). A store entry (MLflow, DVCLive, TensorBoard) is listed by its files.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "framework_formats", Path(__file__).resolve().parents[1] / "framework_runs" / "formats.py")
assert _spec is not None and _spec.loader is not None
_framework_formats = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_framework_formats)
escape, window = _framework_formats.escape, _framework_formats.window  # the framework corpus' escaping
section = _framework_formats.section
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from truth_checks import NUMBER, tolerance  # noqa: E402


def holds_truth(line: str, truth: dict, values: list[float]) -> bool:
    for m in NUMBER.findall(line):
        x = float(m)
        if not math.isfinite(x):
            if any(not math.isfinite(v) for v in values):
                return True
            continue
        for v in values:
            if math.isfinite(v) and abs(x - v) <= tolerance(v, truth["tolerance"]) and len(m) > 2:
                return True
    return False


def picks(text: str, truth: dict) -> list[str]:
    values = sorted(float(v) for _, v in truth["train_loss"])
    key = truth["loss_name"].split("/")[-1].split(" ")[-1].lower()
    lines = text.split("\n")
    hits = [i for i, ln in enumerate(lines) if holds_truth(ln, truth, values)]
    if not hits:
        return []
    idx = sorted({hits[0], hits[len(hits) // 2], hits[-1]})
    out = [lines[i] for i in idx]
    if key not in lines[idx[0]].lower():
        head = next((ln for ln in reversed(lines[:idx[0]]) if key in ln.lower()), None)
        if head is not None:
            out.insert(0, head)
    return out


def main(argv: list[str]) -> int:
    root = Path(argv[0] if argv else "examples/libraries")
    entries = [json.loads(ln) for ln in (root / "manifest.jsonl").read_text().splitlines() if ln.strip()]
    doc = ["# Raw line formats of the library corpus", "",
           "Written by `bench/library_runs/library_formats.py`. Per file: library, label, loss and its steps,",
           "settings, and 3 representative physical lines (split on `\\n` only) holding a train-loss value of",
           "the truth (the first, a middle and the last), preceded by the line naming the loss where the rows do",
           "not (a table's",
           "header); `\\r`, `\\t`, ANSI `\\x1b` shown escaped, a run of N backspaces as `\\b{N}`, a line over 300",
           "characters as a 300-character window. A store (MLflow, DVCLive, TensorBoard) is listed by its files.", ""]
    for e in entries:
        truth = json.loads((root / e["truth"]).read_text())
        path = root / e["file"]
        if e.get("source") == "store":
            files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
            lines = [f"{p.relative_to(root).as_posix()}  ({p.stat().st_size} bytes)" for p in files[:12]]
        else:
            text = path.read_bytes().decode("utf-8", errors="replace")
            key = truth["loss_name"].split("/")[-1].split(" ")[-1]
            lines = [escape(window(ln, key)) for ln in picks(text, truth) or ["(no line holds a truth value)"]]
        doc += section(e["file"], truth, truth["settings"], lines)
    (root / "FORMATS.md").write_text("\n".join(doc))
    print(f"wrote {root / 'FORMATS.md'} ({len(entries)} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
