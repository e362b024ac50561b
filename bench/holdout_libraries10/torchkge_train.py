"""torchkge: a knowledge-graph embedding model (``TransEModel``, ``DistMultModel``, ``ComplExModel``, ``TransHModel``)
trained on a small synthetic knowledge graph (``KnowledgeGraph`` from a pandas frame) with the training loop of
torchkge's README and docs: ``DataLoader``, ``BernoulliNegativeSampler`` / ``UniformNegativeSampler``, ``MarginLoss``
or ``BinaryCrossEntropyLoss``, a torch optimizer, and a ``tqdm(range(n_epochs), unit='epoch')`` bar whose description
is set after each epoch: ``Epoch 11 | mean loss: 103.72649`` (``{:.5f}``; tqdm on stderr, ``\\r`` redraws, no TTY).
Optionally a torch ``ExponentialLR`` stepped each epoch. Truth: the loop's own record of each epoch's mean batch loss
(the value the description prints), at the epoch, 1-based, as the description counts it."""

from __future__ import annotations

import argparse

import numpy as np
from h10_truth import seed_all, tol_decimals, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--model", default="transe", choices=["transe", "distmult", "complex", "transh"])
ap.add_argument("--loss", default="margin", choices=["margin", "bce"])
ap.add_argument("--optimizer", default="adam", choices=["adam", "sgd", "adagrad"])
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--gamma", type=float, default=0.0, help="ExponentialLR each epoch (0: none)")
ap.add_argument("--epochs", type=int, default=30)
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--dim", type=int, default=32)
ap.add_argument("--margin", type=float, default=1.0)
ap.add_argument("--sampler", default="bernoulli", choices=["bernoulli", "uniform"])
ap.add_argument("--entities", type=int, default=200)
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import pandas as pd  # noqa: E402
import torch  # noqa: E402
import torchkge  # noqa: E402
from torchkge.data_structures import KnowledgeGraph  # noqa: E402
from torchkge.models import ComplExModel, DistMultModel, TransEModel, TransHModel  # noqa: E402
from torchkge.sampling import BernoulliNegativeSampler, UniformNegativeSampler  # noqa: E402
from torchkge.utils import BinaryCrossEntropyLoss, DataLoader, MarginLoss  # noqa: E402
from tqdm.autonotebook import tqdm  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(0)

# a synthetic graph with structure: each relation maps an entity to a shifted entity of a group
rng = np.random.default_rng(0)
n_rel, rows = 6, []
for r in range(n_rel):
    heads = rng.choice(a.entities, size=a.entities * 3 // 2)
    for h in heads:
        t = (h * (r + 2) + 7 * r + rng.integers(0, 3)) % a.entities
        rows.append((f"e{h}", f"r{r}", f"e{t}"))
df = pd.DataFrame(rows, columns=["from", "rel", "to"]).drop_duplicates()
kg_train = KnowledgeGraph(df=df)

if a.model == "transe":
    model = TransEModel(a.dim, kg_train.n_ent, kg_train.n_rel, dissimilarity_type="L2")
elif a.model == "transh":
    model = TransHModel(a.dim, kg_train.n_ent, kg_train.n_rel)
elif a.model == "distmult":
    model = DistMultModel(a.dim, kg_train.n_ent, kg_train.n_rel)
else:
    model = ComplExModel(a.dim, kg_train.n_ent, kg_train.n_rel)
criterion = MarginLoss(a.margin) if a.loss == "margin" else BinaryCrossEntropyLoss()
if a.optimizer == "adam":
    optimizer = torch.optim.Adam(model.parameters(), lr=a.lr, weight_decay=1e-5)
elif a.optimizer == "sgd":
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr)
else:
    optimizer = torch.optim.Adagrad(model.parameters(), lr=a.lr)
scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, a.gamma) if a.gamma else None
sampler = (BernoulliNegativeSampler if a.sampler == "bernoulli" else UniformNegativeSampler)(kg_train)
dataloader = DataLoader(kg_train, batch_size=a.batch)

history = []
iterator = tqdm(range(a.epochs), unit="epoch")
for epoch in iterator:
    running_loss = 0.0
    for batch in dataloader:
        h, t, r = batch[0], batch[1], batch[2]
        n_h, n_t = sampler.corrupt_batch(h, t, r)
        optimizer.zero_grad()
        pos, neg = model(h, t, r, n_h, n_t)
        loss = criterion(pos, neg)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    if scheduler is not None:
        scheduler.step()
    mean = running_loss / len(dataloader)
    history.append((epoch + 1, mean))
    iterator.set_description(f"Epoch {epoch + 1} | mean loss: {mean:.5f}")
    model.normalize_parameters()

write_truth(framework=f"torchkge {torchkge.__version__}", settings=vars(a), loss_name="mean loss",
            step_unit="epoch, 1-based (`Epoch N | mean loss: ...`)", tolerance=tol_decimals(5),
            record="the training loop's own list of each epoch's mean batch loss (torchkge's README loop)",
            train_loss=history, n_triples=int(kg_train.n_facts), batches_per_epoch=len(dataloader))
