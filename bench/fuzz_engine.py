"""Hostile 10 MB logs aimed at the text-log engine's own patterns, each read whole through LogFileSource: the
time of every read is printed, and the run fails (exit 1) when one takes longer than ``--limit`` seconds.

The shapes: long digit runs (a 20,000-digit number in every line, one line of digits the size of the cap), runs of
separators and of number characters (``-.-.-.``), nested brackets, tqdm bar fragments without a closing pipe,
ANSI escapes with no final byte, nan/inf words glued and spaced, counters that look like dates, every line its
own template, every template seen exactly twice, thousands of fields on a line, a block of NULs, and random
mixes of the tokens above (``--random N`` files from ``--seed``).

    .venv/bin/python bench/fuzz_engine.py [--mb 10] [--limit 2] [--random 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable

from training_check.tools.errors import TrainingCheckError
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

TOKENS = [b"9" * 200, b"-.-.-.-.-.", b"[[[[[[[[", b"]]]]]]]]", b"%|", b"|", b"{'", b'{"', b"'", b'"', b": ", b"=",
          b"nan", b"inf", b"-nan.0", b"Infinity", b"e-", b"1e999", b"\x1b[", b"\x1b]", b"\r", b"\x08", b"/", b" ",
          b"\t", b"step", b"loss", b"epoch", b"12/05/2026", b"0/0", b"1/1", b"99999999999999999999/1", b"\xff",
          b"\x00", b"(", b")", b",", b"Epoch 1/10", b"[15]", b"it/s]", b"v_num=0"]


def _fill(line: Callable[[int], bytes], size: int) -> bytes:
    out, n, i = [], 0, 0
    while n < size:
        ln = line(i)
        out.append(ln)
        n += len(ln)
        i += 1
    return b"".join(out)


def shapes(size: int) -> dict[str, bytes]:
    digits = b"7" * 20_000
    return {
        "20k-digit number per line": _fill(lambda i: b"step=%d loss=%s!\n" % (i, digits), size),
        "one line of digits (cut)": b"1" * size + b"\n",
        "separators and number chars": _fill(lambda i: b"-.-" * 300 + b" loss=-.-.-.1 " + b".:,;" * 100 + b"\n", size),
        "nested brackets": _fill(lambda i: b"[" * 500 + b"loss: %d" % i + b"]" * 500 + b"\n", size),
        "bars without a closing pipe": _fill(lambda i: b" 5%|" + b"#" * 300 + b" 1/10 loss=%d\n" % i, size),
        "ANSI escapes without a final byte": _fill(lambda i: b"\x1b[" + b"1;" * 200 + b"loss=%d\n" % i, size),
        "nan/inf words everywhere": _fill(lambda i: b"nan inf nanx xinf -nan.0 Infinity loss=nan step=%d\n" % i,
                                          size),
        "date-like counters": _fill(lambda i: b"12/05/2026 %d/%d 01/02/03/04 loss=%d\n" % (i, i + 1, i), size),
        "every line its own template": _fill(lambda i: (b"k%s=%d " % (b"x" * (i % 97), i)) * 8 + b"\n", size),
        "every template twice": _fill(lambda i: b"%s loss=%d step=%d\n" % (b"w" * (i // 2 % 3000), i, i), size),
        "thousands of fields": _fill(lambda i: b"a=1 " * 4000 + b"loss=%d\n" % i, size),
        "a block of NULs": b"step=1 loss=2\n" + b"\x00" * size + b"\nstep=2 loss=1\n",
        "lone backspaces (each two breaks)": _fill(lambda i: b"loss=%d\x08" % i + b"1\x08" * 100 + b"\n", size),
        "carriage returns and CRLF mixed": _fill(lambda i: b"\r\r\n\r" * 50 + b"step %d loss=1\r\n" % i, size),
        "unclosed Keras bars": _fill(lambda i: (b"[" + b"=" * 300 + b">") * 10 + b" loss: %d\n" % i, size),
        "markdown rows of every width": _fill(lambda i: b"| loss | step |\n|---|---|\n" + b"| 1 " * (i % 50)
                                              + b"|\n", size),
        # record kinds (tables_text.py, blocks.py): headers and tables aimed at their work per template and per block
        "huge table headers": _fill(lambda i: b" ".join(b"col%d_name" % k for k in range(900)) + b"\n"
                                    + b" ".join(b"%d.5" % (k + i) for k in range(900)) + b"\n", size),
        "thousands of cells under a short header": _fill(lambda i: (b"epoch  loss  acc\n" if i % 100 == 0 else b"")
                                                         + b"%d " % i + b"0.5 " * 4000 + b"\n", size),
        "a header and a row of its own width each": _fill(
            lambda i: b"step" + b"  " * (i % 300) + b" loss   acc\n" + b"%d" % i + b" " * (i % 301) + b" 0.5 1.5\n",
            size),
        "endless vertical table, a name a row": _fill(lambda i: b"| step | %d |\n| loss%d | %d |\n" % (i, i, i),
                                                      size),
        "endless borders and sections": _fill(lambda i: b"-" * 40 + b"\n| sec%d/ |   |\n" % i, size),
        "endless box rows, a value a row": _fill(
            lambda i: f"\u2502 training_iteration  {i}   \u2502\n\u2502 x{i}  {i}  \u2502\n".encode(), size),
        # statistics rows (stat_rows.py): a heading and a row of a new name each, and rows of many parentheses
        "statistics rows, a new name each": _fill(
            lambda i: b"Metric%d\n\tsplit%d \t (min: %d, max: %d, cur: %d)\n" % (i, i, i, i, i), size),
        "statistics rows with many parentheses": _fill(
            lambda i: b"\tloss (min: 1, cur: %d)" % i + b" (cur: 1)" * 200 + b"\n", size),
        "rule rows of every width": _fill(lambda i: b"E  #  LOSS A  SCORE\n" + b"-" * (i % 500) + b"  --\n"
                                          + b"%d  %d  0.5  0.7\n" % (i, i), size),
        # tags opening records (engine._tagged_steps) and banners of an epoch's parts (banners.epoch_parts)
        "a new tag every counter and record": _fill(
            lambda i: b"( %d , %d ): bucket %d / 9 : x\n( %d , %d ): loss:  0.%d\n" % (
                i, i * 7, i % 9 + 1, i, i * 7, i), size),
        "tags of thousands of numbers": _fill(lambda i: b"(" + b"1," * 3000 + b"%d): loss: 0.5\n" % i, size),
        "banners of many parts": _fill(lambda i: b"Starting epoch %d / 9" % (i % 9 + 1) + b", part 1 / 2" * 300
                                       + b"\n( 1 ): bucket 1 / 1 : x\n( 1 ): loss:  0.%d\n" % i, size),
    }


def random_files(n: int, size: int, seed: int) -> dict[str, bytes]:
    rnd = random.Random(seed)
    out = {}
    for k in range(n):
        parts, total = [], 0
        while total < size:
            tok = rnd.choice(TOKENS) if rnd.random() < 0.7 else str(rnd.randint(0, 10**9)).encode()
            parts.append(tok)
            total += len(tok)
            if rnd.random() < 0.05:
                parts.append(b"\n")
        out[f"random mix {k}"] = b"".join(parts) + b"\n"
    return out


def read_whole(path: str) -> tuple[float, str]:
    src = LogFileSource(LocalFileSystem(), path, settle_seconds=0)
    t0 = time.perf_counter()
    cursor, points, outcome = None, 0, "read"
    try:
        while True:
            res = src.read(cursor)
            points += res.batch.n_points
            cursor = res.cursor
            if not res.more:
                break
    except TrainingCheckError as e:
        outcome = f"refused: {e.message[:60]}"
    return time.perf_counter() - t0, f"{outcome}, {points} points"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=10.0, help="size of each file in MB (default 10)")
    ap.add_argument("--limit", type=float, default=2.0, help="seconds a read may take (default 2)")
    ap.add_argument("--random", type=int, default=6, help="how many random token mixes (default 6)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random mixes (default 1)")
    args = ap.parse_args()
    size = int(args.mb * 1e6)
    cases = {**shapes(size), **random_files(args.random, size, args.seed)}
    worst, failed = 0.0, []
    with tempfile.TemporaryDirectory() as d:
        print(f"{'shape':<36} {'MB':>6} {'seconds':>8}  outcome")
        for name, data in cases.items():
            path = os.path.join(d, "hostile.log")
            with open(path, "wb") as f:
                f.write(data)
            os.utime(path, (1.0, 1.0))
            secs, outcome = read_whole(path)
            worst = max(worst, secs)
            flag = "  <-- over the limit" if secs > args.limit else ""
            print(f"{name:<36} {len(data) / 1e6:>6.1f} {secs:>8.2f}  {outcome}{flag}")
            if secs > args.limit:
                failed.append(name)
    print(f"worst: {worst:.2f} s (limit {args.limit:.1f} s); over the limit: {', '.join(failed) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
