"""sbi 0.2x: neural posterior estimation (``NPE``) on a simulator of a few parameters, trained by
``append_simulations(...).train()``. On stdout only ``\\r Training neural network. Epochs trained: N`` redraws and,
with ``show_train_summary``, a ``ROUND 1 STATS`` box (``Epochs trained``, ``Best validation performance``); the
losses go to the inference's TensorBoard writer (``sbi-logs/NPE_C/<date>/events.out.tfevents.*``): per epoch
``training_loss`` and ``validation_loss``, written when training ends.

Truth: that event file's ``training_loss`` at its epoch (0-based). The log prints no per-epoch loss: only the event
file is scored (``log_scored`` false).
"""

from __future__ import annotations

import argparse
import glob

from lib_truth import keep, seed_all, store_entry, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--estimator", default="mdn")
ap.add_argument("--sims", type=int, default=1000)
ap.add_argument("--epochs", type=int, default=40)
ap.add_argument("--lr", type=float, default=5e-4)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from sbi.inference import NPE  # noqa: E402
from sbi.utils import BoxUniform  # noqa: E402

torch.set_num_threads(1)
prior = BoxUniform(low=-2 * torch.ones(3), high=2 * torch.ones(3))
theta = prior.sample((a.sims,))
x = torch.stack([theta[:, 0] + theta[:, 1] ** 2, theta[:, 1] * theta[:, 2], theta.sum(1)], 1)
x = x + 0.1 * torch.randn_like(x)
inf = NPE(prior=prior, density_estimator=a.estimator)
inf.append_simulations(theta, x).train(max_num_epochs=a.epochs, learning_rate=a.lr, stop_after_epochs=1000,
                                       show_train_summary=True)
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

ev = glob.glob("sbi-logs/*/*/events.out.tfevents.*")[0]
acc = EventAccumulator(ev, size_guidance={"scalars": 0})
acc.Reload()
pts = [(e.step, e.value) for e in acc.Scalars("training_loss")]
keep(ev, "events.out.tfevents.sbi")
write_truth(framework=f"sbi NPE ({a.estimator})", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="training_loss", step_unit="epoch, 0-based (the writer's step)",
            tolerance={"rel": 1e-6, "abs": 1e-9}, record="the inference's TensorBoard event file, training_loss",
            train_loss=pts, val_loss=[(e.step, e.value) for e in acc.Scalars("validation_loss")],
            log_scored=False)
store_entry("events.out.tfevents.sbi", "truth.json")
