"""PyTorch Geometric: the loops of its examples, printed by ``torch_geometric.logging.log`` (``Epoch: 001, Loss:
0.6931, Train: 0.5000, Val: ..., Test: ...``), on graphs made locally (a stochastic block model; ``FakeDataset``).

``node``: a GCN trained full-batch on one graph (examples/gcn.py's loop). ``graph``: a GIN-style graph classifier
over a ``DataLoader`` of FakeDataset graphs with ``global_mean_pool`` (examples/mutag_gin.py's loop, the epoch's
mean loss). The truth is the loss values the script keeps (``loss.item()`` / the epoch mean), at the 1-based epoch.
"""

from __future__ import annotations

import argparse

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="node", choices=["node", "graph"])
ap.add_argument("--epochs", type=int, default=60)
ap.add_argument("--lr", type=float, default=0.01)
ap.add_argument("--opt", default="adam", choices=["adam", "sgd"])
ap.add_argument("--print", dest="printer", default="log", choices=["log", "fstring"])
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch_geometric.datasets import FakeDataset  # noqa: E402
from torch_geometric.loader import DataLoader  # noqa: E402
from torch_geometric.logging import log  # noqa: E402
from torch_geometric.nn import GCNConv, GINConv, global_mean_pool  # noqa: E402

torch.manual_seed(0)


def optimizer(params):
    return (torch.optim.Adam(params, lr=a.lr, weight_decay=5e-4) if a.opt == "adam"
            else torch.optim.SGD(params, lr=a.lr, momentum=0.9))


losses = []
if a.task == "node":
    from torch_geometric.data import Data
    from torch_geometric.utils import stochastic_blockmodel_graph

    sizes = [60, 60, 60]
    probs = [[0.12, 0.02, 0.02], [0.02, 0.12, 0.02], [0.02, 0.02, 0.12]]
    y = torch.cat([torch.full((k,), c) for c, k in enumerate(sizes)])
    centers = torch.randn(3, 16)
    data = Data(x=0.6 * centers[y] + torch.randn(len(y), 16), y=y,
                edge_index=stochastic_blockmodel_graph(sizes, probs, directed=False))
    n = data.num_nodes
    perm = torch.randperm(n)
    data.train_mask = torch.zeros(n, dtype=torch.bool)
    data.val_mask = torch.zeros(n, dtype=torch.bool)
    data.test_mask = torch.zeros(n, dtype=torch.bool)
    data.train_mask[perm[:60]] = True
    data.val_mask[perm[60:120]] = True
    data.test_mask[perm[120:]] = True

    class GCN(torch.nn.Module):
        def __init__(self, i, h, o):
            super().__init__()
            self.conv1 = GCNConv(i, h)
            self.conv2 = GCNConv(h, o)

        def forward(self, x, edge_index):
            x = F.dropout(x, p=0.5, training=self.training)
            x = self.conv1(x, edge_index).relu()
            x = F.dropout(x, p=0.5, training=self.training)
            return self.conv2(x, edge_index)

    model = GCN(16, 16, 3)
    opt = optimizer(model.parameters())
    for epoch in range(1, a.epochs + 1):
        model.train()
        opt.zero_grad()
        out = model(data.x, data.edge_index)
        loss = F.cross_entropy(out[data.train_mask], data.y[data.train_mask])
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            pred = model(data.x, data.edge_index).argmax(dim=-1)
        accs = [float((pred[m] == data.y[m]).float().mean()) for m in (data.train_mask, data.val_mask, data.test_mask)]
        losses.append(float(loss))
        if a.printer == "log":
            log(Epoch=epoch, Loss=float(loss), Train=accs[0], Val=accs[1], Test=accs[2])
        else:
            print(f"Epoch: {epoch:03d}, Loss: {float(loss):.4f}, Val: {accs[1]:.4f}, Test: {accs[2]:.4f}")
else:
    ds = FakeDataset(num_graphs=240, avg_num_nodes=14, num_channels=8, num_classes=2, task="graph")
    ds = ds.shuffle()
    train_loader = DataLoader(ds[:180], batch_size=32, shuffle=True)
    test_loader = DataLoader(ds[180:], batch_size=64)

    class GIN(torch.nn.Module):
        def __init__(self, i, h, o):
            super().__init__()
            self.c1 = GINConv(torch.nn.Sequential(torch.nn.Linear(i, h), torch.nn.ReLU(), torch.nn.Linear(h, h)))
            self.c2 = GINConv(torch.nn.Sequential(torch.nn.Linear(h, h), torch.nn.ReLU(), torch.nn.Linear(h, h)))
            self.lin = torch.nn.Linear(h, o)

        def forward(self, x, edge_index, batch):
            x = self.c1(x, edge_index).relu()
            x = self.c2(x, edge_index).relu()
            return self.lin(global_mean_pool(x, batch))

    model = GIN(8, 32, 2)
    opt = optimizer(model.parameters())

    def acc(loader):
        model.eval()
        correct = 0
        with torch.no_grad():
            for b in loader:
                correct += int((model(b.x, b.edge_index, b.batch).argmax(-1) == b.y).sum())
        return correct / len(loader.dataset)

    for epoch in range(1, a.epochs + 1):
        model.train()
        total = 0.0
        for b in train_loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(b.x, b.edge_index, b.batch), b.y)
            loss.backward()
            opt.step()
            total += loss.item() * b.num_graphs
        loss_ep = total / len(train_loader.dataset)
        losses.append(loss_ep)
        if a.printer == "log":
            log(Epoch=epoch, Loss=loss_ep, Train=acc(train_loader), Test=acc(test_loader))
        else:
            print(f"Epoch: {epoch:03d}, Loss: {loss_ep:.4f}, Train Acc: {acc(train_loader):.4f}, "
                  f"Test Acc: {acc(test_loader):.4f}")

write_truth(framework="torch_geometric", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="Loss", step_unit="epoch, 1-based ('Epoch: 001')", tolerance={"rel": 1e-9, "abs": 5.1e-5},
            record="the loss values the script keeps (loss.item(); the graph task: the epoch's mean)",
            train_loss=list(enumerate(losses, start=1)))
