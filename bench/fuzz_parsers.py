"""A short, time-boxed fuzzing run of the log parsers, LogFileSource and the run-reference parser.

Inputs: random bytes, and mutations (bit flips, cuts, splices, duplicated and injected tokens such as nan/inf,
huge numbers, NUL, ANSI escapes, giant lines) of real log samples from every supported format (the shared corpus
when present, else built-in samples). Every exception that is not a TrainingCheckError is a bug: it is printed
with a reproducer and the exit code is 1.

    .venv/bin/python bench/fuzz_parsers.py [--seconds 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

from training_check.tools.errors import BadInput, TrainingCheckError
from training_check.tools.runref import parse_run_ref
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

CORPUS = Path(os.environ.get("TRAINING_CHECK_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus" /
                             "real-logs"))
BUILTIN = [
    b"step:10/1000 train_loss:4.1234 train_time:100ms step_avg:10.00ms\n",
    b"step 10 | loss 4.123 | lr 3e-4 | norm 1.02 | dt 120ms\n",
    b"{\"step\": 10, \"loss\": 4.12, \"lr\": 0.0003}\n",
    b"step,loss,lr\n10,4.12,0.0003\n11,4.10,0.0003\n",
    b"{'loss': 2.31, 'grad_norm': 1.2, 'learning_rate': 5e-05, 'epoch': 0.1}\n",
    b" iteration       10/    1000 | consumed samples: 640 | lm loss: 9.2E+00 | grad norm: 12.3 |\n",
    b"Epoch 1/10\n100/100 [==============================] - 3s 30ms/step - loss: 0.6931 - accuracy: 0.5000\n",
    b"| epoch   1 |   200/ 2983 batches | lr 20.00 | ms/batch 45.1 | loss  7.5 | ppl  1800.0\n",
    b"[2024-01-01 00:00:00] step=10 loss=nan grad_norm=inf\n",
]
TOKENS = [b"nan", b"NaN", b"-inf", b"inf", b"1e309", b"-0", b"\x00", b"\x1b[31m", b"\r", b"\n", b"\xff\xfe",
          b"9" * 400, b"step", b"loss", b"=", b":", b"|", b",", b"{", b"}", b"[", b"]", b"'", b'"', b"\t",
          b"E+", b"." * 50, "é".encode(), b"\xed\xa0\x80"]
REF_TOKENS = ["ssh://", "/", "..", "~", "@", ":", "%00", "%2e", "-", "--help", ";", "$(id)", "`", "\n", "\x00",
              "https://wandb.ai/", "runs", "a", "wandb", ".log", "[::1]", "99999", "user@", "\\", " "]


def samples() -> list[bytes]:
    out = list(BUILTIN)
    if CORPUS.is_dir():
        for p in sorted(CORPUS.rglob("*")):
            if p.is_file() and p.stat().st_size > 0 and p.suffix not in (".md",):
                try:
                    with open(p, "rb") as f:
                        out.append(f.read(6000))
                except OSError:
                    pass
    return out


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(7)
        pos = rng.randint(0, len(b)) if b else 0
        if op == 0 and b:  # bit flip
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:  # inject a token
            b[pos:pos] = rng.choice(TOKENS)
        elif op == 2 and b:  # cut
            del b[pos:pos + rng.randint(1, 64)]
        elif op == 3:  # splice another sample
            other = rng.choice(pool)
            a = rng.randint(0, len(other))
            b[pos:pos] = other[a:a + rng.randint(1, 400)]
        elif op == 4 and b:  # duplicate a slice
            b[pos:pos] = b[max(0, pos - 80):pos]
        elif op == 5:  # random bytes
            b[pos:pos] = os.urandom(rng.randint(1, 32))
        else:  # truncate
            del b[pos:]
    return bytes(b)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="time box (default 60)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = samples()
    counts = {"one read": 0, "LogFileSource": 0, "parse_run_ref": 0}
    clean_errors = {k: 0 for k in counts}
    bugs: list[tuple[str, bytes | str, str]] = []
    fs = LocalFileSystem()
    deadline = time.monotonic() + args.seconds
    with tempfile.TemporaryDirectory(prefix="tc-fuzz-") as tmp:
        i = 0
        while time.monotonic() < deadline:
            i += 1
            if rng.random() < 0.15:
                data = os.urandom(rng.randint(0, 2000))
            else:
                data = mutate(rng, rng.choice(pool), pool)
            # 1. the parsers on the bytes: one read of the whole file, settled
            counts["one read"] += 1
            whole = Path(tmp) / f"w{i % 7}.log"
            try:
                whole.write_bytes(data)
                LogFileSource(fs, str(whole), settle_seconds=0.0).read(None)
            except TrainingCheckError:
                clean_errors["one read"] += 1
            except Exception:
                bugs.append(("one read", data, traceback.format_exc(limit=3)))
            # 2. the incremental file source, read in two pieces at a random cut
            if i % 4 == 0:
                counts["LogFileSource"] += 1
                p = Path(tmp) / f"f{i % 7}.log"
                cut = rng.randint(0, len(data))
                try:
                    p.write_bytes(data[:cut])
                    src = LogFileSource(fs, str(p), settle_seconds=0.0, chunk_bytes=4096)
                    r1 = src.read(None)
                    with open(p, "ab") as f:
                        f.write(data[cut:])
                    src.read(r1.cursor)
                except TrainingCheckError:
                    clean_errors["LogFileSource"] += 1
                except Exception:
                    bugs.append(("LogFileSource", data, traceback.format_exc(limit=3)))
            # 3. the run-reference parser
            counts["parse_run_ref"] += 1
            ref = "".join(rng.choice(REF_TOKENS) for _ in range(rng.randint(0, 12)))
            if rng.random() < 0.3:
                ref = data[:200].decode("utf-8", "replace")
            try:
                parse_run_ref(ref, cwd=tmp)
            except BadInput:
                clean_errors["parse_run_ref"] += 1
            except Exception:
                bugs.append(("parse_run_ref", ref, traceback.format_exc(limit=3)))
    total = sum(counts.values())
    print(f"fuzz_parsers: {args.seconds:.0f}s, seed {args.seed}, {len(pool)} seed samples")
    print(f"{'target':<16}{'cases':>10}{'clean errors':>14}")
    for k in counts:
        print(f"{k:<16}{counts[k]:>10}{clean_errors[k]:>14}")
    print(f"cases tried: {total}; exceptions that were not TrainingCheckError: {len(bugs)}")
    for target, case, tb in bugs[:5]:
        print(f"--- {target}: {case[:200]!r}\n{tb}")
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
