"""DeepPavlov: a tiny CNN text classifier (its ``torch_text_classification_model`` over tokens one-hotted by its
``one_hotter``, no download) trained with its own command, ``python -m deeppavlov train config.json`` (called
in-process, as the module does), on a synthetic sentence set it reads with its ``basic_classification_reader`` (CSV
files written here). Its ``torch_trainer`` logs a JSON report a line (``{"train": {"eval_examples_count": 32,
"metrics": {"accuracy": 0.5, "f1_macro": 0.4}, "time_spent": "0:00:01", "epochs_done": 3, "batches_seen": 30,
"train_examples_seen": 480, "loss": 0.6931}}``, full float repr), ``{"valid": ...}`` reports, its own messages and a
tqdm bar per epoch. Truth: the scalars it writes to its TensorBoard logger (``tensorboard_log_dir``: ``train_log``,
``every_n_epochs/loss`` at the epoch or ``every_n_batches/loss`` at the batch count), read back with TensorBoard's
``EventAccumulator``."""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from pathlib import Path

from h81_truth import keep, seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--optimizer", default="Adam")
ap.add_argument("--lr", type=float, default=0.003)
ap.add_argument("--momentum", type=float, default=None)
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--n", type=int, default=320)
ap.add_argument("--classes", type=int, default=3)
ap.add_argument("--every-batches", type=int, default=-1, help="log_every_n_batches (else every epoch)")
ap.add_argument("--no-val", action="store_true")
ap.add_argument("--drop-patience", type=int, default=None, help="learning_rate_drop_patience (div 2)")
ap.add_argument("--clip", type=float, default=None)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
os.environ.setdefault("DP_SKIP_NLTK_DOWNLOAD", "1")  # no network: its nltk data are not needed here
seed_all(0)

import numpy as np  # noqa: E402

rng = np.random.default_rng(0)
words = [f"w{i}" for i in range(60)]
keys = [[f"k{c}{j}" for j in range(4)] for c in range(a.classes)]


def sentence(c: int) -> str:
    toks = list(rng.choice(words, size=int(rng.integers(5, 12))))
    for _ in range(int(rng.integers(1, 3))):
        toks.insert(int(rng.integers(len(toks))), str(rng.choice(keys[c])))
    if rng.random() < 0.15:  # label noise keeps the loss above 0
        toks.insert(int(rng.integers(len(toks))), str(rng.choice(keys[(c + 1) % a.classes])))
    return " ".join(toks)


data = Path("data").resolve()
data.mkdir()
for split, n in (("train", a.n), ("valid", a.n // 4), ("test", a.n // 4)):
    with open(data / f"{split}.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["text", "label"])
        for _ in range(n):
            c = int(rng.integers(a.classes))
            w.writerow([sentence(c), f"class_{c}"])

model_path = Path("model").resolve()
opt_params: dict = {"lr": a.lr}
if a.momentum is not None:
    opt_params["momentum"] = a.momentum
clf = {"in": ["x_emb"], "in_y": ["y_ids"], "out": ["y_pred_probas"], "main": True,
       "class_name": "torch_text_classification_model", "save_path": "{MODEL_PATH}/model",
       "load_path": "{MODEL_PATH}/model", "embedding_size": "#token_vocab.len", "n_classes": "#classes_vocab.len",
       "kernel_sizes_cnn": [1, 2, 3], "filters_cnn": 16,
       "dense_size": 16, "dropout_rate": 0.1, "device": "cpu", "optimizer": a.optimizer,
       "optimizer_parameters": opt_params}
if a.drop_patience is not None:
    clf.update(learning_rate_drop_patience=a.drop_patience, learning_rate_drop_div=2.0)
if a.clip is not None:
    clf["clip_norm"] = a.clip
train = {"epochs": a.epochs, "batch_size": a.batch, "metrics": ["accuracy", "f1_macro"],
         "validation_patience": 100, "show_examples": False, "class_name": "torch_trainer",
         "tensorboard_log_dir": "{MODEL_PATH}/logs",
         "evaluation_targets": ["train", "test"] if a.no_val else ["train", "valid", "test"]}
if a.every_batches > 0:
    train["log_every_n_batches"] = a.every_batches
else:
    train["log_every_n_epochs"] = 1
if a.no_val:
    train["validate_first"] = False
else:
    train["val_every_n_epochs"] = 1
cfg = {
    "dataset_reader": {"class_name": "basic_classification_reader", "x": "text", "y": "label",
                       "data_path": str(data)},
    "dataset_iterator": {"class_name": "basic_classification_iterator", "seed": 42},
    "chainer": {
        "in": ["x"], "in_y": ["y"],
        "pipe": [
            {"id": "classes_vocab", "class_name": "simple_vocab", "fit_on": ["y"],
             "save_path": "{MODEL_PATH}/classes.dict", "load_path": "{MODEL_PATH}/classes.dict",
             "in": "y", "out": "y_ids"},
            {"in": "x", "out": "x_tok", "class_name": "nltk_tokenizer", "tokenizer": "wordpunct_tokenize"},
            {"id": "token_vocab", "class_name": "simple_vocab", "fit_on": ["x_tok"],
             "special_tokens": ["<UNK>"], "unk_token": "<UNK>",
             "save_path": "{MODEL_PATH}/tokens.dict", "load_path": "{MODEL_PATH}/tokens.dict",
             "in": "x_tok", "out": "x_ids"},
            {"in": "x_ids", "out": "x_emb", "class_name": "one_hotter", "depth": "#token_vocab.len",
             "pad_zeros": True},
            {"in": "y_ids", "out": "y_onehot", "class_name": "one_hotter", "depth": "#classes_vocab.len",
             "single_vector": True},
            clf,
            {"in": "y_pred_probas", "out": "y_pred_ids", "class_name": "proba2labels", "max_proba": True},
            {"in": "y_pred_ids", "out": "y_pred_labels", "ref": "classes_vocab"},
        ],
        "out": ["y_pred_labels"],
    },
    "train": train,
    "metadata": {"variables": {"ROOT_PATH": str(Path(".").resolve()), "MODEL_PATH": str(model_path)}},
}
Path("config.json").write_text(json.dumps(cfg, indent=2))

from deeppavlov.deep import main  # noqa: E402

sys.argv = ["deeppavlov", "train", "config.json"]
try:
    main()
except SystemExit:
    pass

import deeppavlov  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

tag = "every_n_batches/loss" if a.every_batches > 0 else "every_n_epochs/loss"
acc = EventAccumulator(str(model_path / "logs" / "train_log"))
acc.Reload()
points = [(e.step, e.value) for e in acc.Scalars(tag)]
ev = None
if not a.no_val:
    vacc = EventAccumulator(str(model_path / "logs" / "valid_log"))
    vacc.Reload()
    if "every_n_epochs/accuracy" in vacc.Tags()["scalars"]:
        ev = [(e.step, e.value) for e in vacc.Scalars("every_n_epochs/accuracy")]
keep("config.json")
write_truth(framework=f"deeppavlov {deeppavlov.__version__}", settings=vars(a), loss_name="loss",
            step_unit=("batches seen, 1-based (`batches_seen` in the train report)" if a.every_batches > 0
                       else "epoch, 1-based (`epochs_done` in the train report)"),
            tolerance={"rel": 1e-6},
            record=f"the TensorBoard scalars its trainer writes (`train_log`, `{tag}`; float32)",
            train_loss=points, eval_loss=ev, eval_name="valid accuracy" if ev else None,
            higher_is_better=["valid accuracy"] if ev else None)
