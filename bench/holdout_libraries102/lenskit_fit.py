"""LensKit: a FlexMF matrix-factorization scorer (PyTorch, ``lenskit.flexmf``) trained by its own ``train`` on a
synthetic low-rank rating set (a ``pandas`` frame through ``lenskit.data.from_interactions_df``; no download), with
LensKit's logging set up as its docs say for scripts (``lenskit.logging.LoggingConfig``: console on stderr, ``full``
or ``json`` stream, ``set_verbose`` for DEBUG, and a JSON log file). Explicit feedback (biased MF, MSE, its L2 or
AdamW regularization or none) or implicit (``logistic``, ``pairwise`` or ``warp`` loss over sampled negatives). LensKit
logs ``finished epoch`` after every epoch with ``epoch=3 loss=0.4057...``. Truth: the JSON log file LensKit writes
(``LoggingConfig.set_log_file``), its ``finished epoch`` events' ``loss`` at ``epoch`` (1-based); the file is not
kept."""

from __future__ import annotations

import argparse
import json
import logging

from h102_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--feedback", default="explicit", choices=["explicit", "implicit"])
ap.add_argument("--loss", default="logistic", choices=["logistic", "pairwise", "warp"])
ap.add_argument("--reg", default="default", choices=["default", "L2", "AdamW", "none"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--emb", type=int, default=8)
ap.add_argument("--batch", type=int, default=512)
ap.add_argument("--users", type=int, default=300)
ap.add_argument("--items", type=int, default=200)
ap.add_argument("--n", type=int, default=6000)
ap.add_argument("--stream", default="full", choices=["full", "json"])
ap.add_argument("--verbose", action="store_true")
ap.add_argument("--compile", action="store_true", help="leave LensKit's torch.compile on (its default)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from lenskit.logging import LoggingConfig  # noqa: E402

lc = LoggingConfig()
lc.set_stream_mode(a.stream)
if a.verbose:
    lc.set_verbose(True)
lc.set_log_file("lenskit-log.json", level=logging.INFO)
lc.apply()

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from lenskit import __version__  # noqa: E402
from lenskit.data import from_interactions_df  # noqa: E402
from lenskit.flexmf import FlexMFExplicitScorer, FlexMFImplicitScorer  # noqa: E402
from lenskit.training import TrainingOptions  # noqa: E402

rng = np.random.default_rng(0)
U = rng.normal(size=(a.users, 4))
V = rng.normal(size=(a.items, 4))
u = rng.integers(a.users, size=a.n)
i = rng.integers(a.items, size=a.n)
r = np.clip(np.round(3 + 0.5 * (U[u] * V[i]).sum(1) + rng.normal(0, 0.3, a.n), 1), 0.5, 5.0)
df = pd.DataFrame({"user_id": u, "item_id": i, "rating": r}).drop_duplicates(["user_id", "item_id"])
if a.feedback == "implicit":
    df = df[df["rating"] >= 3.0][["user_id", "item_id"]]
data = from_interactions_df(df)

kw: dict = dict(embedding_size=a.emb, epochs=a.epochs, batch_size=a.batch, learning_rate=a.lr)
if a.reg != "default":
    kw["reg_method"] = None if a.reg == "none" else a.reg
if a.feedback == "explicit":
    model = FlexMFExplicitScorer(**kw)
else:
    model = FlexMFImplicitScorer(loss=a.loss, **kw)
env = {} if a.compile else {"LK_TORCH_COMPILE": "0"}
model.train(data, TrainingOptions(rng=0, environment=env))

events = [json.loads(ln) for ln in open("lenskit-log.json")]
epochs = [e for e in events if e.get("event") == "finished epoch"]
write_truth(framework=f"lenskit {__version__}", settings=vars(a), loss_name="loss",
            step_unit="epoch, 1-based (`epoch=3`)", tolerance={"rel": 1e-09, "abs": 0.0},
            record="LensKit's JSON log file (`LoggingConfig.set_log_file`): the `loss` of its `finished epoch` "
                   "events at their `epoch`",
            train_loss=[(e["epoch"], e["loss"]) for e in epochs])
