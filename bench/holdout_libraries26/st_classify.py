"""simpletransformers: a tiny BERT (random init, built from a ``BertConfig`` and a word-piece vocab written here,
saved to a local folder that ``ClassificationModel("bert", folder)`` loads; no download) fine-tuned on synthetic
sentences with ``train_model``, logged as the library logs by default: its ``tqdm`` bars on stderr (``Epoch 1 of 3``
outer bar, ``Epochs 0/3. Running Loss:    0.6931`` inner bars, the running loss the last batch's, ``:9.4f``), its
``logging`` INFO lines, and with ``evaluate_during_training`` its ``training_progress_scores.csv`` (kept: a file the
library writes). Truth: that CSV's ``train_loss`` at its ``global_step`` when evaluating during training, else the
``loss`` scalars it writes to its TensorBoard folder every ``logging_steps`` (1 here: the step's own loss), at the
global step (1-based, across epochs)."""

from __future__ import annotations

import argparse
import csv
import glob
import logging
import random
from importlib.metadata import version
from pathlib import Path

from h26_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=3)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--lr", type=float, default=4e-5)
ap.add_argument("--optimizer", default="AdamW", choices=["AdamW", "Adafactor"])
ap.add_argument("--scheduler", default="linear_schedule_with_warmup")
ap.add_argument("--warmup-ratio", type=float, default=0.06, help="the linear warmup's share of the steps")
ap.add_argument("--eval-steps", type=int, default=0, help="evaluate_during_training every N steps (0: no eval)")
ap.add_argument("--labels", type=int, default=2)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
logging.basicConfig(level=logging.INFO)
transformers_logger = logging.getLogger("transformers")
transformers_logger.setLevel(logging.WARNING)

import pandas as pd  # noqa: E402
from simpletransformers.classification import ClassificationArgs, ClassificationModel  # noqa: E402
from transformers import BertConfig, BertForSequenceClassification, BertTokenizer  # noqa: E402

rng = random.Random(0)
topics = [["goal", "match", "team", "score", "coach"], ["stock", "market", "price", "bank", "trade"],
          ["rain", "storm", "cloud", "wind", "snow"], ["film", "actor", "scene", "movie", "drama"]][: a.labels]
filler = ["the", "a", "was", "is", "very", "today", "and", "of", "in", "big", "small", "new", "old", "on"]
words = sorted({w for t in topics for w in t} | set(filler))
model_dir = Path("tiny-bert")
model_dir.mkdir()
(model_dir / "vocab.txt").write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]) + "\n")
config = BertConfig(vocab_size=5 + len(words), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=64, max_position_embeddings=64, num_labels=a.labels)
BertForSequenceClassification(config).save_pretrained(model_dir)
BertTokenizer(str(model_dir / "vocab.txt")).save_pretrained(model_dir)


def sentences(n):
    rows = []
    for _ in range(n):
        lab = rng.randrange(a.labels)
        toks = [rng.choice(filler) for _ in range(rng.randint(4, 8))]
        for _ in range(rng.randint(1, 3)):
            toks.insert(rng.randrange(len(toks) + 1), rng.choice(topics[lab]))
        if rng.random() < 0.1:
            lab = rng.randrange(a.labels)
        rows.append([" ".join(toks), lab])
    return pd.DataFrame(rows, columns=["text", "labels"])


train_df, eval_df = sentences(a.n), sentences(a.n // 4)
args = ClassificationArgs(num_train_epochs=a.epochs, train_batch_size=a.batch, eval_batch_size=64,
                          learning_rate=a.lr, warmup_ratio=a.warmup_ratio,
                          optimizer=a.optimizer, scheduler=a.scheduler, max_seq_length=32,
                          overwrite_output_dir=True, output_dir="outputs/", best_model_dir="outputs/best_model",
                          cache_dir="cache_dir/", tensorboard_dir="runs/", logging_steps=1, save_steps=-1,
                          save_model_every_epoch=False, save_eval_checkpoints=False, save_optimizer_and_scheduler=False,
                          evaluate_during_training=bool(a.eval_steps),
                          evaluate_during_training_steps=a.eval_steps or 2000, evaluate_during_training_verbose=True,
                          use_multiprocessing=False, use_multiprocessing_for_evaluation=False, dataloader_num_workers=0,
                          manual_seed=0, reprocess_input_data=True, no_cache=True)
if a.optimizer == "Adafactor":
    args.adafactor_relative_step = False
    args.adafactor_scale_parameter = False
    args.adafactor_warmup_init = False
model = ClassificationModel("bert", str(model_dir), num_labels=a.labels, args=args, use_cuda=False)
steps_per_epoch = -(-len(train_df) // a.batch)
if a.eval_steps:
    global_step, results = model.train_model(train_df, eval_df=eval_df)
    csv_file = Path("outputs/training_progress_scores.csv")
    rows = list(csv.DictReader(csv_file.open()))
    rows = [r for i, r in enumerate(rows) if i == 0 or r["global_step"] != rows[i - 1]["global_step"]]
    keep(csv_file)
    loss = [(int(r["global_step"]), float(r["train_loss"])) for r in rows]
    evals: list[tuple[int, float]] | None = [(int(r["global_step"]), float(r["eval_loss"])) for r in rows]
    record = "its `training_progress_scores.csv` (`train_loss` at `global_step`)"
else:
    global_step, results = model.train_model(train_df)
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    logging.getLogger("tensorboard").setLevel(logging.WARNING)
    acc = EventAccumulator(glob.glob("runs/**/events.out.tfevents.*", recursive=True)[0])
    acc.Reload()
    loss = [(e.step, e.value) for e in acc.Scalars("loss")]
    evals = None
    record = "the `loss` scalars it writes to its TensorBoard folder (`logging_steps=1`: each step's loss)"
write_truth(framework=f"simpletransformers {version('simpletransformers')}", settings=vars(a),
            loss_name="Running Loss", step_unit="global step, 1-based, across epochs (not printed: the inner bar's"
            " batch count within the epoch)", tolerance=tol_decimals(4), record=record, train_loss=loss,
            eval_loss=evals, eval_name="eval_loss" if evals else None, steps_per_epoch=steps_per_epoch)
