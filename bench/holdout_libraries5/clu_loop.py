"""CLU: a small JAX/optax training loop written as CLU users write it (its examples' shape): an ``absl`` ``app.run``
main, a ``clu.metrics.Collection`` of ``Average`` metrics merged every step, written every ``--log-every`` steps to
a ``clu.metric_writers`` writer (``create_default_writer(just_logging=True)`` or a plain ``LoggingWriter``, with or
without a ``collection``), and ``clu.periodic_actions.ReportProgress`` writing ``steps_per_sec`` / ``uptime`` to the
same writer. absl logs to stderr: ``I1205 23:10:00.123456 140123 logging_writer.py:48] [100] accuracy=0.8125,
loss=0.4467`` (or ``[100] collection=train loss=...``). Truth: the ``compute()`` of the train ``Collection`` handed
to ``write_scalars`` at each write, at the loop's step (1-based)."""

import sys

import numpy as np
from absl import app, flags, logging
from h5_truth import seed_all, tol_sig, write_truth

F = flags.FLAGS
flags.DEFINE_enum("task", "cls", ["cls", "reg"], "task")
flags.DEFINE_integer("steps", 400, "training steps")
flags.DEFINE_integer("log_every", 20, "write train metrics every N steps")
flags.DEFINE_integer("eval_every", 0, "evaluate every N steps (0: never)")
flags.DEFINE_integer("progress_every", 100, "ReportProgress every N steps")
flags.DEFINE_float("lr", 0.01, "learning rate")
flags.DEFINE_enum("optimizer", "adam", ["adam", "sgd", "momentum"], "optax optimizer")
flags.DEFINE_float("growth", 0.0, "exponential_decay rate > 1: multiply the rate every 50 steps")
flags.DEFINE_enum("writer", "default", ["default", "logging", "default_async"], "metric writer")
flags.DEFINE_string("collection", None, "LoggingWriter collection name")
flags.DEFINE_integer("batch", 32, "batch size")
flags.DEFINE_string("label", "healthy", "truth label")
flags.DEFINE_bool("should_stop", False, "truth should_stop")


def main(argv):
    del argv
    seed_all(0)
    import flax.struct  # noqa: F401  (clu.metrics is built on flax.struct)
    import jax
    import jax.numpy as jnp
    import optax
    from clu import metric_writers, metrics, periodic_actions

    jax.config.update("jax_platforms", "cpu")

    @flax.struct.dataclass
    class ClsMetrics(metrics.Collection):
        accuracy: metrics.Average.from_output("accuracy")
        loss: metrics.Average.from_output("loss")

    @flax.struct.dataclass
    class RegMetrics(metrics.Collection):
        loss: metrics.Average.from_output("loss")

    TrainMetrics = ClsMetrics if F.task == "cls" else RegMetrics

    rng = np.random.default_rng(0)
    n, d, k = 4000, 20, 4
    X = rng.normal(size=(n, d)).astype(np.float32)
    W = rng.normal(size=(d, k))
    if F.task == "cls":
        Y = np.argmax(X @ W + 0.5 * rng.normal(size=(n, k)), axis=1).astype(np.int32)
    else:
        Y = (np.sin(X @ W) + 0.1 * rng.normal(size=(n, k))).astype(np.float32)
    Xtr, Ytr, Xev, Yev = X[:3200], Y[:3200], X[3200:], Y[3200:]

    key = jax.random.PRNGKey(0)
    k1, k2 = jax.random.split(key)
    params = {"w1": jax.random.normal(k1, (d, 64)) * (1 / np.sqrt(d)), "b1": jnp.zeros(64),
              "w2": jax.random.normal(k2, (64, k)) * (1 / 8.0), "b2": jnp.zeros(k)}

    def apply(p, x):
        return jax.nn.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]

    def loss_fn(p, x, y):
        out = apply(p, x)
        if F.task == "cls":
            loss = optax.softmax_cross_entropy_with_integer_labels(out, y).mean()
            return loss, {"loss": loss, "accuracy": (jnp.argmax(out, -1) == y).mean()}
        loss = jnp.mean((out - y) ** 2)
        return loss, {"loss": loss}

    lr = optax.exponential_decay(F.lr, 50, F.growth, staircase=True) if F.growth else F.lr
    tx = {"adam": optax.adam, "sgd": optax.sgd, "momentum": lambda r: optax.sgd(r, momentum=0.9)}[F.optimizer](lr)
    opt_state = tx.init(params)

    @jax.jit
    def train_step(p, s, x, y):
        (_, out), g = jax.value_and_grad(loss_fn, has_aux=True)(p, x, y)
        upd, s = tx.update(g, s, p)
        return optax.apply_updates(p, upd), s, TrainMetrics.single_from_model_output(**out)

    if F.writer == "logging":
        writer = metric_writers.LoggingWriter(collection=F.collection)
    else:
        writer = metric_writers.create_default_writer(just_logging=True, asynchronous=F.writer == "default_async",
                                                      collection=F.collection)
    report = periodic_actions.ReportProgress(num_train_steps=F.steps, writer=writer, every_steps=F.progress_every)
    written = []
    evals = []
    train_metrics = None
    logging.info("Starting training loop at step %d.", 1)
    for step in range(1, F.steps + 1):
        idx = rng.integers(0, len(Xtr), F.batch)
        with jax.profiler.StepTraceAnnotation("train", step_num=step):
            params, opt_state, m = train_step(params, opt_state, Xtr[idx], Ytr[idx])
        train_metrics = m if train_metrics is None else train_metrics.merge(m)
        report(step)
        if step % F.log_every == 0 or step == F.steps:
            scalars = train_metrics.compute()
            writer.write_scalars(step, {f"train_{k}" if F.eval_every else k: v for k, v in scalars.items()})
            written.append((step, float(scalars["loss"])))
            train_metrics = None
        if F.eval_every and (step % F.eval_every == 0 or step == F.steps):
            _, out = loss_fn(params, Xev, Yev)
            writer.write_scalars(step, {f"eval_{k}": v for k, v in jax.device_get(out).items()})
            evals.append((step, float(out["loss"])))
    writer.flush()
    logging.info("Finishing training at step %d", F.steps)
    import clu
    sys.stderr.flush()
    ver = getattr(clu, "__version__", None)
    if ver is None:
        from importlib.metadata import version
        ver = version("clu")
    write_truth(framework=f"clu {ver}", settings={k: F[k].value for k in (
                    "task", "steps", "log_every", "eval_every", "progress_every", "lr", "optimizer", "growth",
                    "writer", "collection", "batch")},
                loss_name="train_loss" if F.eval_every else "loss",
                step_unit="training step, 1-based (`[N]` of the LoggingWriter line)", tolerance=tol_sig(6),
                record="the compute() of the clu.metrics Collection handed to write_scalars at each write",
                train_loss=written, **({"eval_loss": [[s, v] for s, v in evals], "eval_name": "eval_loss"}
                                        if evals else {}))


if __name__ == "__main__":
    sys.argv = ["--should_stop" if x == "--should-stop" else x for x in sys.argv]  # the maker's flag spelling
    app.run(main)
