"""dm-sonnet: a small ``snt.Sequential`` (convolutional or MLP) trained on synthetic 8x8 images with one of Sonnet's
own optimizers (``snt.optimizers.SGD``, ``Momentum``, ``Adam``, ``RMSProp``), the training loop written as Sonnet's
MNIST example writes it: ``train_step`` under ``tf.GradientTape``, ``optimizer.apply(grads, params)``, a
``train_epoch`` that returns its last batch's loss, and one ``print`` an epoch:
``[Epoch 3] train loss: 0.41234, test acc: 87.50% (25 wrong)`` (``--no-test``: ``[Epoch 3] train loss: 0.41234``);
``--every K`` prints every K-th epoch only. Truth: the list the loop keeps of what ``train_epoch`` returned (the
last batch's loss of each epoch), at the epoch, 0-based as ``[Epoch N]`` counts it, only the printed epochs."""

from __future__ import annotations

import argparse

import numpy as np
from h13_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="conv", choices=["conv", "mlp"])
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "momentum", "adam", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.1)
ap.add_argument("--lr-growth", type=float, default=1.0, help="multiply the learning rate by this after each epoch")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--every", type=int, default=1)
ap.add_argument("--no-test", action="store_true")
ap.add_argument("--tf-function", action="store_true", help="wrap train_step in tf.function")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import sonnet as snt  # noqa: E402
import tensorflow as tf  # noqa: E402

tf.random.set_seed(0)
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)

rng = np.random.default_rng(0)
n_cls = 6
protos = rng.normal(size=(n_cls, 8, 8, 1)).astype(np.float32)


def make(n: int):
    y = rng.integers(0, n_cls, size=n)
    x = (protos[y] + rng.normal(scale=3.0, size=(n, 8, 8, 1))).astype(np.float32)
    if a.task == "reg":
        t = (x.reshape(n, -1)[:, :6].sum(1, keepdims=True) * 0.5 + y[:, None]).astype(np.float32)
        return x, t
    return x, y.astype(np.int64)


x_train, y_train = make(a.n)
x_test, y_test = make(128)
train_data = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(a.n, seed=0).batch(a.batch)
test_data = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(64)

out = n_cls if a.task == "cls" else 1
if a.model == "conv":
    model = snt.Sequential([snt.Conv2D(8, 3, 1), tf.nn.relu, snt.Conv2D(8, 3, 1), tf.nn.relu, snt.Flatten(),
                            snt.Linear(out)])
else:
    model = snt.Sequential([snt.Flatten(), snt.nets.MLP([32, 16]), tf.nn.relu, snt.Linear(out)])

lr = tf.Variable(a.lr, trainable=False, dtype=tf.float32)
optimizer = {"sgd": lambda: snt.optimizers.SGD(lr), "momentum": lambda: snt.optimizers.Momentum(lr, 0.9),
             "adam": lambda: snt.optimizers.Adam(lr), "rmsprop": lambda: snt.optimizers.RMSProp(lr)}[a.optimizer]()


def loss_of(out, labels):
    if a.task == "reg":
        return tf.reduce_mean(tf.square(out - labels))
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=out))


def train_step(model, optimizer, images, labels):
    with tf.GradientTape() as tape:
        loss = loss_of(model(images), labels)
    params = model.trainable_variables
    grads = tape.gradient(loss, params)
    optimizer.apply(grads, params)
    return loss


if a.tf_function:
    train_step = tf.function(train_step)


def train_epoch(model, optimizer, dataset):
    loss = 0.0
    for images, labels in dataset:
        loss = train_step(model, optimizer, images, labels)
    return loss


def test_accuracy(model, dataset):
    correct, total = 0, 0
    for images, labels in dataset:
        preds = tf.argmax(model(images), axis=1)
        correct += int(tf.math.count_nonzero(tf.equal(preds, labels)))
        total += int(images.shape[0])
    return {"accuracy": correct / total * 100.0, "incorrect": total - correct}


def test_mse(model, dataset):
    se, total = 0.0, 0
    for images, labels in dataset:
        se += float(tf.reduce_sum(tf.square(model(images) - labels)))
        total += int(images.shape[0])
    return se / total


history = []
printed = []
evals = []
for epoch in range(a.epochs):
    train_loss = train_epoch(model, optimizer, train_data)
    history.append(float(train_loss))
    if epoch % a.every == 0 or epoch == a.epochs - 1:
        printed.append(epoch)
        if a.no_test:
            print("[Epoch %d] train loss: %.05f" % (epoch, train_loss))  # noqa: UP031 (the example's own print)
        elif a.task == "cls":
            m = test_accuracy(model, test_data)
            print("[Epoch %d] train loss: %.05f, test acc: %.02f%% (%d wrong)" %  # noqa: UP031
                  (epoch, train_loss, m["accuracy"], m["incorrect"]))
        else:
            mse = test_mse(model, test_data)
            evals.append((epoch, mse))
            print("[Epoch %d] train loss: %.05f, test mse: %.05f" % (epoch, train_loss, mse))  # noqa: UP031
    lr.assign(lr * a.lr_growth)

write_truth(framework=f"dm-sonnet {snt.__version__}", settings=vars(a), loss_name="train loss",
            step_unit="epoch, 0-based (`[Epoch N]`)", tolerance=tol_decimals(5),
            record="the loop's list of what `train_epoch` returned (the epoch's last batch loss), as Sonnet's MNIST "
                   "example computes it",
            train_loss=[(e, history[e]) for e in printed],
            eval_loss=evals or None, eval_name="test mse" if evals else None)
