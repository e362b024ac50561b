"""Benchmark: log parsing throughput and the cost of an incremental check.

Generates logs of the given sizes in a temp dir, in each format asked for: modded-nanogpt
(``step:N/M train_loss:X train_time:Tms step_avg:Ams``, a ``val_loss`` line every 125 steps, some
noise), llm.c (``s:N trl:X lr:L norm:G``, ``s:N tel:X`` every 250), nanoGPT (``iter N: loss X, time
Tms, mfu M%``, an eval line every 250), JSON lines and CSV (step, loss, lr, grad_norm). For each
format and size it prints a full read's lines/s and MB/s, and the wall time and bytes read of a
check after 1 MB more is appended (which must not grow with the file's size).

    .venv/bin/python bench/log_parse.py                 # modded-nanogpt, 100 MB and 1 GB
    .venv/bin/python bench/log_parse.py --sizes-mb 100 --formats modded,llmc,nanogpt,jsonl,csv
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

TOTAL_STEPS = 10**9


def _modded(start: int, n: int) -> str:
    lines = []
    for i in range(start, start + n):
        lines.append(f"step:{i}/{TOTAL_STEPS} train_loss:{3 + (i % 97) / 100:.4f} train_time:{i * 216}ms "
                     f"step_avg:216.33ms\n")
        if i % 125 == 0:
            lines.append(f"step:{i}/{TOTAL_STEPS} val_loss:{3.2 + (i % 89) / 1000:.4f} train_time:{i * 216}ms "
                         f"step_avg:216.33ms\n")
        if i % 5000 == 0:
            lines.append("W1202 16:03:49.681000 1735 torch/distributed/run.py:851] some interleaved warning\n")
    return "".join(lines)


def _llmc(start: int, n: int) -> str:
    lines = []
    for i in range(start, start + n):
        lines.append(f"s:{i} trl:{3 + (i % 97) / 100:.4f} lr:{3e-4 * (1 - (i % 1000) / 2000):.4e} "
                     f"norm:{1 + (i % 13) / 10:.4f}\n")
        if i % 250 == 0:
            lines.append(f"s:{i} tel:{3.2 + (i % 89) / 1000:.4f}\n")
    return "".join(lines)


def _nanogpt(start: int, n: int) -> str:
    lines = []
    for i in range(start, start + n):
        if i % 250 == 0:
            lines.append(f"step {i}: train loss {3 + (i % 97) / 100:.4f}, val loss {3.2 + (i % 89) / 1000:.4f}\n")
        lines.append(f"iter {i}: loss {3 + (i % 97) / 100:.4f}, time {59 + i % 7:.2f}ms, mfu {6 + (i % 5) / 10:.2f}%\n")
    return "".join(lines)


def _jsonl(start: int, n: int) -> str:
    return "".join(f'{{"step": {i}, "loss": {3 + (i % 97) / 100:.4f}, "lr": {3e-4 * (1 - (i % 1000) / 2000):.4e}, '
                   f'"grad_norm": {1 + (i % 13) / 10:.4f}}}\n' for i in range(start, start + n))


def _csv(start: int, n: int) -> str:
    head = "step,loss,lr,grad_norm\n" if start == 0 else ""
    return head + "".join(f"{i},{3 + (i % 97) / 100:.4f},{3e-4 * (1 - (i % 1000) / 2000):.4e},{1 + (i % 13) / 10:.4f}\n"
                          for i in range(start, start + n))


FORMATS = {"modded": _modded, "llmc": _llmc, "nanogpt": _nanogpt, "jsonl": _jsonl, "csv": _csv}


def write_log(path: str, size_bytes: int, start: int = 0, fmt: str = "modded") -> tuple[int, int]:
    """Append about ``size_bytes`` of log to ``path``; (next step, lines written)."""
    written, step, nlines = 0, start, 0
    with open(path, "a", buffering=1 << 22) as f:
        while written < size_bytes:
            text = FORMATS[fmt](step, 2000)
            f.write(text)
            written += len(text)
            nlines += text.count("\n")
            step += 2000
    return step, nlines


def bench(size_mb: int, tmp: str, fmt: str = "modded") -> dict:
    path = os.path.join(tmp, f"train_{size_mb}mb.{'csv' if fmt == 'csv' else 'log'}")
    step, nlines = write_log(path, size_mb << 20, fmt=fmt)
    size = os.path.getsize(path)
    src = LogFileSource(LocalFileSystem(), path)
    t0, c0 = time.perf_counter(), time.process_time()
    res = src.read(None)
    points = res.batch.n_points
    while res.more:  # a long read comes in parts (as the check stores them)
        res = src.read(res.cursor)
        points += res.batch.n_points
    full, cpu = time.perf_counter() - t0, time.process_time() - c0
    _, new_lines = write_log(path, 1 << 20, start=step, fmt=fmt)
    appended = os.path.getsize(path) - size
    t0 = time.perf_counter()
    inc = src.read(res.cursor)
    inc_time = time.perf_counter() - t0
    os.remove(path)
    return {"format": res.cursor.get("format"), "size_mb": size / 2**20, "lines": nlines, "points": points,
            "full_s": full,
            "lines_per_s": nlines / full, "lines_per_cpu_s": nlines / cpu, "mb_per_s": size / 2**20 / full,
            "appended": appended,
            "inc_s": inc_time, "inc_bytes": inc.bytes_read, "inc_points": inc.batch.n_points}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes-mb", default="100,1024", help="comma-separated file sizes in MB (default 100,1024)")
    ap.add_argument("--dir", default=None, help="where to write the temporary logs (default: a temp dir)")
    ap.add_argument("--formats", default="modded", help=f"comma-separated, of {','.join(FORMATS)} (default modded)")
    args = ap.parse_args()
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    for f in formats:
        if f not in FORMATS:
            ap.error(f"--formats: {f!r} is not one of {', '.join(FORMATS)}")
    sizes = [int(s) for s in args.sizes_mb.split(",") if s.strip()]
    t0 = time.perf_counter()
    import pandas  # noqa: F401  (the fast paths' reader: imported once per server process, on its first big read)
    print(f"pandas import (once per process, not in the figures below): {time.perf_counter() - t0:.2f}s")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        print(f"(wall-clock figures depend on other load; lines/cpu-s is this process's own CPU time; load now "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
        print(f"{'format':>14} {'size':>9} {'lines':>11} {'points':>11} {'full read':>10} {'lines/s':>11} {'MB/s':>7} "
              f"{'lines/cpu-s':>11} | {'+1 MB check':>11} {'bytes read':>11} {'new pts':>8}")
        for fmt, mb in ((f, mb) for f in formats for mb in sizes):
            r = bench(mb, tmp, fmt)
            print(f"{r['format']:>14} {r['size_mb']:7.0f}MB {r['lines']:11,d} {r['points']:11,d} {r['full_s']:9.2f}s "
                  f"{r['lines_per_s']:11,.0f} {r['mb_per_s']:7.1f} {r['lines_per_cpu_s']:11,.0f} | "
                  f"{r['inc_s'] * 1000:9.1f}ms {r['inc_bytes']:11,d} {r['inc_points']:8,d}", flush=True)


if __name__ == "__main__":
    main()
