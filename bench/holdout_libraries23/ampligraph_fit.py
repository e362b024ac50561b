"""AmpliGraph 2: a ``ScoringBasedEmbeddingModel`` (TransE, DistMult, ComplEx, HolE) fitted to synthetic
knowledge-graph triples as its quick start does (``compile(optimizer, loss=get_loss(...),
entity_relation_regularizer=...)``, ``fit(X, batch_size, epochs, verbose=True)``, optionally with
``validation_data`` and ``validation_freq``). Its fit prints Keras' progress (no terminal: one line an epoch, ``Epoch
3/20`` then ``4/4 [==============================] - 0s 12ms/step - loss: 1234.5678``). Truth: the ``History`` its
``fit`` returns (``history['loss']``, per epoch, 1-based as printed)."""

from __future__ import annotations

import argparse

import numpy as np
from h23_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--scoring", default="TransE", choices=["TransE", "DistMult", "ComplEx", "HolE"])
ap.add_argument("--loss", default="pairwise", choices=["pairwise", "nll", "absolute_margin", "self_adversarial",
                                                        "multiclass_nll"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adagrad"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--k", type=int, default=32)
ap.add_argument("--eta", type=int, default=2)
ap.add_argument("--epochs", type=int, default=15)
ap.add_argument("--batches", type=int, default=4, help="batch_size = triples / batches")
ap.add_argument("--val", action="store_true")
ap.add_argument("--entities", type=int, default=300)
ap.add_argument("--triples", type=int, default=3000)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import tensorflow as tf  # noqa: E402

tf.random.set_seed(0)
from ampligraph.latent_features import ScoringBasedEmbeddingModel  # noqa: E402
from ampligraph.latent_features.loss_functions import get as get_loss  # noqa: E402
from ampligraph.latent_features.regularizers import get as get_regularizer  # noqa: E402

rng = np.random.default_rng(0)
# entities in 6 communities; relation r links an entity to one of community (c + r) % 6
comm = rng.integers(0, 6, a.entities)
heads = rng.integers(0, a.entities, a.triples)
rels = rng.integers(0, 4, a.triples)
tails = np.array([rng.choice(np.flatnonzero(comm == (comm[h] + r) % 6)) for h, r in zip(heads, rels, strict=True)])
X = np.array([[f"e{h}", f"r{r}", f"e{t}"] for h, r, t in zip(heads, rels, tails, strict=True)], dtype=object)
X = np.array(sorted({tuple(t) for t in X}), dtype=object)
rng.shuffle(X)
n_val = len(X) // 10 if a.val else 0
X_train, X_val = X[n_val:], X[:n_val]
if a.val:  # validation triples whose entities and relations are all seen in training
    seen = set(X_train[:, 0]) | set(X_train[:, 2])
    X_val = X_val[[h in seen and t in seen for h, _, t in X_val]]

model = ScoringBasedEmbeddingModel(k=a.k, eta=a.eta, scoring_type=a.scoring, seed=0)
opt = {"adam": tf.keras.optimizers.Adam, "sgd": tf.keras.optimizers.SGD,
       "adagrad": tf.keras.optimizers.Adagrad}[a.optimizer](learning_rate=a.lr)
model.compile(optimizer=opt, loss=get_loss(a.loss), entity_relation_regularizer=get_regularizer("LP", {"p": 2,
              "lambda": 1e-5}))
kw = {"validation_data": X_val, "validation_freq": 5, "validation_batch_size": 100} if a.val else {}
history = model.fit(X_train, batch_size=int(np.ceil(len(X_train) / a.batches)), epochs=a.epochs, verbose=True, **kw)

write_truth(framework=f"ampligraph {version('ampligraph')}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch N/M`)", tolerance={"rel": 0.51e-4, "abs": 0.51e-4},
            record="the `History` its `fit` returns (`history.history['loss']`)",
            train_loss=[(i + 1, v) for i, v in enumerate(history.history["loss"])])
