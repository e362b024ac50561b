"""sockeye: a tiny Transformer (1 encoder and 1 decoder layer, model size 32) trained by ``sockeye.train`` (its
``sockeye-train`` command line, called in-process with the same arguments) on synthetic parallel text (target = the
source words reversed, a 30-word vocabulary), on CPU. Its logging on stderr: ``[INFO:sockeye.training] E=1 B=50
s/sec=... ppl=50.292751`` (a running perplexity, every 50 batches) and at
each checkpoint (every ``--checkpoint-interval`` updates) ``Checkpoint [2]\\tTrain-ppl=57.502409`` /
``Validation-ppl=...``; it writes ``log`` (the same messages) and ``metrics`` (one tab-separated line a checkpoint)
into its output folder. Truth: that ``metrics`` file (``perplexity-train`` and ``perplexity-val``), at the checkpoint
number, 1-based."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from h41_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--optimizer", default="adam")
ap.add_argument("--lr", type=float, default=2e-4)
ap.add_argument("--updates", type=int, default=120)
ap.add_argument("--checkpoint", type=int, default=20)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--size", type=int, default=32)
ap.add_argument("--sentences", type=int, default=800)
ap.add_argument("--extra", default="", help="more sockeye-train options, comma-separated")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

random.seed(0)
vocab = [f"w{i}" for i in range(30)]


def pair():
    s = [random.choice(vocab) for _ in range(random.randint(3, 8))]
    return " ".join(s), " ".join(reversed(s))


for name, n in (("train", a.sentences), ("dev", 100)):
    ps = [pair() for _ in range(n)]
    Path(f"{name}.src").write_text("\n".join(p[0] for p in ps) + "\n")
    Path(f"{name}.trg").write_text("\n".join(p[1] for p in ps) + "\n")

import sockeye  # noqa: E402
from sockeye import train  # noqa: E402

args = ["--source", "train.src", "--target", "train.trg", "--validation-source", "dev.src", "--validation-target",
        "dev.trg", "-o", "model", "--use-cpu", "--num-layers", "1:1", "--transformer-model-size", str(a.size),
        "--transformer-attention-heads", "2", "--transformer-feed-forward-num-hidden", str(2 * a.size),
        "--num-embed", f"{a.size}:{a.size}", "--batch-size", str(a.batch), "--batch-type", "sentence",
        "--max-updates", str(a.updates), "--checkpoint-interval", str(a.checkpoint), "--decode-and-evaluate", "0",
        "--optimizer", a.optimizer, "--initial-learning-rate", str(a.lr), "--seed", "1"]
args += [x for x in a.extra.split(",") if x]
sys.argv = ["sockeye-train", *args]
try:
    train.main()
finally:
    rows = []
    mf = Path("model/metrics")
    for line in (mf.read_text().splitlines() if mf.is_file() else []):
        cells = line.split("\t")
        d = dict(c.split("=", 1) for c in cells[1:])
        rows.append((int(cells[0]), d))
    common = dict(framework=f"sockeye {sockeye.__version__}", settings=vars(a), loss_name="Train-ppl (perplexity)",
                  step_unit="checkpoint, 1-based (`Checkpoint [N]`, every checkpoint_interval updates)",
                  tolerance=tol_decimals(6), record="its `metrics` file (`perplexity-train`, `perplexity-val`)",
                  train_loss=[(c, float(d["perplexity-train"])) for c, d in rows],
                  eval_loss=[(c, float(d["perplexity-val"])) for c, d in rows if "perplexity-val" in d],
                  eval_name="Validation-ppl", checkpoint_interval=a.checkpoint)
    write_truth(**common)
    if mf.is_file():
        keep(mf)
    if Path("model/log").is_file():
        keep("model/log")
        write_truth(name="truth_store.json", file="log", **common)
