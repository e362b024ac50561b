"""jinns: a tiny physics-informed network (its ``PINN_MLP``, an equinox MLP) fitted to an ODE with ``jinns.solve``,
the library's own training loop, as its tutorials do: a ``DataGeneratorODE`` of collocation times, a ``LossODE``
(the residual of the ODE, a user's ``jinns.loss.ODE`` subclass, plus the initial condition), an optax optimizer and,
for some runs, a ``ValidationLoss`` on fresh collocation times (with early stopping). jinns prints (stdout, through
``jax.debug.print``) ``[train] Iteration 50: loss value = 0.2772405743598938`` every ``print_loss_every``
iterations, ``[validation] Iteration ...`` when there is validation, then the cause it stopped and ``Final iteration
500: train loss value = ...``. Truth: the ``total_loss_values`` array ``jinns.solve`` returns (one value per
iteration), at the iterations it prints (0-based) and at the final one (the value it prints there, the last
iteration's)."""

from __future__ import annotations

import argparse
from importlib.metadata import version

from h91_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="decay", choices=["decay", "logistic"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "rmsprop", "adamw"])
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--schedule", default="const", choices=["const", "cosine", "growth"])
ap.add_argument("--growth", type=float, default=2.0, help="growth schedule: the rate's factor every 100 iterations")
ap.add_argument("--n-iter", type=int, default=500)
ap.add_argument("--every", type=int, default=None, help="print_loss_every (jinns' default: n_iter // 10)")
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--width", type=int, default=16)
ap.add_argument("--val-every", type=int, default=0, help="a ValidationLoss called every N iterations (0: none)")
ap.add_argument("--patience", type=int, default=10)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import jinns  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from jinns.validation import ValidationLoss  # noqa: E402

key = jax.random.PRNGKey(0)
key, sk = jax.random.split(key)
w = a.width
eqx_list = ((eqx.nn.Linear, 1, w), (jax.nn.tanh,), (eqx.nn.Linear, w, w), (jax.nn.tanh,), (eqx.nn.Linear, w, 1))
u, nn_params = jinns.nn.PINN_MLP.create(key=sk, eqx_list=eqx_list, eq_type="ODE")


class Decay(jinns.loss.ODE):
    """du/dt = -k u."""

    def equation(self, t, u, params):
        du = jax.jacfwd(lambda s: u(s, params))(t)
        return du.reshape(-1) + self.Tmax * params.eq_params.k * u(t, params).reshape(-1)


class Logistic(jinns.loss.ODE):
    """du/dt = r u (1 - u / K)."""

    def equation(self, t, u, params):
        du = jax.jacfwd(lambda s: u(s, params))(t)
        v = u(t, params).reshape(-1)
        return du.reshape(-1) - self.Tmax * params.eq_params.r * v * (1 - v / params.eq_params.K)


if a.problem == "decay":
    dyn, eq, u0, tmax = Decay(Tmax=1.0), {"k": 2.0}, 1.0, 1.0
else:
    dyn, eq, u0, tmax = Logistic(Tmax=5.0), {"r": 1.5, "K": 2.0}, 0.2, 1.0
key, sk = jax.random.split(key)
train_data = jinns.data.DataGeneratorODE(key=sk, nt=512, tmin=0.0, tmax=tmax, temporal_batch_size=a.batch)
params = jinns.parameters.Params(nn_params=nn_params, eq_params=eq)
weights = jinns.loss.LossWeightsODE(dyn_loss=1.0, initial_condition=10.0)
loss = jinns.loss.LossODE(u=u, dynamic_loss=dyn, initial_condition=(0.0, u0), params=params, loss_weights=weights)

lr: float | optax.Schedule = a.lr
if a.schedule == "cosine":
    lr = optax.cosine_decay_schedule(a.lr, a.n_iter)
elif a.schedule == "growth":
    lr = optax.exponential_decay(a.lr, transition_steps=100, decay_rate=a.growth)
opt = {"adam": optax.adam, "sgd": optax.sgd, "rmsprop": optax.rmsprop, "adamw": optax.adamw}[a.optimizer](lr)

validation = None
if a.val_every:
    key, sk = jax.random.split(key)
    val_data = jinns.data.DataGeneratorODE(key=sk, nt=256, tmin=0.0, tmax=tmax, temporal_batch_size=None)
    validation = ValidationLoss(loss=loss, validation_data=val_data, call_every=a.val_every,
                                early_stopping=True, patience=a.patience)

out = jinns.solve(n_iter=a.n_iter, init_params=params, data=train_data, loss=loss, optimizer=opt,
                  print_loss_every=a.every, validation=validation)
vals = np.asarray(out[1], dtype=np.float64)
every = a.every if a.every is not None else a.n_iter // 10
# the loop's last iteration: the array is zeros after an early stop (max iterations, NaN in the parameters or
# early stopping)
done = a.n_iter
while done > 1 and vals[done - 1] == 0.0:
    done -= 1
series = [(i, vals[i]) for i in range(0, done, every)]
series.append((done, vals[done - 1]))
val_series = None
if out[10] is not None:
    vv = np.asarray(out[10], dtype=np.float64)
    val_series = [(i, vv[i]) for i in range(0, done, every)]

write_truth(framework=f"jinns {version('jinns')}",
            settings=vars(a), loss_name="loss value (the total PINN loss)",
            step_unit="iteration, 0-based (`[train] Iteration 50:`), the last as `Final iteration 500:`",
            tolerance=tol_sig(7),
            record="`total_loss_values`, the per-iteration array `jinns.solve` returns, at the printed iterations",
            train_loss=series, eval_loss=val_series, eval_name="validation loss" if val_series else None)
