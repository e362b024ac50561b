"""TensorFlow Recommenders: a ``tfrs.models.Model`` as its basic ranking and retrieval tutorials write it (user and
item embeddings, a ``tfrs.tasks.Ranking`` task with ``MeanSquaredError`` and a ``RootMeanSquaredError`` metric, or a
two-tower ``tfrs.tasks.Retrieval`` task), compiled with a Keras optimizer and trained with ``model.fit(cached_train,
epochs=N)`` (Keras' progress output, ``verbose`` 1 by default or 2), optionally with ``validation_data``. TFRS needs
Keras 2: ``TF_USE_LEGACY_KERAS=1`` (as its import error says) and tf-keras. Synthetic ratings of users and items (no
download). The should-stop runs: a learning rate far too high, or an ``ExponentialDecay`` schedule whose
``decay_rate`` > 1 multiplies it. Truth: the ``History`` that ``fit`` returns (``loss`` per epoch, epochs 1-based
as Keras prints ``Epoch N/M``)."""

from __future__ import annotations

import argparse
import os

from h15_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="ranking", choices=["ranking", "retrieval"])
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--n", type=int, default=4000)
ap.add_argument("--dim", type=int, default=16)
ap.add_argument("--optimizer", default="adagrad", choices=["adagrad", "adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--growth", type=float, default=0.0, help="ExponentialDecay decay_rate (> 1 grows), every 10 steps")
ap.add_argument("--verbose", default="auto")
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

os.environ["TF_USE_LEGACY_KERAS"] = "1"
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tensorflow_recommenders as tfrs  # noqa: E402

tf.random.set_seed(0)
rng = np.random.default_rng(0)
n_users, n_items = 300, 150
U, V = rng.normal(size=(n_users, 4)), rng.normal(size=(n_items, 4))
users = rng.integers(0, n_users, size=a.n + a.n // 5)
items = rng.integers(0, n_items, size=len(users))
rating = np.clip(np.round(3 + (U[users] * V[items]).sum(1) * 0.7 + rng.normal(0, 0.3, len(users))), 1, 5)
data = {"user_id": users.astype("int64"), "movie_id": items.astype("int64"), "user_rating": rating.astype("float32")}
ds = tf.data.Dataset.from_tensor_slices(data)
train = ds.take(a.n).shuffle(a.n, seed=0, reshuffle_each_iteration=False)
test = ds.skip(a.n)
cached_train = train.batch(a.batch).cache()
cached_test = test.batch(a.batch).cache()


def embedding(n):
    return tf.keras.Sequential([tf.keras.layers.IntegerLookup(vocabulary=np.arange(n), mask_token=None),
                                tf.keras.layers.Embedding(n + 1, a.dim)])


class RankingModel(tfrs.models.Model):
    def __init__(self):
        super().__init__()
        self.user_embeddings, self.movie_embeddings = embedding(n_users), embedding(n_items)
        self.ratings = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"),
                                            tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
        self.task = tfrs.tasks.Ranking(loss=tf.keras.losses.MeanSquaredError(),
                                       metrics=[tf.keras.metrics.RootMeanSquaredError()])

    def compute_loss(self, features, training=False):
        emb = tf.concat([self.user_embeddings(features["user_id"]), self.movie_embeddings(features["movie_id"])], 1)
        return self.task(labels=features["user_rating"], predictions=self.ratings(emb))


class RetrievalModel(tfrs.models.Model):
    def __init__(self):
        super().__init__()
        self.user_model, self.movie_model = embedding(n_users), embedding(n_items)
        self.task = tfrs.tasks.Retrieval()

    def compute_loss(self, features, training=False):
        return self.task(self.user_model(features["user_id"]), self.movie_model(features["movie_id"]))


model = RankingModel() if a.task == "ranking" else RetrievalModel()
lr = a.lr
if a.growth:
    lr = tf.keras.optimizers.schedules.ExponentialDecay(a.lr, decay_steps=10, decay_rate=a.growth)
opt = {"adagrad": tf.keras.optimizers.Adagrad, "adam": tf.keras.optimizers.Adam, "sgd": tf.keras.optimizers.SGD,
       "rmsprop": tf.keras.optimizers.RMSprop}[a.optimizer](learning_rate=lr)
model.compile(optimizer=opt)
verbose = a.verbose if a.verbose == "auto" else int(a.verbose)
history = model.fit(cached_train, epochs=a.epochs, verbose=verbose,
                    validation_data=cached_test if a.val else None)

h = history.history
write_truth(framework=f"tensorflow-recommenders {tfrs.__version__.lstrip('v')}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (Keras' `Epoch N/M`)", tolerance=tol_sig(4),
            record="the History `fit` returns (`loss`)",
            train_loss=[(i + 1, v) for i, v in enumerate(h["loss"])],
            eval_loss=[(i + 1, v) for i, v in enumerate(h["val_loss"])] if a.val else None,
            eval_name="val_loss" if a.val else None, tensorflow=tf.__version__,
            steps_per_epoch=int(-(-a.n // a.batch)))
