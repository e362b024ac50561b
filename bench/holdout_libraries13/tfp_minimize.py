"""tensorflow-probability: ``tfp.math.minimize`` (or ``tfp.vi.fit_surrogate_posterior``, which runs it) on a small
synthetic problem, as TFP's tutorials set it up: a Gaussian process' kernel hyperparameters (``TransformedVariable``s,
the loss ``-gp.log_prob(y)``), a linear or a logistic regression's negative log-likelihood, or a Bayesian regression's
negative ELBO (``fit_surrogate_posterior``), with a Keras optimizer (Adam, SGD, RMSprop; ``--growth``: an
``ExponentialDecay`` schedule whose rate is above 1). The loop runs in graph mode, so the user prints from its
``trace_fn`` with ``tf.print`` (stderr) every ``--every`` steps: ``step 100 loss 12.3456`` (``tf.print``'s own
formatting of a float32 scalar). Truth: the trace ``minimize`` returns (the loss traced at every step, with the step
it traces), at the printed steps, 0-based as ``traceable_quantities.step`` counts them."""

from __future__ import annotations

import argparse

import numpy as np
from h13_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="gp", choices=["gp", "linreg", "logreg", "vi"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--growth", type=float, default=1.0, help="ExponentialDecay decay_rate (per --every steps)")
ap.add_argument("--steps", type=int, default=200)
ap.add_argument("--every", type=int, default=10)
ap.add_argument("--n", type=int, default=100)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import tensorflow as tf  # noqa: E402
import tensorflow_probability as tfp  # noqa: E402

tf.random.set_seed(0)
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)
tfd, tfb = tfp.distributions, tfp.bijectors

rng = np.random.default_rng(0)
X = rng.uniform(-2.0, 2.0, size=(a.n, 3)).astype(np.float32)
w = np.array([1.5, -2.0, 0.7], dtype=np.float32)

if a.model == "gp":
    x1 = X[:, :1]
    y = (np.sin(3.0 * x1[:, 0]) + 0.5 * x1[:, 0] + rng.normal(scale=0.2, size=a.n)).astype(np.float32)
    amplitude = tfp.util.TransformedVariable(1.0, tfb.Softplus(), dtype=tf.float32, name="amplitude")
    length_scale = tfp.util.TransformedVariable(1.0, tfb.Softplus(), dtype=tf.float32, name="length_scale")
    noise = tfp.util.TransformedVariable(1.0, tfb.Softplus(), dtype=tf.float32, name="observation_noise_variance")

    def loss_fn():
        kernel = tfp.math.psd_kernels.ExponentiatedQuadratic(amplitude, length_scale)
        gp = tfd.GaussianProcess(kernel=kernel, index_points=x1, observation_noise_variance=noise)
        return -gp.log_prob(y)
elif a.model in ("linreg", "logreg"):
    coef = tf.Variable(tf.zeros(3), name="coef")
    bias = tf.Variable(0.0, name="bias")
    if a.model == "linreg":
        y = (X @ w + 3.0 + rng.normal(scale=0.5, size=a.n)).astype(np.float32)
        scale = tfp.util.TransformedVariable(1.0, tfb.Softplus(), dtype=tf.float32, name="scale")

        def loss_fn():
            return -tf.reduce_sum(tfd.Normal(tf.linalg.matvec(X, coef) + bias, scale).log_prob(y))
    else:
        y = (X @ w + rng.normal(size=a.n) > 0).astype(np.float32)

        def loss_fn():
            return -tf.reduce_mean(tfd.Bernoulli(logits=tf.linalg.matvec(X, coef) + bias).log_prob(y))

if a.growth != 1.0:
    lr = tf.keras.optimizers.schedules.ExponentialDecay(a.lr, decay_steps=a.every, decay_rate=a.growth)
else:
    lr = a.lr
optimizer = {"adam": tf.keras.optimizers.Adam, "sgd": tf.keras.optimizers.SGD,
             "rmsprop": tf.keras.optimizers.RMSprop}[a.optimizer](learning_rate=lr)


def trace_fn(tq):
    tf.cond(tq.step % a.every == 0, lambda: tf.print("step", tq.step, "loss", tq.loss), tf.no_op)
    return tq.step, tq.loss


if a.model == "vi":
    y = (X @ w + 3.0 + rng.normal(scale=0.5, size=a.n)).astype(np.float32)
    Xb = np.concatenate([X, np.ones((a.n, 1), np.float32)], axis=1)

    def target_log_prob_fn(beta):
        prior = tf.reduce_sum(tfd.Normal(0.0, 5.0).log_prob(beta), axis=-1)
        like = tf.reduce_sum(tfd.Normal(tf.linalg.matvec(Xb, beta), 0.5).log_prob(y), axis=-1)
        return prior + like

    surrogate = tfd.Independent(tfd.Normal(loc=tf.Variable(tf.zeros(4), name="loc"),
                                           scale=tfp.util.TransformedVariable(tf.ones(4), tfb.Softplus())), 1)
    steps, losses = tfp.vi.fit_surrogate_posterior(target_log_prob_fn, surrogate, optimizer=optimizer,
                                                   num_steps=a.steps, sample_size=4, trace_fn=trace_fn, seed=(0, 1))
    loss_name = "loss (negative ELBO)"
else:
    steps, losses = tfp.math.minimize(loss_fn, num_steps=a.steps, optimizer=optimizer, trace_fn=trace_fn)
    loss_name = "loss" if a.model != "gp" else "loss (-gp.log_prob(y))"

trace = [(int(s), float(v)) for s, v in zip(steps.numpy(), losses.numpy(), strict=True)]
write_truth(framework=f"tensorflow-probability {tfp.__version__}", settings=vars(a), loss_name=loss_name,
            step_unit="step, 0-based (`step N loss V`, traceable_quantities.step)", tolerance=tol_sig(6),
            record="the trace `tfp.math.minimize` returns (`trace_fn` -> (step, loss))",
            train_loss=[(s, v) for s, v in trace if s % a.every == 0])
