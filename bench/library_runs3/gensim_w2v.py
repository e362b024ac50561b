"""gensim 4.x: Word2Vec or Doc2Vec on a synthetic corpus, ``logging`` at INFO (the gensim tutorials' setting:
``logging.basicConfig(format='%(asctime)s : %(levelname)s : %(message)s', level=logging.INFO)``).

gensim logs ``EPOCH 0 - PROGRESS: at 52.10% examples, 81234 words/s, in_qsize 1, out_qsize 0`` while an epoch
runs, ``EPOCH 0: training on 250000 raw words (...) took 0.6s, ... effective words/s`` at its end, and with
``compute_loss=True`` a callback (the tutorials') prints ``Loss after epoch N: X``: the latest training loss minus
the one before (``get_latest_training_loss`` is cumulative). Truth: those per-epoch losses as the callback
computed them (0-based epochs as the callback counts).
"""

from __future__ import annotations

import argparse
import logging

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="w2v", choices=["w2v", "d2v"])
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--alpha", type=float, default=0.025)
ap.add_argument("--min-alpha", type=float, default=None, help="the rate at the end (default alpha/100)")
ap.add_argument("--sg", type=int, default=0)
ap.add_argument("--hs", type=int, default=0)
ap.add_argument("--fmt", default="callback", choices=["callback", "logging"])
ap.add_argument("--words", type=int, default=300000)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
from gensim.models import Word2Vec  # noqa: E402
from gensim.models.callbacks import CallbackAny2Vec  # noqa: E402
from gensim.models.doc2vec import Doc2Vec, TaggedDocument  # noqa: E402

logging.basicConfig(format="%(asctime)s : %(levelname)s : %(message)s", level=logging.INFO)
log = logging.getLogger("train")

# a synthetic corpus with structure: 40 topics, each a Zipf distribution over its own 60 words plus shared ones
rng = np.random.default_rng(0)
vocab = [f"w{i}" for i in range(2000)]
topics = [rng.choice(2000, size=60, replace=False) for _ in range(40)]
zipf = 1.0 / np.arange(1, 61)
zipf /= zipf.sum()
sents = []
n = 0
while n < a.words:
    t = topics[rng.integers(40)]
    ln = int(rng.integers(8, 20))
    sents.append([vocab[i] for i in rng.choice(t, size=ln, p=zipf)])
    n += ln

losses: list[list[float]] = []


class LossLogger(CallbackAny2Vec):
    """The gensim tutorials' callback: the loss of each epoch from the cumulative running loss."""

    def __init__(self):
        self.epoch = 0
        self.prev = 0.0

    def on_epoch_end(self, model):
        cum = model.get_latest_training_loss()
        loss = cum - self.prev if self.epoch else cum
        self.prev = cum
        losses.append([self.epoch, loss])
        if a.fmt == "callback":
            print(f"Loss after epoch {self.epoch}: {loss}")
        else:
            log.info("epoch %d loss %.4f", self.epoch, loss)
        self.epoch += 1


if a.model == "w2v":
    m = Word2Vec(vector_size=32, window=5, min_count=1, workers=1, sg=a.sg, seed=0, alpha=a.alpha,
                 min_alpha=a.min_alpha if a.min_alpha is not None else a.alpha / 100, hs=a.hs,
                 negative=0 if a.hs else 5, compute_loss=True)
    m.build_vocab(sents)
    m.train(sents, total_examples=len(sents), epochs=a.epochs, compute_loss=True, callbacks=[LossLogger()])
else:
    docs = [TaggedDocument(s, [i]) for i, s in enumerate(sents)]
    m = Doc2Vec(vector_size=32, window=5, min_count=1, workers=1, seed=0, alpha=a.alpha, min_alpha=a.alpha / 100,
                dm=1, compute_loss=True)
    m.build_vocab(docs)
    m.train(docs, total_examples=len(docs), epochs=a.epochs, compute_loss=True, callbacks=[LossLogger()])

write_truth(framework=f"gensim {'Word2Vec' if a.model == 'w2v' else 'Doc2Vec'}", settings=vars(a), label=a.label,
            should_stop=a.should_stop, loss_name="loss",
            step_unit="epoch, 0-based (the callback's count; gensim's own EPOCH N lines count from 0 too)",
            tolerance={"rel": 1e-6, "sig": 6, "abs": 1e-3},
            record="get_latest_training_loss() differenced per epoch by the tutorials' callback", train_loss=losses)
