"""jaxline: a tiny MLP (plain JAX, optax's optimizers) on synthetic data, written as a jaxline ``Experiment`` and
started the way jaxline's examples start, ``python jaxline_train.py --config=jaxline_train.py --config.X=...``
(``app.run(functools.partial(platform.main, Experiment))``; this file is its own config file, ``get_config``).
jaxline logs through absl (stderr): ``Training with config:`` and the whole ConfigDict, ``[jaxline] training loop
starting...``, then every ``log_tensors_interval`` steps ``global_step: 100, {'loss': 0.52..., 'steps_per_sec':
...}`` (and at ``periodic_action_growth_ratios`` steps when set), and writes the same scalars to its TensorBoard
writer (``checkpoint_dir/train``). Truth: those TensorBoard scalars (``loss`` at the global step, 1-based)."""

from __future__ import annotations

import argparse
import functools
import math
import os
import sys

from jaxline import base_config, experiment
from jaxline import utils as jl_utils
from ml_collections import config_dict


def get_config(growth_ratios: str = "") -> config_dict.ConfigDict:
    """The experiment's config, jaxline's base config with this experiment's kwargs (a user's config file);
    ``--config=jaxline_train.py:1,2,5`` also logs at steps 1, 2, 5, 10, 20, 50, ...
    (``periodic_action_growth_ratios``)."""
    config = base_config.get_base_config()
    if growth_ratios:
        config.periodic_action_growth_ratios = tuple(float(r) for r in growth_ratios.split(","))
    config.training_steps = 300
    config.interval_type = "steps"
    config.log_tensors_interval = 20
    config.log_train_data_interval = 20
    config.save_checkpoint_interval = 100
    config.checkpoint_dir = "jaxline_run"
    config.random_seed = 0
    config.experiment_kwargs = config_dict.ConfigDict(dict(config=dict(
        task="cls", optimizer="adam", lr=1e-2, lr_growth=1.0, decay_steps=0, batch_size=32, n=512, hidden=32,
        clip=0.0)))
    config.lock()
    return config


