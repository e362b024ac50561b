"""GPflow: a GP model (``GPR``, ``VGP`` or ``SVGP`` on minibatches) trained in the loop its docs write, the
``gpflow.monitor`` way: an optimiser (``tf_keras.optimizers.Adam`` from ``gpflow.keras``, or
``gpflow.optimizers.Scipy`` with ``step_callback=monitor``) and a ``Monitor`` of one task group every ``--every``
steps: ``ScalarToTensorBoard`` (the training objective, into TensorBoard event files under ``logs/``) and
``ExecuteCallback`` printing the step and the objective (``print(f"Step {step}: training loss {loss:.4f}")``, the
step from the task's ``current_step``); ``gpflow.utilities.print_summary`` at the end. Truth: the monitor's own
record, the ``training_objective`` scalars of its event files, at the monitor's step (0-based), stored as float32
(the tolerance: 4 decimals plus float32's rounding)."""

from __future__ import annotations

import argparse
import glob

import numpy as np
from h12_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="gpr", choices=["gpr", "vgp", "svgp"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "scipy"])
ap.add_argument("--steps", type=int, default=100)
ap.add_argument("--every", type=int, default=5)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--lr-growth", type=float, default=0.0, help="ExponentialDecay with this rate > 1 every 10 steps")
ap.add_argument("--n", type=int, default=200)
ap.add_argument("--batch", type=int, default=50)
ap.add_argument("--inducing", type=int, default=15)
ap.add_argument("--noise", type=float, default=0.1)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import gpflow  # noqa: E402
import tensorflow as tf  # noqa: E402
from gpflow.keras import tf_keras  # noqa: E402
from gpflow.monitor import ExecuteCallback, Monitor, MonitorTaskGroup, ScalarToTensorBoard  # noqa: E402

tf.random.set_seed(0)
rng = np.random.default_rng(0)
X = rng.uniform(0, 10, (a.n, 1))
Y = np.sin(X) + 0.3 * np.cos(3 * X) + a.noise * rng.normal(size=(a.n, 1))
kernel = gpflow.kernels.SquaredExponential()
if a.model == "gpr":
    model = gpflow.models.GPR((X, Y), kernel=kernel)
elif a.model == "vgp":
    model = gpflow.models.VGP((X, Y), kernel=kernel, likelihood=gpflow.likelihoods.Gaussian())
else:
    Z = X[:: max(1, a.n // a.inducing)][: a.inducing].copy()
    model = gpflow.models.SVGP(kernel, gpflow.likelihoods.Gaussian(), Z, num_data=a.n)

if a.model == "svgp":
    data = tf.data.Dataset.from_tensor_slices((X, Y)).repeat().shuffle(a.n, seed=0).batch(a.batch)
    training_loss = model.training_loss_closure(iter(data), compile=True)

    def objective():
        return model.training_loss((X, Y))
else:
    training_loss = model.training_loss_closure(compile=True)

    def objective():
        return model.training_loss()


def print_cb(**_):
    print(f"Step {int(printer.current_step)}: training loss {objective().numpy():.4f}")


log_dir = "logs"
printer = ExecuteCallback(print_cb)
tasks = MonitorTaskGroup([ScalarToTensorBoard(log_dir, objective, "training_objective"), printer], period=a.every)
monitor = Monitor(tasks)

if a.optimizer == "scipy":
    gpflow.optimizers.Scipy().minimize(training_loss, model.trainable_variables, step_callback=monitor,
                                       options={"maxiter": a.steps})
else:
    rate = a.lr
    if a.lr_growth:
        rate = tf_keras.optimizers.schedules.ExponentialDecay(a.lr, decay_steps=10, decay_rate=a.lr_growth)
    opt = tf_keras.optimizers.Adam(learning_rate=rate)

    @tf.function
    def optimization_step():
        opt.minimize(training_loss, model.trainable_variables)

    for step in range(a.steps):
        optimization_step()
        monitor(step)
gpflow.utilities.print_summary(model)

series = []
tf.get_logger().setLevel("ERROR")  # reading the record back must not add a deprecation warning to the log
for f in sorted(glob.glob(f"{log_dir}/**/events.out.tfevents.*", recursive=True)):
    for ev in tf.compat.v1.train.summary_iterator(f):
        for v in ev.summary.value:
            if v.tag == "training_objective":
                series.append((ev.step, float(tf.make_ndarray(v.tensor))))
series.sort()
write_truth(framework=f"gpflow {gpflow.__version__}", settings=vars(a), loss_name="training_objective",
            step_unit="optimisation step, 0-based (the monitor's step, printed as `Step N`)",
            tolerance={"rel": 1.2e-7, "abs": 1e-4},
            record="gpflow.monitor's ScalarToTensorBoard event files (`training_objective` at its step)",
            train_loss=series)
