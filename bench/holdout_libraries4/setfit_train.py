"""SetFit: ``Trainer.train`` of a ``SetFitModel`` (a tiny sentence-transformers body made here, no download) on a
synthetic sentiment set, with its default console: transformers' log dicts, printed with string values
(``{'embedding_loss': '0.4376', 'grad_norm': '0.8483', 'learning_rate': '2e-05', 'epoch': '0.125'}``) every
``logging_steps`` between tqdm redraws, ``{'eval_embedding_loss': ...}`` with evaluation, a final
``{'train_runtime': ..., 'train_loss': ...}``. Made in a venv of its own (``holdout4-setfit``: its transformers 5
conflicts with PyPOTS'). Truth: the ``logs`` dicts a ``TrainerCallback.on_log`` receives (``embedding_loss``), at
``state.global_step`` (optimizer steps, 1-based)."""

from __future__ import annotations

import argparse
import os
import random

import numpy as np
from h4_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=1)
ap.add_argument("--iterations", type=int, default=10, help="num_iterations (pairs per sentence)")
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--lr", type=float, default=2e-5, help="body_learning_rate")
ap.add_argument("--logging-steps", type=int, default=5)
ap.add_argument("--eval-steps", type=int, default=0, help="evaluate every N steps (0: no evaluation)")
ap.add_argument("--loss", default="cosine", choices=["cosine", "contrastive"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import setfit  # noqa: E402
import torch  # noqa: E402
from datasets import Dataset  # noqa: E402
from sentence_transformers import SentenceTransformer, losses, models  # noqa: E402
from setfit import SetFitModel, Trainer, TrainingArguments  # noqa: E402
from transformers import BertConfig, BertModel, BertTokenizerFast, TrainerCallback  # noqa: E402

torch.set_num_threads(1)
pos = ["good", "great", "fine", "nice", "lovely", "superb"]
neg = ["bad", "awful", "poor", "terrible", "boring", "weak"]
nouns = ["movie", "film", "plot", "story", "cast", "ending"]
fill = ["the", "was", "is", "a", "very", "quite", "really", "and", "but"]
os.makedirs("tiny", exist_ok=True)
with open("tiny/vocab.txt", "w") as f:
    f.write("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *pos, *neg, *nouns, *fill]) + "\n")
BertTokenizerFast("tiny/vocab.txt").save_pretrained("tiny")
cfg = BertConfig(vocab_size=5 + len(pos + neg + nouns + fill), hidden_size=32, num_hidden_layers=2,
                 num_attention_heads=2, intermediate_size=64, max_position_embeddings=32)
BertModel(cfg).save_pretrained("tiny")
SentenceTransformer(modules=[models.Transformer("tiny"), models.Pooling(32)]).save("body")

rng = random.Random(0)


def make(n: int) -> Dataset:
    texts, labels = [], []
    for _ in range(n):
        w = rng.choice(pos + neg)
        noun, verb, adverb = rng.choice(nouns), rng.choice(["was", "is"]), rng.choice(["very", "quite", "really"])
        texts.append(f"the {noun} {verb} {adverb} {w}")
        labels.append(int(w in pos))
    return Dataset.from_dict({"text": texts, "label": labels})


train, ev = make(48), make(24)
records: list[tuple[int, float]] = []
eval_records: list[tuple[int, float]] = []


class Record(TrainerCallback):
    def on_log(self, args, state, control, logs=None, **kwargs):
        if logs and "embedding_loss" in logs:
            records.append((state.global_step, float(logs["embedding_loss"])))
        if logs and "eval_embedding_loss" in logs:
            eval_records.append((state.global_step, float(logs["eval_embedding_loss"])))


model = SetFitModel.from_pretrained("body")
kw = {"eval_strategy": "steps", "eval_steps": a.eval_steps} if a.eval_steps else {"eval_strategy": "no"}
args = TrainingArguments(batch_size=a.batch, num_epochs=a.epochs, num_iterations=a.iterations,
                         body_learning_rate=a.lr, logging_steps=a.logging_steps, report_to="none", seed=0,
                         loss=losses.CosineSimilarityLoss if a.loss == "cosine" else losses.ContrastiveLoss, **kw)
trainer = Trainer(model=model, args=args, train_dataset=train, eval_dataset=ev if a.eval_steps else None,
                  callbacks=[Record()])
trainer.train()
np.random.seed(0)
write_truth(framework=f"setfit {setfit.__version__}", settings=vars(a), loss_name="embedding_loss",
            step_unit="optimizer step, 1-based (every logging_steps; the bar's count)", tolerance=tol_sig(4),
            record="the logs dicts TrainerCallback.on_log receives, at state.global_step", train_loss=records,
            eval_loss=eval_records or None, eval_name="eval_embedding_loss" if eval_records else None)
