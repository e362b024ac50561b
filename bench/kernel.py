"""Benchmark: the C kernel (tools/parsers/_kernel.c) against the Python reference it replaces, in ms per MB.

For each log (a real file repeated to --mb MB, whole lines):
- templates: ``_kernel.templates(joined)`` vs ``_factorize(templates_of(joined), n)`` (templates.py), per MB of the
  block;
- fields: the lines of the block's most common template, its number fields: ``_kernel.fields`` vs what engine._read
  does (``value_text`` of the lines, then pandas' C reader, float64), per MB of those lines;
- lines: ``kernel.line_bounds`` (the lines' offsets) in C vs numpy, per MB of the block.

    .venv/bin/python bench/kernel.py [--mb 8] [--repeat 5] [FILE ...]
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from training_check.tools.parsers import kernel
from training_check.tools.parsers.templates import NAN_MARK, _factorize, templates_of, value_text

REPO = Path(__file__).resolve().parents[1]
SHARED = next((p for p in (REPO.parent / "shared" / "corpus", REPO.parent.parent / "shared" / "corpus") if p.is_dir()),
              REPO.parent / "shared" / "corpus")  # beside the checkout (CI), or beside its worktree folder
DEFAULT_LOGS = [
    SHARED / "real-logs-2" / "02_llmc-gpt2-healthy-timelimit.log",
    REPO / "examples" / "frameworks" / "hf_log1_steps100" / "train.log",
    REPO / "examples" / "frameworks" / "torch_tutorial_loss" / "train.log",
]


def block_of(path: Path, mb: float) -> bytes:
    """The file's lines repeated to ``mb`` MB (whole lines, no final newline)."""
    data = path.read_bytes().rstrip(b"\n") + b"\n"
    want = int(mb * 1e6)
    out = data * (want // len(data) + 1)
    return out[:out.rfind(b"\n", 0, want)]


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def read_reference(lines: list[bytes], cols: list[int]) -> None:
    """engine._read's path for a large template: the value text, then pandas' C reader (float64; as text, then
    to_numeric, when a field is no number)."""
    import pandas as pd

    text = value_text(lines)
    opts = {"header": None, "usecols": cols, "engine": "c", "na_values": [NAN_MARK.decode()],
            "keep_default_na": False, "skip_blank_lines": False}
    try:
        pd.read_csv(io.BytesIO(text), dtype=np.float64, **opts)
        return
    except (ValueError, pd.errors.ParserError):
        pass
    opts["na_filter"] = False
    df = pd.read_csv(io.BytesIO(text), dtype=str, **opts)
    for c in cols:
        pd.to_numeric(df[c], errors="coerce")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--mb", type=float, default=8.0)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if not kernel.HAVE_KERNEL:
        raise SystemExit("bench/kernel.py: the C extension is not built (pip install -e . with gcc and Python headers)")
    print(f"{'log':<44} {'templates C':>11} {'ref':>8} {'x':>5} | {'lines MB':>8} {'cols':>4} "
          f"{'fields C':>9} {'ref':>8} {'x':>5} | {'lines C':>7} {'numpy':>6}   (ms/MB)")
    for path in args.files or DEFAULT_LOGS:
        print(row(path, args.mb, args.repeat))


def row(path: Path, mb_wanted: float, repeat: int) -> str:
    from training_check.tools.parsers import _kernel

    joined = block_of(path, mb_wanted)
    mb = len(joined) / 1e6
    t_c = best_ms(lambda: _kernel.templates(joined), repeat) / mb
    t_ref = best_ms(lambda: _factorize(templates_of(joined), joined.count(b"\n") + 1), repeat) / mb
    codes, _ = kernel.factorize_templates(joined)
    top = int(np.bincount(codes).argmax())
    t_b = best_ms(lambda: kernel.line_bounds(joined), repeat) / mb
    t_b_ref = best_ms(lambda: kernel.line_bounds(joined, use_kernel=False), repeat) / mb
    starts, ends = kernel.line_bounds(joined)
    idx = np.flatnonzero(codes == top)
    s, e = starts[idx], ends[idx]
    lines = [joined[a:b] for a, b in zip(s.tolist(), e.tolist(), strict=True)]
    first = value_text(lines[:1]).rstrip(b"\n").split(b",")
    cols = [c for c, f in enumerate(first) if f.strip(b"+-.eE")]  # the fields that hold digits
    lines_mb = sum(len(ln) for ln in lines) / 1e6
    f_c = best_ms(lambda: _kernel.fields(joined, s, e, tuple(cols)), repeat) / lines_mb
    f_ref = best_ms(lambda: read_reference(lines, cols), repeat) / lines_mb
    name = f"{path.parent.name}/{path.name}"[-44:]
    return (f"{name:<44} {t_c:>11.3f} {t_ref:>8.2f} {t_ref / t_c:>5.1f} | {lines_mb:>8.2f} {len(cols):>4} "
            f"{f_c:>9.3f} {f_ref:>8.2f} {f_ref / f_c:>5.1f} | {t_b:>7.3f} {t_b_ref:>6.3f}")

if __name__ == "__main__":
    main()
