"""optimistix: ``OptaxMinimiser`` (an optax optimizer: adam, sgd, momentum sgd, rmsprop) with ``verbose=True``,
stepped as its "interactive solving" how-to shows (``solver.init``, then ``solver.step`` and ``solver.terminate``
under ``eqx.filter_jit`` until it terminates or a step budget ends), on a small problem: Rosenbrock's function, or a
least-squares curve fit (``a * exp(-b t) + c`` to noisy samples, the sum of squared residuals). Its verbose printing
is ``jax.debug.print`` on stdout, one line a step:
``Step: 2, Loss on this step: 18.62852668762207, y: [-1.1800321  1.019971 ]`` (the loss as a Python float).
Truth: the solver state's ``f`` after each step (the loss evaluated at that step), at the step number the line
prints (0-based)."""

from __future__ import annotations

import argparse
import os

from h27_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--problem", default="rosenbrock", choices=["rosenbrock", "curvefit"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "momentum", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--steps", type=int, default=100, help="the step budget")
ap.add_argument("--rtol", type=float, default=1e-6)
ap.add_argument("--atol", type=float, default=1e-6)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
import optimistix as optx  # noqa: E402

if a.problem == "rosenbrock":
    def fn(y, args):
        return jnp.sum(100.0 * (y[1:] - y[:-1] ** 2) ** 2 + (1.0 - y[:-1]) ** 2)

    y0 = jnp.array([-1.2, 1.0])
    args = None
else:
    rng = np.random.default_rng(0)
    t = np.linspace(0.0, 4.0, 40)
    obs = 2.5 * np.exp(-1.3 * t) + 0.5 + rng.normal(scale=0.05, size=t.size)

    def fn(y, args):
        tt, oo = args
        return jnp.sum((y[0] * jnp.exp(-y[1] * tt) + y[2] - oo) ** 2)

    y0 = jnp.array([1.0, 0.5, 0.0])
    args = (jnp.asarray(t, jnp.float32), jnp.asarray(obs, jnp.float32))

optim = {"adam": optax.adam(a.lr), "sgd": optax.sgd(a.lr), "momentum": optax.sgd(a.lr, momentum=0.9),
         "rmsprop": optax.rmsprop(a.lr)}[a.optimizer]
solver = optx.OptaxMinimiser(optim, rtol=a.rtol, atol=a.atol, verbose=True)

f_struct = jax.ShapeDtypeStruct((), jnp.float32)
aux_struct = None
tags: frozenset[object] = frozenset()
options: dict[str, object] = {}


def wrapped(y, args):
    return fn(y, args), None


step = eqx.filter_jit(eqx.Partial(solver.step, fn=wrapped, args=args, options=options, tags=tags))
terminate = eqx.filter_jit(eqx.Partial(solver.terminate, fn=wrapped, args=args, options=options, tags=tags))

y = y0
state = solver.init(wrapped, y, args, options, f_struct, aux_struct, tags)
done, result = terminate(y=y, state=state)
record: list[tuple[int, float]] = []
while not bool(done) and len(record) < a.steps:
    n = int(state.step)
    y, state, _ = step(y=y, state=state)
    record.append((n, float(state.f)))
    done, result = terminate(y=y, state=state)
jax.effects_barrier()
print(f"done after {len(record)} steps: {result}, y = {y}")

write_truth(framework=f"optimistix {optx.__version__}", settings=vars(a), loss_name="Loss on this step",
            step_unit="step, 0-based (`Step: N`)", tolerance=tol_sig(7),
            record="the solver state's `f` after each `OptaxMinimiser.step` (interactive stepping)",
            train_loss=record)
