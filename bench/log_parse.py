"""Benchmark: log parsing throughput and the cost of an incremental check.

Generates modded-nanogpt style logs (``step:N/M train_loss:X train_time:Tms step_avg:Ams``
with a ``val_loss`` line every 125 steps and some noise) of the given sizes in a
temp dir, then for each size prints: a full read's lines/s and MB/s, and the wall
time and bytes read of a check after 1 MB more is appended (which must not grow
with the file's size).

    .venv/bin/python bench/log_parse.py                 # 100 MB and 1 GB
    .venv/bin/python bench/log_parse.py --sizes-mb 10,50  # smaller
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

TOTAL_STEPS = 10**9


def _block(start: int, n: int) -> str:
    lines = []
    for i in range(start, start + n):
        lines.append(f"step:{i}/{TOTAL_STEPS} train_loss:{3 + (i % 97) / 100:.4f} train_time:{i * 216}ms step_avg:216.33ms\n")
        if i % 125 == 0:
            lines.append(f"step:{i}/{TOTAL_STEPS} val_loss:{3.2 + (i % 89) / 1000:.4f} train_time:{i * 216}ms step_avg:216.33ms\n")
        if i % 5000 == 0:
            lines.append("W1202 16:03:49.681000 1735 torch/distributed/run.py:851] some interleaved warning\n")
    return "".join(lines)


def write_log(path: str, size_bytes: int, start: int = 0) -> tuple[int, int]:
    """Append about ``size_bytes`` of log to ``path``; (next step, lines written)."""
    written, step, nlines = 0, start, 0
    with open(path, "a", buffering=1 << 22) as f:
        while written < size_bytes:
            text = _block(step, 2000)
            f.write(text)
            written += len(text)
            nlines += text.count("\n")
            step += 2000
    return step, nlines


def bench(size_mb: int, tmp: str) -> dict:
    path = os.path.join(tmp, f"train_{size_mb}mb.log")
    step, nlines = write_log(path, size_mb << 20)
    size = os.path.getsize(path)
    src = LogFileSource(LocalFileSystem(), path)
    t0, c0 = time.perf_counter(), time.process_time()
    res = src.read(None)
    full, cpu = time.perf_counter() - t0, time.process_time() - c0
    points = res.batch.n_points
    _, new_lines = write_log(path, 1 << 20, start=step)
    appended = os.path.getsize(path) - size
    t0 = time.perf_counter()
    inc = src.read(res.cursor)
    inc_time = time.perf_counter() - t0
    os.remove(path)
    return {"size_mb": size / 2**20, "lines": nlines, "points": points, "full_s": full,
            "lines_per_s": nlines / full, "lines_per_cpu_s": nlines / cpu, "mb_per_s": size / 2**20 / full, "appended": appended,
            "inc_s": inc_time, "inc_bytes": inc.bytes_read, "inc_points": inc.batch.n_points}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes-mb", default="100,1024", help="comma-separated file sizes in MB (default 100,1024)")
    ap.add_argument("--dir", default=None, help="where to write the temporary logs (default: a temp dir)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes_mb.split(",") if s.strip()]
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        print(f"(wall-clock figures depend on other load; lines/cpu-s is this process's own CPU time; load now "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
        print(f"{'size':>9} {'lines':>11} {'points':>11} {'full read':>10} {'lines/s':>11} {'MB/s':>7} {'lines/cpu-s':>11} | "
              f"{'+1 MB check':>11} {'bytes read':>11} {'new pts':>8}")
        for mb in sizes:
            r = bench(mb, tmp)
            print(f"{r['size_mb']:7.0f}MB {r['lines']:11,d} {r['points']:11,d} {r['full_s']:9.2f}s {r['lines_per_s']:11,.0f} "
                  f"{r['mb_per_s']:7.1f} {r['lines_per_cpu_s']:11,.0f} | {r['inc_s'] * 1000:9.1f}ms {r['inc_bytes']:11,d} {r['inc_points']:8,d}",
                  flush=True)


if __name__ == "__main__":
    main()
