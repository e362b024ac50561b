"""MONAI 1.6: a small 2D UNet (segmentation, Dice loss) or classifier (cross entropy) on synthetic images.

Either the workflow way: ``SupervisedTrainer`` with ``StatsHandler`` (its logger, ``monai.handlers.StatsHandler``,
prints to stdout: ``2026-12-05 23:20:01,123 - INFO - Epoch: 2/6, Iter: 3/8 -- train_loss: 0.6931``; the loss as
``{:.4f}``), a ``SupervisedEvaluator`` run by ``ValidationHandler`` each epoch (``Epoch[2] Metrics -- val_dice:
0.6``, ``Key metric: val_dice best value: ... at epoch: 2``), ignite's own ``Engine run ... complete`` lines, and
optionally ``LrScheduleHandler`` stepping a scheduler each epoch; or the tutorials' plain loop (``epoch 2/6``,
``3/8, train_loss: 0.6931``, ``epoch 2 average loss: 0.7012``). Truth: the batch loss at the global iteration
(the engine's ``state.iteration``, 1-based; in the loop, the same count).
"""

from __future__ import annotations

import argparse
import logging
import sys

from lib_truth import seed_all, write_truth

ap = argparse.ArgumentParser()
ap.add_argument("--task", default="seg", choices=["seg", "cls"])
ap.add_argument("--fmt", default="workflow", choices=["workflow", "loop"])
ap.add_argument("--epochs", type=int, default=6)
ap.add_argument("--lr", type=float, default=1e-2)
ap.add_argument("--optim", default="adam", choices=["adam", "sgd"])
ap.add_argument("--step-gamma", type=float, default=0.0, help="an LR scheduler's gamma (StepLR each epoch)")
ap.add_argument("--label", default="healthy")
ap.add_argument("--should-stop", action="store_true")
a = ap.parse_args()
seed_all(0)

import torch  # noqa: E402
from monai.data import DataLoader, Dataset  # noqa: E402
from monai.losses import DiceLoss  # noqa: E402
from monai.networks.nets import Classifier, UNet  # noqa: E402
from monai.utils import set_determinism  # noqa: E402

set_determinism(0)
torch.set_num_threads(1)
g = torch.Generator().manual_seed(0)
n, size = 96, 32
yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
items = []
for _i in range(n):
    cy, cx = torch.randint(8, 24, (2,), generator=g)
    r = 3 + int(torch.randint(0, 6, (1,), generator=g))
    mask = (((yy - cy) ** 2 + (xx - cx) ** 2) <= r * r).float()[None]
    img = mask * (0.6 + 0.4 * torch.rand(1, generator=g)) + 0.35 * torch.randn(1, size, size, generator=g)
    items.append({"image": img, "label": mask if a.task == "seg" else torch.tensor(int(r >= 6))})
train = DataLoader(Dataset(items[:80]), batch_size=10, shuffle=True, generator=torch.Generator().manual_seed(1))
val = DataLoader(Dataset(items[80:]), batch_size=16)
if a.task == "seg":
    net = UNet(spatial_dims=2, in_channels=1, out_channels=1, channels=(8, 16, 32), strides=(2, 2), num_res_units=1)
    loss_fn = DiceLoss(sigmoid=True)
else:
    net = Classifier(in_shape=(1, size, size), classes=2, channels=(8, 16, 32), strides=(2, 2, 2))
    loss_fn = torch.nn.CrossEntropyLoss()
opt = (torch.optim.Adam(net.parameters(), lr=a.lr) if a.optim == "adam"
       else torch.optim.SGD(net.parameters(), lr=a.lr, momentum=0.9))
# a schedule bug: StepLR's gamma > 1 (10 where 0.1 was meant)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=a.step_gamma) if a.step_gamma else None
losses: list[tuple[int, float]] = []

if a.fmt == "loop":
    step = 0
    for epoch in range(a.epochs):
        print("-" * 10)
        print(f"epoch {epoch + 1}/{a.epochs}")
        net.train()
        epoch_loss, k = 0.0, 0
        for batch in train:
            k += 1
            step += 1
            opt.zero_grad()
            out = net(batch["image"])
            loss = loss_fn(out, batch["label"])
            loss.backward()
            opt.step()
            epoch_loss += loss.item()
            losses.append((step, loss.item()))
            print(f"{k}/{len(train)}, train_loss: {loss.item():.4f}")
        print(f"epoch {epoch + 1} average loss: {epoch_loss / k:.4f}")
        if sched is not None:
            sched.step()
        net.eval()
        with torch.no_grad():
            if a.task == "seg":
                dice = torch.stack([1 - DiceLoss(sigmoid=True)(net(b["image"]), b["label"]) for b in val]).mean()
                print(f"current epoch: {epoch + 1} current mean dice: {dice.item():.4f}")
            else:
                acc = torch.cat([(net(b["image"]).argmax(1) == b["label"]).float() for b in val]).mean()
                print(f"current epoch: {epoch + 1} current accuracy: {acc.item():.4f}")
    record = "the loop's loss.item(), printed '{:.4f}'"
else:
    from ignite.metrics import Accuracy  # noqa: E402
    from monai.engines import SupervisedEvaluator, SupervisedTrainer  # noqa: E402
    from monai.handlers import LrScheduleHandler, MeanDice, StatsHandler, ValidationHandler, from_engine  # noqa: E402
    from monai.transforms import Activationsd, AsDiscreted, Compose  # noqa: E402

    logging.basicConfig(stream=sys.stdout, level=logging.INFO)
    if a.task == "seg":
        post = Compose([Activationsd(keys="pred", sigmoid=True), AsDiscreted(keys="pred", threshold=0.5)])
        metric = {"val_mean_dice": MeanDice(include_background=True, output_transform=from_engine(["pred", "label"]))}
    else:
        post = None
        metric = {"val_acc": Accuracy(output_transform=lambda o: (torch.stack([x["pred"] for x in o]),
                                                                   torch.as_tensor([int(x["label"]) for x in o])))}
    evaluator = SupervisedEvaluator(device=torch.device("cpu"), val_data_loader=val, network=net, postprocessing=post,
                                    key_val_metric=metric, val_handlers=[StatsHandler(iteration_log=False)])
    handlers = [ValidationHandler(validator=evaluator, interval=1, epoch_level=True),
                StatsHandler(tag_name="train_loss", output_transform=from_engine(["loss"], first=True))]
    if sched is not None:
        handlers.append(LrScheduleHandler(lr_scheduler=sched, print_lr=True))
    trainer = SupervisedTrainer(device=torch.device("cpu"), max_epochs=a.epochs, train_data_loader=train,
                                network=net, optimizer=opt, loss_function=loss_fn, train_handlers=handlers)

    @trainer.on(__import__("ignite").engine.Events.ITERATION_COMPLETED)
    def _keep(engine):
        losses.append((engine.state.iteration, float(engine.state.output[0]["loss"])))

    trainer.run()
    record = "the engine's state.output loss at ITERATION_COMPLETED (StatsHandler prints it '{:.4f}')"

write_truth(framework=f"monai {a.fmt} {a.task}", settings=vars(a), label=a.label, should_stop=a.should_stop,
            loss_name="train_loss", step_unit="iteration, 1-based (global: the engine's state.iteration)",
            tolerance={"rel": 0.0, "abs": 5.1e-5}, record=record, train_loss=losses, steps_per_epoch=len(train))
