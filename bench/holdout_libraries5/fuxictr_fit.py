"""FuxiCTR: a small CTR model (embeddings of the categorical columns, a factorization-machine term and an MLP, written
on its ``BaseModel`` / ``FeatureEmbedding`` / ``MLP_Block`` / ``FactorizationMachine`` as its model zoo's models are)
fitted by ``BaseModel.fit`` on a synthetic click CSV, in the flow of its CSV demo: ``set_logger(params)`` (python
logging at INFO to stderr and to its own log file ``<model_root>/<dataset_id>/<model_id>.log``, format
``%(asctime)s P%(process)d %(levelname)s %(message)s``), ``FeatureProcessor`` + ``build_dataset`` (CSV to parquet),
``RankDataLoader``. Every ``eval_steps`` batches (by default once an epoch) it logs ``Train loss: 0.512345`` (the
mean of the batches' losses since the last one), then ``Evaluation @epoch 2 - batch 40:``, ``[Metrics] AUC: 0.71 -
logloss: 0.59``, ``Save best model: monitor(max)=0.71`` or ``Monitor(max)=0.70 STOP!`` and learning-rate reduction on
plateau; ``verbose=1`` adds a tqdm bar per epoch on stdout. Truth: the losses its ``train_step`` returns (kept by the
model as it returns them), averaged per logging window exactly as ``train_epoch`` does; the same truth for its own log
file (``truth_store.json``)."""

from __future__ import annotations

import argparse
import logging
import os

import numpy as np
import pandas as pd
from h5_truth import dest, keep, seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=8)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adagrad"])
ap.add_argument("--batch", type=int, default=128)
ap.add_argument("--eval-steps", type=int, default=0, help="0: once an epoch (eval_steps: null)")
ap.add_argument("--verbose", type=int, default=1)
ap.add_argument("--patience", type=int, default=2)
ap.add_argument("--no-reduce-lr", action="store_true")
ap.add_argument("--n", type=int, default=4000)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()

np.Inf = np.inf  # type: ignore[attr-defined]  # the numpy-2 shim: fuxictr 2.3.9 still names np.Inf
import fuxictr  # noqa: E402
import torch  # noqa: E402
from fuxictr.features import FeatureMap  # noqa: E402
from fuxictr.preprocess import FeatureProcessor, build_dataset  # noqa: E402
from fuxictr.pytorch.dataloaders import RankDataLoader  # noqa: E402
from fuxictr.pytorch.layers import FactorizationMachine, FeatureEmbedding, MLP_Block  # noqa: E402
from fuxictr.pytorch.models import BaseModel  # noqa: E402
from fuxictr.pytorch.torch_utils import seed_everything  # noqa: E402
from fuxictr.utils import print_to_json, set_logger  # noqa: E402

torch.set_num_threads(1)
seed_all(0)
cats = ["userid", "adgroup_id", "pid", "cate_id", "brand", "age_level"]
vocab = {"userid": 300, "adgroup_id": 200, "pid": 2, "cate_id": 20, "brand": 40, "age_level": 7}
params = {"dataset_id": "tiny_synth_csv", "model_id": "FMNet_synth", "model_root": "./checkpoints/",
          "data_root": "./data/", "data_format": "csv",
          "train_data": "./data/csv/train.csv", "valid_data": "./data/csv/valid.csv",
          "test_data": "./data/csv/test.csv",
          "min_categr_count": 1,
          "feature_cols": [{"name": cats, "active": True, "dtype": "str", "type": "categorical"}],
          "label_col": {"name": "clk", "dtype": "float"},
          "loss": "binary_crossentropy", "metrics": ["AUC"], "task": "binary_classification",
          "optimizer": {"adam": "adam", "sgd": "SGD", "adagrad": "Adagrad"}[a.optimizer], "learning_rate": a.lr,
          "embedding_dim": 8, "hidden_units": [64, 32],
          "hidden_activations": "relu", "net_regularizer": 0, "embedding_regularizer": 1.e-8, "batch_norm": False,
          "net_dropout": 0, "batch_size": a.batch, "epochs": a.epochs, "shuffle": True, "seed": 2019,
          "monitor": "AUC", "monitor_mode": "max", "verbose": a.verbose, "early_stop_patience": a.patience,
          "eval_steps": a.eval_steps or None, "save_best_only": True, "reduce_lr_on_plateau": not a.no_reduce_lr,
          "num_workers": 0, "gpu": -1}

