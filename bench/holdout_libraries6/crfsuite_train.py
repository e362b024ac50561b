"""python-crfsuite: a linear-chain CRF tagger trained by ``pycrfsuite.Trainer(verbose=True)`` on small synthetic
tagged sentences (word, suffix and previous-word features as dicts), as its tutorial does. With ``verbose`` the
binding prints CRFsuite's own messages (stdout, block-buffered): the feature generation and the algorithm's
parameters, then one block per iteration ``***** Iteration #12 *****`` / ``Loss: 478.692026`` / ``Feature norm:
...`` / ``Seconds required for this iteration: 0.000`` (``***** Epoch #3 *****`` for ``l2sgd``, with ``Learning rate
(eta)``), and L-BFGS's and SGD's closing lines. Truth: the binding's own record of the training,
``Trainer.logparser.iterations`` (one dict per iteration: ``num``, ``loss``, ...), at ``num`` (1-based)."""

from __future__ import annotations

import argparse
import random

from h6_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--algorithm", default="lbfgs", choices=["lbfgs", "l2sgd", "ap", "pa", "arow"])
ap.add_argument("--iters", type=int, default=50)
ap.add_argument("--sentences", type=int, default=300)
ap.add_argument("--c1", type=float, default=None)
ap.add_argument("--c2", type=float, default=None)
ap.add_argument("--noise", type=float, default=0.1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import pycrfsuite  # noqa: E402

rnd = random.Random(0)
LEX = {"the": "DET", "a": "DET", "this": "DET", "cat": "NOUN", "dog": "NOUN", "bird": "NOUN", "tree": "NOUN",
       "runs": "VERB", "eats": "VERB", "sees": "VERB", "sleeps": "VERB", "big": "ADJ", "small": "ADJ", "red": "ADJ",
       "fast": "ADJ", "quickly": "ADV", "often": "ADV", "near": "ADP", "under": "ADP"}
WORDS = sorted(LEX)


def sentence():
    n = rnd.randint(4, 12)
    feats, tags, prev = [], [], "BOS"
    for _ in range(n):
        w = rnd.choice(WORDS)
        tag = LEX[w] if rnd.random() >= a.noise else rnd.choice(sorted(set(LEX.values())))
        feats.append({"bias": 1.0, f"w={w}": 1.0, f"suf={w[-2:]}": 1.0, f"prev={prev}": 1.0})
        tags.append(tag)
        prev = w
    return feats, tags


trainer = pycrfsuite.Trainer(verbose=True, algorithm=a.algorithm)
for _ in range(a.sentences):
    x, y = sentence()
    trainer.append(pycrfsuite.ItemSequence(x), y)
params = {"max_iterations": a.iters}
if a.c1 is not None:
    params["c1"] = a.c1
if a.c2 is not None:
    params["c2"] = a.c2
if a.algorithm in ("lbfgs", "l2sgd"):
    params["period"] = a.iters + 1  # no early stop by the loss' improvement over a period: run the iterations
trainer.set_params(params)
trainer.train("tagger.crfsuite")

its = trainer.logparser.iterations
write_truth(framework=f"python-crfsuite {version('python-crfsuite')}", settings=vars(a), loss_name="Loss",
            step_unit="iteration (epoch for l2sgd), 1-based (`***** Iteration #N *****`)",
            tolerance=tol_decimals(6), record="the binding's `Trainer.logparser.iterations` (`loss` at `num`)",
            train_loss=[(it["num"], it["loss"]) for it in its if "loss" in it])
