"""A user's Keras script on the TensorFlow backend (tensorflow-cpu): ``model.fit(verbose=1 / 2)``.

Truth: the ``History`` Keras returns (train ``loss`` and ``val_loss`` per epoch, 1-based as ``Epoch e/E``
prints it); ``steps_per_epoch`` given (a reader numbering batches has epoch e at e x steps_per_epoch).
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

from _truth import common_args, keep, settings_of, write_truth  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--verbose", default="1")
p.add_argument("--task", default="reg")
p.add_argument("--epochs", type=int, default=10)
p.add_argument("--batch", type=int, default=32)
p.add_argument("--val", type=float, default=0.0)
p.add_argument("--opt", default="adam")
p.add_argument("--lr", type=float, default=1e-3)
p.add_argument("--lr-growth", type=float, default=0.0)
p.add_argument("--mlflow-autolog", action="store_true", help="mlflow.keras.autolog() into the default mlflow.db")
p.add_argument("--tf-keras", action="store_true", help="use tf.keras (the same Keras 3 under TF 2.16+)")
common_args(p)
args = p.parse_args()

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)
keras = tf.keras if args.tf_keras else __import__("keras")
keras.utils.set_random_seed(args.seed)
rng = np.random.default_rng(args.seed)
X = rng.normal(size=(960, 12)).astype("float32")
w = rng.normal(size=(12,)).astype("float32")
if args.task == "reg":
    y = (X @ w + 0.5 * np.sin(2 * X[:, 0]) + 0.1 * rng.normal(size=960)).astype("float32")
    out, loss = keras.layers.Dense(1), "mse"
else:
    y = (X @ w + 0.5 * rng.normal(size=960) > 0).astype("int32")
    out, loss = keras.layers.Dense(2, activation="softmax"), "sparse_categorical_crossentropy"
model = keras.Sequential([keras.Input((12,)), keras.layers.Dense(32, activation="relu"), out])
opt = keras.optimizers.SGD(args.lr) if args.opt == "sgd" else keras.optimizers.Adam(args.lr)
model.compile(optimizer=opt, loss=loss, metrics=["mae"] if args.task == "reg" else ["accuracy"])
verbose = args.verbose if args.verbose == "auto" else int(args.verbose)
cbs = [keras.callbacks.LearningRateScheduler(lambda e, lr: lr * args.lr_growth if e else lr)] if args.lr_growth else []
if args.mlflow_autolog:
    import mlflow

    mlflow.keras.autolog()
    mlflow.start_run()
hist = model.fit(X, y, epochs=args.epochs, batch_size=args.batch, validation_split=args.val, verbose=verbose,
                 callbacks=cbs)
n_train = int(len(X) * (1 - args.val)) if args.val else len(X)
spe = -(-n_train // args.batch)
h = hist.history
write_truth(framework="keras (tensorflow backend)", settings=settings_of(args), label=args.label,
            should_stop=args.should_stop, loss_name="loss",
            step_unit="epoch (History index + 1, as 'Epoch e/E' prints it)", tolerance={"rel": 1e-3, "abs": 5e-5},
            record="keras History", train_loss=[(i + 1, v) for i, v in enumerate(h["loss"])], steps_per_epoch=spe,
            val_loss=[(i + 1, v) for i, v in enumerate(h["val_loss"])] if "val_loss" in h else None)
if args.mlflow_autolog:
    run = mlflow.active_run()
    assert run is not None, "autolog left no active run"
    mlflow.end_run()
    hist_m = mlflow.MlflowClient().get_metric_history(run.info.run_id, "loss")
    keep("mlflow.db")
    write_truth(name="truth_mlflow.json", framework="mlflow (keras autolog, sqlite store)", settings=settings_of(args),
                label=args.label, should_stop=args.should_stop, loss_name="loss",
                step_unit="MLflow metric step (the epoch, 0-based, as mlflow.keras.autolog logs it)",
                tolerance={"rel": 1e-6, "abs": 1e-9}, record="MlflowClient.get_metric_history of the run's store",
                train_loss=[(m.step, m.value) for m in sorted(hist_m, key=lambda m: (m.step, m.timestamp))])
