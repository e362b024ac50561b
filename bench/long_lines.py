"""Benchmark (issue 32): a log with no newline at all, read whole by the real LogFileSource, in a fresh process per
case. Printed per case: the time, the peak RSS of that process (``ru_maxrss``: imports included), the progress reports,
the points read and the notes. Cases:

- ``blob``: ``--gb`` GB without a line break (no ``\\n``, no ``\\r``): a line longer than any cap, skipped in bounded
  memory, the read going on to the end (a metric line before and after it is read);
- ``bars``: ``--gb`` GB of a real tqdm bar redrawn with ``\\r`` and never closed (hours of redraws, no ``\\n``): every
  redraw is a record, read in pieces.

    .venv/bin/python bench/long_lines.py --gb 1                 # both cases, 1 GB each (needs ~1 GB in --dir)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RSS_BOUND_MB = 300


def _write_blob(path: Path, size: int) -> None:
    piece = (b"0123456789 abcdefghij loss=" * 4096)[:1 << 20]  # numbers and words, never a break
    with open(path, "wb") as f:
        f.write(b"step 1 loss 2.0\n")
        left = size
        while left > 0:
            f.write(piece[:min(left, len(piece))])
            left -= len(piece)
        f.write(b"\nstep 2 loss 1.5\n")


def _write_bars(path: Path, size: int) -> None:
    """A real tqdm bar (total unknown: it never closes) redrawn with its loss; its bytes written once for 10,000
    steps, then repeated with the step counter going on (the bytes tqdm would write, without its per-step cost)."""
    import io

    from tqdm import tqdm

    buf = io.StringIO()
    bar = tqdm(total=10**9, desc="train", file=buf, mininterval=0, miniters=1)
    for n in range(1, 10001):
        bar.set_postfix(loss=f"{2.0 / (1 + n / 1000):.4f}", refresh=False)
        bar.update(1)
    text = buf.getvalue()
    redraws = text.split("\r")[2:]  # past the first (empty) redraw
    with open(path, "w") as f:
        written, k = 0, 0
        while written < size:
            chunk = "".join("\r" + r.replace(f"| {i + 1}/", f"| {i + 1 + k * 10000}/") for i, r in enumerate(redraws))
            f.write(chunk)
            written += len(chunk)
            k += 1


def _child(path: str) -> None:
    import resource

    from training_check.tools.sources.files import LocalFileSystem
    from training_check.tools.sources.logfile import LogFileSource

    src = LogFileSource(LocalFileSystem(), path, settle_seconds=0)
    progress: list[float] = []
    t0 = time.perf_counter()
    res = src.read(None, progress=lambda done, total, what: progress.append(done))
    points, notes, parts = res.batch.n_points, list(res.notes), 1
    while res.more:
        res = src.read(res.cursor, progress=lambda done, total, what: progress.append(done))
        points += res.batch.n_points
        notes += [n for n in res.notes if n not in notes]
        parts += 1
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"s": time.perf_counter() - t0, "cpu_s": time.process_time(), "rss_mb": rss_mb,
                      "progress": len(progress), "last_progress": progress[-1] if progress else 0, "points": points,
                      "parts": parts, "notes": notes[:3]}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gb", type=float, default=1.0, help="size of each file in GB (default 1)")
    ap.add_argument("--cases", default="blob,bars", help="comma-separated, of blob,bars")
    ap.add_argument("--dir", default=None, help="where to write the files (default: a temp dir)")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        _child(a.child)
        return
    size = int(a.gb * (1 << 30))
    print(f"{'case':>6} {'size':>8} {'time':>8} {'MB/s':>7} {'cpu MB/s':>8} {'peak RSS':>9} {'progress':>9} "
          f"{'parts':>6} {'points':>10}"
          f"  notes")
    with tempfile.TemporaryDirectory(dir=a.dir) as tmp:
        for case in a.cases.split(","):
            path = Path(tmp) / f"{case}.log"
            (_write_blob if case == "blob" else _write_bars)(path, size)
            got = subprocess.run([sys.executable, __file__, "--child", str(path)], capture_output=True, text=True,
                                 timeout=3600, check=True)
            r = json.loads(got.stdout.strip().splitlines()[-1])
            mb = path.stat().st_size / 2**20
            ok = "ok" if r["rss_mb"] < RSS_BOUND_MB and r["last_progress"] >= path.stat().st_size else "OVER"
            print(f"{case:>6} {mb:6.0f}MB {r['s']:7.1f}s {mb / r['s']:7.1f} {mb / r['cpu_s']:8.1f} "
                  f"{r['rss_mb']:7.0f}MB {r['progress']:>9} "
                  f"{r['parts']:>6} {r['points']:>10,d}  [{ok}: peak < {RSS_BOUND_MB} MB, progress to the end] "
                  f"{'; '.join(r['notes'])}", flush=True)
            os.remove(path)


if __name__ == "__main__":
    main()
