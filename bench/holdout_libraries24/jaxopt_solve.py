"""jaxopt: a small model fitted by jaxopt's solvers with ``verbose=True`` (``LBFGS``, ``NonlinearCG``, ``PolyakSGD``,
``OptaxSolver`` around an optax optimizer), on synthetic data, stepped as jaxopt's documentation shows
(``state = solver.init_state(...)``, then ``params, state = solver.update(params, state, ...)``; full batch, or
minibatches for the stochastic solvers). With ``verbose`` each update prints, through ``jax.debug.print`` (stdout,
block-buffered): ``INFO: jaxopt.LBFGS: Iter: 3 Gradient Norm (stopping criterion): 0.11 Objective Value:0.52
Stepsize:1.0 ...``. Truth: the solver's own state after each update, ``state.value`` (the objective it printed) at
``state.iter_num`` (1-based; for the minibatch runs a minibatch's objective)."""

from __future__ import annotations

import argparse

from h24_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--solver", default="lbfgs", choices=["lbfgs", "ncg", "polyak", "optax"])
ap.add_argument("--opt", default="adam", choices=["adam", "sgd", "momentum", "rmsprop"])
ap.add_argument("--task", default="mlp", choices=["mlp", "logreg", "ridge"])
ap.add_argument("--lr", type=float, default=1e-2)
ap.add_argument("--growth", type=float, default=1.0, help="optax exponential_decay rate per step (> 1 grows)")
ap.add_argument("--iters", type=int, default=40, help="updates (full batch) or epochs (--batch)")
ap.add_argument("--batch", type=int, default=0, help="minibatch size (0: full batch)")
ap.add_argument("--n", type=int, default=256)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jaxopt  # noqa: E402
import numpy as np  # noqa: E402

rng = np.random.default_rng(0)
X = rng.normal(size=(a.n, 4)).astype(np.float32)
if a.task == "logreg":
    y = (X @ np.array([1.5, -2.0, 0.5, 0.0]) + 0.3 * rng.normal(size=a.n) > 0).astype(np.float32)
elif a.task == "ridge":
    y = (X @ np.array([2.0, -1.0, 0.5, 3.0]) + 0.5 * rng.normal(size=a.n)).astype(np.float32)
else:
    y = (np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=a.n)).astype(np.float32)
key = jax.random.PRNGKey(0)
if a.task == "mlp":
    k1, k2 = jax.random.split(key)
    params = {"W1": 0.5 * jax.random.normal(k1, (4, 16)), "b1": jnp.zeros(16),
              "W2": 0.5 * jax.random.normal(k2, (16,)), "b2": jnp.zeros(())}
else:
    params = {"w": jnp.zeros(4), "b": jnp.zeros(())}


def loss_fn(p, xb, yb):
    if a.task == "mlp":
        pred = jnp.tanh(xb @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
        return jnp.mean((pred - yb) ** 2)
    z = xb @ p["w"] + p["b"]
    if a.task == "logreg":
        return jnp.mean(jnp.logaddexp(0.0, z) - yb * z)
    return jnp.mean((z - yb) ** 2) + 1e-3 * jnp.sum(p["w"] ** 2)


if a.solver == "lbfgs":
    solver = jaxopt.LBFGS(fun=loss_fn, maxiter=a.iters, verbose=True)
elif a.solver == "ncg":
    solver = jaxopt.NonlinearCG(fun=loss_fn, maxiter=a.iters, verbose=True)
elif a.solver == "polyak":
    solver = jaxopt.PolyakSGD(fun=loss_fn, maxiter=a.iters, max_stepsize=a.lr, verbose=True)
else:
    import optax

    lr = optax.exponential_decay(a.lr, 1, a.growth) if a.growth != 1.0 else a.lr
    opt = {"adam": optax.adam, "sgd": optax.sgd, "rmsprop": optax.rmsprop,
           "momentum": lambda r: optax.sgd(r, momentum=0.9)}[a.opt](lr)
    solver = jaxopt.OptaxSolver(opt=opt, fun=loss_fn, maxiter=a.iters, verbose=True)

if a.batch:
    batches = [(X[i:i + a.batch], y[i:i + a.batch]) for i in range(0, a.n, a.batch)]
    plan = [batches[i % len(batches)] for i in range(a.iters * len(batches))]
else:
    plan = [(X, y)] * a.iters
state = solver.init_state(params, *plan[0])
record = []
for xb, yb in plan:
    params, state = solver.update(params, state, xb, yb)
    record.append((int(state.iter_num), float(state.value)))

write_truth(framework=f"jaxopt {version('jaxopt')}", settings=vars(a), loss_name="Objective Value",
            step_unit="iteration, 1-based (`Iter: N`; one minibatch an iteration with --batch)",
            tolerance=tol_sig(7), record="the solver's state after each `update`: `state.value` at `state.iter_num`",
            train_loss=record, **({"steps_per_epoch": a.n // a.batch + bool(a.n % a.batch)} if a.batch else {}))
