"""tensorpack: a tiny MLP (its own ``FullyConnected`` layers) as a ``ModelDesc`` trained with
``launch_train_with_config(TrainConfig(...), SimpleTrainer())`` on synthetic data (a ``DataFromList`` batched by
``BatchData``), as its examples do: ``logger.set_logger_dir``, the cost's moving average (``add_moving_summary``),
optional ``InferenceRunner`` with ``ScalarStats`` on held-out data, ``ModelSaver``, ``ScheduledHyperParamSetter`` or
``HyperParamSetterWithFunc`` on the learning rate. tensorpack's logger prints its own lines (``[1207 13:49:08
@base.py:282] Epoch 1 (global_step 16) finished``), its tqdm bar, and at each epoch end its ``ScalarPrinter``'s stat
lines (``[... @monitor.py:476] cross_entropy_loss: 1.0136``, ``{:.5g}``). Truth: its ``JSONWriter``'s ``stats.json``
in the logger folder (the cost at each ``epoch_num``, 1-based)."""

from __future__ import annotations

import argparse
import json
import os

from h84_truth import keep, seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--opt", default="adam", choices=["adam", "sgd", "momentum", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--steps-per-epoch", type=int, default=0, help="0: one pass over the data")
ap.add_argument("--hidden", type=int, default=32)
ap.add_argument("--wd", type=float, default=0.0, help="L2 on the weights: the cost becomes total_cost")
ap.add_argument("--schedule", default="none", choices=["none", "step", "growth"])
ap.add_argument("--gamma", type=float, default=2.0, help="growth: the rate's factor each epoch")
ap.add_argument("--val", action="store_true")
ap.add_argument("--saver", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tensorpack's layers use tf.layers (tf-keras under TF 2.21)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tensorpack  # noqa: E402
from tensorpack import (  # noqa: E402
    FullyConnected,
    HyperParamSetterWithFunc,
    InferenceRunner,
    ModelDesc,
    ModelSaver,
    ScalarStats,
    ScheduledHyperParamSetter,
    SimpleTrainer,
    TrainConfig,
    launch_train_with_config,
    logger,
)
from tensorpack.dataflow import BatchData, DataFromList  # noqa: E402
from tensorpack.tfutils.summary import add_moving_summary  # noqa: E402
from tensorpack.utils import fix_rng_seed  # noqa: E402

fix_rng_seed(0)  # tensorpack's own dataflow RNGs (else seeded from the pid and the clock)
tf.compat.v1.set_random_seed(0)
rng = np.random.default_rng(0)
n_val = a.n // 4
X = rng.normal(size=(a.n + n_val, 10)).astype("float32")
if a.task == "cls":
    W = rng.normal(size=(10, 3))
    y = (X @ W + 0.5 * rng.normal(size=(a.n + n_val, 3))).argmax(1).astype("int32")
    cost_name = "cross_entropy_loss"
else:
    w = rng.normal(size=(10,))
    y = (np.sin(X @ w) * 3 + X[:, 0] ** 2 + 0.1 * rng.normal(size=a.n + n_val)).astype("float32")
    cost_name = "mse_loss"
loss_name = "total_cost" if a.wd else cost_name


class Model(ModelDesc):
    def inputs(self):
        return [tf.TensorSpec((None, 10), tf.float32, "x"),
                tf.TensorSpec((None,), tf.int32 if a.task == "cls" else tf.float32, "y")]

    def build_graph(self, x, y):
        h = FullyConnected("fc0", x, a.hidden, activation=tf.nn.relu)
        h = FullyConnected("fc1", h, a.hidden, activation=tf.nn.relu)
        if a.task == "cls":
            logits = FullyConnected("fc_out", h, 3)
            cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=y),
                                  name=cost_name)
            wrong = tf.cast(tf.not_equal(tf.argmax(logits, 1, output_type=tf.int32), y), tf.float32, name="wrong")
            add_moving_summary(tf.reduce_mean(wrong, name="train_error"))
        else:
            pred = tf.squeeze(FullyConnected("fc_out", h, 1), 1)
            cost = tf.reduce_mean(tf.square(pred - y), name=cost_name)
        add_moving_summary(cost)
        if not a.wd:
            return cost
        wd_cost = tf.multiply(a.wd, tf.add_n([tf.nn.l2_loss(v) for v in tf.compat.v1.trainable_variables()
                                              if v.name.endswith("W:0")]), name="regularize_loss")
        total = tf.add_n([cost, wd_cost], name="total_cost")
        add_moving_summary(wd_cost, total)
        return total

    def optimizer(self):
        lr = tf.compat.v1.get_variable("learning_rate", initializer=a.lr, trainable=False)
        tf.compat.v1.summary.scalar("lr", lr)
        if a.opt == "adam":
            return tf.compat.v1.train.AdamOptimizer(lr)
        if a.opt == "sgd":
            return tf.compat.v1.train.GradientDescentOptimizer(lr)
        if a.opt == "momentum":
            return tf.compat.v1.train.MomentumOptimizer(lr, 0.9)
        return tf.compat.v1.train.RMSPropOptimizer(lr)


def flow(lo: int, hi: int, shuffle: bool) -> BatchData:
    return BatchData(DataFromList([[X[i], y[i]] for i in range(lo, hi)], shuffle=shuffle), a.batch,
                     remainder=not shuffle)


logger.set_logger_dir("train_log", action="d")
callbacks = [ModelSaver()] if a.saver else []
if a.val:
    callbacks.append(InferenceRunner(flow(a.n, a.n + n_val, False), [ScalarStats(cost_name)]))
if a.schedule == "step":
    callbacks.append(ScheduledHyperParamSetter("learning_rate", [(a.epochs // 2, a.lr * 0.1)]))
elif a.schedule == "growth":
    gamma = a.gamma
    callbacks.append(HyperParamSetterWithFunc("learning_rate", lambda e, x: x * gamma))
config = TrainConfig(model=Model(), dataflow=flow(0, a.n, True), callbacks=callbacks, max_epoch=a.epochs,
                     steps_per_epoch=a.steps_per_epoch or None)
launch_train_with_config(config, SimpleTrainer())

stats = json.loads(open("train_log/stats.json").read())
for own in ("train_log/stats.json", "train_log/log.log"):
    keep(own)
val_name = f"validation_{cost_name}"
write_truth(framework=f"tensorpack {tensorpack.__version__}", settings=vars(a), loss_name=loss_name,
            step_unit="epoch, 1-based (`Epoch 3 (global_step 48) finished`)", tolerance=tol_sig(5),
            record="its JSONWriter's `stats.json` in the logger folder (the cost's moving average at `epoch_num`)",
            train_loss=[(s["epoch_num"], s[loss_name]) for s in stats],
            eval_loss=[(s["epoch_num"], s[val_name]) for s in stats] if a.val else None,
            eval_name=val_name if a.val else None,
            steps_per_epoch=stats[0]["global_step"])
