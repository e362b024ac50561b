"""PyOD 3.6: a deep outlier detector (``AutoEncoder``, ``VAE``, ``DeepSVDD``) fitted on synthetic tabular data.

``AutoEncoder`` and ``VAE`` train through PyOD's ``BaseDeepLearningDetector``: with ``verbose=2`` it prints a line
an epoch, ``Epoch 3/20, loss=0.1234, time=0.05s`` (the epoch's mean batch loss, 4 decimals), inside a
``tqdm.trange`` bar that it disables at that verbosity; ``DeepSVDD`` has its own loop printing ``Epoch 3/40,
Loss: 12.345678901`` (the epoch's summed batch losses, as Python prints a float). Truth: the same numbers, taken
where the detector computes them (``training_forward``'s losses averaged per epoch; DeepSVDD's print).
"""

from __future__ import annotations

import argparse

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="ae", choices=["ae", "vae", "svdd"])
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optim", default="adam", choices=["adam", "sgd"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import builtins  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
from pyod.utils.data import generate_data  # noqa: E402

torch.set_num_threads(1)
X, _, y, _ = generate_data(n_train=1200, n_test=10, n_features=12, contamination=0.05, random_state=0)
losses: list[tuple[int, float]] = []
if a.model == "svdd":
    import pyod.models.deep_svdd as svdd  # noqa: E402

    def kept_print(*args, **kwargs):  # the detector's own print, its number kept as printed
        s = " ".join(str(x) for x in args)
        if s.startswith("Epoch ") and ", Loss: " in s:
            losses.append((int(s.split()[1].split("/")[0]), float(s.rsplit(" ", 1)[1])))
        builtins.print(*args, **kwargs)

    svdd.print = kept_print
    det = svdd.DeepSVDD(n_features=X.shape[1], epochs=a.epochs, learning_rate=a.lr, optimizer=a.optim, verbose=1,
                        random_state=0)
    record = "DeepSVDD's epoch_loss (the sum of the epoch's batch losses), as it prints it"
else:
    from pyod.models.auto_encoder import AutoEncoder  # noqa: E402
    from pyod.models.vae import VAE  # noqa: E402

    base = AutoEncoder if a.model == "ae" else VAE

    class Kept(base):  # type: ignore[misc,valid-type]
        """The detector, its per-batch losses kept to average per epoch as it does."""

        batch: list[float] = []

        def training_forward(self, batch_data):
            v = super().training_forward(batch_data)
            self.batch.append(v)
            return v

        def epoch_update(self):
            losses.append((len(losses) + 1, float(np.mean(self.batch))))
            self.batch.clear()
            return super().epoch_update()

    det = Kept(epoch_num=a.epochs, lr=a.lr, optimizer_name=a.optim, verbose=2, random_state=0)
    record = "the epoch's mean batch loss (BaseDeepLearningDetector.train's overall_loss), printed '.4f'"
try:
    det.fit(X)
    print(f"fitted {a.model}: threshold {det.threshold_:.4f}, "
          f"{int(det.labels_.sum())} of {len(det.labels_)} training points flagged")
finally:  # a fit that fails (scoring NaN) is a real outcome: its epochs are the truth
    write_truth(framework=f"pyod {a.model}", settings=vars(a), label=a.label, should_stop=a.should_stop,
                loss_name="loss" if a.model != "svdd" else "Loss", step_unit="epoch, 1-based (as printed)",
                tolerance={"rel": 1e-9, "abs": 5.1e-5} if a.model != "svdd" else {"rel": 1e-9, "abs": 1e-12},
                record=record, train_loss=losses)
