"""pytorch-widedeep 1.x: a ``WideDeep`` model (wide linear part + ``TabMlp``) on a synthetic tabular dataset,
trained by its ``Trainer`` with ``verbose=1``: per epoch a tqdm bar ``epoch 3: 100%|...| 13/13 [00:00<00:00, ...,
loss=0.512, metrics={'acc': 0.7681}]`` and, with a validation split, ``valid: 100%|...| loss=..., metrics={...}``.

Truth: ``Trainer.history['train_loss']`` (the library's own record: the epoch's mean loss, the bar's last postfix),
at the epoch, 1-based.
"""

from __future__ import annotations

import argparse

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=10)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--objective", default="binary", choices=["binary", "regression"])
ap.add_argument("--val", action="store_true")
ap.add_argument("--lr-history", action="store_true")
ap.add_argument("--optim", default="adam")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
from pytorch_widedeep import Trainer  # noqa: E402
from pytorch_widedeep.models import TabMlp, Wide, WideDeep  # noqa: E402
from pytorch_widedeep.preprocessing import TabPreprocessor, WidePreprocessor  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
n = 1600
df = pd.DataFrame({"color": rng.choice(["red", "green", "blue"], n), "size": rng.choice(["s", "m", "l", "xl"], n),
                   "x1": rng.normal(size=n), "x2": rng.normal(size=n), "x3": rng.uniform(size=n)})
signal = df.x1 * 1.5 - df.x2 + (df.color == "red") * 1.0 + (df["size"] == "xl") * 0.8 + rng.normal(scale=0.5, size=n)
df["target"] = (signal > 0.3).astype(int) if a.objective == "binary" else signal
wide_pre = WidePreprocessor(wide_cols=["color", "size"], crossed_cols=[("color", "size")])
X_wide = wide_pre.fit_transform(df)
tab_pre = TabPreprocessor(cat_embed_cols=["color", "size"], continuous_cols=["x1", "x2", "x3"])
X_tab = tab_pre.fit_transform(df)
wide = Wide(input_dim=int(np.unique(X_wide).shape[0]), pred_dim=1)
deep = TabMlp(column_idx=tab_pre.column_idx, cat_embed_input=tab_pre.cat_embed_input,
              continuous_cols=["x1", "x2", "x3"], mlp_hidden_dims=[32, 16])
model = WideDeep(wide=wide, deeptabular=deep)
params = model.parameters()
opt = (torch.optim.Adam(params, lr=a.lr) if a.optim == "adam" else torch.optim.SGD(params, lr=a.lr, momentum=0.9))
kw: dict = {}
callbacks = []
if a.lr_history:
    from pytorch_widedeep.callbacks import LRHistory

    callbacks.append(LRHistory(n_epochs=a.epochs))
    kw["lr_schedulers"] = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
metrics = []
if a.objective == "binary":
    from pytorch_widedeep.metrics import Accuracy

    metrics = [Accuracy]
trainer = Trainer(model, objective=a.objective, optimizers=opt, metrics=metrics, callbacks=callbacks, verbose=1,
                  seed=0, **kw)
trainer.fit(X_wide=X_wide, X_tab=X_tab, target=df["target"].values, n_epochs=a.epochs, batch_size=128,
            val_split=0.2 if a.val else None)
h = trainer.history
n_train = n - int(n * 0.2) if a.val else n
write_truth(framework="pytorch-widedeep", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="train_loss", step_unit="epoch, 1-based (the bar's 'epoch N')",
            tolerance={"rel": 1e-6, "sig": 3, "abs": 5e-5},
            record="Trainer.history['train_loss'] (the epoch's mean loss; the bar's last postfix prints it to 3 "
                   "significant digits)",
            train_loss=[(i + 1, v) for i, v in enumerate(h["train_loss"])],
            val_loss=[(i + 1, v) for i, v in enumerate(h.get("val_loss", []))] or None,
            steps_per_epoch=-(-n_train // 128))
