"""Spektral: graph classification as its ``examples/graph_prediction/custom_dataset.py`` writes it: a custom
``spektral.data.Dataset`` of random graphs whose label is their most frequent node colour (generated in ``read``, no
download), a ``DisjointLoader``, a small GNN (``GCSConv`` or ``GINConv`` or ``GeneralGNN``-like ``GCNConv`` layers then
``GlobalAvgPool`` / ``GlobalSumPool`` and ``Dense``), compiled with a Keras optimizer and
``CategoricalCrossentropy`` and trained with ``model.fit(loader.load(), steps_per_epoch=loader.steps_per_epoch,
epochs=N)`` (Keras' output, ``verbose`` 2 or the default), optionally with ``validation_data`` from a second loader.
Spektral is written on ``tf.keras``: with TensorFlow 2.21 it runs on tf-keras (``TF_USE_LEGACY_KERAS=1``). The
should-stop runs: a learning rate far too high, or an ``ExponentialDecay`` schedule whose ``decay_rate`` > 1.
Truth: the ``History`` that ``fit`` returns (``loss`` per epoch, 1-based as Keras prints ``Epoch N/M``)."""

from __future__ import annotations

import argparse
import os

from h15_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--conv", default="gcs", choices=["gcs", "gin", "gcn"])
ap.add_argument("--pool", default="avg", choices=["avg", "sum"])
ap.add_argument("--graphs", type=int, default=400)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--growth", type=float, default=0.0, help="ExponentialDecay decay_rate (> 1 grows), every 10 steps")
ap.add_argument("--verbose", default="2")
ap.add_argument("--val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

os.environ["TF_USE_LEGACY_KERAS"] = "1"
import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import spektral  # noqa: E402
import tensorflow as tf  # noqa: E402
from spektral.data import Dataset, DisjointLoader, Graph  # noqa: E402
from spektral.layers import GCNConv, GCSConv, GINConv, GlobalAvgPool, GlobalSumPool  # noqa: E402
from spektral.transforms import GCNFilter  # noqa: E402
from tensorflow.keras.layers import Dense  # noqa: E402
from tensorflow.keras.models import Model  # noqa: E402

tf.random.set_seed(0)


class MyDataset(Dataset):
    """A dataset of random colored graphs: the label of each graph is the most frequent color in the graph."""

    def __init__(self, n_samples, n_colors=3, n_min=10, n_max=40, p=0.1, **kwargs):
        self.n_samples, self.n_colors, self.n_min, self.n_max, self.p = n_samples, n_colors, n_min, n_max, p
        super().__init__(**kwargs)

    def download(self):
        pass

    def read(self):
        def make_graph():
            n = np.random.randint(self.n_min, self.n_max)
            colors = np.random.randint(0, self.n_colors, size=n)
            x = np.zeros((n, self.n_colors))
            x[np.arange(n), colors] = 1
            adj = np.random.rand(n, n) <= self.p
            adj = sp.csr_matrix(np.maximum(adj, adj.T).astype(int))
            y = np.zeros((self.n_colors,))
            y[np.argmax(x.sum(0))] = 1
            return Graph(x=x, a=adj, y=y)

        return [make_graph() for _ in range(self.n_samples)]


data = MyDataset(a.graphs + (a.graphs // 4 if a.val else 0), transforms=GCNFilter() if a.conv == "gcn" else None)
n_tr = a.graphs
loader_tr = DisjointLoader(data[:n_tr], batch_size=a.batch, epochs=a.epochs, shuffle=True)


class Net(Model):
    def __init__(self):
        super().__init__()
        conv = {"gcs": GCSConv, "gin": GINConv, "gcn": GCNConv}[a.conv]
        self.conv1, self.conv2 = conv(32, activation="relu"), conv(32, activation="relu")
        self.global_pool = GlobalAvgPool() if a.pool == "avg" else GlobalSumPool()
        self.dense = Dense(data.n_labels, activation="softmax")

    def call(self, inputs):
        x, adj, i = inputs
        x = self.conv1([x, adj])
        x = self.conv2([x, adj])
        return self.dense(self.global_pool([x, i]))


model = Net()
lr = a.lr
if a.growth:
    lr = tf.keras.optimizers.schedules.ExponentialDecay(a.lr, decay_steps=10, decay_rate=a.growth)
opt = {"adam": tf.keras.optimizers.Adam, "sgd": tf.keras.optimizers.SGD,
       "rmsprop": tf.keras.optimizers.RMSprop}[a.optimizer](learning_rate=lr)
model.compile(optimizer=opt, loss="categorical_crossentropy", metrics=["accuracy"])
kw = {}
if a.val:
    loader_va = DisjointLoader(data[n_tr:], batch_size=a.batch)
    kw = {"validation_data": loader_va.load(), "validation_steps": loader_va.steps_per_epoch}
verbose = a.verbose if a.verbose == "auto" else int(a.verbose)
history = model.fit(loader_tr.load(), steps_per_epoch=loader_tr.steps_per_epoch, epochs=a.epochs, verbose=verbose,
                    **kw)

h = history.history
write_truth(framework=f"spektral {spektral.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (Keras' `Epoch N/M`)", tolerance=tol_sig(4),
            record="the History `fit` returns (`loss`)",
            train_loss=[(i + 1, v) for i, v in enumerate(h["loss"])],
            eval_loss=[(i + 1, v) for i, v in enumerate(h["val_loss"])] if a.val else None,
            eval_name="val_loss" if a.val else None, tensorflow=tf.__version__,
            steps_per_epoch=loader_tr.steps_per_epoch)
