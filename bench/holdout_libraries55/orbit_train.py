"""Orbit (TensorFlow Model Garden's training loop library, shipped in tf-models-official): a tiny tf_keras MLP on
synthetic data trained by Orbit's own example trainer and evaluator (``orbit.examples.single_task``:
``SingleTaskTrainer``, ``SingleTaskEvaluator``) under an ``orbit.Controller`` with a ``summary_dir``, in an absl
``app.run`` main as the Model Garden's trainers are. The Controller logs each line through absl (stderr) and prints
it (stdout, block-buffered into the file): ``train | step:     20 | steps/sec:  310.2 | output: {'training_loss':
np.float32(0.61)}`` once every ``steps_per_loop`` steps (the loss is the mean over the loop), ``eval | step: ...``
when there is an evaluator, and writes the same outputs as TensorBoard scalars. Truth: those scalars
(``summary_dir``, tag ``training_loss``, at the global step)."""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import version

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="cls", choices=["cls", "reg"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "momentum", "rmsprop", "adagrad"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--lr-growth", type=float, default=1.0, help="ExponentialDecay decay_rate (> 1 grows)")
ap.add_argument("--decay-steps", type=int, default=0)
ap.add_argument("--steps", type=int, default=200)
ap.add_argument("--loop", type=int, default=20, help="the Controller's steps_per_loop")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=512)
ap.add_argument("--eval-interval", type=int, default=0, help="train_and_evaluate every N steps (0: train only)")
ap.add_argument("--metrics", type=int, default=0, choices=[0, 1, 2],
                help="metrics reported beside the loss: 0, 1 (accuracy / MAE) or 2 (and top-2 accuracy / RMSE)")
ap.add_argument("--checkpoint-interval", type=int, default=0)
ap.add_argument("--tf-while", action="store_true", help="StandardTrainerOptions(use_tf_while_loop=True)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

from h55_truth import scalars, seed_all, write_truth  # noqa: E402

seed_all(0)

import numpy as np  # noqa: E402
import orbit  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_keras  # noqa: E402
from absl import app  # noqa: E402
from orbit.examples.single_task.single_task_evaluator import SingleTaskEvaluator  # noqa: E402
from orbit.examples.single_task.single_task_trainer import SingleTaskTrainer  # noqa: E402

tf.random.set_seed(0)
tf.config.threading.set_inter_op_parallelism_threads(1)
tf.config.threading.set_intra_op_parallelism_threads(1)


def data() -> tuple[tf.data.Dataset, tf.data.Dataset]:
    rng = np.random.default_rng(0)
    n_val = a.n // 4
    X = rng.normal(size=(a.n + n_val, 10)).astype("float32")
    if a.task == "cls":
        W = rng.normal(size=(10, 3))
        y = (X @ W + 0.5 * rng.normal(size=(len(X), 3))).argmax(1).astype("int32")
    else:
        w = rng.normal(size=(10, 1))
        y = (np.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * rng.normal(size=(len(X), 1))).astype("float32")
    train = tf.data.Dataset.from_tensor_slices({"features": X[: a.n], "label": y[: a.n]})
    train = train.shuffle(a.n, seed=0).batch(a.batch, drop_remainder=True).repeat()
    val = tf.data.Dataset.from_tensor_slices({"features": X[a.n:], "label": y[a.n:]}).batch(64)
    return train, val


def main(argv: list[str]) -> None:
    del argv
    train_ds, val_ds = data()
    out = 3 if a.task == "cls" else 1
    layers = [tf_keras.Input(shape=(10,), name="features"), tf_keras.layers.Dense(32, activation="relu"),
              tf_keras.layers.Dense(out)]
    if a.task == "cls":
        layers.append(tf_keras.layers.Softmax())
    model = tf_keras.Sequential(layers)
    lr: float | tf_keras.optimizers.schedules.LearningRateSchedule = a.lr
    if a.decay_steps:
        lr = tf_keras.optimizers.schedules.ExponentialDecay(a.lr, a.decay_steps, a.lr_growth, staircase=True)
    opt = {"adam": lambda: tf_keras.optimizers.Adam(lr), "sgd": lambda: tf_keras.optimizers.SGD(lr),
           "momentum": lambda: tf_keras.optimizers.SGD(lr, momentum=0.9),
           "rmsprop": lambda: tf_keras.optimizers.RMSprop(lr),
           "adagrad": lambda: tf_keras.optimizers.Adagrad(lr)}[a.optimizer]()
    if a.task == "cls":
        loss_fn = tf_keras.losses.sparse_categorical_crossentropy
        metrics = [tf_keras.metrics.SparseCategoricalAccuracy("accuracy"),
                   tf_keras.metrics.SparseTopKCategoricalAccuracy(2, "top2_accuracy")]
    else:
        loss_fn = tf_keras.losses.mean_squared_error
        metrics = [tf_keras.metrics.MeanAbsoluteError("mae"), tf_keras.metrics.RootMeanSquaredError("rmse")]
    trainer = SingleTaskTrainer(
        train_ds, label_key="label", model=model, loss_fn=loss_fn, optimizer=opt,
        metrics=metrics[: a.metrics] or None,
        trainer_options=orbit.StandardTrainerOptions(use_tf_while_loop=a.tf_while))
    evaluator = None
    if a.eval_interval:
        evaluator = SingleTaskEvaluator(val_ds, label_key="label", model=model,
                                        metrics=[tf_keras.metrics.SparseCategoricalCrossentropy("eval_loss")]
                                        if a.task == "cls" else [tf_keras.metrics.MeanSquaredError("eval_loss")])
    ckpt = None
    if a.checkpoint_interval:
        ckpt = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=opt), "orbit_run/ckpt",
                                          max_to_keep=2, step_counter=opt.iterations,
                                          checkpoint_interval=a.checkpoint_interval)
    controller = orbit.Controller(trainer=trainer, evaluator=evaluator, global_step=opt.iterations,
                                  steps_per_loop=a.loop, checkpoint_manager=ckpt, summary_dir="orbit_run/train",
                                  eval_summary_dir="orbit_run/eval")
    if evaluator is not None:
        controller.train_and_evaluate(train_steps=a.steps, eval_steps=-1, eval_interval=a.eval_interval)
    else:
        controller.train(steps=a.steps)


try:
    app.run(main, argv=[sys.argv[0]])
except SystemExit:
    pass

train = scalars("orbit_run/train", "training_loss")
ev = scalars("orbit_run/eval", "eval_loss") if a.eval_interval else []
write_truth(framework=f"tf-models-official {version('tf-models-official')}",
            settings=vars(a), loss_name="training_loss",
            step_unit="global step (the optimizer's iterations), at the end of each loop (`train | step:     20`)",
            tolerance={"rel": 1e-6, "abs": 0.0},
            record="the TensorBoard scalars the Controller writes to its `summary_dir` (tag `training_loss`)",
            train_loss=train, eval_loss=ev or None, eval_name="eval_loss" if ev else None)