class Experiment(experiment.AbstractExperiment):
    """A two-layer MLP trained with optax, one optimizer step per ``step``, replicated the jaxline way (pmap)."""

    CHECKPOINT_ATTRS = {"_params": "params", "_opt_state": "opt_state"}

    def __init__(self, mode: str, init_rng, config) -> None:
        super().__init__(mode=mode, init_rng=init_rng)
        import jax
        import jax.numpy as jnp
        import numpy as np
        import optax

        self.config = config
        rng = np.random.default_rng(0)
        d = 10
        X = rng.normal(size=(config.n + 256, d)).astype("float32")
        if config.task == "cls":
            W = rng.normal(size=(d, 3))
            y = (X @ W + 0.5 * rng.normal(size=(len(X), 3))).argmax(1)
            self._out = 3
        else:
            w = rng.normal(size=(d, 1))
            y = (np.sin(X @ w) * 3 + X[:, :1] ** 2 + 0.1 * rng.normal(size=(len(X), 1))).astype("float32")
            self._out = 1
        self._train = (X[: config.n], y[: config.n])
        self._test = (X[config.n:], y[config.n:])
        if config.decay_steps:
            sched = optax.exponential_decay(config.lr, transition_steps=config.decay_steps,
                                            decay_rate=config.lr_growth, staircase=True)
        else:
            sched = optax.constant_schedule(config.lr)
        self._sched = sched
        opt = {"adam": optax.adam, "sgd": optax.sgd, "momentum": functools.partial(optax.sgd, momentum=0.9),
               "rmsprop": optax.rmsprop, "adamw": optax.adamw}[config.optimizer](sched)
        if config.clip:
            opt = optax.chain(optax.clip_by_global_norm(config.clip), opt)
        self._opt = opt
        k1, k2 = jax.random.split(jax.random.PRNGKey(0))
        params = {"w1": jax.random.normal(k1, (d, config.hidden)) * (2 / d) ** 0.5,
                  "b1": jnp.zeros(config.hidden),
                  "w2": jax.random.normal(k2, (config.hidden, self._out)) * (1 / config.hidden) ** 0.5,
                  "b2": jnp.zeros(self._out)}
        self._params = jl_utils.bcast_local_devices(params)
        self._opt_state = jl_utils.bcast_local_devices(opt.init(params))
        self._update = jax.pmap(self._update_fn, axis_name="i")
        self._eval = jax.jit(self._loss_fn)
        self._batch_rng = np.random.default_rng(1)

    def _loss_fn(self, params, x, y):
        import jax
        import jax.numpy as jnp
        import optax

        h = jax.nn.relu(x @ params["w1"] + params["b1"])
        out = h @ params["w2"] + params["b2"]
        if self.config.task == "cls":
            return optax.softmax_cross_entropy_with_integer_labels(out, y).mean()
        return jnp.mean((out - y) ** 2)

    def _update_fn(self, params, opt_state, global_step, x, y):
        import jax
        import optax

        loss, grads = jax.value_and_grad(self._loss_fn)(params, x, y)
        grads = jax.lax.pmean(grads, axis_name="i")
        updates, opt_state = self._opt.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        scalars = {"loss": jax.lax.pmean(loss, axis_name="i"), "learning_rate": self._sched(global_step - 1)}
        return params, opt_state, scalars

    def step(self, *, global_step, rng, writer):
        X, y = self._train
        idx = self._batch_rng.choice(len(X), self.config.batch_size, replace=False)
        x, yy = X[idx][None], y[idx][None]
        self._params, self._opt_state, scalars = self._update(self._params, self._opt_state, global_step, x, yy)
        return jl_utils.get_first(scalars)

    def evaluate(self, *, global_step, rng, writer):
        X, y = self._test
        params = jl_utils.get_first(self._params)
        loss = float(self._eval(params, X, y))
        return {"eval_loss": loss}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--task", default="cls", choices=["cls", "reg"])
    ap.add_argument("--optimizer", default="adam")
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--lr-growth", type=float, default=1.0, help="optax.exponential_decay rate (> 1 grows)")
    ap.add_argument("--decay-steps", type=int, default=0)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--clip", type=float, default=0.0)
    ap.add_argument("--growth-ratios", default="", help="periodic_action_growth_ratios, e.g. 1,2,5")
    ap.add_argument("--log-all", action="store_true", help="log_all_train_data")
    ap.add_argument("--sync-log", action="store_true", help="log_async=False")
    ap.add_argument("--mode", default="train", choices=["train", "train_eval_multithreaded"])
    ap.add_argument("--label", default="healthy")
    ap.add_argument("--should-stop", action="store_true")
    a = ap.parse_args()

    import h55_truth
    from absl import app
    from jaxline import platform

    h55_truth.seed_all(0)
    k = "--config.experiment_kwargs.config."
    spec = os.path.abspath(__file__) + (f":{a.growth_ratios}" if a.growth_ratios else "")
    flags = [f"--config={spec}", f"--jaxline_mode={a.mode}",
             f"--config.training_steps={a.steps}", f"--config.log_tensors_interval={a.every}",
             f"--config.log_train_data_interval={a.every}", f"{k}task={a.task}", f"{k}optimizer={a.optimizer}",
             f"{k}lr={a.lr}", f"{k}lr_growth={a.lr_growth}", f"{k}decay_steps={a.decay_steps}",
             f"{k}batch_size={a.batch}", f"{k}clip={a.clip}"]
    if a.log_all:
        flags.append("--config.log_all_train_data=True")
    if a.sync_log:
        flags.append("--config.log_async=False")
    if a.mode != "train":
        flags.append(f"--config.save_checkpoint_interval={a.every * 5}")
    try:
        sys.argv = [sys.argv[0], *flags]  # as on jaxline's command line (ml_collections reads its overrides there)
        app.run(functools.partial(platform.main, Experiment))
    except SystemExit:
        pass

    from importlib.metadata import version

    # the steps the log prints (jaxline's PeriodicAction for its log: every `log_tensors_interval` steps and at the
    # growth-ratio steps); with `log_all_train_data` its writer also keeps every step between them
    ratios = [float(r) for r in a.growth_ratios.split(",")] if a.growth_ratios else []

    def printed(step: int) -> bool:
        e = math.floor(math.log10(step) + 1e-9)
        return step % a.every == 0 or any(round(r * 10 ** e) == step for r in ratios)

    train = [(s, v) for s, v in h55_truth.scalars("jaxline_run/train", "loss") if printed(s)]
    ev = h55_truth.scalars("jaxline_run/eval", "eval_loss") if a.mode != "train" else []
    h55_truth.write_truth(
        framework=f"jaxline {version('jaxline')}", settings=vars(a), loss_name="loss",
        step_unit="global step, 1-based (`global_step: 20`)", tolerance={"rel": 1e-6, "abs": 0.0},
        record="the scalars jaxline writes to its TensorBoard writer (`checkpoint_dir/train`, tag `loss`)",
        train_loss=train, eval_loss=ev or None, eval_name="eval_loss" if ev else None)


if __name__ == "__main__":
    main()
