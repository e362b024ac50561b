"""nltk: a maximum-entropy classifier trained by ``nltk.MaxentClassifier.train(..., trace=3)`` (GIS or IIS) on small
synthetic featuresets (word-presence dicts of three topics, some words shared, some labels noisy), as nltk's book
does. With ``trace=3`` nltk prints its table on stdout (block-buffered): ``  ==> Training (30 iterations)``, a
header ``      Iteration    Log Likelihood    Accuracy``, then one row per iteration ``             1
-1.09861        0.333`` (``%14.5f``, the mean log likelihood of the training set, higher is better) and a last
row ``         Final      -0.41234        0.870``. Truth: the library's own ``nltk.classify.util.log_likelihood`` of
the classifier at each printed row, recorded as the trainer calls it (a wrapper that keeps what it returns), at the
row's iteration (1-based; ``Final`` is the weights after the last update, the iteration the cutoff stopped at)."""

from __future__ import annotations

import argparse
import random

from h29_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algorithm", default="gis", choices=["gis", "iis"])
ap.add_argument("--iters", type=int, default=30)
ap.add_argument("--docs", type=int, default=240)
ap.add_argument("--noise", type=float, default=0.1)
ap.add_argument("--topics", type=int, default=3)
ap.add_argument("--words", type=int, default=6)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import nltk  # noqa: E402
import nltk.classify.maxent as maxent  # noqa: E402

rnd = random.Random(0)
TOPICS = ["sport", "politics", "science", "music", "food"][: a.topics]
VOCAB = {t: [f"{t[:3]}{i}" for i in range(8)] for t in TOPICS}
SHARED = ["the", "new", "today", "great", "time", "people"]


def doc():
    t = rnd.choice(TOPICS)
    words = rnd.sample(VOCAB[t], 3) + rnd.sample(SHARED, 2)
    other = rnd.choice(TOPICS)
    words += rnd.sample(VOCAB[other], 1)
    words = words[: a.words]
    y = t if rnd.random() >= a.noise else rnd.choice(TOPICS)
    return {f"contains({w})": True for w in words}, y


train = [doc() for _ in range(a.docs)]

seen: list[float] = []
_ll = maxent.log_likelihood


def log_likelihood(classifier, gold):
    v = _ll(classifier, gold)
    seen.append(v)
    return v


maxent.log_likelihood = log_likelihood  # the trainer's own call, the value it prints
clf = nltk.MaxentClassifier.train(train, algorithm=a.algorithm, trace=3, max_iter=a.iters)
clf.show_most_informative_features(5)

write_truth(framework=f"nltk {version('nltk')}", settings=vars(a), loss_name="Log Likelihood",
            step_unit="iteration, 1-based (the `Iteration` column; `Final` at the iteration the cutoff stopped at)",
            tolerance=tol_decimals(5), record="nltk.classify.util.log_likelihood as the trainer calls it for a row",
            train_loss=list(enumerate(seen, start=1)), higher_is_better=["Log Likelihood"])
