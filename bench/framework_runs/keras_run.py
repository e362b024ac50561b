"""Keras 3 on the torch backend: a small Dense model on synthetic data, ``model.fit(verbose=1 or 2)``.

Truth: the History (``history.history['loss']``, one value per epoch; the CSVLogger file agrees), steps = epochs
(1-based, as ``Epoch e/E`` prints them); ``steps_per_epoch`` says how many batches an epoch has, so a reader
numbering by batches has each epoch's value at e × steps_per_epoch.
Settings: verbose (1/2), epochs, n_train, learning_rate, batch_size, validation (bool), task
(regression/classification), optimizer (adam/sgd), lr_growth (the rate multiplied by it each epoch).
"""

from __future__ import annotations

import csv
import math
import os

from _common import parse_args, seed_all, write_truth

os.environ.setdefault("KERAS_BACKEND", "torch")
out, st, work = parse_args()
seed_all(st.get("seed", 0))

import keras  # noqa: E402
import numpy as np  # noqa: E402

keras.utils.set_random_seed(st.get("seed", 0))
rng = np.random.default_rng(0)
n = st.get("n_train", 1024)
x = rng.normal(size=(n, 20)).astype("float32")
w = rng.normal(size=(20,)).astype("float32")
classification = st.get("task", "regression") == "classification"
if classification:
    y = (x @ w + 0.5 * rng.normal(size=n) > 0).astype("float32")
    head, loss = keras.layers.Dense(1, activation="sigmoid"), "binary_crossentropy"
else:
    y = (np.sin(x @ w) + 0.1 * rng.normal(size=n)).astype("float32")
    head, loss = keras.layers.Dense(1), "mse"
model = keras.Sequential([keras.Input((20,)), keras.layers.Dense(64, activation="relu"),
                          keras.layers.Dense(32, activation="relu"), head])
lr = st.get("learning_rate", 1e-3)
opt = keras.optimizers.SGD(lr, momentum=0.9) if st.get("optimizer", "adam") == "sgd" else keras.optimizers.Adam(lr)
model.compile(optimizer=opt, loss=loss, metrics=["accuracy"] if classification else ["mae"])
if st.get("summary", True):
    model.summary()
bs = st.get("batch_size", 32)
csv_path = work / "history.csv"
g = st.get("lr_growth")  # the learning rate multiplied by this each epoch (a schedule gone wrong)
growth = [keras.callbacks.LearningRateScheduler(lambda e, r: r * g if e else r)] if g else []
hist = model.fit(x, y, epochs=st.get("epochs", 5), batch_size=bs, verbose=st.get("verbose", 1),
                 validation_split=0.2 if st.get("validation", True) else 0.0,
                 callbacks=[keras.callbacks.CSVLogger(str(csv_path))] + growth)
h = hist.history["loss"]
with open(csv_path) as f:
    rows = list(csv.DictReader(f))
assert len(rows) == len(h) and all(math.isclose(float(r["loss"]), v, rel_tol=1e-6) or math.isnan(v)
                                   for r, v in zip(rows, h, strict=True))
n_fit = int(n * (0.8 if st.get("validation", True) else 1.0))
write_truth(out, framework="keras", settings=st, train_loss=list(enumerate(h, start=1)), loss_name="loss",
            step_unit="epoch (History index + 1, as 'Epoch e/E' prints it)", tolerance={"rel": 1e-3, "abs": 5e-5},
            record="keras History (CSVLogger agrees)", steps_per_epoch=math.ceil(n_fit / bs),
            extra={"val_loss": [[i + 1, v] for i, v in enumerate(hist.history.get("val_loss", []))]})
