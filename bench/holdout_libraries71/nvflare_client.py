"""The client training script of the NVFlare runs (bench/holdout_libraries71/nvflare_fedavg.py): NVFlare's Client API
the way its hello-pt example uses it (``flare.init``, ``flare.receive`` / ``flare.send`` of an ``FLModel`` each
round, ``nvflare.client.tracking.SummaryWriter`` for the loss, a ``print`` every few iterations), on a tiny torch MLP
over each site's own synthetic data. Not a generator: the simulator runs it on each site."""

from __future__ import annotations

import argparse
import zlib

import numpy as np
import nvflare.client as flare
import torch
from nvflare.app_common.abstract.fl_model import FLModel
from nvflare.client.tracking import SummaryWriter
from torch import nn

torch.set_num_threads(1)


def parse() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--task", default="reg", choices=["reg", "cls"])
    ap.add_argument("--optimizer", default="sgd", choices=["sgd", "adam"])
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--lr-growth", type=float, default=1.0, help="multiply the local lr by this every round")
    ap.add_argument("--local-epochs", type=int, default=1)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--n", type=int, default=128)
    ap.add_argument("--print-every", type=int, default=4)
    return ap.parse_args()


class TinyRegressor(nn.Module):
    out = 1

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, self.out))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class TinyClassifier(TinyRegressor):
    out = 3


def main() -> None:
    a = parse()
    flare.init()
    site = flare.get_site_name()
    torch.manual_seed(0)
    shared = np.random.default_rng(0)  # the task is the same at every site, its rows are the site's own
    W = shared.normal(size=(8, 3))
    w = shared.normal(size=(8,))
    rng = np.random.default_rng(zlib.crc32(site.encode()))
    X = rng.normal(size=(a.n, 8)).astype("float32")
    if a.task == "cls":
        Y = torch.from_numpy((X @ W + 0.5 * rng.normal(size=(a.n, 3))).argmax(1))
        loss_fn: nn.Module = nn.CrossEntropyLoss()
    else:
        Y = torch.from_numpy((2 * np.tanh(X @ w / 2) + 0.5 * X[:, 0] + 0.1 * rng.normal(size=a.n))
                             .astype("float32")[:, None])
        loss_fn = nn.MSELoss()
    data = torch.utils.data.TensorDataset(torch.from_numpy(X), Y)
    loader = torch.utils.data.DataLoader(data, batch_size=a.batch, shuffle=True)
    model = TinyClassifier() if a.task == "cls" else TinyRegressor()
    writer = SummaryWriter()
    steps = a.local_epochs * len(loader)
    while flare.is_running():
        input_model = flare.receive()
        rnd = input_model.current_round
        print(f"site={site}, current_round={rnd}")
        model.load_state_dict(input_model.params)
        lr = a.lr * a.lr_growth ** rnd
        opt = (torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9) if a.optimizer == "sgd"
               else torch.optim.Adam(model.parameters(), lr=lr))
        running_loss = 0.0
        for epoch in range(a.local_epochs):
            for i, (x, y) in enumerate(loader):
                opt.zero_grad()
                loss = loss_fn(model(x), y)
                loss.backward()
                opt.step()
                running_loss += loss.item()
                if i % a.print_every == a.print_every - 1:
                    avg = running_loss / a.print_every
                    print(f"site={site}, Epoch: {epoch}/{a.local_epochs}, Iteration: {i}, Loss: {avg}")
                    global_step = rnd * steps + epoch * len(loader) + i
                    writer.add_scalar("train_loss", avg, global_step)
                    running_loss = 0.0
        print(f"Finished Training for {site}")
        flare.send(FLModel(params=model.state_dict(), metrics={"loss": avg},
                           meta={"NUM_STEPS_CURRENT_ROUND": steps}))


if __name__ == "__main__":
    main()
