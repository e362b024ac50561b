"""A user's PyTorch-Ignite script (``create_supervised_trainer`` / evaluator), logging in one of the ways
Ignite's own examples and handlers do:

- ``example``: the MNIST example's ``Epoch[e] Iteration[i/N] Loss: 0.12`` every ``--every`` iterations (i counts
  within the epoch), then ``Training Results - Epoch: e  Avg accuracy: .. Avg loss: ..`` and ``Validation
  Results`` per epoch;
- ``pbar``: ``ProgressBar(persist=True)`` showing the loss, and ``pbar.log_message`` every ``--every`` iterations;
- ``fbr``: ``FBResearchLogger`` (``Epoch [e/E]  [i/N]:  ETA: ..  loss: ..``) through ``logging``.

Truth: the engine's own ``state.output`` (the batch loss) at ``state.iteration`` (global, 1-based) for the
iterations the log prints, recorded by a handler at full precision.
"""

from __future__ import annotations

import argparse
import logging

from _truth import common_args, settings_of, write_truth

p = argparse.ArgumentParser()
p.add_argument("--style", default="example")
p.add_argument("--epochs", type=int, default=4)
p.add_argument("--every", type=int, default=10)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--batch", type=int, default=32)
common_args(p)
args = p.parse_args()

import torch  # noqa: E402
from ignite.engine import Events, create_supervised_evaluator, create_supervised_trainer  # noqa: E402
from ignite.metrics import Accuracy, Loss  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

torch.set_num_threads(1)
torch.manual_seed(args.seed)
X = torch.randn(1200, 16)
y = ((X[:, :4].sum(1) + 0.5 * torch.randn(1200)) > 0).long()
train_dl = DataLoader(TensorDataset(X[:960], y[:960]), batch_size=args.batch, shuffle=True)
val_dl = DataLoader(TensorDataset(X[960:], y[960:]), batch_size=120)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
crit = torch.nn.CrossEntropyLoss()
named = args.style == "fbr"  # FBResearchLogger shows a bare tensor output unnamed; a dict output by its keys
trainer = create_supervised_trainer(model, opt, crit, output_transform=(
    (lambda x, y, y_pred, loss: {"loss": loss.item()}) if named else (lambda x, y, y_pred, loss: loss.item())))
evaluator = create_supervised_evaluator(model, metrics={"accuracy": Accuracy(), "nll": Loss(crit)})
record: list = []


@trainer.on(Events.ITERATION_COMPLETED(every=args.every))
def _record(engine):
    out = engine.state.output
    record.append((engine.state.iteration, float(out["loss"] if named else out)))


if args.style == "example":
    @trainer.on(Events.ITERATION_COMPLETED(every=args.every))
    def log_training_loss(engine):
        it = (engine.state.iteration - 1) % len(train_dl) + 1
        print(f"Epoch[{engine.state.epoch}] Iteration[{it}/{len(train_dl)}] Loss: {engine.state.output:.4f}")

    @trainer.on(Events.EPOCH_COMPLETED)
    def log_results(engine):
        for name, dl in (("Training", train_dl), ("Validation", val_dl)):
            evaluator.run(dl)
            m = evaluator.state.metrics
            print(f"{name} Results - Epoch: {engine.state.epoch}  Avg accuracy: {m['accuracy']:.2f} "
                  f"Avg loss: {m['nll']:.2f}")
elif args.style == "pbar":
    from ignite.handlers import ProgressBar

    pbar = ProgressBar(persist=True)
    pbar.attach(trainer, output_transform=lambda x: {"loss": x})

    @trainer.on(Events.ITERATION_COMPLETED(every=args.every))
    def log_message(engine):
        pbar.log_message(f"iteration {engine.state.iteration}: loss {engine.state.output:.5f}")
else:
    from ignite.handlers import FBResearchLogger

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    FBResearchLogger(logger=logging.getLogger("train"), show_output=True).attach(
        trainer, name="Train", every=args.every, optimizer=opt)

trainer.run(train_dl, max_epochs=args.epochs)
write_truth(framework="pytorch-ignite", settings=settings_of(args), label=args.label, should_stop=args.should_stop,
            loss_name="loss", step_unit="engine.state.iteration (global, 1-based)",
            tolerance={"rel": 1e-3, "abs": 5e-5}, record="the engine's state.output at state.iteration",
            train_loss=record, steps_per_epoch=len(train_dl))
