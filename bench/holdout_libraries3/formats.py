"""Write FORMATS.md for the third held-out library corpus: per run, its library, label, loss and step unit, settings
and 3 representative physical lines of ``train.log`` (split on ``\\n`` only): the first, a middle and the last line
holding a train-loss value of the truth. ``\\r``, ``\\t`` and ANSI ``\\x1b`` shown escaped, a run of N backspaces as
``\\b{N}``, a line over 300 characters as a window around the value (``…`` marks the cut ends).

    python bench/holdout_libraries3/formats.py examples/libraries_holdout3
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf", re.IGNORECASE)
BS = re.compile(r"\x08+")


def escape(s: str) -> str:
    s = BS.sub(lambda m: f"\\b{{{len(m.group())}}}", s)
    return s.replace("\r", "\\r").replace("\t", "\\t").replace("\x1b", "\\x1b")


def matches(tok: str, v, tol: dict) -> bool:
    try:
        x = float(tok)
    except ValueError:
        return False
    if isinstance(v, str):
        return not math.isfinite(x)
    allow = max(tol.get("abs", 0.0), tol.get("rel", 1e-9) * abs(v)) * 1.0001 + 1e-15
    return abs(x - v) <= allow


def value_pos(line: str, values: list, tol: dict) -> int:
    """Offset of the last number in the line that equals a truth value, or -1."""
    pos = -1
    for m in NUM.finditer(line.replace(",", " ")):
        if any(matches(m.group(), v, tol) for v in values):
            pos = m.start()
    return pos


def window(line: str, at: int, width: int = 300) -> str:
    if len(line) <= width:
        return line
    start = max(0, min(at - width // 2, len(line) - width))
    return ("…" if start > 0 else "") + line[start:start + width] + ("…" if start + width < len(line) else "")


def main(root: str, which: str = "third", script: str = "bench/holdout_libraries3/formats.py") -> int:
    """FORMATS.md of the held-out corpus at ``root`` (the ``which`` one, written by ``script``)."""
    out = Path(root)
    parts = [f"# Raw line formats of the {which} held-out library corpus", "",
             f"Written by `{script}`. Per run: library, label, the loss and its step unit,",
             "the settings, and 3 representative physical lines of `train.log` (split on `\\n` only): the first, a",
             "middle and the last line holding a train-loss value of the truth; `\\r`, `\\t`, ANSI `\\x1b` shown",
             "escaped, a run of N backspaces as `\\b{N}`, a line over 300 characters as a window around the value",
             "(`…` marks the cut ends).", ""]
    for ln in (out / "manifest.jsonl").read_text().splitlines():
        e = json.loads(ln)
        if not e["file"].endswith("train.log"):
            continue
        run = e["file"].split("/")[0]
        t = json.loads((out / e["truth"]).read_text())
        vals = [v for _, v in t["train_loss"]]
        lines = (out / e["file"]).read_text(errors="replace").split("\n")
        hits = [(i, p) for i, line in enumerate(lines) if (p := value_pos(line, vals, t["tolerance"])) >= 0]
        pick = [hits[0], hits[len(hits) // 2], hits[-1]] if len(hits) >= 3 else hits
        seen = set()
        shown = []
        for i, p in pick:
            if i in seen:
                continue
            seen.add(i)
            shown.append(escape(window(lines[i], p)))
        settings = {k: v for k, v in t["settings"].items() if k not in ("label", "should_stop")}
        parts += [f"## {run}", f"{t['framework']}, label {t['label']}, loss `{t['loss_name']}`, steps: "
                  f"{t['step_unit']}; settings `{json.dumps(settings)}`", "", "```", *shown, "```", ""]
    (out / "FORMATS.md").write_text("\n".join(parts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "examples/libraries_holdout3"))
