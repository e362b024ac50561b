"""A progress-bar log written by a real tqdm: ``epochs`` epochs of ``steps`` steps, every step redrawn with a
``loss=`` postfix (tqdm's ``set_postfix``), one ``\\n`` per epoch (the bar closed with ``leave=True``). As a run prints
it with ``python train.py > train.log 2>&1``: the whole of an epoch is one line of ``\\r`` redraws.

    .venv/bin/python bench/bar_log.py /tmp/bars.log --epochs 300 --steps 1000     # ~25 MB, 300k points

``loss_at(step)`` is the value written at each global step (1-based), to score a read.
"""

from __future__ import annotations

import argparse
import io
import math


def loss_at(step: int) -> float:
    return round(2.0 * math.exp(-step / 60000) + 0.05 * math.sin(step / 7.0) + 0.3, 4)


def write_bar_log(path: str, epochs: int, steps: int, every: int = 1) -> int:
    """Write the log; its global steps are ``epoch * steps + n`` (n = 1 .. steps). ``every``: the postfix is set every
    ``every`` steps (a value logged less often than the bar redraws). Returns the bytes written."""
    from tqdm import tqdm

    with open(path, "w", encoding="utf-8") as out:
        for e in range(epochs):
            buf = io.StringIO()  # tqdm writes to a text stream; each epoch's bytes go out at once (fast)
            bar = tqdm(total=steps, desc=f"Epoch {e}", file=buf, mininterval=0, miniters=1, ascii=False,
                       dynamic_ncols=False, ncols=None, leave=True)
            for n in range(1, steps + 1):
                g = e * steps + n
                if (g - 1) % every == 0:
                    bar.set_postfix(loss=f"{loss_at(g):.4f}", refresh=False)
                bar.update(1)
            bar.close()
            out.write(buf.getvalue())
        return out.tell()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path")
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--every", type=int, default=1)
    a = ap.parse_args()
    print(f"{write_bar_log(a.path, a.epochs, a.steps, a.every) / 1e6:.1f} MB written to {a.path}")


if __name__ == "__main__":
    main()
