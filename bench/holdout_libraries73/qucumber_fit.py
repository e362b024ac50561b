"""QuCumber: neural-network quantum state tomography, a restricted Boltzmann machine wavefunction
(``PositiveWaveFunction``) fitted by contrastive divergence to measurement samples of a small target state, as its
tutorials do: ``nn_state.fit(samples, epochs, pos_batch_size, neg_batch_size, k, lr, callbacks=[MetricEvaluator(
period, {"Fidelity": ts.fidelity, "KL": ts.KL}, target=psi, space=space, verbose=True, log=...)], time=True)``. The
target is the ground state of a small transverse-field Ising chain (exact diagonalisation here, no download), sampled
in the computational basis. QuCumber's ``MetricEvaluator`` prints ``Epoch: 10\tFidelity = 0.912345\tKL =
0.012345`` (6 decimals) every ``period`` epochs and writes the same values to its CSV log; ``fit(time=True)`` closes
with ``Total time elapsed during training: 1.234 s``. Truth: the evaluator's own record (``MetricEvaluator.KL`` at
``MetricEvaluator.epochs``, 1-based epochs)."""

from __future__ import annotations

import argparse

from h73_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--qubits", type=int, default=5)
ap.add_argument("--hidden", type=int, default=5)
ap.add_argument("--field", type=float, default=1.0)
ap.add_argument("--samples", type=int, default=2000)
ap.add_argument("--epochs", type=int, default=100)
ap.add_argument("--period", type=int, default=10)
ap.add_argument("--pbs", type=int, default=100)
ap.add_argument("--nbs", type=int, default=100)
ap.add_argument("--k", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--optimizer", default="SGD")
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR each epoch when > 0")
ap.add_argument("--kl-only", action="store_true")
ap.add_argument("--progbar", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import qucumber  # noqa: E402
import qucumber.utils.training_statistics as ts  # noqa: E402
import torch  # noqa: E402
from qucumber.callbacks import MetricEvaluator  # noqa: E402
from qucumber.nn_states import PositiveWaveFunction  # noqa: E402

qucumber.set_random_seed(1234, cpu=True, gpu=False)

# the target: the ground state of H = -sum Z_i Z_{i+1} - h sum X_i (open chain), in the computational basis
n = a.qubits
X = np.array([[0.0, 1.0], [1.0, 0.0]])
Z = np.diag([1.0, -1.0])


def site_op(op: np.ndarray, i: int) -> np.ndarray:
    out = np.eye(1)
    for j in range(n):
        out = np.kron(out, op if j == i else np.eye(2))
    return out


H = sum(-site_op(Z, i) @ site_op(Z, i + 1) for i in range(n - 1)) + sum(-a.field * site_op(X, i) for i in range(n))
_, vecs = np.linalg.eigh(H)
amp = np.abs(vecs[:, 0])
probs = amp ** 2 / (amp ** 2).sum()
rng = np.random.default_rng(0)
idx = rng.choice(len(probs), size=a.samples, p=probs)
samples = ((idx[:, None] >> np.arange(n - 1, -1, -1)) & 1).astype("float32")

nn_state = PositiveWaveFunction(num_visible=n, num_hidden=a.hidden, gpu=False)
space = nn_state.generate_hilbert_space()
psi = torch.tensor(amp / np.linalg.norm(amp), dtype=torch.double)
target = torch.stack([psi, torch.zeros_like(psi)])  # qucumber's complex layout: [real; imaginary]
metrics = {"KL": ts.KL} if a.kl_only else {"Fidelity": ts.fidelity, "KL": ts.KL}
evaluator = MetricEvaluator(a.period, metrics, target=target, space=space, verbose=True, log="metrics.csv")
opt = getattr(torch.optim, a.optimizer)
sched, sched_args = (torch.optim.lr_scheduler.ExponentialLR, {"gamma": a.gamma}) if a.gamma > 0 else (None, None)
nn_state.fit(samples, epochs=a.epochs, pos_batch_size=a.pbs, neg_batch_size=a.nbs, k=a.k, lr=a.lr,
             progbar=a.progbar, time=True, callbacks=[evaluator], optimizer=opt, scheduler=sched,
             scheduler_args=sched_args)

keep("metrics.csv")
write_truth(framework=f"qucumber {qucumber.__version__}", settings=vars(a), loss_name="KL",
            step_unit="epoch, 1-based (`Epoch: 10`), every `period` epochs", tolerance=tol_decimals(6),
            record="QuCumber's `MetricEvaluator` (`evaluator.KL` at `evaluator.epochs`)",
            train_loss=list(zip(evaluator.epochs.tolist(), evaluator.KL.tolist(), strict=True)))
