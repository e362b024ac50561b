"""NetKet: a neural-network quantum state (RBM, symmetric RBM, Jastrow or MLP) trained by variational Monte Carlo on
a small spin Hamiltonian (transverse-field Ising chain or square, Heisenberg chain), as its tutorials do:
``nk.driver.VMC`` (optionally with the ``SR`` preconditioner) or ``nk.driver.VMC_SR``, an optimizer of
``nk.optimizer`` (an optax learning rate or schedule), and ``gs.run(n_iter, out=nk.logging.JsonLog(...))``. NetKet
shows its tqdm progress bar on stderr (no TTY: ``\\r`` redraws on one line), the loss in its postfix
(``Energy=-9.430 ± 0.083 [σ²=3.5e+00, R̂=1.014]``, the decimals set by the error), and writes the JSON log.
Truth: that JSON log (``Energy`` ``Mean`` at its ``iters``, the driver's step count, 0-based)."""

from __future__ import annotations

import argparse
import json
import math

from h56_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--system", default="ising1d", choices=["ising1d", "ising2d", "heisenberg1d"])
ap.add_argument("--L", type=int, default=8)
ap.add_argument("--h", type=float, default=1.0, help="transverse field of the Ising models")
ap.add_argument("--ansatz", default="rbm", choices=["rbm", "rbmsymm", "jastrow", "mlp"])
ap.add_argument("--alpha", type=int, default=1)
ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "momentum", "rmsprop"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--growth", type=float, default=1.0, help="the rate is multiplied by this every step (optax)")
ap.add_argument("--driver", default="vmc", choices=["vmc", "vmc_sr"])
ap.add_argument("--sr", type=float, default=0.0, help="SR diagonal shift (0: no preconditioner)")
ap.add_argument("--samples", type=int, default=512)
ap.add_argument("--chains", type=int, default=16)
ap.add_argument("--fullsum", action="store_true", help="exact expectation values (FullSumState)")
ap.add_argument("--iters", type=int, default=40)
ap.add_argument("--obs", action="store_true", help="also log the magnetization")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import netket as nk  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

if a.system == "ising2d":
    graph = nk.graph.Square(length=a.L, pbc=True)
else:
    graph = nk.graph.Chain(length=a.L, pbc=True)
if a.system == "heisenberg1d":
    hilbert = nk.hilbert.Spin(s=1 / 2, N=graph.n_nodes, total_sz=0)
    ham = nk.operator.Heisenberg(hilbert=hilbert, graph=graph)
    sampler = nk.sampler.MetropolisExchange(hilbert, graph=graph, n_chains=a.chains)
else:
    hilbert = nk.hilbert.Spin(s=1 / 2, N=graph.n_nodes)
    ham = nk.operator.Ising(hilbert=hilbert, graph=graph, h=a.h)
    sampler = nk.sampler.MetropolisLocal(hilbert, n_chains=a.chains)

if a.ansatz == "rbm":
    model = nk.models.RBM(alpha=a.alpha, param_dtype=float)
elif a.ansatz == "rbmsymm":
    model = nk.models.RBMSymm(symmetries=graph.translation_group(), alpha=a.alpha, param_dtype=float)
elif a.ansatz == "jastrow":
    model = nk.models.Jastrow(param_dtype=float)
else:
    model = nk.models.MLP(hidden_dims=(a.alpha * graph.n_nodes,), param_dtype=float)

if a.fullsum:
    vstate = nk.vqs.FullSumState(hilbert, model, seed=0)
else:
    vstate = nk.vqs.MCState(sampler, model, n_samples=a.samples, seed=0, sampler_seed=1)

lr = a.lr if a.growth == 1.0 else optax.exponential_decay(a.lr, transition_steps=1, decay_rate=a.growth)
opt = {"sgd": nk.optimizer.Sgd, "adam": nk.optimizer.Adam, "momentum": nk.optimizer.Momentum,
       "rmsprop": nk.optimizer.RmsProp}[a.optimizer](learning_rate=lr)
if a.driver == "vmc_sr":
    gs = nk.driver.VMC_SR(ham, opt, diag_shift=a.sr or 0.01, variational_state=vstate)
else:
    precond = nk.optimizer.SR(diag_shift=a.sr) if a.sr > 0 else nk.optimizer.identity_preconditioner
    gs = nk.driver.VMC(ham, opt, variational_state=vstate, preconditioner=precond)

log = nk.logging.JsonLog("vmc", save_params=False)
obs = {"Magnetization": sum(nk.operator.spin.sigmaz(hilbert, i) for i in range(graph.n_nodes)) * (1 / graph.n_nodes)}
gs.run(n_iter=a.iters, out=log, obs=obs if a.obs else None)
log.flush()

keep("vmc.log")
with open("vmc.log") as f:
    data = json.load(f)
energy = data["Energy"]
means = [None if m is None else float(m) for m in energy["Mean"]]
sigmas = [None if s is None else float(s) for s in energy["Sigma"]]


def printed_decimals(mean: float | None, std: float | None) -> int | None:
    """The decimals NetKet prints a mean with (its ``_format_main_string``: ``-9.430 ± 0.083``, as many decimals as
    the error's first digit and one more; ``-3.000e+00`` with no error), or None (non-finite, or tiny values)."""
    if mean is None or std is None or not (math.isfinite(mean) and math.isfinite(std)):
        return None
    if std == 0.0:
        return 3 - int(math.floor(math.log10(abs(mean)))) if mean != 0 else 3
    if abs(mean) + abs(std) < 1e-2 or abs(std) <= 1e-7:
        return None
    return 15 if std < 1e-15 else max(int(np.ceil(-np.log10(std))), 0) + 1


decs = [d for d in (printed_decimals(m, s) for m, s in zip(means, sigmas, strict=True)) if d is not None]
tolerance = {"rel": 1e-9, "abs": round(0.51 * 10.0 ** -min(decs), min(decs) + 3)}
write_truth(framework=f"netket {nk.__version__}", settings=vars(a), loss_name="Energy",
            step_unit="driver step, 0-based (the JSON log's `iters`)", tolerance=tolerance,
            record="its JSON log `vmc.log` (`Energy` `Mean` at `iters`)",
            train_loss=list(zip(energy["iters"], means, strict=True)),
            energy_sigma=[[i, s] for i, s in zip(energy["iters"], sigmas, strict=True)])
