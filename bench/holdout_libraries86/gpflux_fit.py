"""GPflux: a deep Gaussian process (``build_constant_input_dim_deep_gp``, 1 to 3 ``GPLayer``s) or a single
``GPLayer`` with a ``LikelihoodLayer`` in a ``DeepGP``, on a small synthetic 1-D or 3-D regression, turned into a
Keras model with ``as_training_model()`` and trained with Keras' ``fit`` (tf-keras through ``gpflow.keras``), as
GPflux's tutorials do: Adam or SGD, optionally validation data, ``ReduceLROnPlateau`` or a
``LearningRateScheduler`` that multiplies the rate each epoch, ``verbose`` 1 (progress bar) or 2 (one line an epoch).
The loss is the negative ELBO per batch (plus each layer's ``gp_N_prior_kl`` metric). Truth: the Keras ``History``
``fit`` returns (``history['loss']`` at each epoch, 1-based)."""

from __future__ import annotations

import argparse

from h86_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--arch", default="deepgp", choices=["deepgp", "svgp"])
ap.add_argument("--layers", type=int, default=2)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--growth", type=float, default=1.0, help="LearningRateScheduler: rate x growth each epoch")
ap.add_argument("--plateau", action="store_true", help="ReduceLROnPlateau on the loss")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=50)
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--dim", type=int, default=1)
ap.add_argument("--inducing", type=int, default=20)
ap.add_argument("--val", action="store_true")
ap.add_argument("--verbose", type=int, default=1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import gpflow  # noqa: E402
import gpflux  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from gpflow.keras import tf_keras  # noqa: E402
from gpflux.architectures import Config, build_constant_input_dim_deep_gp  # noqa: E402

tf.random.set_seed(0)
rng = np.random.default_rng(0)
n_all = a.n + (a.n // 4 if a.val else 0)
X = rng.uniform(-3, 3, size=(n_all, a.dim))
Y = np.sin(2 * X.sum(1, keepdims=True)) + 0.3 * np.cos(X[:, :1] * 3) + 0.1 * rng.normal(size=(n_all, 1))
if a.arch == "deepgp":
    config = Config(num_inducing=a.inducing, inner_layer_qsqrt_factor=1e-5, likelihood_noise_variance=1e-2,
                    whiten=True)
    dgp = build_constant_input_dim_deep_gp(X[: a.n], num_layers=a.layers, config=config)
else:
    Z = X[rng.choice(a.n, a.inducing, replace=False)]
    kernel = gpflow.kernels.SquaredExponential(lengthscales=[1.0] * a.dim)
    inducing = gpflow.inducing_variables.InducingPoints(Z.copy())
    layer = gpflux.layers.GPLayer(kernel, inducing, num_data=a.n, num_latent_gps=1,
                                  mean_function=gpflow.mean_functions.Zero())
    lik = gpflux.layers.LikelihoodLayer(gpflow.likelihoods.Gaussian(0.1))
    dgp = gpflux.models.DeepGP([layer], lik)
model = dgp.as_training_model()
opt = tf_keras.optimizers.Adam(a.lr) if a.optimizer == "adam" else tf_keras.optimizers.SGD(a.lr, momentum=0.9)
model.compile(opt)
callbacks: list = []
if a.growth != 1.0:
    callbacks.append(tf_keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * a.growth if epoch else lr))
if a.plateau:
    callbacks.append(tf_keras.callbacks.ReduceLROnPlateau("loss", factor=0.5, patience=2, min_lr=1e-4, verbose=1))
val = {"inputs": X[a.n:], "targets": Y[a.n:]} if a.val else None
hist = model.fit({"inputs": X[: a.n], "targets": Y[: a.n]}, validation_data=(val, ) if val else None,
                 epochs=a.epochs, batch_size=a.batch, verbose=a.verbose, callbacks=callbacks, shuffle=True)
h = hist.history
write_truth(framework=f"gpflux {gpflux.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch 3/10`)", tolerance=tol_decimals(4),
            record="the Keras `History` returned by `fit` (`history['loss']`)",
            train_loss=list(enumerate(h["loss"], 1)),
            eval_loss=list(enumerate(h["val_loss"], 1)) if "val_loss" in h else None,
            eval_name="val_loss" if "val_loss" in h else None,
            gpflow=gpflow.__version__, tensorflow=tf.__version__)
