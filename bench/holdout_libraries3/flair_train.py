"""flair: ``ModelTrainer.train`` of a small ``TextClassifier`` (one-hot word embeddings + a GRU) on a synthetic
sentiment corpus. Its logger prints ``epoch 1 - iter 3/13 - loss 0.74620189 - time (sec): ... - lr: 0.100000``
(the epoch's running mean, about ten times an epoch), ``EPOCH 1 done: loss 0.7413 - lr: 0.100000`` and
``DEV : loss ...``; it writes ``loss.tsv`` and ``training.log`` in the base path. Truth: ``loss.tsv``'s
``TRAIN_LOSS`` per ``EPOCH``."""

from __future__ import annotations

import argparse
import csv
import random

import torch
from h3_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--opt", default="sgd")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=400)
ap.add_argument("--train-with-dev", action="store_true")
ap.add_argument("--no-anneal", action="store_true", help="patience=100: the rate is never annealed")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import flair  # noqa: E402
from flair.data import Corpus, Sentence  # noqa: E402
from flair.datasets import FlairDatapointDataset  # noqa: E402
from flair.embeddings import DocumentRNNEmbeddings, OneHotEmbeddings  # noqa: E402
from flair.models import TextClassifier  # noqa: E402
from flair.trainers import ModelTrainer  # noqa: E402

flair.set_seed(0)
flair.device = torch.device("cpu")
rng = random.Random(0)
pos = "good great fine excellent nice superb lovely".split()
neg = "bad awful poor terrible nasty weak dull".split()
fill = "the a movie film plot actor was is very quite really story".split()


def sentences(n: int) -> list:
    out = []
    for _ in range(n):
        lab = rng.random() < 0.5
        words = [rng.choice(fill) for _ in range(6)] + [rng.choice(pos if lab else neg)]
        if rng.random() < 0.15:
            words.append(rng.choice(neg if lab else pos))
        rng.shuffle(words)
        s = Sentence(" ".join(words))
        s.add_label("sentiment", "POS" if lab else "NEG")
        out.append(s)
    return out


corpus = Corpus(FlairDatapointDataset(sentences(a.n)), FlairDatapointDataset(sentences(80)),
                FlairDatapointDataset(sentences(80)))
labels = corpus.make_label_dictionary("sentiment")
doc = DocumentRNNEmbeddings([OneHotEmbeddings.from_corpus(corpus, embedding_length=16)], hidden_size=16)
clf = TextClassifier(doc, label_dictionary=labels, label_type="sentiment")
trainer = ModelTrainer(clf, corpus)
trainer.train("out", max_epochs=a.epochs, mini_batch_size=a.batch, learning_rate=a.lr,
              optimizer=torch.optim.Adam if a.opt == "adam" else torch.optim.SGD,
              train_with_dev=a.train_with_dev, patience=100 if a.no_anneal else 3,
              save_final_model=False)

with open("out/loss.tsv") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
keep("out/loss.tsv")
keep("out/training.log")
train = [(int(r["EPOCH"]), float(r["TRAIN_LOSS"])) for r in rows]
ev = [(int(r["EPOCH"]), float(r["DEV_LOSS"])) for r in rows if r.get("DEV_LOSS") not in (None, "", "_")]
write_truth(framework="flair", settings=vars(a), loss_name="loss (EPOCH N done)", step_unit="epoch, 1-based",
            tolerance=tol_decimals(4), record="out/loss.tsv TRAIN_LOSS per EPOCH (written by ModelTrainer)",
            train_loss=train, eval_loss=ev or None, eval_name="DEV_LOSS" if ev else None)
