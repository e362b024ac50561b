"""Benchmark: what a first read costs, per log format, end to end and in the reader alone.

1. END TO END, one row per format present in examples/corpus and the shared corpora (real-logs,
   real-logs-2; the format as the reader names it: cursor["format"], or the source kind), the
   generic path among them. Each row's bytes are a real file of that format (the largest), repeated
   until the file is about ``--real-mb`` MB (its steps restart at each copy); a JSON document (a
   repeated copy is not one) is grown by its own structure instead, as a longer run writes it: a
   ``trainer_state.json``'s ``log_history`` repeated with its steps moved on, golden values' ``values``
   likewise, written as the framework writes them. A format that can be neither is measured on the
   real file as it is, and said so.
   Printed: MB/s of a whole first check -- ``assess_run`` on a fresh store (read + store + history +
   signals + judgment), median of ``--repeat`` -- next to the reader's share (COMPONENT:
   ``source.read`` until it has read everything, median of ``--repeat``).
2. COMPONENT: the reader alone on synthetic, perfectly regular logs written here (modded-nanogpt
   ``step:N/M train_loss:X ...`` with a ``val_loss`` line every 125 steps and some noise; llm.c
   ``s:N trl:X lr:L norm:G``; nanoGPT ``iter N: loss X, ...``; JSON lines; CSV): lines/s and MB/s of
   a full read, the wall time and bytes read of a check after 1 MB more is appended (which must not
   grow with the file's size), and the same file's MB/s through a whole first check.

Files are read just after being written (from the page cache, as a log a run is writing is); the
fixed costs a fresh process pays once (imports) are outside every figure: bench/server_start.py.

    .venv/bin/python bench/log_parse.py                                    # both tables, defaults
    .venv/bin/python bench/log_parse.py --real-mb 20 --repeat 5 --sizes-mb 0   # the per-format table only
    .venv/bin/python bench/log_parse.py --real-mb 0 --sizes-mb 100,1024 --formats modded,llmc,nanogpt,jsonl,csv
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from training_check.tools.assess import assess_run
from training_check.tools.config import load_config
from training_check.tools.errors import TrainingCheckError
from training_check.tools.sources import open_path_source
from training_check.tools.sources.base import Source
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource
from training_check.tools.store import Store

TOTAL_STEPS = 10**9
REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ["TRAINING_CHECK_CORPUS"]).parent if os.environ.get("TRAINING_CHECK_CORPUS") else (
    REPO.parent / "shared" / "corpus")
NOT_RUNS = {"label.json", "manifest.jsonl", "MANIFEST.md", "README.md", "FORMATS.md", "truth.json", "generate.py"}
GENERIC = {"generic", "text"}  # what the reader calls a log no dialect claims (the name before / after its rewrite)


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


def cpu_s(fn: Callable[[], object]) -> float:
    """This process's CPU time for one call (a figure other processes' load moves less than wall time)."""
    c0 = time.process_time()
    fn()
    return time.process_time() - c0


def median_s(fn: Callable[[], object], n: int) -> float:
    """Median wall time of ``n`` calls of ``fn``."""
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def first_check(path: str) -> str:
    """One whole first check of ``path``: assess_run on a fresh store (read + store + history + signals + judgment);
    the verdict."""
    with tempfile.TemporaryDirectory(prefix="tc-firstcheck-") as home:
        config = load_config(cwd=home, env={"TRAINING_CHECK_HOME": home})
        return assess_run(path, store=Store(config.store_path), config=config).verdict


def read_all(path: str) -> tuple[str, int, list[str]]:
    """The reader alone, from the start until it has read everything: (format, points, notes)."""
    src: Source = open_path_source(LocalFileSystem(), path)
    if isinstance(src, LogFileSource):
        src.settle_seconds = 0
    res = src.read(None)
    points, notes = res.batch.n_points, list(res.notes)
    while res.more:
        res = src.read(res.cursor)
        points += res.batch.n_points
        notes = list(res.notes)
    fmt = res.cursor.get("format") if isinstance(res.cursor, dict) else None
    return str(fmt or type(src).__name__.removesuffix("Source").lower()), points, notes


@dataclass
class Seed:
    format: str
    path: Path
    points: int


def family(folder: Path, path: Path, fmt: str) -> str:
    """A row's name: the format the reader names, and for a text log (every one the one engine reads) the kind of
    log as its corpus files it: the project folder (real-logs/modded-nanogpt/...), the framework of a framework run
    (examples/frameworks/hf_*/train.log -> hf), the project word of a numbered file (real-logs-2/12_detectron2-...)."""
    if fmt not in GENERIC:
        return fmt
    rel = path.relative_to(folder).parts
    if len(rel) > 1:
        head = rel[0]
        return f"text:{head.split('_')[0] if folder.name == 'frameworks' else head}"
    stem = rel[0].split("_", 1)[-1] if rel[0][:2].isdigit() else rel[0]
    return f"text:{stem.split('-')[0].split('.')[0]}"


def seeds(folders: list[Path]) -> tuple[dict[str, Seed], list[str]]:
    """The largest readable file of each format (text logs: of each family) in ``folders``, and what could not be
    read (listed, not hidden)."""
    out: dict[str, Seed] = {}
    unread = []
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name not in NOT_RUNS):
            try:
                fmt, points, _ = read_all(str(path))
            except TrainingCheckError as e:
                unread.append(f"{path}: {e}")
                continue
            row = family(folder, path, fmt)
            if points and (row not in out or path.stat().st_size > out[row].path.stat().st_size):
                out[row] = Seed(row, path, points)
    return out, unread


def grow_document(body: bytes, copies: int) -> bytes | None:
    """A JSON document ``copies`` times as long, as a longer run would write it: a ``trainer_state.json``'s
    ``log_history`` repeated with each copy's steps after the last (written as HF's Trainer writes it: indent 2,
    sorted keys), golden values' ``values`` likewise (one line, as Megatron-LM's files are); None for anything else."""
    try:
        doc = json.loads(body)
    except ValueError:
        return None
    if isinstance(doc, dict) and isinstance(doc.get("log_history"), list):
        history = doc["log_history"]
        span = max((e.get("step", 0) for e in history if isinstance(e, dict)), default=0) + 1
        doc["log_history"] = [{**e, "step": e["step"] + c * span} if isinstance(e, dict) and "step" in e else e
                              for c in range(copies) for e in history]
        for key in ("max_steps", "global_step"):
            if isinstance(doc.get(key), int):
                doc[key] = doc[key] + (copies - 1) * span
        return (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode()
    if isinstance(doc, dict) and doc and all(isinstance(v, dict) and isinstance(v.get("values"), dict)
                                             for v in doc.values()):
        for spec in doc.values():
            values = spec["values"]
            span = max((int(k) for k in values if k.isdigit()), default=0) + 1
            spec["values"] = {str(int(k) + c * span) if k.isdigit() else k: v
                              for c in range(copies) for k, v in values.items()}
            if isinstance(spec.get("end_step"), int):
                spec["end_step"] += (copies - 1) * span
        return json.dumps(doc).encode()
    return None


def bench_real(seed: Seed, tmp: str, target_mb: float, repeat: int) -> dict:
    """One format's row: the seed repeated to about ``target_mb`` (or as it is, when a repeated copy reads as another
    format), its reader MB/s and its first check MB/s (medians of ``repeat``)."""
    body = seed.path.read_bytes()
    if body and not body.endswith(b"\n") and not seed.path.name.startswith("events.out.tfevents."):
        body += b"\n"
    copies = max(1, int(target_mb * 2**20 // max(1, len(body))))
    folder = Path(tmp) / seed.format.replace(":", "_")
    folder.mkdir()
    path = folder / seed.path.name  # the name, for the formats a name tells (trainer_state.json, metrics.csv, ...)
    path.write_bytes(body * copies)
    why, grew = "", False
    try:
        fmt, points, notes = read_all(str(path))
        if fmt != seed.format.split(":")[0]:
            why = f"repeated, it reads as {fmt}"
    except TrainingCheckError as e:
        why = f"repeated, it does not read ({type(e).__name__})"
    if why:
        grown = grow_document(body, copies)
        if grown is not None:
            path.write_bytes(grown)
            why, grew = "", True
            fmt, points, notes = read_all(str(path))
        if why or fmt != seed.format.split(":")[0]:
            copies = 1
            shutil.copyfile(seed.path, path)
            fmt, points, notes = read_all(str(path))
    size = path.stat().st_size
    reader_s = median_s(lambda: read_all(str(path)), repeat)
    reader_cpu = statistics.median(cpu_s(lambda: read_all(str(path))) for _ in range(repeat))
    verdict = first_check(str(path))
    check_s = median_s(lambda: first_check(str(path)), repeat)
    shutil.rmtree(folder)
    return {"format": seed.format, "seed": seed.path.name, "copies": copies, "size_mb": size / 2**20, "points": points,
            "reader_s": reader_s, "reader_mb_s": size / 2**20 / reader_s, "check_s": check_s,
            "reader_cpu_mb_s": size / 2**20 / max(reader_cpu, 1e-9),
            "check_mb_s": size / 2**20 / check_s, "verdict": verdict, "read_as": fmt,
            "as_is": why, "grown": grew}


def real_table(folders: list[Path], target_mb: float, repeat: int, tmp: str) -> None:
    found, unread = seeds(folders)
    print(f"\nEND TO END: a first check per format (assess_run on a fresh store: read + store + history + signals), "
          f"next to the reader alone (COMPONENT); real files repeated to ~{target_mb:g} MB; medians of {repeat}")
    print(f"{'format':>22} {'size':>8} {'copies':>6} {'points':>10} | {'first check':>11} {'MB/s':>7} | "
          f"{'reader':>8} {'MB/s':>7} {'cpu MB/s':>8} | verdict   seed file")
    rows = []
    for fmt in sorted(found):
        r = bench_real(found[fmt], tmp, target_mb, repeat)
        rows.append(r)
        as_is = f" (the file as it is: {r['as_is']})" if r["as_is"] else ""
        as_is += " (grown by its own structure)" if r["grown"] else ""
        as_is += " [the generic path]" if r["format"].split(":")[0] in GENERIC else ""
        print(f"{r['format']:>22} {r['size_mb']:6.1f}MB {r['copies']:>6} {r['points']:>10,d} | {r['check_s']:10.2f}s "
              f"{r['check_mb_s']:7.1f} | {r['reader_s']:7.2f}s {r['reader_mb_s']:7.1f} {r['reader_cpu_mb_s']:8.1f} | "
              f"{r['verdict']:9s} "
              f"{r['seed'][:48]}{as_is}", flush=True)
    bars = bar_row(tmp, repeat)
    if bars is not None:
        rows.append(bars)
        nano = next((r for r in rows if r["format"] == "text:modded-nanogpt"), None)
        vs = f"; {bars['reader_cpu_mb_s'] / nano['reader_cpu_mb_s']:.2f} x the nanoGPT row's cpu MB/s" if nano else ""
        print(f"{bars['format']:>22} {bars['size_mb']:6.1f}MB {1:>6} {bars['points']:>10,d} | {bars['check_s']:10.2f}s "
              f"{bars['check_mb_s']:7.1f} | {bars['reader_s']:7.2f}s {bars['reader_mb_s']:7.1f} "
              f"{bars['reader_cpu_mb_s']:8.1f} | {bars['verdict']:9s} real tqdm, {BAR_EPOCHS} epochs of {BAR_STEPS} "
              f"steps, one \\n an epoch: {bars['points'] / (BAR_EPOCHS * BAR_STEPS):.1%} of its points{vs}", flush=True)
    if not GENERIC & {f.split(":")[0] for f in found}:
        print("  (no file read through the generic path in these folders)")
    for u in unread:
        print(f"  not read (no row): {u}")
    total_mb = sum(r["size_mb"] for r in rows)
    if rows:
        print(f"  all rows: {total_mb:.0f} MB; first check {total_mb / sum(r['check_s'] for r in rows):.1f} MB/s, "
              f"reader {total_mb / sum(r['reader_s'] for r in rows):.1f} MB/s (bytes-weighted)")


BAR_EPOCHS, BAR_STEPS = 300, 1000  # issue 32: a 25 MB bar log, 300k steps in 1,000-step epochs


def bar_row(tmp: str, repeat: int) -> dict | None:
    """The bar-log row: a real tqdm's bar redrawn every step with its loss, one ``\\n`` an epoch (bench/bar_log.py);
    None (said) without tqdm."""
    try:
        from bar_log import write_bar_log
    except ImportError as e:
        print(f"  (no bar-log row: {e}; pip install tqdm)")
        return None
    path = Path(tmp) / "bars.log"
    write_bar_log(str(path), BAR_EPOCHS, BAR_STEPS)
    size = path.stat().st_size / 2**20
    _fmt, points, _ = read_all(str(path))
    reader_s = median_s(lambda: read_all(str(path)), repeat)
    reader_cpu = statistics.median(cpu_s(lambda: read_all(str(path))) for _ in range(repeat))
    verdict = first_check(str(path))
    check_s = median_s(lambda: first_check(str(path)), repeat)
    path.unlink()
    return {"format": "text:tqdm_bars", "size_mb": size, "points": points, "reader_s": reader_s,
            "reader_mb_s": size / reader_s, "reader_cpu_mb_s": size / max(reader_cpu, 1e-9), "check_s": check_s,
            "check_mb_s": size / check_s, "verdict": verdict}


def bench(size_mb: int, tmp: str, fmt: str = "modded", repeat: int = 1) -> dict:
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
    size2 = os.path.getsize(path)
    check_s = median_s(lambda: first_check(path), repeat)
    os.remove(path)
    return {"format": res.cursor.get("format"), "size_mb": size / 2**20, "lines": nlines, "points": points,
            "full_s": full, "check_mb_s": size2 / 2**20 / check_s,
            "lines_per_s": nlines / full, "lines_per_cpu_s": nlines / cpu, "mb_per_s": size / 2**20 / full,
            "appended": appended,
            "inc_s": inc_time, "inc_bytes": inc.bytes_read, "inc_points": inc.batch.n_points}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real-mb", type=float, default=10.0,
                    help="size each format's real file is repeated to, in MB (default 10; 0 skips that table)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per figure; medians are printed (default 3)")
    ap.add_argument("--corpus", action="append", type=Path, default=None,
                    help=f"folders of real files (repeatable; default examples/corpus, examples/frameworks, "
                         f"{SHARED}/real-logs, {SHARED}/real-logs-2, tests/fixtures/records: tables)")
    ap.add_argument("--sizes-mb", default="100",
                    help="synthetic file sizes in MB, comma-separated (default 100; 0 skips that table)")
    ap.add_argument("--dir", default=None, help="where to write the temporary logs (default: a temp dir)")
    ap.add_argument("--formats", default="modded", help=f"comma-separated, of {','.join(FORMATS)} (default modded)")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error(f"--repeat must be at least 1, not {args.repeat}")
    folders = args.corpus or [REPO / "examples" / "corpus", REPO / "examples" / "frameworks", SHARED / "real-logs",
                              SHARED / "real-logs-2", REPO / "tests" / "fixtures" / "records"]
    for folder in folders:
        if not folder.is_dir():
            ap.error(f"--corpus: {folder} is not a folder (the shared corpora: set TRAINING_CHECK_CORPUS or pass "
                     f"--corpus)")
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    for f in formats:
        if f not in FORMATS:
            ap.error(f"--formats: {f!r} is not one of {', '.join(FORMATS)}")
    sizes = [int(s) for s in args.sizes_mb.split(",") if s.strip() and int(s) > 0]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tc-warm-") as warm:  # imports and first calls: once per process
        Path(warm, "w.log").write_text("".join(f"step={i} loss={1 / (i + 1):.4f}\n" for i in range(200)))
        first_check(str(Path(warm, "w.log")))
    print(f"imports and first calls (once per process, not in the figures below): {time.perf_counter() - t0:.2f}s")
    print(f"(wall-clock figures depend on other load: load now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        if args.real_mb > 0:
            real_table(folders, args.real_mb, args.repeat, tmp)
        if not sizes:
            return
        print("\nCOMPONENT: the reader alone (LogFileSource.read) on synthetic, perfectly regular logs; the last "
              f"column is the same file through a whole first check (END TO END, median of {args.repeat}); "
              "lines/cpu-s is this process's own CPU time")
        print(f"{'format':>14} {'size':>9} {'lines':>11} {'points':>11} {'full read':>10} {'lines/s':>11} {'MB/s':>7} "
              f"{'lines/cpu-s':>11} | {'+1 MB check':>11} {'bytes read':>11} {'new pts':>8} | {'check MB/s':>10}")
        for fmt, mb in ((f, mb) for f in formats for mb in sizes):
            r = bench(mb, tmp, fmt, args.repeat)
            print(f"{r['format']:>14} {r['size_mb']:7.0f}MB {r['lines']:11,d} {r['points']:11,d} {r['full_s']:9.2f}s "
                  f"{r['lines_per_s']:11,.0f} {r['mb_per_s']:7.1f} {r['lines_per_cpu_s']:11,.0f} | "
                  f"{r['inc_s'] * 1000:9.1f}ms {r['inc_bytes']:11,d} {r['inc_points']:8,d} | "
                  f"{r['check_mb_s']:10.1f}", flush=True)


if __name__ == "__main__":
    main()
