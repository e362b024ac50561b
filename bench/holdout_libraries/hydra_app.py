"""A Hydra app training a small torch model, logging with ``logging`` as Hydra configures it.

Hydra's default job logging prints ``[2026-12-05 14:50:00,123][__main__][INFO] - ...`` to stdout and to
``outputs/<date>/<time>/hydra_app.log``; the config is overridden on the command line (``optim.lr=0.5``). The
truth is the values the app logged (kept at full precision), at the global optimizer step (1-based) the line
names (``--fmt kv``: ``step=N``; ``--fmt epoch``: ``Epoch e [i/n]``, the step is (e-1)*n+i).
The label comes from the environment (Hydra owns the command line): HOLDOUT_LABEL, HOLDOUT_SHOULD_STOP.
"""

from __future__ import annotations

import glob
import logging
import os
from dataclasses import dataclass, field

import hydra
from hydra.core.config_store import ConfigStore
from lib_truth import keep, seed_all, write_truth
from omegaconf import OmegaConf


@dataclass
class Optim:
    name: str = "adam"
    lr: float = 0.003
    ramp: float = 1.0


@dataclass
class Train:
    epochs: int = 4
    batch_size: int = 32
    log_every: int = 10
    fmt: str = "kv"


@dataclass
class Config:
    optim: Optim = field(default_factory=Optim)
    train: Train = field(default_factory=Train)
    seed: int = 0


ConfigStore.instance().store(name="config", node=Config)
log = logging.getLogger(__name__)


@hydra.main(version_base=None, config_name="config")
def main(cfg: Config) -> None:
    import torch

    seed_all(cfg.seed)
    log.info("config:\n%s", OmegaConf.to_yaml(cfg))
    g = torch.Generator().manual_seed(cfg.seed)
    X = torch.randn(960, 20, generator=g)
    y = (X[:, :5].sum(1) > 0).long() + (X[:, 5] > 0.5).long()
    model = torch.nn.Sequential(torch.nn.Linear(20, 48), torch.nn.ReLU(), torch.nn.Linear(48, 3))
    opt = (torch.optim.Adam(model.parameters(), lr=cfg.optim.lr) if cfg.optim.name == "adam"
           else torch.optim.SGD(model.parameters(), lr=cfg.optim.lr, momentum=0.9))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: cfg.optim.ramp ** s)
    n = len(X) // cfg.train.batch_size
    step, pts = 0, []
    for epoch in range(1, cfg.train.epochs + 1):
        perm = torch.randperm(len(X), generator=g)
        for i in range(1, n + 1):
            idx = perm[(i - 1) * cfg.train.batch_size:i * cfg.train.batch_size]
            loss = torch.nn.functional.cross_entropy(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % cfg.train.log_every == 0:
                v = loss.item()
                pts.append((step, v))
                if cfg.train.fmt == "kv":
                    log.info(f"step={step} epoch={epoch} loss={v} lr={sched.get_last_lr()[0]:.3e}")
                else:
                    log.info("Epoch %d [%d/%d] train_loss: %.6f", epoch, i, n, v)
        log.info("epoch %d done", epoch)
    write_truth(framework="hydra + torch (logging)", settings=OmegaConf.to_container(cfg),
                label=os.environ.get("HOLDOUT_LABEL", "healthy"),
                should_stop=os.environ.get("HOLDOUT_SHOULD_STOP") == "1", loss_name="loss",
                step_unit="optimizer step, 1-based (kv: step=N; epoch: (e-1)*n+i)",
                tolerance={"rel": 1e-9, "abs": 0.0 if cfg.train.fmt == "kv" else 5.1e-7},
                record="the loss values the app logged", train_loss=pts, steps_per_epoch=n)
    for f in glob.glob("outputs/*/*/*.log") + glob.glob("outputs/*/*/.hydra/config.yaml"):
        keep(f, "hydra_outputs/" + "/".join(f.split("/")[3:]))


if __name__ == "__main__":
    main()
