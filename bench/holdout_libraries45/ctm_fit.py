"""contextualized-topic-models: a ``CombinedTM`` or ``ZeroShotTM`` fitted on a small synthetic corpus whose
bag of words and "contextual" document embeddings are made here (precomputed embeddings, as its documentation allows:
no sentence-transformers model is loaded), put in the library's ``CTMDataset``. ``fit`` shows a tqdm bar on stderr
whose description is set each epoch: ``Epoch: [3/20]\\t Seen Samples: [1536/10240]\\tTrain Loss: 123.456...\\tTime:
0:00:00.01`` (the loss printed as Python prints a float; with a validation set ``Valid Loss`` too and, with
``verbose=True``, a printed ``Epoch: [3/20]\\tSamples: [...]\\tValidation Loss: ...`` line); ``verbose=True`` also
prints its settings first. Truth: the train loss of each epoch as the model's own ``_train_epoch`` returns it (the
mean over the epoch's samples of the loss it optimises), at the epoch, 1-based."""

from __future__ import annotations

import argparse

import numpy as np
from h45_truth import seed_all, tol_sig, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="combined", choices=["combined", "zeroshot"])
ap.add_argument("--topics", type=int, default=5)
ap.add_argument("--epochs", type=int, default=20)
ap.add_argument("--lr", type=float, default=2e-3)
ap.add_argument("--solver", default="adam")
ap.add_argument("--momentum", type=float, default=0.99)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--docs", type=int, default=512)
ap.add_argument("--vocab", type=int, default=300)
ap.add_argument("--val", action="store_true")
ap.add_argument("--verbose", action="store_true")
ap.add_argument("--model-type", default="prodLDA")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

from importlib.metadata import version  # noqa: E402

import contextualized_topic_models  # noqa: E402
import torch  # noqa: E402
from contextualized_topic_models.datasets.dataset import CTMDataset  # noqa: E402
from contextualized_topic_models.models.ctm import CombinedTM, ZeroShotTM  # noqa: E402

torch.set_num_threads(1)
rng = np.random.default_rng(0)
K, V, D, E = 4, a.vocab, a.docs + (128 if a.val else 0), 32
topics = rng.dirichlet(np.full(V, 0.05), size=K)
theta = rng.dirichlet(np.full(K, 0.3), size=D)
lengths = rng.integers(30, 80, size=D)
bow = np.stack([rng.multinomial(n, th @ topics) for n, th in zip(lengths, theta, strict=True)]).astype(np.float32)
proj = rng.normal(size=(K, E))
emb = (theta @ proj + 0.1 * rng.normal(size=(D, E))).astype(np.float32)
idx2token = {i: f"w{i}" for i in range(V)}
train = CTMDataset(emb[:a.docs], bow[:a.docs], idx2token)
val = CTMDataset(emb[a.docs:], bow[a.docs:], idx2token) if a.val else None

cls = CombinedTM if a.model == "combined" else ZeroShotTM
losses: list[float] = []


class Recorded(cls):  # type: ignore[valid-type,misc]  # the model's own per-epoch train loss, as its _train_epoch returns it
    def _train_epoch(self, loader):
        out = super()._train_epoch(loader)
        losses.append(float(out[1]))
        return out


ctm = Recorded(bow_size=V, contextual_size=E, n_components=a.topics, num_epochs=a.epochs, lr=a.lr, solver=a.solver,
               momentum=a.momentum, batch_size=a.batch, model_type=a.model_type, num_data_loader_workers=0)
ctm.fit(train, validation_dataset=val, verbose=a.verbose, patience=a.epochs)
print(ctm.get_topic_lists(5))

write_truth(framework=f"contextualized-topic-models {version('contextualized-topic-models')}", settings=vars(a),
            loss_name="Train Loss", step_unit="epoch, 1-based (`Epoch: [N/M]`)", tolerance=tol_sig(15),
            record="the per-epoch train loss `CTM._train_epoch` returns (recorded by a subclass)",
            train_loss=[(i + 1, v) for i, v in enumerate(losses)])
_ = contextualized_topic_models