rng = np.random.default_rng(0)
n = a.n + 2 * (a.n // 4)
df = pd.DataFrame({c: rng.integers(0, vocab[c], size=n) for c in cats})
bias = {c: rng.normal(size=vocab[c]) * s for c, s in zip(cats, [0.8, 0.8, 0.3, 0.5, 0.5, 0.3], strict=True)}
logit = sum(bias[c][df[c].to_numpy()] for c in cats) + 0.8 * (df["cate_id"] % 3 == df["age_level"] % 3) - 1.0
df["clk"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
os.makedirs("./data/csv", exist_ok=True)
df.iloc[:a.n].to_csv(params["train_data"], index=False)
df.iloc[a.n:a.n + a.n // 4].to_csv(params["valid_data"], index=False)
df.iloc[a.n + a.n // 4:].to_csv(params["test_data"], index=False)


class FMNet(BaseModel):
    """Embeddings, an FM term and an MLP on the flattened embeddings."""

    def __init__(self, feature_map, model_id="FMNet", gpu=-1, learning_rate=1e-3, embedding_dim=8,
                 hidden_units=(64, 32), hidden_activations="ReLU", net_dropout=0, batch_norm=False,
                 embedding_regularizer=None, net_regularizer=None, **kwargs):
        super().__init__(feature_map, model_id=model_id, gpu=gpu, embedding_regularizer=embedding_regularizer,
                         net_regularizer=net_regularizer, **kwargs)
        self.embedding_layer = FeatureEmbedding(feature_map, embedding_dim)
        self.fm = FactorizationMachine(feature_map)
        self.mlp = MLP_Block(input_dim=feature_map.sum_emb_out_dim(), output_dim=1, hidden_units=list(hidden_units),
                             hidden_activations=hidden_activations, output_activation=None,
                             dropout_rates=net_dropout, batch_norm=batch_norm)
        self.compile(kwargs["optimizer"], kwargs["loss"], learning_rate)
        self.reset_parameters()
        self.model_to_device()
        self.step_losses: list[float] = []

    def forward(self, inputs):
        X = self.get_inputs(inputs)
        emb = self.embedding_layer(X)
        y = self.fm(X, emb) + self.mlp(emb.flatten(start_dim=1))
        return {"y_pred": self.output_activation(y)}

    def train_step(self, batch_data):
        loss = super().train_step(batch_data)
        self.step_losses.append(loss.item())
        return loss


set_logger(params)
logging.info("Params: " + print_to_json(params))
seed_everything(seed=params["seed"])
encoder = FeatureProcessor(feature_cols=params["feature_cols"], label_col=params["label_col"],
                           dataset_id=params["dataset_id"], data_root=params["data_root"])
params["train_data"], params["valid_data"], params["test_data"] = build_dataset(
    encoder, train_data=params["train_data"], valid_data=params["valid_data"], test_data=params["test_data"])
data_dir = os.path.join(params["data_root"], params["dataset_id"])
feature_map = FeatureMap(params["dataset_id"], data_dir)
feature_map.load(os.path.join(data_dir, "feature_map.json"), params)
logging.info("Feature specs: " + print_to_json(feature_map.features))
train_gen, valid_gen = RankDataLoader(feature_map, stage="train", train_data=params["train_data"],
                                      valid_data=params["valid_data"], batch_size=params["batch_size"],
                                      data_format=params["data_format"], shuffle=params["shuffle"]).make_iterator()
model = FMNet(feature_map, **params)
model.fit(train_gen, validation_data=valid_gen, epochs=params["epochs"])
logging.info("***** Validation evaluation *****")
model.evaluate(valid_gen)

spe = model._steps_per_epoch
ev = model._eval_steps
losses = model.step_losses
series = []
for end in range(ev, len(losses) + 1, ev):
    tot = 0.0
    # train_epoch starts its sum at 0 every epoch: a window that began in the previous epoch sums this epoch's part
    for x in losses[max(end - ev, (end - 1) // spe * spe):end]:
        tot += x
    step = end // spe if not a.eval_steps else end
    series.append((step, tot / ev))
common = dict(framework=f"fuxictr {fuxictr.__version__}", settings=vars(a), loss_name="Train loss",
              tolerance=tol_decimals(6),
              record="the losses BaseModel.train_step returns (kept as it returns them), averaged per eval_steps "
                     "window as train_epoch does")
if a.eval_steps:
    unit = ("global batch, 1-based (`Evaluation @epoch E - batch B:` after the value: (E - 1) x steps_per_epoch + B)")
    extra = {"steps_per_epoch": spe}
else:
    unit = "epoch, 1-based (`Evaluation @epoch E - batch B:` after the value; `Epoch=E end`)"
    extra = {"steps_per_epoch": spe}  # a reader numbering the batches (E x steps_per_epoch) is equally right
write_truth(step_unit=unit, train_loss=series, **common, **extra)
log_file = os.path.join(params["model_root"], params["dataset_id"], params["model_id"] + ".log")
if dest() is not None:
    keep(log_file)
    write_truth(step_unit=unit, train_loss=series, name="truth_store.json", file=os.path.basename(log_file),
                **common, **extra)
