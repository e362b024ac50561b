"""RecBole: a general recommender (BPR, NeuMF, LightGCN ...) trained by its ``Trainer`` on a synthetic implicit-
feedback dataset written as RecBole atomic files (``syn.inter``), the way its quick start does
(``Config`` -> ``create_dataset`` -> ``data_preparation`` -> ``Trainer.fit``), with its default logger (console, and
its log file under ``log/``): ``epoch 3 training [time: 0.12s, train loss: 45.1234]``, evaluation lines and a
``valid result:`` block. Truth: ``Trainer.train_loss_dict`` (the epoch's summed train loss, per 0-based epoch)."""

from __future__ import annotations

import argparse
import glob
import os

import numpy as np
from h4_truth import keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="BPR")
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.001)
ap.add_argument("--optimizer", default="adam")
ap.add_argument("--eval-step", type=int, default=1)
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--show-progress", action="store_true")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

rng = np.random.default_rng(0)
os.makedirs("data/syn", exist_ok=True)
n_users, n_items = 120, 200
with open("data/syn/syn.inter", "w") as f:
    f.write("user_id:token\titem_id:token\trating:float\ttimestamp:float\n")
    t = 0
    taste = rng.normal(size=(n_users, 4))
    items = rng.normal(size=(n_items, 4))
    for u in range(n_users):
        score = items @ taste[u] + 0.5 * rng.normal(size=n_items)
        for i in np.argsort(-score)[:25]:
            t += 1
            f.write(f"{u + 1}\t{i + 1}\t{int(rng.integers(1, 6))}\t{t}\n")

# RecBole 1.2.1's Config aliases numpy names that numpy 2 removed; the usual user shim, before it runs
for _old, _new in (("float_", np.float64), ("complex_", np.complex128), ("unicode_", np.str_)):
    setattr(np, _old, _new)

from recbole.config import Config  # noqa: E402
from recbole.data import create_dataset, data_preparation  # noqa: E402
from recbole.utils import get_model, get_trainer, init_logger, init_seed  # noqa: E402

cfg = {"data_path": "data", "epochs": a.epochs, "learning_rate": a.lr, "learner": a.optimizer,
       "train_batch_size": a.batch, "eval_step": a.eval_step, "show_progress": a.show_progress,
       "seed": 0, "reproducibility": True, "use_gpu": False, "stopping_step": 1000,
       "checkpoint_dir": "saved", "metrics": ["Recall", "NDCG"], "topk": [10], "valid_metric": "NDCG@10",
       "load_col": {"inter": ["user_id", "item_id", "rating", "timestamp"]}, "worker": 0}
config = Config(model=a.model, dataset="syn", config_dict=cfg)
init_seed(config["seed"], config["reproducibility"])
init_logger(config)
dataset = create_dataset(config)
train_data, valid_data, test_data = data_preparation(config, dataset)
model = get_model(config["model"])(config, train_data._dataset).to(config["device"])
trainer = get_trainer(config["MODEL_TYPE"], config["model"])(config, model)
try:
    trainer.fit(train_data, valid_data, saved=False, show_progress=config["show_progress"])
except ValueError as e:  # RecBole raises on a NaN loss ("Training loss is nan")
    print(f"ValueError: {e}", flush=True)

import recbole  # noqa: E402

logs = glob.glob("log/**/*.log", recursive=True)
for p in logs:
    keep(p, "recbole.log")
train = sorted(trainer.train_loss_dict.items())
kw = dict(framework=f"recbole {recbole.__version__}", settings=vars(a), loss_name="train loss",
          step_unit="epoch, 0-based (`epoch N training`)", tolerance=tol_decimals(4),
          record="Trainer.train_loss_dict (the epoch's summed batch losses)", train_loss=train)
write_truth(**kw)
if len(logs) == 1:  # its own log file (the console's records without colour) is a file a user points at too
    write_truth(**kw, name="truth_store.json", file="recbole.log")
