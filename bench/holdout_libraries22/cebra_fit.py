"""CEBRA: its scikit-learn estimator (``cebra.CEBRA``) fitted with ``verbose=True`` on a small synthetic recording (a
latent trajectory seen through noisy channels), self-supervised by time or supervised by a continuous label, as its
quick start shows. Its progress is a tqdm bar on stderr whose description is the step's losses, redrawn with ``\\r``
at every step: ``pos: -0.4140 neg:  5.8122 total:  5.3982 temperature:  1.0000:   6%|...| 13/200 [00:00<00:02,
64.42it/s]`` (``{: .4f}``). Truth: the solver's own log of the training loss, ``state_dict_["log"]["total"]`` (one
value a step, the InfoNCE loss of that step's batch), at the step, 1-based."""

from __future__ import annotations

import argparse

import numpy as np
from h22_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--arch", default="offset10-model")
ap.add_argument("--lr", type=float, default=3e-4)
ap.add_argument("--iters", type=int, default=200)
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--dim", type=int, default=3)
ap.add_argument("--distance", default="cosine", choices=["cosine", "euclidean"])
ap.add_argument("--conditional", default="time", choices=["time", "time_delta"])
ap.add_argument("--temperature", type=float, default=1.0)
ap.add_argument("--samples", type=int, default=2000)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import cebra  # noqa: E402

rng = np.random.default_rng(0)
t = np.linspace(0, 20, a.samples)
latent = np.stack([np.sin(t), np.cos(t), np.sin(2 * t), np.cos(2 * t)], axis=1)
X = (rng.normal(size=(a.samples, 20)) + latent @ rng.normal(size=(4, 20))).astype("float32")
model = cebra.CEBRA(model_architecture=a.arch, batch_size=a.batch, learning_rate=a.lr, max_iterations=a.iters,
                    output_dimension=a.dim, distance=a.distance, conditional=a.conditional,
                    temperature=a.temperature, time_offsets=10, device="cpu", verbose=True)
if a.conditional == "time":
    model.fit(X)
else:
    model.fit(X, latent[:, :2].astype("float32"))

total = [float(v) for v in model.state_dict_["log"]["total"]]
write_truth(framework=f"cebra {cebra.__version__}", settings=vars(a), loss_name="total",
            step_unit="training step, 1-based (one a bar update)", tolerance=tol_decimals(4),
            record='the solver\'s log, `state_dict_["log"]["total"]` (CEBRA.fit)',
            train_loss=[(i + 1, v) for i, v in enumerate(total)])
