"""joeynmt: a tiny Transformer (1 layer, width 32) trained as its users train one, ``python -m joeynmt train
config.yaml --skip-test`` (here its ``joeynmt.__main__.main`` with that command line), on synthetic parallel text
written as plain files (``data/train.src`` / ``.trg``: sequences of 16 made-up words and their reversal, or a
mapping). Its logger writes on stderr and into ``model/train.log``: ``2026-12-06 19:50:01,123 - INFO -
joeynmt.training - Epoch   1, Step:       10, Batch Loss:    25.401234, Batch Acc: 0.061, Tokens per Sec: ..., Lr:
0.001000`` every ``logging_freq`` updates (``%12.6f``), the validations' ``Evaluation result (greedy) ...`` lines,
examples and the epochs' ``Epoch   1, total training loss: ...``. Truth: the ``train/batch_loss`` scalars it writes
to its TensorBoard folder (``model/tensorboard``, read back with TensorBoard's ``EventAccumulator``), at its global
update ``steps`` (1-based, across epochs)."""

from __future__ import annotations

import argparse
import logging
import random
import sys
from pathlib import Path

from h50_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=5)
ap.add_argument("--n", type=int, default=400)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="adam", choices=["adam", "adamw", "sgd"])
ap.add_argument("--scheduling", default="warmupinversesquareroot",
                choices=["decaying", "exponential", "noam", "warmupinversesquareroot"])
ap.add_argument("--gamma", type=float, default=0.9, help="the `exponential` scheduling's decrease_factor (per epoch)")
ap.add_argument("--log-freq", type=int, default=10)
ap.add_argument("--val-freq", type=int, default=1000)
ap.add_argument("--task", default="reverse", choices=["reverse", "map"])
ap.add_argument("--clip", type=float, default=0.0)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

rng = random.Random(0)
words = [f"w{i}" for i in range(16)]
mapping = {w: f"t{(i * 7) % 16}" for i, w in enumerate(words)}
data = Path("data")
data.mkdir()


def write(split: str, n: int) -> None:
    src, trg = [], []
    for _ in range(n):
        s = [rng.choice(words) for _ in range(rng.randint(3, 8))]
        t = s[::-1] if a.task == "reverse" else [mapping[w] for w in s]
        src.append(" ".join(s))
        trg.append(" ".join(t))
    (data / f"{split}.src").write_text("\n".join(src) + "\n")
    (data / f"{split}.trg").write_text("\n".join(trg) + "\n")


write("train", a.n)
write("dev", 40)

sched = f"    scheduling: \"{a.scheduling}\"\n"
if a.scheduling == "decaying":
    sched += "    decaying_step_size: 1000\n"
elif a.scheduling == "exponential":
    sched += f"    decrease_factor: {a.gamma}\n"
if a.scheduling == "noam":
    sched += "    learning_rate_factor: 1.0\n    learning_rate_warmup: 50\n"
elif a.scheduling == "warmupinversesquareroot":
    sched += "    learning_rate_warmup: 20\n"
clip = f"    clip_grad_norm: {a.clip}\n" if a.clip else ""
lang = """        level: "word"
        lowercase: False
        max_length: 20
        voc_min_freq: 1
        voc_limit: 100
"""
emb = "embeddings:\n            embedding_dim: 32\n            scale: True"
Path("config.yaml").write_text(f"""name: "toy_{a.task}"
joeynmt_version: "2.3.0"
model_dir: "model"
use_cuda: False
fp16: False
random_seed: 42

data:
    train: "data/train"
    dev: "data/dev"
    dataset_type: "plain"
    src:
        lang: "src"
{lang}    trg:
        lang: "trg"
{lang}
training:
    optimizer: "{a.optimizer}"
    learning_rate: {a.lr}
    learning_rate_min: 1.0e-8
    weight_decay: 0.0
    loss: "crossentropy"
    label_smoothing: 0.0
    batch_size: {a.batch}
    batch_type: "sentence"
    eval_batch_size: 20
    eval_batch_type: "sentence"
    epochs: {a.epochs}
    logging_freq: {a.log_freq}
    validation_freq: {a.val_freq}
    eval_metrics: ["bleu"]
    early_stopping_metric: "loss"
    keep_best_ckpts: 1
    overwrite: True
    shuffle: True
    print_valid_sents: [0]
{sched}{clip}
testing:
    beam_size: 1
    eval_metrics: ["bleu"]

model:
    initializer: "xavier_uniform"
    embed_initializer: "xavier_uniform"
    tied_embeddings: False
    encoder:
        type: "transformer"
        num_layers: 1
        num_heads: 2
        {emb}
        hidden_size: 32
        ff_size: 64
        dropout: 0.1
    decoder:
        type: "transformer"
        num_layers: 1
        num_heads: 2
        {emb}
        hidden_size: 32
        ff_size: 64
        dropout: 0.1
""")

import joeynmt  # noqa: E402
from joeynmt.__main__ import main  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402


def record() -> None:
    logging.getLogger("tensorboard").setLevel(logging.WARNING)  # its reader's INFO lines would reach joeynmt's log
    ea = EventAccumulator("model/tensorboard", size_guidance={"scalars": 0})
    ea.Reload()
    train = [(e.step, e.value) for e in ea.Scalars("train/batch_loss")]
    evals = [(e.step, e.value) for e in ea.Scalars("valid/loss")] if "valid/loss" in ea.Tags()["scalars"] else None
    for f in ("validations.txt",):
        if Path("model", f).is_file():
            keep(Path("model", f))
    write_truth(framework=f"joeynmt {joeynmt.__version__}", settings=vars(a), loss_name="Batch Loss",
                step_unit="update step, 1-based, across epochs (`Step:`)", tolerance=tol_decimals(6),
                record="the `train/batch_loss` scalars joeynmt writes to its TensorBoard folder (model/tensorboard)",
                train_loss=train, eval_loss=evals, eval_name="valid/loss" if evals else None)


sys.argv = ["joeynmt", "train", "config.yaml", "--skip-test"]
try:
    main()
finally:  # a run that ends in an error (joeynmt's validation on an overflowing loss) keeps its record
    record()
