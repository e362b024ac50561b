"""BayesFlow 2 (Keras 3 on its torch backend): amortized posterior estimation of a tiny simulator (a 2-D location
from 8 noisy draws, or a 3-parameter linear regression from 10 points; numpy, no download) with its own
``BasicWorkflow``: a ``CouplingFlow`` or ``FlowMatching`` inference network behind a ``DeepSet`` summary network,
trained by ``workflow.fit_online`` (fresh simulations every batch) or ``workflow.fit_offline`` (a simulated set),
as its tutorials do. BayesFlow logs its own lines (``INFO:bayesflow:Fitting on dataset instance of
OnlineDataset.``, ``Training completed in 7.19 seconds.``) and Keras prints its progress on stdout (no TTY: the
batch displays joined by ``\\r`` on one line, the epoch's summary ``20/20 ... - loss: 2.0967 - val_loss: 0.6512``
last, 4 decimals; ``verbose=2``: one plain line an epoch). Truth: the Keras ``History`` the fit returns
(``history['loss']`` at each epoch, 1-based)."""

from __future__ import annotations

import argparse
import os

from h82_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="location", choices=["location", "regression"])
ap.add_argument("--net", default="coupling", choices=["coupling", "flowmatching"])
ap.add_argument("--mode", default="online", choices=["online", "offline"])
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--batches", type=int, default=16, help="batches an epoch (online)")
ap.add_argument("--n", type=int, default=512, help="simulations (offline)")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="workflow", choices=["workflow", "adam", "sgd"],
                help="workflow: BayesFlow's own (cosine decay); adam/sgd: a Keras optimizer passed in")
ap.add_argument("--growth", type=float, default=1.0, help="adam/sgd: the rate multiplied by this every epoch")
ap.add_argument("--verbose", type=int, default=1)
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
os.environ.setdefault("KERAS_BACKEND", "torch")

import bayesflow as bf  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)

if a.task == "location":
    def prior() -> dict:
        return {"theta": rng.normal(size=2)}

    def likelihood(theta: np.ndarray) -> dict:
        return {"x": theta + 0.3 * rng.normal(size=(8, 2))}
else:
    def prior() -> dict:
        return {"theta": rng.normal(size=3)}

    def likelihood(theta: np.ndarray) -> dict:
        t = np.linspace(-1, 1, 10)
        y = theta[0] + theta[1] * t + theta[2] * t ** 2 + 0.2 * rng.normal(size=10)
        return {"x": np.stack([t, y], axis=-1)}

simulator = bf.make_simulator([prior, likelihood])
adapter = (bf.Adapter().convert_dtype("float64", "float32").rename("theta", "inference_variables")
           .rename("x", "summary_variables"))
if a.net == "coupling":
    inference = bf.networks.CouplingFlow(depth=2, subnet_kwargs={"widths": (32, 32)})
else:
    inference = bf.networks.FlowMatching(subnet_kwargs={"widths": (32, 32)})
optimizer = None
if a.optimizer != "workflow":
    steps = a.batches if a.mode == "online" else a.n // a.batch
    lr = keras.optimizers.schedules.ExponentialDecay(a.lr, decay_steps=steps, decay_rate=a.growth, staircase=True)
    optimizer = keras.optimizers.Adam(lr) if a.optimizer == "adam" else keras.optimizers.SGD(lr, momentum=0.9)
workflow = bf.BasicWorkflow(simulator=simulator, adapter=adapter, inference_network=inference,
                            summary_network=bf.networks.DeepSet(summary_dim=4), initial_learning_rate=a.lr,
                            optimizer=optimizer)
val = None if a.no_val else simulator.sample(64)
if a.mode == "online":
    history = workflow.fit_online(epochs=a.epochs, batch_size=a.batch, num_batches_per_epoch=a.batches,
                                  validation_data=val, verbose=a.verbose)
else:
    data = simulator.sample(a.n)
    history = workflow.fit_offline(data, epochs=a.epochs, batch_size=a.batch, validation_data=val,
                                   verbose=a.verbose)
h = history.history
write_truth(framework=f"bayesflow {bf.__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`Epoch 3/8`)", tolerance=tol_decimals(4),
            record="the Keras `History` returned by `BasicWorkflow.fit_online`/`fit_offline` (`history['loss']`)",
            train_loss=list(enumerate(h["loss"], 1)),
            eval_loss=list(enumerate(h["val_loss"], 1)) if "val_loss" in h else None,
            eval_name="val_loss" if "val_loss" in h else None)
