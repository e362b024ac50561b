"""Write ``FORMATS.md``: per run of the framework corpus, 3 representative raw lines of its train.log.

    .venv/bin/python bench/framework_runs/formats.py [examples/frameworks]

A "line" is a physical line (split on ``\\n`` only), so ``\\r``-overwritten tqdm bars and Keras' ``\\b`` runs
stay inside it. Picked: the first, a middle and the last line that holds the run's loss name followed
somewhere by a digit. Shown escaped: ``\\r``, ``\\t``, ``\\x1b`` (ANSI), and a run of N backspaces as
``\\b{N}``; other control bytes as ``\\xNN``; a line longer than 300 characters is shown as a 300-character
window starting 150 characters before the loss name, ``…`` marking the cut ends.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

CUT = 400


def window(line: str, key: str) -> str:
    """The line, or a 300-character window of it from just before the first loss value when it is longer."""
    if len(line) <= 300:
        return line
    at = max(0, line.find(key) - 150)
    return ("…" if at else "") + line[at:at + 300] + "…"


def escape(line: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\b":
            j = i
            while j < len(line) and line[j] == "\b":
                j += 1
            out.append("\\b" if j - i == 1 else f"\\b{{{j - i}}}")
            i = j
            continue
        if c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c == "\x1b":
            out.append("\\x1b")
        elif ord(c) < 32 or ord(c) == 127:
            out.append(f"\\x{ord(c):02x}")
        else:
            out.append(c)
        i += 1
    s = "".join(out)
    return s if len(s) <= CUT else s[:CUT] + f" …(+{len(s) - CUT} chars)"


def picks(text: str, key: str) -> list[str]:
    lines = [ln for ln in text.split("\n") if key in ln and any(ch.isdigit() for ch in ln.split(key, 1)[1])]
    if not lines:
        return []
    idx = sorted({0, len(lines) // 2, len(lines) - 1})
    return [lines[i] for i in idx]


def section(title: str, truth: dict, settings: dict, lines: list[str], notes: list[str] | tuple = ()) -> list[str]:
    """One run's part of a FORMATS.md: its title, what the truth says of it, ``notes``, then ``lines`` as code."""
    return [f"## {title}",
            f"{truth['framework']}, label {truth['label']}, loss `{truth['loss_name']}`, steps: "
            f"{truth['step_unit']}; settings `{json.dumps(settings)}`",
            *notes, "", "```", *lines, "```", ""]


def main(argv: list[str]) -> int:
    root = Path(argv[0] if argv else "examples/frameworks")
    entries = [json.loads(ln) for ln in (root / "manifest.jsonl").read_text().splitlines() if ln.strip()]
    doc = ["# Raw line formats of the framework corpus", "",
           "Written by `bench/framework_runs/formats.py`. Per run: framework, the settings that shape the log, and",
           "3 representative physical lines (split on `\\n` only) holding the loss; `\\r`, `\\t`, ANSI `\\x1b`",
           "shown escaped, a run of N backspaces as `\\b{N}`; a line over 300 characters as a 300-character window",
           "from 150 characters before the loss name (`…` marks the cut ends).", "",
           "## How the truth's steps relate to what the log prints", "",
           "- HF Trainer: truth step = optimizer step (`global_step`). The dict records carry no step. With the",
           "  default buffering the records (stdout) arrive in bursts, away from the tqdm bar (stderr) that was",
           "  at that step; `'epoch'` is rounded. Gradient accumulation: the bar counts optimizer steps. The last",
           "  record (`train_runtime`, `train_loss` = the run's average) is a summary, not a point.",
           "- Lightning (TQDM bar): truth step (CSV `step`) = epoch × N + n − 1 for the bar `Epoch e: … n/N […,",
           "  train_loss=X]`; each batch is drawn twice, first with the previous postfix, then with the new one",
           "  (checked on pl_tqdm_log10, pl_tqdm_log1_noval, pl_tqdm_on_epoch_log5: every truth point found so).",
           "  The bar shows every step's value; the CSV keeps every `log_every_n_steps`-th. `pl_rich_*`: the",
           "  rich bar prints once, at the end of the run; the points come from the module's own `self.print`.",
           "- Keras: truth step = epoch (`Epoch e/E`); the epoch's last bar `N/N … loss: X` (verbose=1) or its",
           "  one line (verbose=2) holds the History value; e × steps_per_epoch counts as well.",
           "- XGBoost `[i]` is 0-based, LightGBM `[i]` 1-based; LightGBM's early stopping prints the best",
           "  iteration's line again after the last one. scikit-learn: `Iteration N`.",
           "- torch loops: `Epoch e [n/N]` (hydra) and `Epoch [e/E], Step [n/N]` (tutorial) are global step",
           "  (e − 1) × N + n; the others print the global step (`step`, `iter`, JSON `step`).", ""]
    for e in entries:
        run = e["file"].split("/")[0]
        truth = json.loads((root / e["truth"]).read_text())
        name = truth["loss_name"]
        key = name.split("'s ")[-1].split("-")[-1] if "'s " in name or name.startswith("train-") else name
        text = (root / e["file"]).read_bytes().decode("utf-8", errors="replace")
        st = {k: v for k, v in truth["settings"].items() if k != "phase"}
        doc += section(run, truth, st, [escape(window(ln, key)) for ln in picks(text, key)
                                        or ["(no line holds the loss name)"]])
    (root / "FORMATS.md").write_text("\n".join(doc))
    print(f"wrote {root / 'FORMATS.md'} ({len(entries)} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
